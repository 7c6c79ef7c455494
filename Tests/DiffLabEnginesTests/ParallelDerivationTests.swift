import DiffLabCore
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@testable import DiffLabEngines

/// The derivation of a result on several threads (``DiffResult/init(matching:moves:threads:)``)
/// equals a plain one-pass derivation written here, on every thread count and both move
/// strategies: chunks with nothing to do, chunks of one element, empty lists.
@Suite("Parallel derivation")
struct ParallelDerivationTests {
    /// IGListKit's rule, written the obvious way: the oracle.
    static func plain(_ matching: Matching, _ moves: MoveStrategy) -> DiffResult {
        let deletes = matching.oldToNew.indices.filter { matching.oldToNew[$0] < 0 }
        let inserts = matching.newToOld.indices.filter { matching.newToOld[$0] < 0 }
        let updates = matching.oldToNew.indices.filter { matching.oldToNew[$0] >= 0 && matching.updated[matching.oldToNew[$0]] }
        var rank: [Int: Int] = [:]
        for o in matching.oldToNew.indices where matching.oldToNew[o] >= 0 { rank[o] = o - deletes.filter { $0 < o }.count }
        var offsetsMoves: [Move] = []
        for n in matching.newToOld.indices where matching.newToOld[n] >= 0 {
            let o = matching.newToOld[n]
            if rank[o] != n - inserts.filter({ $0 < n }).count { offsetsMoves.append(Move(from: o, to: n)) }
        }
        let result = try! DiffResult(
            oldCount: matching.oldToNew.count, newCount: matching.newToOld.count, inserts: inserts, deletes: deletes,
            updates: updates, updateDestinations: updates.map { matching.oldToNew[$0] },
            moves: moves == .offsets ? offsetsMoves : DiffResult(matching: matching, moves: .minimal).moves)
        return result
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func equalsThePlainDerivationOnEveryThreadCount(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let (old, new) = randomLists(&rng, maxCount: 24, distinct: Int.random(in: 1...30, using: &rng))
            let matching = HeckelEngine().matching(from: old, to: new, comparison: .equality)
            for moves in MoveStrategy.allCases {
                let expected = Self.plain(matching, moves)
                for threads in [1, 2, 3, 5, 64, 1_000] {
                    #expect(DiffResult(matching: matching, moves: moves, threads: threads) == expected, "\(threads) threads: \(old) → \(new)")
                }
            }
        }
    }

    /// Lists that keep their ends, where the one-thread derivation sets the ends paired in place
    /// aside and reads only their update flags, eight at a time: ends of every length around
    /// a middle that inserts, deletes, moves or is empty, flags set in runs longer than a word,
    /// duplicates shared between the ends and the middle; against the plain derivation and the
    /// chunked one.
    @Test(arguments: [4, 5, 6] as [UInt64])
    func listsThatKeepTheirEndsDeriveAsThePlainDerivation(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let distinct = Int.random(in: 1...40, using: &rng)
            func item() -> Item { Item(Int.random(in: 0..<distinct, using: &rng), Int.random(in: 0..<2, using: &rng)) }
            let prefix = (0..<Int.random(in: 0...30, using: &rng)).map { _ in item() }
            let suffix = (0..<Int.random(in: 0...30, using: &rng)).map { _ in item() }
            let oldMiddle = (0..<Int.random(in: 0...6, using: &rng)).map { _ in item() }
            let newMiddle = Bool.random(using: &rng) ? oldMiddle.shuffled(using: &rng) : (0..<Int.random(in: 0...6, using: &rng)).map { _ in item() }
            // Every end item updated in some runs, so whole words of flags are set.
            let allUpdated = Int.random(in: 0..<4, using: &rng) == 0
            func bumped(_ items: [Item]) -> [Item] {
                items.map { allUpdated || Int.random(in: 0..<3, using: &rng) == 0 ? Item($0.id, $0.content + 1) : $0 }
            }
            let old = prefix + oldMiddle + suffix
            let new = bumped(prefix) + newMiddle + bumped(suffix)
            let matching = HeckelEngine().matching(from: old, to: new, comparison: .equality)
            for moves in MoveStrategy.allCases {
                let expected = Self.plain(matching, moves)
                #expect(DiffResult(matching: matching, moves: moves) == expected, "\(old) → \(new)")
                #expect(DiffResult(matching: matching, moves: moves, threads: 2) == expected, "\(old) → \(new)")
            }
        }
    }

    /// The fuzzer's first find while the derivation was written: an array filled inside another
    /// one's fill was never written when the outer one was empty (no updates), so an insert into
    /// an empty list was lost.
    @Test func emptyOutputsDoNotSkipTheOthers() {
        for threads in [1, 2] {
            let inserted = DiffResult(matching: Matching(oldCount: 0, newCount: 1), moves: .offsets, threads: threads)
            #expect(inserted.inserts == [0] && inserted.deletes.isEmpty)
            let deleted = DiffResult(matching: Matching(oldCount: 1, newCount: 0), moves: .offsets, threads: threads)
            #expect(deleted.deletes == [0] && deleted.inserts.isEmpty)
        }
    }

    /// `hashmap-parallel`'s results are derived on its threads from its parallel threshold, and
    /// `hashmap-partitioned` (the fuzzer's) on 2 threads at every size.
    @Test func theEnginesAskForTheirThreads() {
        #expect(HashMapEngine().derivationThreads(oldCount: 10_000_000, newCount: 10_000_000) == 1)
        #expect(HashMapEngine.parallel(threads: 2).derivationThreads(oldCount: 262_144, newCount: 1) == 2)
        #expect(HashMapEngine.parallel(threads: 2).derivationThreads(oldCount: 262_143, newCount: 1) == 1)
        #expect(HashMapEngine.partitionedEverywhere.derivationThreads(oldCount: 1, newCount: 1) == 2)
        #expect(HeckelEngine().derivationThreads(oldCount: 10_000_000, newCount: 10_000_000) == 1)
    }
}

/// `hashmap`'s phase clock: a timed diff is the engine's diff.
@Suite("Phase timing")
struct PhaseTimingTests {
    @Test func phasesMatchTheResultsFileAndTheDiff() {
        var rng = SplitMix64(seed: 5)
        for engine in [HashMapEngine(), .partitionedEverywhere, .untrimmed, HashMapEngine.parallel(threads: 2)] {
            for _ in 0..<50 {
                let (old, new) = randomLists(&rng, maxCount: 30, distinct: 12)
                let timed = engine.timedDiff(from: old, to: new)
                #expect(timed.result == engine.diff(from: old, to: new))
                #expect(timed.batch == timed.result.forBatchUpdates())
                #expect(timed.phases.seconds.count == HashMapEngine.Phase.allCases.count)
                #expect(timed.phases.seconds.allSatisfy { $0 >= 0 } && timed.phases.total >= 0)
            }
        }
    }
}

/// The batch form (``DiffResult/forBatchUpdates()``) equals the conversion written the obvious
/// way (every update to delete + insert, a moved update's move dropped, lists sorted), on random
/// results with moves, updates and duplicates; and its ordering helper takes each of its paths.
@Suite("Batch form")
struct BatchFormTests {
    static func plain(_ result: DiffResult) -> DiffResult {
        let updated = Set(result.updates)
        return try! DiffResult(
            oldCount: result.oldCount, newCount: result.newCount, inserts: (result.inserts + result.updateDestinations).sorted(),
            deletes: (result.deletes + result.updates).sorted(), updates: [], updateDestinations: [],
            moves: result.moves.filter { !updated.contains($0.from) })
    }

    @Test(arguments: [1, 2] as [UInt64])
    func equalsThePlainConversion(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let (old, new) = randomLists(&rng, maxCount: 30, distinct: Int.random(in: 1...40, using: &rng))
            for moves in MoveStrategy.allCases {
                let result = HeckelEngine().diff(from: old, to: new, moves: moves)
                let expected = Self.plain(result)
                for threads in [1, 2, 3, 64] {
                    #expect(result.forBatchUpdates(threads: threads) == expected, "\(threads) threads: \(old) → \(new)")
                }
            }
        }
    }

    /// The merge on several threads splits its output by binary search: equal values, empty
    /// lists, more threads than elements.
    @Test func mergeOnThreadsEqualsTheSerialMerge() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<300 {
            let a = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Int.random(in: 0..<20, using: &rng) }.sorted()
            let b = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Int.random(in: 0..<20, using: &rng) }.sorted()
            let expected = (a + b).sorted()
            for chunks in [1, 2, 3, 7, 100] { #expect(_mergeSorted(a, b, chunks: chunks) == expected, "\(a) \(b) \(chunks)") }
        }
        #expect(_mergeSorted([5, 5], [5], chunks: 2) == [5, 5, 5])
        #expect(_mergeSorted([], [1, 2], chunks: 4) == [1, 2] && _mergeSorted([3], [], chunks: 4) == [3])
    }

    @Test func orderingTakesEachPath() {
        #expect(_ascending([1, 4, 9], below: 10) == [1, 4, 9])  // already ascending: itself
        #expect(_ascending([9, 1, 4], below: 1_000) == [1, 4, 9])  // few values, wide range: sorted
        #expect(_ascending([3, 0, 2, 1], below: 5) == [0, 1, 2, 3])  // many values, narrow range: marked
        #expect(_ascending([], below: 0) == [])
        // Repeats are sorted and kept (the ordering does not rely on distinct values).
        #expect(_ascending([3, 1, 3, 0], below: 4) == [0, 1, 3, 3])
        #expect(_ascending([1, 1, 2], below: 3) == [1, 1, 2])
        // A hand-built result with a repeated update destination, which once gave a batch form
        // that inserts one index twice, is refused by the checked init (issue 31).
        #expect(throws: DiffResultError.self) {
            try DiffResult(
                oldCount: 3, newCount: 3, inserts: [], deletes: [], updates: [0, 1, 2], updateDestinations: [2, 0, 2],
                moves: [Move(from: 0, to: 2)])
        }
    }
}
