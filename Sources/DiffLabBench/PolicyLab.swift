import DiffLabCore
import DiffLabEngines
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// When and where a list update is diffed in the simulated app.
public enum DiffPolicy: String, CaseIterable, Sendable, Hashable {
    /// Diff synchronously on the main thread, then apply.
    case main
    /// Diff on a background Dispatch queue, apply on the main thread.
    case background
    /// IGListKit's adaptive diffing: on main below `maxItemCountToRunOnMain` items, else background.
    case adaptive
    /// IGListKit's adaptive coalescing: an update waits until an interval has passed since the last
    /// one was applied; the interval grows by `intervalIncrement` (up to `maxInterval`) while updates
    /// arrive within it, and falls back to `minInterval` after a quiet spell; updates arriving while
    /// one waits are coalesced into the latest; diffing runs in the background.
    case coalescing
}

/// One policy-lab run's settings.
///
/// Every number has a documented range (the `…Range` constants, which `difflab policy` also
/// parses its flags against). The initialiser traps on a value outside them; ``validate()``
/// reports one as a ``ConfigurationError``, for settings changed after construction;
/// ``runPolicy(_:versions:)`` traps on invalid settings.
public struct PolicyConfig: Sendable {
    /// Where and how updates are diffed (see ``DiffPolicy``).
    public var policy: DiffPolicy
    /// Items in the list, in ``listSizeRange``.
    public var listSize: Int
    /// Seconds between list updates, in ``updateIntervalRange``.
    public var updateInterval: Double
    /// Display refresh rate in Hz (60 or 120 on today's displays), in ``frameRateRange``.
    public var frameRate: Double
    /// Seconds of other work the main thread does every frame (layout, rendering), in
    /// ``frameWorkRange``.
    public var frameWork: Double
    /// Seconds the update stream runs, in ``durationRange``. The run ends at most
    /// ``drainSeconds`` later (plus one diff already under way).
    public var duration: Double
    /// `adaptive`: lists below this size are diffed on main (IGListKit's `maxItemCountToRunOnMain`).
    public var maxItemCountToRunOnMain: Int
    /// `coalescing`: IGListKit's `minInterval`, `intervalIncrement`, `maxInterval` (seconds).
    public var minInterval: Double
    /// `coalescing`: seconds added to the coalescing interval after each coalesced update.
    public var intervalIncrement: Double
    /// `coalescing`: the longest coalescing interval, in seconds.
    public var maxInterval: Double
    /// IGListKit's updater fallback: more than ``reloadThreshold`` changes → a full reload instead
    /// of a batch update.
    public var allowsReloadingOnTooManyUpdates: Bool
    /// The fallback's threshold (IGListKit: 100 changes of the diff), in ``editsRange``.
    public var reloadThreshold: Int = 100
    /// How moves are chosen; the apply cost follows the batch update's size.
    public var moves: MoveStrategy = .offsets
    /// Modelled main-thread cost of applying an update: a fixed part (layout and animating the
    /// visible cells) plus a part per change (batch update) or per item in the list (full reload).
    public var applyBaseCost: Double
    /// Modelled main-thread seconds per list item of every update's layout pass, in ``costRange``.
    public var layoutCostPerItem: Double = PolicyCosts.defaults.layoutCostPerItem
    /// Modelled main-thread seconds per change of a batch update, in ``costRange``.
    public var batchCostPerChange: Double
    /// Modelled main-thread seconds per list item of a full reload, in ``costRange``.
    public var reloadCostPerItem: Double
    /// Edits between two consecutive list versions.
    public var editsPerUpdate: Int
    /// The engine that diffs.
    public var engine: PolicyEngine
    /// The engine that diffs off the main thread (the `background` policy, and `adaptive` and
    /// `coalescing` when they diff in the background), e.g. `hashmap-parallel`, which only pays
    /// off where a whole core or more is free; `nil`: ``engine``.
    public var backgroundEngine: PolicyEngine?

    /// List sizes: 1 to ``AbstractDataset/maxSize`` (10,000,000).
    public static let listSizeRange = 1...AbstractDataset.maxSize
    /// Seconds between updates: 0.001 to 60.
    public static let updateIntervalRange: ClosedRange<Double> = 0.001...60
    /// Frame rates: 1 to 1000 Hz.
    public static let frameRateRange: ClosedRange<Double> = 1...1000
    /// Seconds of work per frame: 0 to 1.
    public static let frameWorkRange: ClosedRange<Double> = 0...1
    /// Seconds the update stream runs: 0.01 to 600.
    public static let durationRange: ClosedRange<Double> = 0.01...600
    /// Coalescing intervals (`minInterval` ≤ `maxInterval`, and `intervalIncrement`): 0 to 1 s.
    public static let coalescingRange: ClosedRange<Double> = 0...1
    /// Each modelled apply cost (base, per change, per item): 0 to 1 s.
    public static let costRange: ClosedRange<Double> = 0...1
    /// Edits per update: 0 to 1,000,000.
    public static let editsRange = 0...1_000_000
    /// How long after the stream ends the simulated app keeps drawing frames to apply the updates
    /// still pending: 2 s. Updates not applied by then are ``PolicyResult/dropped``.
    public static let drainSeconds = 2.0

    /// Settings with IGListKit-like defaults: 60 Hz, 4 ms of frame work, an update every 50 ms for
    /// 2 s; adaptive threshold 10,000 items; coalescing 50 ms + 25 ms steps up to 250 ms; applying
    /// costs ``PolicyCosts/defaults`` (1 ms, 0.02 µs of layout per item, plus 2 µs per change of a
    /// batch or 0.05 µs per item of a reload); 20 edits per update.
    public init(
        policy: DiffPolicy, listSize: Int, updateInterval: Double = 0.05, frameRate: Double = 60, frameWork: Double = 0.004,
        duration: Double = 2, maxItemCountToRunOnMain: Int = 10_000, minInterval: Double = 0.05,
        intervalIncrement: Double = 0.025, maxInterval: Double = 0.25, allowsReloadingOnTooManyUpdates: Bool = false,
        applyBaseCost: Double = 1e-3, batchCostPerChange: Double = 2e-6, reloadCostPerItem: Double = 0.05e-6,
        editsPerUpdate: Int = 20, engine: PolicyEngine = .hashmap
    ) {
        self.policy = policy
        self.listSize = listSize
        self.updateInterval = updateInterval
        self.frameRate = frameRate
        self.frameWork = frameWork
        self.duration = duration
        self.maxItemCountToRunOnMain = maxItemCountToRunOnMain
        self.minInterval = minInterval
        self.intervalIncrement = intervalIncrement
        self.maxInterval = maxInterval
        self.allowsReloadingOnTooManyUpdates = allowsReloadingOnTooManyUpdates
        self.applyBaseCost = applyBaseCost
        self.batchCostPerChange = batchCostPerChange
        self.reloadCostPerItem = reloadCostPerItem
        self.editsPerUpdate = editsPerUpdate
        self.engine = engine
        do throws(ConfigurationError) { try validate() } catch { preconditionFailure("PolicyConfig: \(error)") }
    }

    /// Checks every setting against its range.
    ///
    /// - Throws: ``ConfigurationError`` naming the first setting out of range and what it must be.
    /// - Complexity: O(1).
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.check(listSize, in: Self.listSizeRange, "listSize")
        try ConfigurationError.check(updateInterval, in: Self.updateIntervalRange, "updateInterval")
        try ConfigurationError.check(frameRate, in: Self.frameRateRange, "frameRate")
        try ConfigurationError.check(frameWork, in: Self.frameWorkRange, "frameWork")
        try ConfigurationError.check(duration, in: Self.durationRange, "duration")
        try ConfigurationError.check(maxItemCountToRunOnMain, in: 0...Int.max, "maxItemCountToRunOnMain")
        try ConfigurationError.check(minInterval, in: Self.coalescingRange, "minInterval")
        try ConfigurationError.check(maxInterval, in: minInterval...Self.coalescingRange.upperBound, "maxInterval")
        try ConfigurationError.check(intervalIncrement, in: Self.coalescingRange, "intervalIncrement")
        try ConfigurationError.check(applyBaseCost, in: Self.costRange, "applyBaseCost")
        try ConfigurationError.check(layoutCostPerItem, in: Self.costRange, "layoutCostPerItem")
        try ConfigurationError.check(batchCostPerChange, in: Self.costRange, "batchCostPerChange")
        try ConfigurationError.check(reloadCostPerItem, in: Self.costRange, "reloadCostPerItem")
        try ConfigurationError.check(editsPerUpdate, in: Self.editsRange, "editsPerUpdate")
        try ConfigurationError.check(reloadThreshold, in: Self.editsRange, "reloadThreshold")
    }

    /// The modelled costs.
    public var costs: PolicyCosts {
        get {
            PolicyCosts(
                applyBaseCost: applyBaseCost, layoutCostPerItem: layoutCostPerItem, batchCostPerChange: batchCostPerChange,
                reloadCostPerItem: reloadCostPerItem, frameWork: frameWork)
        }
        set {
            (applyBaseCost, layoutCostPerItem, batchCostPerChange, reloadCostPerItem, frameWork) =
                (newValue.applyBaseCost, newValue.layoutCostPerItem, newValue.batchCostPerChange, newValue.reloadCostPerItem, newValue.frameWork)
        }
    }
}

/// What one run measured.
public struct PolicyResult: Sendable {
    /// The settings the run used.
    public var config: PolicyConfig
    /// Frames drawn, and those over the frame budget (1 / frame rate).
    public var frames: Int
    /// Frames that took longer than the frame budget.
    public var framesOverBudget: Int
    /// Hitch time ratio: milliseconds of frame time over budget per second of run (Apple's metric).
    public var hitchTimeRatio: Double
    /// Seconds from an update's request to its being applied on main (coalesced updates count
    /// until the update that carried them was applied).
    public var latencies: [Double]
    /// Updates requested by the stream.
    public var requested: Int
    /// Updates applied on main (as a batch update or a reload).
    public var applied: Int
    /// Updates carried by another (requested while one was under way, or held by the coalescer)
    /// and applied with it; those dropped with it count as dropped.
    public var coalesced: Int
    /// Updates that reached the screen through a full reload (the fallback), those it carried
    /// included.
    public var reloads: Int
    /// Updates dropped: not applied ``PolicyConfig/drainSeconds`` after the stream ended (an update
    /// still waiting then is dropped without being diffed or applied).
    public var dropped: Int
    /// Process CPU seconds per wall second during the run.
    public var cpuUtilisation: Double
    /// Wall-clock seconds the simulation took to run.
    public var wallSeconds: Double
    /// The engine's first failure, when it gave no usable answer for some update (those updates
    /// are counted in ``dropped``). A run with a failure has no valid figures.
    public var engineFailure: EngineFailure?
    /// The same run simulated in virtual time, when the caller asked for the check
    /// (`difflab policy --real-time` does).
    public var simulated: PolicyOutcome?

    /// Latency statistics.
    public var latency: SampleStatistics { SampleStatistics(latencies) }
}

/// One diff as the policy lab uses it: the diff's change count (what IGListKit's reload
/// fallback counts) and its batch form (what is applied).
public struct PolicyDiff: Sendable {
    /// Inserts, deletes, updates and moves of the diff, before the batch conversion.
    public var changes: Int
    /// The batch form (updates as delete and insert pairs).
    public var batch: DiffResult

    /// A diff; see the properties.
    public init(changes: Int, batch: DiffResult) {
        self.changes = changes
        self.batch = batch
    }
}

/// The engine a policy run diffs with: anything that yields the batch form of an update on
/// ``IntElement`` lists, specialized for the engine's concrete type.
public struct PolicyEngine: Sendable {
    /// The engine's name.
    public let name: String
    /// Whether the move strategy applies: DiffLab derives a pairing engine's moves under either
    /// ``MoveStrategy``; a result-level engine has its own moves, whatever the strategy asked.
    public let derivesMoves: Bool
    @usableFromInline let _diff: @Sendable ([IntElement], [IntElement], MoveStrategy) throws(EngineFailure) -> PolicyDiff

    /// A pairing-level engine: its diff with moves under the strategy asked, converted by
    /// ``DiffResult/forBatchUpdates()``.
    @inlinable
    public init<Engine: DiffEngine>(_ engine: Engine) {
        name = engine.name
        derivesMoves = true
        _diff = { old, new, moves in
            let result = engine.diff(from: old, to: new, moves: moves)
            return PolicyDiff(changes: result.changeCount, batch: result.forBatchUpdates())
        }
    }

    /// A result-level engine: its own batch form, or DiffLab's conversion of its flat result
    /// (``EngineChanges/checkedBatch(oldCount:newCount:)``); a result that does not check is an
    /// ``EngineFailure/Kind/badAnswer``. Its moves are its own (``derivesMoves`` is false).
    @inlinable
    public init<Engine: ChangesetEngine>(changes engine: Engine) {
        name = engine.name
        derivesMoves = false
        _diff = { old, new, _ throws(EngineFailure) in
            let answer = try engine.changes(from: old, to: new, comparison: .equality)
            do throws(DiffResultError) {
                let batch = try answer.checkedBatch(oldCount: old.count, newCount: new.count)
                return PolicyDiff(changes: answer.result.changeCount, batch: batch)
            } catch {
                throw EngineFailure(.badAnswer, error.description)
            }
        }
    }

    /// The diff of `old` into `new` with moves under `moves` (for engines that derive them).
    ///
    /// - Throws: ``EngineFailure`` when the engine gives no usable answer.
    public func diff(from old: [IntElement], to new: [IntElement], moves: MoveStrategy = .offsets) throws(EngineFailure) -> PolicyDiff {
        try _diff(old, new, moves)
    }

    /// The batch form of the diff of `old` into `new` (offsets moves).
    ///
    /// - Throws: ``EngineFailure`` when the engine gives no usable answer.
    public func batch(from old: [IntElement], to new: [IntElement]) throws(EngineFailure) -> DiffResult {
        try _diff(old, new, .offsets).batch
    }

    /// `hashmap`, the default.
    public static let hashmap = PolicyEngine(HashMapEngine())
}

/// Busy-waits `seconds` (nothing for 0 or less): modelled main-thread work.
///
/// - Precondition: `seconds` is finite (callers clamp it to the time left in the run).
func spin(_ seconds: Double) {
    precondition(seconds.isFinite, "spin: seconds must be finite (got \(seconds))")
    guard seconds > 0 else { return }
    let end = monotonicNow() + seconds
    while monotonicNow() < end {}
}

/// Sleeps until `deadline` on the monotonic clock (returns at once when it has passed). With a
/// `wake` condition, sleeps in slices of at most 50 ms (one slice for a frame at 60 Hz or more)
/// and returns as soon as `wake()` is true.
///
/// - Complexity: one `wake()` call per 50 ms slept.
func sleep(until deadline: Double, wakingWhen wake: (() -> Bool)? = nil) {
    while true {
        let left = deadline - monotonicNow()
        guard left > 0 else { return }
        if let wake, wake() { return }
        usleep(UInt32(min(left, wake == nil ? 1 : 0.05) * 1e6))
    }
}

/// Runs one simulated app: a main thread drawing frames with per-frame work and running the
/// tasks posted to it, fed a stream of list updates diffed under `config.policy`.
///
/// Real threads and real diffs: the diff cost is measured, not modelled; only the apply cost and
/// the frame work are modelled (by busy-waiting).
///
/// As IGListKit's updater (and ``simulatePolicy(_:on:costs:duration:drain:mainDiff:backgroundDiff:)``),
/// one update is under way at a time: a request made before the update under way has started its
/// diff joins it; one made later waits, with any others, for the next update, which carries all
/// their versions. Under `coalescing`, IGListKit's coalescer (``CoalescingClock``) also holds
/// requests back. An update carrying `k` versions diffs `versions[0]` into `versions[k]` (the
/// last version for a larger `k`): the same pairs the simulation's profiles measure
/// (``measureDiffProfiles(engine:size:edits:strategies:rounds:seed:)``).
///
/// The run is bounded by the duration whatever the frame rate, interval or frame work: the stream
/// posts updates for `duration` seconds; the main thread then draws frames until every update is
/// applied, but not past the run's end, ``PolicyConfig/drainSeconds`` later. A frame that would end
/// after the run's end is not drawn (the run ends), every sleep and every modelled cost is
/// clamped to the time left, and an update still waiting at the run's end is dropped without being
/// diffed. Only a diff already under way then is waited for.
///
/// - Precondition: `config` is valid (``PolicyConfig/validate()``) and `versions` is not empty.
/// - Complexity: about `duration` + ``PolicyConfig/drainSeconds`` seconds at most, plus one diff.
public func runPolicy(_ config: PolicyConfig, versions: [[IntElement]]) -> PolicyResult {
    do throws(ConfigurationError) { try config.validate() } catch { preconditionFailure("runPolicy: \(error)") }
    precondition(!versions.isEmpty, "runPolicy: versions must not be empty")
    /// The update under way (IGListKit's transaction).
    struct Transaction {
        /// Tells updates apart: a task of an earlier update never touches a later one.
        var id: Int
        /// The version shown before it, and the version it shows.
        var from: Int
        var to: Int
        var requestedAt: [Double]
        /// Whether its diff has started (until then, new requests join it).
        var started: Bool
    }
    struct State {
        var tasks: [@Sendable () -> Void] = []
        var stop = false
        /// The main thread drew its last frame: whatever arrives now is dropped.
        var over = false
        var frames = 0
        var overBudget = 0
        var hitch = 0.0
        var latencies: [Double] = []
        var applied = 0
        var coalesced = 0
        var reloads = 0
        /// The version on screen: the next update diffs from it.
        var shown = 0
        var transaction: Transaction?
        /// Requests that arrived once the update under way had started: the next update.
        var waiting: (version: Int, requestedAt: [Double])?
        /// Coalescing: the requests held until the coalescer's timer fires.
        var pending: (version: Int, requestedAt: [Double])?
        var clock: CoalescingClock
        /// The engine's first failure, if it failed.
        var engineFailure: EngineFailure?

        /// Updates installed so far (the next one's ``Transaction/id``).
        var installed = 0

        /// The stream has ended and every update is applied or dropped.
        var finished: Bool { stop && transaction == nil && waiting == nil && pending == nil }

        /// Installs the update showing `version`, carrying `requestedAt`, unless the run is over;
        /// the caller launches what this returns once it has released the lock.
        mutating func install(_ version: Int, _ requestedAt: [Double], onMain: Bool) -> Transaction? {
            guard !over else { return nil }
            installed += 1
            let t = Transaction(id: installed, from: shown, to: version, requestedAt: requestedAt, started: !onMain)
            transaction = t
            return t
        }
    }
    let state = Locked(
        State(clock: CoalescingClock(CoalescingIntervals(minimum: config.minInterval, increment: config.intervalIncrement, maximum: config.maxInterval))))
    let background = DispatchQueue(label: "difflab.policy.background")
    let timerQueue = DispatchQueue(label: "difflab.policy.timer")
    let budget = 1 / config.frameRate
    let start = monotonicNow()
    let cpuStart = processCPUNow()
    let streamEnd = start + config.duration
    let runEnd = streamEnd + PolicyConfig.drainSeconds
    let onMain = config.policy == .main || (config.policy == .adaptive && config.listSize < config.maxItemCountToRunOnMain)

    @Sendable func postToMain(_ task: @escaping @Sendable () -> Void) { state.withLock { $0.tasks.append(task) } }

    /// The run is over: nothing more is applied.
    @Sendable func isOver() -> Bool { monotonicNow() > runEnd || state.withLock { $0.over } }

    /// The diff of one update, across `span` versions (the versions cycle: the diff is from the
    /// first to the `span`-th, as the simulation's profiles measure it), or `nil` (the first
    /// failure kept) when the engine gave no usable answer.
    @Sendable func diff(span: Int, background: Bool = false) -> PolicyDiff? {
        let engine = background ? config.backgroundEngine ?? config.engine : config.engine
        do throws(EngineFailure) {
            return try engine.diff(from: versions[0], to: versions[min(max(span, 1), versions.count - 1)], moves: config.moves)
        } catch {
            state.withLock { s in if s.engineFailure == nil { s.engineFailure = error } }
            return nil
        }
    }

    /// Runs the update `t` (just installed): queued on main, or diffed in the background at once.
    @Sendable func launch(_ t: Transaction) {
        if onMain {
            postToMain {
                // Requests made until now joined it; from now on they wait for the next update.
                let current: Transaction? = state.withLock { s in
                    guard s.transaction?.id == t.id else { return nil }
                    s.transaction?.started = true
                    return s.transaction
                }
                guard let current else { return }
                finish(current.id, isOver() ? nil : diff(span: current.to - current.from))
            }
        } else {
            background.async {
                // An update still waiting at the run's end is dropped without being diffed.
                let result = isOver() ? nil : diff(span: t.to - t.from, background: true)
                postToMain { finish(t.id, result) }
            }
        }
    }

    /// Applies update `id` on main (modelled cost), or drops it (`nil`: the engine failed, or the
    /// run is over); then, in the same critical section, installs the next update if requests
    /// are waiting, so no request can start one in between.
    @Sendable func finish(_ id: Int, _ result: PolicyDiff?) {
        let applying = result != nil && !isOver()
        var reload = false
        if let result, applying {
            reload = config.allowsReloadingOnTooManyUpdates && result.changes > config.reloadThreshold
            let cost = config.costs.applyCost(batchChanges: result.batch.changeCount, listSize: config.listSize, reload: reload)
            spin(min(cost, runEnd - monotonicNow()))
        }
        let now = monotonicNow()
        let next: Transaction? = state.withLock { s in
            guard let t = s.transaction, t.id == id else { return nil }
            s.transaction = nil
            if applying {
                s.applied += 1
                s.coalesced += t.requestedAt.count - 1
                if reload { s.reloads += t.requestedAt.count }
                s.latencies += t.requestedAt.map { now - $0 }
                s.shown = t.to
            }
            defer { s.waiting = nil }
            guard let waiting = s.waiting else { return nil }
            return s.install(waiting.version, waiting.requestedAt, onMain: onMain)
        }
        if let next { launch(next) }
    }

    /// Coalescing: starts the held update when the coalescer's timer fires.
    @Sendable func fireCoalesced() {
        let now = monotonicNow()
        let next: Transaction? = state.withLock { s in
            guard let pending = s.pending else { return nil }
            s.pending = nil
            s.clock.started(at: now - start)
            return s.install(pending.version, pending.requestedAt, onMain: onMain)
        }
        if let next { launch(next) }
    }

    // The main thread: frames, until every update is accounted for or the run's end.
    let mainThread = PosixThread {
        var frameStart = monotonicNow()
        // A frame that would end after the run's end is not drawn.
        while max(frameStart, monotonicNow()) + config.frameWork <= runEnd {
            spin(config.frameWork)
            let tasks: [@Sendable () -> Void] = state.withLock { s in
                defer { s.tasks.removeAll() }
                return s.tasks
            }
            for task in tasks { task() }
            let end = monotonicNow()
            let duration = end - frameStart
            let done: Bool = state.withLock { s in
                s.frames += 1
                if duration > budget {
                    s.overBudget += 1
                    s.hitch += duration - budget
                }
                return s.finished
            }
            if done { break }
            // Wait for the next vsync boundary, but not past the run's end, and not once done.
            let next = frameStart + budget * max(1, (duration / budget).rounded(.up))
            sleep(until: min(next, runEnd)) { state.withLock { $0.finished } }
            if state.withLock({ $0.finished }) { break }
            // A vsync after the run's end ends the loop.
            frameStart = max(next, monotonicNow() - budget)
        }
        // The run is over: no more frames; what is still pending or arrives is dropped (a diff
        // already under way is waited for).
        state.withLock { s in
            s.over = true
            s.pending = nil
        }
        while true {
            let tasks: [@Sendable () -> Void] = state.withLock { s in
                defer { s.tasks.removeAll() }
                return s.tasks
            }
            for task in tasks { task() }
            if state.withLock({ $0.finished }) { break }
            usleep(1000)
        }
    }
    mainThread.start()

    // The update stream.
    var version = 0
    while monotonicNow() < streamEnd {
        version += 1
        let requestedAt = monotonicNow()
        let v = version
        let next: Transaction? = state.withLock { s in
            if var t = s.transaction {
                // One update at a time: a request joins the one under way until its diff
                // starts, then waits for the next.
                if t.started {
                    s.waiting = (v, (s.waiting?.requestedAt ?? []) + [requestedAt])
                } else {
                    t.to = v
                    t.requestedAt.append(requestedAt)
                    s.transaction = t
                }
                return nil
            }
            guard config.policy == .coalescing else { return s.install(v, [requestedAt], onMain: onMain) }
            // IGListKit's coalescer (the same ``CoalescingClock`` as the simulation's).
            if let pending = s.pending {
                s.pending = (v, pending.requestedAt + [requestedAt])
                return nil
            }
            let delay = s.clock.delay(requestAt: requestedAt - start)
            guard delay > 0 else { return s.install(v, [requestedAt], onMain: onMain) }
            s.pending = (v, [requestedAt])
            timerQueue.asyncAfter(deadline: .now() + delay) { fireCoalesced() }
            return nil
        }
        if let next { launch(next) }
        // The next request, but not past the stream's end.
        sleep(until: min(start + Double(version) * config.updateInterval, streamEnd))
    }
    state.withLock { $0.stop = true }
    while !mainThread.isFinished { usleep(1000) }
    let wall = monotonicNow() - start
    let cpu = processCPUNow() - cpuStart
    return state.withLock { s in
        PolicyResult(
            config: config, frames: s.frames, framesOverBudget: s.overBudget, hitchTimeRatio: s.hitch * 1000 / wall,
            latencies: s.latencies, requested: version, applied: s.applied, coalesced: s.coalesced, reloads: s.reloads,
            dropped: version - s.latencies.count,
            cpuUtilisation: cpu / wall, wallSeconds: wall, engineFailure: s.engineFailure)
    }
}

/// Runs a closure on a new POSIX thread (the simulated app's main thread).
final class PosixThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private let finished = Locked(false)
    private var handle = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    var isFinished: Bool { finished.withLock { $0 } }

    func start() {
        let box = Unmanaged.passRetained(self)
        pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<PosixThread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            thread.finished.withLock { $0 = true }
            return nil
        }, box.toOpaque())
        pthread_detach(handle)
    }
}

/// The list versions a run cycles through: `count` versions of `size` items, each `edits` random
/// edits (inserts, deletes, moves, content updates in equal shares) of the previous, from `seed`.
///
/// - Precondition: `size` in ``PolicyConfig/listSizeRange``, `edits` in
///   ``PolicyConfig/editsRange``, `count` from 2 to 64 (fewer than 2 means 2).
/// - Complexity: O(count · (size + edits log edits)) time and memory.
public func policyVersions(size: Int, edits: Int = 20, count: Int = 4, seed: UInt64 = 7) -> [[IntElement]] {
    let versions = policyVersions(keeping: nil, size: size, edits: edits, count: count, seed: seed)
    return versions.keys.sorted().compactMap { versions[$0] }
}

/// ``policyVersions(size:edits:count:seed:)``, keeping only the versions whose index is in `keep`
/// (all when `nil`): the same lists, in less memory.
///
/// - Complexity: O(count · (size + edits log edits)) time, O(kept · size) memory.
func policyVersions(keeping keep: Set<Int>?, size: Int, edits: Int, count: Int, seed: UInt64) -> [Int: [IntElement]] {
    precondition(PolicyConfig.listSizeRange.contains(size), "policyVersions: size must be from 1 to \(AbstractDataset.maxSize) (got \(size))")
    precondition(PolicyConfig.editsRange.contains(edits), "policyVersions: edits must be from 0 to 1000000 (got \(edits))")
    precondition(count <= 64, "policyVersions: count must be at most 64 (got \(count))")
    var rng = SplitMix64(seed: seed)
    var nextID = size
    var current = (0..<size).map { IntElement(id: $0, revision: 0) }
    var kept: [Int: [IntElement]] = [:]
    if keep?.contains(0) ?? true { kept[0] = current }
    for index in 1..<max(count, 2) {
        current = scatterEdits(
            current, edits: edits, moveOnly: false, &rng,
            fresh: {
                nextID += 1
                return IntElement(id: nextID - 1, revision: 0)
            }, update: { $0.revision += 1 })
        if keep?.contains(index) ?? true { kept[index] = current }
    }
    return kept
}
