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
    /// - Complexity: the engine's cost on the sections and on all items, plus O(n log n) for n
    ///   items; with one surviving section on each side whose paired items keep their order, a
    ///   few passes over the pairing, O(n); with S surviving sections, O(n log S) to find each
    ///   item's section, plus O(S log S) when the sections change order. One surviving section is
    ///   paired through its own item array (not copied); sections that lose no item keep theirs in
    ///   the deletes stage; a section with a reload is copied whole once for the updates stage's
    ///   data, which is the staging's own linear pass.
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
        // Pair items across surviving sections: the surviving sections' items, one after the
        // other (one section's own array when only one survives: no copy).
        let oldSpans = _SectionSpans(old, surviving: sectionMatching.oldToNew)
        let newSpans = _SectionSpans(new, surviving: sectionMatching.newToOld)
        let newItems = newSpans.items(of: new)
        let itemMatching = engine.matching(from: oldSpans.items(of: old), to: newItems, comparison: comparison)

        // Stage 1: reload updated items in place. A section with a reload is copied once (its
        // items are shared with the old model) and written in place.
        var data = old
        var reloads: [ItemIndexPath] = []
        for span in oldSpans.spans.indices {
            let (s, start, end) = (oldSpans.spans[span], oldSpans.starts[span], oldSpans.starts[span + 1])
            guard let first = Self._firstReload(itemMatching, in: start..<end) else { continue }
            var items = data.sections[s].items
            items.withUnsafeMutableBufferPointer { items in
                itemMatching.oldToNew.withUnsafeBufferPointer { oldToNew in
                    itemMatching.updated.withUnsafeBufferPointer { updated in
                        newItems.withUnsafeBufferPointer { newItems in
                            for o in first..<end {
                                let n = oldToNew[o]
                                if n >= 0 && updated[n] {
                                    reloads.append(ItemIndexPath(section: s, item: o - start))
                                    items[o - start] = newItems[n]
                                }
                            }
                        }
                    }
                }
            }
            data.sections[s].items = items
        }
        append(data: data, from: old, BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], reloadItems: reloads))

        // Stage 2: delete unpaired sections and unpaired items of surviving sections. Stage 2's
        // sections are the surviving ones in order: old section `oldSpans.spans[i]` is section i.
        let previous = data
        let deletedSections = old.sections.indices.filter { sectionMatching.oldToNew[$0] < 0 }
        var deletedItems: [ItemIndexPath] = []
        // Where each surviving old item is in its stage-2 section; built only when an item is
        // deleted (otherwise it is the item's index in its old section).
        var stagedItem: [Int] = []
        itemMatching.oldToNew.withUnsafeBufferPointer { oldToNew in
            for span in oldSpans.spans.indices {
                let (s, start, end) = (oldSpans.spans[span], oldSpans.starts[span], oldSpans.starts[span + 1])
                for o in start..<end where oldToNew[o] < 0 { deletedItems.append(ItemIndexPath(section: s, item: o - start)) }
            }
        }
        // Nothing deleted: stage 2's data is stage 1's (no new section array).
        if !deletedSections.isEmpty || !deletedItems.isEmpty {
            var sections: [SectionedList<SectionID, Element>.Section] = []
            sections.reserveCapacity(oldSpans.spans.count)
            for span in oldSpans.spans.indices {
                let (s, start, end) = (oldSpans.spans[span], oldSpans.starts[span], oldSpans.starts[span + 1])
                let deleted = itemMatching.oldToNew[start..<end].reduce(0) { $1 < 0 ? $0 + 1 : $0 }
                if deleted == 0 {
                    // Nothing deleted here: the section keeps its items (shared, not copied).
                    sections.append(previous.sections[s])
                    if !stagedItem.isEmpty { stagedItem.append(contentsOf: 0..<(end - start)) }
                    continue
                }
                if stagedItem.isEmpty {
                    stagedItem.reserveCapacity(oldSpans.starts[oldSpans.spans.count])
                    for earlier in 0..<span { stagedItem.append(contentsOf: 0..<(oldSpans.starts[earlier + 1] - oldSpans.starts[earlier])) }
                }
                var kept: [Element] = []
                kept.reserveCapacity(end - start - deleted)
                for o in start..<end {
                    if itemMatching.oldToNew[o] >= 0 {
                        stagedItem.append(kept.count)
                        kept.append(previous.sections[s].items[o - start])
                    } else {
                        stagedItem.append(-1)
                    }
                }
                sections.append(.init(id: old.sections[s].id, items: kept))
            }
            data = SectionedList(sections)
            append(
                data: data, from: previous,
                BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], deleteSections: deletedSections, deleteItems: deletedItems))
        }

        // Stage 3: insert new sections, move surviving ones into the new order. Nothing to do
        // when every section pairs with the one at its own index.
        let stage3Section: [Int]  // stage-2 section → stage-3 (= new) section
        if old.sections.count == new.sections.count && sectionMatching.oldToNew.indices.allSatisfy({ sectionMatching.oldToNew[$0] == $0 }) {
            stage3Section = sectionMatching.oldToNew
        } else {
            let stage2 = data
            var survivingToNew = Matching(oldCount: stage2.sections.count, newCount: new.sections.count)
            for (i, s) in oldSpans.spans.enumerated() { survivingToNew.pair(old: i, new: sectionMatching.oldToNew[s]) }
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
            stage3Section = survivingToNew.oldToNew
        }

        // Stage 4: insert new items, move paired items to their new index paths. Sections now
        // have their new indices, so an item staying in section t was in section t of stage 3.
        // Where old item o is in stage 3.
        func source(_ o: Int) -> ItemIndexPath {
            let span = oldSpans.span(of: o)
            return ItemIndexPath(section: stage3Section[span], item: stagedItem.isEmpty ? o - oldSpans.starts[span] : stagedItem[o])
        }
        var inserts: [ItemIndexPath] = []
        var moves: [IndexPathMove] = []
        // One section on each side (they pair): its items staying in order is the new-to-old
        // pairing increasing (stage 2 keeps the old order), and then only inserts remain.
        if oldSpans.spans.count == 1 && newSpans.spans.count == 1,
            let t = newSpans.spans.first, Self._pairsInOrder(itemMatching.newToOld)
        {
            itemMatching.newToOld.withUnsafeBufferPointer { newToOld in
                for n in newToOld.indices where newToOld[n] < 0 { inserts.append(ItemIndexPath(section: t, item: n)) }
            }
            append(data: new, from: data, BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], insertItems: inserts))
            return
        }
        for span in newSpans.spans.indices {
            let (t, start, end) = (newSpans.spans[span], newSpans.starts[span], newSpans.starts[span + 1])
            // Items already in section t keep a longest increasing run in place: all of them
            // when they keep their order (the common case, checked first), so only the items
            // that change section move.
            var inOrder = true
            var last = -1
            for n in start..<end {
                let o = itemMatching.newToOld[n]
                guard o >= 0 else { continue }
                let from = source(o)
                if from.section == t {
                    if from.item <= last {
                        inOrder = false
                        break
                    }
                    last = from.item
                }
            }
            var moved: Set<Int> = []
            if !inOrder {
                var local = Matching(oldCount: data.sections[t].items.count, newCount: end - start)
                for n in start..<end where itemMatching.newToOld[n] >= 0 {
                    let from = source(itemMatching.newToOld[n])
                    if from.section == t { local.pair(old: from.item, new: n - start) }
                }
                moved = Set(DiffResult(matching: local, moves: .minimal).moves.map { $0.to })
            }
            for n in start..<end {
                let destination = ItemIndexPath(section: t, item: n - start)
                let o = itemMatching.newToOld[n]
                guard o >= 0 else {
                    inserts.append(destination)
                    continue
                }
                let from = source(o)
                if from.section != t || moved.contains(n - start) {
                    moves.append(IndexPathMove(from: from, to: destination))
                }
            }
        }
        append(
            data: new, from: data,
            BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], insertItems: inserts, moveItems: moves))
    }

    /// The first old item in `range` whose pair is updated.
    ///
    /// - Complexity: O(range).
    @inlinable
    static func _firstReload(_ matching: Matching, in range: Range<Int>) -> Int? {
        matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.updated.withUnsafeBufferPointer { updated in
                for o in range {
                    let n = oldToNew[o]
                    if n >= 0 && updated[n] { return o }
                }
                return nil
            }
        }
    }

    /// Whether the paired entries of `newToOld` increase (its unpaired ones, −1, are skipped).
    ///
    /// - Complexity: O(n).
    @inlinable
    static func _pairsInOrder(_ newToOld: [Int]) -> Bool {
        newToOld.withUnsafeBufferPointer { newToOld in
            var last = -1
            for o in newToOld where o >= 0 {
                if o <= last { return false }
                last = o
            }
            return true
        }
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

/// The surviving sections of one side of a staged changeset, and where each one's items start
/// when they are laid end to end (the flat lists the engine pairs).
@usableFromInline
struct _SectionSpans {
    /// The surviving sections' indices, in order.
    @usableFromInline var spans: [Int] = []
    /// Where span i's items start in the flat list; one more entry than `spans`, the last the
    /// flat list's length.
    @usableFromInline var starts: [Int] = [0]

    /// The sections of `list` whose entry in `partner` is a partner (≥ 0).
    ///
    /// - Complexity: O(sections).
    @inlinable
    init<SectionID: Hashable, Element: Diffable>(_ list: SectionedList<SectionID, Element>, surviving partner: [Int]) {
        for (s, section) in list.sections.enumerated() where partner[s] >= 0 {
            spans.append(s)
            starts.append(starts[starts.count - 1] + section.items.count)
        }
    }

    /// The spans' items laid end to end: the section's own array when there is one span (shared,
    /// not copied).
    ///
    /// - Complexity: O(1) for one span, else O(items).
    @inlinable
    func items<SectionID: Hashable, Element: Diffable>(of list: SectionedList<SectionID, Element>) -> [Element] {
        if spans.count == 1 { return list.sections[spans[0]].items }
        var items: [Element] = []
        items.reserveCapacity(starts[spans.count])
        for s in spans { items.append(contentsOf: list.sections[s].items) }
        return items
    }

    /// The span flat item `index` (in `0..<starts.last`) belongs to.
    ///
    /// - Complexity: O(1) for one span, else O(log spans).
    @inlinable
    func span(of index: Int) -> Int {
        if spans.count == 1 { return 0 }
        // The last span whose start is at most `index` (empty spans share a start: the last wins).
        var (low, high) = (0, spans.count - 1)
        while low < high {
            let middle = low + (high - low + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
