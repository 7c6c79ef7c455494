import DiffLabBatch

/// A model of IGListKit's `IGListAdapterUpdater`, the updater behind `IGListAdapter.performUpdates`.
///
/// What it models (IGListKit's reference, https://instagram.github.io/IGListKit/ —
/// `IGListAdapterUpdater`: "This updater performs re-entrant, coalesced updating for a list";
/// `IGListUpdatingDelegate`'s `performUpdateWithCollectionViewBlock:fromObjects:toObjectsBlock:…`;
/// the configs in ``IGListUpdaterConfiguration``):
/// - its states, as `IGListUpdateMachine` (the one state machine the policy lab's simulation
///   and real-thread run drive too): **idle**; **queued** (a transaction is scheduled on the main
///   queue, or held by the coalescer); **executing** (diffing, then applying). One transaction is
///   under way at a time.
/// - a request that arrives before the transaction under way has started its diff joins it: the
///   target becomes the newest version and its completion is added to the transaction's; one that
///   arrives later waits, with any later ones, for the next transaction, installed when the
///   current one ends — once its batch is applied — and not held by the coalescer again. Every
///   completion of a transaction runs once, when its batch's animation ends (`true` as UIKit
///   reports it) or right after a reload.
/// - the diff runs from the data the updater last applied (IGListAdapter passes its current
///   objects as `fromObjects`) to the newest target: on main or in the background per
///   ``IGListUpdaterConfiguration/diffing``.
/// - a batch with more operations (its `operationCount`, standing for
///   the diff's changes) than ``IGListUpdaterConfiguration/reloadThreshold``, or one that changes
///   sections (``ListVersion/batchUpdate(to:engine:moves:)`` is `nil`), is applied as
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
    let context: UpdaterContext
    let configuration: IGListUpdaterConfiguration
    let queue: UpdaterQueue
    // Main-queue state.
    /// IGListKit's updater; each request carries its completion.
    var machine: IGListUpdateMachine<@Sendable (Bool) -> Void>
    /// The versions requested and not yet passed, by number (the one shown included).
    var versions: [Int: ListVersion]
    /// The data last handed to the data source: the next diff's `fromObjects`.
    var applied: ListVersion

    /// An updater on `context` configured by `configuration`, with a serial background queue.
    ///
    /// - Precondition: `configuration` is valid (``IGListUpdaterConfiguration/validate()``).
    public init(context: UpdaterContext, configuration: IGListUpdaterConfiguration = IGListUpdaterConfiguration()) {
        do throws(UpdaterInputError) { try configuration.validate() } catch { preconditionFailure("IGListAdapterUpdaterModel: \(error)") }
        self.context = context
        self.configuration = configuration
        queue = context.makeSerialQueue(label: "iglistkit.diff")
        applied = context.initial
        versions = [context.initial.number: context.initial]
        machine = IGListUpdateMachine(configuration: configuration, shown: context.initial.number)
    }

    /// A subject for the updater under `configuration`, named `name`.
    ///
    /// - Throws: ``UpdaterInputError`` when `configuration` is out of range.
    public static func subject(configuration: IGListUpdaterConfiguration, name: String) throws(UpdaterInputError) -> UpdaterSubject {
        try configuration.validate()
        return UpdaterSubject(
            name: name, summary: "IGListKit's IGListAdapterUpdater (\(describe(configuration)))",
            make: { IGListAdapterUpdaterModel(context: $0, configuration: configuration) })
    }

    static func checkedSubject(_ configuration: IGListUpdaterConfiguration, _ name: String) -> UpdaterSubject {
        UpdaterSubject(
            name: name, summary: "IGListKit's IGListAdapterUpdater (\(describe(configuration)))",
            make: { IGListAdapterUpdaterModel(context: $0, configuration: configuration) })
    }

    /// `iglistkit`: diffing on main, IGListKit's default (the policy lab's `main`).
    public static let subject = checkedSubject(IGListUpdaterConfiguration(diffing: .main), "iglistkit")
    /// `iglistkit-background`: diffing in the background (the policy lab's `background`).
    public static let backgroundSubject = checkedSubject(IGListUpdaterConfiguration(diffing: .background), "iglistkit-background")
    /// `iglistkit-adaptive`: adaptive diffing (the policy lab's `adaptive`), with a threshold of 4
    /// items so that the fuzzer's small lists (``UpdaterFuzzSettings/standard``: up to 8 items)
    /// take both paths.
    public static let adaptiveSubject = checkedSubject(
        IGListUpdaterConfiguration(diffing: .adaptive(maxItemCountToRunOnMain: 4)), "iglistkit-adaptive")
    /// `iglistkit-coalescing`: background diffing and adaptive coalescing of 50 ms, growing by 25 ms
    /// up to 250 ms (the policy lab's `coalescing`).
    public static let coalescingSubject = checkedSubject(
        IGListUpdaterConfiguration(diffing: .background, coalescing: CoalescingIntervals(minimum: 0.05, increment: 0.025, maximum: 0.25)),
        "iglistkit-coalescing")

    static func describe(_ configuration: IGListUpdaterConfiguration) -> String {
        var parts: [String]
        switch configuration.diffing {
        case .main: parts = ["diffing on main"]
        case .background: parts = ["diffing in the background"]
        case .adaptive(let limit): parts = ["adaptive diffing below \(limit) items"]
        }
        if let c = configuration.coalescing { parts.append("coalescing \(c.minimum)+\(c.increment)…\(c.maximum) s") }
        if let t = configuration.reloadThreshold { parts.append("reload above \(t) changes") }
        return parts.joined(separator: ", ")
    }

    /// The item count of version `number`, for adaptive diffing.
    func itemCount(_ number: Int) -> Int { versions[number]?.itemCount ?? applied.itemCount }

    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        versions[version.number] = version
        switch machine.request(version.number, completion, at: context.now, itemCount: itemCount) {
        case .none:
            break
        case .launch(let update):
            launch(update)
        case .armTimer(let seconds):
            context.main.asyncAfter(seconds: seconds, "coalesced transaction") { [self] in
                if let update = machine.timerFired(at: context.now, itemCount: itemCount) { launch(update) }
            }
        }
    }

    /// Runs a transaction: queued on main, where it diffs and applies, or diffed in the background
    /// at once and applied on main.
    func launch(_ update: IGListUpdateMachine<@Sendable (Bool) -> Void>.Update) {
        let context = self.context
        if update.onMain {
            context.main.async("transaction") { [self] in
                // From now on, requests wait for the next transaction.
                guard let current = machine.startMainDiff(update.id), let target = versions[current.to] else { return }
                apply(current.id, target, batch: applied.batchUpdate(to: target, engine: context.engine))
            }
        } else {
            guard let target = versions[update.to] else { return }
            let from = applied
            queue.async("diff \(from)→\(target)") { [self] in
                let batch = from.batchUpdate(to: target, engine: context.engine)
                context.main.async("apply \(from)→\(target)") { [self] in apply(update.id, target, batch: batch) }
            }
        }
    }

    /// Applies `batch` (or reloads), then ends transaction `id` and launches the next, if any.
    func apply(_ id: Int, _ target: ListVersion, batch: BatchUpdate?) {
        guard let update = machine.transaction, update.id == id else { return }
        let view = context.collectionView
        let completions = update.requests
        if let batch, !configuration.reloads(changes: batch.operationCount) {
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
        // The transaction is over once applied: the next one, if requests wait, is installed now.
        let next = machine.finish(id, applied: true, itemCount: itemCount).next
        for number in versions.keys where number < target.number { versions[number] = nil }
        if let next { launch(next) }
    }
}
