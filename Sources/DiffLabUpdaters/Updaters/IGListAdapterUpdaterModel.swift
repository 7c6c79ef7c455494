import DiffLabBatch

/// How an ``IGListAdapterUpdaterModel`` diffs, coalesces and falls back to a reload: the knobs of
/// IGListKit's `IGListAdapterUpdater` that the policy lab compares.
///
/// Sources: IGListKit's reference, `IGListAdaptiveDiffingExperimentConfig` ("If both item counts
/// are under this number, we'll run the diffing on the main thread": `maxItemCountToRunOnMain`),
/// `IGListAdaptiveCoalescingExperimentConfig` (`minInterval`: "Start coalescing if the last update
/// was within this interval"; `intervalIncrement`: "If we need to coalesce, increase the interval
/// by this much for next time"; `maxInterval`: "the slowest an update can wait") and
/// `IGListExperimentReloadDataFallback` ("fallback to reloadData when too many update operations"),
/// https://instagram.github.io/IGListKit/.
///
/// Every field is checked when made; a configuration cannot hold a value out of range.
public struct IGListUpdaterConfiguration: Hashable, Sendable {
    /// Where a transaction diffs.
    public enum Diffing: Hashable, Sendable {
        /// Synchronously on the main queue, inside the transaction.
        case main
        /// On a serial background queue; the result is applied on the main queue.
        case background
        /// On main when both lists have fewer than `maxItemCountToRunOnMain` items, else in the
        /// background (IGListKit's adaptive diffing).
        case adaptive(maxItemCountToRunOnMain: Int)
    }

    /// IGListKit's adaptive coalescing intervals, in seconds (``IGListUpdateCoalescer`` applies them).
    public struct Coalescing: Hashable, Sendable {
        /// The interval after a quiet spell.
        public let minInterval: Double
        /// Added to the interval each time an update arrives within it.
        public let intervalIncrement: Double
        /// The longest interval.
        public let maxInterval: Double

        /// The range of each interval, in seconds.
        public static let secondsRange: ClosedRange<Double> = 0...60

        /// Intervals; see the properties.
        ///
        /// - Throws: ``UpdaterInputError`` naming the first interval that is not finite and in
        ///   ``secondsRange``, or `maxInterval` when it is below `minInterval`.
        public init(minInterval: Double, intervalIncrement: Double, maxInterval: Double) throws(UpdaterInputError) {
            for (field, value) in [("minInterval", minInterval), ("intervalIncrement", intervalIncrement), ("maxInterval", maxInterval)] {
                guard value.isFinite, Self.secondsRange.contains(value) else {
                    throw UpdaterInputError(field: field, expected: "a finite number of seconds in 0...60", found: "\(value)")
                }
            }
            guard maxInterval >= minInterval else {
                throw UpdaterInputError(field: "maxInterval", expected: "at least minInterval (\(minInterval))", found: "\(maxInterval)")
            }
            self.init(unchecked: minInterval, intervalIncrement, maxInterval)
        }

        init(unchecked minInterval: Double, _ intervalIncrement: Double, _ maxInterval: Double) {
            self.minInterval = minInterval
            self.intervalIncrement = intervalIncrement
            self.maxInterval = maxInterval
        }

        /// The policy lab's default: 50 ms, growing by 25 ms up to 250 ms.
        public static let standard = Coalescing(unchecked: 0.05, 0.025, 0.25)
    }

    /// Where transactions diff.
    public let diffing: Diffing
    /// Adaptive coalescing; `nil`: a transaction is queued on the main queue at once (IGListKit's
    /// default `dispatch_async` to main).
    public let coalescing: Coalescing?
    /// IGListKit's `allowsReloadingOnTooManyUpdates` and its threshold: a transaction whose batch
    /// has more operations than this is applied with `reloadData` instead; `nil`: never.
    public let reloadThreshold: Int?

    /// A configuration; see the properties.
    ///
    /// - Throws: ``UpdaterInputError`` when `maxItemCountToRunOnMain` or `reloadThreshold` is
    ///   negative.
    public init(diffing: Diffing = .main, coalescing: Coalescing? = nil, reloadThreshold: Int? = nil) throws(UpdaterInputError) {
        if case .adaptive(let limit) = diffing, limit < 0 {
            throw UpdaterInputError(field: "maxItemCountToRunOnMain", expected: "0 or more items", found: "\(limit)")
        }
        if let reloadThreshold, reloadThreshold < 0 {
            throw UpdaterInputError(field: "reloadThreshold", expected: "0 or more operations", found: "\(reloadThreshold)")
        }
        self.init(unchecked: diffing, coalescing, reloadThreshold)
    }

    init(unchecked diffing: Diffing, _ coalescing: Coalescing?, _ reloadThreshold: Int?) {
        self.diffing = diffing
        self.coalescing = coalescing
        self.reloadThreshold = reloadThreshold
    }

    /// The policy lab's `main`: diff on main, no coalescing, no reload fallback.
    public static let main = IGListUpdaterConfiguration(unchecked: .main, nil, nil)
    /// The policy lab's `background`: diff in the background.
    public static let background = IGListUpdaterConfiguration(unchecked: .background, nil, nil)
    /// The policy lab's `adaptive`, with a threshold of 4 items so that the fuzzer's small lists
    /// (``UpdaterFuzzSettings/standard``: up to 8 items) take both paths.
    public static let adaptive = IGListUpdaterConfiguration(unchecked: .adaptive(maxItemCountToRunOnMain: 4), nil, nil)
    /// The policy lab's `coalescing`: background diffing, ``Coalescing/standard`` intervals.
    public static let coalescing = IGListUpdaterConfiguration(unchecked: .background, .standard, nil)

    /// Whether a diff from `old` to `new` runs on the main queue.
    func diffsOnMain(_ old: ListVersion, _ new: ListVersion) -> Bool {
        switch diffing {
        case .main: true
        case .background: false
        case .adaptive(let limit): old.itemCount < limit && new.itemCount < limit
        }
    }
}

/// IGListKit's adaptive coalescer (`IGListUpdateCoalescer` with adaptive coalescing on), as a clock
/// in virtual time: an update asked for more than the current interval after the start of the last
/// one starts at once and resets the interval to `minInterval`; one asked for within it waits for
/// the end of the interval, which then grows by `intervalIncrement` up to `maxInterval`. Updates
/// asked for while one waits join it (the caller does not ask the clock again).
///
/// The same rule as the policy lab's simulation; shared with it through the package.
package struct IGListUpdateCoalescer: Sendable {
    package let intervals: IGListUpdaterConfiguration.Coalescing
    /// The current interval.
    package private(set) var interval: Double
    var lastStart: Double?

    package init(_ intervals: IGListUpdaterConfiguration.Coalescing) {
        self.intervals = intervals
        interval = intervals.minInterval
    }

    /// An update asked for at `now`, with none waiting: how long it waits (0: it starts now, and
    /// the clock takes `now` as its start; otherwise the caller reports the start with
    /// ``started(at:)``).
    package mutating func delay(requestAt now: Double) -> Double {
        guard let lastStart, now - lastStart <= interval else {
            interval = intervals.minInterval
            lastStart = now
            return 0
        }
        let wait = max(0, interval - (now - lastStart))
        interval = min(interval + intervals.intervalIncrement, intervals.maxInterval)
        if wait == 0 { self.lastStart = now }
        return wait
    }

    /// The waiting update starts at `now`.
    package mutating func started(at now: Double) { lastStart = now }
}

/// A model of IGListKit's `IGListAdapterUpdater`, the updater behind `IGListAdapter.performUpdates`.
///
/// What it models (IGListKit's reference, https://instagram.github.io/IGListKit/ —
/// `IGListAdapterUpdater`: "This updater performs re-entrant, coalesced updating for a list";
/// `IGListUpdatingDelegate`'s `performUpdateWithCollectionViewBlock:fromObjects:toObjectsBlock:…`;
/// the configs in ``IGListUpdaterConfiguration``):
/// - three states: **idle**; **queued** (a transaction is scheduled on the main queue, at once or
///   after the coalescer's delay); **executing** (diffing, then applying). One transaction is
///   under way at a time.
/// - a request that arrives while a transaction is queued joins it: the pending target becomes the
///   newest version and its completion is added to the transaction's; one that arrives while a
///   transaction executes waits, with any later ones, for the next transaction, queued when the
///   current one ends — once its batch is applied, as the policy lab's simulation has it. Every
///   completion of a transaction runs once, when its batch's animation ends (`true` as UIKit
///   reports it) or right after a reload.
/// - the diff runs from the data the updater last applied (IGListAdapter passes its current
///   objects as `fromObjects`) to the newest target: on main or in the background per
///   ``IGListUpdaterConfiguration/diffing``.
/// - a batch with more operations than ``IGListUpdaterConfiguration/reloadThreshold``, or one that
///   changes sections (``ListVersion/batchUpdate(to:engine:moves:)`` is `nil`), is applied as
///   `setData` + `reloadData`.
///
/// Simplified: IGListKit diffs sections (one per object) and reloads items through section
/// controllers; here one section of items is diffed. Its item-level updates
/// (`performBatchAnimated:`), `reloadData` requests, the not-in-a-window shortcut and the delegate
/// callbacks are left out. IGListKit's reference does not say whether the updater returns to idle
/// when the batch is applied or when its animation ends; the model takes the first (so the
/// coalescer's intervals, shorter than an animation, matter). Both are safe: the next diff starts
/// from what was applied, which the view already shows.
///
/// Diffing from what it applied, one transaction at a time, it is safe: DiffLab finds no failing
/// schedule.
public final class IGListAdapterUpdaterModel: ListUpdater, @unchecked Sendable {
    /// Where the updater is in its cycle.
    enum State {
        case idle, queued, executing
    }

    let context: UpdaterContext
    let configuration: IGListUpdaterConfiguration
    let queue: UpdaterQueue
    // Main-queue state.
    var state = State.idle
    /// The data last handed to the data source: the next diff's `fromObjects`.
    var applied: ListVersion
    /// The newest version asked for and not yet taken by a transaction.
    var pending: ListVersion?
    var pendingCompletions: [@Sendable (Bool) -> Void] = []
    var coalescer: IGListUpdateCoalescer?

    /// An updater on `context` configured by `configuration`, with a serial background queue.
    public init(context: UpdaterContext, configuration: IGListUpdaterConfiguration = .main) {
        self.context = context
        self.configuration = configuration
        queue = context.makeSerialQueue(label: "iglistkit.diff")
        applied = context.initial
        coalescer = configuration.coalescing.map(IGListUpdateCoalescer.init)
    }

    /// A subject for the updater under `configuration`, named `name`.
    public static func subject(configuration: IGListUpdaterConfiguration, name: String) -> UpdaterSubject {
        UpdaterSubject(
            name: name, summary: "IGListKit's IGListAdapterUpdater (\(describe(configuration)))",
            make: { IGListAdapterUpdaterModel(context: $0, configuration: configuration) })
    }

    /// `iglistkit`: diffing on main (``IGListUpdaterConfiguration/main``).
    public static let subject = subject(configuration: .main, name: "iglistkit")
    /// `iglistkit-background`: diffing in the background.
    public static let backgroundSubject = subject(configuration: .background, name: "iglistkit-background")
    /// `iglistkit-adaptive`: adaptive diffing (``IGListUpdaterConfiguration/adaptive``).
    public static let adaptiveSubject = subject(configuration: .adaptive, name: "iglistkit-adaptive")
    /// `iglistkit-coalescing`: background diffing and adaptive coalescing.
    public static let coalescingSubject = subject(configuration: .coalescing, name: "iglistkit-coalescing")

    static func describe(_ configuration: IGListUpdaterConfiguration) -> String {
        var parts: [String]
        switch configuration.diffing {
        case .main: parts = ["diffing on main"]
        case .background: parts = ["diffing in the background"]
        case .adaptive(let limit): parts = ["adaptive diffing below \(limit) items"]
        }
        if let c = configuration.coalescing { parts.append("coalescing \(c.minInterval)+\(c.intervalIncrement)…\(c.maxInterval) s") }
        if let t = configuration.reloadThreshold { parts.append("reload above \(t) operations") }
        return parts.joined(separator: ", ")
    }

    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        pending = version
        pendingCompletions.append(completion)
        if state == .idle { queueTransaction() }
    }

    /// Schedules the next transaction on main, through the coalescer when there is one.
    func queueTransaction() {
        state = .queued
        let wait = coalescer?.delay(requestAt: context.now) ?? 0
        if wait > 0 {
            context.main.asyncAfter(seconds: wait, "coalesced transaction") { [self] in
                coalescer?.started(at: context.now)
                execute()
            }
        } else {
            context.main.async("transaction") { [self] in execute() }
        }
    }

    /// Takes the pending target and its completions, and diffs from what was applied.
    func execute() {
        guard let target = pending else {
            state = .idle
            return
        }
        state = .executing
        let completions = pendingCompletions
        pending = nil
        pendingCompletions = []
        let from = applied
        let context = self.context
        if configuration.diffsOnMain(from, target) {
            apply(target, batch: from.batchUpdate(to: target, engine: context.engine), completions: completions)
        } else {
            queue.async("diff \(from)→\(target)") { [self] in
                let batch = from.batchUpdate(to: target, engine: context.engine)
                context.main.async("apply \(from)→\(target)") { [self] in apply(target, batch: batch, completions: completions) }
            }
        }
    }

    /// Applies `batch` (or reloads), then ends the transaction.
    func apply(_ target: ListVersion, batch: BatchUpdate?, completions: [@Sendable (Bool) -> Void]) {
        let view = context.collectionView
        if let batch, configuration.reloadThreshold.map({ batch.operationCount <= $0 }) ?? true {
            view.performBatchUpdates(
                batch,
                updates: {
                    view.setData(target)
                    applied = target
                },
                completion: { finished in
                    for completion in completions { completion(finished) }
                })
        } else {
            view.setData(target)
            applied = target
            view.reloadData()
            for completion in completions { completion(true) }
        }
        // The transaction is over once applied: the next one, if a request waits, is queued.
        state = .idle
        if pending != nil { queueTransaction() }
    }
}
