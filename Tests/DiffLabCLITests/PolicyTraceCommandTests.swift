import DiffLabCLI
import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Foundation
import Testing

/// `difflab policy --trace FILE`: a committed trace end to end, the options it refuses, and bad
/// traces.
@Suite("difflab policy --trace")
struct PolicyTraceCommandTests {
    static let readme = cliPackageRoot + "/Corpus/traces/difflab-package.jsonl"
    static let header = #"{"schema":"difflab-trace/1","source":"s","tool":"t","date":"d","ids":"i","contents":"c"}"#

    /// The issue's run, cut to one frame rate: every setting on a committed trace, the
    /// recommendation printed, the file written, read back equal, and reported with its trace.
    @Test func aCommittedTraceGetsItsRecommendation() throws {
        let files = Files([:])
        let out = files.path("policy-trace.json")
        let r = run(["policy", "--trace", Self.readme, "--quick", "--recommend", "--median-interval", "0.05", "--frame-rates", "60", "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("trace \(Self.readme): DiffLab's own Package.swift"))
        #expect(r.out.contains("35 versions of 30–133 items: 34 updates over "))
        #expect(r.out.contains("outcomes (medians over the repeats"))
        #expect(r.out.contains("recommendation for this trace"))
        #expect(r.out.contains("30–133 items, 60 Hz: "))
        #expect(r.out.hasSuffix("results: \(out)\n"))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let document = try JSONValue.parse(text)
        let results = try PolicyGridResults(json: document, source: out)
        #expect(results.json == document, "the file reads back to the same document")
        #expect(try PolicyGridResults(json: results.json, source: out) == results)
        #expect(results.trace?.file == Self.readme && results.trace?.versions == 35)
        #expect(results.traceStream?.timing == .medianInterval && results.traceStream?.requests == 34)
        #expect(results.runs.count == 64 && results.runs.allSatisfy { $0.repeats == 3 && $0.workload.listSize == 133 })
        #expect(results.recommendations.count == 1 && results.recommendations[0].winner != nil)
        #expect(results.crossovers.isEmpty && results.profiles.isEmpty)
        // Every consecutive pair with both strategies, and the wider pairs of coalesced updates.
        #expect(results.tracePairs.filter { $0.to == $0.from + 1 }.count == 34 * 2)
        #expect(results.tracePairs.allSatisfy { $0.seconds.count == 3 && $0.engine == "hashmap" })

        let reportFolder = files.path("report")
        let report = run(["report", out, "--out", reportFolder])
        #expect(report.status == 0, "\(report.err)")
        let markdown = try String(contentsOfFile: reportFolder + "/report.md", encoding: .utf8)
        #expect(markdown.contains("## Policy lab (recorded trace)"))
        #expect(markdown.contains("**workload: recorded trace `\(Self.readme)`**"))
        #expect(markdown.contains("| source | DiffLab's own Package.swift"))
        #expect(markdown.contains("### Measured diff costs of the trace's pairs"))
        #expect(!markdown.contains("### Crossovers"))
    }

    /// A trace without times runs every --interval seconds.
    @Test func aTraceWithoutTimesNeedsAnInterval() throws {
        let files = Files(["t.jsonl": [Self.header, #"{"items":["a","b"]}"#, #"{"items":["b","a","c"]}"#, #"{"items":[]}"#].joined(separator: "\n")])
        let small = ["policy", "--trace", files.path("t.jsonl"), "--policies", "main,coalescing", "--moves", "offsets", "--repeats", "1"]
        let refused = run(small + ["--out", files.path("never.json")])
        #expect(refused.status == 64 && refused.err.contains("has no times (timestampMs): give --interval SECONDS"), "\(refused.err)")
        let scaled = run(small + ["--time-scale", "2", "--out", files.path("never.json")])
        #expect(scaled.status == 64 && scaled.err.contains("no times"), "\(scaled.err)")
        #expect(FileSystem.factsIfPresent(files.path("never.json"), followingLinks: false) == nil)
        let r = run(small + ["--interval", "0.01", "--out", files.path("p.json")])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("3 versions of 0–3 items: 2 updates over 0.01 s (one every 0.01 s"))
        let results = try PolicyGridResults(json: try JSONValue.parse(try String(contentsOfFile: files.path("p.json"), encoding: .utf8)), source: "p")
        // main, and three coalescing intervals, at two frame rates.
        #expect(results.runs.count == 4 * 4 * 2 && results.traceStream?.interval == 0.01)
    }

    /// The grid's workload options do not apply to a trace, the trace's timing options apply only
    /// to one, and one timing at a time.
    @Test(arguments: [
        (["--trace", "T", "--sizes", "100"], "--sizes does not apply to --trace"),
        (["--trace", "T", "--intervals", "frame"], "--intervals does not apply"),
        (["--trace", "T", "--edits", "1"], "--edits does not apply"), (["--trace", "T", "--duration", "1"], "--duration does not apply"),
        (["--trace", "T", "--interval", "1", "--time-scale", "2"], "at most one of --time-scale, --median-interval and --interval"),
        (["--time-scale", "2"], "--time-scale applies only with --trace"),
        (["--median-interval", "0.05"], "--median-interval applies only with --trace"),
        (["--interval", "1"], "--interval applies only with --trace"), (["--max-gap", "1"], "--max-gap applies only with --trace"),
        (["--trace", "T", "--time-scale", "0"], "--time-scale"), (["--trace", "T", "--max-gap", "inf"], "--max-gap"),
    ])
    func optionsThatDoNotApplyAreRefused(arguments: [String], message: String) {
        let files = Files([:])
        let r = run(["policy"] + arguments.map { $0 == "T" ? Self.readme : $0 } + ["--out", files.path("never.json")])
        #expect(r.status == 64, "\(arguments): \(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(FileSystem.factsIfPresent(files.path("never.json"), followingLinks: false) == nil)
    }

    /// A malformed trace exits 65 naming the line, a missing one 66; a trace of one version, or
    /// one whose median gap is 0 for --median-interval, is refused before anything runs.
    @Test func badTracesAreRefused() {
        let files = Files([
            "broken.jsonl": Self.header + "\n{\"items\": [1]}\n", "one.jsonl": Self.header + "\n{\"items\": [\"a\"]}\n",
            "together.jsonl": [Self.header, #"{"items":["a"],"timestampMs":5}"#, #"{"items":["b"],"timestampMs":5}"#].joined(separator: "\n"),
        ])
        let out = ["--out", files.path("never.json")]
        let broken = run(["policy", "--trace", files.path("broken.jsonl")] + out)
        #expect(broken.status == 65 && broken.err.contains("broken.jsonl:2: items[0]"), "\(broken.err)")
        let one = run(["policy", "--trace", files.path("one.jsonl"), "--interval", "1"] + out)
        #expect(one.status == 65 && one.err.contains("needs at least two"), "\(one.err)")
        let missing = run(["policy", "--trace", files.path("absent.jsonl")] + out)
        #expect(missing.status == 66, "\(missing.err)")
        let together = run(["policy", "--trace", files.path("together.jsonl"), "--median-interval", "0.05"] + out)
        #expect(together.status == 64 && together.err.contains("median gap between versions is 0 ms"), "\(together.err)")
        #expect(FileSystem.factsIfPresent(files.path("never.json"), followingLinks: false) == nil)
    }
}
