import DiffLabCore
import DiffLabPlatform
import DiffLabUpdaters
import Dispatch

/// What the threads of a ``runPolicy(_:versions:)`` run share, under one lock.
struct _PolicyState {
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
    /// IGListKit's updater (the one `difflab updaters` checks); each request carries the time it
    /// was made.
    var machine: IGListUpdateMachine<Double>
    /// The engine's first failure, if it failed.
    var engineFailure: EngineFailure?

    /// The stream has ended and every update is applied or dropped.
    var finished: Bool { stop && machine.isIdle }
}

/// An update of a ``runPolicy(_:versions:)`` run.
typealias _PolicyUpdate = IGListUpdateMachine<Double>.Update

/// One run of ``runPolicy(_:versions:)``: its settings, clocks and shared state, and the named
/// steps its threads take: the main thread draws frames (``drawFrames()``), the caller's thread
/// streams updates (``streamUpdates()``), an update is launched (``launch(_:)``), diffed
/// (``diff(span:background:)``) and applied or dropped (``finish(_:_:)``), and the coalescer's
/// timer starts a held update (``fireCoalesced()``).
final class _PolicyRun: Sendable {
    let config: PolicyConfig
    let versions: [[IntElement]]
    let state: Locked<_PolicyState>
    let backgroundQueue: DispatchQueue
    let timerQueue: DispatchQueue
    /// The frame budget: 1 / frame rate.
    let budget: Double
    let start: Double
    let cpuStart: Double
    /// The stream posts updates until then.
    let streamEnd: Double
    /// ``PolicyConfig/drainSeconds`` after ``streamEnd``: nothing is applied after it.
    let runEnd: Double
    /// Whether updates are diffed on the main thread.
    let onMain: Bool

    /// The run's clocks start now.
    init(_ config: PolicyConfig, versions: [[IntElement]]) {
        self.config = config
        self.versions = versions
        state = Locked(_PolicyState(machine: IGListUpdateMachine(configuration: config.updaterConfiguration)))
        backgroundQueue = DispatchQueue(label: "difflab.policy.background")
        timerQueue = DispatchQueue(label: "difflab.policy.timer")
        budget = 1 / config.frameRate
        start = monotonicNow()
        cpuStart = processCPUNow()
        streamEnd = start + config.duration
        runEnd = streamEnd + PolicyConfig.drainSeconds
        onMain = config.updaterConfiguration.diffsOnMain(fromCount: config.listSize, toCount: config.listSize)
    }

    /// Every version has the run's list size.
    func itemCount(_ version: Int) -> Int { config.listSize }

    func postToMain(_ task: @escaping @Sendable () -> Void) { state.withLock { $0.tasks.append(task) } }

    /// The run is over: nothing more is applied.
    func isOver() -> Bool { monotonicNow() > runEnd || state.withLock { $0.over } }

    /// The diff of one update, across `span` versions (the versions cycle: the diff is from the
    /// first to the `span`-th, as the simulation's profiles measure it), or `nil` (the first
    /// failure kept) when the engine gave no usable answer.
    func diff(span: Int, background: Bool = false) -> PolicyDiff? {
        let engine = background ? config.backgroundEngine ?? config.engine : config.engine
        do throws(EngineFailure) {
            return try engine.diff(from: versions[0], to: versions[min(max(span, 1), versions.count - 1)], moves: config.moves)
        } catch {
            state.withLock { s in if s.engineFailure == nil { s.engineFailure = error } }
            return nil
        }
    }

    /// Runs the update `t` (just installed): queued on main, or diffed in the background at once.
    func launch(_ t: _PolicyUpdate) {
        if t.onMain {
            postToMain {
                // Requests made until now joined it; from now on they wait for the next update.
                let current = self.state.withLock { $0.machine.startMainDiff(t.id) }
                guard let current else { return }
                self.finish(current.id, self.isOver() ? nil : self.diff(span: current.to - current.from))
            }
        } else {
            backgroundQueue.async {
                // An update still waiting at the run's end is dropped without being diffed.
                let result = self.isOver() ? nil : self.diff(span: t.to - t.from, background: true)
                self.postToMain { self.finish(t.id, result) }
            }
        }
    }

    /// Applies update `id` on main (modelled cost), or drops it (`nil`: the engine failed, or the
    /// run is over); then, in the same critical section, installs the next update if requests
    /// are waiting (none once the run is over), so no request can start one in between.
    func finish(_ id: Int, _ result: PolicyDiff?) {
        let applying = result != nil && !isOver()
        var reload = false
        if let result, applying {
            reload = config.updaterConfiguration.reloads(changes: result.changes)
            let cost = config.costs.applyCost(batchChanges: result.batch.changeCount, listSize: config.listSize, reload: reload)
            spin(min(cost, runEnd - monotonicNow()))
        }
        let now = monotonicNow()
        let next: _PolicyUpdate? = state.withLock { s in
            let (finished, next) = s.machine.finish(id, applied: applying, installNext: !s.over, itemCount: itemCount)
            guard let t = finished else { return nil }
            if applying {
                s.applied += 1
                s.coalesced += t.requests.count - 1
                if reload { s.reloads += t.requests.count }
                s.latencies += t.requests.map { now - $0 }
            }
            return next
        }
        if let next { launch(next) }
    }

    /// Coalescing: starts the held update when the coalescer's timer fires.
    func fireCoalesced() {
        let now = monotonicNow() - start
        let next: _PolicyUpdate? = state.withLock { s in s.over ? nil : s.machine.timerFired(at: now, itemCount: itemCount) }
        if let next { launch(next) }
    }

    /// The main thread's body: frames, until every update is accounted for or the run's end;
    /// then, with no more frames, the tasks still posted until every update is applied or dropped.
    func drawFrames() {
        var frameStart = monotonicNow()
        // A frame that would end after the run's end is not drawn.
        while max(frameStart, monotonicNow()) + config.frameWork <= runEnd {
            spin(config.frameWork)
            runPostedTasks()
            let end = monotonicNow()
            let duration = end - frameStart
            let budget = budget
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
            sleep(until: min(next, runEnd)) { self.state.withLock { $0.finished } }
            if state.withLock({ $0.finished }) { break }
            // A vsync after the run's end ends the loop.
            frameStart = max(next, monotonicNow() - budget)
        }
        // The run is over: no more frames; what is still pending or arrives is dropped (a diff
        // already under way is waited for).
        state.withLock { s in
            s.over = true
            _ = s.machine.dropPending()
        }
        while true {
            runPostedTasks()
            if state.withLock({ $0.finished }) { break }
            sleep(seconds: 0.001)
        }
    }

    /// Runs, on the main thread, the tasks posted to it so far.
    private func runPostedTasks() {
        let tasks: [@Sendable () -> Void] = state.withLock { s in
            defer { s.tasks.removeAll() }
            return s.tasks
        }
        for task in tasks { task() }
    }

    /// The update stream, on the caller's thread: one request per update interval until the
    /// stream's end. Returns the number of updates requested.
    func streamUpdates() -> Int {
        var version = 0
        while monotonicNow() < streamEnd {
            version += 1
            let next = request(version)
            if let next { launch(next) }
            // The next request, but not past the stream's end.
            sleep(until: min(start + Double(version) * config.updateInterval, streamEnd))
        }
        return version
    }

    /// Request `v`: it joins the update under way, waits for the next, is held by the coalescer,
    /// or installs an update, which the caller then launches.
    private func request(_ v: Int) -> _PolicyUpdate? {
        let requestedAt = monotonicNow()
        let start = start
        return state.withLock { s in
            guard !s.over else { return nil }
            switch s.machine.request(v, requestedAt, at: requestedAt - start, itemCount: itemCount) {
            case .none:
                return nil
            case .launch(let update):
                return update
            case .armTimer(let seconds):
                self.timerQueue.asyncAfter(deadline: .now() + seconds) { self.fireCoalesced() }
                return nil
            }
        }
    }

    /// What the run measured, once the stream has stopped after `requested` updates and the main
    /// thread has finished.
    func result(requested version: Int) -> PolicyResult {
        let wall = monotonicNow() - start
        let cpu = processCPUNow() - cpuStart
        let config = config
        return state.withLock { s in
            PolicyResult(
                config: config, frames: s.frames, framesOverBudget: s.overBudget, hitchTimeRatio: s.hitch * 1000 / wall,
                latencies: s.latencies, requested: version, applied: s.applied, coalesced: s.coalesced, reloads: s.reloads,
                dropped: version - s.latencies.count,
                cpuUtilisation: cpu / wall, wallSeconds: wall, engineFailure: s.engineFailure)
        }
    }
}
