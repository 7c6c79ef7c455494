import DiffLabCore
import DiffLabResults
import Testing

@testable import DiffLabBench

/// `difflab policy --trace`'s library: a trace's times as a stream of requests, the measured
/// costs of its version pairs, the run over every setting and its recommendation.
@Suite("Policy on a recorded trace")
struct PolicyTraceTests {
    static let provenance = TraceProvenance(source: "hand-made", tool: "the test", date: "today", ids: "letters", contents: "letters")

    /// A trace of `lists` (one letter per item, its own content), at `times` ms when given.
    static func trace(_ lists: [String], times: [Int]? = nil) -> Trace {
        var trace = Trace(provenance: provenance)
        for (index, list) in lists.enumerated() {
            trace.append(list.map { (String($0), String($0)) }, timestampMs: times?[index])
        }
        return trace
    }

    static let timed = trace(["abc", "abcd", "bcd", "bcde", "cdef"], times: [1_000, 2_000, 2_500, 12_500, 12_500])

    static func times(_ stream: PolicyStream) -> [Double] { (0..<stream.count).map(stream.time) }

    // MARK: Timing

    /// The first request arrives at 0; the next ones after the recorded gaps (the gap before the
    /// first request is a lead-in, not simulated), scaled, shortened to the maximum gap.
    @Test func recordedGapsAreScaledAndShortened() throws {
        let asRecorded = try traceStream(Self.timed, timing: .recorded(timeScale: 1), maxGap: 100)
        #expect(Self.times(asRecorded.stream) == [0, 0.5, 10.5, 10.5])
        #expect(asRecorded.record.timing == .recorded && asRecorded.record.timeScale == 1 && asRecorded.record.shortenedGaps == 0)
        #expect(asRecorded.record.requests == 4 && asRecorded.record.seconds == 10.5 && asRecorded.record.medianGap == 0.5)
        let faster = try traceStream(Self.timed, timing: .recorded(timeScale: 0.01), maxGap: 100)
        #expect(zip(Self.times(faster.stream), [0, 0.005, 0.105, 0.105]).allSatisfy { abs($0 - $1) < 1e-12 })
        let shortened = try traceStream(Self.timed, timing: .recorded(timeScale: 1), maxGap: 2)
        #expect(Self.times(shortened.stream) == [0, 0.5, 2.5, 2.5])
        #expect(shortened.record.shortenedGaps == 1 && shortened.record.maxGap == 2)
        // Sizes are the versions' item counts.
        #expect((0...4).map(asRecorded.stream.listSize) == [3, 4, 3, 4, 4])
    }

    /// `medianInterval` scales every gap by the one factor that makes the median of the trace's
    /// gaps (1, 0.5, 10 and 0 s: 0.75) the one asked for.
    @Test func aMedianIntervalKeepsTheRhythm() throws {
        let (stream, record) = try traceStream(Self.timed, timing: .medianInterval(0.075), maxGap: 100)
        #expect(record.timing == .medianInterval && abs((record.timeScale ?? 0) - 0.1) < 1e-12)
        let times = Self.times(stream)
        #expect(zip(times, [0, 0.05, 1.05, 1.05]).allSatisfy { abs($0 - $1) < 1e-12 }, "\(times)")
        let fixed = try traceStream(Self.timed, timing: .interval(0.2), maxGap: 100)
        #expect(Self.times(fixed.stream) == [0, 0.2, 0.4, 0.6000000000000001])
        #expect(fixed.record.interval == 0.2 && fixed.record.timeScale == nil)
    }

    @Test func timesThatCannotBeScaledAreRefused() throws {
        let untimed = Self.trace(["ab", "ba", "abc"])
        for timing in [PolicyTraceTiming.recorded(timeScale: 1), .medianInterval(0.05)] {
            #expect(throws: PolicyTraceTimingError("the trace has no times (timestampMs) to scale")) {
                try traceStream(untimed, timing: timing, maxGap: 10)
            }
        }
        #expect(try traceStream(untimed, timing: .interval(0.05), maxGap: 10).stream.count == 2)
        let together = Self.trace(["ab", "ba", "abc"], times: [5, 5, 5])
        #expect(throws: PolicyTraceTimingError.self) { try traceStream(together, timing: .medianInterval(0.05), maxGap: 10) }
        #expect(try traceStream(together, timing: .recorded(timeScale: 1), maxGap: 10).stream.end == 0)
        // Gaps of 2^53 ms, a thousand times slower, are shortened, not overflowed.
        let far = Self.trace(["a", "b", "c"], times: [0, 1 << 52, 1 << 53])
        #expect(try traceStream(far, timing: .recorded(timeScale: 1_000), maxGap: 600).record.seconds == 600)
    }

    // MARK: Measured costs

    /// A pair is measured once, when first needed, and its counts are the real diff's.
    @Test func pairsAreMeasuredOnceByVersionsStrategyAndEngine() {
        let costs = PolicyTraceCosts(trace: Self.timed, rounds: 2, samples: 3, maxWork: 1e6)
        // abc → bcd: a deleted, d inserted.
        let first = costs.cost(from: 0, to: 2, moves: .offsets, engine: .hashmap, round: 0)
        #expect(first.changes == 2 && first.batchChanges == 2 && first.seconds >= 0)
        let work = costs.work
        #expect(work == Double(3 + 3) * Double(1 + 2 * 3))
        _ = costs.cost(from: 0, to: 2, moves: .offsets, engine: .hashmap, round: 1)
        #expect(costs.work == work && costs.rows.count == 1 && costs.rows[0].seconds.count == 2)
        _ = costs.cost(from: 0, to: 2, moves: .minimal, engine: .hashmap, round: 0)
        #expect(costs.rows.map(\.moves) == [.offsets, .minimal] && costs.failure == nil)
    }

    @Test func measuringStopsAtTheWorkLimit() {
        let costs = PolicyTraceCosts(trace: Self.timed, rounds: 1, samples: 1, maxWork: 10)
        #expect(costs.cost(from: 0, to: 1, moves: .offsets, engine: .hashmap, round: 0).changes == 0)
        guard case .workLimit(10)? = costs.failure else {
            Issue.record("expected the work limit, got \(String(describing: costs.failure))")
            return
        }
        #expect(costs.rows.isEmpty && costs.work == 0)
    }

    /// An edit-distance engine's call counts the lists times a bound of the edit distance (from a
    /// linear diff), and a call over the per-call limit is not made.
    @Test func editDistanceEnginesCountTheirSearch() throws {
        // abcd → bcd: hashmap deletes a; bound 1, so a call counts (4 + 3) × 2 items; the bound's
        // own diff 7 more.
        let costs = PolicyTraceCosts(trace: Self.timed, rounds: 1, samples: 1, maxWork: 1e6, editDistanceEngines: ["hashmap"], maxCallWork: 14)
        let work = costs.measuringWork(from: 1, to: 2, engine: "hashmap")
        #expect(work.call == 14 && work.pair == 7 + 14 * 2)
        #expect(costs.measuringWork(from: 1, to: 2, engine: "hashmap").pair == 14 * 2, "the bound is computed once")
        #expect(costs.measuringWork(from: 1, to: 2, engine: "heckel").call == 7, "other engines count the lists")
        _ = costs.cost(from: 1, to: 2, moves: .offsets, engine: .hashmap, round: 0)
        #expect(costs.failure == nil && costs.rows.count == 1)
        // bcde → cdef: b deleted, f inserted: bound 2, (4 + 4) × 3 = 24 > 14.
        _ = costs.cost(from: 3, to: 4, moves: .offsets, engine: .hashmap, round: 0)
        guard case .callLimit("hashmap", 3, 4, 24, 14)? = costs.failure else {
            Issue.record("expected the call limit, got \(String(describing: costs.failure))")
            return
        }
        // The spec checks the consecutive pairs before measuring anything.
        let (stream, _) = try traceStream(Self.timed, timing: .interval(0.05), maxGap: 10)
        var spec = PolicyTraceSpec(
            trace: Self.timed, stream: stream, frameRates: [60], settings: [PolicySetting(policy: .main)], repeats: 1, maxDiffWork: 1e6)
        spec.editDistanceEngines = ["hashmap"]
        spec.maxCallWork = 14
        #expect(throws: PolicyTraceFailure.self) { try spec.consecutiveWork() }
        spec.maxCallWork = 24
        #expect(try spec.consecutiveWork() > 0)
    }

    // MARK: The run

    /// Every setting at every frame rate, each with every repeat; every consecutive pair measured,
    /// and the wider pairs of coalesced updates too.
    @Test func theRunSimulatesEverySettingOnTheTracesOwnPairs() throws {
        // Requests every millisecond: main-thread updates carry several requests each.
        let (stream, _) = try traceStream(Self.timed, timing: .interval(0.001), maxGap: 10)
        let settings = [PolicySetting(policy: .main), PolicySetting(policy: .background, moves: .minimal, reloadThreshold: 1)]
        var spec = PolicyTraceSpec(trace: Self.timed, stream: stream, frameRates: [60, 120], settings: settings, repeats: 2, maxDiffWork: 1e6)
        spec.samples = 2
        #expect(spec.strategies == [.offsets, .minimal])
        #expect(try spec.consecutiveWork() == Double(7 + 7 + 7 + 8) * 5 * 2)
        let outcome = try runPolicyTrace(spec)
        #expect(outcome.runs.count == 4)
        #expect(outcome.runs.allSatisfy { $0.repeats == 2 && $0.requested == 4 })
        #expect(outcome.runs.map(\.workload.frameRate) == [60, 60, 120, 120])
        let workload = outcome.runs[0].workload
        #expect(workload.listSize == 4 && workload.updateInterval == 0.001)
        // Consecutive pairs' changes (offsets): an insert, a delete, an insert, a delete and an insert.
        #expect(workload.editsPerUpdate == 1)
        let consecutive = outcome.pairs.filter { $0.to == $0.from + 1 }
        #expect(consecutive.count == 4 * 2)
        #expect(outcome.pairs.contains { $0.to - $0.from > 1 }, "coalesced updates diff wider pairs")
        #expect(outcome.runs.allSatisfy { $0.dropped.allSatisfy { $0 == 0 } })
        // The fallback above 1 change reloads the updates with 2 changes or more.
        #expect(outcome.runs[1].reloads.allSatisfy { $0 > 0 })
    }

    @Test func aRunPastTheWorkLimitThrows() throws {
        let (stream, _) = try traceStream(Self.timed, timing: .interval(0.05), maxGap: 10)
        let spec = PolicyTraceSpec(
            trace: Self.timed, stream: stream, frameRates: [60], settings: [PolicySetting(policy: .main)], repeats: 1, maxDiffWork: 50)
        #expect(throws: PolicyTraceFailure.self) { try runPolicyTrace(spec) }
    }

    /// The recommendation's band is the trace's own sizes.
    @Test func theTracesRecommendationCoversItsSizes() throws {
        let (stream, _) = try traceStream(Self.timed, timing: .interval(0.05), maxGap: 10)
        let spec = PolicyTraceSpec(
            trace: Self.timed, stream: stream, frameRates: [60], settings: PolicyGrid.quick.settings, repeats: 1, maxDiffWork: 1e7)
        let outcome = try runPolicyTrace(spec)
        let rows = PolicyAnalysis.traceRecommendations(outcome.runs, latencyBound: 0.25, sizes: 3...4)
        let row = try #require(rows.first)
        #expect(rows.count == 1 && row.bandLow == 3 && row.bandHigh == 4 && row.listSize == 4)
        #expect(row.candidates == PolicyGrid.quick.settings.count)
        // Tiny lists every 50 ms: everything is smooth; the simplest setting wins.
        #expect(row.winner?.setting == PolicySetting(policy: .main))
        #expect(row.runnerUp?.setting.policy == .background)
    }
}
