import DiffLabFormatting
import DiffLabJSON
import DiffLabReport
import DiffLabResults
import Testing

// Issue 10, "hostile input": the report must neither trap nor hang on any number a results file
// can hold. Two lines of defence are tested here: the readers refuse numbers outside each field's
// documented range (a typed error), and the plotting layer is total for every finite value.

/// The smallest positive subnormal, 4.9e-324 (written so, as the decimal literal underflows).
let tiniest = Double.leastNonzeroMagnitude
/// The subnormal nearest 1e-320: 2,024 times the smallest.
let subnormal = Double.leastNonzeroMagnitude * 2024

/// Finite values that broke, or could break, tick selection, axis mapping and formatting.
let hostileValues: [Double] = [
    0, -0.0, tiniest, subnormal, -tiniest, 1e-300, 2.5, 1e15, 9.5e15, 1e300, 1e308, 1.7976931348623157e308, -1e308,
    -1.7976931348623157e308,
]

/// The invariants every tick set must keep, for any input.
func checkTicks(_ ticks: TickSet, _ kind: ScaleKind, _ context: String) {
    #expect(ticks.lower.isFinite && ticks.upper.isFinite && ticks.lower < ticks.upper, "\(context): \(ticks.lower)…\(ticks.upper)")
    if kind == .log10 { #expect(ticks.lower > 0, "\(context)") }
    #expect(!ticks.major.isEmpty && ticks.major.count + ticks.minor.count <= 6_000, "\(context): \(ticks.major.count) ticks")
    #expect(ticks.major.allSatisfy { $0.isFinite && $0 >= ticks.lower && $0 <= ticks.upper }, "\(context): \(ticks.major)")
    #expect(ticks.minor.allSatisfy { $0.isFinite && $0 >= ticks.lower && $0 <= ticks.upper }, "\(context)")
    #expect(ticks.major == ticks.major.sorted(), "\(context)")
}

/// Before the fix, ticks for a value ≥ 1e308 looped for ever (`decadeFloor` clamped 10^309 to
/// 10^308 and never got past it), and so did the smallest subnormal the other way.
@Test(.timeLimit(.minutes(5)))
func ticksAndLabelsOfExtremeValuesTerminate() {
    checkTicks(logTicks(1e308, 1e308), .log10, "log 1e308")
    checkTicks(logTicks(1, 1.7976931348623157e308), .log10, "log 1…max")
    checkTicks(logTicks(tiniest, tiniest), .log10, "log min subnormal")
    checkTicks(linearTicks(0, 1e308), .linear, "linear 0…1e308")
    #expect(formatSignificant(1e308) == "1e308")
    #expect(formatSignificant(1.7976931348623157e308) == "1.8e308")
    #expect(formatSignificant(-1.7976931348623157e308, 2) == "-1.8e308")
    #expect(formatSignificant(subnormal) == "1e-320")
    #expect(formatSignificant(tiniest) == "4.94e-324")
    #expect(formatSignificant(9.996e20) == "1e21")
    #expect(formatSignificant(1234.5, .max) == "1234.5")
    #expect(NumberStyle.seconds.format(subnormal) == "1e-311 ns")
    #expect(NumberStyle.bytes.format(1e308) == "9.31e298 GiB")
}

@Test(arguments: [ScaleKind.linear, .log10])
func ticksKeepTheirInvariantsForEveryPairOfHostileValues(_ kind: ScaleKind) {
    for a in hostileValues {
        for b in hostileValues {
            checkTicks(ticks(kind, a, b), kind, "\(kind) \(a)…\(b)")
        }
    }
    // Huge targets and label counts are clamped, not trusted.
    checkTicks(linearTicks(0, 1, target: .max), .linear, "target .max")
    checkTicks(linearTicks(1e300, 1.0000000001e300, target: .max), .linear, "narrow target .max")
    checkTicks(logTicks(1e-300, 1e300, maxMajor: .max), .log10, "maxMajor .max")
    checkTicks(logTicks(1e-300, 1e300, maxMajor: .min), .log10, "maxMajor .min")
}

@Test(arguments: [ScaleKind.linear, .log10])
func axisPositionsAreFiniteOrNil(_ kind: ScaleKind) {
    for a in hostileValues {
        for b in hostileValues {
            let mapping = AxisMapping(kind: kind, domain: a, b, pixels: 300, 20)
            for value in hostileValues {
                if let position = mapping.position(value) { #expect(position.isFinite, "\(a)…\(b) at \(value)") }
            }
        }
    }
    // A domain wider than Double's range: both ends still land on their pixels.
    let wide = AxisMapping(kind: .linear, domain: -1.7976931348623157e308, 1.7976931348623157e308, pixels: 0, 100)
    #expect(wide.position(-1.7976931348623157e308) == 0)
    #expect(wide.position(0) == 50)
    #expect(wide.position(1.7976931348623157e308) == 100)
}

@Test func formattingIsTotalAndNeverPrintsNonFiniteForFiniteValues() {
    for value in hostileValues {
        let texts =
            [formatSignificant(value), formatSignificant(value, 1), formatSignificant(value, 17), svgNumber(value), formatGrouped(value)]
            + [NumberStyle.plain, .seconds, .bytes, .count].map { $0.format(value) }
        for text in texts {
            #expect(!text.isEmpty && !text.contains("nan") && !text.contains("inf"), "\(value): \(text)")
        }
    }
    #expect(formatGrouped(1_234_567.9) == "1,234,567")
    #expect(formatGrouped(1e300) == "1e300")
    #expect(!utcDateTime(.min).isEmpty && !utcDateTime(.max).isEmpty)
    #expect(utcDateTime(-86_401) == "1969-12-30 23:59:59 UTC")
}

@Test func boxSummaryOfAHugeSpreadIsFinite() throws {
    let summary = try #require(BoxSummary([-1.7976931348623157e308, 1.7976931348623157e308]))
    #expect(summary.median == 0)
    #expect(summary.lowerQuartile.isFinite && summary.upperQuartile.isFinite)
}

/// Every panel kind, on linear and log axes, for every pair of hostile values (as x and y, as
/// bars, as a sample), renders to well-formed SVG with no non-finite number in it.
@Test func everyPlotIsTotalForHostileValues() {
    var checked = 0
    for a in hostileValues {
        for b in hostileValues {
            var panels: [Panel] = []
            for scale in [ScaleKind.linear, .log10] {
                let series = LineSeries("s", style: .automatic(0), points: [PlotPoint(a, b), PlotPoint(b, a)])
                panels.append(
                    .line(
                        LinePlot(
                            title: "line", xLabel: "x", yLabel: "y", xScale: scale, yScale: scale, series: [series],
                            referenceLines: [ReferenceLine(y: a, label: "ref")], xCover: [a, b])))
                panels.append(
                    .bars(
                        BarChart(
                            title: "bars", yLabel: "y", yScale: scale, groups: ["g1", "g2"],
                            series: [BarSeries("s", style: .automatic(1), values: [a, b])])))
                panels.append(
                    .boxes(BoxPlot(title: "box", yLabel: "y", yScale: scale, boxes: [BoxSeries("s", style: .automatic(2), values: [a, b, a])])))
            }
            let svg = Figure(title: "\(a) \(b)", panels: panels).svg()
            #expect(xmlError(svg) == nil, "\(a), \(b)")
            #expect(!svg.contains("nan") && !svg.contains("inf"), "\(a), \(b)")
            checked += 1
        }
    }
    #expect(checked == hostileValues.count * hostileValues.count)
}

// MARK: - Documented field ranges

struct RangeCase: CustomTestStringConvertible, Sendable {
    var json: String
    var path: String
    var allowed: String
    var testDescription: String { path }
}

/// A bench measurement with one extra member.
func benchCell(_ extra: String, size: String = "10") -> String {
    #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":"# + size + #","kind":"int","allocator":"system","#
        + extra + "}]}"
}

/// A policy run with one extra member.
func policyRun(_ extra: String, listSize: String = "10") -> String {
    #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":"# + listSize + #","allowsReloadingOnTooManyUpdates":false,"#
        + extra + "}]}"
}

@Test(arguments: [
    // The value that hung the report: a median of 1e308 seconds.
    RangeCase(json: benchCell(#""median":1e308"#), path: "measurements[0].median", allowed: "0 to 86,400 (seconds)"),
    RangeCase(json: benchCell(#""p99":-1e-9"#), path: "measurements[0].p99", allowed: "0 to 86,400 (seconds)"),
    RangeCase(json: benchCell(#""samples":[1e-6,1.7976931348623157e308]"#), path: "measurements[0].samples[1]", allowed: "0 to 86,400 (seconds)"),
    RangeCase(json: benchCell(#""median":1e-6"#, size: "-1"), path: "measurements[0].size", allowed: "0 to 1,000,000,000 (items)"),
    RangeCase(json: benchCell(#""median":1e-6"#, size: "9223372036854775807"), path: "measurements[0].size", allowed: "0 to 1,000,000,000 (items)"),
    // Integers beyond Int (parsed exactly, as big integers) are out of range, not of the wrong type.
    RangeCase(json: benchCell(#""median":1e-6"#, size: "1e20"), path: "measurements[0].size", allowed: "0 to 1,000,000,000 (items)"),
    RangeCase(json: benchCell(#""median":1e-6"#, size: "18446744073709551616"), path: "measurements[0].size", allowed: "0 to 1,000,000,000 (items)"),
    RangeCase(json: benchCell(#""callsPerSample":0"#), path: "measurements[0].callsPerSample", allowed: "1 to 1,000,000,000"),
    RangeCase(
        json: benchCell(#""allocationRequests":1e300"#), path: "measurements[0].allocationRequests", allowed: "0 to 9,007,199,254,740,992 (2^53)"),
    RangeCase(json: benchCell(#""allocatedBytes":-1"#), path: "measurements[0].allocatedBytes", allowed: "0 to 9,007,199,254,740,992 (2^53)"),
    // A count has no fraction (the bench once wrote bit patterns such as 5.06e-320 here).
    RangeCase(
        json: benchCell(#""allocatedBytes":5.06e-320"#), path: "measurements[0].allocatedBytes",
        allowed: "0 to 9,007,199,254,740,992 (2^53), a whole number"),
    RangeCase(json: benchCell(#""offsetsMoves":-3"#), path: "measurements[0].offsetsMoves", allowed: "0 to 9,007,199,254,740,992 (2^53)"),
    RangeCase(json: benchCell(#""batchMoves":-3"#), path: "measurements[0].batchMoves", allowed: "0 to 9,007,199,254,740,992 (2^53)"),
    RangeCase(json: benchCell(#""speedupOverStdlib":1e10"#), path: "measurements[0].speedupOverStdlib", allowed: "0 to 1,000,000,000"),
    RangeCase(
        json: #"{"schema":"difflab-bench/1","createdAt":-9223372036854775808}"#, path: "createdAt",
        allowed: "0 to 253,402,300,799 (1970 to 9999, Unix seconds)"),
    RangeCase(json: #"{"schema":"difflab-bench/1","seconds":1e12}"#, path: "seconds", allowed: "0 to 10,000,000 (seconds)"),
    RangeCase(
        json: #"{"schema":"difflab-bench/1","scaling":[{"engine":"e","profile":"p","kind":"k","allocator":"system","timeExponent":1e308}]}"#,
        path: "scaling[0].timeExponent", allowed: "-100 to 100"),
    RangeCase(json: policyRun(#""hitchTimeRatio":1e308"#), path: "runs[0].hitchTimeRatio", allowed: "0 to 1,000 (ms per second)"),
    RangeCase(json: policyRun(#""latencies":[0.1,-0.1]"#), path: "runs[0].latencies[1]", allowed: "0 to 86,400 (seconds)"),
    RangeCase(json: policyRun(#""frames":-1"#), path: "runs[0].frames", allowed: "0 to 9,007,199,254,740,992 (2^53)"),
    RangeCase(json: policyRun(#""cpuUtilisation":1e6"#), path: "runs[0].cpuUtilisation", allowed: "0 to 1,024 (fraction of one core)"),
    RangeCase(json: policyRun(#""dropped":0"#, listSize: "1000000001"), path: "runs[0].listSize", allowed: "0 to 1,000,000,000 (items)"),
])
func numbersOutsideTheirDocumentedRangeAreTypedErrors(_ c: RangeCase) throws {
    let document = try JSONValue.parse(c.json)
    #expect {
        try ResultsFile(document, source: "x.json")
    } throws: { error in
        guard case .outOfRange(let source, let path, _, let allowed) = error as? ReportError else { return false }
        return source == "x.json" && path == c.path && allowed == c.allowed
    }
}

@Test func rangeErrorsNameTheFileTheFieldTheValueAndTheRange() {
    let message = ReportError.outOfRange(source: "r.json", path: "measurements[2].median", value: "1e+308", allowed: "0 to 86,400 (seconds)")
        .description
    #expect(message == "r.json: measurements[2].median is 1e+308, outside its allowed range 0 to 86,400 (seconds)")
}

/// The edges of every range are accepted, and a target's value (which has no range) may be any
/// finite number: the report is still made, and shows it.
@Test(.timeLimit(.minutes(5)))
func valuesAtTheEdgesOfTheirRangesMakeAReport() throws {
    let bench = """
        {"schema":"difflab-bench/1","createdAt":253402300799,"seconds":0,
         "measurements":[
          {"engine":"hashmap","profile":"p","size":0,"kind":"int","allocator":"jemalloc","median":86400,"min":0,"samples":[0,86400],
           "allocatedBytes":9007199254740992,"allocationRequests":0,"ratioToFloor":1e9,"speedupOverStdlib":0,"callsPerSample":1,
           "changeCount":9007199254740992,"offsetsMoves":0,"minimalMoves":9007199254740992,"batchMoves":9007199254740992},
          {"engine":"hashmap","profile":"p","size":1000000000,"kind":"int","allocator":"jemalloc","median":5e-324,"samples":[5e-324],
           "allocatedBytes":1,"allocationRequests":9007199254740992,"ratioToFloor":5e-324,"speedupOverStdlib":1e9,
           "callsPerSample":1000000000,"offsetsMoves":9007199254740992,"minimalMoves":0}],
         "scaling":[{"engine":"hashmap","profile":"p","kind":"int","allocator":"jemalloc","timeExponent":-100,"bytesExponent":100}],
         "targets":[{"name":"huge","value":1.7976931348623157e308},{"name":"tiny","value":-5e-324}]}
        """
    let policy = """
        {"schema":"difflab-policy/1","createdAt":0,"runs":[
         {"policy":"main","listSize":0,"allowsReloadingOnTooManyUpdates":false,"hitchTimeRatio":1000,"latencyMedian":86400,
          "latencyP99":0,"cpuUtilisation":1024,"frames":9007199254740992},
         {"policy":"main","listSize":1000000000,"allowsReloadingOnTooManyUpdates":true,"hitchTimeRatio":0,"latencyMedian":5e-324,
          "latencyP99":86400,"cpuUtilisation":0}]}
        """
    let report = try makeReport(
        [try parse(bench, source: "edge-bench.json"), try parse(policy, source: "edge-policy.json")],
        options: ReportOptions(distributionProfiles: ["p"]))
    #expect(report.markdown.contains("1.8e308"))
    #expect(report.markdown.contains("9999-12-31 23:59:59 UTC"))
    #expect(report.files.count >= 5)
    for file in report.files {
        #expect(xmlError(file.contents) == nil, "\(file.name)")
        #expect(!file.contents.contains("nan") && !file.contents.contains("inf"), "\(file.name)")
    }
}
