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
/// - One open-addressing table (``_IdentifierTable``: linear probing, load factor ≤ ½, a
///   contiguous buffer of plain slots) holds only the **old** list's distinct identifiers;
///   new-only identifiers are inserts and never enter the table.
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

    @inlinable
    func _pair<Element: Diffable, Index: FixedWidthInteger & SignedInteger>(
        _ old: [Element], _ new: [Element], _ comparison: ComparisonOption,
        into matching: inout Matching, index _: Index.Type
    ) {
        // A slot's key is an old index holding its identifier; its payload the earliest old
        // occurrence not yet paired (the chain's head), or -1 when all are paired.
        var table = _IdentifierTable<Index, Index>(capacityFor: old.count, empty: -1)
        let mask = table.mask
        let capacity = table.capacity
        // next[o]: the next old occurrence (ascending) of old[o]'s identifier, or -1.
        var next = [Index](repeating: -1, count: old.count)
        // newSlot[n]: the slot of new[n]'s identifier, or -1 when the old list lacks it.
        var newSlot = [Index](repeating: -1, count: new.count)
        // Per-slot update flags, allocated on the first differing pair.
        var slotUpdated: [Bool] = []

        old.withUnsafeBufferPointer { old in
            table.slots.withUnsafeMutableBufferPointer { slots in
                next.withUnsafeMutableBufferPointer { next in
                    // Old list backwards: each chain ends up ascending, its head the earliest.
                    var o = old.count &- 1
                    while o >= 0 {
                        let id = old[o].diffIdentifier
                        let (hash, tag) = _IdentifierTable<Index, Index>.hashAndTag(id)
                        let (s, found) = _IdentifierTable<Index, Index>.find(slots, mask: mask, hash: hash, tag: tag) {
                            old[Int($0)].diffIdentifier == id
                        }
                        if found {
                            next[o] = slots[s].payload
                            slots[s].payload = Index(o)
                        } else {
                            slots[s] = .init(tag: tag, key: Index(o), payload: Index(o))
                        }
                        o &-= 1
                    }
                }
            }
        }

        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                table.slots.withUnsafeMutableBufferPointer { slots in
                    next.withUnsafeBufferPointer { next in
                        newSlot.withUnsafeMutableBufferPointer { newSlot in
                            matching.oldToNew.withUnsafeMutableBufferPointer { oldToNew in
                                matching.newToOld.withUnsafeMutableBufferPointer { newToOld in
                                    for n in 0..<new.count {
                                        let id = new[n].diffIdentifier
                                        let (hash, tag) = _IdentifierTable<Index, Index>.hashAndTag(id)
                                        let (s, found) = _IdentifierTable<Index, Index>.find(
                                            slots, mask: mask, hash: hash, tag: tag
                                        ) { old[Int($0)].diffIdentifier == id }
                                        guard found else { continue }  // not in the old list: an insert
                                        newSlot[n] = Index(s)
                                        let o = Int(slots[s].payload)
                                        guard o >= 0 else { continue }  // every old occurrence is paired
                                        slots[s].payload = next[o]
                                        oldToNew[o] = n
                                        newToOld[n] = o
                                        if new[n]._isUpdated(from: old[o], comparison: comparison) {
                                            if slotUpdated.isEmpty {
                                                slotUpdated = [Bool](repeating: false, count: capacity)
                                            }
                                            slotUpdated[s] = true
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
