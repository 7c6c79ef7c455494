import DiffLabBench
import DiffLabCLI
import DiffLabJSON
import DiffLabResults
import Foundation
import Testing

/// `difflab bench --shard K/N` and `difflab merge`: the parts of a sharded run joined equal the
/// unsharded run in cells, options and schema; parts that do not belong together are refused.
@Suite("difflab bench --shard and difflab merge")
struct ShardMergeTests {
    static let matrix = [
        "--engines", "hashmap,heckel", "--profiles", "differencekit,reverse,small-edit", "--sizes", "300,600", "--kinds", "int,model",
        "--budget", "0.002", "--allocators", "system",
    ]

    static func read(_ path: String) throws -> BenchResults {
        try BenchResults(json: try JSONValue.parse(try String(contentsOfFile: path, encoding: .utf8)), source: path)
    }

    static func cells(_ results: BenchResults) -> [String] { results.measurements.map(\.exportName).sorted() }

    @Test func mergedShardsEqualTheUnshardedRun() throws {
        let files = Files([:])
        let whole = files.path("whole.json")
        #expect(run(["bench"] + Self.matrix + ["--out", whole]).status == 0)
        var parts: [String] = []
        for k in 1...3 {
            let part = files.path("part\(k).json")
            let r = run(["bench"] + Self.matrix + ["--shard", "\(k)/3", "--out", part])
            #expect(r.status == 0, "\(r.err)")
            parts.append(part)
        }
        // Every part holds whole series, and no series is in two parts.
        let shards = try parts.map(Self.read)
        #expect(shards.allSatisfy { !$0.measurements.isEmpty })
        #expect(shards.map { $0.options.shardParts ?? [] } == [[1], [2], [3]] && shards.allSatisfy { $0.options.shardCount == 3 })
        let merged = files.path("merged.json")
        let m = run(["merge"] + parts + ["--out", merged])
        #expect(m.status == 0, "\(m.err)")
        let a = try Self.read(whole)
        let b = try Self.read(merged)
        #expect(Self.cells(a) == Self.cells(b))
        #expect(a.measurements.map(\.exportName) == b.measurements.map(\.exportName))  // the same order, too
        #expect(a.options == b.options)
        #expect(b.options.shardParts == nil && b.options.shardCount == nil)
        #expect(a.scaling.map(\.engine) == b.scaling.map(\.engine) && a.targets.map(\.name) == b.targets.map(\.name))
        // The same schema: a report and an export read it.
        #expect(run(["report", merged, "--out", files.path("report")]).status == 0)
        #expect(run(["export", merged, "--format", "bencher"]).status == 0)
    }

    /// The plan is deterministic and balanced by predicted cost: every series in one part, the
    /// parts' predicted costs close, whatever the order of the calls.
    @Test func shardsPartitionTheSeriesByPredictedCost() throws {
        let options = BenchOptions.full
        let all = Set(options.series)
        var seen: [BenchSeries] = []
        var loads: [Double] = []
        for k in 1...4 {
            let part = options.series(in: try BenchShard(k, of: 4))
            #expect(part == options.series(in: try BenchShard(k, of: 4)))
            seen += part
            loads.append(part.map(options.predictedSeconds).reduce(0, +))
        }
        #expect(seen.count == all.count && Set(seen) == all)
        let largest = options.series.map(options.predictedSeconds).max() ?? 0
        // Greedy by cost: no part exceeds another by more than the largest series.
        #expect((loads.max() ?? 0) - (loads.min() ?? 0) <= largest)
        #expect(throws: ConfigurationError.self) { try BenchShard(5, of: 4) }
        #expect(throws: ConfigurationError.self) { try BenchShard(1, of: 65) }
    }

    /// Parts from different options, a missing or repeated part, a cell in two files: refused
    /// (65), naming the files and the field; --force merges what can be merged.
    @Test func mergeRefusesPartsThatDoNotBelongTogether() throws {
        let files = Files([:])
        let small = [
            "--engines", "hashmap", "--profiles", "differencekit,reverse", "--sizes", "300", "--kinds", "int", "--budget", "0.002", "--allocators",
            "system",
        ]
        for k in 1...2 {
            #expect(run(["bench"] + small + ["--shard", "\(k)/2", "--out", files.path("p\(k).json")]).status == 0)
        }
        var other = small
        other[other.firstIndex(of: "0.002")!] = "0.003"
        #expect(run(["bench"] + other + ["--shard", "2/2", "--out", files.path("q2.json")]).status == 0)
        let out = files.path("m.json")
        let differ = run(["merge", files.path("p1.json"), files.path("q2.json"), "--out", out])
        #expect(differ.status == 65 && differ.err.contains("options differ") && differ.err.contains("q2.json"), "\(differ.err)")
        let missing = run(["merge", files.path("p1.json"), "--out", out])
        #expect(missing.status == 65 && missing.err.contains("part 2/2 missing"), "\(missing.err)")
        // The same file twice is a usage error; a copy of it is a cell in two files, always refused.
        #expect(run(["merge", files.path("p1.json"), files.path("p1.json"), files.path("p2.json"), "--out", out]).status == 64)
        try FileManager.default.copyItem(atPath: files.path("p1.json"), toPath: files.path("p1-copy.json"))
        let twice = run(["merge", files.path("p1.json"), files.path("p1-copy.json"), files.path("p2.json"), "--out", out])
        #expect(twice.status == 65 && twice.err.contains("is in both"), "\(twice.err)")
        let forcedTwice = run(["merge", files.path("p1.json"), files.path("p1-copy.json"), "--out", out, "--force"])
        #expect(forcedTwice.status == 65)
        // Parts of runs sharded differently merge only when forced, and the result reads back.
        // (Two series in three parts: part 3 is empty, so it shares no cell with p1.)
        #expect(run(["bench"] + small + ["--shard", "3/3", "--out", files.path("r3.json")]).status == 0)
        #expect(run(["merge", files.path("p1.json"), files.path("r3.json"), "--out", out]).status == 65)
        #expect(run(["merge", files.path("p1.json"), files.path("r3.json"), "--out", out, "--force"]).status == 0)
        #expect(try Self.read(out).options.shardCount == 3 && Self.read(out).options.shardParts == [1, 3])
        let forced = run(["merge", files.path("p1.json"), "--out", out, "--force"])
        #expect(forced.status == 0 && forced.err.contains("part 2/2 missing"), "\(forced.err)")
        #expect(try Self.read(out).options.shardParts == [1])
        #expect(run(["merge", "--out", out]).status == 64)
        #expect(run(["merge", files.path("p1.json")]).status == 64)
        #expect(run(["bench", "--shard", "3/2", "--out", files.path("never.json")]).status == 64)
        #expect(run(["bench", "--shard", "1", "--out", files.path("never.json")]).status == 64)
        #expect(run(["bench", "--shard", "0/2", "--out", files.path("never.json")]).status == 64)
    }
}
