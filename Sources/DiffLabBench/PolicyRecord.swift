import DiffLabResults
import DiffLabUpdaters

extension PolicyResult {
    /// The run as a `difflab-policy/1` run record: its settings and what it measured (a latency
    /// statistic of a run that applied nothing, NaN, is absent).
    public var runRecord: PolicyRun {
        let c = config
        func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }
        var run = PolicyRun(
            policy: c.policy, engine: c.engine.name, listSize: c.listSize,
            allowsReloadingOnTooManyUpdates: c.allowsReloadingOnTooManyUpdates)
        if let background = c.backgroundEngine, background.name != c.engine.name { run.backgroundEngine = background.name }
        run.updateInterval = c.updateInterval
        run.frameRate = c.frameRate
        run.frameWork = c.frameWork
        run.duration = c.duration
        run.maxItemCountToRunOnMain = c.maxItemCountToRunOnMain
        run.coalescing = CoalescingIntervals(minimum: c.minInterval, increment: c.intervalIncrement, maximum: c.maxInterval)
        run.applyBaseCost = c.applyBaseCost
        run.layoutCostPerItem = c.layoutCostPerItem
        run.batchCostPerChange = c.batchCostPerChange
        run.moves = c.moves
        run.reloadCostPerItem = c.reloadCostPerItem
        run.editsPerUpdate = c.editsPerUpdate
        run.frames = frames
        run.framesOverBudget = framesOverBudget
        run.hitchTimeRatio = finite(hitchTimeRatio)
        let statistics = latency
        run.latencyMedian = finite(statistics.median)
        run.latencyP99 = finite(statistics.p99)
        run.latencies = latencies
        run.requested = requested
        run.applied = applied
        run.coalesced = coalesced
        run.reloads = reloads
        run.dropped = dropped
        run.cpuUtilisation = finite(cpuUtilisation)
        run.wallSeconds = finite(wallSeconds)
        if let simulated {
            run.simulatedHitchTimeRatio = finite(simulated.hitchTimeRatio)
            run.simulatedLatencyP99 = finite(simulated.latencyP99)
        }
        return run
    }
}
