/// Why a hand-built ``DiffResult`` was rejected.
public struct DiffResultError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public var description: String
    init(_ description: String) { self.description = description }
}

extension DiffResult {
    /// Builds a result by hand, checking that it describes a consistent change of an `oldCount`
    /// list into a `newCount` list.
    ///
    /// Lists may come in any order; they are stored sorted (moves by destination, each update
    /// with its destination). Checked: counts are non-negative; indices are in range (old indices
    /// below `oldCount`, new indices below `newCount`); no index repeats inside inserts, deletes,
    /// updates, update destinations, move sources or move destinations; no move starts at a
    /// deleted index or ends at an inserted one; no update is of a deleted index or ends at an
    /// inserted one; an element both updated and moved ends at one new index, and no two elements
    /// end at the same one; an updated element that does not move ends where the elements that do
    /// not move leave it (they keep their order and fill the new indices that inserts and moves
    /// leave); every update has a destination; and
    /// `oldCount − deletes + inserts == newCount`.
    ///
    /// Hostile input is refused, not trapped on: no check allocates in proportion to `oldCount`
    /// or `newCount`.
    ///
    /// - Throws: ``DiffResultError`` naming the first problem found.
    /// - Complexity: O(k log k) for k listed changes.
    public init(
        oldCount: Int, newCount: Int, inserts: [Int], deletes: [Int], updates: [Int] = [],
        updateDestinations: [Int] = [], moves: [Move] = []
    ) throws(DiffResultError) {
        guard oldCount >= 0, newCount >= 0 else {
            throw .init("list lengths must be non-negative (old \(oldCount), new \(newCount))")
        }
        guard updates.count == updateDestinations.count else {
            throw .init("\(updates.count) updates but \(updateDestinations.count) update destinations")
        }
        /// `indices` sorted, each in `0..<bound` and none twice.
        func sortedDistinct(_ indices: [Int], bound: Int, _ what: String) throws(DiffResultError) -> [Int] {
            let sorted = indices.sorted()
            for (k, i) in sorted.enumerated() {
                guard i >= 0, i < bound else { throw .init("\(what) index \(i) is outside 0..<\(bound)") }
                if k > 0 && sorted[k - 1] == i { throw .init("\(what) index \(i) appears twice") }
            }
            return sorted
        }
        func holds(_ sorted: [Int], _ index: Int) -> Bool { _ascendingContains(sorted, index) }
        let deleted = try sortedDistinct(deletes, bound: oldCount, "delete")
        let inserted = try sortedDistinct(inserts, bound: newCount, "insert")
        _ = try sortedDistinct(updates, bound: oldCount, "update")
        _ = try sortedDistinct(updateDestinations, bound: newCount, "update destination")
        _ = try sortedDistinct(moves.map { $0.from }, bound: oldCount, "move source")
        _ = try sortedDistinct(moves.map { $0.to }, bound: newCount, "move destination")
        for move in moves {
            if holds(deleted, move.from) { throw .init("move \(move) starts at deleted index \(move.from)") }
            if holds(inserted, move.to) { throw .init("move \(move) ends at inserted index \(move.to)") }
        }
        let updatePairs = zip(updates, updateDestinations).sorted { $0.0 < $1.0 }
        let sortedMoves = moves.sorted()
        for (o, n) in updatePairs {
            if holds(deleted, o) { throw .init("old index \(o) is both updated and deleted") }
            if holds(inserted, n) { throw .init("update of old index \(o) ends at inserted index \(n)") }
        }
        // An element both updated and moved ends where its move does; no update ends where
        // another element moves to; an element that does not move ends where the others that do
        // not move leave it.
        let movesBySource = moves.sorted { $0.from < $1.from }
        let moveSources = movesBySource.map(\.from)
        let moveDestinations = sortedMoves.map(\.to)
        for (o, n) in updatePairs {
            let source = _partitionPoint(movesBySource.count) { movesBySource[$0].from < o }
            if source < movesBySource.count && movesBySource[source].from == o {
                if movesBySource[source].to != n {
                    throw .init("old index \(o) is updated at new index \(n) but moved to \(movesBySource[source].to)")
                }
                continue
            }
            let lo = _partitionPoint(sortedMoves.count) { sortedMoves[$0].to < n }
            if lo < sortedMoves.count && sortedMoves[lo].to == n {
                throw .init("update of old index \(o) ends at new index \(n), where \(sortedMoves[lo]) moves")
            }
            // Elements that do not move keep their order and fill the new indices that inserts
            // and moves leave: the k-th such old element is at the k-th such new index.
            let stays = _rankExcluding(o, deleted, moveSources)
            if stays != _rankExcluding(n, inserted, moveDestinations) {
                throw .init(
                    "old index \(o) does not move, so it is the element that stays at rank \(stays) among those that stay, but its update ends at new index \(n)"
                )
            }
        }
        // Deletes are distinct old indices, so the difference is in 0...oldCount; the sum is
        // checked (oldCount may be near Int.max).
        let (expected, overflow) = (oldCount - deletes.count).addingReportingOverflow(inserts.count)
        guard !overflow, expected == newCount else {
            throw .init(
                "\(oldCount) old − \(deletes.count) deletes + \(inserts.count) inserts ≠ \(newCount) new")
        }
        self.init(
            unchecked: oldCount, newCount: newCount, inserts: inserted, deletes: deleted,
            updates: updatePairs.map { $0.0 }, updateDestinations: updatePairs.map { $0.1 }, moves: sortedMoves)
    }
}

/// The first index in `0..<count` at which `isBelow` is false, for an `isBelow` that is true on a
/// prefix and false after it (a partition point, by binary search).
///
/// - Complexity: O(log count) calls of `isBelow`.
@inlinable
package func _partitionPoint(_ count: Int, _ isBelow: (Int) -> Bool) -> Int {
    var lo = 0
    var hi = count
    while lo < hi {
        let mid = lo &+ (hi &- lo) / 2
        if isBelow(mid) { lo = mid &+ 1 } else { hi = mid }
    }
    return lo
}

/// Whether the ascending array `sorted` holds `value`.
///
/// - Complexity: O(log n).
@inlinable
package func _ascendingContains(_ sorted: [Int], _ value: Int) -> Bool {
    let i = _partitionPoint(sorted.count) { sorted[$0] < value }
    return i < sorted.count && sorted[i] == value
}

/// `index` less the elements of the ascending arrays `a` and `b` below it (the two hold no value
/// in common): its rank among the indices neither holds, when neither holds it.
///
/// - Complexity: O(log a.count + log b.count).
@inlinable
package func _rankExcluding(_ index: Int, _ a: [Int], _ b: [Int]) -> Int {
    index - _partitionPoint(a.count) { a[$0] < index } - _partitionPoint(b.count) { b[$0] < index }
}
