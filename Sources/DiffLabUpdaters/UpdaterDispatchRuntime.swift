import DiffLabCore
import Dispatch

/// The stress mode's runtime: an updater's queues as real Dispatch queues, its clock as the real
/// monotonic clock, scaled (``UpdaterFuzzer/stress(script:timeScale:timeLimit:)``).
///
/// - `main` is a serial `DispatchQueue` of the run's own, standing in for `DispatchQueue.main`
///   (which a library cannot rely on being serviced); "on main" is a queue-specific value.
/// - Each serial queue an updater makes is a `DispatchQueue(label:)` of its own; `global` is
///   `DispatchQueue.global()`.
/// - Delays are virtual seconds times the time scale, capped at `delayCap` real seconds (a timer
///   due after the run's time limit is a hang either way); ``_now()`` is real seconds since the
///   start divided by the scale, so an updater sees the same virtual seconds it asked for.
///
/// Every piece of work is counted from the moment it is queued until it returns (`queued`), and
/// while it runs (`running`), so the run can wait for its queues to go idle, or for a property to
/// break (`settled`), with a time limit. Once a property is broken or the run abandoned
/// (``abandon()``), work that starts does nothing, and nothing more is recorded.
final class UpdaterDispatchRuntime: _UpdaterRuntime {
    struct Pending {
        var next = 0
        /// Work queued or running, by number: its lane, what it does, whether it started.
        var work: [Int: (lane: String, label: String, running: Bool)] = [:]
    }

    struct Queue {
        var queue: DispatchQueue
        var lane: String
    }

    let monitor: UpdaterMonitor
    let timeScale: Double
    let delayCap: Double
    let stepBudget: Int
    /// The run's start, in `DispatchTime` uptime nanoseconds.
    let start: UInt64
    let key = DispatchSpecificKey<Int>()
    let main: DispatchQueue
    /// Index: ``_QueueID/raw`` (0 main, 1 global, then serial queues in the order made).
    let queues: Serialized<[Queue]>
    /// Every piece of work queued and not yet over.
    let queued = DispatchGroup()
    /// Every piece of work started and not yet over.
    let running = DispatchGroup()
    /// Signalled when the queues go idle or a property breaks: the run need not wait longer.
    let settled = DispatchSemaphore(value: 0)
    let pending = Serialized(Pending())
    let abandoned = Serialized(false)
    let layoutTimer = Serialized<LayoutTimer?>(nil)
    /// The run's view and updater, once made on main (the run lets go of them at its end).
    let started = Serialized<(view: CollectionViewModel, updater: any ListUpdater)?>(nil)

    /// A runtime recording into `monitor`; `timeScale` real seconds per virtual second; delays
    /// capped at `delayCap` real seconds; the run fails ``UpdaterProperty/ends`` past `stepBudget`
    /// steps.
    init(monitor: UpdaterMonitor, timeScale: Double, delayCap: Double, stepBudget: Int) {
        self.monitor = monitor
        self.timeScale = timeScale
        self.delayCap = delayCap
        self.stepBudget = stepBudget
        start = DispatchTime.now().uptimeNanoseconds
        main = DispatchQueue(label: "difflab.stress.main")
        main.setSpecific(key: key, value: 0)
        queues = Serialized([Queue(queue: main, lane: "main"), Queue(queue: .global(), lane: "global")])
    }

    // MARK: Runtime

    func _enqueue(_ queue: _QueueID, after seconds: Double, label: String, work: @escaping @Sendable () -> Void) {
        guard let target = queues.withLock({ $0.indices.contains(queue.raw) ? $0[queue.raw] : nil }) else { return }
        let delay = seconds.isFinite ? min(max(0, seconds) * timeScale, delayCap) : 0
        let onMain = queue == .main
        let item = track(lane: target.lane, label: label) { [self] in
            let step = monitor.begin(time: _now(), lane: target.lane, onMain: onMain, label: label)
            UpdaterMonitor.$currentStep.withValue(step) {
                guard step <= stepBudget else {
                    monitor.fail(.ends, "still running after \(stepBudget) steps")
                    return
                }
                work()
            }
        }
        if delay > 0 {
            target.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay * 1e9)), execute: item)
        } else {
            target.queue.async(execute: item)
        }
    }

    func _makeSerialQueue(label: String) -> _QueueID {
        queues.withLock { queues in
            let lane = UpdaterScheduler.laneName(label, taken: Set(queues.map(\.lane)))
            let queue = DispatchQueue(label: "difflab.stress.\(lane)")
            queue.setSpecific(key: key, value: queues.count)
            queues.append(Queue(queue: queue, lane: lane))
            return _QueueID(raw: queues.count - 1)
        }
    }

    func _now() -> Double {
        let elapsed = DispatchTime.now().uptimeNanoseconds
        return elapsed > start ? Double(elapsed - start) / 1e9 / timeScale : 0
    }

    func _isOnMain() -> Bool { DispatchQueue.getSpecific(key: key) == 0 }

    // MARK: The run's side

    /// Counts `work` as queued now and as running while it runs; once the run is failed or
    /// abandoned it does nothing.
    func track(lane: String, label: String, _ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let number = pending.withLock {
            $0.next += 1
            $0.work[$0.next] = (lane, label, false)
            return $0.next
        }
        queued.enter()
        return { [self] in
            running.enter()
            pending.withLock { $0.work[number]?.running = true }
            defer {
                pending.withLock { _ = $0.work.removeValue(forKey: number) }
                running.leave()
                queued.leave()
            }
            guard !isAbandoned, !monitor.failed else { return }
            work()
            if monitor.failed { settled.signal() }
        }
    }

    /// Runs `work` on main at `seconds` real seconds after the start (capped), counted but not
    /// recorded: `work` records its own step (the app's requests, the start).
    func onMain(atRealSeconds seconds: Double, label: String, _ work: @escaping @Sendable () -> Void) {
        let offset = min(max(0, seconds.isFinite ? seconds : 0), delayCap)
        let deadline = DispatchTime(uptimeNanoseconds: start + UInt64(offset * 1e9))
        main.asyncAfter(deadline: deadline, execute: track(lane: "main", label: label, work))
    }

    /// Layout passes on main every `interval` real seconds: a pass when the view needs one.
    func startLayoutPasses(every interval: Double, view: CollectionViewModel) {
        let timer = DispatchSource.makeTimerSource(queue: main)
        let nanoseconds = Int(interval * 1e9)
        timer.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds), leeway: .nanoseconds(nanoseconds / 2))
        timer.setEventHandler { [self] in
            guard !isAbandoned, view._needsLayout else { return }
            monitor.withStep(time: _now(), lane: "layout", onMain: true, label: "layout pass") { view._layout() }
            if monitor.failed { settled.signal() }
        }
        timer.resume()
        let box = LayoutTimer(timer: timer)
        layoutTimer.withLock { $0 = box }
    }

    /// Ends the layout passes.
    func stopLayoutPasses() {
        layoutTimer.withLock {
            $0?.timer.cancel()
            $0 = nil
        }
    }

    /// Whether ``abandon()`` was called.
    var isAbandoned: Bool { abandoned.withLock { $0 } }

    /// From now on, work that starts does nothing and layout passes stop.
    func abandon() {
        abandoned.withLock { $0 = true }
        stopLayoutPasses()
    }

    /// The work queued or running, oldest first, at most `limit`: `main: apply v1→v2 (running)`.
    func describePending(limit: Int) -> (count: Int, text: String) {
        pending.withLock { pending in
            let oldest = pending.work.keys.sorted().prefix(limit).compactMap { pending.work[$0] }
            let text = oldest.map { "\($0.lane): \($0.label) (\($0.running ? "running" : "queued"))" }.joined(separator: "; ")
            return (pending.work.count, text)
        }
    }
}

/// The layout passes' timer, shared between the thread that starts a run and the one that ends it:
/// a Dispatch source's methods are thread-safe.
final class LayoutTimer: @unchecked Sendable {
    let timer: any DispatchSourceTimer

    init(timer: any DispatchSourceTimer) { self.timer = timer }
}
