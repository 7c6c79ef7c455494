import DiffLabCore

// Every buffer `hashmap`'s diff writes, in one value: a one-off call makes a fresh one and drops
// it; a `HashMapEngine.Workspace` keeps it between calls. Both run the same code.

/// The buffers of one `hashmap` diff: the matching, the partitions, the join tables, the single
/// table, the cross-checks' table and the derivation's arrays.
///
/// Underscored and `package`: an implementation type of ``HashMapEngine``, not API.
@usableFromInline
package struct _HashMapScratch {
    @usableFromInline typealias PairSlot = _IdentifierTable<Int32, Int32>.Slot
    @usableFromInline typealias SampleSlot = _IdentifierTable<Int32, Void>.Slot
    @usableFromInline typealias CrossSlot = _IdentifierTable<Int, Void>.Slot

    /// The matching being built (``Matching``'s three arrays).
    @usableFromInline var oldToNew: [Int] = []
    @usableFromInline var newToOld: [Int] = []
    @usableFromInline var updated: [Bool] = []

    /// The partitioned pairing: both lists' partitions.
    @usableFromInline var oldParts = _RadixPartitions()
    @usableFromInline var newParts = _RadixPartitions()
    /// Where each thread's range of partitions starts.
    @usableFromInline var shares: [Int] = []
    /// Per thread (one array of them, so a one-off call allocates one header, not one per kind).
    @usableFromInline var workers: [_Worker] = []
    /// The repair of step 3: partitions to join again, and the new indices of those being joined.
    @usableFromInline var repairPartitions: [Bool] = []
    @usableFromInline var repairedNew: [Bool] = []
    /// Per old key index: whether its identifier has an updated pair.
    @usableFromInline var keyUpdated: [Bool] = []

    /// The single-table pairing (32-bit indices; wider lists allocate their own).
    @usableFromInline var pairSlots: [PairSlot] = []
    @usableFromInline var pairNext: [Int32] = []
    @usableFromInline var newSlot: [Int32] = []
    @usableFromInline var slotUpdated: [Bool] = []

    /// The distinct-identifier sample's table.
    @usableFromInline var sampleSlots: [SampleSlot] = []
    /// The trimming cross-checks' table.
    @usableFromInline var crossSlots: [CrossSlot] = []
    /// The walk: the indices it left unpaired, its updated pairs' new indices, and the unpaired
    /// elements' own pairing's matching.
    @usableFromInline var walkOld: [Int32] = []
    @usableFromInline var walkNew: [Int32] = []
    @usableFromInline var walkUpdatedNew: [Int32] = []
    @usableFromInline var walkOldToNew: [Int] = []
    @usableFromInline var walkNewToOld: [Int] = []
    @usableFromInline var walkUpdated: [Bool] = []

    /// The derivation's arrays.
    @usableFromInline var derivation = _DerivationBuffers()

    @inlinable init() {}

    /// The matching in ``oldToNew``, ``newToOld`` and ``updated``, sharing their storage (a
    /// caller that keeps it makes the next write copy).
    ///
    /// - Complexity: O(1).
    @inlinable var matching: Matching { Matching(oldToNew: oldToNew, newToOld: newToOld, updated: updated) }

    /// Makes sure the per-thread arrays exist for `threads` threads.
    ///
    /// - Complexity: O(threads).
    @inlinable
    mutating func ensureThreads(_ threads: Int) {
        if workers.count < threads { workers.append(contentsOf: repeatElement(_Worker(), count: threads &- workers.count)) }
    }

    /// The bytes of storage held (the arrays' capacities, not the small per-thread headers).
    ///
    /// - Complexity: O(threads).
    var retainedBytes: Int {
        func bytes<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }
        var total = bytes(oldToNew) + bytes(newToOld) + bytes(updated)
        total += oldParts.retainedBytes + newParts.retainedBytes + bytes(shares)
        for worker in workers {
            total += bytes(worker.slots) + bytes(worker.next) + bytes(worker.repeated) + bytes(worker.mismatched)
        }
        total +=
            bytes(repairPartitions) + bytes(repairedNew) + bytes(keyUpdated) + bytes(pairSlots) + bytes(pairNext) + bytes(newSlot)
            + bytes(slotUpdated)
        total += bytes(sampleSlots) + bytes(crossSlots)
        total += bytes(walkOld) + bytes(walkNew) + bytes(walkUpdatedNew) + bytes(walkOldToNew) + bytes(walkNewToOld) + bytes(walkUpdated)
        return total + derivation.retainedBytes
    }
}

/// One thread's buffers in the partitioned pairing: its join table and chains, the pairs of
/// repeated identifiers it found, and the new indices whose pair's identifiers differ (its chunk
/// of the verification).
@usableFromInline
struct _Worker {
    @usableFromInline var slots: [_IdentifierTable<Int32, Int32>.Slot] = []
    @usableFromInline var next: [Int32] = []
    @usableFromInline var repeated: [(new: Int32, key: Int32)] = []
    @usableFromInline var mismatched: [Int] = []

    @inlinable init() {}
}
