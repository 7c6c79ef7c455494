import DiffLabUpdaters
import Testing

@Suite struct DifferenceKitReloadModelTests {
    @Test func usedAsDocumentedItIsSafe() throws {
        try expectPasses(DifferenceKitReloadModel.subject)
        try expectPasses(UpdaterSubject(name: "differencekit-no-interrupt") { DifferenceKitReloadModel(context: $0) }, runs: 200)
    }

    @Test func stagesAndInterruptionsAreBothTaken() throws {
        let runs = try campaignRuns(DifferenceKitReloadModel.subject)
        #expect(count(runs) { $0.notes.filter { $0.hasPrefix("performBatchUpdates") }.count >= 2 } > 0)
        #expect(count(runs) { $0.notes.contains { $0.hasPrefix("reloadData") } } > 0)
    }

    /// The planted bug: the data source takes each stage's data after `performBatchUpdates`
    /// instead of inside it (DifferenceKit: "The data of the data-source needs to be updated
    /// synchronously before `performBatchUpdates` in every stages").
    @Test func dataSetOutsideTheBatchIsFound() throws {
        let subject = UpdaterSubject(name: "differencekit-late-data") { context in
            LateDataReload(context: context)
        }
        _ = try expectFinds(.batchValid, in: subject)
    }
}

/// DifferenceKit's reload with the data handed over after each stage's batch.
final class LateDataReload: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext

    init(context: UpdaterContext) { self.context = context }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let view = context.collectionView
        for stage in view.dataSource.stagedChangeset(to: version, engine: context.engine).stages {
            view.performBatchUpdates(stage.changes, updates: {})
            view.setData(ListVersion(number: version.number, data: stage.data))
        }
        view.setData(version)
        completion(true)
    }
}
