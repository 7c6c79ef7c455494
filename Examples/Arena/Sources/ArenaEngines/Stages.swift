import DiffLabBatch
import DiffLabCore

/// One performBatchUpdates call as a library's UIKit extension makes it: the section and item
/// operations, in the library's own index spaces, taken as they are.
struct LibraryBatch {
    var deleteSections: [Int] = []
    var insertSections: [Int] = []
    var reloadSections: [Int] = []
    var moveSections: [(from: Int, to: Int)] = []
    var deleteItems: [ItemIndexPath] = []
    var insertItems: [ItemIndexPath] = []
    var reloadItems: [ItemIndexPath] = []
    var moveItems: [(from: ItemIndexPath, to: ItemIndexPath)] = []

    /// The stage: this batch performed while the data source holds `data`, after `previous`.
    func stage<SectionID: Hashable, Element: Diffable>(
        after previous: SectionedList<SectionID, Element>, data: SectionedList<SectionID, Element>
    ) -> ChangesetStage<SectionID, Element> {
        ChangesetStage(
            data: data,
            changes: BatchUpdate(
                itemCountsBefore: previous.itemCounts, itemCountsAfter: data.itemCounts, insertSections: insertSections,
                deleteSections: deleteSections, reloadSections: reloadSections,
                moveSections: moveSections.map { SectionMove(from: $0.from, to: $0.to) }, insertItems: insertItems,
                deleteItems: deleteItems, reloadItems: reloadItems,
                moveItems: moveItems.map { IndexPathMove(from: $0.from, to: $0.to) }))
    }

    /// The flat stage of a batch on one section, `oldCount` items before and `newCount` after: the
    /// items' indices, whatever section the library named (on flat input every adapter gives its
    /// library one section).
    ///
    /// UIKit reloads an item at its index *before* the update; DiffLab's flat result also names
    /// where the item lands. That is worked out by UIKit's rule: a moved item lands at its move's
    /// destination; the other surviving items keep their order in the places no insert or move
    /// takes. A reload whose item cannot land (out of range, deleted) keeps its own index as the
    /// destination, and the fuzzer reports what the library said.
    func flatChanges(oldCount: Int, newCount: Int) -> EngineResult {
        let inserts = insertItems.map(\.item)
        let deletes = deleteItems.map(\.item)
        let moves = moveItems.map { Move(from: $0.from.item, to: $0.to.item) }
        var landing = [Int](repeating: -1, count: max(oldCount, 0))
        var taken = [Bool](repeating: false, count: max(newCount, 0))
        var leaves = [Bool](repeating: false, count: landing.count)
        for i in inserts where taken.indices.contains(i) { taken[i] = true }
        for d in deletes where leaves.indices.contains(d) { leaves[d] = true }
        for m in moves where leaves.indices.contains(m.from) && taken.indices.contains(m.to) {
            leaves[m.from] = true
            taken[m.to] = true
            landing[m.from] = m.to
        }
        var slot = 0
        for o in landing.indices where !leaves[o] {
            while slot < taken.count && taken[slot] { slot += 1 }
            guard slot < taken.count else { break }
            landing[o] = slot
            slot += 1
        }
        let updates = reloadItems.map { path in
            Update(from: path.item, to: landing.indices.contains(path.item) && landing[path.item] >= 0 ? landing[path.item] : path.item)
        }
        return EngineResult(inserts: inserts, deletes: deletes, updates: updates, moves: moves)
    }
}

extension EngineChanges {
    /// A library answered in stages only: its stages as they are, and their net effect as the flat
    /// result (``EngineResult/init(composing:oldCount:)``). When a stage does not add up there is
    /// no net effect: the flat result is then an insert at index −1, which the fuzzer reports as
    /// malformed beside the stage's own failure (`staged-valid` names the stage).
    static func staged(_ stages: [EngineStage<Element>], oldCount: Int) -> EngineChanges {
        let net = (try? EngineResult(composing: stages, oldCount: oldCount)) ?? EngineResult(inserts: [-1])
        return EngineChanges(result: net, stages: stages)
    }
}
