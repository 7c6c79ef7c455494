import DiffLabCore

/// One stage of a ``StagedChangeset``: a batch update and the data the data source must hold
/// while it is performed.
public struct ChangesetStage<SectionID: Hashable, Element: Diffable> {
    /// The model after this stage: what the data source returns during this stage's batch update.
    public var data: SectionedList<SectionID, Element>
    /// The batch update that takes the previous stage's data (or the old model) to ``data``.
    public var changes: BatchUpdate

    /// A stage that performs `changes` while the data source holds `data`.
    @inlinable
    public init(data: SectionedList<SectionID, Element>, changes: BatchUpdate) {
        self.data = data
        self.changes = changes
    }
}

extension StagedChangeset {
    /// The same stages with every item of their data mapped by `transform` (the changes are
    /// index-based and stay as they are).
    ///
    /// - Complexity: O(items in all stages).
    @inlinable
    public func mapElements<T: Diffable>(_ transform: (Element) throws -> T) rethrows -> StagedChangeset<SectionID, T> {
        StagedChangeset<SectionID, T>(
            stages: try stages.map { ChangesetStage(data: try $0.data.mapElements(transform), changes: $0.changes) })
    }
}

/// A sectioned diff split into stages that are each a valid UIKit batch update on their own
/// intermediate data, in the manner of DifferenceKit's `StagedChangeset`.
///
/// Sections have identifiers and items; items may move between sections. One batch update cannot
/// express every such change (a section move with item changes inside it is invalid, reloads
/// collide with moves), so the diff is performed in up to four stages, each skipped when empty:
/// 1. **updates** — paired items whose content changed are reloaded in place;
/// 2. **deletes** — sections without a partner and unpaired items of surviving sections are
///    deleted;
/// 3. **sections** — new sections are inserted (with all their items) and surviving sections
///    moved to their new order (the fewest moves: a longest increasing run stays put);
/// 4. **items** — unpaired new items are inserted and paired items moved to their new index
///    paths, across sections too (per section, a longest increasing run of items stays put).
///
/// The last stage's data equals the new model. Sections pair by identifier and items pair across
/// all surviving sections (the items of a deleted section are deleted with it; the items of an
/// inserted section arrive with it), both by the engine chosen, so any engine drives the pairing.
public struct StagedChangeset<SectionID: Hashable, Element: Diffable> {
    /// The stages, in order; empty when the models are equal.
    public var stages: [ChangesetStage<SectionID, Element>]

    /// A changeset of the given stages, taken as they are (nothing is checked).
    @inlinable
    public init(stages: [ChangesetStage<SectionID, Element>]) { self.stages = stages }

    /// Computes the stages that turn `old` into `new`.
    ///
    /// Generic over the engine, so a concrete engine's pairing is specialized for `Element`.
    ///
    /// - Parameters:
    ///   - old: the sectioned list before the change.
    ///   - new: the sectioned list after the change.
    ///   - engine: any pairing engine; pairs sections (by identifier) and items (across surviving
    ///     sections).
    ///   - comparison: how a paired item is judged updated.
    /// - Precondition: the engine's matchings satisfy ``Matching``'s invariants (an engine that
    ///   breaks them may trap here: the fuzzer isolates the crash and reports it, and its
    ///   `raw-sound` property names the broken invariant).
    /// - Complexity: the engine's cost on the sections and on all items, plus O(n log n).
    @inlinable
    public init<Engine: DiffEngine>(
        from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>,
        engine: Engine, comparison: ComparisonOption = .equality
    ) {
        stages = []
        // Pair sections by identifier.
        let sectionMatching = engine.matching(
            from: old.sections.map { _SectionKey(id: $0.id) }, to: new.sections.map { _SectionKey(id: $0.id) },
            comparison: .equality)
        // Pair items across surviving sections: flatten them, keeping each item's index path.
        var oldPaths: [ItemIndexPath] = []
        var oldItems: [Element] = []
        for (s, section) in old.sections.enumerated() where sectionMatching.oldToNew[s] >= 0 {
            for (i, item) in section.items.enumerated() {
                oldPaths.append(ItemIndexPath(section: s, item: i))
                oldItems.append(item)
            }
        }
        var newPaths: [ItemIndexPath] = []
        var newItems: [Element] = []
        for (t, section) in new.sections.enumerated() where sectionMatching.newToOld[t] >= 0 {
            for (j, item) in section.items.enumerated() {
                newPaths.append(ItemIndexPath(section: t, item: j))
                newItems.append(item)
            }
        }
        let itemMatching = engine.matching(from: oldItems, to: newItems, comparison: comparison)

        // Stage 1: reload updated items in place.
        var data = old
        var reloads: [ItemIndexPath] = []
        for (n, o) in itemMatching.newToOld.enumerated() where o >= 0 && itemMatching.updated[n] {
            reloads.append(oldPaths[o])
            data.sections[oldPaths[o].section].items[oldPaths[o].item] = newItems[n]
        }
        append(data: data, from: old, BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], reloadItems: reloads))

        // Stage 2: delete unpaired sections and unpaired items of surviving sections.
        let previous = data
        let deletedSections = old.sections.indices.filter { sectionMatching.oldToNew[$0] < 0 }
        let deletedItems = itemMatching.oldToNew.indices.filter { itemMatching.oldToNew[$0] < 0 }.map { oldPaths[$0] }
        var survivingItems = previous.sections.map { $0.items.map { Optional($0) } }
        for path in deletedItems { survivingItems[path.section][path.item] = nil }
        // Where each old item lives after stage 2 (section index in stage 2's data, item index).
        var stagedPath = [ItemIndexPath](repeating: ItemIndexPath(section: -1, item: -1), count: oldPaths.count)
        var flat = 0
        var stage2Section = [Int](repeating: -1, count: old.sections.count)
        data = SectionedList([])
        for s in old.sections.indices where sectionMatching.oldToNew[s] >= 0 {
            stage2Section[s] = data.sections.count
            var kept: [Element] = []
            for item in survivingItems[s] {
                if let item {
                    stagedPath[flat] = ItemIndexPath(section: data.sections.count, item: kept.count)
                    kept.append(item)
                }
                flat += 1
            }
            data.sections.append(.init(id: old.sections[s].id, items: kept))
        }
        append(
            data: data, from: previous,
            BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], deleteSections: deletedSections, deleteItems: deletedItems))

        // Stage 3: insert new sections, move surviving ones into the new order.
        let stage2 = data
        var survivingToNew = Matching(oldCount: stage2.sections.count, newCount: new.sections.count)
        for (t, s) in sectionMatching.newToOld.enumerated() where s >= 0 {
            survivingToNew.pair(old: stage2Section[s], new: t)
        }
        let sectionDiff = DiffResult(matching: survivingToNew, moves: .minimal)
        data = SectionedList(
            new.sections.indices.map { t in
                let s = survivingToNew.newToOld[t]
                return s >= 0 ? stage2.sections[s] : new.sections[t]
            })
        append(
            data: data, from: stage2,
            BatchUpdate(
                itemCountsBefore: [], itemCountsAfter: [], insertSections: sectionDiff.inserts,
                moveSections: sectionDiff.moves.map { SectionMove(from: $0.from, to: $0.to) }))

        // Stage 4: insert new items, move paired items to their new index paths. Sections now
        // have their new indices, so an item staying in section t was in section t of stage 3.
        let stage3Section = survivingToNew.oldToNew  // stage-2 section → stage-3 (= new) section
        var inserts: [ItemIndexPath] = []
        var moves: [IndexPathMove] = []
        var start = 0
        while start < newPaths.count {
            let t = newPaths[start].section
            var end = start
            while end < newPaths.count && newPaths[end].section == t { end += 1 }
            // Items of new section t, with where they are in stage 3 (nil: inserted).
            var sources: [ItemIndexPath?] = []
            for n in start..<end {
                let o = itemMatching.newToOld[n]
                if o < 0 {
                    sources.append(nil)
                } else {
                    let p = stagedPath[o]
                    sources.append(ItemIndexPath(section: stage3Section[p.section], item: p.item))
                }
            }
            // Items already in section t keep a longest increasing run in place.
            var local = Matching(oldCount: data.sections[t].items.count, newCount: end - start)
            for (j, source) in sources.enumerated() {
                if let source, source.section == t { local.pair(old: source.item, new: j) }
            }
            let stays = DiffResult(matching: local, moves: .minimal)
            let moved = Set(stays.moves.map { $0.to })
            for (j, source) in sources.enumerated() {
                let destination = ItemIndexPath(section: t, item: j)
                guard let source else {
                    inserts.append(destination)
                    continue
                }
                if source.section != t || moved.contains(j) {
                    moves.append(IndexPathMove(from: source, to: destination))
                }
            }
            start = end
        }
        append(
            data: new, from: data,
            BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], insertItems: inserts, moveItems: moves))
    }

    /// Appends a stage unless its update is empty, filling in the item counts.
    @usableFromInline
    mutating func append(
        data: SectionedList<SectionID, Element>, from previous: SectionedList<SectionID, Element>, _ changes: BatchUpdate
    ) {
        guard !changes.isEmpty else { return }
        var changes = changes.normalized()
        changes.itemCountsBefore = previous.itemCounts
        changes.itemCountsAfter = data.itemCounts
        stages.append(ChangesetStage(data: data, changes: changes))
    }
}

/// A section as the engines see it: its identifier, content always equal.
@usableFromInline
struct _SectionKey<ID: Hashable>: Diffable {
    @usableFromInline var id: ID
    @inlinable init(id: ID) { self.id = id }
    @inlinable var diffIdentifier: ID { id }
    @inlinable func isContentEqual(to other: _SectionKey) -> Bool { true }
}
