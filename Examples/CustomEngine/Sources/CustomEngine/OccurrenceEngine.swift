import DiffLab

/// A small, readable result-level diff: a dictionary of each identifier's old occurrences, then a
/// longest increasing run of paired elements that stays in place.
///
/// ## Contract
/// 1. Old indices are chained per identifier, in old order (a dictionary holds each chain's head).
/// 2. The new list is walked in order; each element takes the next unpaired old occurrence of its
///    identifier. So the k-th occurrence of an identifier in the new list pairs with its k-th
///    occurrence in the old list (IGListKit's pairing).
/// 3. Unpaired old elements are deletes, unpaired new elements are inserts.
/// 4. A pair whose content differs under the comparison is an update, `from` its old index `to`
///    its new index. Unlike IGListKit, the flag is per pair, not per identifier: an unchanged
///    occurrence of a duplicated identifier is not reloaded.
/// 5. Among the pairs, taken in new order, one longest strictly increasing run of old indices
///    stays in place; every other pair is a move (absolute indices). These are the fewest moves
///    the pairing allows. A pair may be both updated and moved; DiffLab's
///    ``DiffResult/forBatchUpdates()`` turns such a pair into a delete and an insert.
///
/// ## Duplicates
/// Supported: every occurrence is paired or reported, none is dropped. Surplus occurrences (the
/// last ones in either list) are deletes or inserts.
///
/// - Complexity: O(n + m) expected time to pair (hashing) and O(k log k) to choose the moves, for
///   lists of n and m elements and k pairs; O(n + m) space.
public struct OccurrenceEngine: ChangesetEngine {
    /// `"occurrence"`, the name on the command line and in reports.
    public var name: String { "occurrence" }

    /// Duplicates supported; moves are the fewest for the pairing; on unique identifiers it pairs
    /// every identifier present in both lists, as Heckel does. (Not ``EngineReference/heckel``:
    /// updates are flagged per pair, not per identifier.)
    public var promises: EnginePromises {
        EnginePromises(supportsDuplicates: true, minimalMoves: true, reference: .uniqueIdentifiers)
    }

    /// Creates the engine. It has no state.
    public init() {}

    /// Diffs `old` into `new`; see the type's documentation. Never fails.
    @inlinable
    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        // Each identifier's unpaired old occurrences, as a chain: `head[id]` is the earliest,
        // `nextSame[i]` the one after old index i (-1: none).
        var head: [Element.DiffIdentifier: Int] = [:]
        var nextSame = [Int](repeating: -1, count: old.count)
        for i in old.indices.reversed() {
            nextSame[i] = head.updateValue(i, forKey: old[i].diffIdentifier) ?? -1
        }

        var result = EngineResult()
        var newToOld = [Int](repeating: -1, count: new.count)
        var oldPaired = [Bool](repeating: false, count: old.count)
        for (j, element) in new.enumerated() {
            let id = element.diffIdentifier
            guard let i = head[id], i >= 0 else {
                result.inserts.append(j)
                continue
            }
            head[id] = nextSame[i]
            newToOld[j] = i
            oldPaired[i] = true
            if element._isUpdated(from: old[i], comparison: comparison) { result.updates.append(Update(from: i, to: j)) }
        }
        result.deletes = old.indices.filter { !oldPaired[$0] }

        let staying = Self.longestIncreasingRun(newToOld)
        for (j, i) in newToOld.enumerated() where i >= 0 && !staying[j] { result.moves.append(Move(from: i, to: j)) }
        return EngineChanges(result: result)
    }

    /// Marks, by new index, one longest strictly increasing run of the paired old indices
    /// (`-1`: unpaired, skipped), by patience sorting with back links.
    ///
    /// - Complexity: O(k log k) for k pairs.
    @inlinable
    static func longestIncreasingRun(_ newToOld: [Int]) -> [Bool] {
        var tails: [Int] = []  // tails[l]: new index ending the best run of length l + 1 found so far
        var previous = [Int](repeating: -1, count: newToOld.count)
        for (j, i) in newToOld.enumerated() where i >= 0 {
            var low = 0
            var high = tails.count  // first tail whose old index is >= i
            while low < high {
                let mid = (low + high) / 2
                if newToOld[tails[mid]] < i { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[j] = tails[low - 1] }
            if low == tails.count { tails.append(j) } else { tails[low] = j }
        }
        var staying = [Bool](repeating: false, count: newToOld.count)
        var j = tails.last ?? -1
        while j >= 0 {
            staying[j] = true
            j = previous[j]
        }
        return staying
    }
}
