import CustomEngine
import DiffLab
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FragileEngine` traps (and hangs) on some inputs. In-process fuzzing would end this test
/// process at the first trap; `runFuzzerIsolated` runs the campaign in forked processes, so the
/// trap is a reported, shrunk failure and this process lives on.
///
/// Forking from a test runner that runs other tests on other threads is safe enough on Linux (the
/// child runs only Swift code and ends with `_exit`), not on Darwin: there the test is skipped,
/// and `custom-difflab fuzz --engines fragile` in a subprocess is the way (Scripts/example-test).
@Suite(.enabled(if: forkingIsSupported)) struct CrashIsolation {
    @Test func aTrappingEngineIsReportedShrunkAndSurvived() throws {
        // Each engine × property is dropped after its first crash or hang, so several properties
        // give the trap a chance even when a hang is found first on one of them.
        let options = FuzzOptions(
            inputs: 3_000, seed: 1, subjects: [FuzzSubject(FragileEngine())], properties: [.rawSound, .batchValid, .metamorphic],
            workers: 1)
        let outcome = try runFuzzerIsolated(options, checkSeconds: 2)
        let me = getpid()
        #expect(outcome.isolated)
        let crashes = outcome.crashFailures.filter { !$0.signature.hasSuffix("/hung") }
        for hang in outcome.crashFailures where hang.signature.hasSuffix("/hung") {
            print("hang isolated: \(hang.signature), shrunk to \(hang.shrunkItems) items")
        }
        for crash in crashes {
            print(
                "crash isolated: \(crash.signature), shrunk from \(crash.originalItems) to \(crash.shrunkItems) items (\(crash.shrinkAttempts) attempts); old \(crash.input.old), new \(crash.input.new)"
            )
        }
        print("failures: \(outcome.report.failures.map(\.signature)); \(outcome.report.inputs) inputs")
        let crash = try #require(crashes.first, "no crash reported: \(outcome.report.failures.map(\.signature))")
        // The trap is `new[-1]`'s range check: SIGILL on x86-64 and SIGTRAP on arm64.
        #expect(crash.signature.hasSuffix("/fragile/crashed-SIGILL") || crash.signature.hasSuffix("/fragile/crashed-SIGTRAP"), "\(crash.signature)")
        // Shrunk: the smallest trapping input is `old: [b, a]`, `new: [a]` (3 items).
        #expect(crash.shrunkItems <= 4, "shrunk to \(crash.shrunkItems) items")
        #expect(crash.shrunkItems <= crash.originalItems)
        // The saved case names the crash, for `custom-difflab replay` (which would trap again).
        #expect(crash.regression.signature == crash.signature)
        // And this process is still the one that started the campaign.
        #expect(getpid() == me)
        #expect(outcome.report.inputs > 0)
    }
}

/// Where `fork` is unavailable (Darwin) or unwanted, the supervisor starts a worker program that
/// rebuilds the same options from its command line: here `custom-difflab fuzz` with the flags that
/// make exactly `options`, and the job path appended. It finds the same trap, shrunk the same way.
@Suite struct SpawnedWorkerIsolation {
    @Test func aSpawnedWorkerFindsTheTrapAsAForkDoes() throws {
        let runner = try #require(customDifflab(), "custom-difflab is not built next to this package's tests")
        let options = FuzzOptions(
            inputs: 3_000, seed: 1, subjects: [FuzzSubject(FragileEngine())], properties: [.rawSound, .batchValid, .metamorphic],
            workers: 1)
        var supervisor = FuzzSupervisor(options: options, checkSeconds: 2)
        supervisor.isolation = .spawn(
            FuzzWorkerCommand(
                executable: runner,
                arguments: [
                    "fuzz", "--engines", "fragile", "--properties", "raw-sound,batch-valid,metamorphic", "--workers", "1", "--cases", "3000",
                    "--seed", "1", "--isolation-job",
                ]))
        let outcome = try runFuzzerIsolated(supervisor)
        #expect(outcome.isolated)
        print("spawned worker: \(outcome.report.failures.map { "\($0.signature) (\($0.shrunkItems) items)" }); \(outcome.report.inputs) inputs")
        let crash = try #require(outcome.crashFailures.first { !$0.signature.hasSuffix("/hung") }, "\(outcome.report.failures.map(\.signature))")
        #expect(crash.signature.hasSuffix("/fragile/crashed-SIGILL") || crash.signature.hasSuffix("/fragile/crashed-SIGTRAP"), "\(crash.signature)")
        #expect(crash.shrunkItems <= 4, "shrunk to \(crash.shrunkItems) items")
        #expect(outcome.report.inputs > 0)
    }
}

/// The command line itself, as a user runs it: `custom-difflab fuzz --isolation spawn` starts itself
/// again as the worker (Darwin's default) and reports the fragile engine's trap and hang as
/// `--isolation fork` does (Linux's default), on the same seed: the same failures, shrunk to the
/// same sizes. Each run is a process of its own, so this test forks nothing itself.
@Suite struct SpawnedWorkerCommandLine {
    @Test func spawnAndForkReportTheSameTrapAndHang() throws {
        let runner = try #require(customDifflab(), "custom-difflab is not built next to this package's tests")
        let spawned = try fuzzSummary(runner, isolation: "spawn")
        print("--isolation spawn: \(spawned.map { "\($0.signature) (\($0.shrunkItems) items)" })")
        let crash = try #require(spawned.first { $0.signature.contains("/fragile/crashed-") }, "\(spawned.map(\.signature))")
        #expect(crash.signature.hasSuffix("crashed-SIGILL") || crash.signature.hasSuffix("crashed-SIGTRAP"), "\(crash.signature)")
        #expect(crash.crashed && crash.shrunkItems <= 4, "\(crash.signature): \(crash.shrunkItems) items")
        let hang = try #require(spawned.first { $0.signature.hasSuffix("/fragile/hung") }, "\(spawned.map(\.signature))")
        #expect(hang.crashed && hang.shrunkItems <= 4, "\(hang.signature): \(hang.shrunkItems) items")
        #if os(Linux)
        let forked = try fuzzSummary(runner, isolation: "fork")
        print("--isolation fork: \(forked.map { "\($0.signature) (\($0.shrunkItems) items)" })")
        #expect(Set(forked.map(\.signature)) == Set(spawned.map(\.signature)))
        // Shrinking replays each candidate in a process of its own either way: the same candidates.
        #expect(
            Dictionary(uniqueKeysWithValues: forked.map { ($0.signature, $0.shrunkItems) })
                == Dictionary(uniqueKeysWithValues: spawned.map { ($0.signature, $0.shrunkItems) }))
        #endif
    }

    /// The failures of `custom-difflab fuzz` on the fragile engine, seed 1, 3,000 inputs, one worker,
    /// from its `--json` summary (the last line of standard output).
    private func fuzzSummary(_ runner: String, isolation: String) throws -> [FuzzFailureRecord] {
        let corpus = FileManager.default.temporaryDirectory.appendingPathComponent("fragile-\(isolation)-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let (exited, output) = try runCustomDifflab(
            runner,
            [
                "fuzz", "--engines", "fragile", "--properties", "raw-sound,batch-valid,metamorphic", "--workers", "1", "--cases", "3000",
                "--seed", "1", "--check-seconds", "1", "--json", "--corpus", corpus, "--isolation", isolation,
            ])
        // Exit 1: failures were found (the trap and the hang).
        #expect(exited == 1, "--isolation \(isolation)")
        let last = output.split(separator: "\n").last.map(String.init) ?? ""
        return try FuzzSummaryFile(json: JSONValue.parse(last), source: "--isolation \(isolation)").failures
    }
}

/// The `custom-difflab` executable built with this package's tests: in the tests' own folder
/// (Linux, where the test runner is an executable there), else under the package's `.build/debug`.
func customDifflab() -> String? {
    let runner = CommandLine.arguments.first ?? ""
    let folder = runner.contains("/") ? String(runner[..<runner.lastIndex(of: "/")!]) : "."
    let package = String(#filePath.components(separatedBy: "/Tests/CustomEngineTests/").first ?? ".")
    return [folder + "/custom-difflab", package + "/.build/debug/custom-difflab"].first { access($0, X_OK) == 0 }
}

/// Whether crash-isolated fuzzing may fork here: Linux, yes; Darwin's test runners, no.
private let forkingIsSupported: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()

/// Runs `runner` with `arguments` (backtraces off), and returns its exit status (`nil` when a
/// signal ended it) and its standard output.
func runCustomDifflab(_ runner: String, _ arguments: [String]) throws -> (status: Int32?, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: runner)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationReason == .exit ? process.terminationStatus : nil, String(decoding: bytes, as: UTF8.self))
}
