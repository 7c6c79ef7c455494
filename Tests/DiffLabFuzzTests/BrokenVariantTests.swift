import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import Testing

/// Deliberately broken engines: proof that the properties have teeth. Each bug must be found within
/// a bounded number of generated inputs and shrunk to a small counterexample.
enum BrokenVariant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The offsets move test treats an offset that is off by one as no move.
    case offByOneMoveTest = "off-by-one-move-test"
    /// Duplicates pair the k-th new occurrence with the k-th old occurrence counted from the end.
    case wrongDuplicatePairing = "wrong-duplicate-pairing"
    /// The update flag of the last updated pair is lost.
    case lostUpdateFlag = "lost-update-flag"
    /// The batch conversion turns moved updates into delete + insert but forgets the other reloads.
    case batchForgetsReload = "batch-forgets-reload"

    var testDescription: String { rawValue }

    var subject: FuzzSubject {
        let heckel = HeckelEngine()
        switch self {
        case .offByOneMoveTest:
            return FuzzSubject(
                name: rawValue, promises: EnginePromises(reference: .heckel),
                matching: { heckel.matching(from: $0, to: $1, comparison: .equality) },
                derive: { matching, strategy in
                    let right = DiffResult(matching: matching, moves: strategy)
                    guard strategy == .offsets else { return right }
                    var rank = [Int](repeating: 0, count: matching.oldToNew.count)
                    var deleted = 0
                    for (o, n) in matching.oldToNew.enumerated() {
                        if n < 0 { deleted += 1 } else { rank[o] = o - deleted }
                    }
                    var moves: [Move] = []
                    var inserted = 0
                    for (n, o) in matching.newToOld.enumerated() {
                        if o < 0 { inserted += 1 } else if abs(rank[o] - (n - inserted)) > 1 { moves.append(Move(from: o, to: n)) }
                    }
                    return
                        (try? DiffResult(
                            oldCount: right.oldCount, newCount: right.newCount, inserts: right.inserts, deletes: right.deletes,
                            updates: right.updates, updateDestinations: right.updateDestinations, moves: moves)) ?? right
                })
        case .wrongDuplicatePairing:
            return FuzzSubject(
                name: rawValue, promises: EnginePromises(reference: .heckel),
                matching: { old, new in
                    var occurrences: [Int: [Int]] = [:]
                    for (o, item) in old.enumerated() { occurrences[item.id, default: []].append(o) }
                    var matching = Matching(oldCount: old.count, newCount: new.count)
                    var updated = Set<Int>()
                    for (n, item) in new.enumerated() {
                        guard let o = occurrences[item.id]?.popLast() else { continue }  // from the end
                        matching.pair(old: o, new: n)
                        if old[o].content != item.content { updated.insert(item.id) }
                    }
                    for (n, o) in matching.newToOld.enumerated() where o >= 0 && updated.contains(new[n].id) {
                        matching.updated[n] = true
                    }
                    return matching
                })
        case .lostUpdateFlag:
            return FuzzSubject(
                name: rawValue, promises: EnginePromises(reference: .heckel),
                matching: { old, new in
                    var matching = heckel.matching(from: old, to: new, comparison: .equality)
                    if let last = matching.updated.lastIndex(of: true) { matching.updated[last] = false }
                    return matching
                })
        case .batchForgetsReload:
            return FuzzSubject(
                name: rawValue, promises: EnginePromises(reference: .heckel),
                matching: { heckel.matching(from: $0, to: $1, comparison: .equality) },
                batch: { r in
                    let updated = Set(r.updates)
                    let movedUpdates = r.moves.filter { updated.contains($0.from) }
                    return
                        (try? DiffResult(
                            oldCount: r.oldCount, newCount: r.newCount, inserts: r.inserts + movedUpdates.map(\.to),
                            deletes: r.deletes + movedUpdates.map(\.from), moves: r.moves.filter { !updated.contains($0.from) }))
                        ?? r.forBatchUpdates()
                })
        }
    }
}

@Suite("The harness has teeth")
struct BrokenVariantTests {
    static let inputLimit = 5_000

    @Test(arguments: BrokenVariant.allCases)
    func bugIsFoundAndShrunk(variant: BrokenVariant) throws {
        var options = FuzzOptions(inputs: Self.inputLimit, seed: 7, subjects: [variant.subject], maxSize: 16, workers: 1)
        options.stopAtFirstFailure = true
        let report = runFuzzer(options)
        let failure = try #require(report.failures.first, "\(variant) not found in \(Self.inputLimit) inputs")
        #expect(failure.inputsToFind <= Self.inputLimit)
        #expect(failure.shrunkItems <= 8, "shrunk counterexample too large: \(failure.input.old) → \(failure.input.new)")
        #expect(failure.shrunkItems <= failure.originalItems)
        print(
            "teeth: \(variant) — \(failure.failure.signature) after \(failure.inputsToFind) inputs; shrunk \(failure.originalItems) → \(failure.shrunkItems) items: \(failure.input.old) → \(failure.input.new)"
        )
        // The shrunk choices reproduce the same bug.
        let again = reproduce(failure.choices, size: failure.size, property: failure.property, subject: variant.subject)
        #expect(again?.failure.signature == failure.failure.signature)
    }

    @Test func runsAreDeterministicForASeed() {
        let variant = BrokenVariant.lostUpdateFlag.subject
        let options = FuzzOptions(inputs: 300, seed: 11, subjects: [variant], maxSize: 10, workers: 1)
        let a = runFuzzer(options).failures.map(\.failure.signature)
        let b = runFuzzer(options).failures.map(\.failure.signature)
        #expect(a == b)
        #expect(!a.isEmpty)
    }
}
