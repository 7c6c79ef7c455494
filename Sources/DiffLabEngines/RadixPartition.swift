import DiffLabCore

/// One hashed occurrence: the upper 32 bits of an identifier's hash (its *code*) and the index of
/// the occurrence in its list. 8 bytes.
@usableFromInline
package struct _HashedIndex {
    /// The upper 32 bits of the identifier's hash (``_IdentifierTable/hashAndTag(_:)``'s tag).
    @usableFromInline package var code: UInt32
    /// The occurrence's index in its list.
    @usableFromInline package var index: Int32

    @inlinable
    package init(code: UInt32, index: Int32) {
        self.code = code
        self.index = index
    }
}

/// One list's occurrences, hashed once and radix-partitioned by the low bits of their hashes: the
/// first step of a partitioned hash join (Manegold, Boncz and Kersten; Balkesen et al., ICDE
/// 2013), shared by ``HashMapEngine``'s partitioned pairing and the bench's partitioned floor.
///
/// - Partition `p` holds every occurrence whose hash's low `bits` bits are `p`, so all
///   occurrences of one identifier land in one partition, and a partition's table can be built
///   and probed while it stays in cache. The code (the upper 32 bits) is independent of the
///   partition, so within a partition codes collide no more often than 32 random bits do.
/// - **Stable**: within a partition, occurrences are in ascending index order, so an identifier's
///   k-th occurrence in the list is its k-th in the partition (what Heckel's pairing needs).
/// - One pass hashes (each identifier once) and counts; a prefix sum gives each partition, and each
///   worker's share of it, a place; a second pass scatters. With `threads` > 1 both passes split
///   the list into that many contiguous chunks, each chunk's share of a partition placed after the
///   previous chunk's, so the result is identical for any number of threads.
///
/// Underscored and `package`: an implementation type of DiffLab's engines and bench, not API.
@usableFromInline
package struct _RadixPartitions {
    /// The occurrences, partition after partition.
    @usableFromInline package var entries: [_HashedIndex]
    /// Partition `p` is `entries[bounds[p] ..< bounds[p + 1]]`; `1 << bits` + 1 values.
    @usableFromInline package var bounds: [Int]

    /// Per chunk and partition, the counts and then the write positions (kept for reuse).
    @usableFromInline package var counts: [Int]

    /// No occurrences, no partitions: storage to partition into with
    /// ``partition(count:bits:threads:scratch:hash:)``.
    @inlinable
    package init() {
        entries = []
        bounds = []
        counts = []
    }

    /// Partitions the occurrences `0..<count` of a list by `hash(i)`; see
    /// ``partition(count:bits:threads:scratch:hash:)``.
    @inlinable
    package init(
        count: Int, bits: Int, threads: Int, scratch: UnsafeMutableBufferPointer<Int>, hash: (Int) -> Int
    ) {
        self.init()
        partition(count: count, bits: bits, threads: threads, scratch: scratch, hash: hash)
    }

    /// Partitions the occurrences `0..<count` of a list by `hash(i)`, replacing what the value
    /// held and reusing its storage where it is large enough.
    ///
    /// - Parameters:
    ///   - count: the list's length; below `Int32.max`.
    ///   - bits: log2 of the partition count, 0...16.
    ///   - threads: workers, ≥ 1 (1 runs on the calling thread).
    ///   - scratch: `count` integers to hold the hashes between the passes; each is -1 on return
    ///     (callers pass a ``Matching`` array, whose "unpaired" value that is: no extra memory).
    ///   - hash: the hash of occurrence `i`'s identifier; called once per occurrence, from the
    ///     workers' threads when `threads` > 1.
    /// - Complexity: O(count + threads · 2^bits) time; 8 bytes per occurrence plus
    ///   8 · threads · 2^bits bytes of counts, allocated only when the storage is too small.
    @inlinable
    package mutating func partition(
        count: Int, bits: Int, threads: Int, scratch: UnsafeMutableBufferPointer<Int>, hash: (Int) -> Int
    ) {
        precondition(count >= 0 && count < Int(Int32.max) && bits >= 0 && bits <= 16 && threads >= 1)
        precondition(scratch.count >= count)
        let partitions = 1 << bits
        let low = partitions &- 1
        let chunks = min(threads, max(1, count))
        @inline(__always) func code(_ hash: Int) -> UInt32 { UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) &>> 32) }
        @inline(__always) func chunk(_ c: Int) -> Range<Int> { (c * count / chunks)..<((c + 1) * count / chunks) }
        let base = scratch.baseAddress
        // counts[c · partitions + p]: chunk c's occurrences in partition p, then where they go.
        var counts = _take(&self.counts, leaving: [])
        var bounds = _take(&self.bounds, leaving: [])
        _reuse(&counts, count: chunks * partitions, filler: 0) { $0.initialize(repeating: 0) }
        _reuse(&bounds, count: partitions + 1, filler: 0) { $0[partitions] = count }
        counts.withUnsafeMutableBufferPointer { counts in
            let counts = counts.baseAddress!
            _concurrently(chunks) { c in
                let mine = counts + c * partitions
                for i in chunk(c) {
                    let h = hash(i)
                    base![i] = h
                    mine[h & low] &+= 1
                }
            }
            var start = 0
            for p in 0..<partitions {
                bounds[p] = start
                for c in 0..<chunks {
                    let n = counts[c * partitions + p]
                    counts[c * partitions + p] = start
                    start &+= n
                }
            }
        }
        _reuse(&entries, count: count, filler: _HashedIndex(code: 0, index: 0)) { entries in
            let out = entries.baseAddress
            counts.withUnsafeMutableBufferPointer { counts in
                let counts = counts.baseAddress!
                _concurrently(chunks) { c in
                    let cursor = counts + c * partitions
                    for i in chunk(c) {
                        let h = base![i]
                        base![i] = -1
                        let p = h & low
                        out![cursor[p]] = _HashedIndex(code: code(h), index: Int32(truncatingIfNeeded: i))
                        cursor[p] &+= 1
                    }
                }
            }
        }
        self.counts = counts
        self.bounds = bounds
    }

    /// The bytes of storage the value holds.
    ///
    /// - Complexity: O(1).
    package var retainedBytes: Int {
        entries.capacity * MemoryLayout<_HashedIndex>.stride + (bounds.capacity + counts.capacity) * MemoryLayout<Int>.stride
    }

    /// The number of partitions.
    @inlinable package var partitionCount: Int { bounds.count &- 1 }

    /// The most partitions' log2 the engines use: 4,096 partitions.
    @usableFromInline package static let maxBits = 12

    /// The partition count's log2 for `count` occurrences at about `target` per partition: the
    /// least `bits` with `count >> bits ≤ target`, at most ``maxBits``.
    ///
    /// - Complexity: O(log count).
    @inlinable
    package static func bits(for count: Int, target: Int) -> Int {
        var bits = 0
        while bits < maxBits && (count >> bits) > max(1, target) { bits &+= 1 }
        return bits
    }
}
