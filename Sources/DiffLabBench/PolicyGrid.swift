import DiffLabCore
import DiffLabResults
import DiffLabUpdaters

extension PolicySetting {
    /// Whether an update of `changes` changes (the diff's count) is applied as a full reload.
    public func reloads(changes: Int) -> Bool { updaterConfiguration.reloads(changes: changes) }

    /// Whether a list of `listSize` items is diffed synchronously on main under this setting.
    public func diffsOnMain(listSize: Int) -> Bool { updaterConfiguration.diffsOnMain(fromCount: listSize, toCount: listSize) }

    /// The IGListKit updater this setting is (``DiffPolicy/updaterConfiguration(maxItemCountToRunOnMain:coalescing:reloadThreshold:)``
    /// with the thresholds in effect): the simulation runs its state machine, and `difflab updaters`
    /// checks the same configuration.
    public var updaterConfiguration: IGListUpdaterConfiguration {
        policy.updaterConfiguration(maxItemCountToRunOnMain: adaptiveThreshold, coalescing: coalescingIntervals, reloadThreshold: reloadThreshold)
    }
}

/// One workload: a list, a display and an update stream (the results record's type, so a
/// workload is written as it was run).
public typealias PolicyWorkload = PolicyWorkloadRecord

/// An update interval of the grid: every frame (a burst), or a fixed number of seconds.
public enum PolicyUpdateInterval: Sendable, Hashable {
    /// One update per frame at the workload's frame rate.
    case everyFrame
    /// One update every so many seconds.
    case seconds(Double)

    /// Seconds between updates at `frameRate`.
    public func seconds(frameRate: Double) -> Double {
        switch self {
        case .everyFrame: 1 / frameRate
        case .seconds(let seconds): seconds
        }
    }
}

/// The scenario grid: workloads (sizes × frame rates × update intervals × edit shares) and
/// candidate settings (policies × move strategies × thresholds × fallbacks).
///
/// Enumeration is deterministic: ``workloads`` and ``settings`` come in the same order for the
/// same grid, whatever the machine.
public struct PolicyGrid: Sendable, Hashable {
    /// List sizes, ascending.
    public var sizes: [Int]
    /// Frame rates, Hz.
    public var frameRates: [Double]
    /// Update intervals.
    public var intervals: [PolicyUpdateInterval]
    /// Edits per update as a share of the list (0.01 is 1%); at least one edit.
    public var editShares: [Double]
    /// Policies.
    public var policies: [DiffPolicy]
    /// Move strategies.
    public var moveStrategies: [MoveStrategy]
    /// `adaptive`'s `maxItemCountToRunOnMain` values.
    public var adaptiveThresholds: [Int]
    /// `coalescing`'s interval sets.
    public var coalescing: [CoalescingIntervals]
    /// Reload fallback thresholds (`nil`: no fallback).
    public var reloadThresholds: [Int?]

    /// The full grid: 1k, 3k, 10k, 30k, 100k, 300k and 1M items; 60 and 120 Hz; updates every frame, every 50 ms,
    /// 250 ms and 1 s; 1% and 10% of the list edited per update; every policy; both move
    /// strategies; adaptive thresholds 1k, 10k, 100k; coalescing intervals 10+10…100 ms,
    /// 50+25…250 ms and 100+50…500 ms; no fallback, and fallbacks above 100 (IGListKit's),
    /// 1,000 and 10,000 changes.
    public static let full = PolicyGrid(
        sizes: [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000], frameRates: [60, 120],
        intervals: [.everyFrame, .seconds(0.05), .seconds(0.25), .seconds(1)], editShares: [0.01, 0.1], policies: DiffPolicy.allCases,
        moveStrategies: MoveStrategy.allCases, adaptiveThresholds: [1_000, 10_000, 100_000],
        coalescing: [
            CoalescingIntervals(minimum: 0.01, increment: 0.01, maximum: 0.1), CoalescingIntervals(minimum: 0.05, increment: 0.025, maximum: 0.25),
            CoalescingIntervals(minimum: 0.1, increment: 0.05, maximum: 0.5),
        ], reloadThresholds: [nil, 100, 1_000, 10_000])

    /// `--quick`'s slice: 1k, 10k and 100k items; updates every frame and every 250 ms; 1% and
    /// 10% edits; otherwise as ``full``.
    public static let quick: PolicyGrid = {
        var grid = full
        grid.sizes = [1_000, 10_000, 100_000]
        grid.intervals = [.everyFrame, .seconds(0.25)]
        return grid
    }()

    /// A grid; see the properties.
    public init(
        sizes: [Int], frameRates: [Double], intervals: [PolicyUpdateInterval], editShares: [Double], policies: [DiffPolicy],
        moveStrategies: [MoveStrategy], adaptiveThresholds: [Int], coalescing: [CoalescingIntervals], reloadThresholds: [Int?]
    ) {
        self.sizes = sizes
        self.frameRates = frameRates
        self.intervals = intervals
        self.editShares = editShares
        self.policies = policies
        self.moveStrategies = moveStrategies
        self.adaptiveThresholds = adaptiveThresholds
        self.coalescing = coalescing
        self.reloadThresholds = reloadThresholds
    }

    /// Edits per update for `share` of a `size`-item list: at least 1, at most
    /// ``PolicyConfig/editsRange``'s upper bound.
    public static func edits(share: Double, size: Int) -> Int {
        let exact = (share * Double(size)).rounded()
        guard exact.isFinite, exact >= 1 else { return 1 }
        return Int(min(exact, Double(PolicyConfig.editsRange.upperBound)))
    }

    /// Every workload: sizes, then frame rates, intervals, edit shares (outermost first).
    /// - Complexity: O(product of the four counts).
    public var workloads: [PolicyWorkload] {
        var result: [PolicyWorkload] = []
        for size in sizes {
            for rate in frameRates {
                for interval in intervals {
                    for share in editShares {
                        result.append(
                            PolicyWorkload(
                                listSize: size, frameRate: rate, updateInterval: interval.seconds(frameRate: rate),
                                editsPerUpdate: Self.edits(share: share, size: size)))
                    }
                }
            }
        }
        return result
    }

    /// Every candidate setting: policies (each with its own thresholds or intervals), then move
    /// strategies, then reload thresholds.
    /// - Complexity: O(number of settings).
    public var settings: [PolicySetting] {
        var result: [PolicySetting] = []
        for policy in policies {
            var variants = [PolicySetting(policy: policy)]
            if policy == .adaptive { variants = adaptiveThresholds.map { PolicySetting(policy: policy, maxItemCountToRunOnMain: $0) } }
            if policy == .coalescing { variants = coalescing.map { PolicySetting(policy: policy, coalescing: $0) } }
            for variant in variants {
                for moves in moveStrategies {
                    for threshold in reloadThresholds {
                        var setting = variant
                        setting.moves = moves
                        setting.reloadThreshold = threshold
                        result.append(setting)
                    }
                }
            }
        }
        return result
    }
}
