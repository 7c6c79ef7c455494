import DiffLabCore

/// How the scheduler picks the next step among the lanes that can run.
public enum ScheduleStrategy: Hashable, Sendable, CustomStringConvertible {
    /// A uniform random choice at every step, from `seed`.
    case random(seed: UInt64)
    /// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS
    /// 2010): every lane gets a random priority when it first appears, the highest-priority lane
    /// runs, and at `depth − 1` random steps the lane running drops below every other. For a run
    /// of k steps over n lanes, a bug that needs `depth` ordering constraints is found with
    /// probability at least 1/(n·k^(depth−1)).
    case pct(seed: UInt64, depth: Int)
    /// The given lanes in order (a recorded schedule); a lane that cannot run at its turn is
    /// skipped, and once the list is used up the default order runs (main first, then layout,
    /// serial queues, the global queue, timers, and the app's next request last: the calmest
    /// continuation, which lets work drain before anything new arrives).
    case replay([String])

    /// `random(seed: 7)`, `pct(seed: 7, depth: 2)`, `replay(12 steps)`.
    public var description: String {
        switch self {
        case let .random(seed): "random(seed: \(seed))"
        case let .pct(seed, depth): "pct(seed: \(seed), depth: \(depth))"
        case let .replay(lanes): "replay(\(lanes.count) steps)"
        }
    }
}

/// The deterministic scheduler: runs an updater's main queue, serial queues, global queue,
/// timers, layout passes and the app's requests one step at a time, in the order a
/// ``ScheduleStrategy`` picks, in virtual time. Every run is replayable from its strategy.
///
/// Lanes: `main` (the main queue, FIFO), `app` (the app's next request, which moves the clock to
/// the request's time), `layout` (a layout pass, possible whenever the view or data source
/// changed since the last), `timers` (the earliest due timer fires: its work joins its queue,
/// and the clock moves to its deadline if it is later), each serial queue (by label, FIFO), and
/// each piece of work on the global queue (`global#N`, in any order). Background work takes no
/// virtual time: any order of it against the main thread's lanes is a schedule to explore.
package final class UpdaterScheduler: _UpdaterRuntime, @unchecked Sendable {
    enum Lane: Hashable {
        case main, app, layout, timers
        case serial(Int)
        case global(Int)
    }

    struct Work {
        var label: String
        var run: @Sendable () -> Void
    }

    struct Timer {
        var deadline: Double
        var sequence: Int
        var queue: _QueueID
        var work: Work
    }

    var now = 0.0
    var onMain = true
    /// FIFO per serial queue (index 0: main); index 1 (the global queue) stays empty.
    var fifos: [[Work]] = [[], []]
    var fifoHeads: [Int] = [0, 0]
    var labels: [String] = ["main", "global"]
    var takenLabels: Set<String> = ["main", "global"]
    var globalWork: [(sequence: Int, work: Work)] = []
    var timers: [Timer] = []
    var sequence = 0

    // The app's side, set by the run.
    var requestTimes: [Double] = []
    var nextRequest = 0
    var request: (Int) -> Void = { _ in }
    var needsLayout: () -> Bool = { false }
    var layout: () -> Void = {}

    let strategy: ScheduleStrategy
    var random: SplitMix64
    var priorities: [String: Int] = [:]
    var changePoints: [Int: Int] = [:]
    var replayIndex = 0
    /// The lanes chosen, in order: the schedule that replays this run.
    package private(set) var schedule: [String] = []

    /// - Parameter expectedSteps: the length PCT spreads its change points over.
    package init(strategy: ScheduleStrategy, expectedSteps: Int) {
        self.strategy = strategy
        switch strategy {
        case let .random(seed):
            random = SplitMix64(seed: seed)
        case let .pct(seed, requested):
            random = SplitMix64(seed: seed)
            let depth = Self.pctDepth(requested)
            let span = UInt64(max(1, expectedSteps))
            for point in 0..<max(0, depth - 1) {
                changePoints[1 + Int(random.next(upTo: span - 1))] = point
            }
        case .replay:
            random = SplitMix64(seed: 0)
        }
    }

    /// PCT's depth as used: 1 to 64 (a deeper bug needs more change points than a run has steps
    /// to spread them over; a depth out of range is clamped, never trusted).
    static func pctDepth(_ depth: Int) -> Int { min(max(depth, 1), 64) }

    // MARK: Runtime

    package func _enqueue(_ queue: _QueueID, after seconds: Double, label: String, work: @escaping @Sendable () -> Void) {
        sequence += 1
        let item = Work(label: label, run: work)
        if seconds > 0 {
            timers.append(Timer(deadline: now + seconds, sequence: sequence, queue: queue, work: item))
        } else if queue == .global {
            globalWork.append((sequence, item))
        } else if fifos.indices.contains(queue.raw) {
            fifos[queue.raw].append(item)
        }
    }

    package func _makeSerialQueue(label: String) -> _QueueID {
        let name = Self.laneName(label, taken: takenLabels)
        takenLabels.insert(name)
        labels.append(name)
        fifos.append([])
        fifoHeads.append(0)
        return _QueueID(raw: labels.count - 1)
    }

    /// A serial queue's lane name: `label` (cut to ``UpdaterEvent/maxLaneLength`` less room for a
    /// suffix), or `label#2`, `label#3`, … when that is taken or names another lane (`main`,
    /// `global`, `app`, `layout`, `timers`, `global#N`).
    ///
    /// - Complexity: O(tries): one more than the queues already named after `label`.
    static func laneName(_ label: String, taken: Set<String>) -> String {
        let label = label._cut(UpdaterEvent.maxLaneLength - 8)
        var name = label
        var n = 2
        while taken.contains(name) || ["main", "global", "app", "layout", "timers"].contains(name) || name.hasPrefix("global#") {
            name = "\(label)#\(n)"
            n += 1
        }
        return name
    }

    package func _now() -> Double { now }
    package func _isOnMain() -> Bool { onMain }

    // MARK: Stepping

    func name(_ lane: Lane) -> String {
        switch lane {
        case .main: "main"
        case .app: "app"
        case .layout: "layout"
        case .timers: "timers"
        case .serial(let q): labels[q]
        case .global(let s): "global#\(s)"
        }
    }

    /// The lanes that can run, in the default order.
    func enabled() -> [Lane] {
        var lanes: [Lane] = []
        if fifoHeads[0] < fifos[0].count { lanes.append(.main) }
        if needsLayout() { lanes.append(.layout) }
        for q in fifos.indices.dropFirst(2) where fifoHeads[q] < fifos[q].count { lanes.append(.serial(q)) }
        for item in globalWork { lanes.append(.global(item.sequence)) }
        if !timers.isEmpty { lanes.append(.timers) }
        if nextRequest < requestTimes.count { lanes.append(.app) }
        return lanes
    }

    func choose(_ lanes: [Lane], step: Int) -> Lane {
        switch strategy {
        case .random:
            return lanes[Int(random.next(upTo: UInt64(lanes.count - 1)))]
        case let .pct(_, requested):
            let depth = Self.pctDepth(requested)
            var best = lanes[0]
            var bestPriority = Int.min
            for lane in lanes {
                let key = name(lane)
                let priority: Int
                if let known = priorities[key] {
                    priority = known
                } else {
                    priority = depth + Int(random.next(upTo: 1 << 40))
                    priorities[key] = priority
                }
                if priority > bestPriority { (best, bestPriority) = (lane, priority) }
            }
            if let point = changePoints[step] { priorities[name(best)] = point }
            return best
        case let .replay(names):
            while replayIndex < names.count {
                let wanted = names[replayIndex]
                replayIndex += 1
                if let lane = lanes.first(where: { name($0) == wanted }) { return lane }
            }
            return lanes[0]
        }
    }

    /// Runs one step; `false` when no lane can run.
    package func step(monitor: UpdaterMonitor, number: Int) -> Bool {
        let lanes = enabled()
        guard !lanes.isEmpty else { return false }
        let lane = choose(lanes, step: number)
        schedule.append(name(lane))
        switch lane {
        case .main:
            let work = fifos[0][fifoHeads[0]]
            fifoHeads[0] += 1
            onMain = true
            monitor.begin(time: now, lane: "main", onMain: true, label: work.label)
            work.run()
        case .serial(let q):
            let work = fifos[q][fifoHeads[q]]
            fifoHeads[q] += 1
            onMain = false
            monitor.begin(time: now, lane: labels[q], onMain: false, label: work.label)
            work.run()
        case .global(let s):
            guard let index = globalWork.firstIndex(where: { $0.sequence == s }) else { return true }
            let work = globalWork.remove(at: index).work
            onMain = false
            monitor.begin(time: now, lane: "global", onMain: false, label: work.label)
            work.run()
        case .timers:
            guard let index = timers.indices.min(by: { (timers[$0].deadline, timers[$0].sequence) < (timers[$1].deadline, timers[$1].sequence) })
            else { return true }
            let timer = timers.remove(at: index)
            now = max(now, timer.deadline)
            onMain = true
            monitor.begin(time: now, lane: "timers", onMain: true, label: "timer fires → \(labels[timer.queue.raw]): \(timer.work.label)")
            _enqueue(timer.queue, after: 0, label: timer.work.label, work: timer.work.run)
        case .layout:
            onMain = true
            monitor.begin(time: now, lane: "layout", onMain: true, label: "layout pass")
            layout()
        case .app:
            let k = nextRequest
            nextRequest += 1
            now = max(now, requestTimes[k])
            onMain = true
            request(k)
        }
        compact()
        return true
    }

    /// Forgets everything the run left: queued work, timers and the closures into the app and
    /// the view (which hold this scheduler), so nothing of the run outlives it.
    package func tearDown() {
        fifos = fifos.map { _ in [] }
        fifoHeads = fifoHeads.map { _ in 0 }
        globalWork = []
        timers = []
        requestTimes = []
        request = { _ in }
        needsLayout = { false }
        layout = {}
    }

    /// Drops run work from the FIFOs now and then, so a long run's memory follows what is queued.
    func compact() {
        for q in fifos.indices where fifoHeads[q] > 64 && fifoHeads[q] * 2 > fifos[q].count {
            fifos[q].removeFirst(fifoHeads[q])
            fifoHeads[q] = 0
        }
    }
}
