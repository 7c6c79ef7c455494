import DiffLabBatch
import DiffLabCore
import Testing

/// Promises of DiffLabBatch and DiffLabCore types that no fuzz property reaches, each checked here
/// (the Fuzzing article's table of promises names these tests).
@Suite("Documented promises outside the fuzzer")
struct PromiseTests {
    /// `BatchUpdate.normalized()`: "every list sorted: sections and index paths ascending, moves by
    /// destination", holding the same elements.
    @Test func normalizedSortsEveryListAndKeepsItsElements() {
        var rng = SplitMix64(seed: 33)
        func below(_ n: Int) -> Int { Int(rng.next(upTo: UInt64(n - 1))) }
        for _ in 0..<500 {
            func paths() -> [ItemIndexPath] { (0..<below(6)).map { _ in p(below(3), below(5)) } }
            func sections() -> [Int] { (0..<below(5)).map { _ in below(4) } }
            let update = BatchUpdate(
                itemCountsBefore: [5, 5, 5], itemCountsAfter: [5, 5, 5], insertSections: sections(), deleteSections: sections(),
                reloadSections: sections(), moveSections: (0..<below(4)).map { _ in SectionMove(from: below(3), to: below(3)) },
                insertItems: paths(), deleteItems: paths(), reloadItems: paths(),
                moveItems: (0..<below(5)).map { _ in mv(p(below(3), below(5)), p(below(3), below(5))) })
            let normalized = update.normalized()
            func ascending<T>(_ list: [T], _ key: (T) -> [Int]) -> Bool {
                zip(list, list.dropFirst()).allSatisfy { key($0).lexicographicallyPrecedes(key($1)) || key($0) == key($1) }
            }
            #expect(ascending(normalized.insertSections) { [$0] } && ascending(normalized.deleteSections) { [$0] })
            #expect(ascending(normalized.reloadSections) { [$0] })
            #expect(ascending(normalized.moveSections) { [$0.to, $0.from] })
            for list in [normalized.insertItems, normalized.deleteItems, normalized.reloadItems] {
                #expect(ascending(list) { [$0.section, $0.item] })
            }
            #expect(ascending(normalized.moveItems) { [$0.to.section, $0.to.item, $0.from.section, $0.from.item] })
            #expect(normalized.insertItems.sorted() == update.insertItems.sorted() && normalized.moveItems.count == update.moveItems.count)
            #expect(normalized.normalized() == normalized, "idempotent")
        }
    }

    /// `BatchUpdate(_:section:)`: "updates become reloads"; "sections before `section` are empty";
    /// every index path in `section`, in the result's order.
    @Test func aFlatResultInAnySection() throws {
        let result = try DiffResult(
            oldCount: 4, newCount: 4, inserts: [3], deletes: [0], updates: [2], updateDestinations: [1], moves: [Move(from: 3, to: 2)])
        for section in [0, 1, 3] {
            let update = BatchUpdate(result, section: section)
            #expect(update.itemCountsBefore == Array(repeating: 0, count: section) + [4])
            #expect(update.itemCountsAfter == Array(repeating: 0, count: section) + [4])
            #expect(update.insertItems == [p(section, 3)] && update.deleteItems == [p(section, 0)])
            #expect(update.reloadItems == [p(section, 2)], "updates become reloads, by old index")
            #expect(update.moveItems == [mv(p(section, 3), p(section, 2))])
            #expect(update.insertSections.isEmpty && update.deleteSections.isEmpty && update.moveSections.isEmpty)
        }
    }

    /// `Move`: "orders by destination, then source"; `Update`: "orders by old index, then
    /// destination".
    @Test func movesAndUpdatesOrderAsDocumented() {
        let moves = [Move(from: 2, to: 1), Move(from: 0, to: 1), Move(from: 5, to: 0)]
        #expect(moves.sorted() == [Move(from: 5, to: 0), Move(from: 0, to: 1), Move(from: 2, to: 1)])
        let updates = [Update(from: 1, to: 4), Update(from: 0, to: 9), Update(from: 1, to: 2)]
        #expect(updates.sorted() == [Update(from: 0, to: 9), Update(from: 1, to: 2), Update(from: 1, to: 4)])
    }

    /// `EngineChanges.checkedBatch(oldCount:newCount:)`: the engine's own batch, checked, its
    /// error "prefixed `batch form:`"; without one, the checked flat result's batch form.
    @Test func checkedBatchNamesTheBatchForm() throws {
        let result = EngineResult(inserts: [1], updates: [Update(from: 0, to: 0)])
        let own = EngineChanges<Int>(result: result, batch: EngineResult(inserts: [1, 1]))
        #expect {
            _ = try own.checkedBatch(oldCount: 1, newCount: 2)
        } throws: { error in
            (error as? DiffResultError)?.description.hasPrefix("batch form: ") == true
        }
        let converted = try EngineChanges<Int>(result: result).checkedBatch(oldCount: 1, newCount: 2)
        #expect(converted == (try DiffResult(checking: result, oldCount: 1, newCount: 2)).forBatchUpdates())
        #expect(converted.updates.isEmpty && converted.inserts == [0, 1] && converted.deletes == [0])
    }

    /// `EnginePromises`: "the defaults promise nothing beyond the result-only properties, and
    /// support duplicates"; `EngineReference`: "each case includes the ones below it" (every case
    /// but `none` agrees with Heckel on unique identifiers).
    @Test func enginePromisesDefaultsAndReferencesAsDocumented() {
        let defaults = EnginePromises()
        #expect(defaults.supportsDuplicates && !defaults.minimalMoves && defaults.reference == .none)
        #expect(EngineReference.allCases == [.none, .uniqueIdentifiers, .minimalScript, .heckel], "weakest first")
        #expect(EngineReference.allCases.map(\.agreesOnUniqueIdentifiers) == [false, true, true, true])
    }
}
