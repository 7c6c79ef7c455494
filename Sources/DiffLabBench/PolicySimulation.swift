import DiffLabCore
import DiffLabResults
import DiffLabUpdaters

/// What one diff costs in the simulation: measured seconds, and the sizes of its result.
public struct SimulatedDiff: Sendable, Hashable {
    /// Seconds the diff takes (engine and batch conversion), measured.
    public var seconds: Double
    /// Changes of the diff (inserts, deletes, updates, moves): what IGListKit's fallback counts.
    public var changes: Int
    /// Changes of its batch form (inserts, deletes, moves): what applying it costs.
    public var batchChanges: Int

    /// A diff cost; see the properties.
    public init(seconds: Double, changes: Int, batchChanges: Int) {
        self.seconds = seconds
        self.changes = changes
        self.batchChanges = batchChanges
    }
}

/// The measured cost of diffing one list shape (size, edits per update, move strategy) with one
/// engine: for versions 1, 2, 4, … updates apart (``spans``), the changes and, per measuring
/// round, the seconds.
public struct DiffCostProfile: Sendable, Hashable {
    /// Updates between the versions diffed, ascending from 1.
    public var spans: [Int]
    /// ``SimulatedDiff/changes`` per span.
    public var changes: [Int]
    /// ``SimulatedDiff/batchChanges`` per span.
    public var batchChanges: [Int]
    /// Seconds per round, then per span.
    public var seconds: [[Double]]

    /// A profile; see the properties.
    ///
    /// - Precondition: `spans` ascending from 1; every array of `spans.count` entries; at least one round.
    public init(spans: [Int], changes: [Int], batchChanges: [Int], seconds: [[Double]]) {
        precondition(spans.first == 1 && zip(spans, spans.dropFirst()).allSatisfy { $0 < $1 }, "DiffCostProfile: spans must ascend from 1")
        precondition(changes.count == spans.count && batchChanges.count == spans.count, "DiffCostProfile: one count per span")
        precondition(!seconds.isEmpty && seconds.allSatisfy { $0.count == spans.count }, "DiffCostProfile: one time per span and round")
        self.spans = spans
        self.changes = changes
        self.batchChanges = batchChanges
        self.seconds = seconds
    }

    /// Measuring rounds.
    public var rounds: Int { seconds.count }

    /// The cost of a diff across `span` updates in round `round` (modulo the rounds): linear
    /// between the measured spans; a span beyond the last measured one costs as that one.
    ///
    /// - Complexity: O(spans).
    public func diff(span: Int, round: Int) -> SimulatedDiff {
        let times = seconds[round % seconds.count]
        let span = max(1, span)
        guard let upper = spans.firstIndex(where: { $0 >= span }) else {
            return SimulatedDiff(seconds: times[spans.count - 1], changes: changes[spans.count - 1], batchChanges: batchChanges[spans.count - 1])
        }
        guard spans[upper] != span, upper > 0 else {
            return SimulatedDiff(seconds: times[upper], changes: changes[upper], batchChanges: batchChanges[upper])
        }
        let lower = upper - 1
        let f = Double(span - spans[lower]) / Double(spans[upper] - spans[lower])
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        func mix(_ a: Int, _ b: Int) -> Int { Int(mix(Double(a), Double(b)).rounded()) }
        return SimulatedDiff(
            seconds: mix(times[lower], times[upper]), changes: mix(changes[lower], changes[upper]),
            batchChanges: mix(batchChanges[lower], batchChanges[upper]))
    }
}

/// What one simulated run measured.
public struct PolicyOutcome: Sendable, Hashable {
    /// Frames drawn.
    public var frames = 0
    /// Frames longer than the frame budget.
    public var framesOverBudget = 0
    /// Milliseconds of frame time over budget per second of the run.
    public var hitchTimeRatio = 0.0
    /// Median update latency, seconds (a dropped update counts until the run's end).
    public var latencyMedian = 0.0
    /// 99th-percentile update latency (nearest rank), seconds.
    public var latencyP99 = 0.0
    /// Updates requested.
    public var requested = 0
    /// Updates applied (batch updates and reloads).
    public var applied = 0
    /// Updates carried by a later one.
    public var coalesced = 0
    /// Updates that reached the screen through a full reload (those it carried included).
    public var reloads = 0
    /// Updates not applied by the run's end.
    public var dropped = 0
    /// Virtual seconds the run lasted.
    public var seconds = 0.0
}

/// Simulates one run of `setting` on `workload` in virtual time: a main thread drawing frames
/// (``PolicyCosts/frameWork`` each, then the tasks posted to it), a serial background queue, and
/// a stream of updates every ``PolicyWorkloadRecord/updateInterval`` for `duration` seconds.
///
/// As IGListKit's updater, one update is under way at a time: a request that arrives before the
/// update under way has started its diff joins it; one that arrives later waits, with any others,
/// for the next update, which starts when the current one is applied and diffs across all their
/// versions (under `coalescing`, IGListKit's coalescer also holds requests back; see
/// `CoalescingClock`).
///
/// Diff costs come from `mainDiff` (diffs on the main thread) and `backgroundDiff` (diffs off
/// it), by span (updates between the versions diffed: 1, or more for an update carrying several
/// requests); they are measured, not modelled (``DiffCostProfile``). Applying costs ``PolicyCosts/applyCost(batchChanges:listSize:reload:)``
/// on main. The run ends when every update is applied, or `drain` seconds after the stream ends
/// (a frame that would start its tasks after that is not drawn; updates not applied then are
/// dropped, their latency counted until the run's end).
///
/// The background queue has a core of its own: it never slows the main thread.
///
/// This is ``simulatePolicy(_:stream:frameRate:costs:drain:mainDiff:backgroundDiff:)`` on the
/// workload's ``PolicyStream/regular(interval:duration:listSize:)`` stream, the cost of a diff
/// from version `a` to `b` being the span's, `b - a`.
///
/// - Precondition: `duration` and `drain` finite and ≥ 0; the workload's frame rate and update
///   interval positive and finite; at most 10,000,000 updates or frames.
/// - Complexity: O(frames + updates · log updates) time and O(updates) memory; deterministic.
public func simulatePolicy(
    _ setting: PolicySetting, on workload: PolicyWorkload, costs: PolicyCosts, duration: Double, drain: Double = PolicyConfig.drainSeconds,
    mainDiff: (Int) -> SimulatedDiff, backgroundDiff: (Int) -> SimulatedDiff
) -> PolicyOutcome {
    simulatePolicy(
        setting, stream: .regular(interval: workload.updateInterval, duration: duration, listSize: workload.listSize), frameRate: workload.frameRate,
        costs: costs, drain: drain, mainDiff: { from, to in mainDiff(to - from) }, backgroundDiff: { from, to in backgroundDiff(to - from) })
}

/// The state of one ``simulatePolicy(_:stream:frameRate:costs:drain:mainDiff:backgroundDiff:)`` run:
/// IGListKit's updater is `IGListUpdateMachine` (the one `difflab updaters` checks), driven in
/// virtual time; request `i` asks for version `i + 1`, and the machine's versions index the
/// stream's list sizes and the diff costs.
struct _PolicySimulator {
    enum Task {
        /// Diff update `id` on main, then apply it.
        case diffAndApply(id: Int)
        /// Apply update `id`, diffed in the background.
        case apply(id: Int, SimulatedDiff)
    }

    let setting: PolicySetting
    let stream: PolicyStream
    let costs: PolicyCosts
    /// The cost of diffing version `from` into `to` on main, and off it.
    let mainDiff: (Int, Int) -> SimulatedDiff
    let backgroundDiff: (Int, Int) -> SimulatedDiff
    let budget: Double
    let streamEnd: Double
    let runEnd: Double
    let requestCount: Int

    var nextRequest = 0
    var mainTasks: [Task] = []
    /// IGListKit's updater; each request carries its index.
    var machine: IGListUpdateMachine<Int>
    /// When the background diff of the update under way ends, and what it gives.
    var backgroundDone: (at: Double, id: Int, diff: SimulatedDiff)?
    /// When the coalescer's timer fires.
    var timerAt: Double?
    var latencies: [Double]
    var outcome = PolicyOutcome()
    var hitch = 0.0

    init(
        setting: PolicySetting, stream: PolicyStream, frameRate: Double, costs: PolicyCosts, drain: Double,
        mainDiff: @escaping (Int, Int) -> SimulatedDiff, backgroundDiff: @escaping (Int, Int) -> SimulatedDiff
    ) {
        precondition(drain.isFinite && drain >= 0, "simulatePolicy: duration and drain must be finite")
        precondition(frameRate.isFinite && frameRate > 0, "simulatePolicy: the frame rate and update interval must be positive")
        let frames = (stream.end + drain) * frameRate
        precondition(frames <= 1e7, "simulatePolicy: at most 10,000,000 updates and frames")
        (self.setting, self.stream, self.costs, self.mainDiff, self.backgroundDiff) = (setting, stream, costs, mainDiff, backgroundDiff)
        budget = 1 / frameRate
        streamEnd = stream.end
        runEnd = stream.end + drain
        requestCount = stream.count
        machine = IGListUpdateMachine(configuration: setting.updaterConfiguration)
        latencies = [Double](repeating: -1, count: requestCount)
    }

    func requestTime(_ index: Int) -> Double { stream.time(index) }

    /// Nothing is left to do: every update requested, applied or dropped.
    var finished: Bool { nextRequest == requestCount && machine.isIdle }

    /// Runs every event off the main thread (requests, timers, background diffs) up to `time`.
    mutating func advance(until time: Double) {
        while true {
            let request = nextRequest < requestCount ? requestTime(nextRequest) : .infinity
            let timer = timerAt ?? .infinity
            let done = backgroundDone?.at ?? .infinity
            let next = min(request, timer, done)
            guard next <= time, next.isFinite else { return }
            if done == next {
                finishBackground()
            } else if timer == next {
                fireTimer()
            } else {
                arrive(nextRequest)
                nextRequest += 1
            }
        }
    }

    mutating func arrive(_ index: Int) {
        let now = requestTime(index)
        let stream = stream
        switch machine.request(index + 1, index, at: now, itemCount: { stream.listSize($0) }) {
        case .none: break
        case .launch(let update): launch(update, at: now)
        case .armTimer(let seconds): timerAt = now + seconds
        }
    }

    mutating func fireTimer() {
        guard let at = timerAt else { return }
        timerAt = nil
        let stream = stream
        if let update = machine.timerFired(at: at, itemCount: { stream.listSize($0) }) { launch(update, at: at) }
    }

    /// Launches an update: queued on main, or diffed in the background at once.
    mutating func launch(_ update: IGListUpdateMachine<Int>.Update, at now: Double) {
        if update.onMain {
            mainTasks.append(.diffAndApply(id: update.id))
        } else {
            let diff = backgroundDiff(update.from, update.to)
            backgroundDone = (now + diff.seconds, update.id, diff)
        }
    }

    mutating func finishBackground() {
        guard let (_, id, diff) = backgroundDone else { return }
        mainTasks.append(.apply(id: id, diff))
        backgroundDone = nil
    }

    /// Runs one main-thread task starting at `start`; returns when it ends. The next update, if
    /// requests are waiting, starts then.
    mutating func perform(_ task: Task, at start: Double) -> Double {
        let update: IGListUpdateMachine<Int>.Update
        let diff: SimulatedDiff
        var seconds = 0.0
        switch task {
        case .diffAndApply(let id):
            guard let started = machine.startMainDiff(id) else { return start }
            update = started
            diff = mainDiff(update.from, update.to)
            seconds = diff.seconds
        case .apply(let id, let made):
            guard let current = machine.transaction, current.id == id else { return start }
            update = current
            diff = made
        }
        let reload = setting.reloads(changes: diff.changes)
        seconds += costs.applyCost(batchChanges: diff.batchChanges, listSize: stream.listSize(update.to), reload: reload)
        let end = start + seconds
        advance(until: end)
        outcome.applied += 1
        outcome.coalesced += update.requests.count - 1
        if reload { outcome.reloads += update.requests.count }
        for index in update.requests { latencies[index] = end - requestTime(index) }
        let stream = stream
        if let next = machine.finish(update.id, applied: true, itemCount: { stream.listSize($0) }).next { launch(next, at: end) }
        return end
    }

    mutating func run() -> PolicyOutcome {
        var frameStart = 0.0
        var end = 0.0
        while frameStart + costs.frameWork <= runEnd {
            let tasksStart = frameStart + costs.frameWork
            advance(until: tasksStart)
            var time = tasksStart
            let tasks = mainTasks
            mainTasks.removeAll(keepingCapacity: true)
            for (index, task) in tasks.enumerated() {
                guard time < runEnd else {
                    // The run is over: what is left is dropped.
                    mainTasks = Array(tasks[index...])
                    break
                }
                time = perform(task, at: time)
            }
            end = time
            outcome.frames += 1
            let length = time - frameStart
            if length > budget {
                outcome.framesOverBudget += 1
                hitch += length - budget
            }
            if time >= runEnd || (finished && time >= streamEnd) { break }
            frameStart += budget * max(1, (length / budget).rounded(.up))
        }
        let wall = max(end, streamEnd, 1e-9)
        for index in 0..<requestCount where latencies[index] < 0 {
            outcome.dropped += 1
            latencies[index] = max(0, wall - requestTime(index))
        }
        // Requests never reached (the stream outlived the run): none, since the run lasts past the stream.
        let statistics = SampleStatistics(latencies)
        outcome.requested = requestCount
        outcome.latencyMedian = statistics.median
        outcome.latencyP99 = statistics.p99
        outcome.hitchTimeRatio = min(1000, hitch * 1000 / wall)
        outcome.seconds = wall
        return outcome
    }
}
