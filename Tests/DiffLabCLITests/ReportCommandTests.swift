import DiffLabCLI
import DiffLabPlatform
import Foundation
import Testing

@Suite("difflab report")
struct ReportCommandTests {
    static let bench = #"""
        {"schema":"difflab-bench/1","measurements":[
         {"engine":"hash-floor","profile":"p","size":10,"kind":"int","allocator":"jemalloc","median":1e-6,"samples":[1e-6]},
         {"engine":"hashmap","profile":"p","size":10,"kind":"int","allocator":"jemalloc","median":2e-6,"samples":[2e-6]},
         {"engine":"hashmap","profile":"p","size":100,"kind":"int","allocator":"jemalloc","skipped":"too slow"}]}
        """#

    @Test func writesTheReportAndItsPlots() {
        let files = Files(["bench.json": ReportCommandTests.bench])
        let out = files.path("out")
        defer { FileSystem.removeTree(out) }
        let result = run(["report", files.path("bench.json"), "--out", out])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "report: \(out)/report.md\n")
        #expect(FileSystem.isAccessible(out + "/report.md", .read))
        #expect(FileSystem.isAccessible(out + "/bench-time-vs-size.svg", .read))
    }

    @Test(arguments: [
        (#"{"schema":"difflab-gate/1"}"#, Int32(65), "unknown schema"),
        ("{", 65, "malformed JSON"),
        (#"{"schema":"difflab-bench/1","measurements":[{"engine":1}]}"#, 65, "measurements[0].engine"),
    ])
    func badDataExits65(_ text: String, _ status: Int32, _ message: String) {
        let files = Files(["bad.json": text])
        let result = run(["report", files.path("bad.json"), "--out", files.path("out")])
        #expect(result.status == status)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(FileSystem.factsIfPresent(files.path("out"), followingLinks: false) == nil)  // nothing written
    }

    /// Issue 10: a median of 1e308 seconds made `difflab report` loop for ever in the tick
    /// computation. Out of its field's range, it is now a data error naming file, field and range.
    @Test(.timeLimit(.minutes(5)))
    func aNumberOutsideItsRangeExits65NamingTheFieldAndTheRange() {
        let files = Files([
            "huge.json":
                #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":10,"kind":"int","allocator":"system","median":1e308}]}"#
        ])
        let result = run(["report", files.path("huge.json"), "--out", files.path("out")])
        #expect(result.status == 65)
        #expect(result.err.contains(files.path("huge.json")) && result.err.contains("measurements[0].median"), "\(result.err)")
        #expect(result.err.contains("0 to 86,400 (seconds)"), "\(result.err)")
        #expect(FileSystem.factsIfPresent(files.path("out"), followingLinks: false) == nil)  // nothing written
    }

    /// A bench file without a measured cell would be a report that compares nothing: exit 65.
    @Test func aBenchFileWithoutMeasurementsExits65() {
        let files = Files(["empty.json": #"{"schema":"difflab-bench/1","measurements":[]}"#])
        let result = run(["report", files.path("empty.json"), "--out", files.path("out")])
        #expect(result.status == 65)
        #expect(result.err.contains("no measured cell (no measurements)"), "\(result.err)")
        #expect(FileSystem.factsIfPresent(files.path("out"), followingLinks: false) == nil)  // nothing written
    }

    /// A target's value has no range; the largest finite number still gives a report (before the
    /// fix, formatting it looped for ever).
    @Test(.timeLimit(.minutes(5)))
    func theLargestFiniteNumberWhereAnyNumberIsAllowedStillMakesAReport() throws {
        let files = Files([
            "bench.json":
                #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":10,"kind":"int","allocator":"system","median":0.001}],"targets":[{"name":"t","value":1.7976931348623157e308}]}"#
        ])
        let out = files.path("out")
        defer { FileSystem.removeTree(out) }
        let result = run(["report", files.path("bench.json"), "--out", out])
        #expect(result.status == 0, "\(result.err)")
        let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(markdown.contains("| t |  | 1.8e308 |"), "\(markdown)")
    }

    static let arena = #"""
        {"schema":"difflab-arena/1","createdAt":1795979336,"commit":null,
         "options":{"fuzzSeconds":60,"seed":"42","workers":2,"baselines":["hashmap"]},
         "contestants":[
          {"engine":"listdiff","role":"library","library":"ListDiff","version":"0.1.3","promises":{"duplicates":false,"minimalMoves":false,"reference":"none"},
           "promiseSources":["\"unique identifiers\" — README.md"],"sectioned":false,"fuzz":{"seconds":60,"inputs":10,"cases":70},
           "failures":[{"signature":"batch-valid/listdiff/batch-malformed","property":"batch-valid","scope":"flat","kind":"failure",
            "outsideContract":false,"duplicates":false,"old":"[0:1]","new":"[0, 0:1]","message":"1 old − 1 deletes + 1 inserts ≠ 2 new",
            "batch":"deletes [0] inserts [1]","validBatch":"deletes [0] inserts [0, 1]","replay":"difflab replay r.json"}]},
          {"engine":"hashmap","role":"difflab","library":"DiffLab","version":"main","promises":{"duplicates":true,"minimalMoves":false,"reference":"heckel"},
           "sectioned":true,"fuzz":{"seconds":60,"inputs":10,"cases":70},
           "failures":[{"signature":"deterministic/hashmap/x","property":"deterministic","scope":"flat","kind":"failure",
            "outsideContract":false,"duplicates":false,"old":"[1]","new":"[2]","message":"m"}]}],
         "bench":{"schema":"difflab-bench/1","measurements":[
          {"engine":"hashmap","profile":"p","size":10,"kind":"int","allocator":"jemalloc","median":1e-6,"samples":[1e-6]},
          {"engine":"listdiff","profile":"p","size":10,"kind":"int","allocator":"jemalloc","median":3e-6,"samples":[3e-6]}]}}
        """#

    /// An arena file: the arena section in report.md, the speed plot, and a bug report for the
    /// library's failure only (hashmap is DiffLab's own engine).
    @Test func anArenaFileWritesItsSectionAndBugReports() throws {
        let files = Files(["arena.json": ReportCommandTests.arena])
        let out = files.path("out")
        defer { FileSystem.removeTree(out) }
        let result = run(["report", files.path("arena.json"), "--out", out])
        #expect(result.status == 0, "\(result.err)")
        let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        for expected in [
            "## Arena — ", "### Verdict", "| `listdiff` | 10 inputs, 70 cases, 60 s | ✗ 1 | ✓ | — | ✓ |", "| `listdiff` | 3× (1) |",
            "[bug report](arena-findings/listdiff-1.md)",
        ] {
            #expect(markdown.contains(expected), "missing: \(expected)")
        }
        #expect(FileSystem.isAccessible(out + "/arena-time-vs-size.svg", .read))
        let finding = try String(contentsOfFile: out + "/arena-findings/listdiff-1.md", encoding: .utf8)
        #expect(finding.hasPrefix("# ListDiff 0.1.3 produces an invalid batch update on a list with unique identifiers\n"))
        #expect(FileSystem.factsIfPresent(out + "/arena-findings/hashmap-1.md", followingLinks: false) == nil)
    }

    /// A hostile arena file is a data error naming the field; nothing is written.
    @Test func aBadArenaFileExits65NamingTheField() {
        let files = Files([
            "arena.json": ReportCommandTests.arena.replacingOccurrences(of: #""baselines":["hashmap"]"#, with: #""baselines":["myers"]"#)
        ])
        let result = run(["report", files.path("arena.json"), "--out", files.path("out")])
        #expect(result.status == 65)
        #expect(result.err.contains("options.baselines[0]") && result.err.contains("\"myers\" names no contestant"), "\(result.err)")
        #expect(FileSystem.factsIfPresent(files.path("out"), followingLinks: false) == nil)
    }

    @Test func theHelpNamesTheArenaSchema() {
        let result = run(["report", "--help"])
        #expect(result.out.contains("difflab-arena/1") && result.out.contains("arena-findings/<engine>-<n>.md"))
        #expect(result.out.contains("difflab-updaters/1") && result.out.contains("updaters-finding-<n>-<property>.svg"))
    }

    /// An updaters findings file beside a bench file: both sections, the bench plots and the
    /// finding's swim lanes; the same inputs write byte-identical files.
    @Test func anUpdatersFileWritesItsTableAndSwimLanesBesideOtherFiles() throws {
        let findings = try UpdatersCommandTests.findingsFile()
        let files = Files(["bench.json": ReportCommandTests.bench, "updaters.json": findings.json.serialized(pretty: true)])
        var outputs: [(String, String)] = []
        for name in ["out", "again"] {
            let out = files.path(name)
            defer { FileSystem.removeTree(out) }
            let result = run(["report", files.path("updaters.json"), files.path("bench.json"), "--out", out])
            #expect(result.status == 0, "\(result.err)")
            let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
            let svg = try String(contentsOfFile: out + "/updaters-finding-1-batch-valid.svg", encoding: .utf8)
            #expect(FileSystem.isAccessible(out + "/bench-time-vs-size.svg", .read))
            outputs.append((markdown.replacingOccurrences(of: out, with: "OUT"), svg))
        }
        let (markdown, svg) = outputs[0]
        for expected in [
            "## Updaters — ", "| `background-diff` | **unsafe** | [✗ ", "](#updaters-finding-1) | held |",
            "#### Finding 1: `background-diff` breaks `batch-valid`",
            "Replay: `difflab replay \(files.path("updaters.json"))`.",
            "![Finding 1: the shrunk run's swim lanes (batch-valid)](updaters-finding-1-batch-valid.svg)",
            "## Benchmark",
        ] {
            #expect(markdown.contains(expected), "missing: \(expected)")
        }
        #expect(svg.hasPrefix("<?xml") && svg.contains("class=\"title\">background</text>"))
        #expect(outputs[1].0 == markdown)
        #expect(outputs[1].1 == svg)
    }

    /// An updaters findings file without an updater would compare nothing: exit 65.
    @Test func anUpdatersFileWithoutUpdatersExits65() throws {
        var findings = try UpdatersCommandTests.findingsFile()
        findings.updaters = []
        let files = Files(["empty.json": findings.json.serialized()])
        let result = run(["report", files.path("empty.json"), "--out", files.path("out")])
        #expect(result.status == 65)
        #expect(result.err.contains("updaters should be at least one updater"), "\(result.err)")
        #expect(FileSystem.factsIfPresent(files.path("out"), followingLinks: false) == nil)
    }

    @Test func unreadableFileExits66AndBadCommandLineExits64() {
        #expect(run(["report", "/nonexistent/results.json"]).status == 66)
        #expect(run(["report"]).status == 64)
        #expect(run(["report", "--bogus", "x.json"]).status == 64)
        #expect(run(["report", "--help"]).status == 0)
    }
}
