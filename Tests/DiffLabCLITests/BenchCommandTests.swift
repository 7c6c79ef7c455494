import DiffLabCLI
import DiffLabCore
import DiffLabJSON
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("difflab bench and difflab policy")
struct BenchCommandTests {
    @Test func benchWritesOneResultsFile() throws {
        let files = Files([:])
        let out = files.path("bench.json")
        let r = run([
            "bench", "--engines", "hashmap,heckel", "--profiles", "differencekit", "--sizes", "300,600", "--kinds", "int", "--budget", "0.002",
            "--allocators", "system", "--out", out,
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("differencekit · int · 300 items · system"))
        #expect(r.out.hasSuffix("results: \(out)\n"))
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(results["schema"]?.stringValue == "difflab-bench/1")
        #expect(results["machine"]?["cores"] != nil)
        let measurements = try #require(results["measurements"]?.arrayValue)
        #expect(measurements.count == 2 * 5)  // two floors, hashmap, heckel, stdlib × 2 sizes
        for m in measurements {
            #expect(m["engine"]?.stringValue != nil && m["profile"]?.stringValue == "differencekit")
            #expect(m["size"]?.intValue != nil && m["median"]?.doubleValue != nil)
        }
        #expect(results["scaling"]?.arrayValue?.isEmpty == false)
    }

    @Test func benchUsageErrors() {
        #expect(run(["bench", "--profiles", "tiny"]).status == 64)
        #expect(run(["bench", "--allocators", "tcmalloc"]).status == 64)
        #expect(run(["bench", "--kinds", "float"]).status == 64)
        #expect(run(["bench", "--help"]).out.contains("stdlib reference"))
    }

    @Test func policyNamesTheCrossover() throws {
        let files = Files([:])
        let out = files.path("policy.json")
        let r = run(["policy", "--sizes", "500,1000", "--policies", "main,background", "--duration", "0.2", "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("crossover (batch updates): "))
        #expect(r.out.contains("crossover (with the reload fallback): "))
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(results["runs"]?.arrayValue?.count == 2 * 2 * 2)
        #expect(results["crossoverSize"]?["batch"] != nil)
        #expect(run(["policy", "--policies", "lazy"]).status == 64)
        #expect(run(["policy", "--background-engine", "nope"]).status == 64)
    }

    /// `--threads 2` adds hashmap on 2 threads, named hashmap-2t, and prints its speed-up over
    /// hashmap; the policy lab's background policies diff with --background-engine, and the
    /// results say so.
    @Test func threadsAndBackgroundEngine() throws {
        let files = Files([:])
        let out = files.path("bench.json")
        let r = run([
            "bench", "--engines", "hashmap", "--threads", "1,2,2", "--profiles", "differencekit", "--sizes", "20000", "--kinds", "int",
            "--budget", "0.002", "--allocators", "system", "--out", out,
        ])
        #expect(r.status == 0, "\(r.err)")
        let engines = try #require(try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))["measurements"]?.arrayValue)
            .compactMap { $0["engine"]?.stringValue }
        #expect(engines.sorted() == ["hash-floor", "hashmap", "hashmap-2t", "partitioned-floor", "stdlib"])
        #expect(r.out.contains("differencekit · int · 20000 items · system: hashmap-2t (2 threads) ×"))
        let policyOut = files.path("policy.json")
        let p = run([
            "policy", "--sizes", "200", "--policies", "main,background", "--duration", "0.05", "--background-engine", "hashmap-parallel",
            "--out", policyOut,
        ])
        #expect(p.status == 0, "\(p.err)")
        let runs = try #require(try JSONValue.parse(try String(contentsOfFile: policyOut, encoding: .utf8))["runs"]?.arrayValue)
        #expect(runs.count == 4)
        #expect(runs.allSatisfy { $0["engine"]?.stringValue == "hashmap" && $0["backgroundEngine"]?.stringValue == "hashmap-parallel" })
    }

    /// Numbers that trapped, allocated without bound or ran forever are refused at once (64),
    /// naming the option and its range.
    @Test(arguments: [
        ["--budget", "inf"], ["--budget", "nan"], ["--budget", "0"], ["--budget", "1e400"], ["--budget", "0x10"],
        ["--sizes", "1000000000000"], ["--sizes", "0"], ["--sizes", "100,-5"],
        ["--sizes", (1...33).map(String.init).joined(separator: ",")],
        ["--max-call", "inf"], ["--max-call", "0"], ["--seed", "-1"], ["--seed", "18446744073709551616"],
        ["--threads", "0"], ["--threads", "65"], ["--threads", "2,"], ["--threads", "1e3"], ["--threads", "9223372036854775808"],
    ])
    func benchRefusesHostileNumbers(arguments: [String]) {
        let files = Files([:])
        let r = run(["bench"] + arguments + ["--out", files.path("never.json")])
        #expect(r.status == 64, "\(arguments): \(r.err)")
        #expect(r.err.contains(arguments[0]))
        #expect(r.out.isEmpty)
        #expect(access(files.path("never.json"), F_OK) != 0)
    }

    @Test(arguments: [
        ["--frame-rate", "0.0001"], ["--frame-rate", "inf"], ["--frame-rate", "0"], ["--interval", "1e9"], ["--interval", "-1"],
        ["--duration", "inf"], ["--duration", "0"], ["--frame-work", "inf"], ["--frame-work", "2"],
        ["--sizes", "1000000000000"], ["--sizes", "0"],
    ])
    func policyRefusesHostileNumbers(arguments: [String]) {
        let files = Files([:])
        let r = run(["policy"] + arguments + ["--out", files.path("never.json")])
        #expect(r.status == 64, "\(arguments): \(r.err)")
        #expect(r.err.contains(arguments[0]) && r.err.contains("from "))
        #expect(r.out.isEmpty)
    }

    /// An output path that is not a regular file fails before the run (73), not after it: nothing
    /// is measured, no table printed. (FIFOs and links under a folder of our own, never devices.)
    @Test(arguments: ["bench", "policy"], ["fifo", "link", "folder"])
    func aBadOutputFailsBeforeTheRun(command: String, target: String) throws {
        let files = Files(["real.json": "{}"])
        let path = files.path("out-\(target)")
        switch target {
        case "fifo": try #require(mkfifo(path, 0o600) == 0)
        case "link": try #require(symlink(files.path("real.json"), path) == 0)
        default: try #require(mkdir(path, 0o700) == 0)
        }
        defer { if target == "folder" { rmdir(path) } }
        let options = command == "bench" ? ["--sizes", "300", "--budget", "0.001", "--allocators", "system"] : ["--sizes", "300", "--duration", "0.01"]
        let r = run([command] + options + ["--out", path])
        #expect(r.status == 73, "\(r.err)")
        #expect(r.err.contains("--out '\(path)'"))
        #expect(r.out.isEmpty)
        #expect(!r.err.contains("allocator") && !r.err.contains("items"))
        #expect(try String(contentsOfFile: files.path("real.json"), encoding: .utf8) == "{}")
    }

    /// A first size far above the probe floor: the stdlib reference is probed, not measured, and
    /// the results file says why.
    @Test func benchProbesBeforeALargeFirstSize() throws {
        let files = Files([:])
        let out = files.path("bench.json")
        let r = run([
            "bench", "--engines", "hashmap", "--profiles", "reverse", "--sizes", "30000", "--kinds", "int", "--budget", "0.001",
            "--max-call", "0.001", "--allocators", "system", "--out", out,
        ])
        #expect(r.status == 0, "\(r.err)")
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        let stdlib = try #require(results["measurements"]?.arrayValue?.first { $0["engine"]?.stringValue == "stdlib" })
        #expect(stdlib["skipped"]?.stringValue?.contains("from a probe at 1000 items") == true)
        #expect(stdlib["median"] == nil)
        #expect(r.out.contains("stdlib            skipped: projected"))
    }

    /// In a log (standard error not a terminal): plain phase lines, no `\r` progress bars; on a
    /// terminal, the bars.
    @Test(arguments: [false, true])
    func progressBarsOnlyOnATerminal(terminal: Bool) {
        let files = Files([:])
        let recorder = Recorder()
        var console = recorder.console
        console.errIsTerminal = terminal
        let bench = DiffLabCommand.run(
            ["bench", "--engines", "hashmap", "--profiles", "differencekit", "--sizes", "200", "--kinds", "int", "--budget", "0.001",
             "--allocators", "system", "--out", files.path("b.json")], console: console)
        let policy = DiffLabCommand.run(
            ["policy", "--sizes", "200", "--policies", "main", "--duration", "0.01", "--out", files.path("p.json")], console: console)
        #expect(bench == 0 && policy == 0, "\(recorder.err)")
        #expect(recorder.err.contains("\r") == terminal)
        #expect(recorder.err.contains("bench: system allocator: 4 measured, 0 skipped\n"))
        #expect(recorder.err.contains("policy: 200 items, 2 runs\n") == !terminal)
    }

    /// Every option the commands accept is in their help, with its range.
    @Test func helpListsEveryOptionWithItsRange() {
        let bench = run(["bench", "--help"]).out
        for option in ["--quick", "--engines", "--threads", "--profiles", "--sizes", "--kinds", "--allocators", "--budget", "--max-call", "--seed", "--out", "--worker-out"] {
            #expect(bench.contains(option), "bench --help lacks \(option)")
        }
        #expect(bench.contains("each from 1 to 10000000") && bench.contains("from 0.001 to 600") && bench.contains("from 0.001 to 3600"))
        let policy = run(["policy", "--help"]).out
        for option in ["--quick", "--policies", "--sizes", "--interval", "--frame-rate", "--frame-work", "--duration", "--engine", "--background-engine", "--out"] {
            #expect(policy.contains(option), "policy --help lacks \(option)")
        }
        #expect(policy.contains("from 1 to 1000") && policy.contains("from 0.001 to 60") && policy.contains("from 0.01 to 600"))
    }
}
