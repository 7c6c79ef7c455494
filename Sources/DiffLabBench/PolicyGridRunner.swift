import DiffLabCore
import DiffLabResults
import DiffLabUpdaters

/// The spans a diff cost profile measures: versions 1, 2, 4, 8, 16 and 32 updates apart.
public let policyProfileSpans = [1, 2, 4, 8, 16, 32]

/// Measures the diff cost of one list shape with `engine`, for every strategy in `strategies`:
/// `rounds` rounds, each diffing the versions ``policyProfileSpans`` updates apart once per
/// strategy (strategies interleaved, their order rotated each round), after one warm-up diff per
/// strategy. The versions are ``policyVersions(size:edits:count:seed:)``'s.
///
/// - Throws: ``EngineFailure`` when the engine gives no usable answer.
/// - Precondition: `size` and `edits` as for ``policyVersions(size:edits:count:seed:)``;
///   `rounds` ≥ 1; `strategies` not empty.
/// - Complexity: about (1 + rounds · spans) diffs per strategy; memory for the 7 versions diffed.
public func measureDiffProfiles(
    engine: PolicyEngine, size: Int, edits: Int, strategies: [MoveStrategy], rounds: Int, seed: UInt64 = 7
) throws(EngineFailure) -> [MoveStrategy: DiffCostProfile] {
    precondition(rounds >= 1 && !strategies.isEmpty, "measureDiffProfiles: at least one round and one strategy")
    let spans = policyProfileSpans
    // Only the versions diffed are kept: 7 lists, not 33.
    let kept = policyVersions(keeping: Set([0] + spans), size: size, edits: edits, count: spans[spans.count - 1] + 1, seed: seed)
    let versions = (0...spans[spans.count - 1]).map { kept[$0] ?? [] }
    var changes: [MoveStrategy: [Int]] = [:]
    var batchChanges: [MoveStrategy: [Int]] = [:]
    for strategy in strategies {
        var counts: [Int] = []
        var batchCounts: [Int] = []
        for span in spans {
            let diff = try engine.diff(from: versions[0], to: versions[span], moves: strategy)
            counts.append(diff.changes)
            batchCounts.append(diff.batch.changeCount)
        }
        changes[strategy] = counts
        batchChanges[strategy] = batchCounts
    }
    var seconds: [MoveStrategy: [[Double]]] = [:]
    for round in 0..<rounds {
        for offset in strategies.indices {
            let strategy = strategies[(offset + round) % strategies.count]
            var times: [Double] = []
            for span in spans {
                let start = monotonicNow()
                let diff = try engine.diff(from: versions[0], to: versions[span], moves: strategy)
                times.append(monotonicNow() - start)
                blackHole(diff)
            }
            seconds[strategy, default: []].append(times)
        }
    }
    var profiles: [MoveStrategy: DiffCostProfile] = [:]
    for strategy in strategies {
        profiles[strategy] = DiffCostProfile(
            spans: spans, changes: changes[strategy] ?? [], batchChanges: batchChanges[strategy] ?? [], seconds: seconds[strategy] ?? [])
    }
    return profiles
}

/// What a grid run simulates: the grid, the modelled costs, the engines, repeats and durations.
public struct PolicyGridSpec: Sendable {
    /// The workloads and settings.
    public var grid: PolicyGrid
    /// The modelled costs.
    public var costs: PolicyCosts
    /// The engine of diffs on main (and off it, unless ``backgroundEngine`` is set).
    public var engine: PolicyEngine
    /// The engine of diffs off the main thread.
    public var backgroundEngine: PolicyEngine?
    /// Repeats: each is one measuring round of every profile, and one simulation of every
    /// setting on every workload with that round's diff costs. 1 to 100.
    public var repeats: Int
    /// Virtual seconds of updates per simulated run, in ``PolicyConfig/durationRange``.
    public var duration: Double

    /// Repeats: 1 to 100.
    public static let repeatsRange = 1...100

    /// A spec; see the properties.
    public init(
        grid: PolicyGrid, costs: PolicyCosts = .defaults, engine: PolicyEngine = .hashmap, backgroundEngine: PolicyEngine? = nil, repeats: Int,
        duration: Double
    ) {
        self.grid = grid
        self.costs = costs
        self.engine = engine
        self.backgroundEngine = backgroundEngine
        self.repeats = repeats
        self.duration = duration
    }
}

/// Runs the grid: for each list size and edit count, measures the diff cost profiles (every
/// repeat's round), then simulates every setting on every workload of that shape once per
/// repeat (``simulatePolicy(_:on:costs:duration:drain:mainDiff:backgroundDiff:)``), repeat `r`
/// with round `r`'s diff costs, so every setting of a repeat sees the same measured costs.
///
/// - Parameters:
///   - spec: the grid of settings and workloads, the costs, engines, repeats and run duration.
///   - progress: called after each list shape with a line to show.
/// - Throws: ``EngineFailure`` when an engine gives no usable answer.
/// - Precondition: the spec's numbers in their ranges; sizes and edits as for
///   ``policyVersions(size:edits:count:seed:)``.
/// - Complexity: the profiles' diffs plus, per run, O(frames + updates log updates).
public func runPolicyGrid(
    _ spec: PolicyGridSpec, progress: (String) -> Void = { _ in }
) throws(EngineFailure) -> (profiles: [PolicyProfileRow], runs: [PolicyGridRun]) {
    precondition(PolicyGridSpec.repeatsRange.contains(spec.repeats), "runPolicyGrid: repeats must be from 1 to 100")
    precondition(PolicyConfig.durationRange.contains(spec.duration), "runPolicyGrid: duration out of range")
    let workloads = spec.grid.workloads
    let settings = spec.grid.settings
    var profileRows: [PolicyProfileRow] = []
    var runs: [PolicyGridRun] = []
    var shapes: [(size: Int, edits: Int)] = []
    for workload in workloads where !shapes.contains(where: { $0 == (workload.listSize, workload.editsPerUpdate) }) {
        shapes.append((workload.listSize, workload.editsPerUpdate))
    }
    for shape in shapes {
        let engines = [spec.engine] + (spec.backgroundEngine.map { $0.name == spec.engine.name ? [] : [$0] } ?? [])
        var profiles: [String: [MoveStrategy: DiffCostProfile]] = [:]
        for engine in engines {
            let measured = try measureDiffProfiles(
                engine: engine, size: shape.size, edits: shape.edits, strategies: spec.grid.moveStrategies, rounds: spec.repeats)
            profiles[engine.name] = measured
            for strategy in spec.grid.moveStrategies {
                guard let profile = measured[strategy] else { continue }
                for (index, span) in profile.spans.enumerated() {
                    profileRows.append(
                        PolicyProfileRow(
                            engine: engine.name, listSize: shape.size, editsPerUpdate: shape.edits, moves: strategy, span: span,
                            changes: profile.changes[index], batchChanges: profile.batchChanges[index], seconds: profile.seconds.map { $0[index] }))
                }
            }
        }
        let mainProfiles = profiles[spec.engine.name] ?? [:]
        let backgroundProfiles = profiles[spec.backgroundEngine?.name ?? spec.engine.name] ?? mainProfiles
        for workload in workloads where workload.listSize == shape.size && workload.editsPerUpdate == shape.edits {
            for setting in settings {
                guard let main = mainProfiles[setting.moves], let background = backgroundProfiles[setting.moves] else { continue }
                var run: PolicyGridRun?
                for round in 0..<spec.repeats {
                    let outcome = simulatePolicy(
                        setting, on: workload, costs: spec.costs, duration: spec.duration,
                        mainDiff: { main.diff(span: $0, round: round) }, backgroundDiff: { background.diff(span: $0, round: round) })
                    if run == nil { run = PolicyGridRun(workload: workload, setting: setting, requested: outcome.requested) }
                    run?.append(outcome)
                }
                if let run { runs.append(run) }
            }
        }
        progress("policy: \(shape.size) items, \(shape.edits) edits per update: \(runs.count) runs so far")
    }
    return (profileRows, runs)
}

/// Simulates `config`'s run in virtual time (``simulatePolicy(_:on:costs:duration:drain:mainDiff:backgroundDiff:)``)
/// with diff costs from `main` and `background` (their first round): the simulation's prediction
/// of what ``runPolicy(_:versions:)`` measures on real threads, for checking the one against the
/// other.
///
/// - Precondition: `config` is valid.
/// - Complexity: as the simulation.
public func simulatePolicy(_ config: PolicyConfig, main: DiffCostProfile, background: DiffCostProfile) -> PolicyOutcome {
    do throws(ConfigurationError) { try config.validate() } catch { preconditionFailure("simulatePolicy: \(error)") }
    let setting = PolicySetting(
        policy: config.policy, moves: config.moves, maxItemCountToRunOnMain: config.maxItemCountToRunOnMain,
        coalescing: CoalescingIntervals(minimum: config.minInterval, increment: config.intervalIncrement, maximum: config.maxInterval),
        reloadThreshold: config.allowsReloadingOnTooManyUpdates ? config.reloadThreshold : nil)
    let workload = PolicyWorkload(
        listSize: config.listSize, frameRate: config.frameRate, updateInterval: config.updateInterval, editsPerUpdate: config.editsPerUpdate)
    return simulatePolicy(
        setting, on: workload, costs: config.costs, duration: config.duration, mainDiff: { main.diff(span: $0, round: 0) },
        backgroundDiff: { background.diff(span: $0, round: 0) })
}

extension PolicyGridRun {
    /// Adds one repeat's outcome.
    mutating func append(_ outcome: PolicyOutcome) {
        hitchTimeRatio.append(outcome.hitchTimeRatio)
        latencyMedian.append(outcome.latencyMedian)
        latencyP99.append(outcome.latencyP99)
        frames.append(outcome.frames)
        framesOverBudget.append(outcome.framesOverBudget)
        applied.append(outcome.applied)
        coalesced.append(outcome.coalesced)
        reloads.append(outcome.reloads)
        dropped.append(outcome.dropped)
    }
}
