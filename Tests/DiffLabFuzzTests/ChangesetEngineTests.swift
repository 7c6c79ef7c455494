import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabJSON
import Dispatch
import Testing

/// A result-level adapter over a pairing engine, as a third-party adapter would be written: it
/// reports the flat result, its own batch form and two stages (reloads in place, then the rest),
/// optionally with one deliberate bug.
struct ChangesetAdapter<Base: DiffEngine>: ChangesetEngine {
    enum Bug: String, Sendable, CaseIterable {
        case none
        /// The batch form turns moved updates into delete + insert and forgets the other reloads.
        case batchForgetsReload = "batch-forgets-reload"
        /// The first stage's data is the old list: the reloads did not change it.
        case stageWithWrongData = "stage-with-wrong-data"
        /// The first delete of the flat result is the old list's length.
        case deleteOutOfRange = "delete-out-of-range"
        /// Throws `.crashed` once the old list has two elements.
        case crashes
        /// Promises minimal moves, reports IGListKit's offsets moves.
        case offsetsMovesPromisedMinimal = "offsets-moves-promised-minimal"
        /// Loses every update when an identifier repeats (and does not promise duplicates).
        case losesUpdatesOnDuplicates = "loses-updates-on-duplicates"
    }

    var base: Base
    var bug: Bug = .none
    var ownBatchAndStages = true
    var supportsDuplicates = true

    var name: String { bug == .none ? "\(base.name)-changes" : bug.rawValue }

    var promises: EnginePromises {
        EnginePromises(
            supportsDuplicates: supportsDuplicates && bug != .losesUpdatesOnDuplicates, minimalMoves: true,
            reference: base.promises.reference)
    }

    func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        if bug == .crashes && old.count >= 2 { throw EngineFailure(.crashed, "the engine process exited with signal 11") }
        var matching = base.matching(from: old, to: new, comparison: comparison)
        let duplicates = Set(old.map(\.diffIdentifier)).count != old.count || Set(new.map(\.diffIdentifier)).count != new.count
        if bug == .losesUpdatesOnDuplicates && duplicates {
            matching.updated = matching.updated.map { _ in false }
        }
        let result = DiffResult(matching: matching, moves: bug == .offsetsMovesPromisedMinimal ? .offsets : .minimal)
        var flat = EngineResult(result)
        if bug == .deleteOutOfRange && !flat.deletes.isEmpty { flat.deletes[0] = old.count }
        guard ownBatchAndStages else { return EngineChanges(result: flat) }

        var batch = EngineResult(result.forBatchUpdates())
        if bug == .batchForgetsReload {
            let updated = Set(result.updates)
            let movedUpdates = result.moves.filter { updated.contains($0.from) }
            batch = EngineResult(
                inserts: result.inserts + movedUpdates.map(\.to), deletes: result.deletes + movedUpdates.map(\.from),
                moves: result.moves.filter { !updated.contains($0.from) })
        }
        var reloaded = old
        if bug != .stageWithWrongData {
            for (o, n) in zip(result.updates, result.updateDestinations) { reloaded[o] = new[n] }
        }
        let stages = [
            EngineStage(data: reloaded, changes: EngineResult(updates: result.updates.map { Update(from: $0, to: $0) })),
            EngineStage(data: new, changes: EngineResult(inserts: result.inserts, deletes: result.deletes, moves: result.moves)),
        ]
        return EngineChanges(result: flat, batch: batch, stages: stages)
    }
}

/// Runs the fuzzer on a Dispatch thread and awaits it, so a long run does not hold one of the
/// test runner's few cooperative threads (time-limited tests elsewhere would starve).
private func fuzzAway(_ options: FuzzOptions) async -> FuzzReport {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: runFuzzer(options)) }
    }
}

private func heckelAdapter(_ bug: ChangesetAdapter<HeckelEngine>.Bug, supportsDuplicates: Bool = true) -> FuzzSubject {
    FuzzSubject(ChangesetAdapter(base: HeckelEngine(), bug: bug, supportsDuplicates: supportsDuplicates))
}

@Suite("Fuzzing result-level engines")
struct ChangesetEngineTests {
    static let correct: [FuzzSubject] = [
        FuzzSubject(ChangesetAdapter(base: HeckelEngine())),
        FuzzSubject(ChangesetAdapter(base: HeckelEngine(), ownBatchAndStages: false)),
        FuzzSubject(ChangesetAdapter(base: MyersEngine())),
        FuzzSubject(ChangesetAdapter(base: StdlibEngine())),
    ]

    @Test func correctAdaptersPassEveryProperty() async {
        let report = await fuzzAway(FuzzOptions(inputs: 2_000, seed: 2026, subjects: Self.correct, maxSize: 16))
        #expect(report.inputs == 2_000)
        #expect(report.checks == 2_000 * Self.correct.count * Property.allCases.count)
        for failure in report.failures { Issue.record("\(failure)") }
    }

    @Test(arguments: [
        (ChangesetAdapter<HeckelEngine>.Bug.batchForgetsReload, ["batch-valid/batch-forgets-reload/stale-content"]),
        (.stageWithWrongData, ["staged-valid/stage-with-wrong-data/stage/stale-content"]),
        // Also malformed for `differential` and `metamorphic`: the first input may show it there.
        (
            .deleteOutOfRange,
            [
                "raw-sound/delete-out-of-range/malformed", "differential/delete-out-of-range/malformed",
                "metamorphic/delete-out-of-range/mirror-malformed",
            ]
        ),
        (.crashes, ["engine-failed/crashes/crashed"]),
        (
            .offsetsMovesPromisedMinimal,
            [
                "differential/offsets-moves-promised-minimal/moves-not-minimal",
                "differential/offsets-moves-promised-minimal/unique-move-count",
            ]
        ),
    ])
    func brokenAdapterIsCaughtAndShrunk(bug: ChangesetAdapter<HeckelEngine>.Bug, signatures: [String]) throws {
        let subject = heckelAdapter(bug)
        var options = FuzzOptions(inputs: 5_000, seed: 7, subjects: [subject], maxSize: 16, workers: 1)
        options.stopAtFirstFailure = true
        let report = runFuzzer(options)
        let found = try #require(
            report.failures.first { signatures.contains($0.signature) },
            "\(bug) not caught; found \(report.failures.map(\.signature))")
        #expect(!found.outsideContract)
        if bug == .deleteOutOfRange {
            // However it was found, `raw-sound` alone finds it too.
            var rawSound = options
            rawSound.properties = [.rawSound]
            #expect(runFuzzer(rawSound).failures.map(\.signature) == ["raw-sound/delete-out-of-range/malformed"])
        }
        #expect(found.shrunkItems <= 6, "shrunk counterexample too large: \(found)")
        #expect(found.shrunkItems <= found.originalItems)
        print(
            "teeth: \(bug) — \(found.signature) after \(found.inputsToFind) inputs; shrunk \(found.originalItems) → \(found.shrunkItems) items: \(found.input.old) → \(found.input.new)"
        )
        // Every failure is in the contract, and its shrunk choices reproduce it.
        #expect(report.contractFailures.count == report.failures.count)
        for failure in report.failures {
            let again = reproduce(failure.choices, size: failure.size, property: failure.property, subject: subject)
            #expect(again?.failure == failure.failure)
        }
    }

    @Test func failuresOnlyOnDuplicatesAreOutsideTheContract() async {
        let report = await fuzzAway(
            FuzzOptions(inputs: 1_500, seed: 5, subjects: [heckelAdapter(.losesUpdatesOnDuplicates)], maxSize: 16))
        #expect(report.contractFailures.isEmpty, "\(report.contractFailures.map(\.description))")
        #expect(!report.outsideContract.isEmpty)
        for failure in report.outsideContract {
            #expect(!failure.input.hasUniqueIdentifiers)
            #expect(failure.shrunkItems <= 8, "\(failure)")
            #expect(failure.description.contains("outside the engine's contract"))
            #expect(failure.regression.fileName.hasSuffix("_outside-contract.json"))
        }
    }

    /// A bug seen on unique and on duplicate identifiers is reported twice, and shrinking keeps
    /// each in its class: in-contract counterexamples stay unique, outside ones keep a duplicate.
    @Test func shrinkingKeepsTheContractMarking() async {
        let subject = heckelAdapter(.batchForgetsReload, supportsDuplicates: false)
        let report = await fuzzAway(FuzzOptions(inputs: 2_000, seed: 3, subjects: [subject], properties: [.batchValid], maxSize: 12))
        #expect(!report.contractFailures.isEmpty)
        #expect(!report.outsideContract.isEmpty)
        for failure in report.contractFailures { #expect(failure.input.hasUniqueIdentifiers, "\(failure)") }
        for failure in report.outsideContract { #expect(!failure.input.hasUniqueIdentifiers, "\(failure)") }
    }

    @Test func aFailureSavesAsACaseNamingItsEngineThatReplays() throws {
        let subject = heckelAdapter(.batchForgetsReload)
        var options = FuzzOptions(inputs: 5_000, seed: 7, subjects: [subject], properties: [.batchValid], maxSize: 16, workers: 1)
        options.stopAtFirstFailure = true
        let failure = try #require(runFuzzer(options).failures.first)
        let saved = try RegressionCase(json: try JSONValue.parse(failure.regressionJSON))
        #expect(saved.subject == "batch-forgets-reload")
        #expect(saved.input == failure.input)
        #expect(try saved.replay(on: FuzzSubject.builtIns + [subject]).map(\.signature) == [failure.signature])
        var fixed = FuzzSubject(ChangesetAdapter(base: HeckelEngine()))
        fixed.name = saved.subject
        #expect(try saved.replay(on: FuzzSubject.builtIns + [fixed]) == [])
        // Without its engine the case cannot be replayed: a typed error naming it.
        #expect(throws: UnknownEngineError(name: "batch-forgets-reload", known: FuzzSubject.builtIns.map(\.name))) {
            try saved.replay(on: FuzzSubject.builtIns)
        }
    }

    @Test func builtInsAreThePairingEnginesWithTheirPromises() {
        #expect(FuzzSubject.builtIns.map(\.name) == ["heckel", "hashmap", "hashmap-partitioned", "hashmap-reused", "myers", "stdlib"])
        #expect(FuzzSubject.builtIns.map(\.reference) == [.heckel, .heckel, .heckel, .heckel, .minimalScript, .uniqueIdentifiers])
        #expect(FuzzSubject.builtIns.allSatisfy { $0.isPairing })
        #expect(!Self.correct.contains { $0.isPairing })
    }

    @Test func impliedMatchingPairsMovesThenSurvivorsInOrder() throws {
        // old a b c d → new d b x c: delete a, insert x at 2, move d 3→0; b, c keep their order.
        let result = try DiffResult(
            oldCount: 4, newCount: 4, inserts: [2], deletes: [0], updates: [2], updateDestinations: [3], moves: [Move(from: 3, to: 0)])
        let matching = impliedMatching(result)
        #expect(matching.oldToNew == [-1, 1, 3, 0])
        #expect(matching.newToOld == [3, 1, -1, 2])
        #expect(matching.updated == [false, false, false, true])
    }
}
