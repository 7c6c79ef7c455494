import DiffLabBatch
import DiffLabCore
import DiffLabUpdaters

/// The chat feed's updater as an app team first writes it: diff on a background serial queue with
/// the app's own engine, apply on main.
///
/// ```swift
/// func performUpdate(to version: ListVersion, completion: …) {
///     let old = messages                         // what the data source holds now
///     diffQueue.async {
///         let batch = ChatFeedDiff.batch(from: old, to: version, engine: engine)
///         DispatchQueue.main.async {
///             collectionView.performBatchUpdates(batch, updates: { messages = version; … }, completion: completion)
///         }
///     }
/// }
/// ```
///
/// **It races.** `messages` changes only when a batch is applied, so two requests that arrive
/// before the first batch lands both diff from the same old messages: v0 → v1 and v0 → v2. The
/// first batch takes the view to v1; the second, computed for v0, is then applied to a view that
/// shows v1, and UIKit raises `NSInternalInconsistencyException` ("Invalid update: invalid number
/// of items in section 0 …"). Two messages arriving in quick succession are enough; DiffLab's
/// ``DiffLabUpdaters/UpdaterFuzzer`` finds it (``DiffLabUpdaters/UpdaterProperty/batchValid``)
/// and shrinks it to those two requests. ``SerialChatFeedUpdater`` is the fix.
public final class ChatFeedUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let engine: any ChangesetEngine
    let diffQueue: UpdaterQueue
    /// The messages as the app last handed them to the data source (main queue only).
    var messages: ListVersion

    /// An updater on `context` that diffs with `engine` on a serial queue of its own.
    public init(context: UpdaterContext, engine: any ChangesetEngine) {
        self.context = context
        self.engine = engine
        diffQueue = context.makeSerialQueue(label: "chat-diff")
        messages = context.initial
    }

    /// This updater, diffing with `engine`, as a subject for ``DiffLabUpdaters/UpdaterFuzzer``.
    public static func subject(engine: any ChangesetEngine) -> UpdaterSubject {
        UpdaterSubject(
            name: "chat-feed", summary: "the chat feed's first updater: diff in the background from the data source's messages, apply on main",
            make: { ChatFeedUpdater(context: $0, engine: engine) })
    }

    /// Diffs from the data source's messages on the background queue, then applies on main.
    /// Called on the main queue.
    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let old = messages
        let (context, engine) = (self.context, self.engine)
        diffQueue.async("diff \(old)→\(version)") {
            let batch = ChatFeedDiff.batch(from: old, to: version, engine: engine)
            context.main.async("apply \(old)→\(version)") { [self] in
                let view = context.collectionView
                guard let batch else {
                    messages = version
                    view.setData(version)
                    view.reloadData()
                    completion(true)
                    return
                }
                view.performBatchUpdates(
                    batch,
                    updates: {
                        self.messages = version
                        view.setData(version)
                    }, completion: completion)
            }
        }
    }
}
