import DiffLabCore
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@testable import DiffLabEngines

/// `hashmap`'s walk (its equal-runs fast path for lists without common ends) equals `heckel`'s
/// pairing on every input, is taken where it should be, and gives up where it must: on a moved
/// duplicate, whose walked pair would not be Heckel's, and on lists too different to walk.
@Suite("Walked pairing")
struct WalkTests {
    /// The walk with direct comparisons, always hashing, with the shortest radius; partitioned
    /// and not; and the walk off (trimming alone), as a control.
    static let variants: [HashMapEngine] = [
        HashMapEngine(),
        HashMapEngine(partitioning: .measured, threads: 1, name: nil, trimming: .fuzzing),
        HashMapEngine(
            partitioning: .measured, threads: 1, name: nil,
            trimming: .init(isEnabled: true, directCompareLimit: 2, minimumShare: 0.25, walkRadius: 1)),
        HashMapEngine(partitioning: .measured, threads: 1, name: nil, trimming: .init(isEnabled: true, directCompareLimit: 8, minimumShare: 0.25)),
        HashMapEngine.partitionedEverywhere,
    ]

    /// The walk alone on `old` and `new` with `engine`'s rule: the matching it wrote, or `nil`
    /// when it gave up.
    static func walk(_ engine: HashMapEngine, _ old: [Item], _ new: [Item], comparison: ComparisonOption = .equality) -> Matching? {
        var scratch = _HashMapScratch()
        var clock = _Untimed()
        // Poisoned, so an element the walk forgot to write shows.
        var oldToNew = [Int](repeating: 1_000_000, count: old.count)
        var newToOld = [Int](repeating: 1_000_000, count: new.count)
        var updated = [Bool](repeating: true, count: new.count)
        let walked = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                oldToNew.withUnsafeMutableBufferPointer { oldToNew in
                    newToOld.withUnsafeMutableBufferPointer { newToOld in
                        updated.withUnsafeMutableBufferPointer { updated in
                            engine._pairWalked(
                                old, new, comparison, _MatchingBuffers(oldToNew: oldToNew, newToOld: newToOld, updated: updated), from: 0,
                                &clock, &scratch)
                        }
                    }
                }
            }
        }
        return walked ? Matching(oldToNew: oldToNew, newToOld: newToOld, updated: updated) : nil
    }

    /// A list and a copy with `edits` scattered inserts, deletes, moves and updates; identifiers
    /// drawn from `distinct` values (unique when `distinct` is 0).
    static func scattered(_ rng: inout SplitMix64, count: Int, edits: Int, distinct: Int) -> (old: [Item], new: [Item]) {
        var next = 0
        func fresh() -> Int {
            next += 1
            return distinct == 0 ? next : Int.random(in: 0..<distinct, using: &rng)
        }
        let old = (0..<count).map { _ in Item(fresh(), 0) }
        var new = old
        for _ in 0..<edits {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: new.insert(Item(fresh() + (distinct == 0 ? 1_000_000 : 0), 0), at: Int.random(in: 0...new.count, using: &rng))
            case 1 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &rng))
            case 2 where !new.isEmpty:
                let item = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
                new.insert(item, at: Int.random(in: 0...new.count, using: &rng))
            case 3 where !new.isEmpty:
                let i = Int.random(in: 0..<new.count, using: &rng)
                new[i] = Item(new[i].id, new[i].content + 1)
            default: break
            }
        }
        return (old, new)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func equalsHeckelOnScatteredEdits(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var walked = 0
        for _ in 0..<300 {
            let count = Int.random(in: 1...200, using: &rng)
            let distinct = [0, 0, 3, 8, 40].randomElement(using: &rng)!
            let (old, new) = Self.scattered(&rng, count: count, edits: Int.random(in: 0...6, using: &rng), distinct: distinct)
            if new.isEmpty { continue }
            for comparison in ComparisonOption.allCases {
                let expected = HeckelEngine().matching(from: old, to: new, comparison: comparison)
                for engine in Self.variants {
                    #expect(
                        engine.matching(from: old, to: new, comparison: comparison) == expected,
                        "\(engine.name) \(engine.trimming): \(old) → \(new)")
                    if let matching = Self.walk(engine, old, new, comparison: comparison) {
                        walked += 1
                        #expect(matching == expected, "walk, \(engine.trimming): \(old) → \(new)")
                    }
                }
            }
        }
        // The walk was taken on most of these lists (it can fail: the test must reach it).
        #expect(walked > 1_000)
    }

    /// The fuzzer's counterexample to a walk that skipped its check: the walk pairs the new
    /// list's second `1` and its last `0`, Heckel the first ones.
    @Test func givesUpOnAMovedDuplicate() {
        let old = [Item(1, 0), Item(0, 0), Item(0, 0)]
        let new = [Item(0, 0), Item(1, 0), Item(0, 0), Item(1, 0), Item(0, 0)]
        #expect(Self.walk(HashMapEngine(), old, new) == nil)
        let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
        for engine in Self.variants { #expect(engine.matching(from: old, to: new, comparison: .equality) == expected) }
    }

    /// The fuzzer's counterexample to a check that skipped the leading equal run: the pair of
    /// the two first `0`s is Heckel's, but the `0` the walk leaves unpaired pairs with an updated
    /// content, so the first pair is updated too (one flag per identifier). The walk gives up.
    @Test func givesUpWhenALeadingPairSharesAnUnpairedIdentifier() {
        let old = [Item(0, 0), Item(1, 0), Item(1, 0), Item(1, 0), Item(1, 0), Item(1, 0), Item(0, 1)]
        let new = [Item(0, 0), Item(0, 0), Item(1, 0), Item(1, 0), Item(1, 0), Item(1, 0), Item(1, 0)]
        #expect(Self.walk(HashMapEngine(), old, new) == nil)
        let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
        #expect(expected.updated[0] && expected.updated[1])
        for engine in Self.variants { #expect(engine.matching(from: old, to: new, comparison: .equality) == expected) }
    }

    /// A long list with a few scattered edits is walked, and its result is Heckel's: moves paired
    /// among the unpaired, updates flagged, one flag per identifier across the walked pairs.
    @Test func walksScatteredEditsInALongList() throws {
        var old = (0..<5_000).map { Item($0, 0) }
        old[4_000] = Item(17, 0)  // a repeat of 17, both occurrences walked
        var new = old
        new.remove(at: 100)  // a delete
        new.insert(Item(9_999_999, 0), at: 2_000)  // an insert
        let moved = new.remove(at: 3_000)  // a move
        new.insert(moved, at: 1_000)
        new[17] = Item(17, 1)  // an update of the repeated identifier: both its pairs are flagged
        for engine in Self.variants.prefix(3) {
            let walked = try #require(Self.walk(engine, old, new))
            let expected = HeckelEngine().matching(from: old, to: new, comparison: .equality)
            #expect(walked == expected)
            #expect(walked.updated.filter { $0 }.count == 2)
        }
    }

    /// A last edit beyond the radius's reach, or a replaced last element, leaves the tails
    /// unpaired instead of giving up (review finding: the walk gave up at the end of a trimmed
    /// middle); tails too long for the bound still make it give up, before they are written.
    @Test func leavesShortTailsUnpairedAndGivesUpOnLongOnes() throws {
        let old = (0..<1_000).map { Item($0, 0) }
        var new = [Item(1_000, 0)] + old[1..<999] + [Item(1_001, 0)]
        let walked = try #require(Self.walk(HashMapEngine(), old, new))
        #expect(walked == HeckelEngine().matching(from: old, to: new, comparison: .equality))
        new = [Item(5_000, 0)] + old[0..<10]
        #expect(Self.walk(HashMapEngine(), old, new) == nil)
        #expect(
            HashMapEngine().matching(from: old, to: new, comparison: .equality) == HeckelEngine().matching(from: old, to: new, comparison: .equality))
    }

    /// Where the walk must give up, it does, and the hashing pairing gives Heckel's result:
    /// reversed, unrelated, and mostly moved lists.
    @Test func givesUpOnListsTooDifferentToWalk() {
        let old = (0..<2_000).map { Item($0, 0) }
        var rng = SplitMix64(seed: 5)
        let cases: [[Item]] = [
            old.reversed(),
            (0..<2_000).map { Item(10_000 + $0, 0) },
            old.shuffled(using: &rng),
        ]
        for new in cases {
            #expect(Self.walk(HashMapEngine(), old, new) == nil)
            #expect(
                HashMapEngine().matching(from: old, to: new, comparison: .equality)
                    == HeckelEngine().matching(from: old, to: new, comparison: .equality))
        }
    }

    /// A rule without a radius never walks.
    @Test func radiusZeroNeverWalks() {
        let old = (0..<100).map { Item($0, 0) }
        var new = old
        new.remove(at: 50)
        #expect(Self.walk(HashMapEngine(), old, new) != nil)
        #expect(Self.walk(HashMapEngine.untrimmed, old, new) == nil)
        #expect(HashMapEngine.Trimming(isEnabled: true, directCompareLimit: 0, walkRadius: 1_000).walkRadius == 64)
    }
}
