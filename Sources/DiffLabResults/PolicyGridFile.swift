import DiffLabCore
import DiffLabJSON
import DiffLabUpdaters

// The `difflab-policy/2` file: the policy lab's scenario grid, simulated in virtual time with
// measured diff costs, with its crossovers and recommendations. Written by `difflab policy`,
// read by `difflab report`.

/// One policy setting: where and when updates are diffed, how moves are chosen, and IGListKit's
/// thresholds. The policy lab's candidate (DiffLabBench runs it: `updaterConfiguration`) and the
/// `setting` object of a `difflab-policy/2` file are this one type.
///
/// A threshold or interval is held only by the policy that uses it: ``maxItemCountToRunOnMain``
/// by `adaptive`, ``coalescing`` by `coalescing` (``init(policy:moves:maxItemCountToRunOnMain:coalescing:reloadThreshold:)``
/// drops the others); `nil` there means IGListKit's default (``adaptiveThreshold``,
/// ``coalescingIntervals``). Equal settings are the same candidate.
public struct PolicySetting: ResultsRecord, Hashable {
    /// IGListKit's `maxItemCountToRunOnMain`: 10,000 items.
    public static let defaultMaxItemCountToRunOnMain = 10_000
    /// IGListKit's coalescing intervals: 50 ms, + 25 ms, up to 250 ms.
    public static let defaultCoalescing = CoalescingIntervals(minimum: 0.05, increment: 0.025, maximum: 0.25)

    /// Where and when updates are diffed.
    public var policy: DiffPolicy
    /// How moves are chosen (the batch update's size follows it).
    public var moves: MoveStrategy
    /// `adaptive`: lists with fewer items are diffed on main (IGListKit's
    /// `maxItemCountToRunOnMain`), in ``FieldRange/size``; `nil`: the default.
    public var maxItemCountToRunOnMain: Int?
    /// `coalescing`: the intervals (each in ``FieldRange/seconds``); `nil`: the default.
    public var coalescing: CoalescingIntervals?
    /// IGListKit's fallback: an update with more changes than this (inserts, deletes, updates and
    /// moves of the diff, before the batch conversion) is applied as a full reload (`nil`: never),
    /// in ``FieldRange/count``.
    public var reloadThreshold: Int?

    /// A setting; `maxItemCountToRunOnMain` is kept only for `adaptive`, `coalescing` only for
    /// `coalescing` (the other policies do not use them).
    public init(
        policy: DiffPolicy, moves: MoveStrategy = .offsets, maxItemCountToRunOnMain: Int? = nil, coalescing: CoalescingIntervals? = nil,
        reloadThreshold: Int? = nil
    ) {
        self.policy = policy
        self.moves = moves
        self.maxItemCountToRunOnMain = policy == .adaptive ? maxItemCountToRunOnMain : nil
        self.coalescing = policy == .coalescing ? coalescing : nil
        self.reloadThreshold = reloadThreshold
    }

    /// The adaptive threshold in effect: ``maxItemCountToRunOnMain`` or the default.
    public var adaptiveThreshold: Int { maxItemCountToRunOnMain ?? Self.defaultMaxItemCountToRunOnMain }
    /// The coalescing intervals in effect: ``coalescing`` or the default.
    public var coalescingIntervals: CoalescingIntervals { coalescing ?? Self.defaultCoalescing }

    @_spi(Records) public static let blank = PolicySetting(policy: .main)

    /// The declaration table (absent thresholds omitted).
    @_spi(Records) public static let fields: [RecordField<PolicySetting>] = [
        .required("policy", \.policy, .cases(), "where and when updates are diffed"),
        .required("moves", \.moves, .cases(), "how moves are chosen"),
        .optional("maxItemCountToRunOnMain", \.maxItemCountToRunOnMain, .int(.size), "adaptive: smaller lists are diffed on main"),
        .optional("coalescing", \.coalescing, .intervals, "coalescing: minimum, increment and maximum interval"),
        .optional("reloadThreshold", \.reloadThreshold, .int(.count), "more changes than this: a full reload (absent: never)"),
    ]

    /// A short label, e.g. `adaptive <10000 · minimal · reload >100`.
    public var label: String {
        var parts = [policy.rawValue]
        if let threshold = maxItemCountToRunOnMain { parts[0] += " <\(threshold)" }
        if let c = coalescing {
            parts[0] += " \(Self.milliseconds(c.minimum))+\(Self.milliseconds(c.increment))…\(Self.milliseconds(c.maximum)) ms"
        }
        parts.append(moves.rawValue)
        parts.append(reloadThreshold.map { "reload >\($0)" } ?? "no reload")
        return parts.joined(separator: " · ")
    }

    private static func milliseconds(_ seconds: Double) -> String {
        let ms = (seconds * 1000).rounded()
        return ms.magnitude < 1e15 ? String(Int(ms)) : "\(ms)"
    }
}

/// One workload of the grid: a list, a display and an update stream.
public struct PolicyWorkloadRecord: ResultsRecord, Hashable {
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

    @_spi(Records) public static let blank = PolicyWorkloadRecord(listSize: 0, frameRate: 0, updateInterval: 0, editsPerUpdate: 0)

    /// The declaration table: every member required.
    @_spi(Records) public static let fields: [RecordField<PolicyWorkloadRecord>] = [
        .required("listSize", \.listSize, .int(.size), "items in the list"),
        .required("frameRate", \.frameRate, .double(.frameRate), "the display's refresh rate"),
        .required("updateInterval", \.updateInterval, .seconds, "seconds between updates (one frame: a burst)"),
        .required("editsPerUpdate", \.editsPerUpdate, .int(.count), "edits each update makes"),
    ]
}

/// One setting simulated on one workload, once per repeat: every per-repeat array has one entry
/// per repeat, in repeat order.
public struct PolicyGridRun: ResultsRecord, Equatable {
    /// The workload.
    public var workload: PolicyWorkloadRecord
    /// The setting.
    public var setting: PolicySetting
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
    public init(workload: PolicyWorkloadRecord, setting: PolicySetting, requested: Int) {
        self.workload = workload
        self.setting = setting
        self.requested = requested
        (hitchTimeRatio, latencyMedian, latencyP99) = ([], [], [])
        (frames, framesOverBudget, applied, coalesced, reloads, dropped) = ([], [], [], [], [], [])
    }

    /// Repeats recorded.
    public var repeats: Int { hitchTimeRatio.count }

    @_spi(Records) public static let blank = PolicyGridRun(workload: .blank, setting: .blank, requested: 0)

    /// The declaration table: `workload`, `setting` and `requested` required, then the per-repeat
    /// arrays (always written).
    @_spi(Records) public static let fields: [RecordField<PolicyGridRun>] = [
        .required("workload", \.workload, .record(), "the workload"),
        .required("setting", \.setting, .record(), "the setting"),
        .required("requested", \.requested, .int(.count), "updates requested by the stream"),
        .list("hitchTimeRatio", \.hitchTimeRatio, .double(.hitchRatio), written: .always, "ms over budget per second, per repeat"),
        .list("latencyMedian", \.latencyMedian, .seconds, written: .always, "median update latency, seconds, per repeat"),
        .list("latencyP99", \.latencyP99, .seconds, written: .always, "99th-percentile update latency, seconds, per repeat"),
        .list("frames", \.frames, .int(.count), written: .always, "frames drawn, per repeat"),
        .list("framesOverBudget", \.framesOverBudget, .int(.count), written: .always, "frames over the frame budget, per repeat"),
        .list("applied", \.applied, .int(.count), written: .always, "updates applied, per repeat"),
        .list("coalesced", \.coalesced, .int(.count), written: .always, "updates folded into a later one, per repeat"),
        .list("reloads", \.reloads, .int(.count), written: .always, "updates shown through a full reload, per repeat"),
        .list("dropped", \.dropped, .int(.count), written: .always, "updates never applied, per repeat"),
    ]

    /// Refuses per-repeat arrays of another length than `hitchTimeRatio`, and a run without repeats.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        let counts: [(String, Int)] = [
            ("latencyMedian", latencyMedian.count), ("latencyP99", latencyP99.count), ("frames", frames.count),
            ("framesOverBudget", framesOverBudget.count), ("applied", applied.count), ("coalesced", coalesced.count),
            ("reloads", reloads.count), ("dropped", dropped.count),
        ]
        for (key, count) in counts where count != repeats {
            throw .invalid(
                source: position.source, field: position.member(key).named, expected: "one entry per repeat (\(repeats), as hitchTimeRatio)")
        }
        guard repeats > 0 else {
            throw .invalid(source: position.source, field: position.member("hitchTimeRatio").named, expected: "at least one repeat")
        }
    }
}

/// The measured diff cost of one list shape: one engine diffing versions `span` updates apart.
public struct PolicyProfileRow: ResultsRecord, Equatable {
    /// The engine.
    public var engine: String
    /// Items, in ``FieldRange/size``.
    public var listSize: Int
    /// Edits per update, in ``FieldRange/count``.
    public var editsPerUpdate: Int
    /// The move strategy.
    public var moves: MoveStrategy
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
    public init(
        engine: String, listSize: Int, editsPerUpdate: Int, moves: MoveStrategy, span: Int, changes: Int, batchChanges: Int, seconds: [Double]
    ) {
        self.engine = engine
        self.listSize = listSize
        self.editsPerUpdate = editsPerUpdate
        self.moves = moves
        self.span = span
        self.changes = changes
        self.batchChanges = batchChanges
        self.seconds = seconds
    }

    @_spi(Records) public static let blank = PolicyProfileRow(
        engine: "", listSize: 0, editsPerUpdate: 0, moves: .offsets, span: 0, changes: 0, batchChanges: 0, seconds: [])

    /// The declaration table (`seconds` always written).
    @_spi(Records) public static let fields: [RecordField<PolicyProfileRow>] = [
        .required("engine", \.engine, .string, "the engine"),
        .required("listSize", \.listSize, .int(.size), "items in the list"),
        .required("editsPerUpdate", \.editsPerUpdate, .int(.count), "edits per update"),
        .required("moves", \.moves, .cases(), "the move strategy"),
        .required("span", \.span, .int(.count), "updates between the two versions diffed"),
        .required("changes", \.changes, .int(.count), "changes of the diff (what the reload fallback counts)"),
        .required("batchChanges", \.batchChanges, .int(.count), "changes of its batch form (what applying costs)"),
        .list("seconds", \.seconds, .seconds, written: .always, "seconds of one diff, one per round"),
    ]
}

/// The crossover of one mode: the smallest list size at which background diffing clearly beats
/// main-thread diffing on hitch time, over the repeats.
public struct PolicyCrossoverRow: ResultsRecord, Equatable {
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
    public var moves: MoveStrategy
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
        frameRate: Double, moves: MoveStrategy, reloadThreshold: Int?, verdict: Verdict, size: Int?, low: Int?, high: Int?,
        repeatsWithCrossover: Int, repeats: Int
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

    @_spi(Records) public static let blank = PolicyCrossoverRow(
        frameRate: 0, moves: .offsets, reloadThreshold: nil, verdict: .none, size: nil, low: nil, high: nil, repeatsWithCrossover: 0, repeats: 0)

    /// The declaration table (`reloadThreshold`, `size`, `low`, `high` written as `null` when absent).
    @_spi(Records) public static let fields: [RecordField<PolicyCrossoverRow>] = [
        .required("frameRate", \.frameRate, .double(.frameRate), "the display's refresh rate"),
        .required("moves", \.moves, .cases(), "the move strategy"),
        .optional("reloadThreshold", \.reloadThreshold, .int(.count), absent: .null, "the reload fallback's threshold (`null`: none)"),
        .required("verdict", \.verdict, .cases(), "what the repeats showed"),
        .optional("size", \.size, .int(.size), absent: .null, "clear and belowSmallest: the median crossover"),
        .optional("low", \.low, .int(.size), absent: .null, "the largest size run below every repeat's crossover"),
        .optional("high", \.high, .int(.size), absent: .null, "the largest of the repeats' crossovers"),
        .required("repeatsWithCrossover", \.repeatsWithCrossover, .int(.count), "repeats that found a crossover"),
        .required("repeats", \.repeats, .int(.count), "repeats in all"),
    ]

    /// Refuses a `clear` or `belowSmallest` verdict without its sizes.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        if verdict == .clear || verdict == .belowSmallest, size == nil || high == nil || (verdict == .belowSmallest && low == nil) {
            throw .invalid(
                source: position.source, field: position.member("size").named,
                expected: "a size and high for a clear crossover (and low below the smallest)")
        }
    }
}

/// One candidate's evidence in a recommendation: its setting and how it did across the band's
/// workloads.
public struct PolicyCandidateRow: ResultsRecord, Equatable {
    /// The setting.
    public var setting: PolicySetting
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
        setting: PolicySetting, hitchTimeRatio: Double, hitchLow: Double, hitchHigh: Double, latencyP99: Double, dropped: Int, reloads: Int = 0
    ) {
        self.setting = setting
        self.hitchTimeRatio = hitchTimeRatio
        self.hitchLow = hitchLow
        self.hitchHigh = hitchHigh
        self.latencyP99 = latencyP99
        self.dropped = dropped
        self.reloads = reloads
    }

    @_spi(Records) public static let blank = PolicyCandidateRow(
        setting: .blank, hitchTimeRatio: 0, hitchLow: 0, hitchHigh: 0, latencyP99: 0, dropped: 0)

    /// The declaration table (`reloads` absent in older files: 0; always written).
    @_spi(Records) public static let fields: [RecordField<PolicyCandidateRow>] = [
        .required("setting", \.setting, .record(), "the setting"),
        .required("hitchTimeRatio", \.hitchTimeRatio, .double(.hitchRatio), "median over repeats of the mean hitch time ratio"),
        .required("hitchLow", \.hitchLow, .double(.hitchRatio), "the smallest over repeats of that mean"),
        .required("hitchHigh", \.hitchHigh, .double(.hitchRatio), "the largest over repeats of that mean"),
        .required("latencyP99", \.latencyP99, .seconds, "median over repeats of the worst workload's p99 latency"),
        .required("dropped", \.dropped, .int(.count), "updates dropped over every workload and repeat"),
        .defaulted("reloads", \.reloads, .int(.count), default: 0, written: .always, "percent of updates shown through a full reload"),
    ]
}

/// The recommendation for one list-size band and frame rate.
public struct PolicyRecommendationRow: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = PolicyRecommendationRow(
        listSize: 0, bandLow: 0, bandHigh: 0, frameRate: 0, latencyBound: 0, candidates: 0, feasible: 0, winner: nil, runnerUp: nil)

    /// The declaration table (`winner`, `runnerUp` written as `null` when absent; `excluded` only
    /// when not empty).
    @_spi(Records) public static let fields: [RecordField<PolicyRecommendationRow>] = [
        .required("listSize", \.listSize, .int(.size), "the list size simulated for the band"),
        .required("bandLow", \.bandLow, .int(.size), "the smallest size the band covers"),
        .required("bandHigh", \.bandHigh, .int(.size), "the largest size the band covers"),
        .required("frameRate", \.frameRate, .double(.frameRate), "the display's refresh rate"),
        .required("latencyBound", \.latencyBound, .seconds, "the p99 latency bound, seconds"),
        .required("candidates", \.candidates, .int(.count), "settings compared"),
        .required("feasible", \.feasible, .int(.count), "settings within the latency bound that dropped nothing"),
        .optional("winner", \.winner, .record(), absent: .null, "the feasible setting with the least hitch time"),
        .optional("runnerUp", \.runnerUp, .record(), absent: .null, "the best feasible setting of another policy"),
        .list("excluded", \.excluded, .record(), "settings left out: their updater broke a property"),
    ]

    /// Refuses a list size outside its band.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        guard bandLow <= listSize, listSize <= bandHigh else {
            throw .invalid(source: position.source, field: position.member("listSize").named, expected: "a size within bandLow…bandHigh")
        }
    }
}

/// The grid's options: how long each simulated stream ran, repeats, the latency bound, engines.
public struct PolicyGridOptions: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = PolicyGridOptions(duration: 0, drainSeconds: 0, repeats: 0, latencyBound: 0, engine: "", quick: false)

    /// The declaration table.
    @_spi(Records) public static let fields: [RecordField<PolicyGridOptions>] = [
        .required("duration", \.duration, .double(.runSeconds), "virtual seconds of updates per simulated run"),
        .required("drainSeconds", \.drainSeconds, .double(.runSeconds), "virtual seconds after the stream for pending updates"),
        .required("repeats", \.repeats, .int(.count), "repeats (measurement rounds)"),
        .required("latencyBound", \.latencyBound, .seconds, "the p99 latency bound of the recommendations"),
        .required("engine", \.engine, .string, "the engine"),
        .optional("backgroundEngine", \.backgroundEngine, .string, "the background engine, when not `engine`"),
        .required("quick", \.quick, .bool, "whether the grid was `--quick`'s slice"),
    ]
}

/// A `difflab-policy/2` results file: the scenario grid, written by `difflab policy`.
public struct PolicyGridResults: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = PolicyGridResults()
    public static var documentSchema: String? { schema }

    /// The declaration table: the provenance stamp (`commit` written as `null` when unknown),
    /// then the members in file order; `tracePairs` written with a trace or when not empty.
    @_spi(Records) public static let fields: [RecordField<PolicyGridResults>] =
        RecordField.inline(\.provenance, RunProvenance.stamp)
        + [
            .optional("options", \.options, .record(), "the run's options"),
            .optional("costs", \.costs, .record(), "the modelled costs, and where they came from"),
            .optional("trace", \.trace, .record(), "the recorded trace that was the workload"),
            .optional("traceStream", \.traceStream, .record(), "how the trace's times became the requests"),
            .list("profiles", \.profiles, .record(), written: .always, "the measured diff costs of the grid's list shapes"),
            .list(
                "tracePairs", \.tracePairs, .record(), written: .when { $0.trace != nil || !$0.tracePairs.isEmpty },
                "the measured cost of every pair of the trace's versions diffed"),
            .list("crossovers", \.crossovers, .record(), written: .always, "per frame rate, move strategy and reload setting"),
            .list("recommendations", \.recommendations, .record(), written: .always, "per size band and frame rate"),
            .list("runs", \.runs, .record(), written: .always, "every setting on every workload"),
        ]

    /// Notes the file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) { source = position.source }
}

/// A setting a recommendation left out: the updater it configures broke a property.
public struct PolicyExclusion: ResultsRecord, Equatable {
    /// The setting left out.
    public var setting: PolicySetting
    /// The updater checked (its name in `difflab updaters`).
    public var updater: String
    /// The property it broke.
    public var property: UpdaterProperty
    /// What happened, as the finding says it.
    public var message: String

    /// An exclusion; see the properties.
    public init(setting: PolicySetting, updater: String, property: UpdaterProperty, message: String) {
        self.setting = setting
        self.updater = updater
        self.property = property
        self.message = message
    }

    @_spi(Records) public static let blank = PolicyExclusion(setting: .blank, updater: "", property: .ends, message: "")

    /// The declaration table: every member required.
    @_spi(Records) public static let fields: [RecordField<PolicyExclusion>] = [
        .required("setting", \.setting, .record(), "the setting left out"),
        .required("updater", \.updater, .string, "the updater checked (its name in `difflab updaters`)"),
        .required("property", \.property, .cases(), "the property it broke"),
        .required("message", \.message, .string, "what happened, as the finding says it"),
    ]
}
