// The longest increasing run of ``MoveStrategy/minimal``: the paired elements that stay in place.

/// One end of an increasing run under construction: its last element's old and new index.
@usableFromInline
package struct _RunTail: Sendable {
    /// The old index of the run's last element (the value the search compares).
    @usableFromInline package var old: Int
    /// Its new index (where the back link of the next element points).
    @usableFromInline package var new: Int

    @inlinable package init(old: Int, new: Int) {
        self.old = old
        self.new = new
    }
}

/// The arrays the longest increasing run is found in, kept by a workspace between calls (in
/// ``_DerivationBuffers``). Underscored and `package`: an implementation type of DiffLab's
/// engines, not API.
@usableFromInline
package struct _LongestRunBuffers: Sendable {
    /// By new index: the new index of the element before it on the run that ends at it (-1 for
    /// none), and ``_onTheRun`` once the longest run is marked. Only paired elements' entries are
    /// written, and only those are read.
    @usableFromInline package var previous: [Int] = []
    /// The ends of the shortest-ending run of each length (patience sorting's piles).
    @usableFromInline package var tails: [_RunTail] = []

    @inlinable package init() {}

    /// The bytes of storage the arrays hold.
    ///
    /// - Complexity: O(1).
    package var retainedBytes: Int {
        previous.capacity * MemoryLayout<Int>.stride + tails.capacity * MemoryLayout<_RunTail>.stride
    }
}

/// The mark ``_markLongestIncreasingRun(_:_:threads:)`` leaves in `previous` for an element on the run.
@usableFromInline package let _onTheRun = -2

/// Marks, by new index, the paired elements that form one longest strictly increasing
/// subsequence of old indices taken in new order: afterwards, for a paired element `n`,
/// `buffers.previous[n] == _onTheRun` exactly when it is on the run (unpaired elements' entries
/// are unspecified: callers read paired ones only). The marked elements can stay in place; every
/// other paired element must move.
///
/// The run is found from both ends at once, meeting in the middle of the new list (at
/// `count / 2`, whatever `threads` is, so the run is the same on any number of threads):
/// 1. patience sorting with back links over the first half, forward: the piles' ends are, for
///    each length, the smallest old index that ends an increasing run of that length;
/// 2. the same over the second half, backward on negated old indices: for each length, the
///    largest old index that starts an increasing run of that length, with forward links;
/// 3. the longest join: a first-half run of length a ending below a second-half run of length b
///    that it can precede, a + b greatest (the first half's end ascends with a and the second
///    half's start descends with b, so one merge-like pass finds it), the first half alone or
///    the second half alone. Of equally long joins the one with the longest second-half part wins.
///    The choice among runs of equal length is deterministic and the same on any number of
///    threads; it is not plain patience sorting's (which keeps the run that ends latest).
///
/// With `threads` ≥ 2 the halves are sorted on two threads. Any increasing subsequence is a
/// first-half run followed by a second-half run whose ends the piles dominate, so the join is a
/// longest run.
///
/// Each element's pile is found by galloping back from the last pile, then binary search (the
/// piles' ends ascend). Lists that mostly keep their order, where the run is long and nearly every
/// element extends it, take O(1) per element instead of O(log k).
///
/// - Complexity: O(k log k) time for k paired elements (O(k) when few elements fall far behind
///   their half's run), each half on its own thread when `threads` ≥ 2; `buffers` grows to the
///   new list's length (no allocation once it has).
@inlinable
package func _markLongestIncreasingRun(_ newToOld: UnsafeBufferPointer<Int>, _ buffers: inout _LongestRunBuffers, threads: Int = 1) {
    let count = newToOld.count
    let middle = count / 2
    _reuse(&buffers.previous, count: count, filler: -1) { _ in }
    _reuse(&buffers.tails, count: count, filler: _RunTail(old: 0, new: 0)) { _ in }
    buffers.previous.withUnsafeMutableBufferPointer { links in
        buffers.tails.withUnsafeMutableBufferPointer { tails in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2) { heights in
                heights.initialize(repeating: 0)
                let first = UnsafeMutableBufferPointer(rebasing: tails[0..<middle])
                let second = UnsafeMutableBufferPointer(rebasing: tails[middle..<count])
                func half(_ h: Int) {
                    heights[h] =
                        h == 0
                        ? _patienceSort(newToOld, 0..<middle, backward: false, links, first)
                        : _patienceSort(newToOld, middle..<count, backward: true, links, second)
                }
                if threads >= 2 {
                    _concurrently(2, half)
                } else {
                    half(0)
                    half(1)
                }
                let (a, b) = _longestJoin(first, heights[0], second, heights[1])
                var n = a > 0 ? first[a &- 1].new : -1
                while n >= 0 {
                    let before = links[n]
                    links[n] = _onTheRun
                    n = before
                }
                n = b > 0 ? second[b &- 1].new : -1
                while n >= 0 {
                    let after = links[n]
                    links[n] = _onTheRun
                    n = after
                }
            }
        }
    }
}

/// Patience sorting of the paired elements of `range` (new indices), in order or `backward`
/// (then on negated old indices): `piles[l]` ends up holding the end of the run of length l + 1
/// whose compared value is smallest, and `links[n]` the new index of the element that precedes
/// `n` on its run (-1 for none). Returns the number of piles, the longest run's length.
///
/// - Complexity: O(k log k) for the k paired elements of `range`, O(1) per element that extends
///   the longest run or lands near its end.
@inlinable
func _patienceSort(
    _ newToOld: UnsafeBufferPointer<Int>, _ range: Range<Int>, backward: Bool, _ links: UnsafeMutableBufferPointer<Int>,
    _ piles: UnsafeMutableBufferPointer<_RunTail>
) -> Int {
    var top = 0
    var step = backward ? range.upperBound &- 1 : range.lowerBound
    for _ in range {
        let n = step
        step = backward ? step &- 1 : step &+ 1
        let paired = newToOld[n]
        if paired < 0 { continue }
        let o = backward ? 0 &- paired : paired
        // The first pile whose end is at least o (piles' ends ascend strictly): gallop back
        // from the last pile, then binary search.
        var lo = top
        if top > 0 && piles[top &- 1].old >= o {
            var hi = top &- 1
            var stride = 1
            var below = hi &- 1
            while below >= 0 && piles[below].old >= o {
                hi = below
                stride &<<= 1
                below = hi &- stride
            }
            lo = below < 0 ? 0 : below &+ 1
            while lo < hi {
                let mid = (lo &+ hi) &>> 1
                if piles[mid].old < o { lo = mid &+ 1 } else { hi = mid }
            }
        }
        links[n] = lo > 0 ? piles[lo &- 1].new : -1
        piles[lo] = _RunTail(old: o, new: n)
        if lo == top { top &+= 1 }
    }
    return top
}

/// The longest join of a first-half run and a second-half run (see
/// ``_markLongestIncreasingRun(_:_:threads:)``): the lengths (a, b) to take from each, 0 for
/// none. `first[0..<firstCount]` ascend by old index (the smallest end of each length);
/// `second[0..<secondCount]` hold negated old indices, ascending (the largest start of each
/// length, descending). Of equally long joins, the one with the smallest a.
///
/// - Complexity: O(firstCount + secondCount).
@inlinable
func _longestJoin(
    _ first: UnsafeMutableBufferPointer<_RunTail>, _ firstCount: Int, _ second: UnsafeMutableBufferPointer<_RunTail>, _ secondCount: Int
) -> (Int, Int) {
    var best = (0, secondCount)
    var b = secondCount
    // a ascends, so the first half's end rises and the longest second-half run that can follow
    // it only shortens.
    for a in stride(from: 1, through: firstCount, by: 1) {
        let end = first[a &- 1].old
        while b > 0 && 0 &- second[b &- 1].old <= end { b &-= 1 }
        if a &+ b > best.0 &+ best.1 { best = (a, b) }
    }
    return best
}
