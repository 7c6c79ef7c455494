import DiffLabCore

// The equal-runs fast path of `HashMapEngine`: lists that differ by a few scattered edits (a
// small edit in a long list, a few moves) are paired by walking both lists in order and comparing
// identifiers, as Myers' search does along its snakes, so that only what the walk leaves unpaired
// goes into a table. A walk that finds the lists too different gives up early, within a bounded
// amount of work, and the hashing pairing runs as before.

extension HashMapEngine {
    /// Heckel's pairing by walking the lists' equal runs; `false` when the walk gave up (``out``
    /// is then left in any state, and the caller pairs the lists another way).
    ///
    /// 1. **Walk.** Both lists are read in order from `start` (the common prefix, already known
    ///    equal): equal identifiers pair up. At a difference the walk looks for the nearest
    ///    place where the runs meet again: the least `d` (up to ``Trimming/walkRadius``) with
    ///    some `a + b = d` for which `old[i + a] == new[j + b]`; the `a` old and `b` new elements
    ///    skipped are left unpaired. When no meeting lies within the radius, or one list ends,
    ///    what is left of both lists is left unpaired. Each pair's own update is judged on the
    ///    way.
    /// 2. **The bound.** The walk gives up as soon as the elements left unpaired exceed an
    ///    eighth of those read (plus 16), or the comparisons spent looking for meetings exceed
    ///    the elements read (plus 64; the test follows each search, which takes at most
    ///    about radius²/2 comparisons), or the tails left unpaired at the end would exceed an
    ///    eighth of both lists (plus 16). So a walk that gives up has spent about two
    ///    identifier comparisons and one update judgement per element read, against the
    ///    hashing pairing's two hashes, a table probe and several array writes per element.
    /// 3. **Heckel's pairing when** no identifier left unpaired by the walk also occurs in a pair
    ///    of the walk (a sufficient condition, not a necessary one: the walk may give up on a
    ///    pairing that was Heckel's). Then every occurrence of a walked identifier is paired in
    ///    list order (its k-th with its k-th), and every occurrence of an unpaired identifier is
    ///    unpaired, so pairing those by the single-table pairing is Heckel's pairing of them.
    ///    The check compares each walked pair's identifier with the few keys directly (up to
    ///    ``Trimming/directCompareLimit``), or hashes it once into a table of them; a check that
    ///    fails (a moved duplicate) has cost up to that many comparisons, or one hash, per pair
    ///    probed, and the walk gives up.
    /// 4. **Update flags**, one per identifier: the unpaired elements' pairing merges its own;
    ///    a walked pair not updated whose identifier has an updated walked pair is flagged, in
    ///    the same pass as the check (``_checkWalk(_:_:_:unpairedOld:unpairedNew:updatedNew:pairs:_:)``).
    ///    Walked and unpaired identifiers never meet (step 3), so no flag crosses between them.
    ///
    /// See "The walk" in the Benchmarks article for what it measured.
    ///
    /// - Precondition: both lists are non-empty; `old[0..<start]` and `new[0..<start]` have equal
    ///   identifiers.
    /// - Complexity: O(n + m) comparisons (the bound), plus O(n + m) expected for the check and
    ///   the unpaired elements' pairing.
    @inlinable
    func _pairWalked<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ out: _MatchingBuffers, from start: Int, _ clock: inout Clock, _ scratch: inout _HashMapScratch
    ) -> Bool {
        let n = old.count
        let m = new.count
        let radius = trimming.walkRadius
        if radius == 0 || n >= Int(Int32.max) / 4 || m >= Int(Int32.max) / 4 { return false }
        let oldToNew = out.oldToNew
        let newToOld = out.newToOld
        let flags = out.updated
        var unpairedOld = _take(&scratch.walkOld, leaving: [])
        var unpairedNew = _take(&scratch.walkNew, leaving: [])
        var updatedNew = _take(&scratch.walkUpdatedNew, leaving: [])
        defer {
            scratch.walkOld = unpairedOld
            scratch.walkNew = unpairedNew
            scratch.walkUpdatedNew = updatedNew
        }
        unpairedOld.removeAll(keepingCapacity: true)
        unpairedNew.removeAll(keepingCapacity: true)
        updatedNew.removeAll(keepingCapacity: true)
        @inline(__always) func pair(_ o: Int, _ j: Int) {
            oldToNew[o] = j
            newToOld[j] = o
            let isUpdated = new[j]._isUpdated(from: old[o], comparison: comparison)
            flags[j] = isUpdated
            if isUpdated { updatedNew.append(Int32(truncatingIfNeeded: j)) }
        }
        @inline(__always) func leaveOld(_ range: Range<Int>) {
            for o in range {
                oldToNew[o] = -1
                unpairedOld.append(Int32(truncatingIfNeeded: o))
            }
        }
        @inline(__always) func leaveNew(_ range: Range<Int>) {
            for j in range {
                newToOld[j] = -1
                flags[j] = false
                unpairedNew.append(Int32(truncatingIfNeeded: j))
            }
        }
        // 1–2. The walk, within its bound.
        var i = start
        var j = start
        for k in 0..<start { pair(k, k) }
        var searched = 0
        while true {
            while i < n && j < m && old[i].diffIdentifier == new[j].diffIdentifier {
                pair(i, j)
                i &+= 1
                j &+= 1
            }
            if i == n || j == m { break }
            var skipOld = -1
            var skipNew = 0
            search: for d in 1...radius {
                for a in 0...d {
                    let b = d &- a
                    if i &+ a >= n || j &+ b >= m { continue }
                    searched &+= 1
                    if old[i &+ a].diffIdentifier == new[j &+ b].diffIdentifier {
                        skipOld = a
                        skipNew = b
                        break search
                    }
                }
            }
            if skipOld < 0 {
                // No meeting within the radius: the rest is left unpaired (the check makes any
                // pairing in list order safe) if the bound allows it, else the walk gives up.
                break
            }
            leaveOld(i..<(i &+ skipOld))
            leaveNew(j..<(j &+ skipNew))
            i &+= skipOld
            j &+= skipNew
            let read = i &+ j
            if (unpairedOld.count &+ unpairedNew.count) &* 8 > read &+ 128 || searched > read &+ 64 { return false }
        }
        // The tails left, checked against the bound before they are written.
        if (unpairedOld.count &+ unpairedNew.count &+ (n &- i) &+ (m &- j)) &* 8 > n &+ m &+ 128 { return false }
        leaveOld(i..<n)
        leaveNew(j..<m)
        clock.lap(.trim)

        // 3–4. No walked pair may share its identifier with an unpaired element, and a walked
        // pair not updated whose identifier has an updated one is flagged: one pass.
        let checked = unpairedOld.withUnsafeBufferPointer { unpairedOld in
            unpairedNew.withUnsafeBufferPointer { unpairedNew in
                updatedNew.withUnsafeBufferPointer { updatedNew in
                    _checkWalk(
                        old, new, out, unpairedOld: unpairedOld, unpairedNew: unpairedNew, updatedNew: updatedNew,
                        pairs: n &- unpairedOld.count, &scratch.crossSlots)
                }
            }
        }
        if !checked { return false }
        clock.lap(.join)
        if !unpairedOld.isEmpty && !unpairedNew.isEmpty {
            // The unpaired elements' own pairing (moves), in the single table's buffers.
            unpairedOld.withUnsafeBufferPointer { unpairedOld in
                unpairedNew.withUnsafeBufferPointer { unpairedNew in
                    _pairGathered(old, new, unpairedOld, unpairedNew, comparison, out, &clock, &scratch)
                }
            }
        }
        clock.lap(.verify)
        return true
    }

    /// Pairs the elements the walk left unpaired, `old[unpairedOld[k]]` and `new[unpairedNew[k]]`,
    /// with the single-table pairing (``_pair(_:_:_:_:_:_:_:_:_:)``) on views of them, and writes the
    /// pairs and their flags into `out` at the lists' own indices.
    ///
    /// - Complexity: O(u) expected for u unpaired elements.
    @inlinable
    func _pairGathered<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ unpairedOld: UnsafeBufferPointer<Int32>,
        _ unpairedNew: UnsafeBufferPointer<Int32>, _ comparison: ComparisonOption, _ out: _MatchingBuffers, _ clock: inout Clock,
        _ scratch: inout _HashMapScratch
    ) {
        var localOldToNew = _take(&scratch.walkOldToNew, leaving: [])
        var localNewToOld = _take(&scratch.walkNewToOld, leaving: [])
        var localUpdated = _take(&scratch.walkUpdated, leaving: [])
        defer {
            scratch.walkOldToNew = localOldToNew
            scratch.walkNewToOld = localNewToOld
            scratch.walkUpdated = localUpdated
        }
        _reuse(&localOldToNew, count: unpairedOld.count, filler: -1) { $0.initialize(repeating: -1) }
        _reuse(&localNewToOld, count: unpairedNew.count, filler: -1) { $0.initialize(repeating: -1) }
        _reuse(&localUpdated, count: unpairedNew.count, filler: false) { $0.initialize(repeating: false) }
        let gatheredOld = _Gathered(base: old, positions: unpairedOld)
        let gatheredNew = _Gathered(base: new, positions: unpairedNew)
        localOldToNew.withUnsafeMutableBufferPointer { localOldToNew in
            localNewToOld.withUnsafeMutableBufferPointer { localNewToOld in
                localUpdated.withUnsafeMutableBufferPointer { localUpdated in
                    let local = _MatchingBuffers(oldToNew: localOldToNew, newToOld: localNewToOld, updated: localUpdated)
                    _pair(
                        gatheredOld, gatheredNew, comparison, local, &scratch.pairSlots, &scratch.pairNext, &scratch.newSlot,
                        &scratch.slotUpdated, &clock)
                    for k in 0..<unpairedNew.count {
                        let q = localNewToOld[k]
                        if q < 0 { continue }
                        let o = Int(unpairedOld[q])
                        let j = Int(unpairedNew[k])
                        out.oldToNew[o] = j
                        out.newToOld[j] = o
                        out.updated[j] = localUpdated[k]
                    }
                }
            }
        }
    }

    /// Steps 3 and 4 of ``_pairWalked(_:_:_:_:from:_:_:)`` in one pass over the walked pairs:
    /// `false` when one shares its identifier with an unpaired element (`unpairedOld`,
    /// `unpairedNew`); otherwise every walked pair not updated whose identifier has an updated
    /// walked pair (`updatedNew`, new indices) is flagged, and `true`.
    ///
    /// The keys are the unpaired elements and, when some walked pairs are updated and others
    /// not, the updated ones. Up to `directCompareLimit` keys are compared directly with each
    /// probe's identifier, the unpaired first; more go into one ``_IdentifierTable`` and each
    /// probe is hashed once. The probes are every walked pair when some element is unpaired,
    /// else the pairs not updated. (Even a pair of the leading equal run, whose rank is the same
    /// in both lists, is probed: were it exempt, an unpaired element of its identifier would be
    /// paired apart from it, and the flags of the two would not be merged.)
    ///
    /// - Complexity: O(m) expected; O(m · keys) comparisons with at most `directCompareLimit` keys.
    @inlinable
    func _checkWalk<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ out: _MatchingBuffers,
        unpairedOld: UnsafeBufferPointer<Int32>, unpairedNew: UnsafeBufferPointer<Int32>, updatedNew: UnsafeBufferPointer<Int32>,
        pairs: Int, _ tableStorage: inout [_IdentifierTable<Int, Void>.Slot]
    ) -> Bool {
        let n = old.count
        let m = new.count
        let unpaired = unpairedOld.count &+ unpairedNew.count
        let merges = !updatedNew.isEmpty && updatedNew.count < pairs
        let keyCount = unpaired &+ (merges ? updatedNew.count : 0)
        if keyCount == 0 { return true }
        let newToOld = out.newToOld
        let flags = out.updated
        // Tokens: unpaired old o is o, unpaired new j is n + j, an updated walked pair's new j is
        // n + m + j.
        let unpairedEnd = n &+ m
        @inline(__always) func identifier(_ token: Int) -> Element.DiffIdentifier {
            token < n ? old[token].diffIdentifier : new[token < unpairedEnd ? token &- n : token &- unpairedEnd].diffIdentifier
        }
        @inline(__always) func eachKey(_ body: (Int) -> Bool) -> Bool {
            for o in unpairedOld where !body(Int(o)) { return false }
            for j in unpairedNew where !body(n &+ Int(j)) { return false }
            if merges { for j in updatedNew where !body(unpairedEnd &+ Int(j)) { return false } }
            return true
        }
        // A probe that shares an updated pair's identifier is flagged; one that shares an
        // unpaired element's ends the check.
        @inline(__always) func hit(_ j: Int, _ token: Int) -> Bool {
            if token < unpairedEnd { return false }
            flags[j] = true
            return true
        }
        @inline(__always) func probes(_ j: Int) -> Bool { newToOld[j] >= 0 && (unpaired > 0 || !flags[j]) }
        if keyCount <= trimming.directCompareLimit {
            // The keys' identifiers are copied out once, so a comparison reads no element.
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: keyCount) { tokens in
                withUnsafeTemporaryAllocation(of: Element.DiffIdentifier.self, capacity: keyCount) { ids in
                    var count = 0
                    _ = eachKey { token in
                        tokens[count] = token
                        (ids.baseAddress! + count).initialize(to: identifier(token))
                        count &+= 1
                        return true
                    }
                    defer { ids.baseAddress!.deinitialize(count: count) }
                    for j in 0..<m where probes(j) {
                        let id = new[j].diffIdentifier
                        for k in 0..<count where ids[k] == id {
                            if !hit(j, tokens[k]) { return false }
                            break
                        }
                    }
                    return true
                }
            }
        }
        typealias Table = _IdentifierTable<Int, Void>
        var table = Table(capacityFor: keyCount, empty: (), reusing: &tableStorage)
        defer { table.returnStorage(to: &tableStorage) }
        let mask = table.mask
        return table.slots.withUnsafeMutableBufferPointer { slots in
            // An updated pair that shares an unpaired element's identifier fails the check here.
            let keyed = eachKey { token in
                let id = identifier(token)
                let (hash, tag) = Table.hashAndTag(id)
                let (s, found) = Table.find(slots, mask: mask, hash: hash, tag: tag) { identifier($0) == id }
                if !found {
                    slots[s] = .init(tag: tag, key: token, payload: ())
                    return true
                }
                return token < unpairedEnd || slots[s].key >= unpairedEnd
            }
            if !keyed { return false }
            for j in 0..<m where probes(j) {
                let id = new[j].diffIdentifier
                let (hash, tag) = Table.hashAndTag(id)
                let (s, found) = Table.find(slots, mask: mask, hash: hash, tag: tag) { identifier($0) == id }
                if found && !hit(j, slots[s].key) { return false }
            }
            return true
        }
    }
}

/// Elements of a list at some of its indices, as a collection indexed from 0: the view the
/// single-table pairing reads the walk's unpaired elements through, without copying them.
@usableFromInline
struct _Gathered<Element>: RandomAccessCollection {
    @usableFromInline let base: UnsafeBufferPointer<Element>
    @usableFromInline let positions: UnsafeBufferPointer<Int32>

    @inlinable
    init(base: UnsafeBufferPointer<Element>, positions: UnsafeBufferPointer<Int32>) {
        self.base = base
        self.positions = positions
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { positions.count }
    @inlinable subscript(position: Int) -> Element { base[Int(positions[position])] }
}
