import DiffLab

/// IGListKit as an iOS app sees it: `IGListDiff`'s flat result, and its batch-ready form from
/// `-[IGListIndexSetResult resultForBatchUpdates]`, re-implemented faithfully, flaw included.
///
/// ## Flat result
/// DiffLab's ``HeckelEngine`` with IGListKit's move rule (``MoveStrategy/offsets``): the pairing,
/// updates and moves of `IGListDiff` (IGListDiff.mm), duplicates included.
///
/// ## Batch form
/// IGListKit/Source/IGListDiffKit/IGListIndexSetResult.m, `resultForBatchUpdates`:
/// 1. It walks the moves from last to first; a move whose old index is also an update is dropped,
///    and the pair becomes a delete of the old index and an insert of the move's new index.
/// 2. It then walks the keys of `_oldIndexMap` (identifier → old index). When that old index is
///    among the remaining updates, it deletes the old index and inserts `_newIndexMap[key]`.
/// 3. The answer has no updates: any update step 2 did not reach is dropped.
///
/// The maps come from IGListDiff.mm's `addIndexToMap`, called for `i` ascending over each list
/// with `-[NSMapTable setObject:forKey:]` keyed by `diffIdentifier`: one index per identifier,
/// and a later occurrence overwrites an earlier one, so **the last occurrence wins**.
///
/// Inserts and deletes are index sets: adding an index twice keeps one.
///
/// ## The flaw (duplicates)
/// With an identifier repeated, step 2 sees only its last old occurrence and sends it to the last
/// new occurrence. The updates of the other occurrences are lost (stale cells), and when the last
/// occurrences are not each other's pair, the insert lands on an index that is already inserted or
/// is another item's destination: the counts no longer add up, or two items claim one slot, and
/// UIKit raises an exception. With unique identifiers the conversion is correct and equals
/// DiffLab's ``DiffResult/forBatchUpdates()``.
///
/// ## Duplicates
/// Declared supported, as IGListKit accepts them: DiffLab's fuzzer is meant to find the flaw.
///
/// - Complexity: O(n + m) expected time and space for lists of n and m elements.
public struct IGListKitBatchEngine: ChangesetEngine {
    /// `"iglistkit-batch"`, the name on the command line and in reports.
    public var name: String { "iglistkit-batch" }

    /// Duplicates supported (IGListKit accepts them); the flat result is IGListKit's own
    /// (``EngineReference/heckel``); moves follow IGListKit's offset rule, not the fewest.
    public var promises: EnginePromises {
        EnginePromises(supportsDuplicates: true, minimalMoves: false, reference: .heckel)
    }

    /// Creates the engine. It has no state.
    public init() {}

    /// IGListKit's flat result and its batch form; see the type's documentation. Never fails.
    @inlinable
    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let flat = HeckelEngine().diff(from: old, to: new, comparison: comparison, moves: .offsets)
        return EngineChanges(result: EngineResult(flat), batch: Self.resultForBatchUpdates(flat, old: old, new: new))
    }

    /// IGListIndexSetResult.m's `resultForBatchUpdates`, step by step; see the type's documentation.
    ///
    /// - Complexity: O(n + m + k log k) for k changes.
    @inlinable
    static func resultForBatchUpdates<Element: Diffable>(
        _ flat: DiffResult, old: [Element], new: [Element]
    ) -> EngineResult {
        // IGListDiff.mm's oldMap / newMap: one index per identifier, the last occurrence wins.
        var oldIndexMap: [Element.DiffIdentifier: Int] = [:]
        var newIndexMap: [Element.DiffIdentifier: Int] = [:]
        for (i, element) in old.enumerated() { oldIndexMap[element.diffIdentifier] = i }
        for (j, element) in new.enumerated() { newIndexMap[element.diffIdentifier] = j }

        var deletes = Set(flat.deletes)
        var inserts = Set(flat.inserts)
        var filteredUpdates = Set(flat.updates)
        var filteredMoves = flat.moves
        // Step 1: update + move becomes delete + insert (moves walked from last to first).
        for i in flat.moves.indices.reversed() where filteredUpdates.contains(flat.moves[i].from) {
            let move = flat.moves[i]
            filteredMoves.remove(at: i)
            filteredUpdates.remove(move.from)
            deletes.insert(move.from)
            inserts.insert(move.to)
        }
        // Step 2: the remaining updates, reached only through each identifier's last old index.
        for (key, index) in oldIndexMap where filteredUpdates.contains(index) {
            deletes.insert(index)
            // `[nil integerValue]` is 0 in Objective-C; unreachable here, since an updated index
            // is paired and its identifier is in the new list.
            inserts.insert(newIndexMap[key] ?? 0)
        }
        // Step 3: no updates in the answer.
        return EngineResult(inserts: inserts.sorted(), deletes: deletes.sorted(), updates: [], moves: filteredMoves)
    }
}
