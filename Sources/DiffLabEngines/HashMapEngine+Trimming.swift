import DiffLabCore

// The common-ends fast path of `HashMapEngine`: lists that keep their head and tail (a chat that
// appends, a feed whose items all changed content) are paired by comparing identifiers in list
// order, which streams memory and hashes nothing.

extension HashMapEngine {
    /// Heckel's pairing with the lists' common ends paired in place.
    ///
    /// 1. **Trim.** The longest common prefix `p` and then the longest common suffix `s` of what
    ///    remains, by identifier (`==`, no hashing), are paired position by position; each such
    ///    pair's own update is judged. When they hold less than ``Trimming/minimumShare`` of the
    ///    longer list, the lists are paired whole instead; when the middle between them holds
    ///    more than ``Trimming/suffixMiddleLimit`` elements, only the prefix is set aside.
    /// 2. **Middle.** The rest, `old[p..<n-s]` and `new[p..<m-s]`, is paired by
    ///    ``_matchingUntrimmed(_:_:_:)`` (partitioned or one table, as without trimming).
    /// 3. **The prefix is always Heckel's pairing**: an identifier's prefix occurrences are its
    ///    first ones in both lists, at the same positions, so its k-th new occurrence takes its
    ///    k-th old one there, and the remaining occurrences keep their order in the middle.
    /// 4. **The suffix is Heckel's pairing exactly when** each of its identifiers occurs as often
    ///    in the old middle as in the new one; otherwise Heckel pairs an occurrence of the middle
    ///    with one of the suffix. Such an identifier leaves an occurrence of the middle unpaired,
    ///    so the suffix is kept only if no unpaired element of the middle shares an identifier
    ///    with it; otherwise the pairing is redone with the prefix alone trimmed.
    /// 5. **Update flags.** "Updated" is one flag per identifier. The middle's flags are already
    ///    merged by its pairing; a trimmed pair not updated whose identifier has an updated pair
    ///    anywhere, and a middle pair not updated whose identifier has an updated trimmed pair,
    ///    are flagged. Nothing is looked up when no pair, or every pair, is updated.
    ///
    /// The cross-checks of steps 4 and 5 compare identifiers directly (`==` against each) when
    /// one side has at most ``Trimming/directCompareLimit`` elements, and hash otherwise (a table
    /// over one side, probed by the other): each element of the trimmed ends is then hashed at
    /// most once, where the pairing without trimming would hash it twice.
    ///
    /// - Precondition: both lists are non-empty.
    /// - Complexity: O(n + m) expected: O(p + s) identifier and content comparisons, the
    ///   middle's pairing, and cross-checks of O(n + m) comparisons (direct) or hashes.
    @inlinable
    func _matchingTrimmed<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ clock: inout Clock
    ) -> Matching {
        let n = old.count
        let m = new.count
        let shorter = min(n, m)
        var p = 0
        while p < shorter && old[p].diffIdentifier == new[p].diffIdentifier { p &+= 1 }
        // A suffix around a large middle would cost more to check than to pair: only a suffix of
        // at least `needed` elements is kept, and those are compared first, from the inside out,
        // so a suffix too short to keep is given up at its first difference from that end.
        let remaining = (n &- p) &+ (m &- p)
        let limit = trimming.suffixMiddleLimit
        let needed = remaining > limit ? (remaining &- limit &+ 1) / 2 : 0
        var s = 0
        if needed <= shorter &- p {
            var k = needed &- 1
            while k >= 0 && old[n &- 1 &- k].diffIdentifier == new[m &- 1 &- k].diffIdentifier { k &-= 1 }
            if k < 0 {
                s = needed
                while s < shorter &- p && old[n &- 1 &- s].diffIdentifier == new[m &- 1 &- s].diffIdentifier { s &+= 1 }
            }
        }
        clock.lap(.trim)
        if p == 0 && s == 0 || Double(p &+ s) < trimming.minimumShare * Double(max(n, m)) {
            return _matchingUntrimmed(old, new, comparison, &clock)
        }
        var (matching, counts) = _splicedMatching(old, new, comparison, prefix: p, suffix: s, &clock)
        if s > 0 && _suffixSharesUnpairedIdentifier(old, new, &matching, counts, prefix: p, suffix: s) {
            s = 0
            (matching, counts) = _splicedMatching(old, new, comparison, prefix: p, suffix: 0, &clock)
        }
        _mergeTrimmedUpdates(old, new, &matching, counts, prefix: p, suffix: s)
        clock.lap(.assemble)
        return matching
    }

    /// The matching of the whole lists from the pairing of their middle `old[p..<n-s]`,
    /// `new[p..<m-s]` and the prefix and suffix paired position by position, each trimmed
    /// pair's update judged on its own; and the counts the cross-checks need.
    ///
    /// - Complexity: O(n + m) plus the middle's pairing.
    @inlinable
    func _splicedMatching<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        prefix p: Int, suffix s: Int, _ clock: inout Clock
    ) -> (Matching, _TrimCounts) {
        var counts = _TrimCounts()
        let n = old.count
        let m = new.count
        let middle = _matchingUntrimmed(
            UnsafeBufferPointer(rebasing: old[p..<(n &- s)]), UnsafeBufferPointer(rebasing: new[p..<(m &- s)]), comparison, &clock)
        let oldToNew = [Int](unsafeUninitializedCapacity: n) { pairs, initialized in
            middle.oldToNew.withUnsafeBufferPointer { inner in
                for o in 0..<p { pairs[o] = o }
                for i in 0..<inner.count {
                    if inner[i] < 0 {
                        pairs[p &+ i] = -1
                        counts.middleUnpaired &+= 1
                    } else {
                        pairs[p &+ i] = inner[i] &+ p
                    }
                }
                for o in (n &- s)..<n { pairs[o] = o &- n &+ m }
            }
            initialized = n
        }
        var updated: [Bool] = []
        let newToOld = [Int](unsafeUninitializedCapacity: m) { pairs, pairsInitialized in
            updated = [Bool](unsafeUninitializedCapacity: m) { flags, flagsInitialized in
                middle.newToOld.withUnsafeBufferPointer { inner in
                    middle.updated.withUnsafeBufferPointer { innerUpdated in
                        var trimmedUpdated = 0
                        for i in 0..<p {
                            pairs[i] = i
                            let isUpdated = new[i]._isUpdated(from: old[i], comparison: comparison)
                            flags[i] = isUpdated
                            if isUpdated { trimmedUpdated &+= 1 }
                        }
                        for i in 0..<inner.count {
                            let o = inner[i]
                            if o < 0 {
                                pairs[p &+ i] = -1
                                counts.middleUnpaired &+= 1
                            } else {
                                pairs[p &+ i] = o &+ p
                                counts.middlePaired &+= 1
                                if innerUpdated[i] { counts.middleUpdated &+= 1 }
                            }
                            flags[p &+ i] = innerUpdated[i]
                        }
                        for i in (m &- s)..<m {
                            let o = i &- m &+ n
                            pairs[i] = o
                            let isUpdated = new[i]._isUpdated(from: old[o], comparison: comparison)
                            flags[i] = isUpdated
                            if isUpdated { trimmedUpdated &+= 1 }
                        }
                        counts.trimmedUpdated = trimmedUpdated
                    }
                }
                flagsInitialized = m
            }
            pairsInitialized = m
        }
        return (Matching(oldToNew: oldToNew, newToOld: newToOld, updated: updated), counts)
    }

    /// Step 4 of ``_matchingTrimmed(_:_:_:)``: whether an unpaired element of the middle (old or
    /// new) shares its identifier with the suffix, so that trimming the suffix would not be
    /// Heckel's pairing.
    ///
    /// - Complexity: O(middle + s): comparisons when one side is small, else hashes.
    @inlinable
    func _suffixSharesUnpairedIdentifier<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ matching: inout Matching,
        _ counts: _TrimCounts, prefix p: Int, suffix s: Int
    ) -> Bool {
        let n = old.count
        let m = new.count
        let limit = trimming.directCompareLimit
        if counts.middleUnpaired == 0 { return false }
        return matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.newToOld.withUnsafeBufferPointer { newToOld in
                matching.updated.withUnsafeMutableBufferPointer { updated in
                    Self._sharedIdentifiers(
                        old, new, oldToNew, newToOld, updated,
                        keys: [
                            _TrimSegment(isNew: false, range: p..<(n &- s), filter: .unpaired),
                            _TrimSegment(isNew: true, range: p..<(m &- s), filter: .unpaired),
                        ],
                        probes: [_TrimSegment(isNew: true, range: (m &- s)..<m, filter: .all)],
                        keyCount: counts.middleUnpaired, probeCount: s, directLimit: limit, flagProbes: false) > 0
                }
            }
        }
    }

    /// Step 5 of ``_matchingTrimmed(_:_:_:)``: one update flag per identifier across the
    /// trimmed ends and the middle.
    ///
    /// - Complexity: O(m) flag reads; when some pairs are updated and others not, cross-checks
    ///   of O(m) comparisons or hashes.
    @inlinable
    func _mergeTrimmedUpdates<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ matching: inout Matching,
        _ counts: _TrimCounts, prefix p: Int, suffix s: Int
    ) {
        let m = new.count
        let limit = trimming.directCompareLimit
        // Trimmed (x) and middle (y) pairs, updated or not kept as they were.
        var xUpdated = counts.trimmedUpdated
        let xKept = p &+ s &- xUpdated
        let yUpdated = counts.middleUpdated
        let yKept = counts.middlePaired &- yUpdated
        // Without pairs of both kinds every flag already holds.
        if xUpdated &+ yUpdated == 0 || xKept &+ yKept == 0 { return }
        let prefix = 0..<p
        let middle = p..<(m &- s)
        let suffix = (m &- s)..<m
        matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.newToOld.withUnsafeBufferPointer { newToOld in
                matching.updated.withUnsafeMutableBufferPointer { updated in
                    // Trimmed pairs not updated, against every updated pair.
                    if xKept > 0 {
                        xUpdated &+= Self._sharedIdentifiers(
                            old, new, oldToNew, newToOld, updated,
                            keys: [
                                _TrimSegment(isNew: true, range: prefix, filter: .updated),
                                _TrimSegment(isNew: true, range: suffix, filter: .updated),
                                _TrimSegment(isNew: true, range: middle, filter: .updated),
                            ],
                            probes: [
                                _TrimSegment(isNew: true, range: prefix, filter: .kept),
                                _TrimSegment(isNew: true, range: suffix, filter: .kept),
                            ],
                            keyCount: xUpdated &+ yUpdated, probeCount: xKept, directLimit: limit, flagProbes: true)
                    }
                    // Middle pairs not updated, against the updated trimmed pairs (those flagged
                    // just now included: their identifiers have an updated pair too).
                    if yKept > 0 && xUpdated > 0 {
                        _ = Self._sharedIdentifiers(
                            old, new, oldToNew, newToOld, updated,
                            keys: [
                                _TrimSegment(isNew: true, range: prefix, filter: .updated),
                                _TrimSegment(isNew: true, range: suffix, filter: .updated),
                            ],
                            probes: [_TrimSegment(isNew: true, range: middle, filter: .kept)],
                            keyCount: xUpdated, probeCount: yKept, directLimit: limit, flagProbes: true)
                    }
                }
            }
        }
    }

    /// How many probes share an identifier with some key; with `flagProbes`, every such probe (a
    /// new index) is also flagged updated, and only probes that were not flagged before count.
    ///
    /// Keys and probes are segments of the old or the new list, filtered (``_TrimSegment``);
    /// `keyCount` and `probeCount` are how many elements they hold (exactly: the table is sized
    /// by `keyCount`).
    /// When either side has at most `directLimit` elements, that side is collected and the other
    /// compared against each of its identifiers with `==`: O(keys · probes) comparisons, with
    /// one side at most `directLimit`. Otherwise the keys go into one ``_IdentifierTable`` and
    /// each probe is hashed once: O(keys + probes) expected. Flagging a probe never changes which
    /// keys share an identifier with it (a flagged probe shares one with an updated pair).
    ///
    /// - Complexity: O(segments' lengths) to count, plus the above.
    @inlinable
    static func _sharedIdentifiers<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>,
        _ oldToNew: UnsafeBufferPointer<Int>, _ newToOld: UnsafeBufferPointer<Int>,
        _ updated: UnsafeMutableBufferPointer<Bool>,
        keys: [_TrimSegment], probes: [_TrimSegment], keyCount: Int, probeCount: Int, directLimit: Int, flagProbes: Bool
    ) -> Int {
        let n = old.count
        // Tokens: an old index o is o, a new index i is n + i.
        @inline(__always) func each(_ segments: [_TrimSegment], _ body: (Element.DiffIdentifier, Int) -> Void) {
            for segment in segments {
                for i in segment.range {
                    let accepted =
                        switch segment.filter {
                        case .all: true
                        case .unpaired: (segment.isNew ? newToOld[i] : oldToNew[i]) < 0
                        case .updated: newToOld[i] >= 0 && updated[i]
                        case .kept: newToOld[i] >= 0 && !updated[i]
                        }
                    if accepted { body(segment.isNew ? new[i].diffIdentifier : old[i].diffIdentifier, segment.isNew ? n &+ i : i) }
                }
            }
        }
        @inline(__always) func identifier(_ token: Int) -> Element.DiffIdentifier {
            token < n ? old[token].diffIdentifier : new[token &- n].diffIdentifier
        }
        if keyCount == 0 || probeCount == 0 { return 0 }
        var shared = 0
        @inline(__always) func share(_ probe: Int) {
            if !flagProbes {
                shared &+= 1
            } else if !updated[probe &- n] {
                updated[probe &- n] = true
                shared &+= 1
            }
        }
        if keyCount <= directLimit {
            var few: [Element.DiffIdentifier] = []
            few.reserveCapacity(keyCount)
            each(keys) { id, _ in few.append(id) }
            each(probes) { id, probe in if few.contains(id) { share(probe) } }
            return shared
        }
        if probeCount <= directLimit {
            var few: [(id: Element.DiffIdentifier, probe: Int)] = []
            few.reserveCapacity(probeCount)
            each(probes) { id, probe in few.append((id, probe)) }
            each(keys) { id, _ in for entry in few where entry.id == id { share(entry.probe) } }
            return shared
        }
        typealias Table = _IdentifierTable<Int, Void>
        // At most keyCount distinct keys: the table stays at most half full.
        var table = Table(capacityFor: keyCount, empty: ())
        let mask = table.mask
        table.slots.withUnsafeMutableBufferPointer { slots in
            each(keys) { id, key in
                let (hash, tag) = Table.hashAndTag(id)
                let (s, found) = Table.find(slots, mask: mask, hash: hash, tag: tag) { identifier($0) == id }
                if !found { slots[s] = .init(tag: tag, key: key, payload: ()) }
            }
            each(probes) { id, probe in
                let (hash, tag) = Table.hashAndTag(id)
                if Table.find(slots, mask: mask, hash: hash, tag: tag, matches: { identifier($0) == id }).found {
                    share(probe)
                }
            }
        }
        return shared
    }
}

/// A run of one list's indices that a trimming cross-check reads, and which of them it takes.
@usableFromInline
struct _TrimSegment {
    /// Which elements of the range are taken.
    @usableFromInline
    enum Filter {
        /// Every element.
        case all
        /// Unpaired elements.
        case unpaired
        /// Paired new elements flagged updated.
        case updated
        /// Paired new elements not flagged updated.
        case kept
    }

    /// Whether the range indexes the new list (else the old one).
    @usableFromInline let isNew: Bool
    /// The indices.
    @usableFromInline let range: Range<Int>
    /// Which of them are taken.
    @usableFromInline let filter: Filter

    @inlinable
    init(isNew: Bool, range: Range<Int>, filter: Filter) {
        self.isNew = isNew
        self.range = range
        self.filter = filter
    }
}

/// What the splice of a trimmed pairing counted, for the cross-checks.
@usableFromInline
struct _TrimCounts {
    /// Trimmed pairs (prefix and suffix) whose own contents differ.
    @usableFromInline var trimmedUpdated = 0
    /// Paired new elements of the middle.
    @usableFromInline var middlePaired = 0
    /// Of those, flagged updated by the middle's pairing.
    @usableFromInline var middleUpdated = 0
    /// Unpaired elements of the middle, old and new.
    @usableFromInline var middleUnpaired = 0

    @inlinable init() {}
}
