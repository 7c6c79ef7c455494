import DiffLabCLI
import DiffLabJSON
import Testing

@Suite("difflab fuzz and difflab replay")
struct FuzzCommandTests {
    @Test func jsonSummaryIsTheLastLine() throws {
        let files = Files([:])
        let r = run(["fuzz", "--cases", "40", "--seed", "3", "--engines", "heckel,myers", "--properties", "batch-valid,metamorphic", "--json", "--corpus", files.path("corpus")])
        #expect(r.status == 0, "\(r.out)")
        let last = try #require(r.out.split(separator: "\n").last)
        let summary = try JSONValue.parse(String(last))
        #expect(summary["cases"]?.intValue == 40 * 2 * 2)
        #expect(summary["failures"]?.arrayValue == [])
        #expect(summary["seconds"]?.doubleValue != nil)
    }

    @Test(arguments: [
        (["fuzz", "--engines", "fast"], "unknown engine 'fast'"), (["fuzz", "--properties", "pretty"], "unknown property 'pretty'"),
        (["fuzz", "--seconds", "-1"], "--seconds expects a positive number"), (["fuzz", "--cases", "0"], "--cases expects a positive integer"),
        (["fuzz", "file.json"], "fuzz takes no files"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) {
        let r = run(arguments)
        #expect(r.status == 64)
        #expect(r.err.contains(message), "\(r.err)")
    }

    @Test func writeSeedsWritesByteFiles() {
        let files = Files([:])
        let r = run(["fuzz", "--write-seeds", files.path("seeds"), "--cases", "3"])
        #expect(r.status == 0)
        #expect(r.out == "wrote 3 seeds to \(files.path("seeds"))\n")
        #expect(run(["validate", files.path("seeds/seed-0.bin")]).status != 66)  // the file exists
    }

    static let regression = #"{"signature":"sanitizer/heckel/x","property":"sanitizer","subject":"heckel","message":"","profile":"mixed","old":[[0,0]],"new":[],"oldSections":[{"id":0,"items":[[0,0]]}],"newSections":[{"id":0,"items":[]}],"corruptions":[[1,1,0],[3,0]],"choices":["1"],"size":1,"seed":"7"}"#

    @Test func replayPassesFixedCasesAndReportsBadFiles() {
        let files = Files(["case.json": Self.regression, "broken.json": #"{"property":"nope"}"#])
        let pass = run(["replay", files.path("case.json")])
        #expect(pass.status == 0)
        #expect(pass.out.hasSuffix("replay: 1 passed, 0 failed\n"))
        let broken = run(["replay", files.path("broken.json")])
        #expect(broken.status == 65)
        #expect(run(["replay", files.path("missing.json")]).status == 66)
        #expect(run(["replay", files.directory]).status == 65)  // the directory holds the broken file too
    }
}
