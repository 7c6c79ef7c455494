import DiffLabCore
import DiffLabEngines

/// One run of an updater under the scheduler: its script and schedule, its timeline, and the first
/// property it broke, if any.
public struct UpdaterRun: Sendable {
    /// What the app did.
    public var script: UpdaterScript
    /// How the steps were chosen.
    public var strategy: ScheduleStrategy
    /// The lanes in the order they ran: replaying them (``ScheduleStrategy/replay(_:)``) with the
    /// same script repeats the run step for step.
    public var schedule: [String]
    /// Every step, with what it did (the first 100,000 steps of a longer run).
    public var events: [UpdaterEvent]
    /// The first property broken; `nil` when the run kept them all.
    public var failure: UpdaterFailure?
}

/// A broken property, with the run that broke it first and its shrunk form.
public struct UpdaterFinding: Sendable {
    /// The updater's name.
    public var updater: String
    /// The property broken.
    public var property: UpdaterProperty
    /// The seed of the campaign run that found it (``UpdaterFuzzer/strategy(run:seed:)``).
    public var seed: UInt64
    /// The run as found.
    public var original: UpdaterRun
    /// The run shrunk to the fewest requests, items and steps that still break ``property``; it
    /// replays from its script and schedule.
    public var shrunk: UpdaterRun
    /// How many campaign runs broke ``property``.
    public var failingRuns: Int
}

/// What a campaign found: per property, the first run that broke it (shrunk).
public struct UpdaterCampaign: Sendable {
    /// The updater's name.
    public var updater: String
    /// Runs made.
    public var runs: Int
    /// The campaign's seed.
    public var seed: UInt64
    /// One finding per property broken, in ``UpdaterProperty`` order.
    public var findings: [UpdaterFinding]
    /// Properties the updater was held to: all but ``UpdaterProperty/dropsSuperseded`` unless
    /// promised.
    public var checked: [UpdaterProperty]

    /// Whether every property held in every run.
    public var passed: Bool { findings.isEmpty }
}

/// Checks an updater under many interleavings: random scripts, each run under a seeded random
/// walk or PCT (``ScheduleStrategy``), every run replayable, every failure shrunk.
///
/// A run stops at its first broken property (as UIKit's exception stops an app), so one run
/// reports one property; a campaign keeps running to find the first failure of each.
public struct UpdaterFuzzer: Sendable {
    /// The updater under test.
    public var subject: UpdaterSubject
    /// The engine the updater diffs with.
    public var engine: any DiffEngine
    /// The campaign's limits.
    public var settings: UpdaterFuzzSettings

    /// A fuzzer of `subject`, diffing with `engine` (hash-map by default).
    ///
    /// - Throws: ``UpdaterInputError`` when `settings` are out of range.
    public init(
        subject: UpdaterSubject, engine: any DiffEngine = HashMapEngine(), settings: UpdaterFuzzSettings = .standard
    ) throws(UpdaterInputError) {
        try settings.validate()
        self.subject = subject
        self.engine = engine
        self.settings = settings
    }

    /// The strategy of campaign run `run`: even runs walk at random, odd runs use PCT of depth 1,
    /// 2 or 3 in turn; the seed is the run's own, derived from the campaign's.
    public static func strategy(run: Int, seed: UInt64) -> ScheduleStrategy {
        let runSeed = runSeed(run: run, seed: seed)
        return run % 2 == 0 ? .random(seed: runSeed) : .pct(seed: runSeed, depth: 1 + (run / 2) % 3)
    }

    /// The seed of campaign run `run`: the campaign seed mixed with the run number.
    public static func runSeed(run: Int, seed: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: run) &* 0x9E37_79B9_7F4A_7C15))
        return mixer.next()
    }

    /// Runs `script` under `strategy`, checking every property.
    ///
    /// - Complexity: O(steps · (lanes + the work of each step)); at most
    ///   ``UpdaterFuzzSettings/stepBudget`` steps.
    public func run(script: UpdaterScript, strategy: ScheduleStrategy) -> UpdaterRun {
        let scheduler = UpdaterScheduler(strategy: strategy, expectedSteps: 8 * script.requestCount + 8)
        let monitor = UpdaterMonitor(promises: subject.promises)
        let (view, updater) = start(script: script, runtime: scheduler, monitor: monitor)
        scheduler.requestTimes = script.requestTimes
        scheduler.needsLayout = { view._needsLayout }
        scheduler.layout = { view._layout() }
        scheduler.request = { k in Self.request(k, of: script, to: updater, monitor: monitor, time: scheduler.now) }
        var steps = 0
        while !monitor.failed {
            guard steps < settings.stepBudget else {
                // A run that ends exactly at the budget has ended.
                let waiting = scheduler.enabled().map(scheduler.name)
                guard !waiting.isEmpty else { break }
                let shown = waiting.prefix(10).joined(separator: ", ") + (waiting.count > 10 ? " and \(waiting.count - 10) more" : "")
                monitor.fail(.ends, "still running after \(settings.stepBudget) steps (lanes waiting: \(shown))")
                break
            }
            steps += 1
            guard scheduler.step(monitor: monitor, number: steps) else { break }
        }
        Self.finish(script: script, view: view, monitor: monitor, time: scheduler.now)
        let run = UpdaterRun(script: script, strategy: strategy, schedule: scheduler.schedule, events: monitor.events, failure: monitor.failure)
        // The scheduler holds the updater's queued work and the closures into the view, which
        // holds the scheduler: break the cycles, so a run's objects go when it ends.
        scheduler.tearDown()
        withExtendedLifetime(updater) {}
        return run
    }

    /// Replays a recorded run: its script under its schedule.
    public func replay(_ run: UpdaterRun) -> UpdaterRun { self.run(script: run.script, strategy: .replay(run.schedule)) }

    /// Runs `runs` random scripts under ``strategy(run:seed:)``, and shrinks the first failure of
    /// each property.
    ///
    /// - Parameters:
    ///   - runs: how many runs; none for 0 or less.
    ///   - seed: the campaign's seed (``runSeed(run:seed:)`` derives each run's).
    ///   - shrinkBudget: most replays spent shrinking each finding.
    /// - Complexity: O(runs · one run) plus the shrinking.
    public func campaign(runs: Int, seed: UInt64, shrinkBudget: Int = 2_000) -> UpdaterCampaign {
        var first: [UpdaterProperty: (seed: UInt64, run: UpdaterRun)] = [:]
        var failing: [UpdaterProperty: Int] = [:]
        for index in 0..<max(0, runs) {
            let runSeed = Self.runSeed(run: index, seed: seed)
            let script = UpdaterScript.random(seed: runSeed, settings: settings)
            let outcome = run(script: script, strategy: Self.strategy(run: index, seed: seed))
            guard let failure = outcome.failure else { continue }
            failing[failure.property, default: 0] += 1
            if first[failure.property] == nil { first[failure.property] = (runSeed, outcome) }
        }
        let findings = first.keys.sorted().map { property in
            let (runSeed, original) = first[property]!
            return UpdaterFinding(
                updater: subject.name, property: property, seed: runSeed, original: original,
                shrunk: shrink(original, budget: shrinkBudget), failingRuns: failing[property] ?? 0)
        }
        return UpdaterCampaign(updater: subject.name, runs: max(0, runs), seed: seed, findings: findings, checked: checkedProperties)
    }
}

// MARK: - One run's pieces, shared by the scheduler (`run`) and the stress mode (`stress`)

extension UpdaterFuzzer {
    /// The properties the subject is held to: all but ``UpdaterProperty/dropsSuperseded`` unless
    /// promised.
    var checkedProperties: [UpdaterProperty] {
        UpdaterProperty.allCases.filter { $0 != .dropsSuperseded || subject.promises.dropsSupersededDiffs }
    }

    /// A run's start, on the runtime's main queue: the view showing `script`'s version 0, the
    /// updater's context, and the updater, made during the run's first step.
    func start(script: UpdaterScript, runtime: any _UpdaterRuntime, monitor: UpdaterMonitor) -> (CollectionViewModel, any ListUpdater) {
        let view = CollectionViewModel(runtime: runtime, monitor: monitor, initial: script.versions[0])
        let context = UpdaterContext(runtime: runtime, collectionView: view, initial: script.versions[0], engine: engine)
        let label = "start: the view shows v0 (\(itemsText(script.versions[0].itemCount)))"
        let updater = monitor.withStep(time: 0, lane: "app", onMain: true, label: label) { subject.make(context) }
        return (view, updater)
    }

    /// The app's request `k` (0-based: it asks for version `k + 1`), on the main queue at `time`.
    static func request(_ k: Int, of script: UpdaterScript, to updater: any ListUpdater, monitor: UpdaterMonitor, time: Double) {
        let version = script.versions[k + 1]
        monitor.withStep(time: time, lane: "app", onMain: true, label: "app requests \(version) (\(itemsText(version.itemCount)))") {
            monitor.requested(version.number)
            updater.performUpdate(to: version) { finished in monitor.completed(version.number, finished: finished) }
        }
    }

    /// The checks at the end of a run whose every queue is idle, on the main queue at `time`: a
    /// last layout pass, the view and data source on the last version, every completion run.
    /// Nothing when a property is already broken.
    static func finish(script: UpdaterScript, view: CollectionViewModel, monitor: UpdaterMonitor, time: Double) {
        guard !monitor.failed, let last = script.versions.last else { return }
        monitor.withStep(time: time, lane: "app", onMain: true, label: "end: every lane is idle") {
            view._finish(last: last)
            let completions = monitor.completions
            if !monitor.failed, let missing = (1..<script.versions.count).first(where: { $0 >= completions.count || completions[$0] == 0 }) {
                monitor.fail(.completionOnce, "the completion of v\(missing) never ran", atEnd: true)
            }
        }
    }
}
