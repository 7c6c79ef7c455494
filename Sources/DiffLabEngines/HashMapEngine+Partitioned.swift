import DiffLabCore

// The partitioned (and parallel) pairing of `HashMapEngine`, for old lists of at least
// `HashMapEngine.Partitioning.threshold` elements.

extension HashMapEngine {
    /// The partitioned pairing: Heckel's pairing as a radix-partitioned hash join that touches
    /// the elements themselves only in list order.
    ///
    /// 1. **Partition.** Both lists are hashed once and radix-partitioned by hash bits
    ///    (``_RadixPartitions``), stably, so each partition keeps its occurrences in list order
    ///    and all occurrences of one identifier share a partition.
    /// 2. **Join, partition by partition.** A table over the partition's old identifiers is built
    ///    backwards (each identifier's occurrences chained in ascending order; identifiers compared
    ///    exactly where codes agree) and probed with the partition's new occurrences in order: the
    ///    k-th new occurrence takes the k-th old one, as in Heckel's single table. The probe trusts
    ///    the 32-bit code alone — it reads no element — unless two old identifiers of the partition
    ///    share a code, in which case that partition's probe compares identifiers.
    /// 3. **Verify, in new-list order.** One pass over the new list compares each pair's
    ///    identifiers and judges its update, reading the old list at the paired indices (in order,
    ///    for lists that mostly keep their order). A pair of different identifiers means a new-only
    ///    identifier shared a code with an old one of its partition (at 1M elements that happens in
    ///    about every other run: 32-bit codes, 100k new-only identifiers, 30k old ones per
    ///    partition); then only the partitions of such pairs are cleared and joined again, exactly
    ///    (identifiers compared wherever codes agree), and their pairs judged. Elsewhere the result
    ///    *is* Heckel's: every new occurrence of an old identifier found its own identifier's slot,
    ///    and a new-only one either found nothing or an exhausted chain, an insert either way.
    /// 4. **Duplicates.** "Updated" is one flag per identifier: pairs of identifiers with several
    ///    old occurrences are noted during the join, and their flags merged afterwards.
    ///
    /// With `threads` > 1 the partitioning and the verification run in contiguous chunks and the
    /// partitions are shared out by contiguous ranges of about equal size; each thread writes only
    /// its own indices of `matching`, so the output is identical for any thread count.
    ///
    /// - Precondition: both lists are non-empty and shorter than `Int32.max`.
    /// - Complexity: O(n + m) expected; 8 bytes per element of each list, plus per thread a table
    ///   and chains for its largest partition (and 1 byte per old element when identifiers repeat).
    @inlinable
    func _pairPartitioned<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ out: _MatchingBuffers, _ clock: inout Clock, _ scratch: inout _HashMapScratch
    ) {
        // The matching's arrays are not filled beforehand: the partitioning fills the pairings
        // with -1 (after keeping the hashes there) and the verification every update flag, each
        // on the threads that use them, so no serial fill or first touch comes before the work.
        let oldToNew = out.oldToNew
        let newToOld = out.newToOld
        let updated = out.updated
        let bits = partitioning.partitionBits(for: old.count)
        let threads = old.count >= partitioning.parallelThreshold ? max(1, self.threads) : 1
        // The hashes wait in the pairings' own arrays between the passes, which leave -1 there.
        scratch.oldParts.partition(count: old.count, bits: bits, threads: threads, scratch: oldToNew) {
            old[$0].diffIdentifier.hashValue
        }
        scratch.newParts.partition(count: new.count, bits: bits, threads: threads, scratch: newToOld) {
            new[$0].diffIdentifier.hashValue
        }
        clock.lap(.partition)
        _shares(scratch.oldParts.bounds, scratch.newParts.bounds, threads: threads, into: &scratch.shares)
        let shareCount = scratch.shares.count &- 1
        scratch.ensureThreads(max(shareCount, threads))
        let oldParts = _take(&scratch.oldParts, leaving: _RadixPartitions())
        let newParts = _take(&scratch.newParts, leaving: _RadixPartitions())
        var workers = _take(&scratch.workers, leaving: [])
        let shares = scratch.shares
        defer {
            scratch.oldParts = oldParts
            scratch.newParts = newParts
            scratch.workers = workers
        }
        for t in workers.indices { _emptied(&workers[t].repeated) }
        oldParts.entries.withUnsafeBufferPointer { oldEntries in
            newParts.entries.withUnsafeBufferPointer { newEntries in
                let oldBounds = oldParts.bounds
                let newBounds = newParts.bounds
                workers.withUnsafeMutableBufferPointer { workers in
                    shares.withUnsafeBufferPointer { shares in
                        _concurrently(shareCount) { t in
                            _joinPartitions(
                                shares[t]..<shares[t &+ 1], exact: false, old, new,
                                oldEntries, oldBounds, newEntries, newBounds, oldToNew, newToOld, &workers[t])
                        }
                    }
                }
                clock.lap(.join)
                let anyMismatched = _verify(old, new, comparison, newToOld, updated, threads: threads, &workers)
                if !anyMismatched { return }
                // A new-only identifier shared a code with an old one of its partition and took
                // its occurrences: clear those partitions and join them again, exactly.
                // Marks in the workspace's memory, not sets: the repair allocates nothing once
                // its buffers are sized (at 1M unrelated ids it runs in about every other call).
                let partitionCount = oldParts.partitionCount
                _reuse(&scratch.repairPartitions, count: partitionCount, filler: false) { $0.initialize(repeating: false) }
                for worker in workers {
                    for n in worker.mismatched { scratch.repairPartitions[new[n].diffIdentifier.hashValue & (partitionCount &- 1)] = true }
                }
                _reuse(&scratch.repairedNew, count: new.count, filler: false) { $0.initialize(repeating: false) }
                for p in 0..<partitionCount where scratch.repairPartitions[p] {
                    let news = newBounds[p]..<newBounds[p &+ 1]
                    for i in oldBounds[p]..<oldBounds[p &+ 1] { oldToNew[Int(oldEntries[i].index)] = -1 }
                    for j in news {
                        let n = Int(newEntries[j].index)
                        newToOld[n] = -1
                        updated[n] = false
                        scratch.repairedNew[n] = true
                    }
                    scratch.repairedNew.withUnsafeBufferPointer { repairedNew in
                        for t in workers.indices { workers[t].repeated.removeAll { repairedNew[Int($0.new)] } }
                    }
                    // The first worker's table, chains and pairs, free again after the join.
                    _joinPartitions(
                        p..<(p &+ 1), exact: true, old, new,
                        oldEntries, oldBounds, newEntries, newBounds, oldToNew, newToOld,
                        &workers[0])
                    for j in news {
                        let n = Int(newEntries[j].index)
                        scratch.repairedNew[n] = false
                        let o = newToOld[n]
                        if o >= 0 { updated[n] = new[n]._isUpdated(from: old[o], comparison: comparison) }
                    }
                }
            }
        }
        _mergeRepeatedUpdates(workers, oldCount: old.count, into: updated, &scratch.keyUpdated)
        clock.lap(.verify)
    }

    /// Splits partitions `0..<P` into at most `threads` contiguous ranges of about equal numbers of
    /// occurrences (old plus new): range `t` is `shares[t] ..< shares[t + 1]`.
    ///
    /// - Complexity: O(P).
    @inlinable
    func _shares(_ oldBounds: [Int], _ newBounds: [Int], threads: Int, into shares: inout [Int]) {
        let partitions = oldBounds.count &- 1
        let total = oldBounds[partitions] &+ newBounds[partitions]
        _emptied(&shares)
        shares.append(0)
        for p in 0..<partitions where shares.count < threads {
            // Close the current range after partition p once it holds its fair share.
            if (oldBounds[p &+ 1] &+ newBounds[p &+ 1]) &* threads >= total &* shares.count {
                shares.append(p &+ 1)
            }
        }
        if shares.last != partitions { shares.append(partitions) }
    }

    /// Joins the partitions in `range` (one thread's share): step 2 of
    /// ``_pairPartitioned(_:_:_:_:_:_:)``. Writes the pairs into `oldToNew` and `newToOld`, and
    /// appends to `worker.repeated` the pairs (new index, a key old index of the identifier) of
    /// identifiers with more than one old occurrence, whose update flags must be merged. The
    /// table and chains are built in `worker`'s buffers.
    /// With `exact`, the probe compares identifiers wherever codes agree (the repair of step 3).
    ///
    /// - Complexity: O(occurrences in the range) expected, with one table sized for its largest
    ///   partition.
    @inlinable
    func _joinPartitions<Element: Diffable>(
        _ range: Range<Int>, exact: Bool, _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>,
        _ oldEntries: UnsafeBufferPointer<_HashedIndex>, _ oldBounds: [Int],
        _ newEntries: UnsafeBufferPointer<_HashedIndex>, _ newBounds: [Int],
        _ oldToNew: UnsafeMutableBufferPointer<Int>, _ newToOld: UnsafeMutableBufferPointer<Int>, _ worker: inout _Worker
    ) {
        typealias Table = _IdentifierTable<Int32, Int32>
        var slotStorage = _take(&worker.slots, leaving: [])
        var next = _take(&worker.next, leaving: [])
        var repeated = _take(&worker.repeated, leaving: [])
        defer {
            worker.slots = slotStorage
            worker.next = next
            worker.repeated = repeated
        }
        var largestOld = 0
        for p in range { largestOld = max(largestOld, oldBounds[p &+ 1] &- oldBounds[p]) }
        if largestOld == 0 { return }
        // One table and chain array for this thread, reused by each partition. A slot's key is
        // the identifier's earliest old index, its payload the chain's head (a position in the
        // partition), or -1 once every occurrence is paired.
        let empty = Table.Slot(tag: 0, key: -1, payload: -1)
        var table = Table(capacityFor: largestOld, empty: -1, reusing: &slotStorage)
        defer { table.returnStorage(to: &slotStorage) }
        // next[i]: the partition's next old occurrence (by position) of the identifier at
        // position i; each is written before it is read.
        _reuse(&next, count: largestOld, filler: -1) { _ in }
        table.slots.withUnsafeMutableBufferPointer { allSlots in
            next.withUnsafeMutableBufferPointer { next in
                for p in range {
                    let olds = UnsafeBufferPointer(rebasing: oldEntries[oldBounds[p]..<oldBounds[p &+ 1]])
                    let news = UnsafeBufferPointer(rebasing: newEntries[newBounds[p]..<newBounds[p &+ 1]])
                    if olds.isEmpty || news.isEmpty { continue }
                    var capacity = 16
                    while capacity < olds.count &* 2 { capacity &<<= 1 }
                    let mask = capacity &- 1
                    let slots = UnsafeMutableBufferPointer(rebasing: allSlots[0..<capacity])
                    slots.initialize(repeating: empty)
                    // Old occurrences backwards: each chain ascends, its head the earliest.
                    var ambiguous = exact
                    var i = olds.count &- 1
                    while i >= 0 {
                        let code = olds[i].code
                        let o = olds[i].index
                        let (s, found) = Table.find(slots, mask: mask, hash: Int(code), tag: code) {
                            let same = old[Int($0)].diffIdentifier == old[Int(o)].diffIdentifier
                            if !same { ambiguous = true }  // two identifiers share a code
                            return same
                        }
                        if found {
                            next[i] = slots[s].payload
                            slots[s].payload = Int32(truncatingIfNeeded: i)
                            slots[s].key = o
                        } else {
                            next[i] = -1
                            slots[s] = .init(tag: code, key: o, payload: Int32(truncatingIfNeeded: i))
                        }
                        i &-= 1
                    }
                    for j in 0..<news.count {
                        let code = news[j].code
                        let n = Int(news[j].index)
                        // By code alone unless codes are ambiguous here; verified afterwards.
                        let (s, found) = Table.find(slots, mask: mask, hash: Int(code), tag: code) {
                            !ambiguous || old[Int($0)].diffIdentifier == new[n].diffIdentifier
                        }
                        guard found else { continue }  // not in the old list: an insert
                        let head = Int(slots[s].payload)
                        guard head >= 0 else { continue }  // every old occurrence is paired
                        slots[s].payload = next[head]
                        let o = olds[head].index
                        oldToNew[Int(o)] = n
                        newToOld[n] = Int(o)
                        // Several old occurrences: the earliest is the key, or the chain goes on.
                        if o != slots[s].key || next[head] >= 0 {
                            repeated.append((Int32(truncatingIfNeeded: n), slots[s].key))
                        }
                    }
                }
            }
        }
    }

    /// Step 3 of ``_pairPartitioned(_:_:_:)``: in new-list order, checks that every pair has
    /// equal identifiers and sets every update flag (each pair's own; `false` when unpaired).
    ///
    /// - Returns: the new indices whose pair's identifiers differ (none, unless a new-only
    ///   identifier shared a 32-bit code with an old one of its partition).
    /// - Complexity: O(m) identifier and content comparisons, over `threads` chunks.
    @inlinable
    func _verify<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ newToOld: UnsafeMutableBufferPointer<Int>, _ updated: UnsafeMutableBufferPointer<Bool>, threads: Int,
        _ workers: inout [_Worker]
    ) -> Bool {
        let count = new.count
        let chunks = min(threads, max(1, count))
        precondition(workers.count >= chunks)
        for t in workers.indices { _emptied(&workers[t].mismatched) }
        workers.withUnsafeMutableBufferPointer { workers in
            _concurrently(chunks) { t in
                for n in (t * count / chunks)..<((t &+ 1) * count / chunks) {
                    let o = newToOld[n]
                    if o < 0 {
                        updated[n] = false
                        continue
                    }
                    if new[n].diffIdentifier == old[o].diffIdentifier {
                        updated[n] = new[n]._isUpdated(from: old[o], comparison: comparison)
                    } else {
                        updated[n] = false
                        workers[t].mismatched.append(n)
                    }
                }
            }
        }
        return workers.contains { !$0.mismatched.isEmpty }
    }

    /// Step 4 of ``_pairPartitioned(_:_:_:)``: the pairs of each repeated identifier (by key)
    /// are all updated if any one is.
    ///
    /// - Complexity: O(pairs noted), and `oldCount` bytes when there are any.
    @inlinable
    func _mergeRepeatedUpdates(
        _ workers: [_Worker], oldCount: Int, into updated: UnsafeMutableBufferPointer<Bool>, _ keyUpdated: inout [Bool]
    ) {
        guard workers.contains(where: { !$0.repeated.isEmpty }) else { return }
        _reuse(&keyUpdated, count: oldCount, filler: false) { keyUpdated in
            keyUpdated.initialize(repeating: false)
            for worker in workers { for pair in worker.repeated where updated[Int(pair.new)] { keyUpdated[Int(pair.key)] = true } }
            for worker in workers { for pair in worker.repeated where keyUpdated[Int(pair.key)] { updated[Int(pair.new)] = true } }
        }
    }
}
