import Synchronization
import Testing

@testable import DiffLabUpdaters

@Suite struct SchedulerTests {
    /// v0 with 3 items, then v1 with 5 and v2 with 4, asked for at 0.1 s and 0.15 s.
    static func script() throws -> UpdaterScript {
        func version(_ number: Int, _ ids: [Int]) -> ListVersion {
            ListVersion(number: number, data: UpdaterData([.init(id: 0, items: ids.map { UpdaterItem(id: $0) })]))
        }
        return try UpdaterScript(
            versions: [version(0, [0, 1, 2]), version(1, [0, 1, 2, 3, 4]), version(2, [4, 0, 1, 3])], requestTimes: [0.1, 0.15])
    }

    /// An updater whose `performUpdate` is `body`.
    static func subject(
        _ name: String, _ body: @escaping @Sendable (UpdaterContext, ListVersion, @escaping @Sendable (Bool) -> Void) -> Void
    )
        -> UpdaterSubject
    {
        UpdaterSubject(name: name) { context in ScriptedUpdater(context: context, body: body) }
    }

    /// Sets the data and reloads, on main, at once: a correct updater to vary.
    static func reload(_ context: UpdaterContext, _ version: ListVersion) {
        context.collectionView.setData(version)
        context.collectionView.reloadData()
    }

    @Test func theSameStrategyAndScriptGiveTheSameEvents() throws {
        for subject in [BackgroundDiffUpdater.subject, IGListAdapterUpdaterModel.coalescingSubject, AsyncListDifferModel.subject] {
            let fuzzer = try UpdaterFuzzer(subject: subject)
            for seed in UInt64(0)..<30 {
                let script = UpdaterScript.random(seed: seed, settings: .standard)
                for strategy in [ScheduleStrategy.random(seed: seed), .pct(seed: seed, depth: 3)] {
                    let (a, b) = (fuzzer.run(script: script, strategy: strategy), fuzzer.run(script: script, strategy: strategy))
                    #expect(a.events == b.events && a.schedule == b.schedule && a.failure == b.failure, "\(subject.name) \(strategy)")
                }
            }
        }
    }

    @Test func aRecordedScheduleReplaysToTheSameEvents() throws {
        var failing = 0
        for subject in [BackgroundDiffUpdater.subject, IGListAdapterUpdaterModel.coalescingSubject, AsyncListDifferModel.subject] {
            let fuzzer = try UpdaterFuzzer(subject: subject)
            for seed in UInt64(0)..<30 {
                let run = fuzzer.run(script: .random(seed: seed, settings: .standard), strategy: UpdaterFuzzer.strategy(run: Int(seed), seed: 9))
                let again = fuzzer.replay(run)
                #expect(again.events == run.events && again.schedule == run.schedule && again.failure == run.failure)
                if run.failure != nil { failing += 1 }
            }
        }
        #expect(failing > 0)  // failing runs replayed too
    }

    /// Runs `strategy` over three serial queues whose work sometimes queues more work elsewhere;
    /// returns, per step, the lanes that could run and the lane chosen.
    static func drive(_ strategy: ScheduleStrategy) -> [(enabled: Set<String>, chosen: String)] {
        let scheduler = UpdaterScheduler(strategy: strategy, expectedSteps: 40)
        let monitor = UpdaterMonitor(promises: UpdaterPromises())
        let queues = ["a", "b", "c"].map { scheduler._makeSerialQueue(label: $0) }
        for (k, queue) in queues.enumerated() {
            for n in 0..<4 {
                scheduler._enqueue(queue, after: 0, label: "\(k).\(n)") {
                    if n == 1 { scheduler._enqueue(queues[(k + 1) % 3], after: 0, label: "spawned", work: {}) }
                    if n == 2 { scheduler._enqueue(.global, after: 0, label: "global", work: {}) }
                }
            }
        }
        var trace: [(Set<String>, String)] = []
        var step = 0
        while step < 200 {
            let enabled = Set(scheduler.enabled().map(scheduler.name))
            step += 1
            guard scheduler.step(monitor: monitor, number: step) else { break }
            trace.append((enabled, scheduler.schedule.last ?? ""))
        }
        return trace
    }

    /// Whether a run switched away from a lane that could still run to one that could already run
    /// at the step before (what PCT without change points never does).
    static func preempts(_ trace: [(enabled: Set<String>, chosen: String)]) -> Bool {
        zip(trace, trace.dropFirst()).contains { previous, next in
            next.chosen != previous.chosen && next.enabled.contains(previous.chosen) && previous.enabled.contains(next.chosen)
        }
    }

    @Test func pctOfDepthOneKeepsALaneUntilItBlocksOrAHigherOneAppears() {
        var switches = 0
        for seed in UInt64(0)..<50 {
            let trace = Self.drive(.pct(seed: seed, depth: 1))
            #expect(trace.count == 12 + 3 + 3)
            #expect(!Self.preempts(trace), "seed \(seed)")
            switches += zip(trace, trace.dropFirst()).filter { $0.chosen != $1.chosen }.count
        }
        #expect(switches > 0)
        // With change points, and with the random walk, a running lane is preempted.
        #expect((UInt64(0)..<50).contains { Self.preempts(Self.drive(.pct(seed: $0, depth: 3))) })
        #expect((UInt64(0)..<50).contains { Self.preempts(Self.drive(.random(seed: $0))) })
    }

    @Test func timersFireInDeadlineOrder() {
        let delays = [0.5, 0.1, 0.3, 0.2, 0.4, 0.2, 0.05]
        for seed in UInt64(0)..<20 {
            let scheduler = UpdaterScheduler(strategy: .random(seed: seed), expectedSteps: 20)
            let monitor = UpdaterMonitor(promises: UpdaterPromises())
            let fired = Mutex<[(index: Int, at: Double)]>([])
            for (index, delay) in delays.enumerated() {
                scheduler._enqueue(.main, after: delay, label: "timer \(index)") {
                    let now = scheduler._now()
                    fired.withLock { $0.append((index, now)) }
                }
            }
            var step = 0
            while step < 100 {
                step += 1
                guard scheduler.step(monitor: monitor, number: step) else { break }
            }
            let order = fired.withLock { $0 }
            // By deadline, equal deadlines in the order armed; none before its deadline.
            #expect(order.map(\.index) == delays.indices.sorted { (delays[$0], $0) < (delays[$1], $1) })
            #expect(order.allSatisfy { $0.at >= delays[$0.index] })
        }
    }

    @Test func anUpdaterThatNeverStopsIsAnEndsFinding() throws {
        let subject = Self.subject("endless") { context, version, completion in
            Self.reload(context, version)
            completion(true)
            @Sendable func rearm() { context.main.asyncAfter(seconds: 1, "re-arm") { rearm() } }
            rearm()
        }
        let settings = UpdaterFuzzSettings(maxRequests: 3, maxItems: 4, maxEdits: 2, maxGap: 0.1, stepBudget: 300)
        let fuzzer = try UpdaterFuzzer(subject: subject, settings: settings)
        let run = fuzzer.run(script: try Self.script(), strategy: .random(seed: 1))
        #expect(run.failure?.property == .ends)
        #expect(run.events.count <= 301 + 1)
    }

    @Test func aCompletionCalledTwiceIsACompletionOnceFinding() throws {
        let subject = Self.subject("twice") { context, version, completion in
            Self.reload(context, version)
            completion(true)
            completion(true)
        }
        let run = try UpdaterFuzzer(subject: subject).run(script: try Self.script(), strategy: .random(seed: 1))
        #expect(run.failure?.property == .completionOnce)
        #expect(run.failure?.message.contains("ran 2 times") == true)
    }

    @Test func setDataOffMainIsAMainOnlyFinding() throws {
        let subject = UpdaterSubject(name: "off-main") { context in
            let queue = context.makeSerialQueue(label: "worker")
            return ScriptedUpdater(context: context) { context, version, completion in
                queue.async("set data") { context.collectionView.setData(version) }
                completion(true)
            }
        }
        let run = try UpdaterFuzzer(subject: subject).run(script: try Self.script(), strategy: .random(seed: 1))
        #expect(run.failure?.property == .mainOnly)
    }

    @Test func aVersionGoingBackIsAVersionsInOrderFinding() throws {
        let subject = Self.subject("back") { context, version, completion in
            Self.reload(context, version)
            completion(true)
            context.main.async("restore v0") { Self.reload(context, context.initial) }
        }
        let run = try UpdaterFuzzer(subject: subject).run(script: try Self.script(), strategy: .random(seed: 1))
        #expect(run.failure?.property == .versionsInOrder)
    }

    @Test func dataChangedWithoutABatchIsACountsMatchAtLayoutFinding() throws {
        let subject = Self.subject("no-batch") { context, version, completion in
            context.collectionView.setData(version)
            completion(true)
        }
        let run = try UpdaterFuzzer(subject: subject).run(script: try Self.script(), strategy: .random(seed: 1))
        #expect(run.failure?.property == .countsMatchAtLayout)
        #expect(run.failure.map { $0.step > 0 } == true)
    }
}

/// An updater made of one closure.
final class ScriptedUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let body: @Sendable (UpdaterContext, ListVersion, @escaping @Sendable (Bool) -> Void) -> Void

    init(context: UpdaterContext, body: @escaping @Sendable (UpdaterContext, ListVersion, @escaping @Sendable (Bool) -> Void) -> Void) {
        self.context = context
        self.body = body
    }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) { body(context, version, completion) }
}
