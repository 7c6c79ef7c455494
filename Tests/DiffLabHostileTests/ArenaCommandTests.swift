import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Testing

/// `difflab arena` end to end, on the real executable (it starts `difflab fuzz` and `difflab bench`
/// processes of its own).
@Suite("difflab arena")
struct ArenaCommandTests {
    @Test func judgesEachContestantAndWritesAFileTheReportReads() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let out = scratch.file("arena.json")
        let run = runDifflab(
            [
                "arena", "--engines", "hashmap,stdlib", "--fuzz-seconds", "1", "--profiles", "reverse", "--sizes", "100",
                "--allocators", "system", "--budget", "0.01", "--out", out,
            ], in: scratch.path, limit: 300)
        #expect(run.status == 0, "\(run)")
        let results = try ArenaResults(json: try JSONValue.parse(bytes: Array(readText(out).utf8)), source: out)
        #expect(results.contestants.map(\.engine) == ["hashmap", "stdlib"])
        for contestant in results.contestants {
            #expect(contestant.fuzz.cases > 0, "\(contestant.engine) checked nothing")
            #expect(contestant.role == .difflab)
            #expect(contestant.failures.isEmpty, "\(contestant.failures)")
        }
        #expect(results.options.baselines == ["hashmap"])
        let bench = try #require(results.bench)
        #expect(Set(bench.measurements.filter(\.isMeasured).map(\.engine)).isSuperset(of: ["hashmap", "stdlib"]))
        #expect(results.provenance.commit == nil || results.provenance.commit?.count == 40)

        let report = runDifflab(["report", out, "--out", scratch.file("report")], in: scratch.path)
        #expect(report.status == 0, "\(report)")
        #expect(readText(scratch.file("report/report.md")).contains("## Arena"))
    }

    @Test func refusesABaselineThatIsNotAContestantAndAnUnknownEngine() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let baseline = runDifflab(["arena", "--engines", "hashmap", "--baselines", "myers", "--out", scratch.file("a.json")], in: scratch.path)
        #expect(baseline.status == 64, "\(baseline)")
        #expect(baseline.errorLines.first?.contains("--baselines") == true, "\(baseline)")
        let unknown = runDifflab(["arena", "--engines", "nope", "--out", scratch.file("a.json")], in: scratch.path)
        #expect(unknown.status == 64, "\(unknown)")
        #expect(FileSystem.factsIfPresent(scratch.file("a.json"), followingLinks: false) == nil, "a refused run wrote its file")
    }
}
