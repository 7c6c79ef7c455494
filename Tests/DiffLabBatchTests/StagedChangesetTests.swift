import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabTestSupport
import Testing

/// Random sectioned models: section ids from a small pool (duplicates possible), items with few
/// distinct ids and content variants, so items move between sections and change.
func randomModel(_ rng: inout SplitMix64, sectionPool: Int, itemPool: Int) -> Model {
    let sectionCount = Int.random(in: 0...4, using: &rng)
    return Model(
        (0..<sectionCount).map { _ in
            Model.Section(
                id: "S\(Int.random(in: 0..<sectionPool, using: &rng))",
                items: (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                    Item(Int.random(in: 0..<itemPool, using: &rng), Int.random(in: 0..<2, using: &rng))
                })
        })
}

/// Checks every stage: valid on its own, and applying it to the previous data gives its data.
func checkStages(_ changeset: StagedChangeset<String, Item>, old: Model, new: Model) throws {
    var previous = old
    for (k, stage) in changeset.stages.enumerated() {
        #expect(stage.changes.violations() == [], "stage \(k): \(stage.changes.violations().map(\.message)) \(old) → \(new)")
        let application = try stage.changes.apply(to: previous, expecting: stage.data)
        #expect(application.mismatches == [], "stage \(k): \(application.mismatches) \(old) → \(new)")
        previous = stage.data
    }
    #expect(previous == new)
}

@Suite("Staged changesets")
struct StagedChangesetTests {
    @Test func crossSectionMoveUpdateAndSectionMoveInFourStages() throws {
        let old = model([("A", [Item(1), Item(2, 0), Item(3)]), ("B", [Item(4)]), ("C", [Item(5)])])
        let new = model([("C", [Item(5), Item(3)]), ("D", [Item(8)]), ("A", [Item(2, 1), Item(6)])])
        let changeset = StagedChangeset(from: old, to: new, engine: HashMapEngine())
        #expect(changeset.stages.count == 4)
        #expect(changeset.stages[0].changes.reloadItems == [p(0, 1)])
        #expect(changeset.stages[1].changes.deleteSections == [1])
        #expect(changeset.stages[1].changes.deleteItems == [p(0, 0)])
        #expect(changeset.stages[2].changes.insertSections == [1])
        #expect(changeset.stages[2].changes.moveSections == [SectionMove(from: 1, to: 0)])
        #expect(changeset.stages[3].changes.insertItems == [p(2, 1)])
        #expect(changeset.stages[3].changes.moveItems == [mv(p(2, 1), p(0, 1))])
        try checkStages(changeset, old: old, new: new)
    }

    @Test func equalModelsNeedNoStage() {
        let m = model([("A", [Item(1)])])
        #expect(StagedChangeset(from: m, to: m, engine: HashMapEngine()).stages.isEmpty)
    }

    /// Lists that keep their order (issue 46's fast paths: nothing deleted, items in order, a
    /// single section paired without copying) stage the same changes: an append is one insert
    /// stage, an update one reload stage, a delete one delete stage, with empty sections around
    /// (the flat index's edge).
    @Test func listsThatKeepTheirOrderStageOnlyWhatChanged() throws {
        let items = (0..<50).map { Item($0) }
        let one = model([("A", items)])
        let appended = StagedChangeset(from: one, to: model([("A", items + [Item(99)])]), engine: HashMapEngine())
        #expect(appended.stages.count == 1 && appended.stages[0].changes.insertItems == [p(0, 50)])
        #expect(appended.stages[0].changes.moveItems.isEmpty)
        var updatedItems = items
        updatedItems[7] = Item(7, 1)
        let updated = StagedChangeset(from: one, to: model([("A", updatedItems)]), engine: HashMapEngine())
        #expect(updated.stages.count == 1 && updated.stages[0].changes.reloadItems == [p(0, 7)])
        let old = model([("E", []), ("A", items), ("F", []), ("B", [Item(100), Item(101)]), ("G", [])])
        let new = model([("E", []), ("A", Array(items.dropFirst(3))), ("F", []), ("B", [Item(100), Item(101), Item(102)]), ("G", [])])
        let deleted = StagedChangeset(from: old, to: new, engine: HashMapEngine())
        #expect(deleted.stages.count == 2)
        #expect(deleted.stages[0].changes.deleteItems == [p(1, 0), p(1, 1), p(1, 2)])
        #expect(deleted.stages[1].changes.insertItems == [p(3, 2)] && deleted.stages[1].changes.moveItems.isEmpty)
        try checkStages(deleted, old: old, new: new)
        // Items that change order still move: the longest run stays.
        let swapped = model([("A", [items[1], items[0]] + items.dropFirst(2))])
        let moved = StagedChangeset(from: one, to: swapped, engine: HashMapEngine())
        #expect(moved.stages.count == 1 && moved.stages[0].changes.moveItems.count == 1)
        try checkStages(moved, old: one, new: swapped)
    }

    @Test(arguments: [HeckelEngine(), HashMapEngine(), MyersEngine(), StdlibEngine()] as [any DiffEngine])
    func everyEngineGivesValidStagesEndingAtTheNewModel(engine: any DiffEngine) throws {
        var rng = SplitMix64(seed: 31)
        for _ in 0..<300 {
            let old = randomModel(&rng, sectionPool: 5, itemPool: 10)
            let new = randomModel(&rng, sectionPool: 5, itemPool: 10)
            try checkStages(StagedChangeset(from: old, to: new, engine: engine), old: old, new: new)
        }
    }
}
