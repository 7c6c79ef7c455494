import DiffLabBatch
import DiffLabCore
import DiffLabUpdaters

/// The chat feed's diff, run on its background queue by both of its updaters: the app's own
/// engine (any ``DiffLabCore/ChangesetEngine``: `OccurrenceEngine`, `IGListKitBatchEngine`, …)
/// turned into the one `performBatchUpdates` the feed hands UIKit.
enum ChatFeedDiff {
    /// The batch update that turns `old` into `new`, diffed by `engine`: the engine's own batch
    /// form when it has one, else DiffLab's ``DiffLabCore/DiffResult/forBatchUpdates()`` of its
    /// flat result. `nil` — the caller reloads instead — when either version has other than one
    /// section, their sections differ in identity, the engine gives no answer, or its answer does
    /// not fit the lists' lengths.
    ///
    /// Pure: it reads only its arguments, so it may run on any queue.
    ///
    /// - Complexity: the engine's cost on the two sections' items, plus O(k log k) for its k changes.
    static func batch(from old: ListVersion, to new: ListVersion, engine: any ChangesetEngine) -> BatchUpdate? {
        let (before, after) = (old.data.sections, new.data.sections)
        guard before.count == 1, after.count == 1, before[0].id == after[0].id else { return nil }
        let (a, b) = (before[0].items, after[0].items)
        do {
            let changes = try engine.changes(from: a, to: b, comparison: .equality)
            return BatchUpdate(try changes.checkedBatch(oldCount: a.count, newCount: b.count))
        } catch {
            return nil
        }
    }
}
