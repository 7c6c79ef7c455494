import DiffLabUpdaters
import Testing

@Suite struct BackgroundDiffUpdaterTests {
    @Test(arguments: [UInt64(1), 2, 3]) func theHandWrittenUpdaterIsFoundUnsafeAndShrunk(seed: UInt64) throws {
        let finding = try expectFinds(.batchValid, in: BackgroundDiffUpdater.subject, runs: 200, seed: seed)
        #expect(finding.shrunk.script.requestCount == 2)
        // Time does not matter to this race: the shrinker moves both requests to 0.
        #expect(finding.shrunk.script.requestTimes == [0, 0])
        #expect(finding.shrunk.events.count <= finding.original.events.count)
    }
}
