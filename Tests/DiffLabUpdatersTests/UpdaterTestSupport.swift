import DiffLabUpdaters
import Testing

/// The seeds every model's campaign runs under.
let campaignSeeds: [UInt64] = [1, 2, 3]

/// Runs a campaign of `runs` runs of ``UpdaterFuzzSettings/standard`` for each seed, and records
/// an issue for every finding (with its shrunk failure), so that a failing model says why.
func expectPasses(_ subject: UpdaterSubject, runs: Int = 300, seeds: [UInt64] = campaignSeeds) throws {
    let fuzzer = try UpdaterFuzzer(subject: subject)
    for seed in seeds {
        let campaign = fuzzer.campaign(runs: runs, seed: seed)
        #expect(campaign.runs == runs)
        for finding in campaign.findings {
            Issue.record("\(subject.name), seed \(seed): \(finding.shrunk.failure.map(String.init(describing:)) ?? "?")")
        }
    }
}

/// The runs of a campaign (the same scripts and strategies as ``UpdaterFuzzer/campaign(runs:seed:shrinkBudget:)``),
/// for checking which paths an updater took.
func campaignRuns(_ subject: UpdaterSubject, runs: Int = 300, seed: UInt64 = 1) throws -> [UpdaterRun] {
    let fuzzer = try UpdaterFuzzer(subject: subject)
    return (0..<runs).map { index in
        let script = UpdaterScript.random(seed: UpdaterFuzzer.runSeed(run: index, seed: seed), settings: .standard)
        return fuzzer.run(script: script, strategy: UpdaterFuzzer.strategy(run: index, seed: seed))
    }
}

/// How many of `runs` have an event satisfying `test`.
func count(_ runs: [UpdaterRun], _ test: (UpdaterEvent) -> Bool) -> Int {
    runs.filter { $0.events.contains(where: test) }.count
}

/// The campaign of a planted bug: it must find `property`, shrink it, and replay the shrunk run identically.
func expectFinds(_ property: UpdaterProperty, in subject: UpdaterSubject, runs: Int = 300, seed: UInt64 = 1) throws -> UpdaterFinding {
    let fuzzer = try UpdaterFuzzer(subject: subject)
    let campaign = fuzzer.campaign(runs: runs, seed: seed)
    let finding = try #require(
        campaign.findings.first { $0.property == property },
        "found \(campaign.findings.map(\.property.rawValue)) instead of \(property.rawValue)")
    #expect(finding.shrunk.failure?.property == property)
    let again = fuzzer.replay(finding.shrunk)
    #expect(again.failure == finding.shrunk.failure)
    #expect(again.events == finding.shrunk.events)
    return finding
}
