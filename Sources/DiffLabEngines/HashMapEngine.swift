import DiffLabCore

/// Heckel's pairing with IGListKit's semantics, built for speed: the same observable output as
/// ``HeckelEngine`` on every input, duplicates included.
///
/// ## Pairing contract
/// Identical to ``HeckelEngine``: the k-th occurrence of an identifier in the new list pairs with
/// its k-th occurrence in the old list; surplus occurrences are inserts or deletes; "updated" is
/// one flag per identifier, set on every matched occurrence when any matched pair of that
/// identifier differs in content.
///
/// ## How it is fast
/// - One open-addressing table (linear probing, load factor ≤ ½) over a contiguous buffer of
///   plain slots holds only the **old** list's distinct identifiers; new-only identifiers are
///   inserts and never enter the table.
/// - Each identifier is hashed exactly once. A slot keeps the upper hash bits, so a probe
///   compares identifiers only on a likely hit.
/// - Occurrences of one identifier form an intrusive chain through a `next` array (old indices
///   ascending), instead of a heap-allocated stack per identifier; a slot's `head` is the next
///   unpaired old occurrence.
/// - Indices are stored as `Int32` when both lists fit, halving memory traffic.
/// - Update flags per identifier are only allocated once some pair differs.
/// - `@inlinable` all the way down, so callers get a version specialized for their element type:
///   no existentials or per-element heap objects in the hot loops.
///
/// - Complexity: O(n + m) expected time; O(n + m) space: about 12 bytes per table slot (2 slots per
///   old element) plus 4 bytes per element of each list, besides the ``Matching`` itself.
public struct HashMapEngine: DiffEngine {
    /// `"hashmap"`, the name on the command line and in reports.
    public var name: String { "hashmap" }

    /// Duplicates supported; the pairing's reference is ``EngineReference/heckel``.
    public var promises: EnginePromises { EnginePromises(reference: .heckel) }

    /// Creates the engine. It has no state.
    public init() {}

    /// Pairs like ``HeckelEngine``, faster; see the type's documentation.
    @inlinable
    public func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) -> Matching {
        var matching = Matching(oldCount: old.count, newCount: new.count)
        if old.isEmpty || new.isEmpty { return matching }
        if old.count < Int(Int32.max) / 4 && new.count < Int(Int32.max) {
            _pair(old, new, comparison, into: &matching, index: Int32.self)
        } else {
            _pair(old, new, comparison, into: &matching, index: Int.self)
        }
        return matching
    }

    @usableFromInline
    struct _Slot<Index: FixedWidthInteger & SignedInteger> {
        /// The upper 32 bits of the identifier's hash; compared before the identifiers.
        @usableFromInline var tag: UInt32
        /// An old index holding this slot's identifier, or -1 when the slot is empty.
        @usableFromInline var representative: Index
        /// The earliest old occurrence not yet paired, or -1 when all are paired.
        @usableFromInline var head: Index

        @inlinable init(tag: UInt32, representative: Index, head: Index) {
            self.tag = tag
            self.representative = representative
            self.head = head
        }
    }

    @inlinable
    func _pair<Element: Diffable, Index: FixedWidthInteger & SignedInteger>(
        _ old: [Element], _ new: [Element], _ comparison: ComparisonOption,
        into matching: inout Matching, index _: Index.Type
    ) {
        var capacity = 16
        while capacity < old.count &* 2 { capacity &<<= 1 }
        let mask = capacity &- 1
        var slots = [_Slot<Index>](repeating: _Slot(tag: 0, representative: -1, head: -1), count: capacity)
        // next[o]: the next old occurrence (ascending) of old[o]'s identifier, or -1.
        var next = [Index](repeating: -1, count: old.count)
        // newSlot[n]: the slot of new[n]'s identifier, or -1 when the old list lacks it.
        var newSlot = [Index](repeating: -1, count: new.count)
        // Per-slot update flags, allocated on the first differing pair.
        var slotUpdated: [Bool] = []

        old.withUnsafeBufferPointer { old in
            slots.withUnsafeMutableBufferPointer { slots in
                next.withUnsafeMutableBufferPointer { next in
                    // Old list backwards: each chain ends up ascending, its head the earliest.
                    var o = old.count &- 1
                    while o >= 0 {
                        let id = old[o].diffIdentifier
                        let hash = id.hashValue
                        let tag = UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) &>> 32)
                        var s = hash & mask
                        while true {
                            let r = Int(slots[s].representative)
                            if r < 0 {
                                slots[s] = _Slot(tag: tag, representative: Index(o), head: Index(o))
                                break
                            }
                            if slots[s].tag == tag && old[r].diffIdentifier == id {
                                next[o] = slots[s].head
                                slots[s].head = Index(o)
                                break
                            }
                            s = (s &+ 1) & mask
                        }
                        o &-= 1
                    }
                }
            }
        }

        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                slots.withUnsafeMutableBufferPointer { slots in
                    next.withUnsafeBufferPointer { next in
                        newSlot.withUnsafeMutableBufferPointer { newSlot in
                            matching.oldToNew.withUnsafeMutableBufferPointer { oldToNew in
                                matching.newToOld.withUnsafeMutableBufferPointer { newToOld in
                                    for n in 0..<new.count {
                                        let id = new[n].diffIdentifier
                                        let hash = id.hashValue
                                        let tag = UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) &>> 32)
                                        var s = hash & mask
                                        while true {
                                            let r = Int(slots[s].representative)
                                            if r < 0 { break }  // not in the old list: an insert
                                            if slots[s].tag == tag && old[r].diffIdentifier == id {
                                                newSlot[n] = Index(s)
                                                let o = Int(slots[s].head)
                                                if o >= 0 {
                                                    slots[s].head = next[o]
                                                    oldToNew[o] = n
                                                    newToOld[n] = o
                                                    if new[n]._isUpdated(from: old[o], comparison: comparison) {
                                                        if slotUpdated.isEmpty {
                                                            slotUpdated = [Bool](repeating: false, count: capacity)
                                                        }
                                                        slotUpdated[s] = true
                                                    }
                                                }
                                                break
                                            }
                                            s = (s &+ 1) & mask
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        // One update flag per identifier, applied to every matched occurrence.
        if slotUpdated.isEmpty { return }
        slotUpdated.withUnsafeBufferPointer { slotUpdated in
            newSlot.withUnsafeBufferPointer { newSlot in
                matching.newToOld.withUnsafeBufferPointer { newToOld in
                    matching.updated.withUnsafeMutableBufferPointer { updated in
                        for n in 0..<newToOld.count where newToOld[n] >= 0 && slotUpdated[Int(newSlot[n])] {
                            updated[n] = true
                        }
                    }
                }
            }
        }
    }
}
