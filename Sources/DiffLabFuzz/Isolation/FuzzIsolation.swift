import DiffLabFormatting
import DiffLabProcess
import DiffLabResults

/// What a crash-isolated campaign found (``runFuzzerIsolated(_:checkSeconds:isolating:progress:)``).
public struct IsolatedFuzzOutcome: Sendable {
    /// The campaign's report, over every campaign process it took: its counts, and its failures
    /// (property failures, crashes and hangs alike), each with its shrunk counterexample.
    public var report: FuzzReport
    /// The signatures of the failures that are crashes (`…/crashed-<SIGNAL>`) or hangs (`…/hung`).
    public var crashes: Set<String>
    /// Whether the campaign ran in forked processes (`false`: it ran in this process, see
    /// ``runFuzzerIsolated(_:checkSeconds:isolating:progress:)``).
    public var isolated: Bool

    /// An outcome; see the properties.
    public init(report: FuzzReport, crashes: Set<String>, isolated: Bool) {
        self.report = report
        self.crashes = crashes
        self.isolated = isolated
    }

    /// The failures that are crashes or hangs, in the order found.
    public var crashFailures: [FuzzFailure] { report.failures.filter { crashes.contains($0.signature) } }
}

/// Why a crash-isolated campaign could not run or could not go on. These are failures of the
/// machinery (or of DiffLab itself), never of the engine under test: an engine's crash or hang is
/// a failure in the outcome's report.
public enum FuzzIsolationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A process or the run's private temporary folder could not be made.
    case process(ProcessError)
    /// The memory shared with the campaign process (`bytes` of it) could not be mapped.
    case sharedMemory(bytes: Int)
    /// The campaign process's findings file could not be read (over the size limit, or unreadable).
    case findingsFile(FileReadError)
    /// A record of the campaign process's findings file is damaged.
    case findingsUnreadable(path: String, reason: String)
    /// The campaign process exited with a failure status: it could not report its findings.
    case campaignFailed
    /// The campaign process `how` ("hung", "died by SIGSEGV") outside any check it could name: a
    /// bug in DiffLab's generator or properties, or an input too large to record.
    case endedOutsideAnyCheck(String)

    /// One line saying what failed, without a program name (the command line prefixes `fuzz: `,
    /// except for a temporary folder it cannot make, as for its other commands).
    public var description: String {
        switch self {
        case .process(let error): error.description
        case .sharedMemory(let bytes): "cannot map \(formatByteCount(bytes)) of shared memory"
        case .findingsFile(let error): "the fuzzing process's findings are unreadable: \(error)"
        case .findingsUnreadable(let path, let reason): "the fuzzing process's findings (\(path)) are unreadable: \(reason)"
        case .campaignFailed: "the fuzzing process could not report its findings"
        case .endedOutsideAnyCheck(let how):
            "the fuzzing process \(how) outside any check it could name (a bug in DiffLab's generator or properties, or an input too large to record)"
        }
    }
}

/// Runs the campaign `options` like ``runFuzzer(_:progress:)``, but in forked processes, so an
/// engine that traps, crashes or hangs is a reported failure — `<property>/<engine>/crashed-<SIGNAL>`
/// or `<property>/<engine>/hung`, with a shrunk counterexample — instead of the end of this
/// process. The campaign then goes on from the next input without that engine × property. See
/// ``FuzzSupervisor`` for how.
///
/// ```swift
/// @Test func myEngineNeverTraps() throws {
///     let outcome = try runFuzzerIsolated(FuzzOptions(inputs: 2_000, subjects: [FuzzSubject(MyEngine())]), checkSeconds: 2)
///     #expect(outcome.crashes.isEmpty, "\(outcome.crashFailures)")
/// }
/// ```
///
/// `difflab fuzz` calls this function (with `isolating: false` when it runs inside another
/// program, such as DiffLab's own tests of the command line).
///
/// ## When forking is unsafe
/// `fork()` copies only the calling thread; whatever lock another thread holds at that moment
/// stays locked in the child forever. The child runs only Swift code (DiffLab's generator, the
/// engine, the properties) on a fresh thread and ends with `_exit`, so on Linux the locks that
/// matter are the Swift runtime's and `malloc`'s, which glibc and the runtime make safe across a
/// fork in practice. Still, in a test runner that runs other tests on other threads at the same
/// time (swift-testing runs tests in parallel), a child can, rarely, start with a runtime lock
/// held and stall; it is then stopped after 6 × `checkSeconds` (at least 60 s) without progress,
/// said so on standard error, and the campaign goes on, or it counts as a hang that replaying
/// does not confirm. On Darwin, `fork` is unavailable to Swift (and forking a process that runs
/// XCTest or libdispatch threads is not supported at all). There, and whenever a test must be
/// deterministic:
/// - give the supervisor a worker program (``FuzzSupervisor/isolation``,
///   ``FuzzIsolation/spawn(_:)``): your runner built with `DiffLabRunner.main(engines:)`, whose
///   `fuzz` command rebuilds the options from its flags; the campaign and every replay then run
///   in fresh processes, started with `posix_spawn` (`Examples/CustomEngine` tests it so); or
/// - run the campaign in a process of its own — `difflab fuzz` (or your runner built with
///   `DiffLabRunner.main(engines:)`) started as a subprocess, reading its `--json` summary
///   (`FuzzSummaryFile` in DiffLabResults) — which is how `difflab` itself isolates crashes; or
/// - keep the isolated test alone in its process (`swift test --filter` it on its own, or mark
///   its suite `.serialized` and run no other suite at the same time).
///
/// - Parameters:
///   - options: the campaign (its engines, properties, limits; see ``FuzzOptions``). Its
///     `workers` run in the forked process.
///   - checkSeconds: one check running longer than this has hung (clamped to
///     ``FuzzSupervisor/allowedCheckSeconds``, 0.1 to 3,600).
///   - isolating: `false` runs the campaign in this process instead (``runFuzzer(_:progress:)``;
///     no crash is then survived). With ``FuzzIsolation/fork`` the campaign also runs in this
///     process when a `ProcessEngine` has been started here (`ProcessEngine.anyStarted`): a
///     forked child cannot talk to it, and that engine's own crashes are isolated in its own
///     process anyway. A spawned worker (``FuzzIsolation/spawn(_:)``) starts its own.
///   - progress: called with the campaign's progress, from the workers' threads.
/// - Returns: the outcome: the report and which failures are crashes or hangs.
/// - Throws: ``FuzzIsolationError`` when the machinery fails (no process can be forked, no
///   shared memory, a campaign process that dies outside any check); never for a failure of an
///   engine.
/// - Complexity: the campaign's cost, plus a process per replayed check and per shrinking
///   candidate after each crash or hang.
public func runFuzzerIsolated(
    _ options: FuzzOptions, checkSeconds: Double = 10, isolating: Bool = true,
    progress: @escaping @Sendable (FuzzProgress) -> Void = { _ in }
) throws(FuzzIsolationError) -> IsolatedFuzzOutcome {
    try runFuzzerIsolated(FuzzSupervisor(options: options, checkSeconds: checkSeconds), isolating: isolating, progress: progress)
}

/// ``runFuzzerIsolated(_:checkSeconds:isolating:progress:)`` with a configured supervisor (its
/// ``FuzzSupervisor/maxFindingsBytes`` too).
public func runFuzzerIsolated(
    _ supervisor: FuzzSupervisor, isolating: Bool = true, progress: @escaping @Sendable (FuzzProgress) -> Void = { _ in }
) throws(FuzzIsolationError) -> IsolatedFuzzOutcome {
    // A forked child cannot talk to this process's engine processes; a spawned worker starts its own.
    guard isolating && (supervisor.isolation != .fork || !ProcessEngine.anyStarted) else {
        return IsolatedFuzzOutcome(report: runFuzzer(supervisor.options, progress: progress), crashes: [], isolated: false)
    }
    return try supervisor.run(progress: progress)
}
