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
public struct PolicyConfig: Sendable {
    public var policy: DiffPolicy
    /// Items in the list.
    public var listSize: Int
    /// Seconds between list updates.
    public var updateInterval: Double
    /// Display refresh rate: 60 or 120 Hz.
    public var frameRate: Double
    /// Seconds of other work the main thread does every frame (layout, rendering).
    public var frameWork: Double
    /// Seconds the update stream runs.
    public var duration: Double
    /// `adaptive`: lists below this size are diffed on main (IGListKit's `maxItemCountToRunOnMain`).
    public var maxItemCountToRunOnMain: Int
    /// `coalescing`: IGListKit's `minInterval`, `intervalIncrement`, `maxInterval` (seconds).
    public var minInterval: Double
    public var intervalIncrement: Double
    public var maxInterval: Double
    /// IGListKit's updater fallback: more than 100 changes → a full reload instead of a batch update.
    public var allowsReloadingOnTooManyUpdates: Bool
    /// Modelled main-thread cost of applying an update: a fixed part (layout and animating the
    /// visible cells) plus a part per change (batch update) or per item in the list (full reload).
    public var applyBaseCost: Double
    public var batchCostPerChange: Double
    public var reloadCostPerItem: Double
    /// Edits between two consecutive list versions.
    public var editsPerUpdate: Int
    /// The engine that diffs.
    public var engine: EngineKind

    /// Settings with IGListKit-like defaults: 60 Hz, 4 ms of frame work, an update every 50 ms for
    /// 2 s; adaptive threshold 10,000 items; coalescing 50 ms + 25 ms steps up to 250 ms; applying
    /// costs 1 ms plus 2 µs per change (batch) or 0.05 µs per item (reload); 20 edits per update.
    public init(
        policy: DiffPolicy, listSize: Int, updateInterval: Double = 0.05, frameRate: Double = 60, frameWork: Double = 0.004,
        duration: Double = 2, maxItemCountToRunOnMain: Int = 10_000, minInterval: Double = 0.05,
        intervalIncrement: Double = 0.025, maxInterval: Double = 0.25, allowsReloadingOnTooManyUpdates: Bool = false,
        applyBaseCost: Double = 1e-3, batchCostPerChange: Double = 2e-6, reloadCostPerItem: Double = 0.05e-6,
        editsPerUpdate: Int = 20, engine: EngineKind = .hashmap
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
    }
}

/// What one run measured.
public struct PolicyResult: Sendable {
    public var config: PolicyConfig
    /// Frames drawn, and those over the frame budget (1 / frame rate).
    public var frames: Int
    public var framesOverBudget: Int
    /// Hitch time ratio: milliseconds of frame time over budget per second of run (Apple's metric).
    public var hitchTimeRatio: Double
    /// Seconds from an update's request to its being applied on main (coalesced updates count
    /// until the update that carried them was applied).
    public var latencies: [Double]
    public var requested: Int
    public var applied: Int
    /// Updates folded into a later one without being diffed on their own.
    public var coalesced: Int
    /// Updates applied as a full reload (the fallback).
    public var reloads: Int
    /// Updates dropped: still waiting two seconds after the stream ended.
    public var dropped: Int
    /// Process CPU seconds per wall second during the run.
    public var cpuUtilisation: Double
    public var wallSeconds: Double

    /// Latency statistics.
    public var latency: SampleStatistics { SampleStatistics(latencies) }
}

/// Busy-waits `seconds`: modelled main-thread work.
func spin(_ seconds: Double) {
    guard seconds > 0 else { return }
    let end = monotonicNow() + seconds
    while monotonicNow() < end {}
}

/// Runs one simulated app: a main thread drawing frames with per-frame work and running the
/// tasks posted to it, fed a stream of list updates diffed under `config.policy`.
///
/// Real threads and real diffs: the diff cost is measured, not modelled; only the apply cost and
/// the frame work are modelled (by busy-waiting).
public func runPolicy(_ config: PolicyConfig, versions: [[IntElement]]) -> PolicyResult {
    struct State {
        var tasks: [@Sendable () -> Void] = []
        var stop = false
        var frames = 0
        var overBudget = 0
        var hitch = 0.0
        var latencies: [Double] = []
        var applied = 0
        var coalesced = 0
        var reloads = 0
        var dropped = 0
        var inFlight = 0
        /// Coalescing: the pending request (version, request times), when the timer is armed.
        var pending: (version: Int, requestedAt: [Double])?
        var timerArmed = false
        var interval = 0.0
        var lastApply = -1e9
        var lastRequest = -1e9
    }
    let state = Locked(State(interval: config.minInterval))
    let background = DispatchQueue(label: "difflab.policy.background")
    let timerQueue = DispatchQueue(label: "difflab.policy.timer")
    let budget = 1 / config.frameRate
    let start = monotonicNow()
    let cpuStart = processCPUNow()

    @Sendable func postToMain(_ task: @escaping @Sendable () -> Void) { state.withLock { $0.tasks.append(task) } }

    /// Applies a diff result on main (modelled cost) and records the requests it satisfies.
    @Sendable func apply(_ result: DiffResult, requestedAt: [Double]) {
        if monotonicNow() > start + config.duration + 2 {
            state.withLock { s in
                s.dropped += requestedAt.count
                s.inFlight -= 1
            }
            return
        }
        let reload = config.allowsReloadingOnTooManyUpdates && result.changeCount > 100
        spin(
            config.applyBaseCost
                + (reload ? Double(config.listSize) * config.reloadCostPerItem : Double(result.changeCount) * config.batchCostPerChange))
        let now = monotonicNow()
        state.withLock { s in
            s.applied += 1
            if reload { s.reloads += 1 }
            s.latencies += requestedAt.map { now - $0 }
            s.inFlight -= 1
            s.lastApply = now
        }
    }

    @Sendable func diff(_ from: Int, _ to: Int) -> DiffResult {
        config.engine.diff(from: versions[from % versions.count], to: versions[to % versions.count]).forBatchUpdates()
    }

    /// Coalescing: fires the pending update when its interval has passed.
    @Sendable func fireCoalesced() {
        let request: (version: Int, requestedAt: [Double])? = state.withLock { s in
            s.timerArmed = false
            guard let pending = s.pending else { return nil }
            s.pending = nil
            return pending
        }
        guard let request else { return }
        background.async {
            let result = diff(request.version - 1, request.version)
            postToMain { apply(result, requestedAt: request.requestedAt) }
        }
    }

    // The main thread: frames.
    let mainThread = PosixThread {
        var frameStart = monotonicNow()
        while true {
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
                return s.stop && s.tasks.isEmpty && s.inFlight == 0
            }
            if done { break }
            // Wait for the next vsync boundary.
            let next = frameStart + budget * max(1, (duration / budget).rounded(.up))
            let wait = next - monotonicNow()
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            frameStart = max(next, monotonicNow() - budget)
        }
    }
    mainThread.start()

    // The update stream.
    var version = 0
    let onMain = config.policy == .main || (config.policy == .adaptive && config.listSize < config.maxItemCountToRunOnMain)
    while monotonicNow() - start < config.duration {
        version += 1
        let requestedAt = monotonicNow()
        let v = version
        switch config.policy {
        case .coalescing:
            state.withLock { s in
                // Updates keep coming within the window: widen it; after a quiet spell: the minimum.
                s.interval =
                    requestedAt - s.lastRequest <= s.interval
                    ? min(s.interval + config.intervalIncrement, config.maxInterval) : config.minInterval
                s.lastRequest = requestedAt
                if let pending = s.pending {
                    s.coalesced += 1
                    s.pending = (v, pending.requestedAt + [requestedAt])
                } else {
                    s.pending = (v, [requestedAt])
                    s.inFlight += 1
                }
                if !s.timerArmed {
                    s.timerArmed = true
                    let delay = max(0, s.lastApply + s.interval - monotonicNow())
                    timerQueue.asyncAfter(deadline: .now() + delay) { fireCoalesced() }
                }
            }
        default:
            state.withLock { $0.inFlight += 1 }
            if onMain {
                postToMain { apply(diff(v - 1, v), requestedAt: [requestedAt]) }
            } else {
                background.async {
                    let result = diff(v - 1, v)
                    postToMain { apply(result, requestedAt: [requestedAt]) }
                }
            }
        }
        let nextRequest = start + Double(version) * config.updateInterval
        let wait = nextRequest - monotonicNow()
        if wait > 0 { usleep(UInt32(wait * 1e6)) }
    }
    state.withLock { $0.stop = true }
    while !mainThread.isFinished { usleep(1000) }
    let wall = monotonicNow() - start
    let cpu = processCPUNow() - cpuStart
    return state.withLock { s in
        PolicyResult(
            config: config, frames: s.frames, framesOverBudget: s.overBudget, hitchTimeRatio: s.hitch * 1000 / wall,
            latencies: s.latencies, requested: version, applied: s.applied, coalesced: s.coalesced, reloads: s.reloads,
            dropped: s.dropped,
            cpuUtilisation: cpu / wall, wallSeconds: wall)
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
public func policyVersions(size: Int, edits: Int = 20, count: Int = 4, seed: UInt64 = 7) -> [[IntElement]] {
    var rng = SplitMix64(seed: seed)
    var nextID = size
    var versions = [(0..<size).map { IntElement(id: $0, revision: 0) }]
    for _ in 1..<max(count, 2) {
        let edited = scatterEdits(
            versions[versions.count - 1], edits: edits, moveOnly: false, &rng,
            fresh: {
                nextID += 1
                return IntElement(id: nextID - 1, revision: 0)
            }, update: { $0.revision += 1 })
        versions.append(edited)
    }
    return versions
}
