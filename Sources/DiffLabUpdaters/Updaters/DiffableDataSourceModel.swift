/// A model of UIKit's `UICollectionViewDiffableDataSource.apply(_:animatingDifferences:completion:)`
/// with an app that applies each new snapshot from the main queue.
///
/// What it models (Apple's reference for `apply(_:animatingDifferences:completion:)` and
/// `applySnapshotUsingReloadData(_:completion:)`, https://developer.apple.com/documentation/uikit/uicollectionviewdiffabledatasource-9tqpa:
/// the data source "computes the difference between the collection view's current state and the
/// new state in the applied snapshot"; the completion is called "from the main queue" when the
/// animations are complete; apply may be called from a background queue only if always from that
/// queue):
/// - applies are serialized: one at a time, in the order asked; an apply asked for while another is
///   under way waits for it;
/// - each apply diffs on the data source's serial queue, from the snapshot last applied (the
///   data source's own state, never the app's) to the new one, then applies on main:
///   `performBatchUpdates` with the new snapshot handed to the data source inside;
/// - the next apply begins once the previous one's batch is applied; each apply's completion runs
///   when its animation ends.
///
/// Simplified: a snapshot whose sections change is applied as a reload (the real data source
/// stages section changes itself); `reconfigureItems`, section snapshots and the
/// background-queue calling convention are not modelled (the app here always applies from main).
///
/// Serialized and diffing from what it applied, it is safe.
public final class DiffableDataSourceModel: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let queue: UpdaterQueue
    // Main-queue state.
    /// The snapshot last applied.
    var applied: ListVersion
    /// Applies waiting for the one under way, in order.
    var waiting: [(version: ListVersion, completion: @Sendable (Bool) -> Void)] = []
    var waitingHead = 0
    var busy = false

    /// A data source on `context`, with its serial diffing queue.
    public init(context: UpdaterContext) {
        self.context = context
        queue = context.makeSerialQueue(label: "diffable.apply")
        applied = context.initial
    }

    /// `diffable`.
    public static let subject = UpdaterSubject(
        name: "diffable", summary: "UIKit's diffable data source apply, serialized", make: { DiffableDataSourceModel(context: $0) })

    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        waiting.append((version, completion))
        if !busy { startNext() }
    }

    /// Starts the oldest waiting apply, if any: diff on the serial queue, apply on main.
    func startNext() {
        guard waitingHead < waiting.count else {
            busy = false
            waiting.removeAll()
            waitingHead = 0
            return
        }
        busy = true
        let (target, completion) = waiting[waitingHead]
        waitingHead += 1
        let from = applied
        let context = self.context
        queue.async("diff snapshot \(from)→\(target)") { [self] in
            let batch = from.batchUpdate(to: target, engine: context.engine)
            context.main.async("apply snapshot \(target)") { [self] in
                let view = context.collectionView
                if let batch {
                    view.performBatchUpdates(
                        batch,
                        updates: {
                            view.setData(target)
                            applied = target
                        }, completion: completion)
                } else {
                    view.setData(target)
                    applied = target
                    view.reloadData()
                    completion(true)
                }
                startNext()
            }
        }
    }
}
