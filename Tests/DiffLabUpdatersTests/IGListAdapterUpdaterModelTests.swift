import Testing

@testable import DiffLabUpdaters

@Suite struct IGListAdapterUpdaterModelTests {
    static let subjects = ["iglistkit", "iglistkit-background", "iglistkit-adaptive", "iglistkit-coalescing"]

    @Test(arguments: subjects) func everyConfigurationOfTheTableIsSafe(name: String) throws {
        try expectPasses(try #require(BuiltInUpdaters.named(name)))
    }

    @Test func theReloadFallbackIsSafeAndTaken() throws {
        let configuration = try IGListUpdaterConfiguration(diffing: .background, coalescing: .standard, reloadThreshold: 2)
        let subject = IGListAdapterUpdaterModel.subject(configuration: configuration, name: "iglistkit-reload")
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

    @Test func theCoalescerFollowsIGListKitsRule() throws {
        var clock = IGListUpdateCoalescer(try IGListUpdaterConfiguration.Coalescing(minInterval: 0.05, intervalIncrement: 0.025, maxInterval: 0.1))
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
        #expect(clock.delay(requestAt: 1) == 0)  // quiet: at once, the clock starts at 1
        #expect(close(clock.delay(requestAt: 1.01), 0.04))  // within 50 ms: waits to 1.05, interval 75 ms
        #expect(close(clock.interval, 0.075))
        clock.started(at: 1.05)
        #expect(close(clock.delay(requestAt: 1.06), 0.065))  // within 75 ms of 1.05: waits to 1.125
        #expect(close(clock.interval, 0.1))
        clock.started(at: 1.125)
        #expect(close(clock.delay(requestAt: 1.13), 0.095))  // capped at the maximum, 100 ms
        #expect(close(clock.interval, 0.1))
        clock.started(at: 1.225)
        #expect(clock.delay(requestAt: 2) == 0)  // a quiet spell resets the interval
        #expect(close(clock.interval, 0.05))
    }

    @Test func configurationsOutOfRangeNameTheField() {
        #expect(throws: UpdaterInputError.self) { try IGListUpdaterConfiguration(diffing: .adaptive(maxItemCountToRunOnMain: -1)) }
        #expect(throws: UpdaterInputError.self) { try IGListUpdaterConfiguration(reloadThreshold: -1) }
        for (fields, field) in [
            ((Double.nan, 0.0, 1.0), "minInterval"), ((0.0, -1.0, 1.0), "intervalIncrement"), ((0.0, 0.0, 61.0), "maxInterval"),
            ((0.5, 0.0, 0.1), "maxInterval"),
        ] {
            do {
                _ = try IGListUpdaterConfiguration.Coalescing(minInterval: fields.0, intervalIncrement: fields.1, maxInterval: fields.2)
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.field == field)
            }
        }
        do {
            _ = try IGListUpdaterConfiguration(reloadThreshold: -3)
        } catch {
            #expect(error.field == "reloadThreshold")
        }
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
