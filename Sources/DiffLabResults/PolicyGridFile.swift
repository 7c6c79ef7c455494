import DiffLabJSON
import DiffLabUpdaters

// The `difflab-policy/2` file: the policy lab's scenario grid, simulated in virtual time with
// measured diff costs, with its crossovers and recommendations. Written by `difflab policy`,
// read by `difflab report`.

/// One policy setting: where and when updates are diffed, how moves are chosen, and IGListKit's
/// thresholds.
public struct PolicySettingRecord: Sendable, Hashable {
    enum Key: String, CaseIterable { case policy, moves, maxItemCountToRunOnMain, coalescing, reloadThreshold }

    /// `main`, `background`, `adaptive` or `coalescing`.
    public var policy: String
    /// `offsets` or `minimal` (or the engine's own, `engine`).
    public var moves: String
    /// `adaptive`: lists below this size are diffed on main, in ``FieldRange/size``.
    public var maxItemCountToRunOnMain: Int?
    /// `coalescing`: minimum interval, increment and maximum interval, in seconds.
    public var coalescing: [Double]?
    /// The reload fallback: more changes than this → a full reload (`nil`: never), in
    /// ``FieldRange/count``.
    public var reloadThreshold: Int?

    /// A setting; see the properties.
    public init(policy: String, moves: String, maxItemCountToRunOnMain: Int? = nil, coalescing: [Double]? = nil, reloadThreshold: Int? = nil) {
        self.policy = policy
        self.moves = moves
        self.maxItemCountToRunOnMain = maxItemCountToRunOnMain
        self.coalescing = coalescing
        self.reloadThreshold = reloadThreshold
    }

    /// The object (absent thresholds omitted). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.policy, policy)
        w.set(.moves, moves)
        w.set(.maxItemCountToRunOnMain, maxItemCountToRunOnMain)
        if let coalescing { w.set(.coalescing, numbers: coalescing) }
        w.set(.reloadThreshold, reloadThreshold)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(policy: try row.requiredString(.policy), moves: try row.requiredString(.moves))
        maxItemCountToRunOnMain = try row.optionalInt(.maxItemCountToRunOnMain, in: .size)
        if row.present(.coalescing) != nil {
            let intervals = try row.numbers(.coalescing, in: .seconds)
            guard intervals.count == 3 else {
                throw .invalid(source: row.source, field: row.path(.coalescing), expected: "three intervals: minimum, increment, maximum")
            }
            coalescing = intervals
        }
        reloadThreshold = try row.optionalInt(.reloadThreshold, in: .count)
    }

    /// A short label, e.g. `adaptive ≤10000 · minimal · reload >100`.
    public var label: String {
        var parts = [policy]
        if let threshold = maxItemCountToRunOnMain { parts[0] += " <\(threshold)" }
        if let c = coalescing { parts[0] += " \(Self.milliseconds(c[0]))+\(Self.milliseconds(c[1]))…\(Self.milliseconds(c[2])) ms" }
        parts.append(moves)
        parts.append(reloadThreshold.map { "reload >\($0)" } ?? "no reload")
        return parts.joined(separator: " · ")
    }

    private static func milliseconds(_ seconds: Double) -> String {
        let ms = (seconds * 1000).rounded()
        return ms.magnitude < 1e15 ? String(Int(ms)) : "\(ms)"
    }
}

/// One workload of the grid: a list, a display and an update stream.
public struct PolicyWorkloadRecord: Sendable, Hashable {
    enum Key: String { case listSize, frameRate, updateInterval, editsPerUpdate }

    /// Items in the list, in ``FieldRange/size``.
    public var listSize: Int
    /// Display refresh rate, in ``FieldRange/frameRate``.
    public var frameRate: Double
    /// Seconds between updates, in ``FieldRange/seconds`` (one frame: a burst).
    public var updateInterval: Double
    /// Edits each update makes (inserts, deletes, moves and content updates in equal shares), in
    /// ``FieldRange/count``.
    public var editsPerUpdate: Int

    /// A workload; see the properties.
    public init(listSize: Int, frameRate: Double, updateInterval: Double, editsPerUpdate: Int) {
        self.listSize = listSize
        self.frameRate = frameRate
        self.updateInterval = updateInterval
        self.editsPerUpdate = editsPerUpdate
    }

    /// The object. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.listSize, listSize)
        w.set(.frameRate, frameRate)
        w.set(.updateInterval, updateInterval)
        w.set(.editsPerUpdate, editsPerUpdate)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            listSize: try row.requiredInt(.listSize, in: .size), frameRate: try row.requiredDouble(.frameRate, in: .frameRate),
            updateInterval: try row.requiredDouble(.updateInterval, in: .seconds), editsPerUpdate: try row.requiredInt(.editsPerUpdate, in: .count))
    }
}

/// One setting simulated on one workload, once per repeat: every per-repeat array has one entry
/// per repeat, in repeat order.
public struct PolicyGridRun: Sendable, Equatable {
    enum Key: String {
        case workload, setting, requested, hitchTimeRatio, latencyMedian, latencyP99, frames, framesOverBudget, applied, coalesced, reloads
        case dropped
    }

    /// The workload.
    public var workload: PolicyWorkloadRecord
    /// The setting.
    public var setting: PolicySettingRecord
    /// Updates requested by the stream (the same in every repeat), in ``FieldRange/count``.
    public var requested: Int
    /// Milliseconds over budget per second, per repeat, in ``FieldRange/hitchRatio``.
    public var hitchTimeRatio: [Double]
    /// Median update latency (request → applied; a dropped update counts until the run's end),
    /// seconds, per repeat.
    public var latencyMedian: [Double]
    /// 99th-percentile update latency, seconds, per repeat.
    public var latencyP99: [Double]
    /// Frames drawn, per repeat.
    public var frames: [Int]
    /// Frames over the frame budget, per repeat.
    public var framesOverBudget: [Int]
    /// Updates applied, per repeat.
    public var applied: [Int]
    /// Updates folded into a later one, per repeat.
    public var coalesced: [Int]
    /// Updates that reached the screen through a full reload (coalesced ones included), per
    /// repeat.
    public var reloads: [Int]
    /// Updates never applied, per repeat.
    public var dropped: [Int]

    /// A run with no repeats yet.
    public init(workload: PolicyWorkloadRecord, setting: PolicySettingRecord, requested: Int) {
        self.workload = workload
        self.setting = setting
        self.requested = requested
        (hitchTimeRatio, latencyMedian, latencyP99) = ([], [], [])
        (frames, framesOverBudget, applied, coalesced, reloads, dropped) = ([], [], [], [], [], [])
    }

    /// Repeats recorded.
    public var repeats: Int { hitchTimeRatio.count }

    /// The object. O(repeats).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.workload, workload.json)
        w.set(.setting, setting.json)
        w.set(.requested, requested)
        w.set(.hitchTimeRatio, numbers: hitchTimeRatio)
        w.set(.latencyMedian, numbers: latencyMedian)
        w.set(.latencyP99, numbers: latencyP99)
        w.set(.frames, integers: frames)
        w.set(.framesOverBudget, integers: framesOverBudget)
        w.set(.applied, integers: applied)
        w.set(.coalesced, integers: coalesced)
        w.set(.reloads, integers: reloads)
        w.set(.dropped, integers: dropped)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        guard let workload = try row.object(.workload, PolicyWorkloadRecord.Key.self) else {
            throw .missingField(source: row.source, path: row.path(.workload))
        }
        guard let setting = try row.object(.setting, PolicySettingRecord.Key.self) else {
            throw .missingField(source: row.source, path: row.path(.setting))
        }
        self.init(
            workload: try PolicyWorkloadRecord(workload), setting: try PolicySettingRecord(setting),
            requested: try row.requiredInt(.requested, in: .count))
        hitchTimeRatio = try row.numbers(.hitchTimeRatio, in: .hitchRatio)
        latencyMedian = try row.numbers(.latencyMedian, in: .seconds)
        latencyP99 = try row.numbers(.latencyP99, in: .seconds)
        frames = try row.integers(.frames, in: .count)
        framesOverBudget = try row.integers(.framesOverBudget, in: .count)
        applied = try row.integers(.applied, in: .count)
        coalesced = try row.integers(.coalesced, in: .count)
        reloads = try row.integers(.reloads, in: .count)
        dropped = try row.integers(.dropped, in: .count)
        let counts: [(Key, Int)] = [
            (.latencyMedian, latencyMedian.count), (.latencyP99, latencyP99.count), (.frames, frames.count),
            (.framesOverBudget, framesOverBudget.count),
            (.applied, applied.count), (.coalesced, coalesced.count), (.reloads, reloads.count), (.dropped, dropped.count),
        ]
        for (key, count) in counts where count != repeats {
            throw .invalid(source: row.source, field: row.path(key), expected: "one entry per repeat (\(repeats), as hitchTimeRatio)")
        }
        guard repeats > 0 else { throw .invalid(source: row.source, field: row.path(.hitchTimeRatio), expected: "at least one repeat") }
    }
}

/// The measured diff cost of one list shape: one engine diffing versions `span` updates apart.
public struct PolicyProfileRow: Sendable, Equatable {
    enum Key: String { case engine, listSize, editsPerUpdate, moves, span, changes, batchChanges, seconds }

    /// The engine.
    public var engine: String
    /// Items, in ``FieldRange/size``.
    public var listSize: Int
    /// Edits per update, in ``FieldRange/count``.
    public var editsPerUpdate: Int
    /// The move strategy.
    public var moves: String
    /// Updates between the two versions diffed, in ``FieldRange/count``.
    public var span: Int
    /// Changes of the diff (inserts, deletes, updates, moves: what IGListKit's fallback counts),
    /// in ``FieldRange/count``.
    public var changes: Int
    /// Changes of its batch form (inserts, deletes, moves: what applying costs), in
    /// ``FieldRange/count``.
    public var batchChanges: Int
    /// Seconds of one diff (engine and batch conversion), one per round, in ``FieldRange/seconds``.
    public var seconds: [Double]

    /// A profile row; see the properties.
    public init(engine: String, listSize: Int, editsPerUpdate: Int, moves: String, span: Int, changes: Int, batchChanges: Int, seconds: [Double]) {
        self.engine = engine
        self.listSize = listSize
        self.editsPerUpdate = editsPerUpdate
        self.moves = moves
        self.span = span
        self.changes = changes
        self.batchChanges = batchChanges
        self.seconds = seconds
    }

    /// The object. O(rounds).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.engine, engine)
        w.set(.listSize, listSize)
        w.set(.editsPerUpdate, editsPerUpdate)
        w.set(.moves, moves)
        w.set(.span, span)
        w.set(.changes, changes)
        w.set(.batchChanges, batchChanges)
        w.set(.seconds, numbers: seconds)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            engine: try row.requiredString(.engine), listSize: try row.requiredInt(.listSize, in: .size),
            editsPerUpdate: try row.requiredInt(.editsPerUpdate, in: .count), moves: try row.requiredString(.moves),
            span: try row.requiredInt(.span, in: .count), changes: try row.requiredInt(.changes, in: .count),
            batchChanges: try row.requiredInt(.batchChanges, in: .count), seconds: try row.numbers(.seconds, in: .seconds))
    }
}

/// The crossover of one mode: the smallest list size at which background diffing clearly beats
/// main-thread diffing on hitch time, over the repeats.
public struct PolicyCrossoverRow: Sendable, Equatable {
    enum Key: String { case frameRate, moves, reloadThreshold, verdict, size, low, high, repeatsWithCrossover, repeats }

    /// What the repeats showed.
    public enum Verdict: String, Sendable, CaseIterable {
        /// Every repeat found one: ``size`` is their median; the crossover lies above ``low`` (a
        /// size run where some repeat found background not clearly ahead) and at most ``high``.
        case clear
        /// Background diffing clearly won at every size run in every repeat: the crossover is at
        /// or below the smallest size (``size``).
        case belowSmallest
        /// Some repeats found one and some did not: within the noise, no number is given.
        case noClearCrossover
        /// No repeat found one at the sizes run.
        case none
    }

    /// In ``FieldRange/frameRate``.
    public var frameRate: Double
    /// The move strategy.
    public var moves: String
    /// The reload fallback threshold (`nil`: none).
    public var reloadThreshold: Int?
    /// The verdict.
    public var verdict: Verdict
    /// `clear` and `belowSmallest`: the median crossover over the repeats, in ``FieldRange/size``.
    public var size: Int?
    /// `clear`: the largest size run below every repeat's crossover (exclusive; `nil` when some
    /// repeat's is the smallest size run); `belowSmallest`: the smallest size run. In
    /// ``FieldRange/size``.
    public var low: Int?
    /// `clear` and `belowSmallest`: the largest of the repeats' crossovers (inclusive), in
    /// ``FieldRange/size``.
    public var high: Int?
    /// Repeats that found a crossover, in ``FieldRange/count``.
    public var repeatsWithCrossover: Int
    /// Repeats in all, in ``FieldRange/count``.
    public var repeats: Int

    /// A crossover row; see the properties.
    public init(
        frameRate: Double, moves: String, reloadThreshold: Int?, verdict: Verdict, size: Int?, low: Int?, high: Int?, repeatsWithCrossover: Int,
        repeats: Int
    ) {
        self.frameRate = frameRate
        self.moves = moves
        self.reloadThreshold = reloadThreshold
        self.verdict = verdict
        self.size = size
        self.low = low
        self.high = high
        self.repeatsWithCrossover = repeatsWithCrossover
        self.repeats = repeats
    }

    /// The object (`size`, `low`, `high` as `null` unless clear). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.frameRate, frameRate)
        w.set(.moves, moves)
        w.set(.reloadThreshold, reloadThreshold, null: true)
        w.set(.verdict, verdict.rawValue)
        w.set(.size, size, null: true)
        w.set(.low, low, null: true)
        w.set(.high, high, null: true)
        w.set(.repeatsWithCrossover, repeatsWithCrossover)
        w.set(.repeats, repeats)
        return w.json
    }

    /// Reads a crossover object. - Throws: ``ResultsError``. - Complexity: O(1).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        let text = try row.requiredString(.verdict)
        guard let verdict = Verdict(rawValue: text) else {
            throw .invalid(source: row.source, field: row.path(.verdict), expected: "one of clear, belowSmallest, noClearCrossover, none")
        }
        self.init(
            frameRate: try row.requiredDouble(.frameRate, in: .frameRate), moves: try row.requiredString(.moves),
            reloadThreshold: try row.optionalInt(.reloadThreshold, in: .count), verdict: verdict, size: try row.optionalInt(.size, in: .size),
            low: try row.optionalInt(.low, in: .size), high: try row.optionalInt(.high, in: .size),
            repeatsWithCrossover: try row.requiredInt(.repeatsWithCrossover, in: .count), repeats: try row.requiredInt(.repeats, in: .count))
        if verdict == .clear || verdict == .belowSmallest, size == nil || high == nil || (verdict == .belowSmallest && low == nil) {
            throw .invalid(source: row.source, field: row.path(.size), expected: "a size and high for a clear crossover (and low below the smallest)")
        }
    }
}

/// One candidate's evidence in a recommendation: its setting and how it did across the band's
/// workloads.
public struct PolicyCandidateRow: Sendable, Equatable {
    enum Key: String { case setting, hitchTimeRatio, hitchLow, hitchHigh, latencyP99, dropped, reloads }

    /// The setting.
    public var setting: PolicySettingRecord
    /// The median over repeats of the mean hitch time ratio over the workloads, in
    /// ``FieldRange/hitchRatio``.
    public var hitchTimeRatio: Double
    /// The smallest and largest over repeats of that mean, in ``FieldRange/hitchRatio``.
    public var hitchLow: Double
    /// See ``hitchLow``.
    public var hitchHigh: Double
    /// The median over repeats of the worst workload's p99 latency, in ``FieldRange/seconds``.
    public var latencyP99: Double
    /// Updates dropped over every workload and repeat, in ``FieldRange/count``.
    public var dropped: Int
    /// Percent of the updates that reached the screen through a full reload (losing the batch
    /// animation), the mean over the workloads, median over repeats, in ``FieldRange/count``
    /// (rounded up, so any reload shows).
    public var reloads: Int

    /// A candidate row; see the properties.
    public init(
        setting: PolicySettingRecord, hitchTimeRatio: Double, hitchLow: Double, hitchHigh: Double, latencyP99: Double, dropped: Int, reloads: Int = 0
    ) {
        self.setting = setting
        self.hitchTimeRatio = hitchTimeRatio
        self.hitchLow = hitchLow
        self.hitchHigh = hitchHigh
        self.latencyP99 = latencyP99
        self.dropped = dropped
        self.reloads = reloads
    }

    /// The object. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.setting, setting.json)
        w.set(.hitchTimeRatio, hitchTimeRatio)
        w.set(.hitchLow, hitchLow)
        w.set(.hitchHigh, hitchHigh)
        w.set(.latencyP99, latencyP99)
        w.set(.dropped, dropped)
        w.set(.reloads, reloads)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        guard let setting = try row.object(.setting, PolicySettingRecord.Key.self) else {
            throw .missingField(source: row.source, path: row.path(.setting))
        }
        self.init(
            setting: try PolicySettingRecord(setting), hitchTimeRatio: try row.requiredDouble(.hitchTimeRatio, in: .hitchRatio),
            hitchLow: try row.requiredDouble(.hitchLow, in: .hitchRatio), hitchHigh: try row.requiredDouble(.hitchHigh, in: .hitchRatio),
            latencyP99: try row.requiredDouble(.latencyP99, in: .seconds), dropped: try row.requiredInt(.dropped, in: .count),
            reloads: try row.optionalInt(.reloads, in: .count) ?? 0)
    }
}

/// The recommendation for one list-size band and frame rate.
public struct PolicyRecommendationRow: Sendable, Equatable {
    enum Key: String { case listSize, bandLow, bandHigh, frameRate, latencyBound, candidates, feasible, winner, runnerUp, excluded }

    /// The list size simulated for the band, in ``FieldRange/size``.
    public var listSize: Int
    /// The band the recommendation covers: sizes from ``bandLow`` to ``bandHigh``, in
    /// ``FieldRange/size``.
    public var bandLow: Int
    /// See ``bandLow``.
    public var bandHigh: Int
    /// In ``FieldRange/frameRate``.
    public var frameRate: Double
    /// The p99 latency bound, seconds, in ``FieldRange/seconds``.
    public var latencyBound: Double
    /// Settings compared, in ``FieldRange/count``.
    public var candidates: Int
    /// Settings that kept p99 latency within the bound and dropped nothing, in ``FieldRange/count``.
    public var feasible: Int
    /// The setting with the least hitch time among the feasible ones (`nil` when none is
    /// feasible).
    public var winner: PolicyCandidateRow?
    /// The best feasible setting of another policy (`nil` when there is none); when nothing is
    /// feasible, the setting with the lowest p99 latency, for evidence.
    public var runnerUp: PolicyCandidateRow?
    /// Settings left out of the recommendation (never a winner or runner-up) because the updater
    /// they configure broke a property under `difflab updaters`' checks; absent when none.
    public var excluded: [PolicyExclusion]

    /// A recommendation; see the properties.
    public init(
        listSize: Int, bandLow: Int, bandHigh: Int, frameRate: Double, latencyBound: Double, candidates: Int, feasible: Int,
        winner: PolicyCandidateRow?, runnerUp: PolicyCandidateRow?, excluded: [PolicyExclusion] = []
    ) {
        self.listSize = listSize
        self.bandLow = bandLow
        self.bandHigh = bandHigh
        self.frameRate = frameRate
        self.latencyBound = latencyBound
        self.candidates = candidates
        self.feasible = feasible
        self.winner = winner
        self.runnerUp = runnerUp
        self.excluded = excluded
    }

    /// The object (`winner`, `runnerUp` as `null` when absent; `excluded` only when not empty). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.listSize, listSize)
        w.set(.bandLow, bandLow)
        w.set(.bandHigh, bandHigh)
        w.set(.frameRate, frameRate)
        w.set(.latencyBound, latencyBound)
        w.set(.candidates, candidates)
        w.set(.feasible, feasible)
        w.set(.winner, winner?.json, null: true)
        w.set(.runnerUp, runnerUp?.json, null: true)
        if !excluded.isEmpty { w.set(.excluded, JSONValue.array(excluded.map(\.json))) }
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            listSize: try row.requiredInt(.listSize, in: .size), bandLow: try row.requiredInt(.bandLow, in: .size),
            bandHigh: try row.requiredInt(.bandHigh, in: .size), frameRate: try row.requiredDouble(.frameRate, in: .frameRate),
            latencyBound: try row.requiredDouble(.latencyBound, in: .seconds), candidates: try row.requiredInt(.candidates, in: .count),
            feasible: try row.requiredInt(.feasible, in: .count), winner: nil, runnerUp: nil)
        if let winner = try row.object(.winner, PolicyCandidateRow.Key.self) { self.winner = try PolicyCandidateRow(winner) }
        if let runnerUp = try row.object(.runnerUp, PolicyCandidateRow.Key.self) { self.runnerUp = try PolicyCandidateRow(runnerUp) }
        for exclusion in try row.objects(.excluded, PolicyExclusion.Key.self) { excluded.append(try PolicyExclusion(exclusion)) }
        guard bandLow <= listSize, listSize <= bandHigh else {
            throw .invalid(source: row.source, field: row.path(.listSize), expected: "a size within bandLow…bandHigh")
        }
    }
}

/// The grid's options: how long each simulated stream ran, repeats, the latency bound, engines.
public struct PolicyGridOptions: Sendable, Equatable {
    enum Key: String { case duration, drainSeconds, repeats, latencyBound, engine, backgroundEngine, quick }

    /// Virtual seconds of updates per simulated run, in ``FieldRange/runSeconds``.
    public var duration: Double
    /// Virtual seconds after the stream during which pending updates may still be applied.
    public var drainSeconds: Double
    /// Repeats (measurement rounds), in ``FieldRange/count``.
    public var repeats: Int
    /// The p99 latency bound of the recommendations, seconds, in ``FieldRange/seconds``.
    public var latencyBound: Double
    /// The engine.
    public var engine: String
    /// The background engine, when not ``engine``.
    public var backgroundEngine: String?
    /// Whether the grid was `--quick`'s slice.
    public var quick: Bool

    /// Options; see the properties.
    public init(
        duration: Double, drainSeconds: Double, repeats: Int, latencyBound: Double, engine: String, backgroundEngine: String? = nil, quick: Bool
    ) {
        self.duration = duration
        self.drainSeconds = drainSeconds
        self.repeats = repeats
        self.latencyBound = latencyBound
        self.engine = engine
        self.backgroundEngine = backgroundEngine
        self.quick = quick
    }

    /// The object. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.duration, duration)
        w.set(.drainSeconds, drainSeconds)
        w.set(.repeats, repeats)
        w.set(.latencyBound, latencyBound)
        w.set(.engine, engine)
        w.set(.backgroundEngine, backgroundEngine)
        w.set(.quick, quick)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            duration: try row.requiredDouble(.duration, in: .runSeconds), drainSeconds: try row.requiredDouble(.drainSeconds, in: .runSeconds),
            repeats: try row.requiredInt(.repeats, in: .count), latencyBound: try row.requiredDouble(.latencyBound, in: .seconds),
            engine: try row.requiredString(.engine), backgroundEngine: try row.optionalString(.backgroundEngine), quick: try row.requiredBool(.quick))
    }
}

/// A `difflab-policy/2` results file: the scenario grid, written by `difflab policy`.
public struct PolicyGridResults: Sendable, Equatable {
    enum Key: String, ProvenanceKey {
        case schema, createdAt, machine, toolchain, commit, options, costs, trace, traceStream, profiles, tracePairs, crossovers, recommendations
        case runs
    }

    /// The schema this type reads and writes.
    public static let schema = "difflab-policy/2"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made.
    public var provenance = RunProvenance()
    /// The run's options.
    public var options: PolicyGridOptions?
    /// The modelled costs.
    public var costs: PolicyCostsRecord?
    /// The recorded trace that was the workload (`difflab policy --trace`), with its provenance;
    /// `nil` for the scenario grid's generated workloads.
    public var trace: TraceWorkload?
    /// How the trace's times became the simulated requests (with ``trace``).
    public var traceStream: PolicyTraceStreamRecord?
    /// The measured diff costs (the grid's profiles; none for a trace).
    public var profiles: [PolicyProfileRow]
    /// The measured cost of every pair of the trace's versions the simulation diffed (with
    /// ``trace``; written only then, or when not empty).
    public var tracePairs: [PolicyTracePairRow]
    /// The crossovers, per frame rate, move strategy and reload setting.
    public var crossovers: [PolicyCrossoverRow]
    /// The recommendations, per size band and frame rate.
    public var recommendations: [PolicyRecommendationRow]
    /// Every setting on every workload.
    public var runs: [PolicyGridRun]

    /// An empty results file named `source`.
    public init(source: String = "") {
        self.source = source
        (profiles, tracePairs, crossovers, recommendations, runs) = ([], [], [], [], [])
    }

    /// The results document (`commit` written as `null` when unknown). O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(provenance)
        w.set(.options, options?.json, null: false)
        w.set(.costs, costs?.json(asFile: false), null: false)
        w.set(.trace, trace?.json, null: false)
        w.set(.traceStream, traceStream?.json, null: false)
        w.set(.profiles, .array(profiles.map(\.json)))
        if trace != nil || !tracePairs.isEmpty { w.set(.tracePairs, .array(tracePairs.map(\.json))) }
        w.set(.crossovers, .array(crossovers.map(\.json)))
        w.set(.recommendations, .array(recommendations.map(\.json)))
        w.set(.runs, .array(runs.map(\.json)))
        return w.json
    }

    /// Reads a `difflab-policy/2` document.
    ///
    /// - Throws: ``ResultsError`` with the path of the offending field (`runs[3].setting.moves`),
    ///   for a wrong schema, a missing or mistyped field, a number outside its ``FieldRange``, or
    ///   per-repeat arrays of unequal length.
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        self.init(source: source)
        provenance = try root.provenance()
        if let reader = try root.object(.options, PolicyGridOptions.Key.self) { options = try PolicyGridOptions(reader) }
        if let reader = try root.object(.costs, PolicyCostsRecord.Key.self) { costs = try PolicyCostsRecord(reader) }
        if let value = root.present(.trace) { trace = try TraceWorkload(json: value, source: source, path: root.path(.trace)) }
        if let reader = try root.object(.traceStream, PolicyTraceStreamRecord.Key.self) { traceStream = try PolicyTraceStreamRecord(reader) }
        for row in try root.objects(.profiles, PolicyProfileRow.Key.self) { profiles.append(try PolicyProfileRow(row)) }
        for row in try root.objects(.tracePairs, PolicyTracePairRow.Key.self) { tracePairs.append(try PolicyTracePairRow(row)) }
        for row in try root.objects(.crossovers, PolicyCrossoverRow.Key.self) { crossovers.append(try PolicyCrossoverRow(row)) }
        for row in try root.objects(.recommendations, PolicyRecommendationRow.Key.self) { recommendations.append(try PolicyRecommendationRow(row)) }
        for row in try root.objects(.runs, PolicyGridRun.Key.self) { runs.append(try PolicyGridRun(row)) }
    }
}

/// A setting a recommendation left out: the updater it configures broke a property.
public struct PolicyExclusion: Sendable, Equatable {
    enum Key: String { case setting, updater, property, message }

    /// The setting left out.
    public var setting: PolicySettingRecord
    /// The updater checked (its name in `difflab updaters`).
    public var updater: String
    /// The property it broke.
    public var property: UpdaterProperty
    /// What happened, as the finding says it.
    public var message: String

    /// An exclusion; see the properties.
    public init(setting: PolicySettingRecord, updater: String, property: UpdaterProperty, message: String) {
        self.setting = setting
        self.updater = updater
        self.property = property
        self.message = message
    }

    /// The object. O(message).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.setting, setting.json)
        w.set(.updater, updater)
        w.set(.property, property.rawValue)
        w.set(.message, message)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        guard let setting = try row.object(.setting, PolicySettingRecord.Key.self) else {
            throw .missingField(source: row.source, path: row.path(.setting))
        }
        guard let property = try row.optionalCase(.property, UpdaterProperty.self) else {
            throw .missingField(source: row.source, path: row.path(.property))
        }
        self.init(
            setting: try PolicySettingRecord(setting), updater: try row.requiredString(.updater), property: property,
            message: try row.requiredString(.message))
    }
}
