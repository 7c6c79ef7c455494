import DiffLabBench
import DiffLabCore
import DiffLabJSON
import DiffLabResults
import DiffLabUpdaters
import Foundation
import Testing

@Suite("Policy lab: the updater check behind --recommend")
struct PolicyUpdaterCheckTests {
    typealias Grid = PolicyGridTests

    /// The best setting's updater broke a property: it is not the winner, the next best is, and
    /// the row says why.
    @Test func aSettingWhoseUpdaterBrokeAPropertyIsNeverRecommended() throws {
        let runs = [
            Grid.run(Grid.main, hitch: [9, 10, 11], p99: [0.02, 0.02, 0.02]),
            Grid.run(Grid.background, hitch: [4, 5, 6], p99: [0.05, 0.05, 0.05]),
        ]
        let exclusion = PolicyExclusion(
            setting: Grid.background, updater: "iglistkit-background", property: .batchValid,
            message: "Invalid update: invalid number of items in section 0.")
        let plain = try #require(PolicyAnalysis.recommendations(runs, latencyBound: 0.25).first)
        #expect(plain.winner?.setting == Grid.background && plain.excluded.isEmpty)
        let row = try #require(PolicyAnalysis.recommendations(runs, latencyBound: 0.25, exclusions: [Grid.background: exclusion]).first)
        #expect(row.winner?.setting == Grid.main)
        #expect(row.runnerUp == nil)
        #expect(row.excluded == [exclusion])
        #expect(row.candidates == 2 && row.feasible == 1)
        // Nothing left: no winner, and the excluded setting is not the runner-up either.
        let none = try #require(
            PolicyAnalysis.recommendations(runs, latencyBound: 0.25, exclusions: [Grid.background: exclusion, Grid.main: exclusion]).first)
        #expect(none.winner == nil && none.runnerUp == nil && none.excluded.count == 2)
    }

    /// Every setting of the policy lab's full grid is an IGListKit updater configuration that
    /// keeps every property; the check ran (the adaptive threshold is scaled so both paths run).
    @Test func everySettingOfTheFullGridPassesItsUpdaterCheck() throws {
        let settings = PolicyGrid.full.settings
        #expect(settings.count >= 4)
        #expect(PolicyUpdaterCheck.exclusions(for: settings, runs: 100).isEmpty)
        let adaptive = try #require(PolicyGrid.full.settings.first { $0.policy == .adaptive })
        let subject = try #require(PolicyUpdaterCheck.subject(for: adaptive))
        let fuzzer = try UpdaterFuzzer(subject: subject)
        let runs = (0..<100).map { fuzzer.run(script: .random(seed: UInt64($0), settings: .standard), strategy: .random(seed: UInt64($0))) }
        #expect(runs.contains { $0.events.contains { $0.lane == "iglistkit.diff" } })
        #expect(runs.contains { $0.events.contains { $0.label == "transaction" } })
    }

    /// The reload fallback is checked too: its threshold is scaled so small runs cross it.
    @Test func theReloadFallbackIsTakenUnderTheCheck() throws {
        let setting = PolicySetting(policy: .coalescing, reloadThreshold: 100)
        let subject = try #require(PolicyUpdaterCheck.subject(for: setting))
        let fuzzer = try UpdaterFuzzer(subject: subject)
        let runs = (0..<100).map { fuzzer.run(script: .random(seed: UInt64($0), settings: .standard), strategy: .random(seed: UInt64($0))) }
        #expect(runs.allSatisfy { $0.failure == nil })
        #expect(runs.contains { $0.events.contains { $0.notes.contains { $0.hasPrefix("reloadData") } } })
        #expect(runs.contains { $0.events.contains { $0.notes.contains { $0.hasPrefix("performBatchUpdates") } } })
    }

    /// A setting that is no valid updater configuration (a file may hold coalescing intervals
    /// whose maximum is below their minimum) is excluded, not silently passed.
    @Test func anInvalidSettingIsExcludedWithWhy() throws {
        let odd = PolicySetting(policy: .coalescing, coalescing: CoalescingIntervals(minimum: 0.2, increment: 0.01, maximum: 0.1))
        let exclusions = PolicyUpdaterCheck.exclusions(for: [odd, odd], runs: 10)
        #expect(exclusions.count == 1)
        #expect(exclusions[odd]?.message.contains("not a valid IGListKit updater configuration") == true)
        #expect(PolicyUpdaterCheck.exclusions(for: [PolicySetting(policy: .main, reloadThreshold: -1)], runs: 10).count == 1)
    }

    /// The row's exclusions survive the file: written and read by the same record.
    @Test func exclusionsRoundTripThroughThePolicyFile() throws {
        let row = PolicyRecommendationRow(
            listSize: 1_000, bandLow: 1, bandHigh: 5_000, frameRate: 60, latencyBound: 0.25, candidates: 2, feasible: 1, winner: nil, runnerUp: nil,
            excluded: [PolicyExclusion(setting: Grid.coalescing, updater: "iglistkit-coalescing", property: .completionOnce, message: "twice")])
        var file = PolicyGridResults()
        file.recommendations = [row]
        let text = file.json.serialized()
        let read = try PolicyGridResults(json: JSONValue.parse(text), source: "test")
        #expect(read.recommendations == [row])
        // A property no updater check has is refused, naming the field.
        let bad = text.replacingOccurrences(of: "\"completion-once\"", with: "\"fast\"")
        #expect(throws: ResultsError.self) { try PolicyGridResults(json: JSONValue.parse(bad), source: "test") }
    }
}
