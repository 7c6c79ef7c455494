import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@testable import DiffLabBatch

/// The staging as it was before its fast paths (issue 46): every item flattened with its index
/// path, every surviving item copied through an optional, and every section's longest increasing
/// run computed. Kept verbatim as the reference the fast paths must equal, stage for stage.
func referenceStages<SectionID: Hashable, Element: Diffable, Engine: DiffEngine>(
    from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>, engine: Engine,
    comparison: ComparisonOption = .equality
) -> StagedChangeset<SectionID, Element> {
    var staged = StagedChangeset<SectionID, Element>(stages: [])
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
    staged.append(data: data, from: old, BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], reloadItems: reloads))

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
    staged.append(
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
    staged.append(
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
    staged.append(
        data: new, from: data,
        BatchUpdate(itemCountsBefore: [], itemCountsAfter: [], insertItems: inserts, moveItems: moves))
    return staged
}

@Suite("Staged changesets: the fast paths")
struct StagedChangesetFastPathTests {
    /// On random sectioned models (sections appear, vanish and move; items move between
    /// sections, change, repeat), every engine's staging equals the reference's, stage for stage.
    @Test(arguments: [0, 1, 2])
    func stagesEqualTheReferences(engineIndex: Int) {
        var rng = SplitMix64(seed: 0x57a9ed + UInt64(engineIndex))
        for _ in 0..<3_000 {
            let old = randomModel(&rng, sectionPool: 5, itemPool: 9)
            let new = randomModel(&rng, sectionPool: 5, itemPool: 9)
            switch engineIndex {
            case 0: compare(old, new, HashMapEngine())
            case 1: compare(old, new, HeckelEngine())
            default: compare(old, new, MyersEngine())
            }
        }
    }

    /// New models made by small edits of the old one (the sections stay, mostly in place; a few
    /// items are inserted, deleted, updated, reordered or moved to another section; now and then
    /// two sections swap or one is added), so the fast paths for sections that keep their index
    /// and items that keep their order are taken with several sections, and left when an edit
    /// breaks them. Every engine's staging equals the reference's.
    @Test(arguments: [0, 1, 2, 3, 4])
    func editedModelsEqualTheReferences(engineIndex: Int) {
        var rng = SplitMix64(seed: 0xed17 + UInt64(engineIndex))
        var fastPathTaken = 0
        for _ in 0..<2_000 {
            let old = randomModel(&rng, sectionPool: 50, itemPool: 40)
            let new = edited(old, &rng)
            if old.sections.map(\.id) == new.sections.map(\.id) { fastPathTaken += 1 }
            switch engineIndex {
            case 0: compare(old, new, HashMapEngine())
            case 1: compare(old, new, HeckelEngine())
            case 2: compare(old, new, MyersEngine())
            case 3: compare(old, new, HashMapEngine.partitionedEverywhere)
            default: compare(old, new, StdlibEngine())
            }
        }
        // The edits keep the sections in place in most models: the identity shortcut is reached.
        #expect(fastPathTaken > 1_000)
    }

    /// `old` with a few random edits; see ``editedModelsEqualTheReferences(engineIndex:)``.
    private func edited(_ old: Model, _ rng: inout SplitMix64) -> Model {
        var sections = old.sections
        for _ in 0..<Int.random(in: 0...3, using: &rng) where !sections.isEmpty {
            let s = Int.random(in: 0..<sections.count, using: &rng)
            var items = sections[s].items
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: items.insert(Item(Int.random(in: 100..<140, using: &rng)), at: Int.random(in: 0...items.count, using: &rng))
            case 1 where !items.isEmpty: items.remove(at: Int.random(in: 0..<items.count, using: &rng))
            case 2 where !items.isEmpty:
                let i = Int.random(in: 0..<items.count, using: &rng)
                items[i] = Item(items[i].id, items[i].content + 1)
            case 3 where items.count > 1: items.swapAt(0, items.count - 1)
            case 4 where !items.isEmpty && sections.count > 1:
                let item = items.remove(at: Int.random(in: 0..<items.count, using: &rng))
                let t = (s + 1) % sections.count
                sections[t].items.insert(item, at: Int.random(in: 0...sections[t].items.count, using: &rng))
            case 5 where sections.count > 1 && Bool.random(using: &rng):
                sections.swapAt(0, sections.count - 1)
                continue
            default: break
            }
            sections[s].items = items
        }
        if Int.random(in: 0..<10, using: &rng) == 0 { sections.append(Model.Section(id: "N\(sections.count)", items: [Item(7)])) }
        return Model(sections)
    }

    /// Long lists that keep their ends (the cases the fast paths are for) and one that reorders
    /// within a section, with one and with several sections.
    @Test func longListsEqualTheReferences() {
        let items = (0..<500).map { Item($0) }
        var appended = items
        appended.append(Item(1_000))
        var updated = items
        updated[250] = Item(250, 1)
        var shuffled = items
        shuffled.swapAt(10, 400)
        var dropped = items
        dropped.remove(at: 77)
        for new in [items, appended, updated, shuffled, dropped] {
            compare(model([("A", items)]), model([("A", new)]), HashMapEngine())
            compare(
                model([("A", Array(items[..<200])), ("B", []), ("C", Array(items[200...]))]),
                model([("C", Array(new[..<300])), ("A", Array(new[300...])), ("D", [])]), HashMapEngine())
        }
    }

    private func compare<Engine: DiffEngine>(_ old: Model, _ new: Model, _ engine: Engine) {
        let fast = StagedChangeset(from: old, to: new, engine: engine)
        let reference = referenceStages(from: old, to: new, engine: engine)
        #expect(fast.stages.map(\.changes) == reference.stages.map(\.changes), "\(engine.name): \(old) → \(new)")
        #expect(fast.stages.map(\.data) == reference.stages.map(\.data), "\(engine.name): \(old) → \(new)")
    }
}
