import DiffLabCore
import DiffLabEngines
import DiffLabTestSupport
import Testing

@testable import DiffLabFuzz

/// `resultPromiseProblem`: every documented promise of a `DiffResult`, on results that keep them
/// (every engine's, both move strategies, their batch forms) and on results built to break one.
@Suite("The promises of a result")
struct ResultPromiseTests {
    static func result(
        _ oldCount: Int, _ newCount: Int, inserts: [Int] = [], deletes: [Int] = [], updates: [Int] = [], destinations: [Int] = [],
        moves: [Move] = []
    ) -> DiffResult {
        DiffResult(
            unchecked: oldCount, newCount: newCount, inserts: inserts, deletes: deletes, updates: updates,
            updateDestinations: destinations, moves: moves)
    }

    @Test func everyEnginesResultsKeepThem() {
        var rng = SplitMix64(seed: 31)
        var checked = 0
        for _ in 0..<300 {
            let (old, new) = randomLists(&rng, maxCount: 30, distinct: Int.random(in: 1...40, using: &rng))
            for engine in builtInEngines {
                let matching = engine.matching(from: old, to: new, comparison: .equality)
                for moves in MoveStrategy.allCases {
                    for threads in [1, 2] {
                        let result = DiffResult(matching: matching, moves: moves, threads: threads)
                        #expect(resultPromiseProblem(result, oldCount: old.count, newCount: new.count, oldToNew: matching.oldToNew) == nil)
                        let batch = result.forBatchUpdates(threads: threads)
                        #expect(resultPromiseProblem(batch, oldCount: old.count, newCount: new.count) == nil)
                        checked += 2
                    }
                }
            }
        }
        #expect(checked == 300 * builtInEngines.count * 2 * 2 * 2)
    }

    static let broken: [(DiffResult, String)] = [
        (result(2, 2), ""),
        (result(2, 3), "balance"),
        (result(1, 3, inserts: [2, 1]), "inserts-order"),
        (result(1, 3, inserts: [1, 1]), "inserts-repeat"),
        (result(1, 2, inserts: [2]), "inserts-range"),
        (result(3, 1, deletes: [2, 0]), "deletes-order"),
        (result(2, 1, deletes: [-1]), "deletes-range"),
        (result(3, 3, updates: [2, 1], destinations: [2, 1]), "updates-order"),
        (result(3, 3, updates: [1, 1], destinations: [1, 2]), "updates-repeat"),
        (result(3, 3, inserts: [0]), "balance"),
        (result(3, 3, updates: [1], destinations: []), "update-destinations-count"),
        (result(3, 3, updates: [1], destinations: [3]), "update-destinations-range"),
        (result(3, 3, updates: [0, 1], destinations: [0, 0]), "update-destinations-repeat"),
        (result(3, 2, deletes: [0], updates: [0], destinations: [0]), "updates-deleted"),
        (result(2, 3, inserts: [2], updates: [0], destinations: [2]), "update-destinations-inserted"),
        (result(3, 3, moves: [Move(from: 0, to: 2), Move(from: 2, to: 0)]), "moves-order"),
        (result(3, 3, moves: [Move(from: 0, to: 1), Move(from: 2, to: 1)]), "moves-repeat"),
        (result(3, 3, moves: [Move(from: 0, to: 1), Move(from: 0, to: 2)]), "moves-source"),
        (result(3, 3, moves: [Move(from: 3, to: 1)]), "moves-source"),
        (result(3, 3, moves: [Move(from: 1, to: 3)]), "moves-range"),
        (result(3, 2, deletes: [0], moves: [Move(from: 0, to: 1)]), "moves-deleted"),
        (result(2, 3, inserts: [0], moves: [Move(from: 1, to: 0)]), "moves-inserted"),
        (result(3, 3, updates: [0], destinations: [0], moves: [Move(from: 0, to: 2)]), "update-move-disagree"),
        (result(3, 3, updates: [0], destinations: [2], moves: [Move(from: 1, to: 2)]), "update-destination-unmoved"),
        (result(2, 2, updates: [0], destinations: [0], moves: [Move(from: 1, to: 0)]), "update-move-disagree"),
        (result(2, 2, updates: [0], destinations: [1]), "update-destination-unmoved"),
        (result(3, 3, updates: [0, 2], destinations: [1, 0], moves: [Move(from: 2, to: 0)]), ""),
        (result(3, 3, updates: [0], destinations: [2], moves: [Move(from: 2, to: 0)]), "update-destination-unmoved"),
    ]

    @Test func eachBrokenPromiseIsNamed() {
        for (result, detail) in Self.broken {
            let found = resultPromiseProblem(result, oldCount: result.oldCount, newCount: result.newCount)
            #expect(found?.detail == (detail.isEmpty ? nil : detail), "\(result)")
        }
        #expect(resultPromiseProblem(Self.result(2, 2), oldCount: 2, newCount: 3)?.detail == "lengths")
        // Against the pairing: a destination or a move that is not the element's new index.
        let pairing = [1, 0, 2]
        let update = Self.result(3, 3, updates: [0], destinations: [0])
        #expect(resultPromiseProblem(update, oldCount: 3, newCount: 3, oldToNew: pairing)?.detail == "update-destination")
        let move = Self.result(3, 3, moves: [Move(from: 1, to: 2)])
        #expect(resultPromiseProblem(move, oldCount: 3, newCount: 3, oldToNew: pairing)?.detail == "moves-destination")
        #expect(resultPromiseProblem(Self.result(3, 3, moves: [Move(from: 1, to: 0)]), oldCount: 3, newCount: 3, oldToNew: pairing) == nil)
        #expect(resultPromiseProblem(Self.result(3, 3), oldCount: 3, newCount: 3, oldToNew: [0, 1])?.detail == "pairing-length")
        // Lengths near Int.max: refused, not trapped on.
        let huge = Self.result(Int.max, 1, inserts: [0])
        #expect(resultPromiseProblem(huge, oldCount: Int.max, newCount: 1)?.detail == "balance")
    }

    /// Whatever the checked init accepts keeps every promise, and so does its batch form (the
    /// same model of a consistent result, written twice).
    @Test func theCheckedInitAcceptsOnlyResultsThatKeepThem() {
        var rng = SplitMix64(seed: 32)
        var accepted = 0
        for _ in 0..<3_000 {
            // Random lists, mostly in range and balanced, so that many are accepted and the rest
            // are refused for every reason the checked init has.
            let oldCount = Int(rng.next(upTo: 5))
            func indices(_ bound: Int, _ most: UInt64) -> [Int] {
                (0..<Int(rng.next(upTo: most))).map { _ in Int(rng.next(upTo: UInt64(bound + 1))) - 1 }
            }
            let deletes = indices(oldCount, 2)
            let insertCount = Int(rng.next(upTo: 2))
            let newCount = max(0, oldCount - deletes.count + insertCount + (rng.next(upTo: 9) == 0 ? 1 : 0))
            let inserts = (0..<insertCount).map { _ in Int(rng.next(upTo: UInt64(max(newCount, 1)))) }
            let updates = indices(oldCount, 2)
            let destinations = updates.map { _ in Int(rng.next(upTo: UInt64(max(newCount, 1)))) }
            let moves = (0..<Int(rng.next(upTo: 2))).map { _ in
                Move(from: Int(rng.next(upTo: UInt64(max(oldCount, 1)))), to: Int(rng.next(upTo: UInt64(max(newCount, 1)))))
            }
            guard
                let result = try? DiffResult(
                    oldCount: oldCount, newCount: newCount, inserts: inserts, deletes: deletes, updates: updates,
                    updateDestinations: destinations, moves: moves)
            else { continue }
            accepted += 1
            #expect(resultPromiseProblem(result, oldCount: oldCount, newCount: newCount) == nil, "\(result)")
            #expect(resultPromiseProblem(result.forBatchUpdates(), oldCount: oldCount, newCount: newCount) == nil, "\(result)")
        }
        #expect(accepted > 100)
    }
}
