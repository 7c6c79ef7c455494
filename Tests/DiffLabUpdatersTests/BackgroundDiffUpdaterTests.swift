import DiffLabUpdaters
import Testing

@Suite struct BackgroundDiffUpdaterTests {
    @Test func theHandWrittenUpdaterIsFoundUnsafeAndShrunk() throws {
        let fuzzer = try UpdaterFuzzer(subject: BackgroundDiffUpdater.subject)
        let campaign = fuzzer.campaign(runs: 200, seed: 1)
        let finding = try #require(campaign.findings.first { $0.property == .batchValid })
        print(finding.shrunk.failure!)
        for e in finding.shrunk.events { print(e.step, e.time, e.lane, e.label, e.notes) }
        print(finding.shrunk.schedule)
        #expect(finding.shrunk.script.requestCount == 2)
        let again = fuzzer.replay(finding.shrunk)
        #expect(again.failure == finding.shrunk.failure)
        #expect(again.events == finding.shrunk.events)
    }
}
