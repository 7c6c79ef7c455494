import DiffLabUpdaters
import Testing

@Suite struct DiffableDataSourceModelTests {
    @Test func serializedAppliesAreSafe() throws {
        try expectPasses(DiffableDataSourceModel.subject)
    }

    @Test func appliesWaitForTheOneUnderWay() throws {
        let runs = try campaignRuns(DiffableDataSourceModel.subject)
        // A request that arrived while an apply was under way (between its diff and its batch).
        let waited = runs.filter { run in
            var underWay = false
            for event in run.events {
                if event.label.hasPrefix("diff snapshot") { underWay = true }
                if event.label.hasPrefix("apply snapshot") { underWay = false }
                if underWay && event.label.hasPrefix("app requests") { return true }
            }
            return false
        }
        #expect(!waited.isEmpty)
    }

    /// The planted bug: applies are not serialized; each diffs at once from the snapshot last
    /// applied when it was asked for.
    @Test func unserializedAppliesAreFound() throws {
        let subject = UpdaterSubject(name: "diffable-unserialized") { UnserializedApply(context: $0) }
        let finding = try expectFinds(.batchValid, in: subject)
        #expect(finding.shrunk.script.requestCount == 2)
    }
}

/// Diffable apply without its serialization.
final class UnserializedApply: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let queue: UpdaterQueue
    var applied: ListVersion

    init(context: UpdaterContext) {
        self.context = context
        queue = context.makeSerialQueue(label: "diffable.apply")
        applied = context.initial
    }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let (from, context) = (applied, context)
        queue.async("diff snapshot \(from)→\(version)") { [self] in
            guard let batch = from.batchUpdate(to: version, engine: context.engine) else { return }
            context.main.async("apply snapshot \(version)") { [self] in
                let view = context.collectionView
                view.performBatchUpdates(
                    batch,
                    updates: {
                        view.setData(version)
                        applied = version
                    }, completion: completion)
            }
        }
    }
}
