import DiffLabBench
import DiffLabCore
import DiffLabResults
import Testing

/// The policy lab's concurrent parts; `Scripts/test` also runs this suite under ThreadSanitizer.
@Suite("Policy lab")
struct PolicyLabTests {
    @Test(arguments: DiffPolicy.allCases, [false, true])
    func everyUpdateIsAccountedFor(policy: DiffPolicy, fallback: Bool) {
        let versions = policyVersions(size: 2_000, edits: 20)
        let config = PolicyConfig(
            policy: policy, listSize: 2_000, updateInterval: 0.02, duration: 0.3, allowsReloadingOnTooManyUpdates: fallback)
        let result = runPolicy(config, versions: versions)
        #expect(result.requested > 5)
        #expect(result.frames > 0)
        // Each request is applied on its own, carried by a later one (coalesced: IGListKit folds
        // requests made while an update is under way into the next), or dropped.
        #expect(result.latencies.count + result.dropped == result.requested)
        #expect(result.applied + result.coalesced + result.dropped == result.requested)
        if !fallback { #expect(result.reloads == 0) }
        #expect(result.latencies.allSatisfy { $0 >= 0 })
    }

    @Test func versionsAreSmallEditsOfEachOther() {
        let versions = policyVersions(size: 1_000, edits: 20, count: 4)
        #expect(versions.count == 4)
        for (a, b) in zip(versions, versions.dropFirst()) {
            let ids = Set(a.map(\.id)).symmetricDifference(b.map(\.id))
            #expect(ids.count <= 40)
        }
    }

    /// Every out-of-range setting is a typed error naming the field: a frame rate of 0.0001 Hz or a
    /// huge interval trapped (sleeps past `UInt32`), an infinite frame rate was accepted, an
    /// infinite duration or frame work busy-waited forever.
    @Test(
        arguments: [
            ("frameRate", { @Sendable (c: inout PolicyConfig) in c.frameRate = 0.0001 }),
            ("frameRate", { @Sendable (c: inout PolicyConfig) in c.frameRate = .infinity }),
            ("frameRate", { @Sendable (c: inout PolicyConfig) in c.frameRate = .nan }),
            ("updateInterval", { @Sendable (c: inout PolicyConfig) in c.updateInterval = 1e9 }),
            ("updateInterval", { @Sendable (c: inout PolicyConfig) in c.updateInterval = 0 }),
            ("duration", { @Sendable (c: inout PolicyConfig) in c.duration = .infinity }),
            ("frameWork", { @Sendable (c: inout PolicyConfig) in c.frameWork = .infinity }),
            ("frameWork", { @Sendable (c: inout PolicyConfig) in c.frameWork = -0.001 }),
            ("listSize", { @Sendable (c: inout PolicyConfig) in c.listSize = 1_000_000_000_000 }),
            ("maxInterval", { @Sendable (c: inout PolicyConfig) in c.maxInterval = 3_600 }),
            ("applyBaseCost", { @Sendable (c: inout PolicyConfig) in c.applyBaseCost = .infinity }),
        ] as [(String, @Sendable (inout PolicyConfig) -> Void)])
    func outOfRangeSettingsAreTypedErrors(field: String, change: @Sendable (inout PolicyConfig) -> Void) {
        var config = PolicyConfig(policy: .main, listSize: 100)
        #expect(throws: Never.self) { try config.validate() }
        change(&config)
        expectRejected(field) { () throws(ConfigurationError) in try config.validate() }
    }

    /// The initialiser traps on an out-of-range setting instead of accepting it.
    @Test func anInfiniteFrameRateTrapsAtConstruction() async {
        await #expect(processExitsWith: .failure) {
            _ = PolicyConfig(policy: .main, listSize: 100, frameRate: .infinity)
        }
    }

    /// The longest interval and the slowest frame rate allowed: the stream used to sleep the whole
    /// interval past the duration; now one update is requested, and frames come at most once a
    /// second until the run's end (duration + drain), whatever the machine's speed.
    @Test(.timeLimit(.minutes(5)), arguments: [DiffPolicy.main, .background])
    func theRunIsBoundedByTheDuration(policy: DiffPolicy) {
        var config = PolicyConfig(policy: policy, listSize: 500, duration: 0.05)
        config.updateInterval = PolicyConfig.updateIntervalRange.upperBound
        config.frameRate = PolicyConfig.frameRateRange.lowerBound
        let result = runPolicy(config, versions: policyVersions(size: 500))
        #expect(result.requested == 1)
        #expect(result.latencies.count + result.dropped == 1)
        #expect(result.frames >= 1 && result.frames <= 3)
    }
}
