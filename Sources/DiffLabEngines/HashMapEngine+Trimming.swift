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
    /// 2. **Middle.** The rest, `old[p..<n-s]` and `new[p..<m-s]`, is walked
    ///    (``_pairWalked(_:_:_:_:from:_:_:)``), or when the walk gives up paired by
    ///    ``_pairUntrimmed(_:_:_:_:_:_:)`` (partitioned or one table, as without trimming). When the
    ///    ends are too short to set aside, the whole lists are walked the same way first.
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
    func _pairTrimmed<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ out: _MatchingBuffers, _ clock: inout Clock, _ scratch: inout _HashMapScratch
    ) {
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
            if _pairWalked(old, new, comparison, out, from: p, &clock, &scratch) { return }
            _pairUntrimmed(old, new, comparison, out, &clock, &scratch)
            return
        }
        var counts = _pairAround(old, new, comparison, out, prefix: p, suffix: s, &clock, &scratch)
        if s > 0 && _suffixSharesUnpairedIdentifier(old, new, out, counts, prefix: p, suffix: s, &scratch.crossSlots) {
            s = 0
            counts = _pairAround(old, new, comparison, out, prefix: p, suffix: 0, &clock, &scratch)
        }
        _mergeTrimmedUpdates(old, new, out, counts, prefix: p, suffix: s, &scratch.crossSlots)
        clock.lap(.assemble)
    }

    /// Pairs the middle `old[p..<n-s]`, `new[p..<m-s]` in place in `out` (its pairing writes
    /// middle-relative indices, which one pass then shifts by `p`), and the prefix and suffix
    /// position by position, each trimmed pair's update judged on its own; returns the counts
    /// the cross-checks need.
    ///
    /// - Complexity: O(n + m) plus the middle's pairing.
    @inlinable
    func _pairAround<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ out: _MatchingBuffers, prefix p: Int, suffix s: Int, _ clock: inout Clock, _ scratch: inout _HashMapScratch
    ) -> _TrimCounts {
        var counts = _TrimCounts()
        let n = old.count
        let m = new.count
        let oldMiddle = UnsafeBufferPointer(rebasing: old[p..<(n &- s)])
        let newMiddle = UnsafeBufferPointer(rebasing: new[p..<(m &- s)])
        let middle = out.slice(old: p..<(n &- s), new: p..<(m &- s))
        // The middle is walked when it can be (its pairing is Heckel's either way).
        if oldMiddle.isEmpty || newMiddle.isEmpty || !_pairWalked(oldMiddle, newMiddle, comparison, middle, from: 0, &clock, &scratch) {
            _pairUntrimmed(oldMiddle, newMiddle, comparison, middle, &clock, &scratch)
        }
        let oldToNew = out.oldToNew
        let newToOld = out.newToOld
        let flags = out.updated
        for o in 0..<p { oldToNew[o] = o }
        for o in p..<(n &- s) {
            let paired = oldToNew[o]
            if paired < 0 {
                counts.middleUnpaired &+= 1
            } else {
                oldToNew[o] = paired &+ p
            }
        }
        for o in (n &- s)..<n { oldToNew[o] = o &- n &+ m }
        var trimmedUpdated = 0
        // The first and last updated trimmed pair (new indices), so the cross-checks collect
        // their keys from that span alone.
        var firstUpdated = m
        var lastUpdated = -1
        for i in 0..<p {
            newToOld[i] = i
            let isUpdated = new[i]._isUpdated(from: old[i], comparison: comparison)
            flags[i] = isUpdated
            if isUpdated {
                trimmedUpdated &+= 1
                if firstUpdated == m { firstUpdated = i }
                lastUpdated = i
            }
        }
        for i in p..<(m &- s) {
            let o = newToOld[i]
            if o < 0 {
                counts.middleUnpaired &+= 1
            } else {
                newToOld[i] = o &+ p
                counts.middlePaired &+= 1
                if flags[i] { counts.middleUpdated &+= 1 }
            }
        }
        for i in (m &- s)..<m {
            let o = i &- m &+ n
            newToOld[i] = o
            let isUpdated = new[i]._isUpdated(from: old[o], comparison: comparison)
            flags[i] = isUpdated
            if isUpdated {
                trimmedUpdated &+= 1
                if firstUpdated == m { firstUpdated = i }
                lastUpdated = i
            }
        }
        counts.trimmedUpdated = trimmedUpdated
        counts.updatedSpan = trimmedUpdated == 0 ? 0..<0 : firstUpdated..<(lastUpdated &+ 1)
        return counts
    }

    /// Step 4 of ``_pairTrimmed(_:_:_:_:_:_:)``: whether an unpaired element of the middle (old or
    /// new) shares its identifier with the suffix, so that trimming the suffix would not be
    /// Heckel's pairing.
    ///
    /// - Complexity: O(middle + s): comparisons when one side is small, else hashes.
    @inlinable
    func _suffixSharesUnpairedIdentifier<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ out: _MatchingBuffers,
        _ counts: _TrimCounts, prefix p: Int, suffix s: Int, _ tableStorage: inout [_IdentifierTable<Int, Void>.Slot]
    ) -> Bool {
        let n = old.count
        let m = new.count
        if counts.middleUnpaired == 0 { return false }
        return Self._sharedIdentifiers(
            old, new, out,
            keys: _TrimSegments(
                _TrimSegment(isNew: false, range: p..<(n &- s), filter: .unpaired),
                _TrimSegment(isNew: true, range: p..<(m &- s), filter: .unpaired)),
            probes: _TrimSegments(_TrimSegment(isNew: true, range: (m &- s)..<m, filter: .all)),
            keyCount: counts.middleUnpaired, probeCount: s, directLimit: trimming.directCompareLimit, flagProbes: false,
            &tableStorage) > 0
    }

    /// Step 5 of ``_pairTrimmed(_:_:_:_:_:_:)``: one update flag per identifier across the
    /// trimmed ends and the middle.
    ///
    /// - Complexity: O(m) flag reads; when some pairs are updated and others not, cross-checks
    ///   of O(m) comparisons or hashes.
    @inlinable
    func _mergeTrimmedUpdates<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ out: _MatchingBuffers,
        _ counts: _TrimCounts, prefix p: Int, suffix s: Int, _ tableStorage: inout [_IdentifierTable<Int, Void>.Slot]
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
        // The updated pairs as keys: the trimmed ones lie in `counts.updatedSpan` (read there
        // alone, not across the whole ends), the middle's wherever its pairing flagged them.
        let span = counts.updatedSpan
        let prefixKeys = prefix.clamped(to: span)
        let suffixKeys = suffix.clamped(to: span)
        let middleKeys = yUpdated > 0 ? middle : middle.lowerBound..<middle.lowerBound
        // Trimmed pairs not updated, against every updated pair.
        if xKept > 0 {
            xUpdated &+= Self._sharedIdentifiers(
                old, new, out,
                keys: _TrimSegments(
                    _TrimSegment(isNew: true, range: prefixKeys, filter: .updated),
                    _TrimSegment(isNew: true, range: suffixKeys, filter: .updated),
                    _TrimSegment(isNew: true, range: middleKeys, filter: .updated)),
                probes: _TrimSegments(
                    _TrimSegment(isNew: true, range: prefix, filter: .kept),
                    _TrimSegment(isNew: true, range: suffix, filter: .kept)),
                keyCount: xUpdated &+ yUpdated, probeCount: xKept, directLimit: limit, flagProbes: true, &tableStorage)
        }
        // Middle pairs not updated, against the updated trimmed pairs. Those flagged just now
        // bring no identifier of their own: each shares one with a trimmed updated pair (in the
        // span), or with an updated pair of the middle, whose pairing already flagged every pair
        // of the middle with that identifier. So the span's keys are enough.
        if yKept > 0 && xUpdated > 0 && !span.isEmpty {
            _ = Self._sharedIdentifiers(
                old, new, out,
                keys: _TrimSegments(
                    _TrimSegment(isNew: true, range: prefixKeys, filter: .updated),
                    _TrimSegment(isNew: true, range: suffixKeys, filter: .updated)),
                probes: _TrimSegments(_TrimSegment(isNew: true, range: middle, filter: .kept)),
                keyCount: xUpdated, probeCount: yKept, directLimit: limit, flagProbes: true, &tableStorage)
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
    @inlinable @inline(__always)
    static func _sharedIdentifiers<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ out: _MatchingBuffers,
        keys: _TrimSegments, probes: _TrimSegments, keyCount: Int, probeCount: Int, directLimit: Int, flagProbes: Bool,
        _ tableStorage: inout [_IdentifierTable<Int, Void>.Slot]
    ) -> Int {
        let n = old.count
        let oldToNew = out.oldToNew
        let newToOld = out.newToOld
        let updated = out.updated
        // Tokens: an old index o is o, a new index i is n + i.
        @inline(__always) func each(_ segments: _TrimSegments, _ body: (Element.DiffIdentifier, Int) -> Void) {
            for k in 0..<segments.count {
                let segment = segments[k]
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
        // A few tokens, compared directly: they live on the stack (at most `directLimit`).
        if keyCount <= directLimit || probeCount <= directLimit {
            let fewAreKeys = keyCount <= directLimit
            let few = fewAreKeys ? keyCount : probeCount
            // The few identifiers are copied out once, so a comparison reads no element.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: few) { tokens in
                withUnsafeTemporaryAllocation(of: Element.DiffIdentifier.self, capacity: few) { ids in
                    var count = 0
                    each(fewAreKeys ? keys : probes) { id, token in
                        tokens[count] = token
                        (ids.baseAddress! + count).initialize(to: id)
                        count &+= 1
                    }
                    defer { ids.baseAddress!.deinitialize(count: count) }
                    if fewAreKeys && count == 1 {
                        // One key (an update among kept pairs): one comparison per probe, with
                        // no loop over the keys around it.
                        let key = ids[0]
                        each(probes) { id, probe in if id == key { share(probe) } }
                    } else if fewAreKeys {
                        each(probes) { id, probe in
                            for k in 0..<count where ids[k] == id {
                                share(probe)
                                break
                            }
                        }
                    } else {
                        each(keys) { id, _ in for k in 0..<count where ids[k] == id { share(tokens[k]) } }
                    }
                }
            }
            return shared
        }
        typealias Table = _IdentifierTable<Int, Void>
        // At most keyCount distinct keys: the table stays at most half full.
        var table = Table(capacityFor: keyCount, empty: (), reusing: &tableStorage)
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
        table.returnStorage(to: &tableStorage)
        return shared
    }
}

/// Up to three ``_TrimSegment``s, held inline (a cross-check takes at most three; an array would
/// be an allocation per cross-check).
@usableFromInline
struct _TrimSegments {
    @usableFromInline let first: _TrimSegment
    @usableFromInline let second: _TrimSegment?
    @usableFromInline let third: _TrimSegment?

    @inlinable
    init(_ first: _TrimSegment, _ second: _TrimSegment? = nil, _ third: _TrimSegment? = nil) {
        self.first = first
        self.second = second
        self.third = third
    }

    /// 1 to 3.
    @inlinable var count: Int { third != nil ? 3 : second != nil ? 2 : 1 }

    @inlinable
    subscript(k: Int) -> _TrimSegment { k == 0 ? first : k == 1 ? second! : third! }
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
    /// From the first to the last of those (new indices); empty when there are none.
    @usableFromInline var updatedSpan = 0..<0
    /// Paired new elements of the middle.
    @usableFromInline var middlePaired = 0
    /// Of those, flagged updated by the middle's pairing.
    @usableFromInline var middleUpdated = 0
    /// Unpaired elements of the middle, old and new.
    @usableFromInline var middleUnpaired = 0

    @inlinable init() {}
}
