import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults
import Foundation
import Testing

@testable import DiffLabCLI

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
        #expect(measurements.count == 2 * 6)  // three floors, hashmap, heckel, stdlib × 2 sizes
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
        let r = run(["policy", "real-time", "--sizes", "500,1000", "--policies", "main,background", "--duration", "0.2", "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("crossover (batch updates): "))
        #expect(r.out.contains("crossover (with the reload fallback): "))
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(results["runs"]?.arrayValue?.count == 2 * 2 * 2)
        #expect(results["crossoverSize"]?["batch"] != nil)
        #expect(run(["policy", "--policies", "lazy"]).status == 64)
        #expect(run(["policy", "--background-engine", "nope"]).status == 64)
    }

    /// The scenario grid: every setting on every workload, crossovers and recommendations in the
    /// file, the table printed with --recommend.
    @Test func policyGridWritesRunsCrossoversAndRecommendations() throws {
        let files = Files([:])
        let out = files.path("grid.json")
        let r = run([
            "policy", "--sizes", "200,2000", "--frame-rates", "60", "--intervals", "frame,0.5", "--edits", "1", "--repeats", "2",
            "--duration", "1", "--recommend", "--out", out,
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("crossovers (background diffing clearly beats main from):"))
        #expect(r.out.contains("recommendations (least hitch time"))
        #expect(r.out.contains("1–632 items, 60 Hz: ") && r.out.contains("633–10000000 items, 60 Hz: "))
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(results["schema"]?.stringValue == "difflab-policy/2")
        // 2 sizes × 1 rate × 2 intervals × 1 edit share; 64 settings.
        #expect(results["runs"]?.arrayValue?.count == 4 * 64)
        #expect(results["runs"]?.arrayValue?.first?["hitchTimeRatio"]?.arrayValue?.count == 2)
        // 2 move strategies × 4 fallbacks.
        #expect(results["crossovers"]?.arrayValue?.count == 8)
        #expect(results["recommendations"]?.arrayValue?.count == 2)
        #expect(results["costs"]?["source"]?.stringValue == "defaults")
        // 2 shapes × 2 strategies × 6 spans.
        #expect(results["profiles"]?.arrayValue?.count == 24)
        let quiet = run(["policy", "--sizes", "200", "--frame-rates", "60", "--intervals", "0.5", "--repeats", "1", "--duration", "1", "--out", out])
        #expect(quiet.status == 0 && quiet.out.contains("recommendations written (--recommend prints them)"))
    }

    /// A costs file replaces the defaults it names and is recorded; a bad one exits 65 naming the
    /// member, a missing one 66, before anything runs.
    @Test func policyReadsACostsFile() throws {
        let files = Files([
            "costs.json": #"{"schema":"difflab-policy-costs/1","batchCostPerChange":0.00001,"device":"iPhone test"}"#,
            "typo.json": #"{"schema":"difflab-policy-costs/1","batchCostPerChnage":0.00001}"#,
            "huge.json": #"{"schema":"difflab-policy-costs/1","applyBaseCost":5}"#,
            "text.json": #"{"schema":"difflab-policy-costs/1","frameWork":"4ms"}"#,
            "schema.json": #"{"schema":"difflab-policy/2"}"#,
            "broken.json": #"{"schema":"#,
        ])
        let out = files.path("grid.json")
        let small = ["policy", "--sizes", "200", "--frame-rates", "60", "--intervals", "0.5", "--repeats", "1", "--duration", "1"]
        let r = run(small + ["--costs", files.path("costs.json"), "--out", out])
        #expect(r.status == 0, "\(r.err)")
        let costs = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))["costs"]
        #expect(costs?["batchCostPerChange"]?.doubleValue == 0.00001)
        #expect(costs?["applyBaseCost"]?.doubleValue == 0.001)
        #expect(costs?["source"]?.stringValue == files.path("costs.json") && costs?["device"]?.stringValue == "iPhone test")
        for (file, named) in [
            ("typo.json", "batchCostPerChnage"), ("huge.json", "applyBaseCost"), ("text.json", "frameWork"), ("schema.json", "difflab-policy/2"),
            ("broken.json", "malformed JSON"),
        ] {
            let bad = run(small + ["--costs", files.path(file), "--out", files.path("never.json")])
            #expect(bad.status == 65, "\(file): \(bad.err)")
            #expect(bad.err.contains(named) && bad.err.contains(file), "\(file): \(bad.err)")
            #expect(FileSystem.factsIfPresent(files.path("never.json"), followingLinks: false) == nil)
        }
        #expect(run(small + ["--costs", files.path("absent.json")]).status == 66)
        #expect(run(["policy", "real-time", "--sizes", "200", "--duration", "0.05", "--costs", files.path("typo.json")]).status == 65)
    }

    /// List options out of shape, and a grid too large to finish, are refused at once (64).
    @Test(arguments: [
        ["--coalescing", "0.1/0.01"], ["--coalescing", "0.2/0.01/0.1"], ["--coalescing", "0.1/0.01/5"], ["--intervals", "frames"],
        ["--reload-thresholds", "never"], ["--moves", "fewest"], ["--edits", "200"],
        ["--frame-rates", (1...17).map(String.init).joined(separator: ",")],
        ["--sizes", "1000000", "--frame-rates", "1000", "--duration", "600", "--repeats", "100"],
        // Cheap to simulate, days to measure (a review found it passed the event check).
        [
            "--sizes", "10000000", "--edits", "1,2,3,4,5,6,7,8,9,10", "--repeats", "100", "--frame-rates", "1", "--intervals", "60", "--duration",
            "0.01",
        ],
    ])
    func policyRefusesBadGrids(arguments: [String]) {
        let files = Files([:])
        let r = run(["policy"] + arguments + ["--out", files.path("never.json")])
        #expect(r.status == 64, "\(arguments): \(r.err)")
        #expect(
            r.err.contains(arguments[0]) || r.err.contains(arguments[1]) || r.err.contains("simulated frames and updates")
                || r.err.contains("measuring the diff costs"), "\(r.err)")
        #expect(FileSystem.factsIfPresent(files.path("never.json"), followingLinks: false) == nil)
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
        #expect(engines.sorted() == ["hash-floor", "hashmap", "hashmap-2t", "partitioned-floor", "stdlib", "trim-floor"])
        // 20,000 items are below the parallel threshold: hashmap-2t runs hashmap's code, and the
        // table of its "speed-up" (noise) is not printed.
        #expect(!r.out.contains("hashmap-2t (2 threads) ×"))
        #expect(r.out.contains("Parallel pairing: not shown."))
        let policyOut = files.path("policy.json")
        let p = run([
            "policy", "real-time", "--sizes", "200", "--policies", "main,background", "--duration", "0.05", "--background-engine", "hashmap-parallel",
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
        #expect(FileSystem.factsIfPresent(files.path("never.json"), followingLinks: false) == nil)
    }

    @Test(arguments: [
        ["--frame-rate", "0.0001"], ["--frame-rate", "inf"], ["--frame-rate", "0"], ["--interval", "1e9"], ["--interval", "-1"],
        ["--duration", "inf"], ["--duration", "0"], ["--frame-work", "inf"], ["--frame-work", "2"],
        ["--sizes", "1000000000000"], ["--sizes", "0"],
    ])
    func policyRefusesHostileNumbers(arguments: [String]) {
        let files = Files([:])
        let r = run(["policy", "real-time"] + arguments + ["--out", files.path("never.json")])
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
        case "fifo": try FileSystem.makeFIFO(path, permissions: 0o600)
        case "link": try FileSystem.makeSymbolicLink(at: path, to: files.path("real.json"))
        default: try FileSystem.makeDirectory(path, permissions: 0o700)
        }
        defer { if target == "folder" { try? FileSystem.removeDirectory(path) } }
        let options =
            command == "bench" ? ["--sizes", "300", "--budget", "0.001", "--allocators", "system"] : ["--sizes", "300", "--duration", "0.01"]
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
            [
                "bench", "--engines", "hashmap", "--profiles", "differencekit", "--sizes", "200", "--kinds", "int", "--budget", "0.001",
                "--allocators", "system", "--out", files.path("b.json"),
            ], console: console)
        let policy = DiffLabCommand.run(
            ["policy", "real-time", "--sizes", "200", "--policies", "main", "--duration", "0.01", "--out", files.path("p.json")], console: console)
        #expect(bench == 0 && policy == 0, "\(recorder.err)")
        #expect(recorder.err.contains("\r") == terminal)
        #expect(recorder.err.contains("bench: system allocator: 5 measured, 0 skipped\n"))
        #expect(recorder.err.contains("policy: 200 items, 2 runs\n") == !terminal)
    }

    /// Every option the commands accept is in their help, with its range.
    /// `bench` exited 0 when every cell of an engine was skipped because the engine failed: in CI
    /// that hid a broken engine. It now exits 1, after writing the table and the results, naming
    /// the engine and its first failure; `--allow-skips` lets such a run pass.
    @Test func aFailingEngineFailsTheRun() throws {
        let hello =
            #"{"type":"hello","protocol":"difflab-engine/1","name":"broken","promises":{"duplicates":true,"minimalMoves":false,"reference":"none"},"batch":false}"#
        let files = Files([
            "engine.sh": "#!/bin/sh\nread line\necho '\(hello)'\nread line\necho 'panic: index out of range' >&2\necho '  at diff()' >&2\nexit 3\n"
        ])
        try FileSystem.setPermissions(files.path("engine.sh"), 0o755)
        let bench = [
            "--engine-command", files.path("engine.sh"), "bench", "--engines", "broken,heckel", "--profiles", "reverse", "--sizes", "100,200",
            "--kinds", "int", "--allocators", "system", "--budget", "0.002",
        ]
        let failed = run(bench + ["--out", files.path("failed.json")])
        #expect(failed.status == 1, "\(failed.err)")
        #expect(failed.out.contains("skipped: the engine failed: crashed: "), "\(failed.out)")
        #expect(failed.out.hasSuffix("results: \(files.path("failed.json"))\n"))
        let lines = failed.err.split(separator: "\n")
        let error = try #require(lines.first { $0.hasPrefix("difflab: ") })
        #expect(
            error.hasPrefix(
                "difflab: bench: engine 'broken' (2 cells skipped) failed (--allow-skips lets such a run pass); the first failure, reverse · int · 100 items · system: crashed: the engine process exited with status 3"
            ), "\(failed.err)")
        #expect(lines.suffix(2) == ["    | panic: index out of range", "    |   at diff()"], "\(failed.err)")
        let results = try JSONValue.parse(try String(contentsOfFile: files.path("failed.json"), encoding: .utf8))
        let cells = try #require(results["measurements"]?.arrayValue).filter { $0["engine"]?.stringValue == "broken" }
        #expect(cells.count == 2 && cells.allSatisfy { $0["skipped"]?.stringValue?.hasPrefix("the engine failed: crashed: ") == true })

        let allowed = run(bench + ["--allow-skips", "--out", files.path("allowed.json")])
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(!allowed.err.contains("difflab: "), "\(allowed.err)")
    }

    /// Cells the call limit skips are planned, not failures: the run passes.
    @Test func cellsSkippedByTheCallLimitPass() throws {
        let files = Files([:])
        let r = run([
            "bench", "--engines", "heckel", "--profiles", "reverse", "--sizes", "100000", "--kinds", "int", "--allocators", "system",
            "--budget", "0.002", "--max-call", "0.001", "--out", files.path("bench.json"),
        ])
        #expect(r.status == 0, "\(r.err)")
        let results = try JSONValue.parse(try String(contentsOfFile: files.path("bench.json"), encoding: .utf8))
        let stdlib = try #require(results["measurements"]?.arrayValue?.first { $0["engine"]?.stringValue == "stdlib" })
        #expect(stdlib["skipped"]?.stringValue?.hasPrefix("projected ") == true, "\(stdlib)")
    }

    @Test func helpListsEveryOptionWithItsRange() {
        let bench = run(["bench", "--help"]).out
        for option in [
            "--quick", "--engines", "--threads", "--profiles", "--sizes", "--kinds", "--allocators", "--budget", "--max-call", "--seed", "--out",
            "--worker-out", "--allow-skips",
        ] {
            #expect(bench.contains(option), "bench --help lacks \(option)")
        }
        #expect(bench.contains("each 1 to 10000000") && bench.contains("0.001 to 600") && bench.contains("0.001 to 3600"))
        let realTime = run(["policy", "real-time", "--help"]).out
        for option in [
            "--quick", "--policies", "--sizes", "--interval", "--frame-rate", "--frame-work", "--duration", "--moves", "--costs", "--engine",
            "--background-engine", "--out",
        ] {
            #expect(realTime.contains(option), "policy real-time --help lacks \(option)")
        }
        #expect(realTime.contains("1 to 1000") && realTime.contains("0.001 to 60") && realTime.contains("0.01 to 600"))
        let policy = run(["policy", "--help"]).out
        for option in [
            "--quick", "--recommend", "--sizes", "--frame-rates", "--intervals", "--edits", "--policies", "--moves", "--adaptive-thresholds",
            "--coalescing", "--reload-thresholds", "--repeats", "--duration", "--latency-bound", "--costs", "--engine", "--background-engine",
            "--out",
        ] {
            #expect(policy.contains(option), "policy --help lacks \(option)")
        }
        #expect(policy.contains("1 to 1000") && policy.contains("0.001 to 60") && policy.contains("0.01 to 600"))
        // Every cost parameter and where its default comes from.
        for parameter in PolicyCosts.parameters { #expect(policy.contains(parameter.name + " = " + parameter.value)) }
    }
}

/// Issue 45: the committed full run gave `hashmap` at 10M 318.7 ms and 0 page faults a call; the
/// same cell measured alone took 796–973 ms and 86,919 faults a call. The worker's allocator kept
/// the memory that earlier, larger cells had freed, so a figure depended on the cells before it.
/// Now each measurement runs in a fresh worker whose command line names only its cell, so its
/// page faults a call (a deterministic count: no clock in it) are the same alone and after other
/// cells. The control shows the test can fail: in one shared process the same cell's count
/// changes with the cells before it (glibc keeps freed blocks in its heap; Linux only).
@Suite(
    "difflab bench: a figure does not depend on the cells before it", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: PlatformKind.current == .linux, "page-fault counts of glibc's heap: measured on Linux"))
struct BenchIsolationTests {
    /// The built command line (`swift build` makes it before the tests).
    static let binary = ".build/debug/difflab"

    /// `heckel` on differencekit int at 100,000 items, from a run of the built `difflab bench`
    /// with `engines` in `isolation`: its minor page faults of one call and the file's isolation.
    /// The call limit skips `stdlib` by projection (seconds a call in a debug build).
    func heckelCell(engines: String, sizes: String, isolation: String) throws -> (faults: Int, isolation: String?) {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the difflab executable first")
        let files = Files([:])
        let out = files.path("bench.json")
        let status = try runProcess(
            Self.binary,
            [
                "bench", "--quick", "--engines", engines, "--profiles", "differencekit", "--kinds", "int", "--sizes", sizes,
                "--allocators", "system", "--budget", "0.001", "--max-call", "1", "--isolation", isolation, "--out", out,
            ], stdout: "/dev/null", stderr: files.path("err.txt"))
        try #require(status == 0, "\((try? String(contentsOfFile: files.path("err.txt"), encoding: .utf8)) ?? "")")
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        let cell = try #require(
            results["measurements"]?.arrayValue?.first { $0["engine"]?.stringValue == "heckel" && $0["size"]?.intValue == 100_000 })
        let faults = try #require(cell["minorFaults"]?.intValue, "heckel's cell has no page-fault count: \(cell)")
        return (faults, results["options"]?["isolation"]?.stringValue)
    }

    @Test func aCellFaultsAsMuchAloneAsAfterOtherCells() throws {
        let alone = try heckelCell(engines: "heckel", sizes: "100000", isolation: "process")
        let after = try heckelCell(engines: "hashmap,heckel", sizes: "30000,100000", isolation: "process")
        #expect(alone.isolation == "process" && after.isolation == "process")
        #expect(alone.faults > 0, "the cell must fault for the comparison to mean anything")
        #expect(alone.faults == after.faults, "alone \(alone.faults) page faults a call, after other cells \(after.faults)")
        // The control: in one shared process the cells before it change the same count. Larger
        // cells before it (300,000 items) than in the isolated run: after 30,000-item cells the
        // count happened to come out the same once `hashmap`'s result derivation kept fewer
        // survivor ranks (2,888 faults either way).
        let shared = try heckelCell(engines: "hashmap,heckel", sizes: "300000,100000", isolation: "shared")
        #expect(shared.isolation == nil, "a shared run's file leaves the default out")
        #expect(shared.faults != alone.faults, "shared: \(shared.faults) page faults a call, the same as alone")
    }
}

/// A fresh worker's command line names only its cell, and the worker rebuilds every kind of
/// subject from it: a built-in engine, `hashmap-<t>t` of `--threads`, `hashmap-parallel`, a
/// floor and `stdlib`; a user's engine named like `hashmap-4t` stays the user's engine.
@Suite("difflab bench: a cell worker's command line", .timeLimit(.minutes(2)))
struct CellWorkerCommandLineTests {
    static let binary = ".build/debug/difflab"

    func worker(_ options: BenchOptions, threadEngines: [String: Int] = [:], quick: Bool = false, file: String) -> BenchCommand.CellWorker {
        BenchCommand.CellWorker(options: options, quick: quick, threadEngines: threadEngines, allocator: .system, environment: [:], file: file)
    }

    @Test func theLineDependsOnTheCellAlone() throws {
        var options = BenchOptions.quick
        options.engines = BenchSubject.builtIns.filter { ["heckel", "hashmap", "myers"].contains($0.name) }
        let cell = BenchCell(subject: "heckel", profile: .reverse, kind: .int, size: 1_000)
        let one = worker(options, quick: true, file: "/w/out.json").commandLine(cell)
        options.engines.removeAll { $0.name != "heckel" }
        options.profiles = [.reverse]
        options.sizes = [1_000, 5_000]
        let other = worker(options, quick: true, file: "/w/out.json").commandLine(cell)
        #expect(one.arguments == other.arguments && one.globals == other.globals)
        #expect(one.globals.isEmpty)
        #expect(
            one.arguments == [
                "bench", "--quick", "--engines", "heckel", "--budget", "\(options.budget)", "--max-call", "\(options.maxCallSeconds)",
                "--seed", "42", "--cell", "heckel:reverse:int:1000", "--worker-out", "/w/out.json",
            ])
    }

    @Test(arguments: ["hashmap-3t", "hashmap-parallel", "hash-floor", "stdlib", "heckel"])
    func theWorkerMeasuresItsSubject(_ subject: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the difflab executable first")
        var options = BenchOptions(engines: BenchSubject.builtIns.filter { ["heckel", "hashmap-parallel"].contains($0.name) }, budget: 0.001)
        options.engines.append(BenchSubject(HashMapEngine(partitioning: .measured, threads: 3), growthExponent: 1.2))
        let files = Files([:])
        let file = files.path("cell.json")
        let line = worker(options, threadEngines: ["hashmap-3t": 3], file: file)
            .commandLine(BenchCell(subject: subject, profile: .differencekit, kind: .int, size: 300))
        let status = try runProcess(Self.binary, line.globals + line.arguments, stdout: "/dev/null", stderr: files.path("err.txt"))
        try #require(status == 0, "\((try? String(contentsOfFile: files.path("err.txt"), encoding: .utf8)) ?? "")")
        let records = try BenchWorkerOutput(json: try JSONValue.parse(try String(contentsOfFile: file, encoding: .utf8)), source: file)
        #expect(records.measurements.count == 1)
        #expect(records.measurements.first?.engine == subject && records.measurements.first?.isMeasured == true)
        #expect(records.measurements.first?.size == 300 && records.measurements.first?.profile == "differencekit")
    }

    @Test func onlyTheNamesThreadsAddedAreRebuiltByThreads() {
        let cell = BenchCell(subject: "hashmap-4t", profile: .reverse, kind: .int, size: 1_000)
        var options = BenchOptions(budget: 0.001)
        options.engines = [BenchSubject(HashMapEngine(partitioning: .measured, threads: 4), growthExponent: 1.2)]
        let added = worker(options, threadEngines: ["hashmap-4t": 4], file: "f").commandLine(cell).arguments
        #expect(added.contains("--threads") && added[added.firstIndex(of: "--engines")! + 1] == "hashmap")
        // Not added by --threads (a user's engine of that name): named as it is.
        let named = worker(options, file: "f").commandLine(cell).arguments
        #expect(!named.contains("--threads") && named[named.firstIndex(of: "--engines")! + 1] == "hashmap-4t")
    }

    @Test func theCellOptionIsInternal() {
        let r = run(["bench", "--cell", "heckel:reverse:int:1000", "--allocators", "system", "--out", Files([:]).path("b.json")])
        #expect(r.status == 64 && r.err.contains("--cell is internal"), "\(r.err)")
    }

    /// Hostile values of the new options are usage errors naming the option.
    @Test func badIsolationAndCellValuesAreUsageErrors() {
        let files = Files([:])
        let isolation = run(["bench", "--isolation", "fork", "--allocators", "system", "--out", files.path("a.json")])
        #expect(isolation.status == 64 && isolation.err.contains("--isolation"), "\(isolation.err)")
        for cell in ["heckel:reverse:int", "nobody:reverse:int:100", "heckel:reverse:int:99999999999"] {
            let r = run(["bench", "--cell", cell, "--worker-out", files.path("w.json"), "--allocators", "system"])
            #expect(r.status == 64 && r.err.contains("--cell"), "\(cell): \(r.err)")
        }
    }
}

/// The staged cell (issue 46): `<engine>-staged` names a pairing engine's staged form wherever a
/// benchmark subject is named (bench `--engines`, gate `--engines` and `--cells`, `measure`).
@Suite struct StagedSubjectCommandTests {
    @Test func benchTimesTheStagedFormsItIsGiven() throws {
        let files = Files([:])
        let out = files.path("bench.json")
        let r = run([
            "bench", "--engines", "hashmap-staged,myers-staged", "--profiles", "small-edit", "--sizes", "300", "--kinds", "model",
            "--budget", "0.002", "--allocators", "system", "--out", out,
        ])
        #expect(r.status == 0, "\(r.err)")
        let rows = try #require(try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))["measurements"]?.arrayValue)
        let staged = rows.filter { $0["engine"]?.stringValue?.hasSuffix("-staged") == true }
        #expect(staged.compactMap { $0["engine"]?.stringValue }.sorted() == ["hashmap-staged", "myers-staged"])
        // Both stage the same input, so they count changes (not necessarily the same ones).
        #expect(staged.allSatisfy { ($0["changeCount"]?.intValue ?? 0) > 0 })
    }

    /// A changeset engine has no staged form: DiffLab cannot see its pairing.
    @Test func aChangesetEngineHasNoStagedForm() throws {
        let registry = try EngineRegistry(EngineRegistry.builtIns.engines + [RegisteredEngine(ForgetfulEngine())])
        #expect(registry.benchSubjects.map(\.name).contains("forgetful"))
        #expect(!registry.benchSubjects.map(\.name).contains("forgetful-staged"))
        #expect(registry.benchSubjects.map(\.name).contains("heckel-staged"))
        #expect(throws: CommandError.self) { try registry.benchSubject(named: "forgetful-staged") }
        let r = run(["bench", "--engines", "stdlib-staged,nonsense-staged", "--sizes", "100", "--allocators", "system"])
        #expect(r.status == 64 && r.err.contains("unknown engine 'nonsense-staged'") && r.err.contains("hashmap-staged"), "\(r.err)")
    }

    /// Engine names may not end with `-staged`, so a staged subject never shadows an engine.
    @Test func theStagedSuffixIsReserved() {
        #expect(throws: CommandError.self) {
            try EngineRegistry(EngineRegistry.builtIns.engines + [RegisteredEngine(ForgetfulEngine(name: "mine-staged"))])
        }
        #expect(throws: CommandError.self) { try EngineRegistry.checkName("mine-staged") }
        #expect(throws: Never.self) { try EngineRegistry.checkName("mine-stage") }
    }

    @Test func measureAndTheGateNameStagedCells() throws {
        let r = run(["measure", "--cells", "hashmap-staged:chat-append:int:500", "--samples", "2"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("hashmap-staged:chat-append:int:500"))
        #expect(GateCommand.defaultEngines.contains("hashmap-staged"))
        #expect(GateCommand.quickCells(GateCommand.defaultEngines).contains("hashmap-staged:small-edit:int:10000"))
    }
}
