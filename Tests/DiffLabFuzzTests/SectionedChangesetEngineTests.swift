import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import Testing

/// A result-level adapter that stages sectioned lists with DiffLab's own ``StagedChangeset`` (over
/// Heckel's pairing), as a library such as DifferenceKit answers, optionally with one bug.
struct SectionedAdapter: SectionedChangesetEngine {
    enum Bug: String, Sendable, CaseIterable {
        case none
        /// The last stage is dropped: the data source never reaches the new model.
        case dropsLastStage = "drops-last-stage"
        /// Every stage but the last reports its data as the previous stage's (the stage's
        /// changes applied to the wrong data).
        case staleStageData = "stale-stage-data"
    }

    var bug: Bug = .none
    var name: String { bug == .none ? "sectioned-heckel" : bug.rawValue }
    var promises: EnginePromises { EnginePromises(supportsDuplicates: true, minimalMoves: false, reference: .heckel) }

    func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        EngineChanges(result: EngineResult(HeckelEngine().diff(from: old, to: new, comparison: comparison)))
    }

    func stagedChanges<SectionID: Hashable, Element: Diffable>(
        from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption
    ) throws(EngineFailure) -> StagedChangeset<SectionID, Element> {
        var staged = StagedChangeset(from: old, to: new, engine: HeckelEngine(), comparison: comparison)
        switch bug {
        case .none: break
        case .dropsLastStage: if !staged.stages.isEmpty { staged.stages.removeLast() }
        case .staleStageData:
            var previous = old
            for k in staged.stages.indices.dropLast() {
                let data = staged.stages[k].data
                staged.stages[k].data = previous
                previous = data
            }
        }
        return staged
    }
}

@Suite("Fuzzing result-level engines on sectioned lists")
struct SectionedChangesetEngineTests {
    @Test func correctSectionedAdapterPassesEveryProperty() {
        let subject = FuzzSubject(SectionedAdapter())
        #expect(subject.sectionedChanges != nil)
        let report = runFuzzer(FuzzOptions(inputs: 1_500, seed: 2026, subjects: [subject], maxSize: 16, workers: 1))
        #expect(report.inputs == 1_500)
        for failure in report.failures { Issue.record("\(failure)") }
    }

    @Test(arguments: [
        (SectionedAdapter.Bug.dropsLastStage, "staged-valid/drops-last-stage/sections/end"),
        (.staleStageData, "staged-valid/stale-stage-data/sections/"),
    ])
    func brokenSectionedAdapterIsCaught(bug: SectionedAdapter.Bug, signature: String) throws {
        var options = FuzzOptions(inputs: 3_000, seed: 7, subjects: [FuzzSubject(SectionedAdapter(bug: bug))], maxSize: 16, workers: 1)
        options.properties = [.stagedValid]
        options.stopAtFirstFailure = true
        let report = runFuzzer(options)
        let found = try #require(report.failures.first, "\(bug) not caught")
        #expect(found.signature.hasPrefix(signature), "\(found.signature)")
        #expect(!found.outsideContract)
    }

    @Test func flatAdapterHasNoSectionedStages() {
        #expect(FuzzSubject(ChangesetAdapter(base: HeckelEngine())).sectionedChanges == nil)
    }
}

@Suite("The net result of a staged changeset")
struct ComposingStagesTests {
    /// The two stages of ``ChangesetAdapter`` (reloads in place, then the rest) compose to the
    /// flat result they came from, on lists of every shape the generator makes.
    @Test func stagesComposeToTheFlatResult() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let old = (0..<Int(rng.next() % 12)).map { _ in Int(rng.next() % 9) }
            let new = (0..<Int(rng.next() % 12)).map { _ in Int(rng.next() % 9) }
            let answer = try ChangesetAdapter(base: HeckelEngine()).changes(from: old, to: new, comparison: .equality)
            let stages = try #require(answer.stages)
            let net = try EngineResult(composing: stages, oldCount: old.count)
            let expected = DiffResult(matching: HeckelEngine().matching(from: old, to: new, comparison: .equality), moves: .offsets)
            #expect(try DiffResult(checking: net, oldCount: old.count, newCount: new.count) == expected, "\(old) → \(new)")
        }
    }

    @Test func updatesInAnEarlierStageSurviveALaterMove() throws {
        // [a, b] → (reload b) → [a, b′] → (move b′ to the front) → [b′, a]
        let stages = [
            EngineStage(data: ["a", "b′"], changes: EngineResult(updates: [Update(from: 1, to: 1)])),
            EngineStage(data: ["b′", "a"], changes: EngineResult(moves: [Move(from: 1, to: 0)])),
        ]
        let net = try EngineResult(composing: stages, oldCount: 2)
        #expect(net.updates == [Update(from: 1, to: 0)])
        #expect(net.inserts.isEmpty && net.deletes.isEmpty)
        // IGListKit's offsets rule moves both items of a swap.
        #expect(net.moves == [Move(from: 1, to: 0), Move(from: 0, to: 1)] || net.moves == [Move(from: 0, to: 1), Move(from: 1, to: 0)])
    }

    @Test func noStagesIsNoChange() throws {
        #expect(try EngineResult(composing: [EngineStage<Int>](), oldCount: 3) == EngineResult())
    }

    @Test func aStageThatDoesNotAddUpIsRefusedNamingIt() {
        let stages = [
            EngineStage(data: [1, 2], changes: EngineResult()),
            EngineStage(data: [1], changes: EngineResult(inserts: [0])),
        ]
        #expect {
            try EngineResult(composing: stages, oldCount: 2)
        } throws: { error in
            "\(error)".hasPrefix("stage 1:")
        }
    }
}
