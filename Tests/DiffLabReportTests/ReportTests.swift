import DiffLabJSON
import DiffLabReport
import DiffLabResults
import Testing

// A small synthetic bench file: two profiles, two sizes, a skipped cell, a cell with nulls and
// missing fields, a second kind and a second allocator, scaling and targets.
let benchJSON = """
    {"schema":"difflab-bench/1","createdAt":1795979336,"seconds":12.5,
     "machine":{"hostname":"box <1>","cores":"2","memoryBytes":"1000000000"},
     "toolchain":"Swift version 6.3.1","commit":"abc123","dirty":true,
     "options":{"quick":true,"engines":["hashmap","stdlib"],"sizes":[1000,10000]},
     "allocators":[{"name":"jemalloc"},{"name":"system"}],
     "measurements":[
      {"engine":"hash-floor","profile":"differencekit","size":1000,"kind":"int","allocator":"jemalloc","median":1e-5,"min":0.9e-5,
       "p90":1.1e-5,"p99":1.2e-5,"mad":1e-7,"callsPerSample":50,"allocatedBytes":10240,"allocationRequests":3,"samples":[1e-5,1.1e-5,0.9e-5],
       "ratioToFloor":1,"speedupOverStdlib":10},
      {"engine":"hashmap","profile":"differencekit","size":1000,"kind":"int","allocator":"jemalloc","median":2e-5,"min":1.9e-5,
       "allocatedBytes":20480,"allocationRequests":0,"samples":[2e-5,2.1e-5,1.9e-5,2.2e-5],"ratioToFloor":2,"speedupOverStdlib":5,
       "changeCount":10,"offsetsMoves":4,"minimalMoves":0},
      {"engine":"stdlib","profile":"differencekit","size":1000,"kind":"int","allocator":"jemalloc","median":1e-4,
       "allocatedBytes":null,"allocationRequests":null,"samples":[1e-4,1.2e-4],"ratioToFloor":10,"speedupOverStdlib":1,
       "changeCount":10,"offsetsMoves":4,"minimalMoves":3},
      {"engine":"hash-floor","profile":"differencekit","size":10000,"kind":"int","allocator":"jemalloc","median":1e-4,"samples":[1e-4]},
      {"engine":"hashmap","profile":"differencekit","size":10000,"kind":"int","allocator":"jemalloc","median":2e-4,"samples":[2e-4,3e-4],
       "changeCount":100,"offsetsMoves":40,"minimalMoves":30},
      {"engine":"stdlib","profile":"differencekit","size":10000,"kind":"int","allocator":"jemalloc","skipped":"projected 402 s | too slow"},
      {"engine":"hashmap","profile":"reverse","size":1000,"kind":"int","allocator":"jemalloc"},
      {"engine":"hashmap","profile":"differencekit","size":1000,"kind":"model","allocator":"jemalloc","median":3e-5,"samples":[3e-5]},
      {"engine":"hashmap","profile":"differencekit","size":1000,"kind":"int","allocator":"system","median":2.5e-5,"samples":[2.5e-5]}
     ],
     "scaling":[{"engine":"hashmap","profile":"differencekit","kind":"int","allocator":"jemalloc","sizes":[1000,10000],"timeExponent":1.0,"bytesExponent":null}],
     "targets":[{"name":"hashmap / floor","goal":"≤ 2","value":2,"met":true,"note":""},{"name":"speed","goal":"< 1","value":null,"met":false}]
    }
    """

let policyJSON = """
    {"schema":"difflab-policy/1","createdAt":1795977384,"machine":{"hostname":"box"},"toolchain":"Swift","commit":null,
     "crossoverSize":{"batch":10000,"reloadFallback":null},
     "runs":[
      {"policy":"main","engine":"hashmap","listSize":1000,"allowsReloadingOnTooManyUpdates":false,"frameRate":60,"frames":181,
       "framesOverBudget":0,"hitchTimeRatio":0,"latencyMedian":0.006,"latencyP99":0.007,"latencies":[0.006,0.007],"requested":60,"applied":60},
      {"policy":"main","engine":"hashmap","listSize":10000,"allowsReloadingOnTooManyUpdates":false,"frameRate":60,"hitchTimeRatio":37.4,
       "latencyMedian":null,"latencyP99":null,"latencies":[]},
      {"policy":"background","listSize":1000,"allowsReloadingOnTooManyUpdates":true,"frameRate":60,"hitchTimeRatio":0,
       "latencyMedian":0.005,"latencyP99":0.006},
      {"policy":"background","listSize":10000,"allowsReloadingOnTooManyUpdates":true,"frameRate":120,"hitchTimeRatio":1.5,
       "latencyMedian":0.005,"latencyP99":0.009}
     ]}
    """

func parse(_ text: String, source: String) throws -> ResultsFile {
    try ResultsFile(try JSONValue.parse(text), source: source)
}

func syntheticReport() throws -> Report {
    try makeReport(
        [try parse(benchJSON, source: "bench.json"), try parse(policyJSON, source: "policy.json")],
        options: ReportOptions(invocation: "difflab report bench.json policy.json", stripLimit: 2, distributionSize: 1000))
}

/// The relative file names the markdown links to, in order of appearance.
func linkedFiles(_ markdown: String) -> [String] {
    var names: [String] = []
    var rest = Substring(markdown)
    while let open = rest.range(of: "](") {
        rest = rest[open.upperBound...]
        guard let close = rest.firstIndex(of: ")") else { break }
        names.append(String(rest[..<close]))
        rest = rest[close...]
    }
    return names
}

@Test func everySVGOfASyntheticReportIsWellFormedXML() throws {
    let report = try syntheticReport()
    #expect(report.files.count >= 8)
    for file in report.files {
        #expect(file.name.hasSuffix(".svg"))
        #expect(!file.name.contains("/"))
        #expect(xmlError(file.contents) == nil, "\(file.name)")
        #expect(file.contents.hasPrefix("<?xml"))
        #expect(!file.contents.contains("nan") && !file.contents.contains("inf"), "\(file.name)")
    }
}

@Test func markdownReferencesExactlyTheFilesProduced() throws {
    let report = try syntheticReport()
    let linked = linkedFiles(report.markdown)
    #expect(linked == report.files.map(\.name))
    #expect(Set(linked).count == linked.count)
}

@Test func reportIsDeterministic() throws {
    #expect(try syntheticReport() == syntheticReport())
}

@Test func reportShowsHeaderSkippedCellsTargetsAndMethod() throws {
    let markdown = try syntheticReport().markdown
    for expected in [
        "2026-11-29 19:08:56 UTC", "box <1>", "`abc123` (with uncommitted changes)", "Swift version 6.3.1", "option: engines",
        "projected 402 s \\| too slow",  // a pipe in a reason is escaped inside the table
        "| hashmap / floor | ≤ 2 | 2 | yes |", "| speed | < 1 | – | **no** |",
        "## Policy lab — `policy.json`", "none found at the sizes run", "## How this report was made",
        "Command: `difflab report bench.json policy.json`", "SVG", "matplotlib",
        "### Skipped cells", "#### Other element kinds", "#### Allocator",
    ] {
        #expect(markdown.contains(expected), "missing: \(expected)")
    }
    // The system ÷ jemalloc ratio is computed from the two medians in the file: 2.5e-5 / 2e-5.
    #expect(markdown.contains("| differencekit | hashmap | 1.25 |"))
}

@Test func sectionsForMissingInputKindsAreOmitted() throws {
    let policyOnly = try makeReport([try parse(policyJSON, source: "p.json")])
    #expect(!policyOnly.markdown.contains("## Benchmark"))
    #expect(policyOnly.files.allSatisfy { $0.name.hasPrefix("policy-") })
    #expect(!policyOnly.files.isEmpty)
    let benchOnly = try makeReport([try parse(benchJSON, source: "b.json")])
    #expect(!benchOnly.markdown.contains("## Policy lab"))
    #expect(benchOnly.files.allSatisfy { $0.name.hasPrefix("bench-") })
    #expect(!benchOnly.files.isEmpty)
}

@Test func twoFilesOfOneKindGetSeparatePlots() throws {
    let report = try makeReport([try parse(benchJSON, source: "a.json"), try parse(benchJSON, source: "b.json")])
    let names = report.files.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(names.contains("bench-time-vs-size.svg") && names.contains("bench2-time-vs-size.svg"))
    #expect(linkedFiles(report.markdown) == names)
}

/// A bench file without a measured cell would make a report that compares nothing: refused.
@Test(arguments: [
    (#"{"schema":"difflab-bench/1"}"#, 0),
    (#"{"schema":"difflab-bench/1","measurements":[]}"#, 0),
    (#"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":5,"kind":"k","allocator":"system","skipped":"slow"}]}"#, 1),
    (#"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":5,"kind":"k","allocator":"system"}]}"#, 1),
])
func benchFilesWithoutAMeasuredCellAreRefused(text: String, cells: Int) throws {
    #expect(throws: ReportError.noMeasurements(source: "empty.json", cells: cells)) { try parse(text, source: "empty.json") }
}

@Test func minimalFilesWithOnlyIdentityFieldsDoNotCrash() throws {
    let bench = try parse(
        #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":5,"kind":"k","allocator":"system","median":0.001}]}"#,
        source: "min.json")
    let policy = try parse(
        #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":3,"allowsReloadingOnTooManyUpdates":false}]}"#, source: "p.json")
    let report = try makeReport([bench, policy])
    #expect(linkedFiles(report.markdown) == report.files.map(\.name))
    for file in report.files { #expect(xmlError(file.contents) == nil, "\(file.name)") }
    #expect(report.markdown.contains("No cell was skipped."))
}

struct BadInput: CustomTestStringConvertible, Sendable {
    var json: String
    var error: ReportError
    var testDescription: String { error.description }
}

@Test(arguments: [
    BadInput(json: #"{"schema":"difflab-gate/1"}"#, error: .unknownSchema(source: "x.json", schema: "difflab-gate/1")),
    BadInput(json: #"{"measurements":[]}"#, error: .missingSchema(source: "x.json")),
    BadInput(json: #"{"schema":1}"#, error: .missingSchema(source: "x.json")),
    BadInput(json: #"[1,2]"#, error: .notAnObject(source: "x.json", found: "an array")),
    BadInput(
        json: #"{"schema":"difflab-bench/1","measurements":[{"profile":"p","size":1,"kind":"int","allocator":"system"}]}"#,
        error: .missingField(source: "x.json", path: "measurements[0].engine")),
    BadInput(
        json:
            #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":1,"kind":"int","allocator":"system","median":"fast"}]}"#,
        error: .wrongType(source: "x.json", path: "measurements[0].median", expected: "a number", found: "a string")),
    BadInput(
        json:
            #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":1,"kind":"int","allocator":"system","samples":[1,"x"]}]}"#,
        error: .wrongType(source: "x.json", path: "measurements[0].samples[1]", expected: "a number", found: "a string")),
    BadInput(
        json: #"{"schema":"difflab-bench/1","measurements":{}}"#,
        error: .wrongType(source: "x.json", path: "measurements", expected: "an array", found: "an object")),
    BadInput(
        json: #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1}]}"#,
        error: .missingField(source: "x.json", path: "runs[0].allowsReloadingOnTooManyUpdates")),
    BadInput(
        json: #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1.5,"allowsReloadingOnTooManyUpdates":true}]}"#,
        error: .wrongType(source: "x.json", path: "runs[0].listSize", expected: "an integer", found: "a number")),
])
func wrongInputsGiveTypedErrors(_ bad: BadInput) throws {
    let document = try JSONValue.parse(bad.json)
    #expect(throws: bad.error) { try ResultsFile(document, source: "x.json") }
}

@Test func noInputsIsAnError() {
    #expect(throws: ReportError.noInputs) { try makeReport([]) }
}

@Test func errorMessagesNameTheSourceAndTheKnownSchemas() {
    let message = ReportError.unknownSchema(source: "r.json", schema: "nope").description
    #expect(message.contains("r.json") && message.contains("difflab-bench/1") && message.contains("difflab-policy/1"))
}

/// A `difflab policy real-time` file shows the simulation's prediction beside each run; a file
/// without it shows no such columns.
@Test func realTimeRunsShowTheSimulationBesideThem() throws {
    let checked = #"""
        {"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":100000,"allowsReloadingOnTooManyUpdates":true,
         "hitchTimeRatio":78.2,"simulatedHitchTimeRatio":50.7,"simulatedLatencyP99":0.0192,"latencies":[]}]}
        """#
    let report = try makeReport([try parse(checked, source: "rt.json")])
    #expect(report.markdown.contains("| simulated hitch ms/s | simulated p99 |"))
    #expect(report.markdown.contains("| 78.2 |") && report.markdown.contains("| 50.7 | 19.2 ms |"))
    let plain = try makeReport([try parse(policyJSON, source: "p.json")])
    #expect(!plain.markdown.contains("simulated hitch"))
}
