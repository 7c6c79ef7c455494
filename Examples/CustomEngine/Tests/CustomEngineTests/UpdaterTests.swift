import ChatFeed
import CustomEngine
import DiffLab
import Foundation
import Testing

/// Your engine, your updater: the chat feed's updaters (`Sources/ChatFeed`) diff with this
/// package's `OccurrenceEngine` and are fuzzed by DiffLab's ``UpdaterFuzzer`` under its
/// deterministic scheduler, through the public API only, as any app would fuzz its own updater.
@Suite struct UpdaterTests {
    /// The engine both updaters diff with.
    static let engine = OccurrenceEngine()

    /// A run's timeline, one step a line: `  5  chat-diff  diff v0→v2`.
    static func timeline(_ run: UpdaterRun) -> String {
        run.events.map { event in
            let notes = event.notes.isEmpty ? "" : "  [\(event.notes.joined(separator: "; "))]"
            return "\(event.step)".leftPadded(to: 3) + "  " + event.lane.padded(to: 10) + event.label + notes
        }.joined(separator: "\n")
    }

    /// The first updater races: two requests before the first batch lands diff from the same
    /// messages, and the second batch is refused by UIKit's rules (`attempt to delete item 2 from
    /// section 0 which only contains 2 items before the update`, or `Invalid update: …`). The
    /// fuzzer finds it, shrinks it to those two requests, and the shrunk run replays step for step.
    @Test func theFirstChatFeedUpdaterRacesAndIsCaught() throws {
        let fuzzer = try UpdaterFuzzer(subject: ChatFeedUpdater.subject(engine: Self.engine))
        let campaign = fuzzer.campaign(runs: 200, seed: 1)
        let finding = try #require(campaign.findings.first { $0.property == .batchValid }, "200 runs did not catch the race")
        let shrunk = finding.shrunk
        let failure = try #require(shrunk.failure)
        print("chat-feed, \(finding.failingRuns) of 200 runs broke batch-valid; shrunk:\n\(Self.timeline(shrunk))\n\(failure)")

        #expect(finding.updater == "chat-feed")
        #expect(shrunk.script.requestCount == 2, "shrunk to \(shrunk.script.requestCount) requests")
        #expect(failure.property == .batchValid)
        // The race itself: the second batch, diffed from v0, meets a view that shows v1.
        let failing = try #require(shrunk.events.first { $0.step == failure.step })
        #expect(failing.lane == "main" && failing.label == "apply v0→v2", "failed at \(failing.lane): \(failing.label)")
        #expect(shrunk.events.contains { $0.label == "apply v0→v1" && $0.step < failure.step })

        let again = fuzzer.replay(shrunk)
        #expect(again.failure == shrunk.failure)
        #expect(again.events == shrunk.events)
    }

    /// The fix — one diff in flight, from the applied messages, later requests coalesced — keeps
    /// every property in the same campaigns that catch the first updater: the runs have teeth.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSerialChatFeedUpdaterPassesWhereTheFirstFails(seed: UInt64) throws {
        let runs = 300
        let racy = try UpdaterFuzzer(subject: ChatFeedUpdater.subject(engine: Self.engine)).campaign(runs: runs, seed: seed)
        #expect(racy.findings.contains { $0.property == .batchValid }, "seed \(seed): these runs do not even catch the first updater")

        let serial = try UpdaterFuzzer(subject: SerialChatFeedUpdater.subject(engine: Self.engine)).campaign(runs: runs, seed: seed)
        #expect(serial.runs == runs)
        #expect(serial.checked.contains(.batchValid) && serial.checked.contains(.completionOnce) && serial.checked.contains(.lastVersionShown))
        for finding in serial.findings {
            Issue.record(
                """
                chat-feed-serial broke \(finding.property.rawValue) (seed \(seed), \(finding.failingRuns) runs): \
                \(finding.shrunk.failure.map(String.init(describing:)) ?? "")
                \(Self.timeline(finding.shrunk))
                """)
        }
        #expect(serial.findings.map(\.property) == [])
    }
}

extension String {
    /// Padded with spaces on the right to `width` characters, plus one space.
    fileprivate func padded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) + " " }
    /// Padded with spaces on the left to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

/// The package's own runner checks its updaters by name, each in a worker process of its own
/// (`--isolation spawn`, Darwin's default): the racy one is unsafe, the serial one safe, and the
/// `--json` summary says so.
@Suite struct RunnerChecksTheUpdaters {
    @Test func customDifflabUpdatersFindsTheRaceAndPassesTheFix() throws {
        let runner = try #require(customDifflab(), "custom-difflab is not built next to this package's tests")
        let (exited, text) = try runCustomDifflab(
            runner,
            [
                "updaters", "--updaters", "chat-feed,chat-feed-serial", "--runs", "300", "--seed", "1", "--isolation", "spawn", "--json",
            ])
        // Exit 1: an updater broke a property.
        #expect(exited == 1, "\(text)")
        #expect(text.contains("FINDING chat-feed: batch-valid"), "\(text)")
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        let summary = try UpdatersSummary(json: JSONValue.parse(last), source: "custom-difflab updaters --json")
        #expect(summary.updaters.map(\.name) == ["chat-feed", "chat-feed-serial"])
        #expect(summary.updaters.map(\.verdict) == [.unsafe, .safe])
    }
}
