import DiffLabCore
import DiffLabFormatting
import DiffLabResults

/// What a trace-driven policy run simulates (`difflab policy --trace`): a recorded trace's
/// versions as a stream of requests, the settings and frame rates to simulate it under, the
/// modelled costs, the engines, repeats and the measuring budget.
public struct PolicyTraceSpec: Sendable {
    /// The trace: its versions are the lists diffed.
    public var trace: Trace
    /// Its versions as timed requests (``traceStream(_:timing:maxGap:)``).
    public var stream: PolicyStream
    /// Display refresh rates, Hz, each in ``PolicyConfig/frameRateRange``.
    public var frameRates: [Double]
    /// The candidate settings (a ``PolicyGrid``'s ``PolicyGrid/settings``).
    public var settings: [PolicySetting]
    /// The modelled costs.
    public var costs: PolicyCosts
    /// The engine of diffs on main (and off it, unless ``backgroundEngine`` is set).
    public var engine: PolicyEngine
    /// The engine of diffs off the main thread.
    public var backgroundEngine: PolicyEngine?
    /// Repeats, in ``PolicyGridSpec/repeatsRange``: repeat `r` uses measuring round `r` of every
    /// pair's cost.
    public var repeats: Int
    /// Calls per pair and round, in ``samplesRange``: a round's cost is their median.
    public var samples = PolicyTraceSpec.defaultSamples
    /// The most items measuring may handle in all (list items over every diff; see
    /// ``editDistanceEngines``).
    public var maxDiffWork: Double
    /// Engines whose call costs about (n + m) · D for lists of n and m items and an edit distance
    /// D (a Myers search, like `myers` and `stdlib`; `stdlib` also keeps O(D²) of search trace):
    /// their measuring counts each call as (n + m) · (D + 1) items, D bounded from above by a
    /// linear diff of the pair, and refuses a call over ``maxCallWork``. Engines not named count
    /// n + m per call.
    public var editDistanceEngines: Set<String> = []
    /// The most steps one call of an edit-distance engine may take: ``EditDistanceGuard``'s
    /// bound, 250,000,000 by default.
    public var maxCallWork = PolicyTraceSpec.defaultMaxCallWork

    /// ``maxCallWork``'s default: ``EditDistanceGuard/defaultMaxCallWork``, 250,000,000.
    public static let defaultMaxCallWork = EditDistanceGuard.defaultMaxCallWork

    /// Calls per pair and round by default: 5.
    public static let defaultSamples = 5
    /// Calls per pair and round: 1 to 100.
    public static let samplesRange = 1...100

    /// A spec; see the properties.
    public init(
        trace: Trace, stream: PolicyStream, frameRates: [Double], settings: [PolicySetting], costs: PolicyCosts = .defaults,
        engine: PolicyEngine = .hashmap, backgroundEngine: PolicyEngine? = nil, repeats: Int, maxDiffWork: Double
    ) {
        self.trace = trace
        self.stream = stream
        self.frameRates = frameRates
        self.settings = settings
        self.costs = costs
        self.engine = engine
        self.backgroundEngine = backgroundEngine
        self.repeats = repeats
        self.maxDiffWork = maxDiffWork
    }

    /// The move strategies the settings use, in first-appearance order.
    public var strategies: [MoveStrategy] { PolicyAnalysis.unique(settings.map(\.moves)) }

    /// The engines measured: ``engine``, then ``backgroundEngine`` when it is another.
    var engines: [PolicyEngine] { [engine] + (backgroundEngine.map { $0.name == engine.name ? [] : [$0] } ?? []) }

    /// The measuring the run starts with, checked before anything is timed: every consecutive
    /// pair of versions with every engine and strategy (a lower bound of the run's measuring).
    ///
    /// - Returns: the items it handles (`PolicyTraceCosts`' measure of work).
    /// - Throws: ``PolicyTraceFailure/callLimit(engine:from:to:work:limit:)`` for the first pair an
    ///   edit-distance engine could not diff within ``maxCallWork``;
    ///   ``PolicyTraceFailure/workLimit(_:)`` when the total passes ``maxDiffWork``.
    /// - Complexity: O(versions), plus a linear diff of each consecutive pair when an engine is an
    ///   edit-distance one.
    public func consecutiveWork() throws(PolicyTraceFailure) -> Double {
        let costs = measuringCosts()
        var total = 0.0
        for engine in engines {
            for from in 0..<max(0, trace.versions.count - 1) {
                let work = costs.measuringWork(from: from, to: from + 1, engine: engine.name)
                guard !EditDistanceGuard(maxCallWork: maxCallWork).refuses(work.call) else {
                    throw .callLimit(engine: engine.name, from: from, to: from + 1, work: work.call, limit: maxCallWork)
                }
                // Every strategy measures the pair; its edit distance is bounded once.
                total += work.pair + work.call * Double(1 + repeats * samples) * Double(strategies.count - 1)
            }
        }
        guard total <= maxDiffWork else { throw .workLimit(maxDiffWork) }
        return total
    }

    /// A cache of the pairs' costs under this spec's limits.
    func measuringCosts() -> PolicyTraceCosts {
        PolicyTraceCosts(
            trace: trace, rounds: repeats, samples: samples, maxWork: maxDiffWork, editDistanceEngines: editDistanceEngines, maxCallWork: maxCallWork)
    }

    /// The most frames one run draws: `(stream end + drain) × frame rate` at the highest rate.
    public var framesPerRun: Double { (stream.end + PolicyConfig.drainSeconds) * (frameRates.max() ?? 0) }

    /// Simulated frames and requests over every run and repeat. O(frame rates).
    public var events: Double {
        frameRates.reduce(0.0) { total, rate in
            total + ((stream.end + PolicyConfig.drainSeconds) * rate + Double(stream.count)) * Double(settings.count) * Double(repeats)
        }
    }
}

/// What a trace-driven policy run gives: every setting's runs, and the measured pairs.
public struct PolicyTraceOutcome: Sendable {
    /// One run per frame rate and setting (each with every repeat), frame rates outermost; the
    /// workload is the trace's (``runPolicyTrace(_:progress:)``).
    public var runs: [PolicyGridRun]
    /// Every pair of versions measured, per engine and strategy, in order of measuring.
    public var pairs: [PolicyTracePairRow]
}

/// Runs a recorded trace under every setting and frame rate of `spec`: measures every consecutive
/// pair of versions first (each engine and strategy), then simulates
/// (``simulatePolicy(_:stream:frameRate:costs:drain:mainDiff:backgroundDiff:)``) each setting once
/// per repeat, a diff of versions `a` → `b` costing what the engine measured on those two versions
/// in that repeat's round (`PolicyTraceCosts`: pairs a coalesced update spans are measured when
/// first needed, and kept).
///
/// Each run's workload record is the trace's: its largest version's size, the frame rate, the
/// median gap between requests, and the median changes of the consecutive pairs (main engine,
/// first strategy).
///
/// - Parameters:
///   - spec: the trace and its stream, the settings, frame rates, costs, engines, repeats and samples.
///   - progress: called after each frame rate with a line to show.
/// - Throws: ``PolicyTraceFailure`` when an engine fails on a pair, or measuring would handle
///   more than ``PolicyTraceSpec/maxDiffWork`` items.
/// - Precondition: repeats and samples in their ranges; frame rates in
///   ``PolicyConfig/frameRateRange``; at least one setting; the stream is the trace's (one request
///   per version after the first); at most 10,000,000 frames per run.
/// - Complexity: the measured pairs' diffs plus, per run, O(frames + requests).
public func runPolicyTrace(_ spec: PolicyTraceSpec, progress: (String) -> Void = { _ in }) throws(PolicyTraceFailure) -> PolicyTraceOutcome {
    precondition(PolicyGridSpec.repeatsRange.contains(spec.repeats), "runPolicyTrace: repeats must be from 1 to 100")
    precondition(PolicyTraceSpec.samplesRange.contains(spec.samples), "runPolicyTrace: samples must be from 1 to 100")
    precondition(
        !spec.settings.isEmpty && spec.frameRates.allSatisfy(PolicyConfig.frameRateRange.contains), "runPolicyTrace: settings and frame rates")
    precondition(spec.stream.count == spec.trace.versions.count - 1, "runPolicyTrace: one request per version after the first")
    precondition(spec.framesPerRun <= 1e7, "runPolicyTrace: at most 10,000,000 frames per run")
    let costs = spec.measuringCosts()
    func check() throws(PolicyTraceFailure) { if let failure = costs.failure { throw failure } }
    let main = spec.engine
    let background = spec.backgroundEngine ?? spec.engine
    var changes: [Double] = []
    for engine in spec.engines {
        for strategy in spec.strategies {
            for from in 0..<spec.stream.count {
                let diff = costs.cost(from: from, to: from + 1, moves: strategy, engine: engine, round: 0)
                try check()
                if engine.name == main.name && strategy == spec.strategies.first { changes.append(Double(diff.changes)) }
            }
        }
    }
    progress("policy: \(formatGrouped(costs.order.count)) consecutive pairs measured")
    let sizes = spec.trace.versions.map(\.items.count)
    let gaps = (1..<max(1, spec.stream.count)).map { spec.stream.time($0) - spec.stream.time($0 - 1) }
    let editsPerUpdate = Int(min((median(changes) ?? 0).rounded(), Double(1 << 53)))
    var runs: [PolicyGridRun] = []
    for rate in spec.frameRates {
        let workload = PolicyWorkload(listSize: sizes.max() ?? 0, frameRate: rate, updateInterval: median(gaps) ?? 0, editsPerUpdate: editsPerUpdate)
        for setting in spec.settings {
            var run = PolicyGridRun(workload: workload, setting: setting.record, requested: spec.stream.count)
            for round in 0..<spec.repeats {
                let outcome = simulatePolicy(
                    setting, stream: spec.stream, frameRate: rate, costs: spec.costs,
                    mainDiff: { costs.cost(from: $0, to: $1, moves: setting.moves, engine: main, round: round) },
                    backgroundDiff: { costs.cost(from: $0, to: $1, moves: setting.moves, engine: background, round: round) })
                try check()
                run.append(outcome)
            }
            runs.append(run)
        }
        progress("policy: \(formatPlain(rate)) Hz: \(runs.count) runs so far, \(formatGrouped(costs.order.count)) pairs measured")
    }
    return PolicyTraceOutcome(runs: runs, pairs: costs.rows)
}
