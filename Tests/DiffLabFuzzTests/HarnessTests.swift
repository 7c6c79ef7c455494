import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabPlatform
import Testing

/// The repository root, found from this file's path.
let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

@Suite("Fuzzing the shipped engines")
struct ShippedEngineFuzzTests {
    @Test func everyPropertyHoldsOnEveryEngine() {
        let report = runFuzzer(FuzzOptions(inputs: 1500, seed: 2026, maxSize: 16))
        #expect(report.inputs == 1500)
        #expect(report.checks == 1500 * FuzzSubject.builtIns.count * Property.allCases.count)
        for failure in report.failures {
            Issue.record("\(failure.failure) old \(failure.input.old) new \(failure.input.new)")
        }
    }

    @Test func regressionCorpusReplays() throws {
        let corpus = try regressionCorpus()
        #expect(!corpus.isEmpty)
        for (file, json) in corpus {
            let regression = try RegressionCase(json: json)
            #expect(try regression.replay(on: FuzzSubject.builtIns) == [], "\(file)")
            // The saved input round-trips through JSON.
            #expect(try RegressionCase(json: regression.json) == regression)
        }
    }
}
