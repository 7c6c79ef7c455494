import DiffLabCore
import DiffLabPlatform

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
    /// (`difflab policy real-time` does).
    public var simulated: PolicyOutcome?

    /// Latency statistics.
    public var latency: SampleStatistics { SampleStatistics(latencies) }
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
/// their versions. Under `coalescing`, IGListKit's coalescer (DiffLabUpdaters' `CoalescingClock`) also holds
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
    let run = _PolicyRun(config, versions: versions)
    // The main thread: frames, until every update is accounted for or the run's end.
    let mainThread = PosixThread { run.drawFrames() }
    mainThread.start()
    let requested = run.streamUpdates()
    run.state.withLock { $0.stop = true }
    while !mainThread.isFinished { sleep(seconds: 0.001) }
    return run.result(requested: requested)
}
