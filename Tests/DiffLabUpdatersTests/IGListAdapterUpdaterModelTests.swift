import Testing

@testable import DiffLabUpdaters

@Suite struct IGListAdapterUpdaterModelTests {
    static let subjects = ["iglistkit", "iglistkit-background", "iglistkit-adaptive", "iglistkit-coalescing"]

    @Test(arguments: subjects) func everyConfigurationOfTheTableIsSafe(name: String) throws {
        try expectPasses(try #require(BuiltInUpdaters.named(name)))
    }

    @Test func theReloadFallbackIsSafeAndTaken() throws {
        let configuration = IGListUpdaterConfiguration(
            diffing: .background, coalescing: CoalescingIntervals(minimum: 0.05, increment: 0.025, maximum: 0.25), reloadThreshold: 2)
        let subject = try IGListAdapterUpdaterModel.subject(configuration: configuration, name: "iglistkit-reload")
        try expectPasses(subject)
        let runs = try campaignRuns(subject)
        #expect(count(runs) { $0.notes.contains { $0.hasPrefix("reloadData") } } > 0)
        #expect(count(runs) { $0.notes.contains { $0.hasPrefix("performBatchUpdates") } } > 0)
    }

    @Test func requestsQueuedTogetherCoalesceAndEachCompletionRunsOnce() throws {
        let runs = try campaignRuns(IGListAdapterUpdaterModel.coalescingSubject)
        // A transaction carrying several requests: one event runs two or more completions.
        #expect(count(runs) { $0.notes.filter { $0.hasPrefix("completion") }.count >= 2 } > 0)
        // The coalescer delayed some transactions, and some diffs ran in the background.
        #expect(count(runs) { $0.label.contains("coalesced transaction") } > 0)
        #expect(count(runs) { $0.lane == "iglistkit.diff" } > 0)
    }

    @Test func adaptiveDiffingTakesBothPaths() throws {
        let runs = try campaignRuns(IGListAdapterUpdaterModel.adaptiveSubject)
        let background = count(runs) { $0.lane == "iglistkit.diff" }
        let onMainOnly = runs.filter { run in
            run.events.contains { $0.label == "transaction" } && !run.events.contains { $0.lane == "iglistkit.diff" }
        }.count
        #expect(background > 0)
        #expect(onMainOnly > 0)
    }

    @Test func configurationsOutOfRangeNameTheField() {
        func field(_ configuration: IGListUpdaterConfiguration) -> String? {
            do {
                try configuration.validate()
                _ = try IGListAdapterUpdaterModel.subject(configuration: configuration, name: "x")
                return nil
            } catch {
                return error.field
            }
        }
        #expect(field(IGListUpdaterConfiguration(diffing: .adaptive(maxItemCountToRunOnMain: -1))) == "maxItemCountToRunOnMain")
        #expect(field(IGListUpdaterConfiguration(reloadThreshold: -1)) == "reloadThreshold")
        for (intervals, name) in [
            ((Double.nan, 0.0, 1.0), "minInterval"), ((0.0, -1.0, 1.0), "intervalIncrement"), ((0.0, 0.0, 61.0), "maxInterval"),
            ((0.5, 0.0, 0.1), "maxInterval"),
        ] {
            let coalescing = CoalescingIntervals(minimum: intervals.0, increment: intervals.1, maximum: intervals.2)
            #expect(field(IGListUpdaterConfiguration(diffing: .background, coalescing: coalescing)) == name, "\(intervals)")
        }
        #expect(field(IGListUpdaterConfiguration(diffing: .adaptive(maxItemCountToRunOnMain: 0), reloadThreshold: 0)) == nil)
    }

    /// The planted bug: a coalesced transaction diffs from the version requested before its
    /// target (what the app last asked for) instead of what it applied.
    @Test func aCoalescedUpdateDiffedFromTheWrongBaseIsFound() throws {
        let subject = UpdaterSubject(name: "iglistkit-wrong-base") { WrongBaseUpdater(context: $0) }
        let finding = try expectFinds(.batchValid, in: subject)
        #expect(finding.shrunk.script.requestCount == 2)
    }
}

/// IGListKit's updater reduced to its queue, with the wrong base: a transaction diffs from the
/// version requested before its target.
final class WrongBaseUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    var lastRequested: ListVersion
    var pending: (from: ListVersion, to: ListVersion)?
    var completions: [@Sendable (Bool) -> Void] = []
    var busy = false

    init(context: UpdaterContext) {
        self.context = context
        lastRequested = context.initial
    }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        pending = (lastRequested, version)  // the bug: IGListKit takes what it applied
        lastRequested = version
        completions.append(completion)
        if !busy { queue() }
    }

    func queue() {
        busy = true
        context.main.async("transaction") { [self] in
            guard let (from, target) = pending, let batch = from.batchUpdate(to: target, engine: context.engine) else { return }
            let (view, done) = (context.collectionView, completions)
            pending = nil
            completions = []
            view.performBatchUpdates(batch, updates: { view.setData(target) }) { [self] finished in
                for completion in done { completion(finished) }
                busy = false
                if pending != nil { queue() }
            }
        }
    }
}
