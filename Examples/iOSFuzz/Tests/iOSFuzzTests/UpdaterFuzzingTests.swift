import ChatFeed
import CustomEngine
import DiffLabUpdaters
import Testing

/// List updaters fuzzed in this process, as in an iOS test target: DiffLab's deterministic
/// scheduler runs the updater's main and background queues itself, one step at a time in virtual
/// time (no thread, no process, no file), so the same campaign runs here, on a Mac and in an iOS
/// Simulator, and finds the same things.
@Suite struct InProcessUpdaterFuzzing {
    /// The same 300 runs (seed 2026) find the hand-written "diff on a background queue, apply on
    /// main" unsafe — shrunk to two requests, replayed step for step — and find nothing wrong with
    /// CustomEngine's fixed chat-feed updater (one diff in flight, from the applied data).
    @Test func theBackgroundUpdaterIsFoundUnsafeAndTheSerialOnePasses() throws {
        let (runs, seed): (Int, UInt64) = (300, 2026)
        let unsafe = try UpdaterFuzzer(subject: try #require(BuiltInUpdaters.named("background-diff")))
        let found = unsafe.campaign(runs: runs, seed: seed)
        let race = try #require(found.findings.first { $0.property == .batchValid }, "\(runs) runs did not catch background-diff's race")
        #expect(race.shrunk.script.requestCount == 2, "shrunk to \(race.shrunk.script.requestCount) requests")
        let again = unsafe.replay(race.shrunk)
        #expect(again.failure == race.shrunk.failure)
        #expect(again.events == race.shrunk.events)

        let serial = try UpdaterFuzzer(subject: SerialChatFeedUpdater.subject(engine: OccurrenceEngine())).campaign(runs: runs, seed: seed)
        #expect(serial.runs == runs)
        for finding in serial.findings {
            Issue.record("chat-feed-serial broke \(finding.property.rawValue): \(finding.shrunk.failure.map(String.init(describing:)) ?? "")")
        }
        #expect(serial.passed)
    }
}
