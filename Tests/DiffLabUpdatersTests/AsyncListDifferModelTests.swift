import DiffLabUpdaters
import Testing

@Suite struct AsyncListDifferModelTests {
    @Test func theDifferIsSafeAndKeepsItsPromise() throws {
        #expect(AsyncListDifferModel.subject.promises.dropsSupersededDiffs)
        try expectPasses(AsyncListDifferModel.subject)
    }

    @Test func supersededDiffsAreDroppedAndCompleteWithFalse() throws {
        let runs = try campaignRuns(AsyncListDifferModel.subject)
        #expect(count(runs) { $0.notes.contains { $0.hasSuffix("(not finished)") } } > 0)
        #expect(count(runs) { $0.lane == "global" } > 0)
        // An empty list on either side is set at the request, without a diff.
        #expect(count(runs) { $0.label.hasPrefix("app requests") && $0.notes.contains { $0.hasPrefix("performBatchUpdates") } } > 0)
    }

    /// The planted bug: no generation check, every diff's result is applied.
    @Test func withoutTheGenerationCheckSupersededDiffsAreApplied() throws {
        let subject = UpdaterSubject(name: "unchecked-differ", promises: UpdaterPromises(dropsSupersededDiffs: true)) {
            PlantedDiffer(context: $0, checksGeneration: false, completesDropped: true)
        }
        _ = try expectFinds(.dropsSuperseded, in: subject)
    }

    /// Android's documented behaviour taken literally: a superseded list's commit callback never
    /// runs. The contract asks for every completion once, so DiffLab flags it.
    @Test func aDroppedCommitCallbackThatNeverRunsIsFound() throws {
        let subject = UpdaterSubject(name: "android-literal", promises: UpdaterPromises(dropsSupersededDiffs: true)) {
            PlantedDiffer(context: $0, checksGeneration: true, completesDropped: false)
        }
        let finding = try expectFinds(.completionOnce, in: subject)
        #expect(finding.shrunk.failure?.message.contains("never ran") == true)
    }
}

/// AsyncListDiffer without the empty-list path, with a bug planted by flags.
final class PlantedDiffer: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let checksGeneration: Bool
    let completesDropped: Bool
    var current: ListVersion
    var generation = 0

    init(context: UpdaterContext, checksGeneration: Bool, completesDropped: Bool) {
        self.context = context
        self.checksGeneration = checksGeneration
        self.completesDropped = completesDropped
        current = context.initial
    }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        generation += 1
        let (mine, old, context) = (generation, current, context)
        context.global.async("diff \(old)→\(version)") { [self] in
            let batch = old.batchUpdate(to: version, engine: context.engine)
            context.main.async("latch \(version)") { [self] in
                guard !checksGeneration || mine == generation, let batch else {
                    if completesDropped { completion(false) }
                    return
                }
                let view = context.collectionView
                view.performBatchUpdates(batch) {
                    current = version
                    view.setData(version)
                }
                completion(true)
            }
        }
    }
}
