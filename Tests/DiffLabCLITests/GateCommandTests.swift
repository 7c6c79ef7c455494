import DiffLabGate
import DiffLabJSON
import DiffLabPlatform
import Foundation
import Testing

@testable import DiffLabCLI

@Suite("difflab measure and difflab gate")
struct GateCommandTests {
    @Test func measureSpeaksItsProtocol() throws {
        #expect(run(["measure", "--protocol"]).out == "difflab-measure/1\n")
        let r = run(["measure", "--cells", "hashmap:differencekit:int:500,hash-floor:small-edit:model:300", "--samples", "3"])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONValue.parse(r.out)
        #expect(json["protocol"]?.stringValue == "difflab-measure/1")
        let results = try #require(json["results"]?.arrayValue)
        #expect(results.map { $0["cell"]?.stringValue } == ["hashmap:differencekit:int:500", "hash-floor:small-edit:model:300"])
        for result in results {
            #expect(result["samples"]?.arrayValue?.count == 3)
            #expect(result["samples"]?.arrayValue?.allSatisfy { ($0.doubleValue ?? 0) > 0 } == true)
        }
    }

    @Test(arguments: [
        "hashmap:differencekit:int", "quick:differencekit:int:10", "hashmap:tiny:int:10", "hashmap:differencekit:float:10",
        "hashmap:differencekit:int:0",
    ])
    func measureRejectsBadCells(cell: String) {
        let r = run(["measure", "--cells", cell])
        #expect(r.status == 64)
        #expect(r.err.contains("cell") || r.err.contains("unknown"))
    }

    /// Every gate error is exit 1 — never 2, which means "regression".
    @Test(arguments: [
        ["gate", "--rounds", "0"], ["gate", "--base", "HEAD", "--baseline", "x.json"], ["gate", "extra"],
        ["gate", "--thresholds", "/nonexistent/thresholds.json"], ["gate", "--cells", "nope"],
    ])
    func gateErrorsExitOne(arguments: [String]) {
        let r = run(arguments)
        #expect(r.status == 1, "\(arguments): \(r.err)")
        #expect(!r.err.isEmpty)
    }

    /// Issue 10: the gate's number flags are range-checked, and the message names the flag and
    /// its range (exit 1, the gate's code for every error).
    @Test(arguments: [
        (["--rounds", "2"], "--rounds expects an integer from 3 to 1000 (got '2')"),
        (["--rounds", "1001"], "--rounds expects an integer from 3 to 1000 (got '1001')"),
        (["--rounds", "99999999999999999999"], "--rounds expects an integer from 3 to 1000"),
        (["--samples", "0"], "--samples expects an integer from 1 to 10000 (got '0')"),
        (["--samples", "10001"], "--samples expects an integer from 1 to 10000 (got '10001')"),
        (["--seed", "-1"], "--seed expects an integer from 0 to 18446744073709551615 (got '-1')"),
        (["--seed", "18446744073709551616"], "--seed expects an integer from 0 to 18446744073709551615"),
        (["--cells", "hashmap:differencekit:int:300,hashmap:differencekit:int:300"], "--cells lists hashmap:differencekit:int:300 more than once"),
    ])
    func gateFlagsOutOfRangeExitOneNamingTheFlagAndRange(flags: [String], message: String) {
        let r = run(["gate", "--base-binary", "/bin/true"] + flags)
        #expect(r.status == 1, "\(flags): \(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
    }

    @Test func gateRejectsABadThresholdsFile() {
        let files = Files(["t.json": #"{"schema": "difflab-gate-thresholds/1", "alpha": 0.01, "metrics": {}}"#])
        let r = run(["gate", "--thresholds", files.path("t.json"), "--base-binary", "/bin/true"])
        #expect(r.status == 1)
        #expect(r.err.contains("no entry for \"time\""))
    }

    /// Issue 11: in a user's package there is no `Corpus/gate/thresholds.json`; the gate used to
    /// stop there. Without `--thresholds` it now falls back to the built-in defaults and says so,
    /// but only when the default file is absent: one that exists and is bad stays an error, and so
    /// does a missing file given with `--thresholds`.
    @Test func thresholdsFallBackToTheDefaultsOnlyWhenTheDefaultFileIsAbsent() throws {
        let files = Files(["bad.json": "{", "good.json": try String(contentsOfFile: "Corpus/gate/thresholds.json", encoding: .utf8)])
        let (fallback, source) = try GateCommand.thresholds(file: nil, defaultPath: files.path("absent.json"))
        #expect(fallback == GateThresholds.defaults)
        #expect(source.contains("built-in defaults"))
        let (read, readSource) = try GateCommand.thresholds(file: nil, defaultPath: files.path("good.json"))
        #expect(read == GateThresholds.defaults)
        #expect(readSource.contains("good.json"))
        #expect(throws: CommandError.self) { try GateCommand.thresholds(file: nil, defaultPath: files.path("bad.json")) }
        #expect(throws: CommandError.self) { try GateCommand.thresholds(file: files.path("absent.json"), defaultPath: files.path("good.json")) }
    }

    /// Issue 10: `--baseline FILE` with an empty or wrong `cells` object printed PASS and exited
    /// 0. A baseline that cannot gate the measured cells is now an error (exit 1) saying why,
    /// found before any worker runs.
    @Test(arguments: [
        (#"{"schema":"difflab-gate-baseline/1","cells":{}}"#, "cells should be a non-empty object"),
        (#"{"schema":"difflab-gate-baseline/1"}"#, "cells should be present"),
        (#"{"schema":"difflab-gate-baseline/9","cells":{"hashmap:differencekit:int:300":{"allocationRequests":3}}}"#, "schema should be"),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"myers:small-edit:int:300":{"allocationRequests":3}}}"#,
            "no entry for cell hashmap:differencekit:int:300"
        ),
        (#"{"schema":"difflab-gate-baseline/1","cells":{"hashmap:differencekit:int:300":{"allocationRequests":null}}}"#, "this cell's are all null"),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"hashmap:differencekit:int:300":{"allocationRequests":-3}}}"#,
            "allocationRequests should be null or an integer from 0 to 2^53, not -3"
        ),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"hashmap:differencekit:int:300":{"allocatedBytes":"38"}}}"#,
            "allocatedBytes should be null or an integer"
        ),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"hashmap:differencekit:int:300":{"allocatedBytes":1e308}}}"#,
            "allocatedBytes should be null or an integer"
        ),
    ])
    func unusableStoredBaselinesExitOne(baseline: String, message: String) {
        let files = Files(["baseline.json": baseline])
        let r = run([
            "gate", "--baseline", files.path("baseline.json"), "--head-binary", "/bin/true", "--cells", "hashmap:differencekit:int:300",
            "--no-instructions", "--out", files.path("gate.json"), "--summary", files.path("summary.md"),
        ])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains(files.path("baseline.json")) && r.err.contains(message), "\(r.err)")
        #expect(!r.out.contains("PASS"))
    }

    /// A well-formed baseline whose only value the candidate does not measure (instructions, with
    /// `--no-instructions`): the run compares nothing, so it fails closed with exit 1 and says so,
    /// in the summary as on standard error.
    @Test func aGateThatComparedNothingExitsOne() throws {
        let binary = ".build/debug/difflab"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the difflab executable first")
        let files = Files([
            "baseline.json":
                #"{"schema":"difflab-gate-baseline/1","cells":{"hashmap:differencekit:int:300":{"instructions":1000,"allocatedBytes":null}}}"#
        ])
        let r = run([
            "gate", "--baseline", files.path("baseline.json"), "--head-binary", binary, "--cells", "hashmap:differencekit:int:300",
            "--samples", "1", "--no-instructions", "--out", files.path("gate.json"), "--summary", files.path("summary.md"),
        ])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains("the gate compared nothing, so it cannot pass"), "\(r.err)")
        #expect(r.out.hasPrefix("## DiffLab regression gate: ERROR"), "\(r.out)")
        let json = try JSONValue.parse(try String(contentsOfFile: files.path("gate.json"), encoding: .utf8))
        #expect(json["verdict"]?.stringValue == "error" && json["exitCode"]?.intValue == 1)
    }

    /// Issue 10: a killed gate left `/tmp/difflab-gate-*` behind. All of a run's temporary files
    /// now live in one folder made with mkdtemp under `TMPDIR` and registered for removal, so
    /// SIGTERM in the middle of a run leaves nothing. (The gate runs as a child process, with its
    /// own `TMPDIR`, so no other test or process can interfere.)
    @Test(.timeLimit(.minutes(2)))
    func aKilledGateLeavesNoTemporaryFolder() throws {
        let binary = ".build/debug/difflab"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the difflab executable first")
        let files = Files([:])
        let tmp = files.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "gate", "--base-binary", binary, "--head-binary", binary, "--cells", "hashmap:differencekit:int:300", "--rounds", "1000",
            "--samples", "10000", "--no-instructions", "--out", files.path("gate.json"), "--summary", files.path("summary.md"),
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A listing that fails is an error, not an empty folder (which would pass the last check).
        func gateFolders() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.hasPrefix("difflab-gate-") }
        }
        // Wait until the run has made its folder and started measuring (the launch links exist).
        var waited = 0
        while try waited < 1_200 && !(gateFolders().first.map { FileManager.default.fileExists(atPath: tmp + "/" + $0 + "/b1") } ?? false) {
            sleep(seconds: 0.05)
            waited += 1
        }
        let folders = try gateFolders()
        #expect(folders.count == 1, "the gate made \(folders) in \(tmp)")
        process.terminate()
        process.waitUntilExit()
        #expect(
            process.terminationReason == .uncaughtSignal || process.terminationStatus == 128 + Signal.terminate.rawValue,
            "ended with \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        let left = try gateFolders()
        #expect(left.isEmpty, "left behind: \(left)")
    }

    /// The whole gate, end to end, with the debug `difflab` as both builds (so it needs
    /// `swift build` to have built the executable, which `swift test` does).
    @Test func gateRunsTwoBuildsEndToEnd() throws {
        let binary = ".build/debug/difflab"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the difflab executable first")
        let files = Files([:])
        let out = files.path("gate.json")
        let summary = files.path("summary.md")
        let r = run([
            "gate", "--base-binary", binary, "--head-binary", binary, "--cells", "hashmap:differencekit:int:300,heckel:small-edit:int:300",
            "--rounds", "4", "--samples", "3", "--no-instructions", "--out", out, "--summary", summary,
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("## DiffLab regression gate: PASS"))
        let json = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(json["schema"]?.stringValue == "difflab-gate/1")
        let comparisons = try #require(json["comparisons"]?.arrayValue)
        #expect(comparisons.count == 2 * 4)  // time, instructions, bytes, requests per cell
        let time = comparisons.filter { $0["metric"]?.stringValue == "time" }
        #expect(time.count == 2, "one time comparison per cell")
        #expect(time.allSatisfy { $0["rounds"]?.intValue == 4 && $0["verdict"]?.stringValue == "pass" })
        // 4 rounds can never be significant after Holm over 2 cells: the smallest p is 2/16.
        #expect(time.allSatisfy { ($0["pAdjusted"]?.doubleValue ?? 0) >= 0.125 })
        let instructions = comparisons.filter { $0["metric"]?.stringValue == "instructions" }
        #expect(instructions.count == 2, "one instructions comparison per cell")
        #expect(instructions.allSatisfy { $0["verdict"]?.stringValue == "not-gated" })
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == r.out)
    }
}

/// Issue 11: `gate` in an outside package with `.package(path: "../DiffLab")` built its baseline
/// in `.build/gate/base-…`, where `../DiffLab` does not exist.
@Suite("Gate worktrees and path dependencies")
struct GateWorktreeTests {
    @Test func pathsNormalizeAndRelate() {
        #expect(GateWorktree.normalized("/a/b/../c/./d") == "/a/c/d")
        #expect(GateWorktree.normalized("/a/../../b") == "/b")
        #expect(GateWorktree.relative(from: "/x/repo", to: "/x/DiffLab") == "../DiffLab")
        #expect(GateWorktree.relative(from: "/x/repo/pkg", to: "/y/z") == "../../../y/z")
        #expect(GateWorktree.relative(from: "/x", to: "/x") == ".")
    }

    @Test func nestingKeepsEveryPathBelowTheGateFolder() {
        #expect(GateWorktree.nesting(for: [], prefix: "") == 0)
        #expect(GateWorktree.nesting(for: ["../DiffLab"], prefix: "") == 1)
        #expect(GateWorktree.nesting(for: ["../../a", "../b"], prefix: "") == 2)
        #expect(GateWorktree.nesting(for: ["../../DiffLab"], prefix: "pkg/") == 1)
        #expect(GateWorktree.nesting(for: ["vendored/x"], prefix: "") == 0)
    }

    @Test func linksLandInsideTheGateFolderOnly() throws {
        let files = Files(["marker": ""])
        let root = files.directory
        // A real dependency folder next to the "repository", and a gate folder inside it.
        try makeDirectories(root + "/DiffLab")
        try makeDirectories(root + "/repo/.build/gate/base-1/tree")
        let folder = root + "/repo/.build/gate/base-1"
        try GateWorktree.link(
            ["../DiffLab", "../../../../escape", "../Missing"], workPackage: folder + "/tree", realPackage: root + "/repo",
            inside: folder)
        #expect(FileSystem.factsIfPresent(folder + "/DiffLab", followingLinks: false)?.kind == .symbolicLink)
        #expect(!pathExists(root + "/escape"), "a link never lands outside the gate folder")
        #expect(!pathExists(folder + "/Missing"), "nothing is linked to a folder that does not exist")
        // Run again: an existing link is left as it is.
        try GateWorktree.link(["../DiffLab"], workPackage: folder + "/tree", realPackage: root + "/repo", inside: folder)
    }
}

/// The gate's parts on their own: the plan, the baseline revision, stored baselines written and
/// read back (a `--save-baseline` file and a bench results file), and JUnit output.
@Suite("Gate parts: plan, baselines, JUnit")
struct GatePartsTests {
    static func plan(_ arguments: [String]) throws -> GatePlan {
        try GatePlan(try GatePlan.Options.parse(arguments + ["--out", "/tmp/never-written-gate.json", "--summary", "/tmp/never-written-summary.md"]))
    }

    /// Which revision is built: `--base`; HEAD when the tree is dirty or a patch is gated; else
    /// HEAD~1; none for a stored baseline, a baseline binary, or `--save-baseline` alone.
    @Test func theBaselineRevisionFollowsTheOptions() throws {
        #expect(GateBuilds.baselineRevision(try Self.plan([]), dirty: false) == "HEAD~1")
        #expect(GateBuilds.baselineRevision(try Self.plan([]), dirty: true) == "HEAD")
        #expect(GateBuilds.baselineRevision(try Self.plan(["--head-patch", "drill.patch"]), dirty: false) == "HEAD")
        #expect(GateBuilds.baselineRevision(try Self.plan(["--base", "v1.0"]), dirty: true) == "v1.0")
        #expect(GateBuilds.baselineRevision(try Self.plan(["--save-baseline", "/tmp/b.json"]), dirty: false) == nil)
        #expect(GateBuilds.baselineRevision(try Self.plan(["--save-baseline", "/tmp/b.json", "--base", "HEAD~2"]), dirty: false) == "HEAD~2")
        #expect(GateBuilds.baselineRevision(try Self.plan(["--baseline", "b.json"]), dirty: false) == nil)
        #expect(GateBuilds.baselineRevision(try Self.plan(["--base-binary", "/bin/true"]), dirty: false) == nil)
        #expect(throws: CommandError.self) { try Self.plan(["--head-patch", "a.patch", "--head-binary", "/bin/true"]) }
        #expect(throws: CommandError.self) { try Self.plan(["--base", "HEAD", "--baseline", "b.json"]) }
        #expect(throws: CommandError.self) { try Self.plan(["--cells", "hashmap:reverse:int:300", "--engines", "hashmap"]) }
    }

    /// A patch that cannot be read fails before anything is built (exit 1, naming it).
    @Test func anUnreadablePatchFailsAtOnce() {
        let files = Files([:])
        let r = run([
            "gate", "--head-patch", files.path("absent.patch"), "--cells", "hashmap:reverse:int:300", "--no-instructions",
            "--out", files.path("gate.json"), "--summary", files.path("summary.md"),
        ])
        #expect(r.status == 1 && r.err.contains("absent.patch"), "\(r.err)")
    }

    /// `--save-baseline` then `--baseline` with the same build: every deterministic metric equal,
    /// PASS, and the JUnit XML has one passing case per cell; a bench results file whose cell
    /// allocated far more reads as an improvement.
    @Test(
        .enabled(
            if: JemallocLibrary.installedPath() != nil || platformRequiresJemalloc,
            "stored baselines hold allocation figures, measured under jemalloc: a Mac without Homebrew's jemalloc skips this (Linux CI must have it)"
        ))
    func aSavedBaselineAndABenchFileGateTheSameBuild() throws {
        let binary = ".build/debug/difflab"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the difflab executable first")
        try #require(jemallocLibraryPath() != nil, "stored baselines hold allocation figures: install libjemalloc-dev")
        let files = Files([:])
        let cells = "hashmap:reverse:int:300,heckel:small-edit:int:300"
        let common = ["--head-binary", binary, "--cells", cells, "--samples", "1", "--no-instructions", "--summary", files.path("summary.md")]
        let save = run(["gate"] + common + ["--save-baseline", files.path("baseline.json"), "--out", files.path("unused.json")])
        #expect(save.status == 0, "\(save.err)")
        let check = run(
            ["gate"] + common + ["--baseline", files.path("baseline.json"), "--out", files.path("gate.json"), "--junit", files.path("junit.xml")])
        #expect(check.status == 0 && check.out.hasPrefix("## DiffLab regression gate: PASS"), "\(check.err)")
        let junit = try String(contentsOfFile: files.path("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"<testsuites name="difflab gate" tests="2" failures="0" errors="0" skipped="0""#), "\(junit)")
        #expect(junit.contains(#"<testcase classname="difflab.gate" name="hashmap:reverse:int:300">"#))
        let bench =
            #"{"schema":"difflab-bench/1","measurements":[{"engine":"hashmap","profile":"reverse","size":300,"kind":"int","allocator":"jemalloc","median":1e-6,"allocatedBytes":1000000000,"allocationRequests":1000000}]}"#
        let benchFiles = Files(["bench.json": bench])
        let improved = run([
            "gate", "--head-binary", binary, "--cells", "hashmap:reverse:int:300", "--samples", "1", "--no-instructions", "--baseline",
            benchFiles.path("bench.json"), "--out", files.path("gate2.json"), "--summary", files.path("summary2.md"), "--junit",
            files.path("junit2.xml"),
        ])
        #expect(improved.status == 4 && improved.out.hasPrefix("## DiffLab regression gate: IMPROVEMENT ONLY"), "\(improved.err)")
        #expect(try String(contentsOfFile: files.path("junit2.xml"), encoding: .utf8).contains("allocatedBytes: improvement"))
    }

    /// A regression fails its cell's JUnit case with the evidence; a cell nothing was compared in
    /// is an error; a run that compared nothing adds an error case.
    @Test func junitFailsRegressedCellsAndErrsOnUncomparedOnes() throws {
        let thresholds = try GateThresholds(json: try JSONValue.parse(try String(contentsOfFile: "Corpus/gate/thresholds.json", encoding: .utf8)))
        let report = GateReport(
            comparisons: [
                GateComparison(cell: "a:reverse:int:1", metric: .instructions, base: 100, head: 200, verdict: .regression),
                GateComparison(cell: "a:reverse:int:1", metric: .allocatedBytes, base: 10, head: 10, verdict: .pass),
                GateComparison(cell: "b:reverse:int:1", metric: .allocatedBytes, base: nil, head: 10, verdict: .notGated, note: "no baseline value"),
            ], thresholds: thresholds, context: [("cells", "2")], notes: [])
        let xml = report.junit().xml
        #expect(xml.contains(#"failures="1" errors="2""#), "\(xml)")
        #expect(xml.contains(#"<failure message="regression: instructions: regression, 100 → 200"#), "\(xml)")
        #expect(xml.contains(#"name="b:reverse:int:1""#) && xml.contains(#"type="not-gated""#))
        #expect(xml.contains(#"classname="difflab.gate" name="run""#))
    }
}

/// The gate's drills (README: `Scripts/gate --head-patch Corpus/gate/drills/...`) must apply to
/// the engine as it is: both had gone stale when hashmap's pairing moved into `_pair` (issue 13),
/// and the drill commands failed with exit 1 before measuring anything.
@Suite("Gate drills")
struct GateDrillTests {
    @Test(arguments: ["allocating-hashmap", "slower-hashmap"])
    func eachDrillAppliesToTheEngine(name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "apply", "--check", "Corpus/gate/drills/\(name).patch"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "Corpus/gate/drills/\(name).patch no longer applies: \(message)")
    }
}
