/// The updater apps write by hand: "diff on a background queue, apply on main".
///
/// ```swift
/// func update(to new: [Item]) {
///     let old = items
///     queue.async {
///         let diff = engine.diff(from: old, to: new)
///         DispatchQueue.main.async {
///             collectionView.performBatchUpdates({ self.items = new; apply(diff) })
///         }
///     }
/// }
/// ```
///
/// It is unsafe: when a second request arrives before the first one's batch is applied, both
/// diffs start from the same old data, and the second batch is applied to a view that already
/// shows the first version — UIKit raises "Invalid update: invalid number of items in section 0"
/// (DifferenceKit #132, RxDataSources #321, AdapterDelegates #64). DiffLab finds it
/// (``UpdaterProperty/batchValid``) and shrinks it to two requests.
public final class BackgroundDiffUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let queue: UpdaterQueue
    /// The app's data, as it last handed it to the data source (main queue only).
    var current: ListVersion

    /// An updater on `context`, with a serial background queue of its own.
    public init(context: UpdaterContext) {
        self.context = context
        queue = context.makeSerialQueue(label: "background")
        current = context.initial
    }

    /// The hand-written updater, as a subject.
    public static let subject = UpdaterSubject(
        name: "background-diff", summary: "the hand-written \"diff on a background queue, apply on main\"",
        make: { BackgroundDiffUpdater(context: $0) })

    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let old = current
        let (context, queue) = (self.context, self.queue)
        queue.async("diff \(old)→\(version)") {
            let batch = old.batchUpdate(to: version, engine: context.engine)
            context.main.async("apply \(old)→\(version)") { [self] in
                guard let batch else {
                    current = version
                    context.collectionView.setData(version)
                    context.collectionView.reloadData()
                    completion(true)
                    return
                }
                context.collectionView.performBatchUpdates(
                    batch,
                    updates: {
                        self.current = version
                        context.collectionView.setData(version)
                    }, completion: completion)
            }
        }
    }
}
