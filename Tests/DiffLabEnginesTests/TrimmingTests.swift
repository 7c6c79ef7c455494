import DiffLabCore
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@testable import DiffLabEngines

/// `hashmap`'s common-ends fast path equals `heckel`'s pairing on every input: lists that share
/// a prefix, a suffix or both around a random middle, with duplicates split between the trimmed
/// ends and the middle (where a trimmed suffix can pair the wrong occurrences, and update flags
/// must be merged across the regions), with the cross-checks comparing directly or hashing.
@Suite("Trimmed pairing")
struct TrimmingTests {
    /// Trimming with direct comparisons, always hashing, and off; partitioned and not.
    static let variants: [HashMapEngine] = [
        HashMapEngine(),
        HashMapEngine(partitioning: .measured, threads: 1, name: nil, trimming: .fuzzing),
        HashMapEngine(partitioning: .measured, threads: 1, name: nil, trimming: .init(isEnabled: true, directCompareLimit: 2)),
        HashMapEngine(partitioning: .measured, threads: 1, name: nil, trimming: .disabled),
        HashMapEngine.partitionedEverywhere,
    ]

    /// An old list, and a new one that keeps its first `a` and last `b` items around a random
    /// middle; contents change at random.
    static func listsSharingEnds(_ rng: inout SplitMix64, distinct: Int) -> (old: [Item], new: [Item]) {
        let count = Int.random(in: 0...16, using: &rng)
        let old = (0..<count).map { _ in Item(Int.random(in: 0..<distinct, using: &rng), 0) }
        let a = Int.random(in: 0...count, using: &rng)
        let b = Int.random(in: 0...(count - a), using: &rng)
        let middle = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
            Item(Int.random(in: 0..<distinct, using: &rng), Int.random(in: 0..<2, using: &rng))
        }
        var new = Array(old[0..<a]) + middle + Array(old[(count - b)..<count])
        for i in new.indices where Int.random(in: 0..<4, using: &rng) == 0 { new[i] = Item(new[i].id, 1) }
        return (old, new)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func equalsHeckelWhereListsShareTheirEnds(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<400 {
            let (old, new) = Self.listsSharingEnds(&rng, distinct: Int.random(in: 1...8, using: &rng))
            for comparison in ComparisonOption.allCases {
                let expected = HeckelEngine().matching(from: old, to: new, comparison: comparison)
                for engine in Self.variants {
                    #expect(
                        engine.matching(from: old, to: new, comparison: comparison) == expected,
                        "\(engine.name) \(engine.trimming): \(old) → \(new)")
                }
            }
        }
    }

    /// The fuzzer's first counterexample to a trimmed suffix kept unchecked: Heckel pairs the new
    /// list's first `0` with the old list's only one, so the suffix `0` ends up inserted.
    @Test func rejectsASuffixWhoseIdentifierIsUnpairedInTheMiddle() {
        let old = [Item(1, 0), Item(0, 0)]
        let new = [Item(0, 0), Item(0, 0)]
        let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
        #expect(expected.newToOld == [1, -1])
        for engine in Self.variants { #expect(engine.matching(from: old, to: new, comparison: .equality) == expected) }
    }

    /// One identifier in the prefix and in the middle: the prefix pair differs, so the middle's
    /// pair is updated too (one flag per identifier), and the other way round.
    @Test func mergesUpdateFlagsAcrossTheTrimmedEnds() {
        let cases: [([Item], [Item])] = [
            ([Item(0, 0), Item(5, 0), Item(0, 0)], [Item(0, 1), Item(6, 0), Item(0, 0)]),
            ([Item(0, 0), Item(5, 0), Item(0, 0), Item(7, 0)], [Item(0, 0), Item(0, 1), Item(7, 0)]),
            ([Item(0, 0), Item(0, 0)], [Item(0, 1), Item(0, 0)]),
        ]
        for (old, new) in cases {
            let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
            #expect(expected.updated.contains(true) && expected.updated.filter { $0 }.count >= 2)
            for engine in Self.variants { #expect(engine.matching(from: old, to: new, comparison: .equality) == expected, "\(old) → \(new)") }
        }
    }

    /// A chat that appends, its last items updated and one identifier repeated far apart: long
    /// enough that the cross-checks take both their direct and their hashing paths.
    @Test func equalsHeckelOnALongAppendWithRepeats() {
        var rng = SplitMix64(seed: 30)
        for _ in 0..<20 {
            let count = Int.random(in: 100...3_000, using: &rng)
            var old = (0..<count).map { Item($0, 0) }
            old[Int.random(in: 0..<count, using: &rng)] = Item(count - 1, 0)
            var new = old + (0..<Int.random(in: 0...50, using: &rng)).map { Item(count + $0, 0) }
            for _ in 0..<Int.random(in: 0...20, using: &rng) {
                let i = Int.random(in: 0..<new.count, using: &rng)
                new[i] = Item(new[i].id, 1)
            }
            if Bool.random(using: &rng) { new.insert(Item(count - 1, 2), at: Int.random(in: 0...new.count, using: &rng)) }
            let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
            for engine in Self.variants { #expect(engine.matching(from: old, to: new, comparison: .equality) == expected) }
        }
    }
}
