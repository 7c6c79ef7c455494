import DiffLabCore
import DiffLabResults
import DiffLabUpdaters

/// One policy-lab run's settings.
///
/// Every number has a documented range (the `…Range` constants, which `difflab policy` also
/// parses its flags against). The initialiser traps on a value outside them; ``validate()``
/// reports one as a ``ConfigurationError``, for settings changed after construction;
/// ``runPolicy(_:versions:)`` traps on invalid settings.
public struct PolicyConfig: Sendable {
    /// Where and how updates are diffed (see `DiffPolicy`).
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

    /// The IGListKit updater this run is (`DiffPolicy.updaterConfiguration(maxItemCountToRunOnMain:coalescing:reloadThreshold:)`),
    /// its reload fallback on when ``allowsReloadingOnTooManyUpdates``.
    public var updaterConfiguration: IGListUpdaterConfiguration {
        policy.updaterConfiguration(
            maxItemCountToRunOnMain: maxItemCountToRunOnMain,
            coalescing: CoalescingIntervals(minimum: minInterval, increment: intervalIncrement, maximum: maxInterval),
            reloadThreshold: allowsReloadingOnTooManyUpdates ? reloadThreshold : nil)
    }
}

extension DiffPolicy {
    /// The IGListKit updater configuration that is this policy: `main` diffs on main,
    /// `background` and `coalescing` in the background (`coalescing` with IGListKit's coalescer of
    /// `coalescing`'s intervals), `adaptive` on main below `maxItemCountToRunOnMain` items.
    public func updaterConfiguration(
        maxItemCountToRunOnMain: Int, coalescing: CoalescingIntervals, reloadThreshold: Int?
    ) -> IGListUpdaterConfiguration {
        let diffing: IGListUpdaterConfiguration.Diffing =
            switch self {
            case .main: .main
            case .background, .coalescing: .background
            case .adaptive: .adaptive(maxItemCountToRunOnMain: maxItemCountToRunOnMain)
            }
        return IGListUpdaterConfiguration(diffing: diffing, coalescing: self == .coalescing ? coalescing : nil, reloadThreshold: reloadThreshold)
    }
}
