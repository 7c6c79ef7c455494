import DiffLabCore

/// Paul Heckel's linear-time diff with IGListKit's semantics, exactly: the readable reference for
/// `IGListDiff` (IGListDiff.mm) that ``HashMapEngine`` must match.
///
/// ## Pairing contract
/// A symbol table maps each identifier to an entry holding how often it occurs in each list, a
/// stack of its old indices and one `updated` flag.
/// 1. Pass 1 walks the new list and counts occurrences.
/// 2. Pass 2 walks the old list **backwards**, pushing each old index, so the top of an entry's
///    stack is its earliest unpaired old occurrence.
/// 3. Pass 3 walks the new list forwards; each occurrence pops the next old index. So the k-th
///    occurrence of an identifier in the new list pairs with its k-th occurrence in the old list.
///
/// ## Duplicates
/// Surplus occurrences are unpaired: extra old occurrences (the last ones) are deletes, extra new
/// occurrences (the last ones) are inserts. "Updated" is one flag per identifier: if any matched
/// pair of that identifier differs in content, every matched occurrence of it is reported updated
/// — as IGListKit does.
///
/// ## Shortcuts
/// An empty new list deletes everything and an empty old list inserts everything, without
/// building the table (IGListKit's shortcuts; the general passes would give the same answer).
///
/// - Complexity: O(n + m) expected time (hashing), O(n + m) space, with one heap-allocated
///   occurrence stack per distinct identifier. ``HashMapEngine`` gives the same result without
///   per-entry allocations.
public struct HeckelEngine: DiffEngine {
    /// `"heckel"`, the name on the command line and in reports.
    public var name: String { BuiltInEngines.Name.heckel }

    /// Duplicates supported; the pairing's reference is ``EngineReference/heckel``.
    public var promises: EnginePromises { EnginePromises(reference: .heckel) }

    /// Creates the engine. It has no state.
    public init() {}

    @usableFromInline
    struct _Entry {
        @usableFromInline var oldCount = 0
        @usableFromInline var newCount = 0
        /// Old indices not yet paired; the last element is the top of the stack.
        @usableFromInline var oldIndices: [Int] = []
        @usableFromInline var updated = false
        @inlinable init() {}
    }

    /// Pairs by IGListKit's Heckel passes; see the type's documentation.
    ///
    /// - Complexity: O(n + m) expected.
    @inlinable
    public func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) -> Matching {
        var matching = Matching(oldCount: old.count, newCount: new.count)
        if old.isEmpty || new.isEmpty { return matching }

        var table: [Element.DiffIdentifier: Int] = [:]
        var entries: [_Entry] = []
        func entryIndex(_ id: Element.DiffIdentifier) -> Int {
            if let index = table[id] { return index }
            entries.append(_Entry())
            table[id] = entries.count - 1
            return entries.count - 1
        }

        // Pass 1: an entry for every new element; count its occurrences.
        var newEntry = [Int](repeating: 0, count: new.count)
        for i in new.indices {
            let e = entryIndex(new[i].diffIdentifier)
            entries[e].newCount += 1
            newEntry[i] = e
        }
        // Pass 2: old elements, backwards, so each stack's top is the earliest old occurrence.
        for i in old.indices.reversed() {
            let e = entryIndex(old[i].diffIdentifier)
            entries[e].oldCount += 1
            entries[e].oldIndices.append(i)
        }
        // Pass 3: pair the k-th new occurrence with the k-th old occurrence.
        for i in new.indices {
            let e = newEntry[i]
            guard let o = entries[e].oldIndices.popLast() else { continue }  // surplus: an insert
            if new[i]._isUpdated(from: old[o], comparison: comparison) { entries[e].updated = true }
            matching.pair(old: o, new: i)
        }
        // One update flag per identifier, applied to every matched occurrence.
        for i in new.indices where matching.newToOld[i] >= 0 && entries[newEntry[i]].updated {
            matching.updated[i] = true
        }
        return matching
    }
}
