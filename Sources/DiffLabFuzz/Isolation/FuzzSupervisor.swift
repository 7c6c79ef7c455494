import DiffLabCore
import DiffLabFormatting
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// Crash-isolated fuzzing: runs a campaign in another process — forked, or a spawned worker program
/// where `fork` is unavailable (``isolation``) — and survives an engine that traps, crashes or hangs. `difflab fuzz` uses it; a package's own tests can too (see
/// ``runFuzzerIsolated(_:checkSeconds:isolating:progress:)``, and there when forking is unsafe).
///
/// An engine under test may trap (a failed precondition, an index out of range, a force-unwrap of
/// `nil`), crash or loop forever; in-process, that ends the whole run with nothing to show. So the
/// supervisor runs ``runFuzzer(_:progress:)`` in a child process made with `fork()` and watches it:
/// - before each check the child writes, into memory shared with this process, which input (its
///   choice sequence and size) and which subject × property each worker is checking, and counts
///   its inputs and checks there (`FuzzSlots`);
/// - when the child dies by a signal, or one check runs longer than ``checkSeconds``, this process
///   replays each check that was in progress, each in a forked process of its own, to find the
///   one that crashes (or hangs) on its own; it shrinks that input the usual way (`shrink`),
///   one forked process per candidate, keeping the candidates that end the same way (the same
///   signal, or a hang) on an input inside (or outside) the engine's contract like the original;
/// - it reports the failure as `<property>/<subject>/crashed-<SIGNAL>` or `<property>/<subject>/hung`,
///   with the shrunk counterexample, and starts a new child that goes on from the next input and
///   no longer checks that subject × property.
///
/// Forking is safe when this process runs nothing but the supervision (no threads of its own
/// that could hold a lock at the moment of the fork, as in the `difflab` executable) and each
/// child only runs Swift code and ends with `_exit` (or `exit` under coverage instrumentation: see
/// `endChild(_:)`).
///
/// Why here, in DiffLabFuzz (which thereby depends on DiffLabProcess), and not in a module of its
/// own: the supervision is the fuzzer's — it drives ``runFuzzer(_:progress:)`` through the
/// fuzzer's watcher hook, replays ``Property`` checks and shrinks with the fuzzer's shrinker, and
/// its outcome is a ``FuzzReport`` — while DiffLabProcess is a small leaf (on DiffLabCore and
/// DiffLabJSON only) with no knowledge of fuzzing, so the edge adds no cycle and a package that
/// fuzzes its engine needs one import for both ways of running a campaign.
///
/// - Complexity: the campaign's own cost, plus one process per replayed check and per shrinking
///   candidate after a crash or a hang; memory: one shared slot of about 1 MiB per worker.
/// - Thread safety: ``run(progress:)`` may be called from any thread, but see
///   ``runFuzzerIsolated(_:checkSeconds:isolating:progress:)`` on forking from a process with
///   other busy threads. `progress` is called from the child's workers and must be `Sendable`.
public struct FuzzSupervisor: Sendable {
    /// The options of the whole campaign.
    public var options: FuzzOptions
    /// A check that runs longer than this has hung (default 10 s; in ``allowedCheckSeconds``).
    public var checkSeconds: Double
    /// The most bytes of findings read back from one campaign process (default 64 MiB; the
    /// command line passes its `--max-input-bytes`).
    public var maxFindingsBytes: Int
    /// Whether the campaign process keeps the Swift runtime's crash handler, which prints a
    /// backtrace on standard error before the process dies (on Linux by default; see
    /// `SWIFT_BACKTRACE`). It takes seconds, which count against ``checkSeconds``, so library
    /// callers leave it off (default `false`): a trap then ends the campaign process at once by
    /// its signal. `difflab fuzz` keeps it, as the engine's own output. Replays never keep it
    /// (their standard error is discarded).
    public var campaignBacktraces = false
    /// How the campaign and replay processes are started: `fork()` (the default; Linux only) or
    /// a spawned worker program (``FuzzIsolation/spawn(_:)``, where `fork` is unavailable, as on
    /// Darwin, or unsafe). With a spawned worker, `progress` is called by this process, from the
    /// counts the worker keeps in the shared slots (about five times a second), not by the
    /// worker's threads.
    public var isolation: FuzzIsolation = .fork
    /// The documented range of ``checkSeconds`` (and of `difflab fuzz --check-seconds`): 0.1 to 3,600.
    public static let allowedCheckSeconds = 0.1...3_600.0

    /// A supervisor of the campaign `options`, `checkSeconds` (clamped to
    /// ``allowedCheckSeconds``) being the time after which one check has hung.
    public init(options: FuzzOptions, checkSeconds: Double = 10, maxFindingsBytes: Int = 64 << 20) {
        self.options = options
        self.checkSeconds = min(max(checkSeconds.isNaN ? 10 : checkSeconds, Self.allowedCheckSeconds.lowerBound), Self.allowedCheckSeconds.upperBound)
        self.maxFindingsBytes = max(1, maxFindingsBytes)
    }

    /// What ended a check replayed in a process of its own.
    enum Ending: Equatable {
        case passed
        case failed
        case crashed(Int32)
        /// A check of worker `worker` ran past the limit (for a replay, `worker` is 0).
        case hung(worker: Int)
        /// The campaign process showed no progress outside any check for ``idleSeconds``.
        case idle

        var isHang: Bool { if case .hung = self { true } else { false } }

        /// The same kind of ending: the same signal, both hangs, both passes or both failures.
        func sameKind(as other: Ending) -> Bool { isHang ? other.isHang : self == other }
    }

    /// Runs the campaign; see the type's documentation.
    ///
    /// - Throws: ``FuzzIsolationError`` when no process can be started, the shared memory cannot
    ///   be mapped, no private temporary folder can be made, or the campaign process dies by a
    ///   signal outside any check (a bug in DiffLab's generator or properties, not in an engine).
    ///   A process that shows no progress outside any check for `idleSeconds` (60 s, or six times
    ///   ``checkSeconds`` when longer) is stopped, said so on standard error, and the run goes on.
    public func run(progress: @escaping @Sendable (FuzzProgress) -> Void = { _ in }) throws(FuzzIsolationError) -> IsolatedFuzzOutcome {
        let workers = max(options.workers, 1)
        let folder: String
        do { folder = try Cleanup.shared.makeTemporaryDirectory("difflab-fuzz") } catch { throw .process(error) }
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let slotsPath = folder + "/slots"
        let slots = try isolation == .fork ? FuzzSlots(workers: workers) : FuzzSlots(workers: workers, file: slotsPath)
        let start = monotonicNow()
        var failures: [FuzzFailure] = []
        var keys: Set<String> = []
        var crashes: Set<String> = []
        var totals = FuzzSlots.Counts()
        var round = options
        var rounds = 0
        var done = false
        while !done {
            let offset = monotonicNow() - start
            if let seconds = options.seconds {
                guard seconds - offset > 0 else { break }
                round.seconds = seconds - offset
            }
            if let limit = options.inputs, round.firstInput >= limit { break }
            if round.skipping.count >= options.subjects.count * options.properties.count { break }
            slots.reset()
            rounds += 1
            let findingsPath = folder + "/round-\(rounds).jsonl"
            let base = (checks: totals.checks, failures: failures.count, outside: failures.count { $0.outsideContract })
            var job = FuzzWorkerJobRecord(kind: .campaign)
            job.backtraces = campaignBacktraces
            (job.slots, job.findings, job.firstInput, job.seconds) = (slotsPath, findingsPath, round.firstInput, round.seconds)
            job.skipping = round.skipping.map { [$0.subject, $0.property] }.sorted { $0.lexicographicallyPrecedes($1) }
            job.known = round.known.sorted()
            let (pid, _) = try startIsolated(job, name: "job-\(rounds).json", folder: folder, quiet: false, backtraces: campaignBacktraces) {
                var child = round
                guard slots.openFindings(findingsPath) else { endChild(3) }
                child.watcher = slots
                _ = runFuzzer(child) { p in
                    progress(
                        FuzzProgress(
                            inputs: p.inputs, checks: base.checks + p.checks, failures: base.failures + p.failures,
                            outsideContract: base.outside + p.outsideContract, seconds: offset + p.seconds, size: p.size))
                }
                endChild(0)
            }
            // A forked child reports its own progress; a spawned worker's is read from the slots.
            var report: (() -> Void)?
            if case .spawn = isolation {
                let counted = totals
                report = {
                    let now = slots.counts()
                    progress(
                        FuzzProgress(
                            inputs: counted.inputs + now.inputs, checks: counted.checks + now.checks, failures: base.failures,
                            outsideContract: base.outside, seconds: monotonicNow() - start, size: slots.currentSize()))
                }
            }
            let ending = watch(pid, slots, report: report)
            totals.add(slots.counts())
            func adopt(_ failure: FuzzFailure) {
                if keys.insert(failure.key).inserted { failures.append(failure) }
                round.known.insert(failure.key)
            }
            // What the process found before it ended, however it ended: for each failure its
            // last record (one is written when it is found, another when it is shrunk).
            for failure in Self.latestRecords(try readFindings(findingsPath, secondsOffset: offset)) { adopt(failure) }
            switch ending {
            case .passed:
                done = true
            case .failed:
                throw .campaignFailed
            case .idle:
                round.firstInput = slots.lastInputIndex() + 1
                say(
                    "the fuzzing process showed no progress outside any check for \(formatPlain(idleSeconds)) s and was stopped (a stall of the machine or a hang in DiffLab itself, not in an engine); going on from input \(round.firstInput + 1)"
                )
            case .crashed, .hung:
                var active = slots.activeChecks()
                let next = active.map(\.index).max() ?? 0
                if case let .hung(worker) = ending { active = active.filter { $0.worker == worker } }
                guard !active.isEmpty else {
                    throw .endedOutsideAnyCheck(ending.isHang ? "hung" : "died by \(signalName(ending))")
                }
                round.firstInput = next + 1
                guard let found = culprit(active, ending: ending, secondsToFind: monotonicNow() - start, folder: folder) else {
                    stall(active[0])
                    continue
                }
                adopt(found.failure)
                crashes.insert(found.failure.signature)
                round.skipping.insert(FuzzOptions.checkKey(subject: found.subject, property: found.property))
            }
        }
        let report = FuzzReport(
            inputs: totals.inputs, checks: totals.checks, seconds: monotonicNow() - start, failures: failures, inputsByKind: totals.byKind,
            largeInputs: totals.large, largestInput: totals.largest)
        return IsolatedFuzzOutcome(report: report, crashes: crashes, isolated: true)
    }

    /// Waits for the campaign process `pid`: `.passed` when it exits 0, `.failed` for another
    /// status, `.crashed` when a signal ends it, `.hung` (after stopping it) when one of its checks
    /// runs past ``checkSeconds``.
    ///
    /// A process that shows no sign of life (no input starts or ends, no check starts or ends:
    /// ``FuzzSlots/progressMark()``) while no check runs, for ``idleSeconds``, is stopped too,
    /// as `.idle`: it hung outside any check, in DiffLab's own code, and must not
    /// wedge the run. Only time seen between two polls of this loop counts, each poll at most
    /// 0.1 s, so a stopped or suspended run (Ctrl-Z) is not taken for an idle one.
    private func watch(_ pid: Int32, _ slots: FuzzSlots, report: (() -> Void)? = nil) -> Ending {
        var mark = slots.progressMark()
        var idle = 0.0
        var polled = monotonicNow()
        var reported = polled
        while !processHasEnded(pid) {
            if let report, polled - reported >= 0.2 {
                report()
                reported = polled
            }
            let (worker, seconds) = slots.longestRunningCheck()
            let now = monotonicNow()
            let latest = slots.progressMark()
            if latest != mark || seconds > 0 {
                mark = latest
                idle = 0
            } else {
                idle += min(now - polled, 0.1)
            }
            polled = now
            if seconds > checkSeconds || idle > idleSeconds {
                try? sendSignal(.kill, to: pid)
                _ = waitProcessStatus(pid)
                return seconds > checkSeconds ? .hung(worker: worker) : .idle
            }
            sleep(seconds: 0.02)
        }
        return ending(waitProcessStatus(pid))
    }

    /// How long a campaign process may show no sign of life outside any check before it is
    /// taken as hung: six times ``checkSeconds``, at least 60 s (drawing one input, the only
    /// work outside a check, takes milliseconds even for the largest lists).
    var idleSeconds: Double { max(60, 6 * checkSeconds) }

    /// A replayed check's ending from its raw wait status.
    func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        if signal != 0 { return .crashed(signal) }
        return (status >> 8) & 0xff == 0 ? .passed : .failed
    }

    /// Writes `fuzz: <text>` and a newline to standard error.
    func say(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array("fuzz: \(text)\n".utf8))
    }

    /// Says on standard error that a check ran past the limit but not when replayed: the machine
    /// stalled (it is shared and noisy), which is no failure of the engine.
    func stall(_ check: FuzzSlots.ActiveCheck) {
        say(
            "input \(check.index + 1): \(options.properties[check.property]) on \(options.subjects[check.subject].name) ran past --check-seconds \(formatPlain(checkSeconds)) but not when replayed on its own: taken as a stall of the machine, not a hang; going on from the next input"
        )
    }

}
