import DiffLabCore
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@testable import DiffLabEngines

/// `hashmap`'s partitioned and parallel pairing equals `heckel`'s on every input: radix
/// partitions of every shape (one, a few, more than there are items), 1 to 4 threads, duplicates,
/// both comparisons, and identifiers whose hashes collide (which send the pairing through its
/// exact probe and its repair of partitions where a new-only identifier took an old one's code).
@Suite("Partitioned pairing")
struct PartitionedPairingTests {
    /// Partitioned at every size, in partitions of 1, 3 or 8 occurrences or at least 16 of them.
    static let variants: [HashMapEngine] = [1, 2, 4].flatMap { threads in
        [
            HashMapEngine(partitioning: .init(threshold: 1, partitionSize: 1), threads: threads),
            HashMapEngine(partitioning: .fuzzing(threshold: 1), threads: threads),
            HashMapEngine(partitioning: .init(threshold: 1, partitionSize: 8), threads: threads),
            HashMapEngine(partitioning: .init(threshold: 1, partitionSize: 1_000, minimumPartitions: 16), threads: threads),
        ]
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func equalsHeckelOnSmallListsWithDuplicates(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<150 {
            let (old, new) = randomLists(&rng, maxCount: 20, distinct: Int.random(in: 1...12, using: &rng))
            for comparison in ComparisonOption.allCases {
                let expected = HeckelEngine().matching(from: old, to: new, comparison: comparison)
                for engine in Self.variants {
                    #expect(
                        engine.matching(from: old, to: new, comparison: comparison) == expected,
                        "\(engine.partitioning) × \(engine.threads): \(old) → \(new)")
                }
            }
        }
    }

    @Test func equalsHeckelOnCollidingHashes() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<300 {
            let (old, new) = randomLists(&rng, maxCount: 24, distinct: Int.random(in: 1...40, using: &rng))
            let oldKeys = old.map { CollidingItem($0) }
            let newKeys = new.map { CollidingItem($0) }
            let expected = HeckelEngine().matching(from: oldKeys, to: newKeys, comparison: .equality)
            for engine in Self.variants {
                #expect(engine.matching(from: oldKeys, to: newKeys, comparison: .equality) == expected, "\(old) → \(new)")
            }
        }
    }

    /// A new-only identifier whose hash equals an old one's, probed before that identifier: the
    /// code-only probe pairs it wrongly, the verification sees it, and its partition is redone.
    @Test func repairsANewOnlyIdentifierThatTookAnOldOnesCode() {
        let old = [0, 4, 8, 12].map { CollidingItem(FuzzItem($0, 0)) }
        let new = [1, 0, 5, 4, 9, 13, 12].map { CollidingItem(FuzzItem($0, $0 == 12 ? 1 : 0)) }
        let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
        #expect(expected.newToOld == [-1, 0, -1, 1, -1, -1, 3])
        for engine in Self.variants {
            #expect(engine.matching(from: old, to: new, comparison: .equality) == expected)
        }
    }

    /// Large enough for the measured rule's real partitions (16 and more, on 2 threads).
    @Test func equalsHeckelAboveTheMeasuredThreshold() {
        var rng = SplitMix64(seed: 99)
        // 40,000 and 50,000 items over 30,000 identifiers: duplicates, one-sided ids, 3 contents.
        let old = (0..<40_000).map { _ in Item(Int.random(in: 0..<30_000, using: &rng), Int.random(in: 0..<3, using: &rng)) }
        let new = (0..<50_000).map { _ in Item(Int.random(in: 0..<30_000, using: &rng), Int.random(in: 0..<3, using: &rng)) }
        let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
        #expect(old.count >= HashMapEngine.Partitioning.measured.threshold)
        #expect(HashMapEngine().matching(from: old, to: new, comparison: .equality) == expected)
        #expect(HashMapEngine.parallel(threads: 2).matching(from: old, to: new, comparison: .equality) == expected)
        let strings = old.map { "id-\($0.id)" }
        let newStrings = new.map { "id-\($0.id)" }
        #expect(
            HashMapEngine.parallel(threads: 3).matching(from: strings, to: newStrings, comparison: .equality)
                == HeckelEngine().matching(from: strings, to: newStrings, comparison: .equality))
    }

    /// Partitioning is for many distinct identifiers; a long list of few keeps one table.
    @Test func fewDistinctIdentifiersKeepOneTable() {
        let unique = (0..<20_000).map { Item($0, 0) }
        let few = (0..<20_000).map { Item($0 % 16, 0) }
        let quarter = (0..<20_000).map { Item($0 % 256, 0) }  // 256 of the first 1,024: one in four
        // One table storage for every sample, as a workspace reuses it.
        var storage: [_IdentifierTable<Int32, Void>.Slot] = []
        func mostlyDistinct(_ items: [Item]) -> Bool {
            items.withUnsafeBufferPointer { HashMapEngine._mostlyDistinct($0, &storage) }
        }
        #expect(mostlyDistinct(unique))
        #expect(!mostlyDistinct(few))
        #expect(mostlyDistinct(quarter))
        #expect(!mostlyDistinct((0..<20_000).map { Item($0 % 255, 0) }))
        #expect(storage.count == 2_048)
        #expect(HashMapEngine().matching(from: few, to: few.reversed()) == HeckelEngine().matching(from: few, to: few.reversed()))
    }

    @Test func partitionCountFollowsTheRule() {
        let measured = HashMapEngine.Partitioning.measured
        #expect(measured.partitionBits(for: 16_384) == 4)  // at least 16 partitions
        #expect(measured.partitionBits(for: 1_000_000) == 5)  // 32 partitions of ≤ 32,768
        #expect(measured.partitionBits(for: 10_000_000) == 9)
        #expect(HashMapEngine.Partitioning(threshold: 1, partitionSize: 1).partitionBits(for: 1 << 20) == _RadixPartitions.maxBits)
        #expect(HashMapEngine.Partitioning.fuzzing(threshold: 1).partitionBits(for: 24) == 3)
        #expect(HashMapEngine.Partitioning.fuzzing(threshold: 1).partitionBits(for: 2) == 1)  // at least 2 partitions
    }

    /// The partitions hold every occurrence once, in ascending index order within each, by the
    /// low bits of the hash, whatever the thread count; the scratch buffer is left at -1.
    @Test(arguments: [1, 2, 3, 5])
    func radixPartitionsAreStableAndComplete(threads: Int) {
        let hashes = (0..<1_000).map { ($0 &* 2_654_435_761) ^ ($0 << 40) }
        var scratch = [Int](repeating: 7, count: hashes.count)
        let parts = scratch.withUnsafeMutableBufferPointer { scratch in
            _RadixPartitions(count: hashes.count, bits: 4, threads: threads, scratch: scratch) { hashes[$0] }
        }
        #expect(scratch.allSatisfy { $0 == -1 })
        #expect(parts.partitionCount == 16)
        #expect(parts.entries.map(\.index).sorted() == (0..<1_000).map { Int32($0) })
        for p in 0..<16 {
            let slice = parts.entries[parts.bounds[p]..<parts.bounds[p + 1]]
            #expect(slice.allSatisfy { hashes[Int($0.index)] & 15 == p })
            #expect(zip(slice, slice.dropFirst()).allSatisfy { $0.index < $1.index })
            #expect(slice.allSatisfy { $0.code == UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hashes[Int($0.index)])) >> 32) })
        }
    }
}
