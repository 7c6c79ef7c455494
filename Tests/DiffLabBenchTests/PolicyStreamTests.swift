import DiffLabCore
import DiffLabResults
import Testing

@testable import DiffLabBench

/// The simulator's request streams: the grid's regular stream is unchanged by the generalization
/// (a golden digest of its outcomes), and a recorded stream replays its times and its versions'
/// own diff costs.
@Suite("Policy streams")
struct PolicyStreamTests {
    /// Every field of every outcome of the quick grid's settings on six workloads (sizes, rates,
    /// intervals), with span-dependent synthetic costs in two rounds, as text (Double's shortest
    /// exact form), hashed.
    static func gridDigest() -> String {
        let profile = DiffCostProfile(
            spans: policyProfileSpans, changes: policyProfileSpans.map { 30 * $0 }, batchChanges: policyProfileSpans.map { 41 * $0 },
            seconds: [policyProfileSpans.map { 0.0013 * Double($0) + 0.004 }, policyProfileSpans.map { 0.0021 * Double($0) + 0.011 }])
        let workloads = [
            PolicyWorkload(listSize: 1_000, frameRate: 60, updateInterval: 1.0 / 60, editsPerUpdate: 10),
            PolicyWorkload(listSize: 20_000, frameRate: 120, updateInterval: 0.05, editsPerUpdate: 200),
            PolicyWorkload(listSize: 300_000, frameRate: 60, updateInterval: 0.25, editsPerUpdate: 3_000),
            PolicyWorkload(listSize: 5_000, frameRate: 120, updateInterval: 0.003, editsPerUpdate: 50),
            PolicyWorkload(listSize: 90_000, frameRate: 60, updateInterval: 1, editsPerUpdate: 900),
            PolicyWorkload(listSize: 2_000, frameRate: 30, updateInterval: 0.07, editsPerUpdate: 20),
        ]
        var text = ""
        for workload in workloads {
            for setting in PolicyGrid.quick.settings {
                for round in 0..<2 {
                    let outcome = simulatePolicy(
                        setting, on: workload, costs: .defaults, duration: 2.5, mainDiff: { profile.diff(span: $0, round: round) },
                        backgroundDiff: { profile.diff(span: $0 + 1, round: round) })
                    text += "\(outcome)\n"
                }
            }
        }
        return traceHash(text)
    }

    /// The digest before recorded streams existed (commit 65cdee1's simulator): the grid's
    /// simulation is byte-for-byte what it was.
    @Test func theGridsRegularStreamIsUnchanged() {
        #expect(Self.gridDigest() == "696b834918e238ad")
    }

    // MARK: Recorded streams

    /// The diffs a run asked for, in order: (from, to, on main).
    final class Calls {
        var made: [(from: Int, to: Int, main: Bool)] = []
    }

    /// Simulates `setting` on requests at `times` (versions of `sizes`, one more than times), a
    /// diff costing `seconds(from, to)` with 10 changes, recording the calls.
    static func replay(
        _ setting: PolicySetting, times: [Double], sizes: [Int]? = nil, costs: PolicyCosts = .defaults, frameRate: Double = 60,
        seconds: @escaping (Int, Int) -> Double = { _, _ in 0.0001 }
    ) -> (PolicyOutcome, [(from: Int, to: Int, main: Bool)]) {
        let calls = Calls()
        let stream = PolicyStream(times: times, versionSizes: sizes ?? Array(repeating: 10, count: times.count + 1))
        func cost(_ from: Int, _ to: Int, main: Bool) -> SimulatedDiff {
            calls.made.append((from, to, main))
            return SimulatedDiff(seconds: seconds(from, to), changes: 10, batchChanges: 10)
        }
        let outcome = simulatePolicy(
            setting, stream: stream, frameRate: frameRate, costs: costs, mainDiff: { cost($0, $1, main: true) },
            backgroundDiff: { cost($0, $1, main: false) })
        return (outcome, calls.made)
    }

    /// Requests arrive at their recorded times: two within one frame are one update (a diff from
    /// the version on screen to the later one's), the others one update each, and each is applied
    /// within a frame of its time.
    @Test func requestsArriveAtTheirRecordedTimes() {
        let times = [0, 0.51, 0.512, 2.0]
        let (outcome, calls) = Self.replay(PolicySetting(policy: .main), times: times)
        #expect(calls.map { [$0.from, $0.to] } == [[0, 1], [1, 3], [3, 4]])
        #expect(calls.allSatisfy { $0.main })
        #expect(outcome.requested == 4 && outcome.applied == 3 && outcome.coalesced == 1 && outcome.dropped == 0)
        #expect(outcome.hitchTimeRatio == 0)
        // The run lasts until the last request's update is applied: about 2 s, not 4 × anything.
        #expect(outcome.seconds >= 2.0 && outcome.seconds < 2.0 + 2.0 / 60)
        // Each waits at most for the next frame's tasks, plus its diff and apply.
        #expect(outcome.latencyP99 <= 1.0 / 60 + 0.004 + 0.0001 + 0.001 + 10 * 0.02e-6 + 10 * 2e-6 + 1e-9)
        #expect(outcome.latencyMedian > 0)
    }

    /// A long diff of one recorded pair hitches the frame it runs in when diffed on main; off main
    /// only the apply is on the main thread, and the update just arrives later.
    @Test func aLongDiffOfOnePairHitchesOnlyOnMain() {
        let times: [Double] = [0, 1, 2, 3]
        let slow: (Int, Int) -> Double = { from, to in from == 1 && to == 2 ? 0.1 : 0.0001 }
        let (main, _) = Self.replay(PolicySetting(policy: .main), times: times, seconds: slow)
        let (background, calls) = Self.replay(PolicySetting(policy: .background), times: times, seconds: slow)
        #expect(main.framesOverBudget == 1)
        let over = 0.004 + 0.1 + 0.001 + 10 * 0.02e-6 + 10 * 2e-6 - 1.0 / 60
        #expect(abs(main.hitchTimeRatio - over * 1000 / main.seconds) < 1e-9)
        #expect(background.framesOverBudget == 0 && background.hitchTimeRatio == 0)
        #expect(calls.allSatisfy { !$0.main } && calls.count == 4)
        // The slow update's latency is the p99 of four: its diff and up to a frame.
        #expect(background.latencyP99 > 0.1 && background.latencyP99 < 0.1 + 1.0 / 60 + 0.002)
    }

    /// `adaptive` decides per update, from the larger of the two versions it diffs.
    @Test func adaptiveDecidesFromTheVersionsEachUpdateDiffs() {
        let sizes = [10, 10, 500, 10, 10]
        let (_, calls) = Self.replay(PolicySetting(policy: .adaptive, maxItemCountToRunOnMain: 100), times: [0, 1, 2, 3], sizes: sizes)
        #expect(calls.map(\.main) == [true, false, false, true])
    }

    /// Applying costs the layout of the version shown: one large version makes one long apply.
    @Test func applyingCostsTheSizeOfTheVersionShown() {
        var costs = PolicyCosts.defaults
        costs.layoutCostPerItem = 1e-4
        let (outcome, _) = Self.replay(PolicySetting(policy: .background), times: [0, 1, 2], sizes: [10, 10, 1_000, 10], costs: costs)
        // 1,000 items × 0.1 ms = 100 ms of layout in one frame; 10 items' 1 ms fits the others.
        #expect(outcome.framesOverBudget == 1)
    }

    /// The regular stream is the grid's: requests at `i × interval`, ⌈duration / interval⌉ of them.
    @Test func theRegularStreamIsTheGrids() {
        let stream = PolicyStream.regular(interval: 0.05, duration: 1, listSize: 7)
        #expect(stream.count == 20 && stream.end == 1)
        #expect(stream.time(3) == 3 * 0.05 && stream.listSize(20) == 7)
        #expect(PolicyStream.regular(interval: 1, duration: 0, listSize: 1).count == 1)
        let recorded = PolicyStream(times: [0, 0, 4], versionSizes: [1, 2, 3, 4])
        #expect(recorded.count == 3 && recorded.end == 4 && recorded.time(1) == 0 && recorded.listSize(3) == 4)
    }
}
