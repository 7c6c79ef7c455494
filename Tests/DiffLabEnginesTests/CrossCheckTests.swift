import DiffLabCore
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@testable import DiffLabEngines

/// Seeded random cross-checks. The property fuzzer (a later layer) goes much further; these keep
/// the engine contract honest on every `swift test`.
@Suite("Randomised cross-checks")
struct CrossCheckTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]

    @Test(arguments: seeds)
    func hashmapEqualsHeckelOnDuplicates(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<400 {
            let (old, new) = randomLists(&rng, maxCount: 14, distinct: Int.random(in: 1...6, using: &rng))
            for comparison in ComparisonOption.allCases {
                let heckel = HeckelEngine().matching(from: old, to: new, comparison: comparison)
                let hashmap = HashMapEngine().matching(from: old, to: new, comparison: comparison)
                #expect(heckel == hashmap, "old \(old) new \(new)")
            }
        }
    }

    @Test func hashmapEqualsHeckelOnALargeList() {
        var rng = SplitMix64(seed: 99)
        let (old, new) = randomLists(&rng, maxCount: 60_000, distinct: 20_000, contentVariants: 3)
        #expect(
            HeckelEngine().matching(from: old, to: new, comparison: .equality)
                == HashMapEngine().matching(from: old, to: new, comparison: .equality))
        let strings = old.map { "id-\($0.id)" }
        let newStrings = new.map { "id-\($0.id)" }
        #expect(
            HeckelEngine().matching(from: strings, to: newStrings, comparison: .equality)
                == HashMapEngine().matching(from: strings, to: newStrings, comparison: .equality))
    }

    @Test(arguments: builtInEngines, MoveStrategy.allCases)
    func everyResultAppliesAndEveryBatchIsValid(engine: any DiffEngine, moves: MoveStrategy) throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let (old, new) = randomLists(&rng, maxCount: 12, distinct: Int.random(in: 1...8, using: &rng))
            let matching = engine.matching(from: old, to: new)
            try matching.validate()
            for o in old.indices where matching.oldToNew[o] >= 0 {
                #expect(old[o].id == new[matching.oldToNew[o]].id)
            }
            // As many pairs as the identifier counts allow — except the standard library, whose
            // inferringMoves() leaves identifiers removed or inserted more than once unpaired.
            var oldCounts: [Int: Int] = [:]
            var newCounts: [Int: Int] = [:]
            for e in old { oldCounts[e.id, default: 0] += 1 }
            for e in new { newCounts[e.id, default: 0] += 1 }
            let possible = oldCounts.reduce(0) { $0 + min($1.value, newCounts[$1.key] ?? 0) }
            let paired = matching.newToOld.filter { $0 >= 0 }.count
            if engine.name == "stdlib" { #expect(paired <= possible) } else { #expect(paired == possible) }
            let r = DiffResult(matching: matching, moves: moves)
            #expect(uikitApplicationProblems(r, old: old, new: new).isEmpty, "old \(old) new \(new)")
            let batch = r.forBatchUpdates()
            #expect(batch.updates.isEmpty)
            #expect(
                uikitApplicationProblems(batch, old: old, new: new, batch: true).isEmpty, "old \(old) new \(new)")
        }
    }

    @Test(arguments: MoveStrategy.allCases)
    func allEnginesAgreeOnUniqueIdentifiers(moves: MoveStrategy) throws {
        try #require(builtInEngines.count >= 2, "no engine to compare with heckel")
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let (old, new) = randomUniqueLists(&rng, maxCount: 20)
            let reference = HeckelEngine().diff(from: old, to: new, moves: moves)
            for engine in builtInEngines.dropFirst() {
                #expect(engine.diff(from: old, to: new, moves: moves) == reference, "\(engine): \(old) → \(new)")
            }
        }
    }

    /// Myers' common subsequence has the length of an independent O(n·m) dynamic program.
    @Test func myersCommonSubsequenceIsLongest() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<600 {
            let distinct = Int.random(in: 1...6, using: &rng)
            let a = (0..<Int.random(in: 0...16, using: &rng)).map { _ in Int.random(in: 0..<distinct, using: &rng) }
            let b = (0..<Int.random(in: 0...16, using: &rng)).map { _ in Int.random(in: 0..<distinct, using: &rng) }
            var pairs: [(Int, Int)] = []
            _MyersSearch.commonSubsequence(a, b, symbolCount: distinct) { pairs.append(($0, $1)) }
            #expect(pairs.count == lcsLength(a, b), "\(a) / \(b)")
            for (i, p) in pairs.enumerated() {
                #expect(a[p.0] == b[p.1])
                if i > 0 { #expect(p.0 > pairs[i - 1].0 && p.1 > pairs[i - 1].1) }
            }
        }
    }

    /// A bisection clears only the diagonals it can read, so what an earlier bisection left in the
    /// shared arrays never changes the answer: searches that start on arrays full of stale
    /// values (any number, −1 included) find the same middle points and a longest common
    /// subsequence.
    @Test func staleDiagonalsFromEarlierBisectionsAreNeverRead() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<600 {
            let distinct = Int.random(in: 1...6, using: &rng)
            let a = (0..<Int.random(in: 1...20, using: &rng)).map { _ in Int.random(in: 0..<distinct, using: &rng) }
            let b = (0..<Int.random(in: 1...20, using: &rng)).map { _ in Int.random(in: 0..<distinct, using: &rng) }
            var fresh = _MyersSearch<Int>(a: a, b: b)
            var stale = _MyersSearch<Int>(a: a, b: b)
            for i in stale.forward.indices {
                stale.forward[i] = Int.random(in: -1...(a.count + b.count + 2), using: &rng)
                stale.backward[i] = Int.random(in: -1...(a.count + b.count + 2), using: &rng)
            }
            let expected = fresh.bisect(0, a.count, 0, b.count)
            let found = stale.bisect(0, a.count, 0, b.count)
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(a) / \(b)")
            var pairs: [(Int, Int)] = []
            stale.solve(0, a.count, 0, b.count) { pairs.append(($0, $1)) }
            #expect(pairs.count == lcsLength(a, b), "\(a) / \(b)")
        }
    }

    /// `minimal` moves exactly the paired items outside one longest increasing run (O(k²) oracle).
    @Test func minimalMovesAreFewest() {
        var rng = SplitMix64(seed: 13)
        for _ in 0..<300 {
            let (old, new) = randomLists(&rng, maxCount: 15, distinct: Int.random(in: 2...15, using: &rng))
            let matching = HeckelEngine().matching(from: old, to: new, comparison: .equality)
            let sequence = matching.newToOld.filter { $0 >= 0 }
            let r = DiffResult(matching: matching, moves: .minimal)
            #expect(r.moves.count == sequence.count - longestIncreasing(sequence))
            #expect(r.moves.count <= DiffResult(matching: matching, moves: .offsets).moves.count)
        }
    }

    func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in a.indices.reversed() {
            for j in b.indices.reversed() {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    func longestIncreasing(_ s: [Int]) -> Int {
        var best = [Int](repeating: 1, count: s.count)
        for i in s.indices {
            for j in 0..<i where s[j] < s[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}

/// IGListKit's `-[IGListIndexSetResult resultForBatchUpdates]`, transcribed step by step as an
/// oracle: moved updates become delete + insert; then, for every identifier of the old index map
/// (last occurrence wins), a remaining update becomes delete(old map) + insert(new map).
func iglistkitResultForBatchUpdates(_ r: DiffResult, old: [Item], new: [Item]) -> (inserts: Set<Int>, deletes: Set<Int>, moves: [Move]) {
    var deletes = Set(r.deletes)
    var inserts = Set(r.inserts)
    var filteredUpdates = Set(r.updates)
    var filteredMoves = r.moves
    for i in r.moves.indices.reversed() where filteredUpdates.contains(r.moves[i].from) {
        let move = r.moves[i]
        filteredMoves.remove(at: i)
        filteredUpdates.remove(move.from)
        deletes.insert(move.from)
        inserts.insert(move.to)
    }
    var oldIndexMap: [Int: Int] = [:]
    var newIndexMap: [Int: Int] = [:]
    for (i, e) in old.enumerated() { oldIndexMap[e.id] = i }
    for (i, e) in new.enumerated() { newIndexMap[e.id] = i }
    for (id, index) in oldIndexMap where filteredUpdates.contains(index) {
        deletes.insert(index)
        if let n = newIndexMap[id] { inserts.insert(n) }
    }
    return (inserts, deletes, filteredMoves)
}

@Suite("Batch conversion against IGListKit")
struct IGListKitBatchOracleTests {
    @Test(arguments: builtInEngines)
    func equalsIGListKitForUniqueIdentifiers(engine: any DiffEngine) {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<400 {
            let (old, new) = randomUniqueLists(&rng, maxCount: 16)
            let r = engine.diff(from: old, to: new)
            let ours = r.forBatchUpdates()
            let theirs = iglistkitResultForBatchUpdates(r, old: old, new: new)
            #expect(Set(ours.inserts) == theirs.inserts)
            #expect(Set(ours.deletes) == theirs.deletes)
            #expect(ours.moves == theirs.moves)
            #expect(ours.inserts.count == theirs.inserts.count && ours.deletes.count == theirs.deletes.count)
        }
    }

    /// The documented divergence: with duplicates IGListKit's conversion loses reloads (the stale
    /// content shows), ours does not.
    @Test func iglistkitLosesDuplicateReloadsOursDoesNot() throws {
        let old = [Item(1, 0), Item(1, 0)]
        let new = [Item(1, 1), Item(1, 1)]
        let r = HeckelEngine().diff(from: old, to: new)
        let theirs = iglistkitResultForBatchUpdates(r, old: old, new: new)
        let theirResult = try DiffResult(
            oldCount: 2, newCount: 2, inserts: Array(theirs.inserts), deletes: Array(theirs.deletes), moves: theirs.moves)
        #expect(!uikitApplicationProblems(theirResult, old: old, new: new, batch: true).isEmpty)
        #expect(uikitApplicationProblems(r.forBatchUpdates(), old: old, new: new, batch: true).isEmpty)
    }
}
