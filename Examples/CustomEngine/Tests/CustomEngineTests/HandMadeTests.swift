import CustomEngine
import DiffLab
import Testing

/// A list element for hand-made inputs: identifier and content.
struct Item: Diffable, Hashable, CustomStringConvertible {
    var id: String
    var content = 0
    var diffIdentifier: String { id }
    var description: String { content == 0 ? id : "\(id):\(content)" }
}

/// Applies `batch` to `old` the way UIKit does and returns where the outcome differs from `new`.
///
/// - Throws: ``InvalidBatchUpdate`` when UIKit would reject the batch.
func mismatches(applying batch: DiffResult, to old: [Item], expecting new: [Item]) throws -> [ApplicationMismatch] {
    try BatchUpdate(batch)
        .apply(to: SectionedList([.init(id: 0, items: old)]), expecting: SectionedList([.init(id: 0, items: new)]))
        .mismatches
}

@Suite struct IGListKitConversionByHand {
    let engine = IGListKitBatchEngine()

    @Test func insertLandsOnAnInsertedIndex() throws {
        // "a" is updated at new index 0; the map's last "a" is new index 1, which is an insert.
        let old = [Item(id: "a")]
        let new = [Item(id: "a", content: 1), Item(id: "a")]
        let changes = try engine.changes(from: old, to: new, comparison: .equality)

        #expect(changes.result == EngineResult(HeckelEngine().diff(from: old, to: new)))
        #expect(changes.batch == EngineResult(inserts: [1], deletes: [0]))
        #expect(throws: DiffResultError.self) { try changes.checkedBatch(oldCount: old.count, newCount: new.count) }

        // DiffLab's own conversion of the same flat result: delete 0, insert 0 and 1.
        let ours = try changes.checkedResult(oldCount: old.count, newCount: new.count).forBatchUpdates()
        #expect(ours.deletes == [0] && ours.inserts == [0, 1])
        #expect(try mismatches(applying: ours, to: old, expecting: new).isEmpty)
    }

    @Test func updateOfAnEarlierOccurrenceIsLost() throws {
        // Both "a" change; only the last one is reached through the index maps.
        let old = [Item(id: "a"), Item(id: "a")]
        let new = [Item(id: "a", content: 1), Item(id: "a", content: 1)]
        let changes = try engine.changes(from: old, to: new, comparison: .equality)

        #expect(changes.batch == EngineResult(inserts: [1], deletes: [1]))
        let batch = try changes.checkedBatch(oldCount: old.count, newCount: new.count)
        #expect(try mismatches(applying: batch, to: old, expecting: new) == [.staleContent(ItemIndexPath(section: 0, item: 0))])

        let ours = try changes.checkedResult(oldCount: old.count, newCount: new.count).forBatchUpdates()
        #expect(try mismatches(applying: ours, to: old, expecting: new).isEmpty)
    }

    @Test func uniqueIdentifiersConvertLikeDiffLab() throws {
        // An update of a moved item ("c") and an update in place ("b").
        let old = [Item(id: "a"), Item(id: "b"), Item(id: "c")]
        let new = [Item(id: "c", content: 1), Item(id: "a"), Item(id: "b", content: 1)]
        let changes = try engine.changes(from: old, to: new, comparison: .equality)

        let batch = try changes.checkedBatch(oldCount: old.count, newCount: new.count)
        let ours = try changes.checkedResult(oldCount: old.count, newCount: new.count).forBatchUpdates()
        #expect(batch == ours)
        #expect(try mismatches(applying: batch, to: old, expecting: new).isEmpty)
    }
}

@Suite struct OccurrenceEngineByHand {
    @Test func pairsOccurrencesInOrderAndMovesTheFewest() throws {
        let old = [Item(id: "a"), Item(id: "b"), Item(id: "a"), Item(id: "c")]
        let new = [Item(id: "a"), Item(id: "c"), Item(id: "a", content: 1), Item(id: "b")]
        let changes = try OccurrenceEngine().changes(from: old, to: new, comparison: .equality)

        // Pairs (old→new): 0→0, 3→1, 2→2 (updated), 1→3. Old indices in new order: 0 3 2 1;
        // a longest increasing run has two elements, so two of the four pairs move.
        #expect(changes.result == EngineResult(updates: [Update(from: 2, to: 2)], moves: [Move(from: 3, to: 1), Move(from: 2, to: 2)]))
        #expect(changes.batch == nil)
        let batch = try changes.checkedBatch(oldCount: old.count, newCount: new.count)
        #expect(try mismatches(applying: batch, to: old, expecting: new).isEmpty)
    }

    @Test func surplusOccurrencesAreDeletesAndInserts() throws {
        let old = [Item(id: "x"), Item(id: "x"), Item(id: "x")]
        let new = [Item(id: "y"), Item(id: "x", content: 2)]
        let changes = try OccurrenceEngine().changes(from: old, to: new, comparison: .equality)

        #expect(changes.result == EngineResult(inserts: [0], deletes: [1, 2], updates: [Update(from: 0, to: 1)]))
        let batch = try changes.checkedBatch(oldCount: old.count, newCount: new.count)
        #expect(try mismatches(applying: batch, to: old, expecting: new).isEmpty)
    }
}
