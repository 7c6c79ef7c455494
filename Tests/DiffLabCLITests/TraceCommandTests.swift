import DiffLabJSON
import DiffLabResults
import Testing

@testable import DiffLabCLI

@Suite("difflab trace, bench --trace and fuzz --seeds-from-trace")
struct TraceCommandTests {
    static let committed = cliPackageRoot + "/Corpus/traces/difflab-package.jsonl"

    @Test func theSummaryNamesTheProvenanceAndShape() {
        let r = run(["trace", Self.committed])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("DiffLab's own Package.swift"))
        #expect(r.out.contains("versions  35 (34 consecutive pairs)"))
        #expect(r.out.contains("repeat an identifier"))
    }

    @Test func theOracleFindsMyersMinimalOnACommittedTrace() {
        let r = run(["trace", Self.committed, "--oracle"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("myers     kept an LCS in place on every pair"))
        #expect(r.out.contains("pairs     34 checked"))
    }

    @Test func importersWriteTracesThatReadBack() throws {
        let files = Files([
            "app.jsonl": "{\"timestampMs\": 1, \"items\": [1, 2]}\n{\"timestampMs\": 5, \"items\": [2, 1, 3]}\n"
        ])
        let lines = run(["trace", "lines", files.path("app.jsonl"), "--out", files.path("a.jsonl"), "--source", "my app"])
        #expect(lines.status == 0, "\(lines.err)")
        #expect(lines.out.contains("2 versions, 5 items, 3 distinct identifiers"))
        let trace = run(["trace", files.path("a.jsonl")])
        #expect(trace.out.contains("source    my app") && trace.out.contains("median interval"))
        #expect(run(["trace", "lines", files.path("app.jsonl")]).status == 64, "--out is required")
        #expect(run(["trace", "folder", files.path("nowhere"), "--out", files.path("b.jsonl")]).status == 66)
        #expect(
            run(["trace", "folder", files.path("app.jsonl"), "--out", files.path("b.jsonl"), "--time-field", "t", "--time-from-names"]).status == 64)
        #expect(run(["trace", "lines", files.path("a.jsonl"), "--out", files.path("c.jsonl")]).status == 65, "a trace's header is no snapshot")
        #expect(run(["trace", "git", "--repo", files.directory, "--path", "x", "--out", files.path("g.jsonl")]).status == 66)
        #expect(run(["trace", "git", "--repo", files.directory, "--path", "x", "--out", files.path("g.jsonl"), "--max-versions", "1"]).status == 64)
    }

    @Test func malformedTracesExit65NamingTheLine() {
        let files = Files([
            "bad.jsonl":
                "{\"schema\": \"difflab-trace/1\", \"source\": \"s\", \"tool\": \"t\", \"date\": \"d\", \"ids\": \"i\", \"contents\": \"c\"}\n{\"items\": [7]}\n"
        ])
        let r = run(["trace", files.path("bad.jsonl")])
        #expect(r.status == 65)
        #expect(r.err.contains("bad.jsonl:2: items[0] should be a string"))
        #expect(run(["bench", "--trace", files.path("bad.jsonl"), "--out", files.path("b.json")]).status == 65)
        #expect(run(["fuzz", "--seeds-from-trace", files.path("bad.jsonl"), "--cases", "1", "--corpus", files.path("c")]).status == 65)
    }

    @Test func benchOnATraceWritesItsResultsAndReport() throws {
        let files = Files([:])
        let out = files.path("b.json")
        let r = run(["bench", "--trace", Self.committed, "--engines", "heckel,hashmap", "--budget", "0.001", "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("trace \(Self.committed)") && r.out.contains("hashmap"))
        let results = try TraceBenchResults(json: try readJSON(out), source: out)
        #expect(results.pairs.count == 34)
        #expect(results.trace.provenance.source.contains("DiffLab's own Package.swift"))
        #expect(results.subjects.map(\.engine) == ["hash-floor", "partitioned-floor", "trim-floor", "stdlib", "heckel", "hashmap"])
        let report = run(["report", out, "--out", files.path("report")])
        #expect(report.status == 0, "\(report.err)")
        let markdown = try String(contentsOfFile: files.path("report/report.md"), encoding: .utf8)
        #expect(markdown.contains("Benchmark on a recorded trace") && markdown.contains("DiffLab's own Package.swift"))
        for option in [["--profiles", "reverse"], ["--sizes", "100"], ["--quick"], ["--shard", "1/2"], ["--kinds", "int,model"]] {
            let refused = run(["bench", "--trace", Self.committed, "--out", files.path("x.json")] + option)
            #expect(refused.status == 64, "\(option)")
        }
    }

    @Test func fuzzStartsFromTheTracesPairs() {
        let files = Files([:])
        let r = run(["fuzz", "--seeds-from-trace", Self.committed, "--cases", "80", "--engines", "heckel", "--corpus", files.path("c")])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("seeds from \(Self.committed) (35 versions)"))
    }
}
