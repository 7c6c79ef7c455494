import DiffLabGate
import DiffLabJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StatisticsTests {
    @Test(arguments: [([3.0, 1, 2], 2.0), ([4.0, 1, 3, 2], 2.5), ([7.0], 7.0)])
    func medianOf(values: [Double], expected: Double) {
        #expect(median(values) == expected)
    }

    @Test func medianOfNothingIsNaN() { #expect(median([]).isNaN) }

    /// Exact null distribution for n = 4 by enumeration: W+ over the 16 sign patterns of ranks 1…4.
    @Test func signedRankMatchesEnumeration() {
        let d = [0.3, -0.1, 0.4, 0.2]  // ranks by |d|: 0.1→1, 0.2→2, 0.3→3, 0.4→4; W+ = 2 + 3 + 4 = 9
        let result = wilcoxonSignedRank(d)
        #expect(result.wPlus == 9)
        #expect(result.count == 4)
        var atLeast = 0
        for pattern in 0..<16 {
            var w = 0
            for rank in 1...4 where pattern & (1 << (rank - 1)) != 0 { w += rank }
            if w >= 9 { atLeast += 1 }
        }
        #expect(abs(result.p - 2 * Double(atLeast) / 16) < 1e-12)  // 2 · 2/16 = 0.25
    }

    @Test func allPositiveRoundsGiveTheSmallestPossibleP() {
        let result = wilcoxonSignedRank([Double](repeating: 0.1, count: 16).enumerated().map { $0.element + Double($0.offset) * 1e-3 })
        #expect(abs(result.p - 2 / 65_536) < 1e-15)
    }

    @Test func tiesShareMidRanksAndZerosAreDropped() {
        let result = wilcoxonSignedRank([0, 0.5, -0.5, 0.5, 0])
        #expect(result.count == 3)
        #expect(result.wPlus == 4)  // |d| all tied: ranks 2, 2, 2; two positives
        #expect(result.p == 1)
    }

    @Test func symmetricDifferencesAreNotSignificant() {
        #expect(wilcoxonSignedRank([0.1, -0.1, 0.2, -0.2, 0.3, -0.3]).p == 1)
        #expect(wilcoxonSignedRank([]).p == 1)
    }

    /// Holm by hand: sorted 0.01, 0.02, 0.03, 0.5 → ×4, ×3, ×2, ×1 = 0.04, 0.06, 0.06, 0.5.
    @Test func holmAdjustsInPlace() {
        let adjusted = holmAdjusted([0.03, 0.5, 0.01, 0.02])
        let expected = [0.06, 0.5, 0.04, 0.06]
        for (a, e) in zip(adjusted, expected) { #expect(abs(a - e) < 1e-12) }
        #expect(holmAdjusted([]).isEmpty)
        #expect(holmAdjusted([0.9, 0.8]) == [1, 1])  // 0.8 × 2 caps at 1; monotone after it
    }

    @Test func bootstrapIntervalCoversTheMedianAndIsReproducible() throws {
        let values = (0..<20).map { 1.0 + Double($0) / 100 }
        let interval = try #require(bootstrapMedianInterval(values))
        #expect(interval.contains(median(values)))
        #expect(interval.lowerBound >= 1.0 && interval.upperBound <= 1.19)
        #expect(bootstrapMedianInterval(values) == interval)
        #expect(bootstrapMedianInterval([]) == nil)
        #expect(bootstrapMedianInterval([2.0]) == 2.0...2.0)
    }
}

let thresholdsJSON: JSONValue = [
    "schema": "difflab-gate-thresholds/1", "alpha": 0.01, "improvementExitCode": 4,
    "metrics": [
        "time": ["regression": 0.05, "improvement": 0.05, "absolute": 2e-6],
        "instructions": ["regression": 0.01, "improvement": 0.01, "absolute": 1000],
        "allocatedBytes": ["regression": 0.005, "improvement": 0.005, "absolute": 64],
        "allocationRequests": ["regression": 0, "improvement": 0, "absolute": 1],
    ],
]

@Suite struct ThresholdTests {
    @Test func readsTheCheckedInFileShape() throws {
        let thresholds = try GateThresholds(json: thresholdsJSON)
        #expect(thresholds.alpha == 0.01)
        #expect(thresholds[.time] == MetricThreshold(regression: 0.05, improvement: 0.05, absolute: 2e-6))
        #expect(thresholds[.allocationRequests].absolute == 1)
    }

    @Test func theCheckedInFileParses() throws {
        // The test runs from the package root (swift test), where the file lives.
        let file = try #require(fopen("Corpus/gate/thresholds.json", "r"))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer.prefix(count)
        }
        fclose(file)
        _ = try GateThresholds(json: try JSONValue.parse(bytes: bytes))
    }

    @Test(arguments: [
        ("schema", JSONValue.string("other"), "schema"),
        ("alpha", JSONValue.double(1.5), "alpha"),
        ("improvementExitCode", JSONValue.integer(3), "improvementExitCode"),
        ("metrics", JSONValue.object(JSONObject()), "\"time\""),
    ])
    func rejectsBadFiles(field: String, value: JSONValue, mentions: String) {
        var object = thresholdsJSON.objectValue ?? JSONObject()
        object[field] = value
        #expect {
            try GateThresholds(json: .object(object))
        } throws: { error in
            (error as? GateError).map { "\($0)".contains(mentions) } ?? false
        }
    }

    @Test func rejectsANegativeThreshold() {
        var object = thresholdsJSON.objectValue ?? JSONObject()
        object["metrics"] = [
            "time": ["regression": -0.05, "improvement": 0.05, "absolute": 0],
            "instructions": ["regression": 0.01, "improvement": 0.01, "absolute": 0],
            "allocatedBytes": ["regression": 0.01, "improvement": 0.01, "absolute": 0],
            "allocationRequests": ["regression": 0, "improvement": 0, "absolute": 0],
        ]
        #expect(throws: GateError.badThresholds("\"metrics.time.regression\" must be a non-negative number")) {
            try GateThresholds(json: .object(object))
        }
    }
}

/// `rounds` rounds of 8 samples around `seconds`, with a per-round wobble that both builds share
/// (load that comes and goes) and a per-sample jitter.
func rounds(_ seconds: Double, factor: Double = 1, count: Int = 16, seed: UInt64 = 1) -> [[Double]] {
    var state = seed
    func unit() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { round in
        let load = 1 + 0.2 * Double(round % 5) / 5  // shared by both builds of a round
        return (0..<8).map { _ in seconds * factor * load * (1 + 0.02 * unit()) }
    }
}

@Suite struct VerdictTests {
    let thresholds = (try? GateThresholds(json: thresholdsJSON)) ?? GateThresholds(alpha: 0.01, improvementExitCode: 4, metrics: [:])

    @Test func unchangedTimingsPass() {
        let result = compareTimes([TimeSamples(cell: "c", base: rounds(1e-3, seed: 1), head: rounds(1e-3, seed: 2))], thresholds: thresholds)
        #expect(result[0].verdict == .pass)
        #expect(abs((result[0].ratio ?? 0) - 1) < 0.02)
    }

    @Test(arguments: [(1.10, GateVerdict.regression), (0.90, .improvement), (1.03, .pass)])
    func shiftedTimings(factor: Double, expected: GateVerdict) {
        let result = compareTimes(
            [TimeSamples(cell: "c", base: rounds(1e-3, seed: 1), head: rounds(1e-3, factor: factor, seed: 2))], thresholds: thresholds)
        #expect(result[0].verdict == expected)
        #expect(result[0].rounds == 16)
        #expect(result[0].interval?.contains(result[0].ratio ?? 0) == true)
    }

    /// A consistent 10% shift seen in only 3 rounds is not enough evidence after correcting for
    /// 9 cells: 3 paired rounds can give at best p = 0.25.
    @Test func tooFewRoundsCannotRaiseAnAlarm() {
        let cells = (0..<9).map { TimeSamples(cell: "c\($0)", base: rounds(1e-3, count: 3), head: rounds(1e-3, factor: 1.1, count: 3, seed: 9)) }
        #expect(compareTimes(cells, thresholds: thresholds).allSatisfy { $0.verdict == .pass })
    }

    @Test func tinyAbsoluteChangesAreBelowTheFloor() {
        let result = compareTimes([TimeSamples(cell: "c", base: rounds(1e-6), head: rounds(1e-6, factor: 1.5, seed: 3))], thresholds: thresholds)
        #expect(result[0].verdict == .pass)  // 0.5 µs < the 2 µs absolute floor
    }

    @Test func missingRoundsAreNotGated() {
        let result = compareTimes([TimeSamples(cell: "c", base: [], head: rounds(1e-3))], thresholds: thresholds)
        #expect(result[0].verdict == .notGated)
    }

    @Test(arguments: [
        (GateMetric.allocationRequests, 38.0, 39.0, GateVerdict.regression),
        (.allocationRequests, 38, 38, .pass),
        (.allocationRequests, 38, 37, .improvement),
        (.allocatedBytes, 848_016, 852_000, .pass),  // +0.47%, under the 0.5% threshold
        (.allocatedBytes, 848_016, 930_000, .regression),
        (.instructions, 3_900_000, 3_930_000, .pass),  // +0.8%
        (.instructions, 3_900_000, 4_400_000, .regression),
        (.instructions, 50_000, 50_900, .pass),  // +1.8% but under the absolute floor of 1000
    ])
    func deterministicMetrics(metric: GateMetric, base: Double, head: Double, expected: GateVerdict) {
        let result = compareDeterministic(cell: "c", metric: metric, base: base, head: head, thresholds: thresholds)
        #expect(result.verdict == expected)
    }

    @Test func missingDeterministicValuesAreNotGatedAndSayWhy() {
        let result = compareDeterministic(cell: "c", metric: .instructions, base: nil, head: 5, thresholds: thresholds)
        #expect(result.verdict == .notGated)
        #expect(result.note.contains("baseline"))
    }
}

@Suite struct ReportTests {
    let thresholds = (try? GateThresholds(json: thresholdsJSON)) ?? GateThresholds(alpha: 0.01, improvementExitCode: 4, metrics: [:])

    func report(_ verdicts: [GateVerdict], improvementExitCode: Int32 = 4) -> GateReport {
        var thresholds = thresholds
        thresholds.improvementExitCode = improvementExitCode
        let comparisons = verdicts.enumerated().map { index, verdict in
            GateComparison(cell: "hashmap:differencekit:int:\(index + 1)", metric: .allocationRequests, base: 38, head: 39, verdict: verdict)
        }
        return GateReport(comparisons: comparisons, thresholds: thresholds, context: [("baseline", "HEAD~1")], notes: ["a note"])
    }

    @Test(arguments: [
        ([GateVerdict.pass, .pass], false, Int32(0)),
        ([.pass, .improvement], false, 4),
        ([.pass, .improvement], true, 0),
        ([.improvement, .regression], true, 2),
        ([.notGated], false, 0),
    ])
    func exitCodes(verdicts: [GateVerdict], improvementsPass: Bool, expected: Int32) {
        #expect(report(verdicts).exitCode(improvementsPass: improvementsPass) == expected)
    }

    @Test func improvementsCanPassFromTheThresholdsFile() {
        #expect(report([.improvement], improvementExitCode: 0).exitCode() == 0)
    }

    @Test func markdownNamesTheVerdictEveryFindingAndEveryCell() {
        let markdown = report([.regression, .pass]).markdown
        #expect(markdown.hasPrefix("## DiffLab regression gate: REGRESSION"))
        #expect(markdown.contains("### Regressions (1)"))
        #expect(markdown.contains("- `hashmap:differencekit:int:1` **allocationRequests**: 38 → 39 (1.026×) (threshold +0%)"))
        #expect(markdown.contains("| `hashmap:differencekit:int:2` |"))
        #expect(markdown.contains("- a note"))
        #expect(report([.pass]).markdown.hasPrefix("## DiffLab regression gate: PASS"))
    }

    @Test func jsonCarriesVerdictExitCodeAndComparisons() throws {
        let json = report([.pass, .improvement]).json()
        #expect(json["schema"]?.stringValue == GateReport.schema)
        #expect(json["verdict"]?.stringValue == "improvement")
        #expect(json["exitCode"]?.intValue == 4)
        #expect(json["comparisons"]?.arrayValue?.count == 2)
        #expect(json["comparisons"]?.arrayValue?.first?["ratio"]?.doubleValue.map { abs($0 - 39.0 / 38) < 1e-12 } == true)
        let text = json.serialized()
        #expect(try JSONValue.parse(bytes: Array(text.utf8)) == json)
    }
}
