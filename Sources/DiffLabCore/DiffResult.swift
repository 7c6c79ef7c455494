/// A move of one item: from its index in the old list to its index in the new list.
///
/// Indices are absolute, as `UICollectionView.moveItem(at:to:)` expects: `from` in the old list,
/// `to` in the new list.
public struct Move: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Index in the old list.
    public var from: Int
    /// Index in the new list.
    public var to: Int

    /// Creates a move from old index `from` to new index `to`.
    @inlinable
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// Orders by destination, then source: the order every result lists its moves in.
    @inlinable
    public static func < (a: Move, b: Move) -> Bool { (a.to, a.from) < (b.to, b.from) }

    /// `from→to`.
    public var description: String { "\(from)→\(to)" }
}

/// The changes that turn an old list into a new one, as flat indices.
///
/// Modelled on IGListKit's `IGListIndexSetResult`:
/// - ``inserts``: new indices of inserted elements, ascending;
/// - ``deletes``: old indices of deleted elements, ascending;
/// - ``updates``: old indices of matched elements whose content changed, ascending
///   (``updateDestinations`` holds each one's new index);
/// - ``moves``: matched elements that move, ascending by ``Move/to``.
///
/// A raw result may report an element both updated and moved. That is not a valid single UIKit
/// batch update (a reload and a move of one item collide); ``forBatchUpdates()`` gives one that is.
///
/// Results are built by ``init(matching:moves:)`` from an engine's ``Matching``, or by hand with
/// the checked ``init(oldCount:newCount:inserts:deletes:updates:updateDestinations:moves:)``.
public struct DiffResult: Hashable, Sendable {
    /// Length of the old list.
    public let oldCount: Int
    /// Length of the new list.
    public let newCount: Int
    /// New indices of inserted elements, ascending.
    public let inserts: [Int]
    /// Old indices of deleted elements, ascending.
    public let deletes: [Int]
    /// Old indices of updated elements, ascending.
    public let updates: [Int]
    /// `updateDestinations[i]` is the new index of the element at old index `updates[i]`.
    public let updateDestinations: [Int]
    /// Moved elements, ascending by destination.
    public let moves: [Move]

    @usableFromInline
    init(
        unchecked oldCount: Int, newCount: Int, inserts: [Int], deletes: [Int], updates: [Int],
        updateDestinations: [Int], moves: [Move]
    ) {
        self.oldCount = oldCount
        self.newCount = newCount
        self.inserts = inserts
        self.deletes = deletes
        self.updates = updates
        self.updateDestinations = updateDestinations
        self.moves = moves
    }

    /// The number of reported changes: inserts + deletes + updates + moves.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var changeCount: Int { inserts.count + deletes.count + updates.count + moves.count }

    /// Whether the result reports any change.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var hasChanges: Bool { changeCount > 0 }
}

extension DiffResult {
    /// Derives a result from an engine's pairing: the step every engine shares.
    ///
    /// - Unpaired old elements are deletes, unpaired new elements are inserts.
    /// - Paired elements flagged in ``Matching/updated`` are updates.
    /// - Moves follow `moves` (see ``MoveStrategy``).
    ///
    /// - Precondition: `matching` satisfies its invariants (``Matching/validate()``); engines
    ///   guarantee that. A broken matching may trap.
    /// - Complexity: O(n) for ``MoveStrategy/offsets``, O(n log n) for ``MoveStrategy/minimal``,
    ///   where n is the total length of both lists.
    @inlinable
    public init(matching: Matching, moves strategy: MoveStrategy = .offsets) {
        let oldCount = matching.oldToNew.count
        let newCount = matching.newToOld.count
        var deletes: [Int] = []
        var inserts: [Int] = []
        var updates: [Int] = []
        var updateDestinations: [Int] = []
        var moves: [Move] = []
        // The survivor rank of each paired old element (its index once deletes are removed), in
        // 32 bits when the old list allows: half the memory, and half the pages an allocator that
        // returns freed memory to the kernel (jemalloc, here) must fault in again on every call.
        if strategy == .offsets && oldCount <= Int(Int32.max) {
            Self._derive(
                matching, rank: Int32.self, &inserts, &deletes, &updates, &updateDestinations, &moves)
        } else {
            Self._derive(matching, rank: Int.self, &inserts, &deletes, &updates, &updateDestinations, &moves, strategy: strategy)
        }
        self.init(
            unchecked: oldCount, newCount: newCount, inserts: inserts, deletes: deletes,
            updates: updates, updateDestinations: updateDestinations, moves: moves)
    }

    /// The body of ``init(matching:moves:)``, with survivor ranks of type `Rank` (offsets moves).
    @inlinable
    static func _derive<Rank: FixedWidthInteger>(
        _ matching: Matching, rank _: Rank.Type, _ inserts: inout [Int], _ deletes: inout [Int], _ updates: inout [Int],
        _ updateDestinations: inout [Int], _ moves: inout [Move], strategy: MoveStrategy = .offsets
    ) {
        let oldCount = matching.oldToNew.count
        let newCount = matching.newToOld.count
        var survivorRank = [Rank](repeating: 0, count: strategy == .offsets ? oldCount : 0)
        matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.updated.withUnsafeBufferPointer { updated in
                var deleted = 0
                for o in 0..<oldCount {
                    let n = oldToNew[o]
                    if n < 0 {
                        deletes.append(o)
                        deleted &+= 1
                    } else {
                        if strategy == .offsets { survivorRank[o] = Rank(truncatingIfNeeded: o &- deleted) }
                        if updated[n] {
                            updates.append(o)
                            updateDestinations.append(n)
                        }
                    }
                }
            }
        }
        matching.newToOld.withUnsafeBufferPointer { newToOld in
            switch strategy {
            case .offsets:
                var inserted = 0
                for n in 0..<newCount {
                    let o = newToOld[n]
                    if o < 0 {
                        inserts.append(n)
                        inserted &+= 1
                    } else if Int(survivorRank[o]) != n &- inserted {
                        moves.append(Move(from: o, to: n))
                    }
                }
            case .minimal:
                for n in 0..<newCount where newToOld[n] < 0 { inserts.append(n) }
                let stays = _longestIncreasingPairedRun(newToOld)
                for n in 0..<newCount {
                    let o = newToOld[n]
                    if o >= 0 && !stays[n] { moves.append(Move(from: o, to: n)) }
                }
            }
        }
    }
}

/// Marks, by new index, the paired elements that form one longest strictly increasing
/// subsequence of old indices taken in new order (patience sorting with back links).
///
/// Ties are broken deterministically: among equally long subsequences, the one whose last element
/// comes latest in new order and, going back, the predecessor recorded when each element was
/// placed. The marked elements can stay in place; every other paired element must move.
///
/// - Complexity: O(k log k) time and O(k) space for k paired elements.
@inlinable
func _longestIncreasingPairedRun(_ newToOld: UnsafeBufferPointer<Int>) -> [Bool] {
    let count = newToOld.count
    var stays = [Bool](repeating: false, count: count)
    // tails[l] = new index of the smallest-valued end of an increasing run of length l + 1.
    var tails: [Int] = []
    // previous[n] = new index of the element before n in the run that ends at n.
    var previous = [Int](repeating: -1, count: count)
    tails.reserveCapacity(64)
    for n in 0..<count {
        let o = newToOld[n]
        if o < 0 { continue }
        // First tail whose old index is >= o.
        var lo = 0
        var hi = tails.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if newToOld[tails[mid]] < o { lo = mid &+ 1 } else { hi = mid }
        }
        if lo > 0 { previous[n] = tails[lo &- 1] }
        if lo == tails.count { tails.append(n) } else { tails[lo] = n }
    }
    var n = tails.last ?? -1
    while n >= 0 {
        stays[n] = true
        n = previous[n]
    }
    return stays
}

extension DiffResult {
    /// A result safe to hand to one UIKit `performBatchUpdates` call.
    ///
    /// UIKit rejects a reload and a move of the same item in one batch, and reloads are addressed
    /// by old index while the item's cell is dequeued for its new one. So:
    /// - an update of a moved item becomes delete(old index) + insert(new index), and the move is
    ///   dropped;
    /// - every remaining update becomes delete(old index) + insert(new index).
    ///
    /// The result has no updates. For unique identifiers it equals IGListKit's
    /// `-[IGListIndexSetResult resultForBatchUpdates]`. With duplicate identifiers IGListKit
    /// converts only the last occurrence of each identifier (its index maps keep one index per
    /// identifier) and silently loses the other reloads; this conversion uses each update's own
    /// destination, so the batch stays valid and complete for every input.
    ///
    /// - Complexity: O(n), n the total length of both lists.
    public func forBatchUpdates() -> DiffResult {
        if updates.isEmpty { return self }
        // Old index → destination, for updated elements only.
        var updatedDestination = [Int](repeating: -1, count: oldCount)
        for (o, n) in zip(updates, updateDestinations) { updatedDestination[o] = n }
        var keptMoves: [Move] = []
        keptMoves.reserveCapacity(moves.count)
        var extraDeletes: [Int] = []
        var extraInserts: [Int] = []
        extraDeletes.reserveCapacity(updates.count)
        extraInserts.reserveCapacity(updates.count)
        for move in moves {
            if updatedDestination[move.from] >= 0 {
                extraDeletes.append(move.from)
                extraInserts.append(move.to)
                updatedDestination[move.from] = -1
            } else {
                keptMoves.append(move)
            }
        }
        for (o, n) in zip(updates, updateDestinations) where updatedDestination[o] >= 0 {
            extraDeletes.append(o)
            extraInserts.append(n)
        }
        extraDeletes.sort()
        extraInserts.sort()
        return DiffResult(
            unchecked: oldCount, newCount: newCount,
            inserts: _mergeSorted(inserts, extraInserts), deletes: _mergeSorted(deletes, extraDeletes),
            updates: [], updateDestinations: [], moves: keptMoves)
    }
}

/// Merges two ascending arrays into one ascending array.
///
/// - Complexity: O(a.count + b.count).
@usableFromInline
func _mergeSorted(_ a: [Int], _ b: [Int]) -> [Int] {
    if b.isEmpty { return a }
    if a.isEmpty { return b }
    var out: [Int] = []
    out.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
        if a[i] <= b[j] {
            out.append(a[i])
            i += 1
        } else {
            out.append(b[j])
            j += 1
        }
    }
    out.append(contentsOf: a[i...])
    out.append(contentsOf: b[j...])
    return out
}
