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
    /// - Complexity: the engine's cost on the sections and on all items, plus O(n log s) for n
    /// items in s sections, and O(k log k) for each new section of k items some of whose
    /// staying items change order (a section whose staying items keep their order, as when
    /// nothing changes or items are appended, updated or deleted, costs O(k)). A single
    /// surviving section's items are not copied to be paired.
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
        // Pair items across surviving sections: flatten them (a single surviving section is
        // shared, not copied), and keep where each section starts, to find an item's index path.
        let oldFlat = _FlatSections(old.sections.indices.filter { sectionMatching.oldToNew[$0] >= 0 }) { old.sections[$0].items.count }
        let newFlat = _FlatSections(new.sections.indices.filter { sectionMatching.newToOld[$0] >= 0 }) { new.sections[$0].items.count }
        let oldItems = oldFlat.items { old.sections[$0].items }
        let newItems = newFlat.items { new.sections[$0].items }
        let itemMatching = engine.matching(from: oldItems, to: newItems, comparison: comparison)

        // Stage 1: reload updated items in place.
        var data = old
        var reloads: [ItemIndexPath] = []
        for (n, o) in itemMatching.newToOld.enumerated() where o >= 0 && itemMatching.updated[n] {
            let path = oldFlat.path(o)
            reloads.append(path)
            data.sections[path.section].items[path.item] = newItems[n]
        }
        append(data: data, from: old, BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], reloadItems: reloads))

        // Stage 2: delete unpaired sections and unpaired items of surviving sections.
        let previous = data
        let deletedSections = old.sections.indices.filter { sectionMatching.oldToNew[$0] < 0 }
        let deletedItems = itemMatching.oldToNew.indices.filter { itemMatching.oldToNew[$0] < 0 }.map { oldFlat.path($0) }
        // Where each old item lives after stage 2 (section index in stage 2's data, item index):
        // with nothing deleted, where it was.
        let nothingDeleted = deletedSections.isEmpty && deletedItems.isEmpty
        var stagedPaths: [ItemIndexPath] = []
        var stage2Section = [Int](repeating: -1, count: old.sections.count)
        if nothingDeleted {
            for s in old.sections.indices { stage2Section[s] = s }
        } else {
            var survivingItems = previous.sections.map { $0.items.map { Optional($0) } }
            for path in deletedItems { survivingItems[path.section][path.item] = nil }
            stagedPaths = [ItemIndexPath](repeating: ItemIndexPath(section: -1, item: -1), count: oldItems.count)
            var flat = 0
            data = SectionedList([])
            for s in old.sections.indices where sectionMatching.oldToNew[s] >= 0 {
                stage2Section[s] = data.sections.count
                var kept: [Element] = []
                for item in survivingItems[s] {
                    if let item {
                        stagedPaths[flat] = ItemIndexPath(section: data.sections.count, item: kept.count)
                        kept.append(item)
                    }
                    flat += 1
                }
                data.sections.append(.init(id: old.sections[s].id, items: kept))
            }
        }
        @inline(__always) func stagedPath(_ o: Int) -> ItemIndexPath { nothingDeleted ? oldFlat.path(o) : stagedPaths[o] }
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
        for k in newFlat.sections.indices {
            let t = newFlat.sections[k]
            let range = newFlat.starts[k]..<newFlat.starts[k + 1]
            // Where item n of new section t is in stage 3 (nil: inserted).
            @inline(__always) func source(_ n: Int) -> ItemIndexPath? {
                let o = itemMatching.newToOld[n]
                if o < 0 { return nil }
                let p = stagedPath(o)
                return ItemIndexPath(section: stage3Section[p.section], item: p.item)
            }
            // Items already in section t keep a longest increasing run in place; when they are
            // already in order (no change, appends, updates, deletes), that run is all of them.
            var inOrder = true
            var last = -1
            for n in range {
                guard let p = source(n), p.section == t else { continue }
                if p.item <= last {
                    inOrder = false
                    break
                }
                last = p.item
            }
            var moved = Set<Int>()
            if !inOrder {
                var local = Matching(oldCount: data.sections[t].items.count, newCount: range.count)
                for n in range {
                    if let p = source(n), p.section == t { local.pair(old: p.item, new: n - range.lowerBound) }
                }
                moved = Set(DiffResult(matching: local, moves: .minimal).moves.map { $0.to })
            }
            for n in range {
                let j = n - range.lowerBound
                let destination = ItemIndexPath(section: t, item: j)
                guard let p = source(n) else {
                    inserts.append(destination)
                    continue
                }
                if p.section != t || moved.contains(j) { moves.append(IndexPathMove(from: p, to: destination)) }
            }
        }
        append(
            data: new, from: data,
            BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], insertItems: inserts, moveItems: moves))
    }

    /// Appends a stage that turns `previous` into `data` by `changes`, with `changes`' item counts
    /// taken from the two; nothing when `changes` is empty.
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

/// The surviving sections of a sectioned list, flattened: which sections, in order, and where
/// each starts in the flat list of their items.
@usableFromInline
struct _FlatSections {
    /// The sections' indices, ascending.
    @usableFromInline let sections: [Int]
    /// `starts[k]`: the flat index of section `sections[k]`'s first item; one more entry, the
    /// item count.
    @usableFromInline let starts: [Int]

    /// - Complexity: O(sections).
    @inlinable
    init(_ sections: [Int], count: (Int) -> Int) {
        self.sections = sections
        var starts = [0]
        starts.reserveCapacity(sections.count + 1)
        for s in sections { starts.append(starts[starts.count - 1] + count(s)) }
        self.starts = starts
    }

    /// The items of every section, in order: one section's own array (shared, not copied), or
    /// their concatenation.
    ///
    /// - Complexity: O(1) for one section, else O(items).
    @inlinable
    func items<Element>(_ of: (Int) -> [Element]) -> [Element] {
        if sections.count == 1 { return of(sections[0]) }
        var items: [Element] = []
        items.reserveCapacity(starts[starts.count - 1])
        for s in sections { items.append(contentsOf: of(s)) }
        return items
    }

    /// The index path of flat item `flat`.
    ///
    /// - Complexity: O(log sections).
    @inlinable
    func path(_ flat: Int) -> ItemIndexPath {
        var low = 0
        var high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= flat { low = mid } else { high = mid - 1 }
        }
        return ItemIndexPath(section: sections[low], item: flat - starts[low])
    }
}
