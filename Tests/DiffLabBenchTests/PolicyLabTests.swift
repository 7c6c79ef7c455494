import DiffLabBench
import DiffLabCore
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
        // Each request is applied on its own, carried by a later one (coalesced), or dropped.
        #expect(result.latencies.count + result.dropped == result.requested)
        #expect(result.applied + result.coalesced + result.dropped == result.requested)
        if policy != .coalescing { #expect(result.coalesced == 0) }
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
}
