import DiffLabUpdaters
import Dispatch
import Testing

/// A correct updater: one request at a time, diffed in the background from what the view shows,
/// applied on main; the next starts once the previous one is applied.
private final class SerialUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let queue: UpdaterQueue
    // Main-queue state.
    var current: ListVersion
    var waiting: [(version: ListVersion, completion: @Sendable (Bool) -> Void)] = []
    var busy = false

    init(context: UpdaterContext) {
        self.context = context
        queue = context.makeSerialQueue(label: "background")
        current = context.initial
    }

    static let subject = UpdaterSubject(name: "serial", make: { SerialUpdater(context: $0) })

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        waiting.append((version, completion))
        startNext()
    }

    func startNext() {
        guard !busy, !waiting.isEmpty else { return }
        busy = true
        let (target, completion) = waiting.removeFirst()
        let (old, context) = (current, context)
        queue.async("diff \(old)→\(target)") {
            let batch = old.batchUpdate(to: target, engine: context.engine)
            context.main.async("apply \(old)→\(target)") { [self] in
                let view = context.collectionView
                if let batch {
                    view.performBatchUpdates(
                        batch,
                        updates: {
                            self.current = target
                            view.setData(target)
                        }, completion: completion)
                } else {
                    current = target
                    view.setData(target)
                    view.reloadData()
                    completion(true)
                }
                busy = false
                startNext()
            }
        }
    }
}

/// Blocks its background queue on `gate` at the first request: a deadlock, until the test signals.
private final class BlockingUpdater: ListUpdater, @unchecked Sendable {
    let queue: UpdaterQueue
    let gate: DispatchSemaphore

    init(context: UpdaterContext, gate: DispatchSemaphore) {
        queue = context.makeSerialQueue(label: "background")
        self.gate = gate
    }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let gate = gate
        queue.async("wait for \(version)'s lock") {
            gate.wait()
            completion(true)
        }
    }
}

/// Polls for a condition that never comes: work forever, a livelock.
private final class PollingUpdater: ListUpdater, @unchecked Sendable {
    let queue: UpdaterQueue

    init(context: UpdaterContext) { queue = context.makeSerialQueue(label: "poller") }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) { poll() }

    func poll() {
        queue.asyncAfter(seconds: 0.01, "poll") { [self] in poll() }
    }
}

/// Applies every version as a reload, and forgets every completion.
private final class ForgetfulUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext

    init(context: UpdaterContext) { self.context = context }

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        context.collectionView.setData(version)
        context.collectionView.reloadData()
    }
}

/// `count` requests, all at time 0, each inserting one item at the front.
private func burst(_ count: Int) throws -> UpdaterScript {
    let versions = (0...count).map { n in
        ListVersion(number: n, data: UpdaterData([.init(id: 0, items: (0..<(3 + n)).reversed().map { UpdaterItem(id: $0) })]))
    }
    return try UpdaterScript(versions: versions, requestTimes: Array(repeating: 0, count: count))
}

@Suite struct UpdaterStressTests {
    @Test func aCorrectUpdaterPassesOnRealQueues() throws {
        let fuzzer = try UpdaterFuzzer(subject: SerialUpdater.subject)
        let result = try fuzzer.stress(runs: 40, seed: 3)
        #expect(result.passed, "\(result.findings.map { "\($0.first.failure!)" })")
        #expect(result.runs == 40)
        #expect(!result.stoppedByTimeOut)
        // One run, looked at: every request was applied, on the lanes the work ran on.
        let run = try fuzzer.stress(script: burst(8))
        #expect(run.failure == nil)
        let applied = run.events.filter { $0.lane == "main" && $0.notes.contains { $0.hasSuffix(": valid") } }
        #expect(applied.count == 8)
        let diffs = run.events.filter { $0.label.hasPrefix("diff ") }
        #expect(diffs.count == 8)
        #expect(diffs.allSatisfy { $0.lane == "background" && !$0.onMain && $0.notes.isEmpty })
        #expect(run.events.last?.label == "end: every lane is idle")
    }

    @Test func theHandWrittenBackgroundUpdaterIsFoundUnsafe() throws {
        // Many requests at once: a request lands while the diff of the one before is in flight.
        let fuzzer = try UpdaterFuzzer(subject: BackgroundDiffUpdater.subject)
        var failure: UpdaterFailure?
        for _ in 0..<20 where failure == nil {
            failure = try fuzzer.stress(script: burst(12)).failure
        }
        #expect(failure?.property == .batchValid)
        #expect(failure?.message.contains("Invalid update") == true)

        let settings = UpdaterFuzzSettings(maxRequests: 12, maxItems: 8, maxEdits: 4, maxGap: 0, stepBudget: 20_000)
        let campaign = try UpdaterFuzzer(subject: BackgroundDiffUpdater.subject, settings: settings).stress(runs: 60, seed: 1)
        let finding = try #require(campaign.findings.first { $0.property == .batchValid })
        #expect(finding.first.failure?.property == .batchValid)
        #expect(finding.first.events.contains { $0.lane == "background" })
        #expect(!campaign.passed)
    }

    @Test func aDeadlockedUpdaterIsAHangAndTheRunReturns() throws {
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<4 { gate.signal() } }
        let subject = UpdaterSubject(name: "blocking", make: { BlockingUpdater(context: $0, gate: gate) })
        let fuzzer = try UpdaterFuzzer(subject: subject)
        let run = try fuzzer.stress(script: burst(2), timeLimit: 0.3)
        #expect(run.failure?.property == .ends)
        #expect(run.failure?.message.contains("background: wait for v1's lock (running)") == true)
        #expect(run.failure?.message.contains("completions not run: v1, v2") == true)
        #expect(run.timedOut)
        #expect(run.stillRunning == 1)

        let campaign = try fuzzer.stress(runs: 5, seed: 1, timeLimit: 0.3)
        #expect(campaign.runs == 1)
        #expect(campaign.stoppedByTimeOut)
        #expect(campaign.findings.map(\.property) == [.ends])
    }

    @Test func aLivelockedUpdaterIsAnEndsFinding() throws {
        let fuzzer = try UpdaterFuzzer(subject: UpdaterSubject(name: "polling", make: { PollingUpdater(context: $0) }))
        let run = try fuzzer.stress(script: burst(1), timeLimit: 0.5)
        #expect(run.failure?.property == .ends)
        #expect(run.stillRunning == 0)
    }

    @Test func aForgottenCompletionIsFoundAtTheEndAsUnderTheScheduler() throws {
        let fuzzer = try UpdaterFuzzer(subject: UpdaterSubject(name: "forgetful", make: { ForgetfulUpdater(context: $0) }))
        let script = try burst(2)
        let run = try fuzzer.stress(script: script)
        let scheduled = fuzzer.run(script: script, strategy: .random(seed: 1))
        #expect(run.failure == UpdaterFailure(property: .completionOnce, message: "the completion of v1 never ran", step: 0))
        #expect(scheduled.failure == run.failure)
        #expect(!run.timedOut)
    }

    @Test(
        arguments: [
            (0, 0.001, 10.0, "runs"), (1_000_001, 0.001, 10, "runs"), (1, 0, 10, "timeScale"), (1, -1, 10, "timeScale"),
            (1, .nan, 10, "timeScale"), (1, 2, 10, "timeScale"), (1, 0.001, 0, "timeLimit"), (1, 0.001, .infinity, "timeLimit"),
            (1, 0.001, 7_200, "timeLimit"), (1, 1, 1, "timeScale"),
        ] as [(Int, Double, Double, String)])
    func numbersOutOfRangeAreErrorsNamingTheField(runs: Int, timeScale: Double, timeLimit: Double, field: String) throws {
        let fuzzer = try UpdaterFuzzer(subject: SerialUpdater.subject)
        #expect {
            _ = try fuzzer.stress(runs: runs, seed: 1, timeScale: timeScale, timeLimit: timeLimit)
        } throws: { ($0 as? UpdaterInputError)?.field == field }
    }

    @Test func aScriptLongerThanHalfTheTimeLimitIsAnError() throws {
        let fuzzer = try UpdaterFuzzer(subject: SerialUpdater.subject)
        let versions = (0...1).map { ListVersion(number: $0, data: UpdaterData([.init(id: 0, items: [])])) }
        let script = try UpdaterScript(versions: versions, requestTimes: [100])
        #expect(throws: UpdaterInputError.self) { try fuzzer.stress(script: script, timeScale: 0.1, timeLimit: 10) }
        #expect(try fuzzer.stress(script: script, timeScale: 0.000_01, timeLimit: 10).failure == nil)
    }
}
