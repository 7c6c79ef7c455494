import DiffLabCore
import DiffLabJSON
import DiffLabResults
import DiffLabUpdaters
import Testing

@testable import DiffLabBench

/// The scenario grid, its virtual-time simulation, and the analysis that turns runs into
/// crossovers and recommendations.
@Suite("Policy grid")
struct PolicyGridTests {
    // MARK: The grid

    @Test func theGridIsDeterministicAndComplete() {
        let grid = PolicyGrid.full
        #expect(grid.workloads == PolicyGrid.full.workloads)
        #expect(grid.settings == PolicyGrid.full.settings)
        // 7 sizes × 2 rates × 4 intervals × 2 edit shares; (main + background + 3 adaptive + 3
        // coalescing) × 2 move strategies × 4 fallbacks.
        #expect(grid.workloads.count == 112)
        #expect(grid.settings.count == 64)
        #expect(Set(grid.workloads).count == 112 && Set(grid.settings).count == 64)
        let first = grid.workloads[0]
        #expect(first == PolicyWorkload(listSize: 1_000, frameRate: 60, updateInterval: 1.0 / 60, editsPerUpdate: 10))
        #expect(grid.workloads.last == PolicyWorkload(listSize: 1_000_000, frameRate: 120, updateInterval: 1, editsPerUpdate: 100_000))
        #expect(grid.settings[0] == PolicySetting(policy: .main))
        #expect(grid.settings[1] == PolicySetting(policy: .main, reloadThreshold: 100))
        #expect(PolicyGrid.quick.workloads.count == 3 * 2 * 2 * 2)
        #expect(PolicyGrid.quick.sizes.last == 100_000)
    }

    @Test func editsAreAShareOfTheListAndAtLeastOne() {
        #expect(PolicyGrid.edits(share: 0.01, size: 1_000) == 10)
        #expect(PolicyGrid.edits(share: 0.01, size: 10) == 1)
        #expect(PolicyGrid.edits(share: 0.0, size: 10) == 1)
        #expect(PolicyGrid.edits(share: 1, size: 10_000_000) == PolicyConfig.editsRange.upperBound)
        #expect(PolicyGrid.edits(share: .nan, size: 10) == 1)
    }

    // MARK: The simulation

    /// A profile with fixed costs: `seconds` per diff whatever the span, `changes` per span step.
    static func profile(seconds: Double, changes: Int, batchChanges: Int, rounds: Int = 1) -> DiffCostProfile {
        let spans = policyProfileSpans
        return DiffCostProfile(
            spans: spans, changes: spans.map { $0 * changes }, batchChanges: spans.map { $0 * batchChanges },
            seconds: (0..<rounds).map { r in spans.map { _ in seconds * (1 + 0.1 * Double(r)) } })
    }

    static func simulate(
        _ setting: PolicySetting, _ workload: PolicyWorkload, _ profile: DiffCostProfile, duration: Double = 5, costs: PolicyCosts = .defaults,
        round: Int = 0
    ) -> PolicyOutcome {
        simulatePolicy(
            setting, on: workload, costs: costs, duration: duration, mainDiff: { profile.diff(span: $0, round: round) },
            backgroundDiff: { profile.diff(span: $0, round: round) })
    }

    @Test func theSimulationIsDeterministic() throws {
        let profile = Self.profile(seconds: 0.03, changes: 40, batchChanges: 50)
        let workload = PolicyWorkload(listSize: 50_000, frameRate: 120, updateInterval: 1.0 / 120, editsPerUpdate: 20)
        let settings = PolicyGrid.full.settings
        try #require(!settings.isEmpty, "the full grid has no setting: nothing would be compared")
        for setting in settings {
            let a = Self.simulate(setting, workload, profile)
            let b = Self.simulate(setting, workload, profile)
            #expect(a == b, "\(setting)")
        }
    }

    /// A slow diff on main hitches every update; off main only the apply is on the main thread.
    @Test func aSlowDiffHitchesOnMainButNotInTheBackground() {
        let profile = Self.profile(seconds: 0.1, changes: 20, batchChanges: 20)
        let workload = PolicyWorkload(listSize: 100_000, frameRate: 60, updateInterval: 1, editsPerUpdate: 20)
        let main = Self.simulate(PolicySetting(policy: .main), workload, profile)
        let background = Self.simulate(PolicySetting(policy: .background), workload, profile)
        // One update a second: a frame of 4 ms work + 100 ms diff + 3.04 ms apply (1 ms, 2 ms of
        // layout for 100,000 items, 20 changes), 16.7 ms budget.
        let over = 0.004 + 0.1 + 0.001 + 100_000 * 0.02e-6 + 20 * 2e-6 - 1.0 / 60
        #expect(main.requested == 5 && main.applied == 5 && main.dropped == 0)
        #expect(abs(main.hitchTimeRatio - 5 * over * 1000 / main.seconds) < 1e-6)
        #expect(background.hitchTimeRatio == 0)
        #expect(background.framesOverBudget == 0)
        // Latency: the diff plus waiting for the next frame plus the apply.
        #expect(background.latencyMedian > 0.1 && background.latencyMedian < 0.1 + 1.0 / 60 + 0.005 + 0.002)
        #expect(main.latencyMedian > 0.1 && main.latencyMedian < 0.1 + 1.0 / 60 + 0.005 + 0.002)
    }

    /// The apply cost follows the batch update: offsets-sized batches hitch where minimal ones do
    /// not, with the same diff time.
    @Test func theApplyCostFollowsTheMovesApplied() {
        let offsets = Self.profile(seconds: 0.001, changes: 9_000, batchChanges: 9_000)
        let minimal = Self.profile(seconds: 0.001, changes: 1_000, batchChanges: 1_000)
        let workload = PolicyWorkload(listSize: 100_000, frameRate: 60, updateInterval: 0.25, editsPerUpdate: 1_000)
        let setting = PolicySetting(policy: .background)
        let a = Self.simulate(setting, workload, offsets)
        let b = Self.simulate(setting, workload, minimal)
        // 9,000 × 2 µs = 18 ms > the frame; 1,000 × 2 µs = 2 ms fits.
        #expect(a.hitchTimeRatio > 0)
        #expect(b.hitchTimeRatio == 0)
    }

    /// IGListKit's fallback: more changes than the threshold → a reload costing per item.
    @Test func theFallbackReloadsAboveItsThreshold() {
        let profile = Self.profile(seconds: 0.001, changes: 150, batchChanges: 200)
        let workload = PolicyWorkload(listSize: 10_000, frameRate: 60, updateInterval: 0.1, editsPerUpdate: 100)
        let at100 = Self.simulate(PolicySetting(policy: .background, reloadThreshold: 100), workload, profile)
        let at1000 = Self.simulate(PolicySetting(policy: .background, reloadThreshold: 1_000), workload, profile)
        let never = Self.simulate(PolicySetting(policy: .background), workload, profile)
        #expect(at100.reloads == at100.applied && at100.applied > 0)
        #expect(at1000.reloads == 0 && never.reloads == 0)
    }

    /// Every update is applied on its own, carried by a later one, or dropped. A diff slower
    /// than the updates (50 ms against one every frame) never builds a backlog, as with
    /// IGListKit's updater: one update is under way at a time and the requests arriving
    /// meanwhile are folded into the next, so nothing is dropped and latency stays bounded.
    @Test(arguments: DiffPolicy.allCases)
    func everyUpdateIsAccountedFor(policy: DiffPolicy) {
        let profile = Self.profile(seconds: 0.05, changes: 100, batchChanges: 120)
        let workload = PolicyWorkload(listSize: 200_000, frameRate: 60, updateInterval: 1.0 / 60, editsPerUpdate: 100)
        let outcome = Self.simulate(PolicySetting(policy: policy), workload, profile, duration: 3)
        #expect(outcome.requested == 180)
        #expect(outcome.applied + outcome.coalesced + outcome.dropped == outcome.requested)
        #expect(outcome.latencyP99 >= outcome.latencyMedian)
        #expect(outcome.coalesced > 100 && outcome.dropped == 0)
        // An update carries at most the requests of about one diff, frame and apply: 50 ms + a
        // frame or two + the apply of up to 32 spans' changes.
        #expect(outcome.latencyP99 < 0.2, "\(outcome)")
    }

    /// Requests that arrive before a main-thread update has started its diff join it: one
    /// update per frame, whatever the request rate.
    @Test func requestsJoinTheQueuedMainThreadUpdate() {
        let profile = Self.profile(seconds: 0.001, changes: 10, batchChanges: 10)
        let workload = PolicyWorkload(listSize: 1_000, frameRate: 60, updateInterval: 0.001, editsPerUpdate: 10)
        let outcome = Self.simulate(PolicySetting(policy: .main), workload, profile, duration: 1)
        #expect(outcome.requested == 1_000)
        #expect(outcome.applied >= 55 && outcome.applied <= 62, "\(outcome)")
        #expect(outcome.applied + outcome.coalesced == 1_000 && outcome.dropped == 0)
        #expect(outcome.hitchTimeRatio == 0)
        #expect(outcome.latencyP99 < 2.0 / 60)
    }

    /// IGListKit's coalescer: an update after a quiet spell starts at once; one within the
    /// interval waits for its end, and the interval grows by the increment up to the maximum.
    @Test func theCoalescingClockFollowsIGListKit() {
        var clock = CoalescingClock(CoalescingIntervals(minimum: 0.01, increment: 0.01, maximum: 0.03))
        #expect(clock.delay(requestAt: 0) == 0)
        #expect(abs(clock.delay(requestAt: 0.004) - 0.006) < 1e-12)
        #expect(abs(clock.interval - 0.02) < 1e-12)
        clock.started(at: 0.01)
        #expect(abs(clock.delay(requestAt: 0.02) - 0.01) < 1e-12)
        #expect(abs(clock.interval - 0.03) < 1e-12)
        clock.started(at: 0.03)
        #expect(abs(clock.delay(requestAt: 0.031) - 0.029) < 1e-12)
        #expect(abs(clock.interval - 0.03) < 1e-12)
        clock.started(at: 0.06)
        // A quiet spell: starts at once, back to the minimum.
        #expect(clock.delay(requestAt: 0.5) == 0)
        #expect(clock.interval == 0.01)
    }

    @Test func profilesInterpolateBetweenSpansAndClampBeyond() {
        let profile = DiffCostProfile(spans: [1, 2, 4], changes: [10, 20, 40], batchChanges: [12, 24, 48], seconds: [[1, 2, 4], [2, 4, 8]])
        #expect(profile.diff(span: 3, round: 0) == SimulatedDiff(seconds: 3, changes: 30, batchChanges: 36))
        #expect(profile.diff(span: 9, round: 1) == SimulatedDiff(seconds: 8, changes: 40, batchChanges: 48))
        #expect(profile.diff(span: 0, round: 2) == SimulatedDiff(seconds: 1, changes: 10, batchChanges: 12))
    }

    /// The measured profiles: minimal moves give a smaller batch than offsets on the same lists.
    @Test func measuredProfilesCountFewerMovesWithTheMinimalStrategy() throws {
        let profiles = try measureDiffProfiles(engine: .hashmap, size: 5_000, edits: 500, strategies: [.offsets, .minimal], rounds: 2)
        let offsets = try #require(profiles[.offsets])
        let minimal = try #require(profiles[.minimal])
        #expect(offsets.rounds == 2 && minimal.rounds == 2)
        #expect(minimal.batchChanges[0] < offsets.batchChanges[0])
        #expect(offsets.changes[0] > 0 && offsets.seconds.allSatisfy { $0.allSatisfy { $0 > 0 } })
    }

    // MARK: Recommendations

    static func run(
        _ setting: PolicySettingRecord, size: Int = 1_000, rate: Double = 60, interval: Double = 0.05, hitch: [Double], p99: [Double],
        dropped: Int = 0
    ) -> PolicyGridRun {
        var run = PolicyGridRun(
            workload: PolicyWorkloadRecord(listSize: size, frameRate: rate, updateInterval: interval, editsPerUpdate: 10), setting: setting,
            requested: 10)
        for (h, p) in zip(hitch, p99) {
            run.append(
                PolicyOutcome(
                    frames: 60, framesOverBudget: 0, hitchTimeRatio: h, latencyMedian: p / 2, latencyP99: p, requested: 10, applied: 10 - dropped,
                    coalesced: 0, reloads: 0, dropped: dropped, seconds: 1))
        }
        return run
    }

    static let main = PolicySettingRecord(policy: "main", moves: "offsets")
    static let mainMinimal = PolicySettingRecord(policy: "main", moves: "minimal")
    static let background = PolicySettingRecord(policy: "background", moves: "offsets")
    static let coalescing = PolicySettingRecord(policy: "coalescing", moves: "offsets", coalescing: [0.05, 0.025, 0.25])

    @Test func theWinnerHasTheLeastHitchWithinTheLatencyBound() throws {
        let runs = [
            Self.run(Self.main, hitch: [9, 10, 11], p99: [0.02, 0.02, 0.02]),
            Self.run(Self.background, hitch: [4, 5, 6], p99: [0.05, 0.05, 0.05]),
            // Least hitch, but its latency is over the bound.
            Self.run(Self.coalescing, hitch: [0, 0, 0], p99: [0.3, 0.3, 0.3]),
        ]
        let rows = PolicyAnalysis.recommendations(runs, latencyBound: 0.25)
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row.winner?.setting == Self.background)
        #expect(row.winner?.hitchTimeRatio == 5 && row.winner?.hitchLow == 4 && row.winner?.hitchHigh == 6)
        #expect(row.runnerUp?.setting == Self.main)
        #expect(row.candidates == 3 && row.feasible == 2)
        // With a looser bound, coalescing wins.
        #expect(PolicyAnalysis.recommendations(runs, latencyBound: 0.5).first?.winner?.setting == Self.coalescing)
    }

    /// Hitch times within the tolerance tie: the lower p99 latency wins, then the simpler setting,
    /// whatever the order of the runs.
    @Test func tiesGoToLowerLatencyThenToTheSimplerSetting() throws {
        let close = [
            Self.run(Self.background, hitch: [2.05, 2.05, 2.05], p99: [0.03, 0.03, 0.03]),
            Self.run(Self.main, hitch: [2.0, 2.0, 2.0], p99: [0.04, 0.04, 0.04]),
        ]
        for runs in [close, close.reversed()] {
            #expect(PolicyAnalysis.recommendations(runs, latencyBound: 0.25).first?.winner?.setting == Self.background)
        }
        // Latencies within 1 ms tie too: the simpler setting wins.
        let exact = [
            Self.run(Self.mainMinimal, hitch: [1, 1, 1], p99: [0.0295, 0.0295, 0.0295]),
            Self.run(Self.background, hitch: [1.05, 1.05, 1.05], p99: [0.0299, 0.0299, 0.0299]),
            Self.run(Self.main, hitch: [1, 1, 1], p99: [0.03, 0.03, 0.03]),
        ]
        for runs in [exact, exact.reversed()] {
            let row = try #require(PolicyAnalysis.recommendations(runs, latencyBound: 0.25).first)
            #expect(row.winner?.setting == Self.main)
            // The runner-up is of another policy, not main with minimal moves.
            #expect(row.runnerUp?.setting == Self.background)
        }
    }

    /// Within the tolerance, the setting that reloads less (keeping the batch animation) wins,
    /// even with a slightly higher latency.
    @Test func tiesGoToFewerReloadsFirst() throws {
        let reloading = PolicySettingRecord(policy: "main", moves: "offsets", reloadThreshold: 100)
        var withReloads = Self.run(reloading, hitch: [1, 1, 1], p99: [0.01, 0.01, 0.01])
        withReloads.reloads = [5, 5, 5]
        let runs = [withReloads, Self.run(Self.main, hitch: [1.05, 1.05, 1.05], p99: [0.02, 0.02, 0.02])]
        for ordered in [runs, runs.reversed()] {
            let row = try #require(PolicyAnalysis.recommendations(ordered, latencyBound: 0.25).first)
            #expect(row.winner?.setting == Self.main)
            #expect(row.winner?.reloads == 0)
        }
        // Beyond the tolerance, hitch time decides.
        var better = withReloads
        better.hitchTimeRatio = [0.5, 0.5, 0.5]
        #expect(PolicyAnalysis.recommendations([better, runs[1]], latencyBound: 0.25).first?.winner?.setting == reloading)
        // 5 of its 10 updates were reloads: 50%.
        #expect(PolicyAnalysis.recommendations([better, runs[1]], latencyBound: 0.25).first?.winner?.reloads == 50)
    }

    @Test func droppedUpdatesOrNothingFeasibleGiveNoWinner() throws {
        let runs = [
            Self.run(Self.main, hitch: [500, 500, 500], p99: [2, 2, 2]),
            Self.run(Self.background, hitch: [1, 1, 1], p99: [0.01, 0.01, 0.01], dropped: 1),
        ]
        let row = try #require(PolicyAnalysis.recommendations(runs, latencyBound: 0.25).first)
        #expect(row.winner == nil && row.feasible == 0)
        // The evidence: the lowest latency.
        #expect(row.runnerUp?.setting == Self.background)
        #expect(row.runnerUp?.dropped == 3)
    }

    /// The hitch time is the mean over the workloads, the latency the worst workload's.
    @Test func candidatesAverageHitchAndTakeTheWorstLatencyOverWorkloads() throws {
        let runs = [
            Self.run(Self.main, interval: 0.05, hitch: [2, 2, 2], p99: [0.01, 0.01, 0.01]),
            Self.run(Self.main, interval: 1, hitch: [4, 4, 4], p99: [0.3, 0.2, 0.1]),
        ]
        let row = try #require(PolicyAnalysis.recommendations(runs, latencyBound: 0.25).first)
        #expect(row.winner?.hitchTimeRatio == 3)
        #expect(row.winner?.latencyP99 == 0.2)
    }

    @Test func bandsMeetAtGeometricMeans() {
        let runs = [1_000, 10_000, 100_000].map { Self.run(Self.main, size: $0, hitch: [1], p99: [0.01]) }
        let rows = PolicyAnalysis.recommendations(runs, latencyBound: 0.25)
        #expect(rows.map(\.bandLow) == [1, 3_163, 31_623])
        #expect(rows.map(\.bandHigh) == [3_162, 31_622, PolicyConfig.listSizeRange.upperBound])
    }

    // MARK: Crossovers

    static func crossoverRuns(main: [[Double]], background: [[Double]], sizes: [Int] = [1_000, 10_000, 100_000]) -> [PolicyGridRun] {
        var runs: [PolicyGridRun] = []
        for (index, size) in sizes.enumerated() {
            runs.append(Self.run(Self.main, size: size, hitch: main.map { $0[index] }, p99: main.map { _ in 0.01 }))
            runs.append(Self.run(Self.background, size: size, hitch: background.map { $0[index] }, p99: background.map { _ in 0.01 }))
        }
        return runs
    }

    @Test func aCrossoverEveryRepeatFindsIsClearWithItsRange() throws {
        // Background wins clearly from 100k in each repeat; at 10k it is behind or level.
        let runs = Self.crossoverRuns(main: [[0, 2, 50], [0, 3, 60], [0, 2, 55]], background: [[0, 4, 1], [0, 3, 1], [0, 3, 1]])
        let row = try #require(PolicyAnalysis.crossovers(runs).first)
        #expect(row.verdict == .clear)
        // Above 10k (not clearly ahead there), at most 100k.
        #expect(row.low == 10_000 && row.high == 100_000 && row.size == 100_000)
        #expect(row.repeatsWithCrossover == 3 && row.repeats == 3)
        // Repeats that disagree on where: the interval spans them all.
        let wide = Self.crossoverRuns(main: [[0, 20, 50], [0, 3, 60], [0, 20, 55]], background: [[0, 1, 1], [0, 3, 1], [0, 1, 1]])
        let spread = try #require(PolicyAnalysis.crossovers(wide).first)
        #expect(spread.verdict == .clear && spread.low == 1_000 && spread.high == 100_000 && spread.size == 10_000)
    }

    @Test func aCrossoverOnlySomeRepeatsFindIsNoClearCrossover() throws {
        // At 100k background is ahead by 1.5 ms/s in one repeat only (margin: 1 ms/s and 20%).
        let runs = Self.crossoverRuns(main: [[0, 0, 5], [0, 0, 5], [0, 0, 5]], background: [[0, 0, 3.5], [0, 0, 4.5], [0, 0, 4.8]])
        let row = try #require(PolicyAnalysis.crossovers(runs).first)
        #expect(row.verdict == .noClearCrossover && row.size == nil)
        #expect(row.repeatsWithCrossover == 1)
        let none = Self.crossoverRuns(main: [[0, 0, 5]], background: [[0, 0, 5]])
        #expect(PolicyAnalysis.crossovers(none).first?.verdict == PolicyCrossoverRow.Verdict.none)
        let always = Self.crossoverRuns(main: [[10, 20, 50]], background: [[0, 0, 0]])
        let below = try #require(PolicyAnalysis.crossovers(always).first)
        #expect(below.verdict == .belowSmallest && below.size == 1_000)
        // One repeat at the smallest size, the others above it: clear, with no size run below
        // (a review found this called "at or below the smallest size run (every repeat)").
        let mixed = Self.crossoverRuns(main: [[10, 20, 50], [0, 20, 50], [0, 20, 50]], background: [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
        let open = try #require(PolicyAnalysis.crossovers(mixed).first)
        #expect(open.verdict == .clear && open.low == nil && open.high == 10_000 && open.size == 10_000)
        #expect(try PolicyCrossoverRow(json: open.json, source: "p") == open)
    }

    /// A win at one size that is lost again at a larger one is no crossover at that size.
    @Test func aWinMustHoldAtEveryLargerSize() throws {
        let runs = Self.crossoverRuns(main: [[0, 50, 5]], background: [[0, 1, 5]])
        #expect(PolicyAnalysis.crossovers(runs).first?.verdict == PolicyCrossoverRow.Verdict.none)
    }

    // MARK: Costs files

    @Test func aCostsFileSetsTheCostsItNames() throws {
        let json = try JSONValue.parse(#"{"schema":"difflab-policy-costs/1","batchCostPerChange":3e-6,"device":"iPhone 12"}"#)
        let record = try PolicyCostsRecord(costsFile: json, source: "c.json")
        let costs = PolicyCosts(record)
        #expect(costs.batchCostPerChange == 3e-6)
        #expect(costs.applyBaseCost == PolicyCosts.defaults.applyBaseCost)
        #expect(record.device == "iPhone 12")
        #expect(throws: Never.self) { try costs.validate() }
    }

    @Test(arguments: [
        (#"{"schema":"difflab-policy-costs/1","batchCostPerChnage":3e-6}"#, "batchCostPerChnage"),
        (#"{"schema":"difflab-policy-costs/1","frameWork":2}"#, "frameWork"),
        (#"{"schema":"difflab-policy-costs/1","frameWork":-1e-3}"#, "frameWork"),
        (#"{"schema":"difflab-policy-costs/1","applyBaseCost":"1ms"}"#, "applyBaseCost"),
        (#"{"schema":"difflab-policy-costs/1","source":"x"}"#, "source"),
        (#"{"schema":"difflab-policy/2"}"#, "difflab-policy/2"),
        (#"{"applyBaseCost":0.001}"#, "schema"),
        (#"[1]"#, "object"),
    ])
    func aBadCostsFileIsATypedErrorNamingTheField(text: String, field: String) throws {
        let json = try JSONValue.parse(text)
        do {
            _ = try PolicyCostsRecord(costsFile: json, source: "c.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains("c.json") && error.description.contains(field), "\(error)")
        }
    }

    /// A results file written and read back is the same, and a per-repeat array of the wrong
    /// length is refused naming it.
    @Test func aGridFileRoundTripsAndRefusesRaggedRepeats() throws {
        var file = PolicyGridResults(source: "p.json")
        file.runs = [Self.run(Self.coalescing, hitch: [1, 2], p99: [0.1, 0.2])]
        file.options = PolicyGridOptions(duration: 10, drainSeconds: 2, repeats: 2, latencyBound: 0.25, engine: "hashmap", quick: true)
        file.costs = PolicyCosts.defaults.record(source: "defaults")
        file.crossovers = PolicyAnalysis.crossovers(file.runs)
        file.recommendations = PolicyAnalysis.recommendations(file.runs, latencyBound: 0.25)
        #expect(try PolicyGridResults(json: file.json, source: "p.json") == file)
        file.runs[0].frames = [60]
        do {
            _ = try PolicyGridResults(json: file.json, source: "p.json")
            Issue.record("accepted a ragged run")
        } catch {
            #expect(error.description.contains("runs[0].frames"), "\(error)")
        }
    }
}
