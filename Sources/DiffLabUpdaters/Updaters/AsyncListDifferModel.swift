import DiffLabBatch
import DiffLabCore

/// A model of Android's `AsyncListDiffer.submitList(newList, commitCallback)` (and `ListAdapter`,
/// which wraps it), with the collection view standing in for the `RecyclerView.Adapter`.
///
/// What it models (Android's reference for `AsyncListDiffer`,
/// https://developer.android.com/reference/androidx/recyclerview/widget/AsyncListDiffer: "computes
/// differences in list contents via DiffUtil on a background thread as new Lists are received";
/// "Diff results will be dispatched to the ListUpdateCallback immediately before the current list
/// is updated"; `commitCallback`: "Optional runnable that is executed when the List is committed,
/// if it is committed"; `AsyncDifferConfig.Builder.setBackgroundThreadExecutor`: by default a
/// two-thread pool shared by all differs):
/// - each submit increments a generation counter (`maxScheduledGeneration`) and diffs, on the
///   background executor (here the global concurrent queue: diffs may finish in any order), the
///   current list as it is on main at the submit against the new one;
/// - back on main, the result is applied only if its generation is still the latest: the adapter
///   is notified (a batch update, the new list handed to the data source inside it) and the commit
///   callback runs; otherwise the result is dropped. It promises
///   ``UpdaterPromises/dropsSupersededDiffs``.
/// - Android sets a first list, and clears one to `null`, without a diff (`onInserted(0, size)`,
///   `onRemoved(0, size)`); this model has no null list and does the same when the current list or
///   the new one is empty: at once, on main, a batch of whole-range inserts or deletes (a new
///   generation too, so diffs still running are dropped).
///
/// The commit callback of a superseded list is documented as not run ("if it is committed"). The
/// updater contract asks every completion to run exactly once, so this model — DiffLab's adapter
/// of that contract, not Android's behaviour — calls a dropped request's completion with `false`
/// when its result is dropped.
///
/// Simplified: DiffUtil's payloads and move detection options, `getCurrentList` identity checks
/// (submitting the same list object again is a no-op on Android), and `ListListener`s are left out.
public final class AsyncListDifferModel: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    // Main-queue state.
    /// The list the adapter shows (`mList`).
    var current: ListVersion
    /// The generation of the latest submit (`mMaxScheduledGeneration`).
    var maxScheduledGeneration = 0

    /// A differ on `context`, diffing on the global queue.
    public init(context: UpdaterContext) {
        self.context = context
        current = context.initial
    }

    /// `async-list-differ`.
    public static let subject = UpdaterSubject(
        name: "async-list-differ", summary: "Android's AsyncListDiffer.submitList, with its generation check",
        promises: UpdaterPromises(dropsSupersededDiffs: true), make: { AsyncListDifferModel(context: $0) })

    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        maxScheduledGeneration += 1
        let generation = maxScheduledGeneration
        let old = current
        let oneSection = old.data.sections.count == 1 && version.data.sections.count == 1 && old.data.sections[0].id == version.data.sections[0].id
        if oneSection && (old.itemCount == 0 || version.itemCount == 0) {
            // Android's first-list / null-list path: no diff.
            let all = { (count: Int) in (0..<count).map { ItemIndexPath(section: 0, item: $0) } }
            let batch = BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], insertItems: all(version.itemCount), deleteItems: all(old.itemCount))
            latch(version, batch: batch, completion: completion)
            return
        }
        let context = self.context
        context.global.async("diff \(old)→\(version) (generation \(generation))") { [self] in
            let batch = old.batchUpdate(to: version, engine: context.engine)
            context.main.async("latch \(version) if generation \(generation) is the latest") { [self] in
                guard generation == maxScheduledGeneration else {
                    completion(false)
                    return
                }
                latch(version, batch: batch, completion: completion)
            }
        }
    }

    /// Makes `version` the current list, notifies the adapter (`reloadData` when the sections
    /// differ) and runs the commit callback.
    func latch(_ version: ListVersion, batch: BatchUpdate?, completion: @Sendable (Bool) -> Void) {
        let view = context.collectionView
        if let batch {
            view.performBatchUpdates(
                batch,
                updates: {
                    current = version
                    view.setData(version)
                })
        } else {
            current = version
            view.setData(version)
            view.reloadData()
        }
        completion(true)
    }
}
