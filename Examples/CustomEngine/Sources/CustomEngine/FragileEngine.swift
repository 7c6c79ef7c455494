import DiffLab

/// A hand-rolled diff of the kind apps vendor, with the two bugs such code has: one input class
/// traps and another hangs. It shows what `custom-difflab fuzz --engines fragile` does with an
/// engine that kills its process: the run goes on, and each crash and hang is reported with a
/// shrunk counterexample (`Scripts/example-test` checks it).
///
/// ## Contract (as meant)
/// 1. A common suffix is paired in place.
/// 2. The rest of the old list goes into an open-addressing table keyed by identifier; each new
///    element of the rest looks its identifier up and pairs with that old element.
/// 3. Unpaired old elements are deletes, unpaired new elements inserts; pairs whose content
///    differs are updates; a pair moves when its old index less the deletes before it differs
///    from its new index less the inserts before it (IGListKit's offsets rule).
///
/// ## The bugs (left in on purpose)
/// - **Trap:** the suffix loop checks the old bound before it reads but the new bound only after,
///   so when the new list is a proper suffix of the old one it reads `new[-1]`
///   (`old: [b, a]`, `new: [a]`).
/// - **Hang:** the table has the rest's size rounded up to a power of two and never grows; when
///   the rest has exactly that many identifiers the table is full, and looking up an identifier
///   that is not in it probes forever (`old: [a, b]`, `new: [c]`).
///
/// Duplicates: not supported (the table keeps one old index per identifier).
///
/// - Complexity: O(n + m) expected, when it ends.
public struct FragileEngine: ChangesetEngine {
    /// `"fragile"`.
    public var name: String { "fragile" }

    /// Unique identifiers only; offsets moves; pairs every identifier present in both lists.
    public var promises: EnginePromises {
        EnginePromises(supportsDuplicates: false, minimalMoves: false, reference: .uniqueIdentifiers)
    }

    /// Creates the engine. It has no state.
    public init() {}

    /// Diffs `old` into `new`; see the type's documentation (and its bugs).
    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        var result = EngineResult()
        guard !old.isEmpty && !new.isEmpty else {
            result.deletes = Array(old.indices)
            result.inserts = Array(new.indices)
            return EngineChanges(result: result)
        }
        var newToOld = [Int](repeating: -1, count: new.count)
        // 1. The common suffix (the bug: the new bound is checked after the read).
        var oldEnd = old.count
        var newEnd = new.count
        while oldEnd > 0 && old[oldEnd - 1].diffIdentifier == new[newEnd - 1].diffIdentifier && newEnd > 0 {
            oldEnd -= 1
            newEnd -= 1
            newToOld[newEnd] = oldEnd
        }
        // 2. The table of the rest (the bug: never grown, so it can be full).
        var capacity = 1
        while capacity < oldEnd { capacity <<= 1 }
        var table = [Int](repeating: -1, count: capacity)
        func slot(_ id: Element.DiffIdentifier) -> Int {
            var s = id.hashValue & (capacity - 1)
            while table[s] >= 0 && old[table[s]].diffIdentifier != id { s = (s + 1) & (capacity - 1) }
            return s
        }
        for i in 0..<oldEnd { table[slot(old[i].diffIdentifier)] = i }
        for j in 0..<newEnd {
            let i = table[slot(new[j].diffIdentifier)]
            if i >= 0 { newToOld[j] = i }
        }
        // 3. The result.
        var oldPaired = [Bool](repeating: false, count: old.count)
        for i in newToOld where i >= 0 { oldPaired[i] = true }
        var deletesBefore = [Int](repeating: 0, count: old.count)
        var deleted = 0
        for i in old.indices {
            deletesBefore[i] = deleted
            if !oldPaired[i] {
                result.deletes.append(i)
                deleted += 1
            }
        }
        var inserted = 0
        for (j, i) in newToOld.enumerated() {
            guard i >= 0 else {
                result.inserts.append(j)
                inserted += 1
                continue
            }
            if new[j]._isUpdated(from: old[i], comparison: comparison) { result.updates.append(Update(from: i, to: j)) }
            if i - deletesBefore[i] != j - inserted { result.moves.append(Move(from: i, to: j)) }
        }
        return EngineChanges(result: result)
    }
}
