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
/// - Lists that keep their ends, or differ by scattered edits, are first paired in list order,
///   comparing identifiers without hashing: the common ends (``Trimming``), and a bounded walk
///   along equal runs that leaves only the few elements it cannot pair to be hashed
///   (``Trimming/walkRadius``). The rest of this list is the hashing pairing.
/// - One open-addressing table (`_IdentifierTable`: linear probing, load factor ≤ ½, a
///   contiguous buffer of plain slots) holds only the **old** list's distinct identifiers;
///   new-only identifiers are inserts and never enter the table.
/// - The hashing pairing hashes each identifier once (a walk that gave up, or a cross-check of
///   the trimmed ends, may have hashed some before). A slot keeps the upper hash bits, so a probe
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
///   old element) plus 4 bytes per element of each list, besides the ``Matching`` itself; a
///   walk keeps 4 bytes per element it leaves unpaired or finds updated.
public struct HashMapEngine: DiffEngine {
    /// When and how finely the pairing radix-partitions (see `HashMapEngine._pairPartitioned(_:_:_:)`).
    public struct Partitioning: Sendable, Hashable {
        /// The least old-list length that is paired partitioned; shorter lists use one table.
        public var threshold: Int
        /// About how many old occurrences a partition holds at most: the partition count is the
        /// least power of two that brings the old list's length per partition to this (but see
        /// ``minimumPartitions``; never more than 4,096 partitions).
        public var partitionSize: Int
        /// The fewest partitions, rounded up to a power of two (at most 4,096).
        public var minimumPartitions: Int
        /// The least old-list length at which an engine with more than one thread uses them;
        /// shorter lists are paired on the calling thread alone (the result is the same).
        public var parallelThreshold: Int
        /// Whether a list must also have many distinct identifiers to be partitioned (at least
        /// one in four of its first 1,024; see `HashMapEngine._mostlyDistinct(_:)`).
        public var requiresDistinctIdentifiers: Bool

        /// A partitioning rule; every count is clamped to at least 1.
        public init(
            threshold: Int, partitionSize: Int, minimumPartitions: Int = 1, parallelThreshold: Int = 1,
            requiresDistinctIdentifiers: Bool = false
        ) {
            self.threshold = max(1, threshold)
            self.partitionSize = max(1, partitionSize)
            self.minimumPartitions = max(1, minimumPartitions)
            self.parallelThreshold = max(1, parallelThreshold)
            self.requiresDistinctIdentifiers = requiresDistinctIdentifiers
        }

        /// The rule measured on DiffLab's machine (see "The million-element frontier" in the
        /// Benchmarks article): partitioned from 16,384 old elements, into at least 16 partitions of at most
        /// about 32,768 old occurrences (a partition's table then takes at most 768 KiB: it stays
        /// in a 2 MiB L2 cache with its chains and the partition's entries); several threads from
        /// 262,144 old elements (at 100,000 two threads were slower than one); only lists of many
        /// distinct identifiers (a list of few keeps a small table in cache).
        public static let measured = Partitioning(
            threshold: 16_384, partitionSize: 32_768, minimumPartitions: 16, parallelThreshold: 262_144,
            requiresDistinctIdentifiers: true)

        /// A rule for fuzzing: partitioned from `threshold` old elements (at least 1), into
        /// partitions of about 3 occurrences (at least 2), so that lists of a few dozen items
        /// cross the partitioned path's edge cases: empty partitions, partitions with no old or
        /// no new occurrence, several identifiers per partition; on several threads from the
        /// same size; and with the measured rule's distinct-identifier condition, so that lists
        /// of one repeated identifier take the single table and the rest partition.
        public static func fuzzing(threshold: Int) -> Partitioning {
            Partitioning(
                threshold: threshold, partitionSize: 3, minimumPartitions: 2, parallelThreshold: threshold,
                requiresDistinctIdentifiers: true)
        }

        /// The partition count's log2 for an old list of `count` elements.
        ///
        /// - Complexity: O(log count).
        @inlinable
        public func partitionBits(for count: Int) -> Int {
            var bits = _RadixPartitions.bits(for: count, target: partitionSize)
            while bits < _RadixPartitions.maxBits && (1 << bits) < minimumPartitions { bits &+= 1 }
            return bits
        }
    }

    /// Whether and how the pairing first pairs what it can in list order, without hashing: the
    /// lists' common ends, and a walk along equal runs (``walkRadius``). Neither runs when
    /// ``isEnabled`` is `false`.
    public struct Trimming: Sendable, Hashable {
        /// Whether the equal prefix and suffix (by identifier) are paired in place, by comparing
        /// identifiers in list order, before the hashing pairing runs on what lies between.
        public var isEnabled: Bool
        /// Up to how many elements one side of a cross-check may hold for it to compare
        /// identifiers directly (`==` against each) instead of hashing: the cross-checks find
        /// identifiers that occur both in the trimmed ends and elsewhere (see
        /// `HashMapEngine._pairTrimmed(_:_:_:_:_:_:)`), and the walk's check compares each walked
        /// pair with up to this many keys (the elements it left unpaired and its updated pairs)
        /// before it hashes instead. 0 always hashes.
        public var directCompareLimit: Int
        /// The least share of the longer list the common ends must hold for them to be set
        /// aside (0 to 1): below it the lists are paired whole, because putting the trimmed ends
        /// and the middle together costs about a pass over both lists, more than a short trim saves.
        public var minimumShare: Double
        /// The most elements (old and new) the middle may hold for the common suffix to be set
        /// aside: a kept suffix is checked against the middle's unpaired elements, and that check
        /// probes a table of them once per suffix element, which stays in cache only for a
        /// small middle. Past it only the prefix (which needs no check) is set aside.
        public var suffixMiddleLimit: Int
        /// How far the walk looks for the next equal run after a difference, in elements skipped
        /// (old and new together). The walk runs on the whole lists when the common ends are too
        /// short to set aside, and on the middle between them when they are not: equal
        /// identifiers are paired as they come, and only what the walk leaves unpaired is hashed
        /// (see `HashMapEngine._pairWalked(_:_:_:_:from:_:_:)`). 0: no walk. A walk that gives up
        /// has spent about two identifier comparisons per element it read, and the lists are
        /// then paired by hashing.
        public var walkRadius: Int

        /// A trimming rule; `directCompareLimit`, `suffixMiddleLimit` and `walkRadius` are clamped
        /// to at least 0 (`walkRadius` to at most 64), `minimumShare` to 0...1.
        public init(
            isEnabled: Bool, directCompareLimit: Int, minimumShare: Double = 0, suffixMiddleLimit: Int = .max, walkRadius: Int = 0
        ) {
            self.isEnabled = isEnabled
            self.directCompareLimit = max(0, directCompareLimit)
            self.minimumShare = minimumShare.isNaN ? 0 : min(1, max(0, minimumShare))
            self.suffixMiddleLimit = max(0, suffixMiddleLimit)
            self.walkRadius = min(64, max(0, walkRadius))
        }

        /// `hashmap`'s rule: trim when the common ends hold at least a quarter of the longer
        /// list, keep the suffix only around a middle of at most 16,384 elements (its check's
        /// table then stays in a 2 MiB cache), and compare directly against up to 8 elements. Measured side by side at 1M `int` elements
        /// (`hashmap-untrimmed`): `small-edit`, whose first and last edits lie near the ends, was
        /// 1.21× slower trimmed, its whole middle copied into place; `differencekit` (a middle of
        /// 600,000 elements, 200,000 of them unpaired, around a suffix of 700,000) spent 23 to
        /// 79 ms checking its suffix, against 56 to 59 ms for the whole untrimmed diff, and at 100k
        /// (a middle of 60,000) 7.8% more instructions than without trimming (the regression
        /// gate against 4353419).
        /// The walk looks up to 16 elements ahead: a scattered insert, delete or move is found at
        /// a distance of 1.
        public static let measured = Trimming(
            isEnabled: true, directCompareLimit: 8, minimumShare: 0.25, suffixMiddleLimit: 16_384, walkRadius: 16)
        /// No trimming: every element goes through the hashing pairing, as in 0.1.0.
        public static let disabled = Trimming(isEnabled: false, directCompareLimit: 0)
        /// A rule for fuzzing: trim whatever the ends' share, walk lists without common ends, and
        /// always take the cross-checks' hashing path, so that small lists reach it.
        public static let fuzzing = Trimming(isEnabled: true, directCompareLimit: 0, minimumShare: 0, walkRadius: 16)
    }

    /// When the pairing partitions; ``Partitioning/measured`` by default.
    public let partitioning: Partitioning
    /// Whether the pairing trims the common ends first; ``Trimming/measured`` by default.
    public let trimming: Trimming
    /// Threads a partitioned pairing uses (1: the calling thread only) from
    /// ``Partitioning/parallelThreshold`` old elements. Shorter lists, and unpartitioned
    /// pairings, run on the calling thread.
    ///
    /// With more than one, the elements are read from several threads at once: their
    /// `diffIdentifier`, its `hash(into:)` and `==`, and `isContentEqual(to:)` must be safe to
    /// call concurrently (they are for value types and immutable classes).
    public let threads: Int

    /// The threads a partitioned pairing may run on: 1 to 64 (``threads`` is clamped to it).
    public static let threadRange = 1...64
    private let _name: String

    /// `"hashmap"` by default, the name on the command line and in reports; see ``init(partitioning:threads:name:)``.
    public var name: String { _name }

    /// Duplicates supported; the pairing's reference is ``EngineReference/heckel``.
    public var promises: EnginePromises { EnginePromises(reference: .heckel) }

    /// Creates the engine: `hashmap`, partitioned above the measured threshold, on one thread.
    public init() {
        self.init(partitioning: .measured, threads: 1, name: BuiltInEngines.Name.hashmap)
    }

    /// Creates a variant of the engine. Its output is the same whatever the options.
    ///
    /// - Parameters:
    ///   - partitioning: when to partition (``Partitioning/fuzzing(threshold:)`` lets a fuzzer
    ///     reach the partitioned path on small lists).
    ///   - threads: threads for a partitioned pairing, clamped to ``threadRange``.
    ///   - name: the engine's name (default `hashmap`, or `hashmap-<threads>t` with more than one thread).
    public init(partitioning: Partitioning, threads: Int = 1, name: String? = nil) {
        self.init(partitioning: partitioning, threads: threads, name: name, trimming: .measured)
    }

    /// Creates a variant of the engine with a trimming rule. Its output is the same whatever the
    /// options.
    ///
    /// - Parameters:
    ///   - partitioning: when to partition.
    ///   - threads: threads for a partitioned pairing, clamped to ``threadRange``.
    ///   - name: the engine's name (default `hashmap`, or `hashmap-<threads>t` with more than one thread:
    ///     ``BuiltInEngines/Name/hashmap(threads:)``).
    ///   - trimming: whether to pair the common prefix and suffix in place first
    ///     (``Trimming/fuzzing`` puts its cross-checks' hashing path under a fuzzer).
    public init(partitioning: Partitioning, threads: Int, name: String?, trimming: Trimming) {
        self.partitioning = partitioning
        self.threads = min(Self.threadRange.upperBound, max(Self.threadRange.lowerBound, threads))
        self._name = name ?? BuiltInEngines.Name.hashmap(threads: self.threads)
        self.trimming = trimming
    }

    /// `hashmap-parallel`: the measured partitioning on `threads` threads (by default every core
    /// this process may run on), used from ``Partitioning/parallelThreshold`` (262,144) old
    /// elements; below that it is `hashmap` (see "The million-element frontier" in the Benchmarks
    /// article).
    public static func parallel(threads: Int = availableCores()) -> HashMapEngine {
        HashMapEngine(partitioning: .measured, threads: threads, name: BuiltInEngines.Name.hashmapParallel)
    }

    /// `hashmap-partitioned`: every list partitioned (threshold 1) into partitions of about 3
    /// occurrences, on 2 threads. Slow on purpose: it puts the partitioned and parallel pairing
    /// under the fuzzer and the tests on lists of any size, with the trimming cross-checks always
    /// hashing (``Trimming/fuzzing``); its output is `hashmap`'s.
    public static let partitionedEverywhere = HashMapEngine(
        partitioning: .fuzzing(threshold: 1), threads: 2, name: BuiltInEngines.Name.hashmapPartitioned, trimming: .fuzzing)

    /// ``threads`` from ``Partitioning/parallelThreshold`` old elements, else 1: the result is
    /// derived on as many threads as the pairing used.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func derivationThreads(oldCount: Int, newCount: Int) -> Int {
        oldCount >= partitioning.parallelThreshold ? threads : 1
    }

    /// `hashmap-untrimmed`: `hashmap` without its fast paths in list order, the common ends and
    /// the walk (``Trimming/disabled``), every element through the hashing pairing; for measuring
    /// what they buy.
    public static let untrimmed = HashMapEngine(partitioning: .measured, threads: 1, name: BuiltInEngines.Name.hashmapUntrimmed, trimming: .disabled)

    /// Pairs like ``HeckelEngine``, faster; see the type's documentation.
    @inlinable
    public func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) -> Matching {
        if old.isEmpty || new.isEmpty { return Matching(oldCount: old.count, newCount: new.count) }
        var scratch = _HashMapScratch()
        var clock = _Untimed()
        _pairAll(old, new, comparison, &clock, &scratch)
        return scratch.matching
    }

    /// The pairing of two non-empty lists into `scratch`'s matching arrays, in `scratch`'s
    /// buffers: trimmed or not, as ``trimming`` says. A fresh scratch is a one-off call; a
    /// workspace's is reused.
    ///
    /// - Complexity: O(n + m) expected.
    @inlinable
    func _pairAll<Element: Diffable, Clock: _PhaseClock>(
        _ old: [Element], _ new: [Element], _ comparison: ComparisonOption, _ clock: inout Clock,
        _ scratch: inout _HashMapScratch
    ) {
        var oldToNew = _take(&scratch.oldToNew, leaving: [])
        var newToOld = _take(&scratch.newToOld, leaving: [])
        var updated = _take(&scratch.updated, leaving: [])
        // Sized, not filled: each path writes every element.
        _reuse(&oldToNew, count: old.count, filler: -1) { _ in }
        _reuse(&newToOld, count: new.count, filler: -1) { _ in }
        _reuse(&updated, count: new.count, filler: false) { _ in }
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                oldToNew.withUnsafeMutableBufferPointer { oldToNew in
                    newToOld.withUnsafeMutableBufferPointer { newToOld in
                        updated.withUnsafeMutableBufferPointer { updated in
                            let out = _MatchingBuffers(oldToNew: oldToNew, newToOld: newToOld, updated: updated)
                            if trimming.isEnabled {
                                _pairTrimmed(old, new, comparison, out, &clock, &scratch)
                            } else {
                                _pairUntrimmed(old, new, comparison, out, &clock, &scratch)
                            }
                        }
                    }
                }
            }
        }
        scratch.oldToNew = oldToNew
        scratch.newToOld = newToOld
        scratch.updated = updated
    }

    /// The pairing of two lists without trimming their common ends, partitioned or with one
    /// table (see ``Partitioning``), into `out`, every element of which it writes. Either list may
    /// be empty.
    ///
    /// - Complexity: O(n + m) expected.
    @inlinable
    func _pairUntrimmed<Element: Diffable, Clock: _PhaseClock>(
        _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ comparison: ComparisonOption,
        _ out: _MatchingBuffers, _ clock: inout Clock, _ scratch: inout _HashMapScratch
    ) {
        if !old.isEmpty && !new.isEmpty && old.count >= partitioning.threshold && old.count < Int(Int32.max) / 4
            && new.count < Int(Int32.max)
            && (!partitioning.requiresDistinctIdentifiers || Self._mostlyDistinct(old, &scratch.sampleSlots))
        {
            _pairPartitioned(old, new, comparison, out, &clock, &scratch)
            return
        }
        out.clear()
        if old.isEmpty || new.isEmpty { return }
        if old.count < Int(Int32.max) / 4 && new.count < Int(Int32.max) {
            _pair(
                old, new, comparison, out, &scratch.pairSlots, &scratch.pairNext, &scratch.newSlot, &scratch.slotUpdated,
                &clock)
        } else {
            var slots: [_IdentifierTable<Int, Int>.Slot] = []
            var next: [Int] = []
            var newSlot: [Int] = []
            var slotUpdated: [Bool] = []
            _pair(old, new, comparison, out, &slots, &next, &newSlot, &slotUpdated, &clock)
        }
    }

    /// Whether the first 1,024 old identifiers are at least one in four distinct: partitioning
    /// pays for a table too large for the caches, and the table holds *distinct* identifiers. A
    /// long list of few identifiers (the bench's `duplicates` profile: 16) keeps a tiny table in
    /// cache, where the partitioned path only adds its passes (measured at 1M: 85 ms partitioned
    /// against 62 ms with one table). The output is the same either way.
    ///
    /// - Complexity: O(1): at most 1,024 hashes, a 2,048-slot table (in `storage`'s memory).
    @inlinable
    static func _mostlyDistinct<Element: Diffable>(
        _ old: UnsafeBufferPointer<Element>, _ storage: inout [_IdentifierTable<Int32, Void>.Slot]
    ) -> Bool {
        let sample = min(old.count, 1_024)
        typealias Table = _IdentifierTable<Int32, Void>
        var table = Table(capacityFor: sample, empty: (), reusing: &storage)
        let mask = table.mask
        var distinct = 0
        table.slots.withUnsafeMutableBufferPointer { slots in
            for o in 0..<sample {
                let id = old[o].diffIdentifier
                let (hash, tag) = Table.hashAndTag(id)
                let (s, found) = Table.find(slots, mask: mask, hash: hash, tag: tag) { old[Int($0)].diffIdentifier == id }
                if !found {
                    slots[s] = .init(tag: tag, key: Int32(truncatingIfNeeded: o), payload: ())
                    distinct &+= 1
                }
            }
        }
        table.returnStorage(to: &storage)
        return distinct &* 4 >= sample
    }

    /// The single-table pairing into `out`, which holds -1 and `false` throughout on entry; the
    /// table, chains, slots and flags are built in the given arrays' storage. The lists are
    /// buffers, or views of some of a list's elements (``_Gathered``: what the walk left unpaired).
    @inlinable
    func _pair<Old: RandomAccessCollection, New: RandomAccessCollection, Index: FixedWidthInteger & SignedInteger, Clock: _PhaseClock>(
        _ old: Old, _ new: New, _ comparison: ComparisonOption,
        _ out: _MatchingBuffers, _ slotStorage: inout [_IdentifierTable<Index, Index>.Slot], _ next: inout [Index],
        _ newSlot: inout [Index], _ slotUpdated: inout [Bool], _ clock: inout Clock
    ) where Old.Element: Diffable, New.Element == Old.Element, Old.Index == Int, New.Index == Int {
        // A slot's key is an old index holding its identifier; its payload the earliest old
        // occurrence not yet paired (the chain's head), or -1 when all are paired.
        var table = _IdentifierTable<Index, Index>(capacityFor: old.count, empty: -1, reusing: &slotStorage)
        defer { table.returnStorage(to: &slotStorage) }
        let mask = table.mask
        let capacity = table.capacity
        // next[o]: the next old occurrence (ascending) of old[o]'s identifier, or -1; every one
        // is written below.
        _reuse(&next, count: old.count, filler: -1) { _ in }
        // newSlot[n]: the slot of new[n]'s identifier; written, and read, for paired n only.
        _reuse(&newSlot, count: new.count, filler: -1) { _ in }
        // Per-slot update flags, cleared on the first differing pair.
        var anyUpdated = false

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
                        next[o] = -1
                        slots[s] = .init(tag: tag, key: Index(o), payload: Index(o))
                    }
                    o &-= 1
                }
            }
        }

        clock.lap(.partition)
        let oldToNew = out.oldToNew
        let newToOld = out.newToOld
        table.slots.withUnsafeMutableBufferPointer { slots in
            next.withUnsafeBufferPointer { next in
                newSlot.withUnsafeMutableBufferPointer { newSlot in
                    for n in 0..<new.count {
                        let id = new[n].diffIdentifier
                        let (hash, tag) = _IdentifierTable<Index, Index>.hashAndTag(id)
                        let (s, found) = _IdentifierTable<Index, Index>.find(slots, mask: mask, hash: hash, tag: tag) {
                            old[Int($0)].diffIdentifier == id
                        }
                        guard found else { continue }  // not in the old list: an insert
                        let o = Int(slots[s].payload)
                        guard o >= 0 else { continue }  // every old occurrence is paired
                        newSlot[n] = Index(s)
                        slots[s].payload = next[o]
                        oldToNew[o] = n
                        newToOld[n] = o
                        if new[n]._isUpdated(from: old[o], comparison: comparison) {
                            if !anyUpdated {
                                anyUpdated = true
                                _reuse(&slotUpdated, count: capacity, filler: false) { $0.initialize(repeating: false) }
                            }
                            slotUpdated[s] = true
                        }
                    }
                }
            }
        }

        clock.lap(.join)
        defer { clock.lap(.verify) }
        // One update flag per identifier, applied to every matched occurrence.
        if !anyUpdated { return }
        let updated = out.updated
        slotUpdated.withUnsafeBufferPointer { slotUpdated in
            newSlot.withUnsafeBufferPointer { newSlot in
                for n in 0..<newToOld.count where newToOld[n] >= 0 && slotUpdated[Int(newSlot[n])] {
                    updated[n] = true
                }
            }
        }
    }
}

/// The three arrays of a ``Matching`` being written in place (or a range of them: a trimmed
/// pairing's middle).
@usableFromInline
struct _MatchingBuffers {
    @usableFromInline let oldToNew: UnsafeMutableBufferPointer<Int>
    @usableFromInline let newToOld: UnsafeMutableBufferPointer<Int>
    @usableFromInline let updated: UnsafeMutableBufferPointer<Bool>

    @inlinable
    init(oldToNew: UnsafeMutableBufferPointer<Int>, newToOld: UnsafeMutableBufferPointer<Int>, updated: UnsafeMutableBufferPointer<Bool>) {
        self.oldToNew = oldToNew
        self.newToOld = newToOld
        self.updated = updated
    }

    /// Old elements `oldRange` and new elements `newRange`, indexed from 0.
    @inlinable
    func slice(old oldRange: Range<Int>, new newRange: Range<Int>) -> _MatchingBuffers {
        _MatchingBuffers(
            oldToNew: UnsafeMutableBufferPointer(rebasing: oldToNew[oldRange]),
            newToOld: UnsafeMutableBufferPointer(rebasing: newToOld[newRange]),
            updated: UnsafeMutableBufferPointer(rebasing: updated[newRange]))
    }

    /// Nothing paired, nothing updated.
    ///
    /// - Complexity: O(n + m).
    @inlinable
    func clear() {
        if !oldToNew.isEmpty { oldToNew.initialize(repeating: -1) }
        if !newToOld.isEmpty { newToOld.initialize(repeating: -1) }
        if !updated.isEmpty { updated.initialize(repeating: false) }
    }
}
