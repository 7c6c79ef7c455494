import DiffLabCore

/// Pairing from a minimal edit script: Eugene Myers' O(ND) difference algorithm in linear space,
/// over identifiers.
///
/// ## Pairing contract
/// 1. Identifiers are interned to integers (one open-addressing table, each identifier hashed
///    once), so the search compares integers only.
/// 2. The common prefix and suffix pair up directly; they are trimmed first, comparing identifiers
///    without hashing, and only the rest is interned.
/// 3. Identifiers that occur on one side only (of what is left) can never be part of a common
///    subsequence; they are set aside before the search, as git's xdiff and imara-diff do. This
///    keeps unrelated lists cheap: their search is empty.
/// 4. Myers' bidirectional search for the middle snake, recursively, finds a longest common
///    subsequence of the rest: the paired elements of a minimal insert/delete script. So
///    `inserts + deletes` of the script is minimal — before step 5.
///
///    Fast path: when the lists differ little, steps 1 and 3 cost more than the search. So the
///    search first runs on the identifiers themselves (compared with `==`, never hashed) with a
///    budget of 4·√(n + m) + 16 steps per bisection; only if that runs out are the identifiers
///    interned and one-sided ones set aside. Both tiers find a longest common subsequence.
/// 5. Deleted and inserted occurrences of the same identifier are then paired into moves: the
///    k-th deleted occurrence (in old order) with the k-th inserted occurrence (in new order).
/// 6. A paired element is updated when its own content differs (one flag per pair, unlike
///    Heckel's one flag per identifier).
///
/// ## Duplicates
/// Occurrences of a repeated identifier are paired by the common subsequence first, so the
/// pairing of duplicates follows list order and differs from Heckel's k-th-with-k-th rule when a
/// duplicate moved. Every surplus occurrence is an insert or a delete.
///
/// - Complexity: O((n + m) · D) time for an edit distance D after steps 2 and 3 (O(n + m) when the
///   lists share little or almost everything), O(n + m) space.
public struct MyersEngine: DiffEngine {
    /// `"myers"`, the name on the command line and in reports.
    public var name: String { BuiltInEngines.Name.myers }

    /// Duplicates supported; the pairing's reference is ``EngineReference/minimalScript``.
    public var promises: EnginePromises { EnginePromises(reference: .minimalScript) }

    /// Creates the engine. It has no state.
    public init() {}

    /// Pairs from a minimal edit script plus same-identifier moves; see the type's documentation.
    @inlinable
    public func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) -> Matching {
        var matching = Matching(oldCount: old.count, newCount: new.count)
        if old.isEmpty || new.isEmpty { return matching }

        // 2. The common prefix and suffix pair up directly, compared without hashing, so nearly
        //    identical lists (appends, content-only changes) never pay for interning.
        var lo = 0
        while lo < old.count && lo < new.count && old[lo].diffIdentifier == new[lo].diffIdentifier {
            matching.pair(old: lo, new: lo)
            lo += 1
        }
        var oldHi = old.count
        var newHi = new.count
        while oldHi > lo && newHi > lo && old[oldHi - 1].diffIdentifier == new[newHi - 1].diffIdentifier {
            oldHi -= 1
            newHi -= 1
            matching.pair(old: oldHi, new: newHi)
        }
        if lo < oldHi && lo < newHi && _pairDirectly(old[lo..<oldHi], new[lo..<newHi], offset: lo, into: &matching) {
            // Few differences: paired without hashing (see `_pairDirectly`).
        } else if lo < oldHi && lo < newHi {
            // 1. Intern the identifiers of what is left.
            let (a, b, symbolCount) = _intern(old[lo..<oldHi], new[lo..<newHi])
            // 3–4. The minimal script's paired elements.
            _MyersSearch<Int>.commonSubsequence(a, b, symbolCount: symbolCount) { o, n in
                matching.pair(old: lo + o, new: lo + n)
            }
            // 5. Pair deleted and inserted occurrences of one identifier, in order, into moves.
            var head = [Int](repeating: -1, count: symbolCount)
            var tail = [Int](repeating: -1, count: symbolCount)
            var nextDeleted = [Int](repeating: -1, count: a.count)
            for o in 0..<a.count where matching.oldToNew[lo + o] < 0 {
                let s = a[o]
                if tail[s] < 0 { head[s] = o } else { nextDeleted[tail[s]] = o }
                tail[s] = o
            }
            for n in 0..<b.count where matching.newToOld[lo + n] < 0 {
                let s = b[n]
                let o = head[s]
                if o >= 0 {
                    head[s] = nextDeleted[o]
                    matching.pair(old: lo + o, new: lo + n)
                }
            }
        }

        // 6. One update flag per pair.
        for n in 0..<new.count {
            let o = matching.newToOld[n]
            if o >= 0 && new[n]._isUpdated(from: old[o], comparison: comparison) {
                matching.updated[n] = true
            }
        }
        return matching
    }
}

/// The fast path for lists that differ little: the Myers search runs on the identifiers themselves,
/// compared with `==` and never hashed, with a budget of edit steps; only the unpaired elements
/// are then hashed, to pair same-identifier deletes and inserts into moves. Returns `false`, having
/// paired nothing, when the lists differ too much (the caller then interns everything and sets
/// one-sided identifiers aside). Scattered edits cost about O(n + D²), so the budget of
/// 4·√(n + m) + 16 steps per bisection keeps a failed attempt to O(n + m).
@inlinable
func _pairDirectly<Element: Diffable>(
    _ old: ArraySlice<Element>, _ new: ArraySlice<Element>, offset: Int, into matching: inout Matching
) -> Bool {
    let budget = 4 * Int(Double(old.count + new.count).squareRoot()) + 16
    var search = _MyersSearch(a: old.map { $0.diffIdentifier }, b: new.map { $0.diffIdentifier }, budget: budget)
    var pairs: [(Int, Int)] = []
    search.solve(0, old.count, 0, new.count) { pairs.append(($0, $1)) }
    if search.exceeded { return false }
    for (o, n) in pairs { matching.pair(old: offset + o, new: offset + n) }
    // Pair leftover deletes and inserts of one identifier, in order, into moves.
    var deleted: [Element.DiffIdentifier: [Int]] = [:]
    for o in 0..<old.count where matching.oldToNew[offset + o] < 0 {
        deleted[old[old.startIndex + o].diffIdentifier, default: []].append(o)
    }
    if deleted.isEmpty { return true }
    var next: [Element.DiffIdentifier: Int] = [:]
    for n in 0..<new.count where matching.newToOld[offset + n] < 0 {
        let id = new[new.startIndex + n].diffIdentifier
        guard let occurrences = deleted[id] else { continue }
        let k = next[id, default: 0]
        if k < occurrences.count {
            matching.pair(old: offset + occurrences[k], new: offset + n)
            next[id] = k + 1
        }
    }
    return true
}

/// Interns the identifiers of both lists to dense integers `0..<symbolCount`, in order of first
/// appearance (old list first).
///
/// The shared ``_IdentifierTable``: each identifier is hashed once; a slot's key is the index of
/// its identifier's first occurrence (≥ 0 in old, `~index` in new) and its payload the symbol, so
/// identifiers are compared only on a likely hit.
///
/// - Complexity: O(n + m) expected.
@inlinable
func _intern<Element: Diffable>(
    _ old: ArraySlice<Element>, _ new: ArraySlice<Element>
) -> (a: [Int], b: [Int], symbolCount: Int) {
    // 32-bit keys and symbols when the lists fit: a 12-byte slot instead of 24.
    old.count + new.count < Int(Int32.max) / 4
        ? _intern(old, new, index: Int32.self) : _intern(old, new, index: Int.self)
}

/// ``_intern(_:_:)`` with keys and symbols stored as `Index`, which must hold ±(n + m).
@inlinable
func _intern<Element: Diffable, Index: FixedWidthInteger & SignedInteger>(
    _ old: ArraySlice<Element>, _ new: ArraySlice<Element>, index _: Index.Type
) -> (a: [Int], b: [Int], symbolCount: Int) {
    typealias Table = _IdentifierTable<Index, Index>
    var table = Table(capacityFor: old.count + new.count, empty: -1)
    let mask = table.mask
    var symbolCount = 0
    var a = [Int](repeating: 0, count: old.count)
    var b = [Int](repeating: 0, count: new.count)
    old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
            table.slots.withUnsafeMutableBufferPointer { slots in
                func symbol(_ id: Element.DiffIdentifier, representing index: Int) -> Int {
                    let (hash, tag) = Table.hashAndTag(id)
                    let (s, found) = Table.find(slots, mask: mask, hash: hash, tag: tag) { key in
                        let r = Int(key)
                        return (r >= 0 ? old[r].diffIdentifier : new[~r].diffIdentifier) == id
                    }
                    if found { return Int(slots[s].payload) }
                    slots[s] = .init(tag: tag, key: Index(index), payload: Index(symbolCount))
                    symbolCount &+= 1
                    return symbolCount &- 1
                }
                for i in 0..<old.count { a[i] = symbol(old[i].diffIdentifier, representing: i) }
                for i in 0..<new.count { b[i] = symbol(new[i].diffIdentifier, representing: ~i) }
            }
        }
    }
    return (a, b, symbolCount)
}

/// The linear-space Myers search over interned identifiers.
@usableFromInline
struct _MyersSearch<Symbol: Equatable> {
    /// The (possibly filtered) sequences the search runs on, and the original index of each
    /// element (empty: the identity).
    @usableFromInline let a: [Symbol]
    @usableFromInline let b: [Symbol]
    @usableFromInline let aIndex: [Int]
    @usableFromInline let bIndex: [Int]
    /// Furthest-reaching x per diagonal, forward and backward; reused by every bisection.
    @usableFromInline var forward: [Int]
    @usableFromInline var backward: [Int]
    /// The most edit steps one bisection may take before the search gives up (``exceeded``).
    @usableFromInline let budget: Int
    /// Whether some bisection needed more than ``budget`` steps; the pairs are then incomplete.
    @usableFromInline var exceeded = false

    @inlinable
    init(a: [Symbol], b: [Symbol], aIndex: [Int] = [], bIndex: [Int] = [], budget: Int = .max) {
        self.a = a
        self.b = b
        self.aIndex = aIndex
        self.bIndex = bIndex
        self.budget = budget
        let capacity = a.count + b.count + 4
        forward = [Int](repeating: -1, count: capacity)
        backward = [Int](repeating: -1, count: capacity)
    }

    @inlinable @inline(__always)
    func originalA(_ i: Int) -> Int { aIndex.isEmpty ? i : aIndex[i] }

    @inlinable @inline(__always)
    func originalB(_ j: Int) -> Int { bIndex.isEmpty ? j : bIndex[j] }

    /// Calls `pair(oldIndex, newIndex)` for the elements of one longest common subsequence of `a`
    /// and `b`, in ascending order.
    ///
    /// - Complexity: O((n + m) · D) time, O(n + m) space.
    @inlinable
    static func commonSubsequence(
        _ a: [Int], _ b: [Int], symbolCount: Int, pair: (Int, Int) -> Void
    ) where Symbol == Int {
        // The caller has paired the common prefix and suffix (the engine trims them before
        // interning); in untrimmed lists the search finds them as snakes anyway.
        // Set aside identifiers found on one side only.
        var inA = [Bool](repeating: false, count: symbolCount)
        var inB = [Bool](repeating: false, count: symbolCount)
        for symbol in a { inA[symbol] = true }
        for symbol in b { inB[symbol] = true }
        let aIndex = a.indices.filter { inB[a[$0]] }
        let bIndex = b.indices.filter { inA[b[$0]] }
        if !aIndex.isEmpty && !bIndex.isEmpty {
            var search = _MyersSearch<Int>(
                a: aIndex.map { a[$0] }, b: bIndex.map { b[$0] }, aIndex: aIndex, bIndex: bIndex)
            search.solve(0, aIndex.count, 0, bIndex.count, pair)
        }
    }

    /// Pairs the common subsequence of `a[aLo..<aHi]` and `b[bLo..<bHi]`.
    @inlinable
    mutating func solve(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int, _ pair: (Int, Int) -> Void) {
        var aLo = aLo
        var bLo = bLo
        var aHi = aHi
        var bHi = bHi
        while aLo < aHi && bLo < bHi && a[aLo] == b[bLo] {
            pair(originalA(aLo), originalB(bLo))
            aLo += 1
            bLo += 1
        }
        var suffix = 0
        while aHi > aLo && bHi > bLo && a[aHi - 1] == b[bHi - 1] {
            aHi -= 1
            bHi -= 1
            suffix += 1
        }
        if !exceeded && aLo < aHi && bLo < bHi, let (x, y) = bisect(aLo, aHi, bLo, bHi),
            (x, y) != (aLo, bLo) && (x, y) != (aHi, bHi)
        {
            solve(aLo, x, bLo, y, pair)
            solve(x, aHi, y, bHi, pair)
        }
        for k in 0..<suffix { pair(originalA(aHi + k), originalB(bHi + k)) }
    }

    /// Finds a point on an optimal edit path of `a[aLo..<aHi]` → `b[bLo..<bHi]` where the forward
    /// and backward searches meet (the middle snake), or `nil` when the ranges share nothing.
    ///
    /// Invariants: `forward[offset + k]` is the furthest x reached on diagonal k = x − y after d
    /// steps from the top-left; `backward[offset + k]` the same from the bottom-right, with x and y
    /// measured from the end. When the difference of lengths is odd the paths can first meet on a
    /// forward step, when even on a backward one.
    ///
    /// Only what the search can read is cleared: before round d, the diagonals ±(d + 1) (the
    /// ones round d may read beside its own), so every entry within ±(d + 1) of the center is
    /// either −1 or written by this call; the meeting checks read the other direction's entry
    /// only within that range. The cleared −1 on either side of round d's diagonals is also
    /// what sends the steps at k = ±d inward, with no test of k. Clearing both arrays whole on every call cost O(n + m) per
    /// bisection, most of the work when many bisections each take a few steps (small edits).
    ///
    /// The hot loop works on raw pointers held in locals, with wrapping arithmetic: every value
    /// is an index or a diagonal of the two ranges, so within ±(n + m + 2), far from overflow
    /// (the lists' counts are array counts). Checked arithmetic and reloading the buffers from
    /// memory cost more than the comparisons themselves on lists that differ a lot.
    @inlinable
    mutating func bisect(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int) -> (Int, Int)? {
        let n = aHi &- aLo
        let m = bHi &- bLo
        let maxD = (n &+ m &+ 1) / 2
        let offset = maxD
        let delta = n &- m
        let forwardMeets = delta & 1 != 0
        let budget = self.budget
        let found: (Int, Int)?? = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                forward.withUnsafeMutableBufferPointer { v1 in
                    backward.withUnsafeMutableBufferPointer { v2 in
                        // The ranges' first elements, and one past their last (for the backward search).
                        guard let aBase = a.baseAddress, let bBase = b.baseAddress, let f = v1.baseAddress, let r = v2.baseAddress else {
                            return .some(nil)
                        }
                        let aStart = aBase + aLo
                        let bStart = bBase + bLo
                        let aEnd = aBase + aHi
                        let bEnd = bBase + bHi
                        // Round 0 reads the diagonals −1 and 1; the start point is x = 0 on diagonal 1.
                        (f[offset &- 1], f[offset], f[offset &+ 1]) = (-1, -1, 0)
                        (r[offset &- 1], r[offset], r[offset &+ 1]) = (-1, -1, 0)
                        // Diagonals that ran off the grid are skipped from then on.
                        var k1Start = 0
                        var k1End = 0
                        var k2Start = 0
                        var k2End = 0
                        var d = 0
                        while d < maxD {
                            if d > budget { return .none }
                            if d > 0 {
                                // Within the arrays: d + 1 ≤ maxD = offset, and they hold 2 · maxD + 2 entries or more.
                                (f[offset &- d &- 1], f[offset &+ d &+ 1]) = (-1, -1)
                                (r[offset &- d &- 1], r[offset &+ d &+ 1]) = (-1, -1)
                            }
                            var k1 = k1Start &- d
                            let k1Last = d &- k1End
                            while k1 <= k1Last {
                                let k1Offset = offset &+ k1
                                // At k = ±d the cleared neighbour (−1) makes the step go inward.
                                var x1 = f[k1Offset &- 1] < f[k1Offset &+ 1] ? f[k1Offset &+ 1] : f[k1Offset &- 1] &+ 1
                                var y1 = x1 &- k1
                                while x1 < n && y1 < m && aStart[x1] == bStart[y1] {
                                    x1 &+= 1
                                    y1 &+= 1
                                }
                                f[k1Offset] = x1
                                if x1 > n {
                                    k1End &+= 2
                                } else if y1 > m {
                                    k1Start &+= 2
                                } else if forwardMeets {
                                    // The backward search has cleared or written its diagonals within ±d.
                                    // −d ≤ k2 ≤ d as one unsigned comparison.
                                    let k2 = delta &- k1
                                    if UInt(bitPattern: k2 &+ d) <= UInt(bitPattern: d &* 2), case let x2 = r[offset &+ k2], x2 != -1, x1 >= n &- x2 {
                                        return .some((aLo &+ x1, bLo &+ y1))
                                    }
                                }
                                k1 &+= 2
                            }
                            var k2 = k2Start &- d
                            let k2Last = d &- k2End
                            while k2 <= k2Last {
                                let k2Offset = offset &+ k2
                                var x2 = r[k2Offset &- 1] < r[k2Offset &+ 1] ? r[k2Offset &+ 1] : r[k2Offset &- 1] &+ 1
                                var y2 = x2 &- k2
                                while x2 < n && y2 < m && aEnd[~x2] == bEnd[~y2] {
                                    x2 &+= 1
                                    y2 &+= 1
                                }
                                r[k2Offset] = x2
                                if x2 > n {
                                    k2End &+= 2
                                } else if y2 > m {
                                    k2Start &+= 2
                                } else if !forwardMeets {
                                    // The forward search has cleared or written its diagonals within ±(d + 1).
                                    let k1 = delta &- k2
                                    if UInt(bitPattern: k1 &+ d &+ 1) <= UInt(bitPattern: d &* 2 &+ 2), case let x1 = f[offset &+ k1], x1 != -1,
                                        x1 >= n &- x2
                                    {
                                        return .some((aLo &+ x1, bLo &+ x1 &- k1))
                                    }
                                }
                                k2 &+= 2
                            }
                            d &+= 1
                        }
                        return .some(nil)
                    }
                }
            }
        }
        guard let found else {
            exceeded = true
            return nil
        }
        return found
    }
}
