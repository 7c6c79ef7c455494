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

    /// A result taken as given, unchecked: DiffLab's derivations, which keep every promise by
    /// construction, and tests that need a result breaking one.
    @usableFromInline
    package init(
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
        self.init(matching: matching, moves: strategy, threads: 1)
    }

    /// Derives a result from an engine's pairing on up to `threads` threads: the same result as
    /// ``init(matching:moves:)``, element for element.
    ///
    /// With one thread it is two passes that append (the fastest alone). With more, each list is
    /// cut into `threads` contiguous chunks (clamped to 1...64): one pass counts each chunk's
    /// deletes, updates and inserts; a second writes them, and every survivor's rank, at offsets
    /// from those counts, so each output array is allocated once at its exact size; with
    /// ``MoveStrategy/offsets`` two more passes over the new list count and write the moves the
    /// same way. ``MoveStrategy/minimal``'s longest increasing run is found from both ends of the
    /// new list at once, meeting in its middle, on two threads (patience sorting is sequential
    /// within each half; the run found is the same on one thread), and the moves off it are
    /// listed in chunks the same way. The caller chooses `threads`: threads pay only for long
    /// lists (DiffLab's engines use them from ``HashMapEngine``'s parallel threshold).
    ///
    /// - Precondition: `matching` satisfies its invariants.
    /// - Complexity: O(n / threads) per thread for ``MoveStrategy/offsets`` (memory bandwidth
    ///   shared), plus O(n log n) over two threads for ``MoveStrategy/minimal``.
    @inlinable
    public init(matching: Matching, moves strategy: MoveStrategy, threads: Int) {
        var buffers = _DerivationBuffers()
        self.init(matching: matching, moves: strategy, threads: threads, reusing: &buffers)
    }

    /// The derivation of ``init(matching:moves:threads:)`` into `buffers`' storage: a workspace
    /// that keeps them between calls allocates nothing once they are large enough, as long as the
    /// caller has let go of the previous result (see ``_reuse(_:count:filler:_:)``). `buffers`
    /// keeps references to the result's arrays.
    ///
    /// - Complexity: as ``init(matching:moves:threads:)``.
    @inlinable
    package init(matching: Matching, moves strategy: MoveStrategy, threads: Int, reusing buffers: inout _DerivationBuffers) {
        let chunks = min(64, max(1, threads))
        // The survivor rank of each paired old element (its index once deletes are removed), in
        // 32 bits when the old list allows: half the memory, and half the pages an allocator that
        // returns freed memory to the kernel (jemalloc, here) must fault in again on every call.
        let narrow = matching.oldToNew.count <= Int(Int32.max)
        var b = _take(&buffers, leaving: _DerivationBuffers())
        var narrowRanks = _take(&b.narrowRanks, leaving: [])
        var wideRanks = _take(&b.wideRanks, leaving: [])
        if chunks == 1 {
            _emptied(&b.inserts)
            _emptied(&b.deletes)
            _emptied(&b.updates)
            _emptied(&b.updateDestinations)
            _emptied(&b.moves)
            if strategy == .offsets && narrow {
                Self._deriveSerial(matching, &narrowRanks, &b)
            } else {
                Self._deriveSerial(matching, &wideRanks, &b, strategy: strategy)
            }
        } else if narrow {
            Self._derive(matching, &narrowRanks, &b, strategy, chunks: chunks)
        } else {
            Self._derive(matching, &wideRanks, &b, strategy, chunks: chunks)
        }
        b.narrowRanks = narrowRanks
        b.wideRanks = wideRanks
        self.init(
            unchecked: matching.oldToNew.count, newCount: matching.newToOld.count, inserts: b.inserts, deletes: b.deletes,
            updates: b.updates, updateDestinations: b.updateDestinations, moves: b.moves)
        buffers = b
    }

    /// The derivation on one thread, with survivor ranks of type `Rank` (offsets moves): two
    /// passes, appending. Kept beside the chunked one because it is faster alone: the chunked
    /// derivation's counting passes made `myers` 1.37× slower on `chat-append` at 100k (the
    /// regression gate against 4353419), where the derivation is most of the diff.
    ///
    /// **The ends kept in place** (offsets moves): the longest prefix paired index for index
    /// (`oldToNew[o] == o`) and then the longest suffix paired end for end are found first, by
    /// comparing indices. They hold no insert, delete or move (every delete and insert lies
    /// between them, so a suffix pair's survivor rank and its new index less the inserts before it
    /// are equal), so only their update flags are read, eight at a time, and their updates
    /// written at once; the two passes run on what lies between, and survivor ranks are kept for
    /// it alone. A list that keeps its ends (unchanged, appended to, every item updated) is
    /// derived in a few instructions per element.
    @inlinable
    static func _deriveSerial<Rank: FixedWidthInteger>(
        _ matching: Matching, _ ranks: inout [Rank], _ out: inout _DerivationBuffers, strategy: MoveStrategy = .offsets
    ) {
        let oldCount = matching.oldToNew.count
        let newCount = matching.newToOld.count
        matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.newToOld.withUnsafeBufferPointer { newToOld in
                matching.updated.withUnsafeBufferPointer { updated in
                    // The ends in place; with minimal moves the longest increasing run is found
                    // over the whole new list, so nothing is set aside.
                    var p = 0
                    var s = 0
                    if strategy == .offsets {
                        let shorter = min(oldCount, newCount)
                        while p < shorter && oldToNew[p] == p { p &+= 1 }
                        while s < shorter &- p && oldToNew[oldCount &- 1 &- s] == newCount &- 1 &- s { s &+= 1 }
                    }
                    let oldEnd = oldCount &- s
                    let newEnd = newCount &- s
                    _appendUpdatesInPlace(updated, 0..<p, oldShift: 0, &out)
                    // Survivor ranks, relative to `p`: only paired old elements' ranks between the
                    // ends are written, and only those are read (no pair crosses an end).
                    _reuse(&ranks, count: strategy == .offsets ? oldEnd &- p : 0, filler: 0) { _ in }
                    ranks.withUnsafeMutableBufferPointer { survivorRank in
                        var deleted = 0
                        for o in p..<oldEnd {
                            let n = oldToNew[o]
                            if n < 0 {
                                out.deletes.append(o)
                                deleted &+= 1
                            } else {
                                if strategy == .offsets { survivorRank[o &- p] = Rank(truncatingIfNeeded: o &- p &- deleted) }
                                if updated[n] {
                                    out.updates.append(o)
                                    out.updateDestinations.append(n)
                                }
                            }
                        }
                        _appendUpdatesInPlace(updated, newEnd..<newCount, oldShift: oldCount &- newCount, &out)
                        switch strategy {
                        case .offsets:
                            var inserted = 0
                            for n in p..<newEnd {
                                let o = newToOld[n]
                                if o < 0 {
                                    out.inserts.append(n)
                                    inserted &+= 1
                                } else if Int(survivorRank[o &- p]) != n &- p &- inserted {
                                    out.moves.append(Move(from: o, to: n))
                                }
                            }
                        case .minimal:
                            for n in 0..<newCount where newToOld[n] < 0 { out.inserts.append(n) }
                            var run = _take(&out.run, leaving: _LongestRunBuffers())
                            _markLongestIncreasingRun(newToOld, &run)
                            run.previous.withUnsafeBufferPointer { marks in
                                for n in 0..<newCount {
                                    let o = newToOld[n]
                                    if o >= 0 && marks[n] != _onTheRun { out.moves.append(Move(from: o, to: n)) }
                                }
                            }
                            out.run = run
                        }
                    }
                }
            }
        }
    }

    /// Appends the updates of the new elements `range`, paired in place with old element
    /// `n + oldShift` each: their flags are read eight at a time (`_countSetFlags(_:in:)`,
    /// `_forEachSetFlag(_:in:_:)`), and the updates written in one go (`updates` gets the old
    /// indices, `updateDestinations` the new ones).
    ///
    /// - Complexity: O(range.count / 8 + updates).
    @inlinable
    static func _appendUpdatesInPlace(
        _ updated: UnsafeBufferPointer<Bool>, _ range: Range<Int>, oldShift: Int, _ out: inout _DerivationBuffers
    ) {
        if range.isEmpty { return }
        let count = _countSetFlags(updated, in: range)
        if count == 0 { return }
        let start = out.updates.count
        out.updates.append(contentsOf: repeatElement(0, count: count))
        out.updateDestinations.append(contentsOf: repeatElement(0, count: count))
        out.updates.withUnsafeMutableBufferPointer { updates in
            out.updateDestinations.withUnsafeMutableBufferPointer { destinations in
                var j = start
                _forEachSetFlag(updated, in: range) { n in
                    updates[j] = n &+ oldShift
                    destinations[j] = n
                    j &+= 1
                }
            }
        }
    }

    /// The derivation on `chunks` (more than one) threads, with survivor ranks of type `Rank`:
    /// counted, then written at offsets. The fuzzer checks it against ``_deriveSerial`` through
    /// `hashmap-partitioned`, which derives on 2 threads, against `heckel`, which derives on one.
    @inlinable
    static func _derive<Rank: FixedWidthInteger>(
        _ matching: Matching, _ ranks: inout [Rank], _ out: inout _DerivationBuffers, _ strategy: MoveStrategy, chunks: Int
    ) {
        let oldCount = matching.oldToNew.count
        let newCount = matching.newToOld.count
        let offsets = strategy == .offsets
        var inserts = _take(&out.inserts, leaving: [])
        var deletes = _take(&out.deletes, leaving: [])
        var updates = _take(&out.updates, leaving: [])
        var updateDestinations = _take(&out.updateDestinations, leaving: [])
        var moves = _take(&out.moves, leaving: [])
        defer {
            out.inserts = inserts
            out.deletes = deletes
            out.updates = updates
            out.updateDestinations = updateDestinations
            out.moves = moves
        }
        @inline(__always) func oldChunk(_ c: Int) -> Range<Int> { (c &* oldCount / chunks)..<((c &+ 1) &* oldCount / chunks) }
        @inline(__always) func newChunk(_ c: Int) -> Range<Int> { (c &* newCount / chunks)..<((c &+ 1) &* newCount / chunks) }
        matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.newToOld.withUnsafeBufferPointer { newToOld in
                matching.updated.withUnsafeBufferPointer { updated in
                    // Per chunk: deletes, updates, inserts, moves; then where each chunk's start.
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: chunks &* 4) { table in
                        let deleted = UnsafeMutableBufferPointer(rebasing: table[0..<chunks])
                        let updatedCount = UnsafeMutableBufferPointer(rebasing: table[chunks..<(chunks &* 2)])
                        let inserted = UnsafeMutableBufferPointer(rebasing: table[(chunks &* 2)..<(chunks &* 3)])
                        let moved = UnsafeMutableBufferPointer(rebasing: table[(chunks &* 3)..<(chunks &* 4)])
                        table.initialize(repeating: 0)
                        _concurrently(chunks) { c in
                            var d = 0
                            var u = 0
                            for o in oldChunk(c) {
                                let n = oldToNew[o]
                                if n < 0 { d &+= 1 } else if updated[n] { u &+= 1 }
                            }
                            var i = 0
                            for n in newChunk(c) where newToOld[n] < 0 { i &+= 1 }
                            deleted[c] = d
                            updatedCount[c] = u
                            inserted[c] = i
                        }
                        let totalDeleted = _startPositions(deleted)
                        let totalUpdated = _startPositions(updatedCount)
                        let totalInserted = _startPositions(inserted)
                        // Every array is written in place (`_reuse`), never through
                        // `Array(unsafeUninitializedCapacity: 0)`, which ThreadSanitizer reports.
                        _reuse(&ranks, count: offsets ? oldCount : 0, filler: 0) { rank in
                            _reuse(&deletes, count: totalDeleted, filler: 0) { deletes in
                                _reuse(&updates, count: totalUpdated, filler: 0) { updates in
                                    _reuse(&updateDestinations, count: totalUpdated, filler: 0) { destinations in
                                        _reuse(&inserts, count: totalInserted, filler: 0) { inserts in
                                            _concurrently(chunks) { c in
                                                var d = deleted[c]
                                                var u = updatedCount[c]
                                                for o in oldChunk(c) {
                                                    let n = oldToNew[o]
                                                    if n < 0 {
                                                        deletes[d] = o
                                                        d &+= 1
                                                    } else {
                                                        if offsets { rank[o] = Rank(truncatingIfNeeded: o &- d) }
                                                        if updated[n] {
                                                            updates[u] = o
                                                            destinations[u] = n
                                                            u &+= 1
                                                        }
                                                    }
                                                }
                                                var i = inserted[c]
                                                for n in newChunk(c) where newToOld[n] < 0 {
                                                    inserts[i] = n
                                                    i &+= 1
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        guard offsets else { return }
                        // Offsets moves: a survivor moves when its rank is not its new index
                        // less the inserts before it. Counted, then written.
                        ranks.withUnsafeBufferPointer { rank in
                            _concurrently(chunks) { c in
                                var i = inserted[c]
                                var k = 0
                                for n in newChunk(c) {
                                    let o = newToOld[n]
                                    if o < 0 {
                                        i &+= 1
                                    } else if Int(rank[o]) != n &- i {
                                        k &+= 1
                                    }
                                }
                                moved[c] = k
                            }
                            let totalMoved = _startPositions(moved)
                            _reuse(&moves, count: totalMoved, filler: Move(from: 0, to: 0)) { moves in
                                _concurrently(chunks) { c in
                                    var i = inserted[c]
                                    var k = moved[c]
                                    for n in newChunk(c) {
                                        let o = newToOld[n]
                                        if o < 0 {
                                            i &+= 1
                                        } else if Int(rank[o]) != n &- i {
                                            moves[k] = Move(from: o, to: n)
                                            k &+= 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                    if !offsets {
                        // The longest increasing run is found from both ends of the new list on
                        // two threads; the moves off it are listed on the chunks' threads.
                        var run = _take(&out.run, leaving: _LongestRunBuffers())
                        defer { out.run = run }
                        _markLongestIncreasingRun(newToOld, &run, threads: chunks)
                        run.previous.withUnsafeBufferPointer { marks in
                            withUnsafeTemporaryAllocation(of: Int.self, capacity: chunks) { starts in
                                _concurrently(chunks) { c in
                                    var k = 0
                                    for n in newChunk(c) where newToOld[n] >= 0 && marks[n] != _onTheRun { k &+= 1 }
                                    starts[c] = k
                                }
                                let total = _startPositions(starts)
                                _reuse(&moves, count: total, filler: Move(from: 0, to: 0)) { out in
                                    _concurrently(chunks) { c in
                                        var k = starts[c]
                                        for n in newChunk(c) where newToOld[n] >= 0 && marks[n] != _onTheRun {
                                            out[k] = Move(from: newToOld[n], to: n)
                                            k &+= 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The arrays a derivation writes, kept by a workspace between calls (see
/// `DiffResult.init(matching:moves:threads:reusing:)`): the result's lists and the survivor ranks.
/// Underscored and `package`: an implementation type of DiffLab's engines, not API.
@usableFromInline
package struct _DerivationBuffers: Sendable {
    @usableFromInline package var inserts: [Int] = []
    @usableFromInline package var deletes: [Int] = []
    @usableFromInline package var updates: [Int] = []
    @usableFromInline package var updateDestinations: [Int] = []
    @usableFromInline package var moves: [Move] = []
    /// Survivor ranks when the old list's indices fit 32 bits.
    @usableFromInline package var narrowRanks: [Int32] = []
    /// Survivor ranks otherwise (minimal moves, or more than `Int32.max` old elements).
    @usableFromInline package var wideRanks: [Int] = []
    /// Where minimal moves' longest increasing run is found.
    @usableFromInline package var run = _LongestRunBuffers()

    @inlinable package init() {}

    /// The bytes of storage the arrays hold.
    ///
    /// - Complexity: O(1).
    package var retainedBytes: Int {
        (inserts.capacity + deletes.capacity + updates.capacity + updateDestinations.capacity + wideRanks.capacity)
            * MemoryLayout<Int>.stride + moves.capacity * MemoryLayout<Move>.stride
            + narrowRanks.capacity * MemoryLayout<Int32>.stride + run.retainedBytes
    }
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
    /// - Complexity: O(k + d + i) for k updates, d deletes and i inserts when the updates'
    ///   destinations ascend (they do when nothing moves), plus O(min(k log k, n)) to order them
    ///   otherwise and O(oldCount + moves) when some element moves; n the new list's length.
    public func forBatchUpdates() -> DiffResult { forBatchUpdates(threads: 1) }

    /// ``forBatchUpdates()`` on up to `threads` threads (clamped to 1...64): the same result,
    /// element for element. The flags of updated elements, the moves kept and both merges are
    /// shared out in contiguous chunks (a merge split where its output is, by binary search); the
    /// order of destinations that do not ascend is found on the calling thread. DiffLab's engines
    /// use their derivation threads (``DiffEngine/derivationThreads(oldCount:newCount:)``).
    ///
    /// - Complexity: as ``forBatchUpdates()``, its linear parts over `threads`.
    public func forBatchUpdates(threads: Int) -> DiffResult {
        if updates.isEmpty { return self }
        let chunks = min(64, max(1, threads))
        // Every update, moved or not, becomes delete(old index) + insert(new index): the extra
        // deletes are the updates themselves (ascending), the extra inserts their destinations.
        // A moved element's move is dropped when it is updated.
        var keptMoves = moves
        if !moves.isEmpty {
            var isUpdated = [Bool](repeating: false, count: oldCount)
            isUpdated.withUnsafeMutableBufferPointer { isUpdated in
                updates.withUnsafeBufferPointer { updates in
                    _concurrently(chunks) { c in
                        for k in _chunk(c, of: chunks, count: updates.count) { isUpdated[updates[k]] = true }
                    }
                }
            }
            if moves.contains(where: { isUpdated[$0.from] }) {
                keptMoves = isUpdated.withUnsafeBufferPointer { isUpdated in
                    _chunkedFilter(moves, chunks: chunks) { !isUpdated[$0.from] }
                }
            }
        }
        return DiffResult(
            unchecked: oldCount, newCount: newCount,
            inserts: _mergeSorted(inserts, _ascending(updateDestinations, below: newCount), chunks: chunks),
            deletes: _mergeSorted(deletes, updates, chunks: chunks), updates: [], updateDestinations: [], moves: keptMoves)
    }
}

/// Turns per-chunk counts into each chunk's first position (an exclusive prefix sum, in place)
/// and returns the total.
///
/// - Complexity: O(chunks).
@inlinable
package func _startPositions(_ counts: UnsafeMutableBufferPointer<Int>) -> Int {
    var total = 0
    for c in counts.indices {
        let k = counts[c]
        counts[c] = total
        total &+= k
    }
    return total
}

/// Chunk `c` of `chunks` contiguous chunks of `0..<count`.
@inlinable
package func _chunk(_ c: Int, of chunks: Int, count: Int) -> Range<Int> {
    (c &* count / chunks)..<((c &+ 1) &* count / chunks)
}

/// The elements of `values` that satisfy `isKept`, in order, on `chunks` threads: counted per
/// chunk, then written at their offsets. `isKept` is called twice per element, from several
/// threads.
///
/// - Complexity: O(n / chunks) per thread; one allocation.
@usableFromInline
func _chunkedFilter<Element>(_ values: [Element], chunks: Int, _ isKept: (Element) -> Bool) -> [Element] {
    if chunks == 1 { return values.filter(isKept) }
    return values.withUnsafeBufferPointer { values in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: chunks) { starts in
            _concurrently(chunks) { c in
                var kept = 0
                for i in _chunk(c, of: chunks, count: values.count) where isKept(values[i]) { kept &+= 1 }
                starts[c] = kept
            }
            let total = _startPositions(starts)
            return _filled(total) { out in
                _concurrently(chunks) { c in
                    var k = starts[c]
                    for i in _chunk(c, of: chunks, count: values.count) where isKept(values[i]) {
                        (out.baseAddress! + k).initialize(to: values[i])
                        k &+= 1
                    }
                }
            }
        }
    }
}

/// `values` (each in `0..<bound`) in ascending order, as `values.sorted()`: the array itself when
/// it already ascends; otherwise marked in `bound` flags and read back in order when that is
/// cheaper than sorting (k·log2 k > `bound`) and no value repeats (a hand-built result may repeat
/// a destination: then it is sorted, repeats kept), else sorted.
///
/// - Complexity: O(k) when ascending, else O(min(k log k, k + bound)).
@usableFromInline
package func _ascending(_ values: [Int], below bound: Int) -> [Int] {
    if zip(values, values.dropFirst()).allSatisfy({ $0 <= $1 }) { return values }
    let k = values.count
    guard k &* (Int.bitWidth &- k.leadingZeroBitCount) > bound else { return values.sorted() }
    var marked = [Bool](repeating: false, count: bound)
    for value in values {
        if marked[value] { return values.sorted() }
        marked[value] = true
    }
    var ordered: [Int] = []
    ordered.reserveCapacity(k)
    for value in 0..<bound where marked[value] { ordered.append(value) }
    return ordered
}

/// Merges two ascending arrays into one ascending array, taking `a`'s element first on ties.
///
/// - Complexity: O(a.count + b.count).
@usableFromInline
func _mergeSorted(_ a: [Int], _ b: [Int]) -> [Int] { _mergeSorted(a, b, chunks: 1) }

/// ``_mergeSorted(_:_:)`` on up to `chunks` threads: the output is cut into equal parts, and where
/// each part starts in `a` and `b` is found by binary search along its diagonal (the merge path),
/// so each thread merges its own part. The same output, element for element.
///
/// - Complexity: O((a.count + b.count) / chunks + log) per thread; one allocation.
@usableFromInline
package func _mergeSorted(_ a: [Int], _ b: [Int], chunks: Int) -> [Int] {
    if b.isEmpty { return a }
    if a.isEmpty { return b }
    let total = a.count &+ b.count
    let parts = min(max(1, chunks), total)
    return a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            _filled(total) { out in
                _concurrently(parts) { c in
                    let range = _chunk(c, of: parts, count: total)
                    // How many of `a`'s elements the first `range.lowerBound` outputs hold.
                    func split(_ k: Int) -> Int {
                        var lo = max(0, k &- b.count)
                        var hi = min(k, a.count)
                        while lo < hi {
                            let mid = (lo &+ hi) >> 1
                            if a[mid] <= b[k &- mid &- 1] { lo = mid &+ 1 } else { hi = mid }
                        }
                        return lo
                    }
                    var i = split(range.lowerBound)
                    var j = range.lowerBound &- i
                    for k in range {
                        if j >= b.count || (i < a.count && a[i] <= b[j]) {
                            out[k] = a[i]
                            i &+= 1
                        } else {
                            out[k] = b[j]
                            j &+= 1
                        }
                    }
                }
            }
        }
    }
}
