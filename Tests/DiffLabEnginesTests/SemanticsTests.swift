import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@Suite("Duplicates, updates, identity, index paths, lookups, batch conversion")
struct SemanticsTests {
    // MARK: Duplicate identifiers

    /// k-th new occurrence pairs with k-th old occurrence; the surplus new occurrence is an insert.
    @Test(arguments: builtInEngines("heckel", "hashmap"))
    func heckelPairsKthWithKth(engine: any DiffEngine) {
        let m = engine.matching(from: [1, 1, 2], to: [2, 1, 1, 1])
        #expect(m.newToOld == [2, 0, 1, -1])
        let r = DiffResult(matching: m)
        #expect(r.inserts == [3])
        #expect(r.deletes == [])
        #expect(r.moves == [Move(from: 2, to: 0), Move(from: 0, to: 1), Move(from: 1, to: 2)])
    }

    @Test(arguments: builtInEngines("heckel", "hashmap"))
    func heckelSurplusOldOccurrencesAreDeletes(engine: any DiffEngine) {
        let r = engine.diff(from: [7, 7, 7], to: [7])
        #expect(r.deletes == [1, 2])
        #expect(r.inserts == [])
        #expect(r.moves == [])
    }

    /// IGListKit keeps one "updated" flag per identifier.
    @Test(arguments: builtInEngines("heckel", "hashmap"))
    func heckelUpdateFlagIsPerIdentifier(engine: any DiffEngine) {
        let old = [Item(1, 0), Item(1, 1), Item(2, 0)]
        let new = [Item(1, 0), Item(1, 0), Item(2, 0)]
        let r = engine.diff(from: old, to: new)
        #expect(r.updates == [0, 1])
        #expect(r.updateDestinations == [0, 1])
    }

    /// Myers and the standard library flag each pair on its own.
    @Test(arguments: builtInEngines("myers", "stdlib"))
    func otherEnginesFlagUpdatesPerPair(engine: any DiffEngine) {
        let old = [Item(1, 0), Item(1, 1), Item(2, 0)]
        let new = [Item(1, 0), Item(1, 0), Item(2, 0)]
        let r = engine.diff(from: old, to: new)
        #expect(r.updates == [1])
        #expect(r.updateDestinations == [1])
    }

    /// Myers pairs duplicates through the common subsequence first: here the LCS keeps [1, 2],
    /// and the left-over 1s pair into a move.
    @Test func myersPairsDuplicatesByCommonSubsequence() {
        let m = MyersEngine().matching(from: [1, 2, 1], to: [2, 1, 1])
        // LCS of 1 2 1 / 2 1 1 has length 2; heckel would pair old 0 with new 1 instead.
        #expect(m.newToOld.filter { $0 >= 0 }.count == 3)
        let r = DiffResult(matching: m)
        #expect(r.inserts.isEmpty && r.deletes.isEmpty)
        #expect(uikitApplicationProblems(r, old: [1, 2, 1], new: [2, 1, 1]).isEmpty)
    }

    // MARK: Updates and comparison options

    @Test(arguments: builtInEngines)
    func contentUpdates(engine: any DiffEngine) {
        let old = [Item(1, 0), Item(2, 0), Item(3, 0)]
        let new = [Item(3, 1), Item(2, 0), Item(1, 0)]
        let r = engine.diff(from: old, to: new)
        #expect(r.updates == [2])
        #expect(r.updateDestinations == [0])
        #expect(r.moves == [Move(from: 2, to: 0), Move(from: 0, to: 2)])
        #expect(uikitApplicationProblems(r, old: old, new: new).isEmpty)
        // The batch form turns the moved update into delete + insert.
        let batch = r.forBatchUpdates()
        #expect(batch.inserts == [0])
        #expect(batch.deletes == [2])
        #expect(batch.updates == [])
        #expect(batch.moves == [Move(from: 0, to: 2)])
        #expect(uikitApplicationProblems(batch, old: old, new: new, batch: true).isEmpty)
    }

    @Test(arguments: builtInEngines)
    func identityVersusEquality(engine: any DiffEngine) {
        let shared = Box(1)
        let old = [shared, Box(2), Box(3, 0)]
        let new = [shared, Box(2), Box(3, 1)]
        // Equal content, other instance: an update only under identity.
        #expect(engine.diff(from: old, to: new, comparison: .equality).updates == [2])
        #expect(engine.diff(from: old, to: new, comparison: .identity).updates == [1, 2])
        // Value types have no identity: identity falls back to content.
        let values = [Item(1, 0), Item(2, 0)]
        #expect(engine.diff(from: values, to: values, comparison: .identity).updates == [])
    }

    // MARK: Index paths and lookups

    @Test(arguments: builtInEngines)
    func indexPathsUseFromAndToSections(engine: any DiffEngine) {
        let old = [Item(1), Item(2), Item(3)]
        let new = [Item(3, 5), Item(4), Item(1)]
        let r = engine.diff(from: old, to: new, fromSection: 2, toSection: 5)
        #expect(r.deletes == [ItemIndexPath(section: 2, item: 1)])
        #expect(r.inserts == [ItemIndexPath(section: 5, item: 1)])
        #expect(r.updates == [ItemIndexPath(section: 2, item: 2)])
        #expect(
            r.moves == [
                IndexPathMove(from: ItemIndexPath(section: 2, item: 2), to: ItemIndexPath(section: 5, item: 0)),
                IndexPathMove(from: ItemIndexPath(section: 2, item: 0), to: ItemIndexPath(section: 5, item: 2)),
            ])
        let batch = r.forBatchUpdates()
        #expect(batch.updates.isEmpty)
        #expect(batch.deletes == [ItemIndexPath(section: 2, item: 1), ItemIndexPath(section: 2, item: 2)])
        #expect(batch.inserts == [ItemIndexPath(section: 5, item: 0), ItemIndexPath(section: 5, item: 1)])
        #expect(batch.changeCount == 5)
    }

    @Test func lookupsReturnLastOccurrence() {
        let d = HeckelEngine().diffLookup(from: ["a", "b", "a"], to: ["b", "c"])
        #expect(d.oldIndex(for: "a") == 2)
        #expect(d.oldIndex(for: "b") == 1)
        #expect(d.newIndex(for: "a") == nil)
        #expect(d.newIndex(for: "c") == 1)
        #expect(d.newIndexPath(for: "b", section: 3) == ItemIndexPath(section: 3, item: 0))
        #expect(d.oldIndexPath(for: "z", section: 3) == nil)
        #expect(d.result.deletes == [0, 2])
    }

    // MARK: Batch conversion

    /// For unique identifiers the batch form is IGListKit's resultForBatchUpdates: worked example.
    @Test func batchConvertsRemainingUpdatesToDeleteInsert() {
        let old = [Item(1), Item(2), Item(3)]
        let new = [Item(2, 1), Item(1), Item(4)]
        let r = HeckelEngine().diff(from: old, to: new)
        #expect(r.updates == [1])
        #expect(r.moves == [Move(from: 1, to: 0), Move(from: 0, to: 1)])
        let batch = r.forBatchUpdates()
        #expect(batch.deletes == [1, 2])
        #expect(batch.inserts == [0, 2])
        #expect(batch.moves == [Move(from: 0, to: 1)])
        #expect(uikitApplicationProblems(batch, old: old, new: new, batch: true).isEmpty)
    }

    /// With duplicates IGListKit would drop reloads of all but the last occurrence; ours keeps
    /// every one.
    @Test(arguments: builtInEngines)
    func batchKeepsEveryDuplicateReload(engine: any DiffEngine) {
        let old = [Item(1, 0), Item(1, 0), Item(2)]
        let new = [Item(1, 1), Item(1, 1), Item(2)]
        let batch = engine.diff(from: old, to: new).forBatchUpdates()
        #expect(batch.deletes == [0, 1])
        #expect(batch.inserts == [0, 1])
        #expect(uikitApplicationProblems(batch, old: old, new: new, batch: true).isEmpty)
    }

    @Test func batchOfResultWithoutUpdatesIsItself() {
        let r = HashMapEngine().diff(from: [1, 2, 3], to: [3, 1])
        #expect(r.forBatchUpdates() == r)
    }
}
