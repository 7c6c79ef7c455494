import DiffLabCore
import Synchronization
import Testing

@testable import DiffLabUpdaters

/// What a review of the updaters found (each a test that failed before its fix).
@Suite struct HostileUpdaterInputTests {
    /// A run's objects go when it ends: the scheduler no longer keeps the updater, its queued
    /// work and the view alive (10,000,000 runs of a campaign used to keep them all).
    @Test func aRunKeepsNothingOfItsUpdaterOnceItEnds() throws {
        final class Tracker: Sendable {
            let alive = Mutex(0)
            let made = Mutex(0)
        }
        final class Tracked: ListUpdater, @unchecked Sendable {
            let inner: BackgroundDiffUpdater
            let tracker: Tracker
            init(context: UpdaterContext, tracker: Tracker) {
                inner = BackgroundDiffUpdater(context: context)
                self.tracker = tracker
                tracker.alive.withLock { $0 += 1 }
                tracker.made.withLock { $0 += 1 }
            }
            deinit { tracker.alive.withLock { $0 -= 1 } }
            func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
                inner.performUpdate(to: version, completion: completion)
            }
        }
        let tracker = Tracker()
        let subject = UpdaterSubject(name: "tracked") { Tracked(context: $0, tracker: tracker) }
        let campaign = try UpdaterFuzzer(subject: subject).campaign(runs: 50, seed: 1)
        #expect(!campaign.passed)
        #expect(tracker.made.withLock { $0 } >= 50)
        #expect(tracker.alive.withLock { $0 } == 0)
    }

    /// A script a findings file cannot hold is refused by the settings, naming the field.
    @Test func settingsWhoseScriptsExceedAFindingsFileAreRefused() {
        var settings = UpdaterFuzzSettings.standard
        settings.maxRequests = 10_000
        settings.maxItems = 1_000
        #expect(throws: UpdaterInputError.self) { try settings.validate() }
        do { try settings.validate() } catch { #expect(error.field == "maxItems") }
        settings.maxItems = 99
        #expect(throws: Never.self) { try settings.validate() }
    }

    /// The public generator clamps what it is given: no trap, no NaN.
    @Test func theGeneratorClampsSettingsOutOfRange() {
        let wild = UpdaterFuzzSettings(maxRequests: .max, maxItems: .max, maxEdits: -5, maxGap: .nan, stepBudget: 0)
        let script = UpdaterScript.random(seed: 7, settings: wild)
        #expect(script.requestCount >= 1 && script.requestCount <= UpdaterFuzzSettings.maxRequestsRange.upperBound)
        #expect(script.requestTimes.allSatisfy { $0 == 0 })
        #expect(script.versions.reduce(0) { $0 + $1.itemCount } <= UpdaterFuzzSettings.maxScriptItems)
    }

    /// PCT of any depth ends (a depth is clamped, not trusted).
    @Test func anyPCTDepthEnds() throws {
        let fuzzer = try UpdaterFuzzer(subject: IGListAdapterUpdaterModel.backgroundSubject)
        let script = UpdaterScript.random(seed: 3, settings: .standard)
        for depth in [Int.min, -1, 0, 1, 64, .max] {
            let run = fuzzer.run(script: script, strategy: .pct(seed: 1, depth: depth))
            #expect(run.failure == nil, "depth \(depth): \(String(describing: run.failure))")
        }
    }

    /// A run that ends exactly at its step budget has ended; one step less is `ends`.
    @Test func aRunEndingExactlyAtTheBudgetHasEnded() throws {
        let script = UpdaterScript.random(seed: 5, settings: .standard)
        let free = try UpdaterFuzzer(subject: IGListAdapterUpdaterModel.subject).run(script: script, strategy: .random(seed: 2))
        #expect(free.failure == nil)
        var settings = UpdaterFuzzSettings.standard
        settings.stepBudget = free.schedule.count
        let exact = try UpdaterFuzzer(subject: IGListAdapterUpdaterModel.subject, settings: settings).run(
            script: script, strategy: .random(seed: 2))
        #expect(exact.failure == nil, "\(String(describing: exact.failure))")
        settings.stepBudget = free.schedule.count - 1
        let short = try UpdaterFuzzer(subject: IGListAdapterUpdaterModel.subject, settings: settings).run(
            script: script, strategy: .random(seed: 2))
        #expect(short.failure?.property == .ends)
    }

    /// Whatever an updater names its queues and work, a timeline holds bounded text.
    @Test func hugeLabelsAreCutInTheTimeline() throws {
        final class Loud: ListUpdater, @unchecked Sendable {
            let context: UpdaterContext
            let queue: UpdaterQueue
            init(context: UpdaterContext) {
                self.context = context
                queue = context.makeSerialQueue(label: String(repeating: "q", count: 10_000))
            }
            func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
                let context = self.context
                queue.async(String(repeating: "w", count: 50_000)) {
                    context.main.async("apply") {
                        context.collectionView.setData(version)
                        context.collectionView.reloadData()
                        completion(true)
                    }
                }
            }
        }
        let run = try UpdaterFuzzer(subject: UpdaterSubject(name: "loud") { Loud(context: $0) }).run(
            script: UpdaterScript.random(seed: 1, settings: .standard), strategy: .random(seed: 1))
        #expect(run.failure == nil)
        #expect(run.events.contains { $0.label.hasPrefix("www") })
        #expect(run.events.allSatisfy { $0.label.count <= UpdaterEvent.maxLabelLength && $0.lane.count <= UpdaterEvent.maxLaneLength })
        #expect(run.schedule.allSatisfy { $0.count <= UpdaterEvent.maxLaneLength })
        // And the cut lane name still replays.
        let fuzzer = try UpdaterFuzzer(subject: UpdaterSubject(name: "loud") { Loud(context: $0) })
        #expect(fuzzer.replay(run).events == run.events)
    }
}
