import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import Testing

#if canImport(Glibc)
import Glibc
#endif

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
        #expect(report.checks == 1500 * EngineKind.allCases.count * Property.allCases.count)
        for failure in report.failures {
            Issue.record("\(failure.failure) old \(failure.input.old) new \(failure.input.new)")
        }
    }

    @Test func regressionCorpusReplays() throws {
        let directory = repositoryRoot + "/Corpus/regressions"
        guard let handle = opendir(directory) else {
            Issue.record("no \(directory)")
            return
        }
        var files: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".json") { files.append(directory + "/" + name) }
        }
        closedir(handle)
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let regression = try RegressionCase(json: try DiffLabJSONParse(text))
            #expect(regression.replay() == [], "\(file)")
            // The saved input round-trips through JSON.
            #expect(try RegressionCase(json: regression.json) == regression)
        }
    }
}
