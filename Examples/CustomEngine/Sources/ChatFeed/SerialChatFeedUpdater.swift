import DiffLabBatch
import DiffLabCore
import DiffLabUpdaters

/// The chat feed's updater, fixed: one diff in flight at a time, always from the messages last
/// **applied**, and requests that arrive meanwhile coalesced into the newest.
///
/// A batch update is valid only for the list it was diffed from. ``ChatFeedUpdater`` diffs every
/// request from the data source's messages at the time of the request, so two diffs in flight
/// share a base and the second lands on a view the first already changed. Here:
///
/// 1. A request when no diff is in flight starts one, from `applied` (what the data source and
///    the view hold) to the requested version, on the background queue.
/// 2. A request while a diff is in flight waits as `pending`; a later one replaces it (the
///    intermediate version is never diffed or shown) and its completion joins the newer one's.
/// 3. On main, the finished diff is applied; nothing else touched the view since it started, so
///    its base is still what the view shows and the batch is valid. Then the pending request, if
///    any, starts from the version just applied.
///
/// Every completion runs once: with the batch's completion for the version it asked for, or for
/// the newer version it was coalesced into (the view then shows a newer version, which the
/// contract allows). It does not promise to drop superseded diffs: a diff already in flight is
/// applied even when a newer request arrived meanwhile (its result is valid, and the newer one
/// follows at once). The cost: under a stream of requests one diff runs at a time, and versions
/// between two diffs are skipped.
public final class SerialChatFeedUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let engine: any ChangesetEngine
    let diffQueue: UpdaterQueue
    /// The messages the data source holds and the view shows, as last applied (main queue only).
    var applied: ListVersion
    /// Whether a diff is on the background queue or waiting to be applied (main queue only).
    var diffing = false
    /// The newest request that arrived while a diff was in flight, with the completions of every
    /// request coalesced into it (main queue only).
    var pending: (version: ListVersion, completions: [@Sendable (Bool) -> Void])?

    /// An updater on `context` that diffs with `engine` on a serial queue of its own.
    public init(context: UpdaterContext, engine: any ChangesetEngine) {
        self.context = context
        self.engine = engine
        diffQueue = context.makeSerialQueue(label: "chat-diff")
        applied = context.initial
    }

    /// This updater, diffing with `engine`, as a subject for ``DiffLabUpdaters/UpdaterFuzzer``.
    public static func subject(engine: any ChangesetEngine) -> UpdaterSubject {
        UpdaterSubject(
            name: "chat-feed-serial",
            summary: "the chat feed's fixed updater: one diff in flight from the applied messages, later requests coalesced",
            make: { SerialChatFeedUpdater(context: $0, engine: engine) })
    }

    /// Starts a diff to `version`, or coalesces it into the pending request while one is in
    /// flight. Called on the main queue.
    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        guard !diffing else {
            pending = (version, (pending?.completions ?? []) + [completion])
            return
        }
        startDiff(to: version, completions: [completion])
    }

    /// Diffs from `applied` to `target` in the background, applies on main, then starts the
    /// pending request. Main queue only.
    func startDiff(to target: ListVersion, completions: [@Sendable (Bool) -> Void]) {
        diffing = true
        let base = applied
        let (context, engine) = (self.context, self.engine)
        diffQueue.async("diff \(base)→\(target)") {
            let batch = ChatFeedDiff.batch(from: base, to: target, engine: engine)
            context.main.async("apply \(base)→\(target)") { [self] in
                apply(batch, target: target, completions: completions)
                diffing = false
                if let next = pending {
                    pending = nil
                    startDiff(to: next.version, completions: next.completions)
                }
            }
        }
    }

    /// Hands `target` to the data source and brings the view to it: with `batch`, or by a reload
    /// when there is none. Main queue only.
    func apply(_ batch: BatchUpdate?, target: ListVersion, completions: [@Sendable (Bool) -> Void]) {
        let view = context.collectionView
        applied = target
        guard let batch else {
            view.setData(target)
            view.reloadData()
            for completion in completions { completion(true) }
            return
        }
        view.performBatchUpdates(
            batch, updates: { view.setData(target) },
            completion: { finished in
                for completion in completions { completion(finished) }
            })
    }
}
