import Dispatch

/// One run of an updater on real Dispatch queues (the stress mode): its script, its timeline, and
/// the first property it broke, if any.
///
/// Unlike ``UpdaterRun`` it has no schedule: the operating system chose the interleaving, and the
/// run cannot be replayed or shrunk. Re-run its ``script`` under the deterministic scheduler
/// (``UpdaterFuzzer/campaign(runs:seed:shrinkBudget:)``, ``UpdaterFuzzer/run(script:strategy:)``)
/// to get a replayable, shrunk schedule.
public struct UpdaterStressRun: Sendable {
    /// What the app did.
    public var script: UpdaterScript
    /// Every step, in the order the steps began. The lane is the queue's label (`main`,
    /// `global`, a serial queue's), `app` for the app's requests and the start and end checks,
    /// `layout` for layout passes (all three run on the run's main queue). Times are virtual
    /// seconds (real seconds divided by the time scale). Steps on different queues overlap; each
    /// step's notes are those made while it ran.
    public var events: [UpdaterEvent]
    /// The first property broken; `nil` when the run kept them all.
    public var failure: UpdaterFailure?
    /// Whether the run hit its time limit (an ``UpdaterProperty/ends`` failure, "hang"): its
    /// queues were abandoned with work still queued or running.
    public var timedOut: Bool
    /// Pieces of work still running a short grace period after a time-out: threads an updater
    /// blocked (a deadlock) or keeps busy. DiffLab cannot stop them; they may go on running after
    /// the run returns, and whatever they do is ignored (work that starts after the time-out does
    /// nothing, and the run's timeline is a copy taken at the end). 0 when the run did not time out.
    public var stillRunning: Int
}

/// A property broken in the stress mode: the first run that broke it.
public struct UpdaterStressFinding: Sendable {
    /// The property broken.
    public var property: UpdaterProperty
    /// The index (0-based) of the stress run that broke it first.
    public var run: Int
    /// That run's seed (``UpdaterFuzzer/runSeed(run:seed:)``): its script is
    /// `UpdaterScript.random(seed:settings:)` of it.
    public var seed: UInt64
    /// That run: script, timeline and failure; no schedule (``UpdaterStressRun``).
    public var first: UpdaterStressRun
    /// How many stress runs broke ``property``.
    public var failingRuns: Int
}

/// What a stress campaign found: per property, the first run that broke it.
public struct UpdaterStressResult: Sendable {
    /// The updater's name.
    public var updater: String
    /// Runs made: as asked, or fewer when a run timed out (``stoppedByTimeOut``).
    public var runs: Int
    /// The campaign's seed.
    public var seed: UInt64
    /// Real seconds per virtual second.
    public var timeScale: Double
    /// Real seconds each run had.
    public var timeLimit: Double
    /// One finding per property broken, in ``UpdaterProperty`` order.
    public var findings: [UpdaterStressFinding]
    /// Properties the updater was held to.
    public var checked: [UpdaterProperty]
    /// Whether the campaign stopped at a run that hit its time limit: later runs would compete
    /// for threads with its abandoned work, and each would cost the whole limit.
    public var stoppedByTimeOut: Bool

    /// Whether every property held in every run (at least one run is always made).
    public var passed: Bool { findings.isEmpty && runs > 0 }
}

extension UpdaterFuzzer {
    /// The time scales the stress mode accepts: real seconds per virtual second.
    public static let timeScaleRange: ClosedRange<Double> = 0.000_001...1
    /// The time limits the stress mode accepts, in real seconds per run.
    public static let timeLimitRange: ClosedRange<Double> = 0.01...3_600
    /// The stress campaign sizes accepted.
    public static let stressRunsRange = 1...1_000_000

    /// Runs `runs` random scripts (the campaign's, ``UpdaterScript/random(seed:settings:)`` from
    /// ``runSeed(run:seed:)``) on real Dispatch queues: the stress mode. Each run is
    /// ``stress(script:timeScale:timeLimit:)``; the first run breaking each property is kept.
    ///
    /// It complements the deterministic scheduler: real threads, real memory ordering, checkable
    /// under ThreadSanitizer, but the operating system picks the interleavings, so a run cannot
    /// be replayed or shrunk and a rare one may take many runs. Run a finding's script through
    /// ``campaign(runs:seed:shrinkBudget:)`` or ``run(script:strategy:)`` for a replayable schedule.
    ///
    /// The campaign stops at the first run that hits its time limit (``UpdaterStressResult/stoppedByTimeOut``).
    ///
    /// - Parameters:
    ///   - runs: 1...1,000,000.
    ///   - seed: the campaign's seed; run `k`'s script is the scheduled campaign's run `k`'s.
    ///   - timeScale: real seconds per virtual second, ``timeScaleRange``: at 0.001 a 0.2 s gap
    ///     between requests takes 0.2 ms, a 0.3 s batch animation 0.3 ms. Smaller scales make
    ///     requests, timers and background work overlap more.
    ///   - timeLimit: real seconds each run may take, ``timeLimitRange``; the longest script the
    ///     settings allow (``UpdaterFuzzSettings/maxRequests`` × ``UpdaterFuzzSettings/maxGap``
    ///     virtual seconds) must fit in half of it at `timeScale`.
    /// - Throws: ``UpdaterInputError`` naming `runs`, `timeScale` or `timeLimit`.
    /// - Complexity: `runs` runs, each at most `timeLimit` seconds (plus a grace period of at most
    ///   0.1 s after a time-out).
    public func stress(runs: Int, seed: UInt64, timeScale: Double = 0.001, timeLimit: Double = 10) throws(UpdaterInputError) -> UpdaterStressResult {
        try checkStress(runs: runs, timeScale: timeScale, timeLimit: timeLimit)
        var first: [UpdaterProperty: UpdaterStressFinding] = [:]
        var failing: [UpdaterProperty: Int] = [:]
        var made = 0
        var stopped = false
        for index in 0..<runs {
            let runSeed = Self.runSeed(run: index, seed: seed)
            let outcome = stressRun(script: UpdaterScript.random(seed: runSeed, settings: settings), timeScale: timeScale, timeLimit: timeLimit)
            made += 1
            if let failure = outcome.failure {
                failing[failure.property, default: 0] += 1
                if first[failure.property] == nil {
                    first[failure.property] = UpdaterStressFinding(
                        property: failure.property, run: index, seed: runSeed, first: outcome, failingRuns: 0)
                }
            }
            if outcome.timedOut {
                stopped = true
                break
            }
        }
        let findings = first.keys.sorted().map { property in
            var finding = first[property]!
            finding.failingRuns = failing[property] ?? 0
            return finding
        }
        return UpdaterStressResult(
            updater: subject.name, runs: made, seed: seed, timeScale: timeScale, timeLimit: timeLimit, findings: findings,
            checked: checkedProperties, stoppedByTimeOut: stopped)
    }

    /// Runs `script` once on real Dispatch queues, checking every property as
    /// ``run(script:strategy:)`` does.
    ///
    /// The run has its own serial queue standing in for the main queue (the app's requests, main
    /// work, timers due on main, and layout passes every 1/60 virtual second — at least every
    /// 100 µs real — whenever the view needs one), a `DispatchQueue(label:)` per serial queue the
    /// updater makes, and `DispatchQueue.global()`. Request `k` is issued on main at
    /// `script.requestTimes[k] × timeScale` real seconds (in order: each request schedules the
    /// next); timers fire after their delay times `timeScale`. The calling thread waits until no
    /// work is queued or running (then nothing can run again: updaters run only through their
    /// queues), runs the end checks on main — a last layout pass, the last version shown, every
    /// completion run — and returns. When a property breaks first, it returns at once: the run's
    /// queues skip the work left (as the scheduler stops at the first failure), and what still
    /// runs is not recorded.
    ///
    /// When the queues are not idle within `timeLimit` real seconds, the run fails
    /// ``UpdaterProperty/ends`` ("hang") naming the work still queued or running, and returns: its
    /// queues are abandoned, and a piece of work that blocks forever keeps its thread
    /// (``UpdaterStressRun/stillRunning``). The same happens past ``UpdaterFuzzSettings/stepBudget``
    /// steps. No schedule is recorded, so the run cannot be replayed.
    ///
    /// - Throws: ``UpdaterInputError`` naming `timeScale` or `timeLimit` out of range, or a script
    ///   whose last request comes after half the time limit at `timeScale`.
    /// - Complexity: at most `timeLimit` seconds, plus at most 0.1 s after a time-out.
    public func stress(script: UpdaterScript, timeScale: Double = 0.001, timeLimit: Double = 10) throws(UpdaterInputError) -> UpdaterStressRun {
        try Self.validateStress(timeScale: timeScale, timeLimit: timeLimit, span: script.requestTimes.last ?? 0, of: "the script's last request time")
        return stressRun(script: script, timeScale: timeScale, timeLimit: timeLimit)
    }

    /// Checks a stress campaign's numbers before it runs (what ``stress(runs:seed:timeScale:timeLimit:)``
    /// checks first), so a caller can refuse them before other work.
    ///
    /// - Throws: ``UpdaterInputError`` naming `runs`, `timeScale` or `timeLimit`.
    public func checkStress(runs: Int, timeScale: Double = 0.001, timeLimit: Double = 10) throws(UpdaterInputError) {
        guard Self.stressRunsRange.contains(runs) else {
            throw UpdaterInputError(field: "runs", expected: "1...1000000", found: "\(runs)")
        }
        try Self.validateStress(
            timeScale: timeScale, timeLimit: timeLimit, span: Double(settings.maxRequests) * settings.maxGap, of: "maxRequests × maxGap")
    }

    /// Checks the stress mode's numbers: `span` virtual seconds of requests must fit in half the
    /// time limit.
    static func validateStress(timeScale: Double, timeLimit: Double, span: Double, of spanName: String) throws(UpdaterInputError) {
        guard timeScale.isFinite, timeScaleRange.contains(timeScale) else {
            throw UpdaterInputError(field: "timeScale", expected: "0.000001...1 real seconds per virtual second", found: "\(timeScale)")
        }
        guard timeLimit.isFinite, timeLimitRange.contains(timeLimit) else {
            throw UpdaterInputError(field: "timeLimit", expected: "0.01...3600 seconds", found: "\(timeLimit)")
        }
        guard span * timeScale <= timeLimit / 2 else {
            throw UpdaterInputError(
                field: "timeScale",
                expected: "at most \(timeLimit / 2 / span), so that \(spanName) (\(span) virtual seconds) comes within half the time limit",
                found: "\(timeScale)")
        }
    }

    /// One stress run, its numbers checked.
    func stressRun(script: UpdaterScript, timeScale: Double, timeLimit: Double) -> UpdaterStressRun {
        let monitor = UpdaterMonitor(promises: subject.promises)
        let runtime = UpdaterDispatchRuntime(monitor: monitor, timeScale: timeScale, delayCap: 2 * timeLimit, stepBudget: settings.stepBudget)
        let deadline = DispatchTime.now() + timeLimit

        @Sendable func schedule(request k: Int) {
            guard k < script.requestCount else { return }
            runtime.onMain(atRealSeconds: script.requestTimes[k] * timeScale, label: "app requests v\(k + 1)") {
                guard let made = runtime.started.withLock({ $0?.updater }) else { return }
                Self.request(k, of: script, to: made, monitor: monitor, time: runtime._now())
                schedule(request: k + 1)
            }
        }
        runtime.onMain(atRealSeconds: 0, label: "start") { [self] in
            let (view, updater) = start(script: script, runtime: runtime, monitor: monitor)
            runtime.started.withLock { $0 = (view, updater) }
            runtime.startLayoutPasses(every: max(timeScale / 60, 0.000_1), view: view)
            schedule(request: 0)
        }

        // Settled: every queue idle, or a property broken (what runs after a failure is ignored).
        runtime.queued.notify(queue: .global()) { runtime.settled.signal() }
        var timedOut = false
        var stillRunning = 0
        if runtime.settled.wait(timeout: deadline) == .timedOut, !monitor.failed {
            timedOut = true
            stillRunning = abandon(runtime, monitor: monitor, script: script, timeLimit: timeLimit, reason: "still running after")
        } else if let view = runtime.started.withLock({ $0?.view }), !monitor.failed {
            let ended = DispatchSemaphore(value: 0)
            runtime.main.async {
                Self.finish(script: script, view: view, monitor: monitor, time: runtime._now())
                ended.signal()
            }
            if ended.wait(timeout: deadline) == .timedOut {
                timedOut = true
                stillRunning = abandon(runtime, monitor: monitor, script: script, timeLimit: timeLimit, reason: "the main queue was still busy after")
            }
        }
        runtime.abandon()
        // The updater's context holds the runtime: let go of the updater to break the cycle.
        runtime.started.withLock { $0 = nil }
        return UpdaterStressRun(script: script, events: monitor.events, failure: monitor.failure, timedOut: timedOut, stillRunning: stillRunning)
    }

    /// Abandons a run past its time limit: fails ``UpdaterProperty/ends`` naming the work left,
    /// then waits a grace period (a tenth of the limit, at most 0.1 s) for running work to return;
    /// returns how many pieces still run.
    func abandon(_ runtime: UpdaterDispatchRuntime, monitor: UpdaterMonitor, script: UpdaterScript, timeLimit: Double, reason: String) -> Int {
        let (count, left) = runtime.describePending(limit: 5)
        runtime.abandon()
        let completions = monitor.completions
        let missing = (1..<script.versions.count).filter { $0 >= completions.count || completions[$0] == 0 }
        var message = "hang: \(reason) \(timeLimit) s of real time (the time limit)"
        message += count == 0 ? "" : "; \(count) pieces of work queued or running: \(left)\(count > 5 ? "; …" : "")"
        if !missing.isEmpty {
            message += "; completions not run: \(missing.prefix(5).map { "v\($0)" }.joined(separator: ", "))\(missing.count > 5 ? ", …" : "")"
        }
        monitor.fail(.ends, message)
        _ = runtime.running.wait(timeout: .now() + min(timeLimit / 10, 0.1))
        return runtime.pending.withLock { $0.work.values.filter(\.running).count }
    }
}
