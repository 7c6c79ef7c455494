import DiffLabCore
import DiffLabJSON
import DiffLabUpdaters

/// When and where a list update is diffed in the simulated app.
public enum DiffPolicy: String, CaseIterable, Sendable, Hashable {
    /// Diff synchronously on the main thread, then apply.
    case main
    /// Diff on a background Dispatch queue, apply on the main thread.
    case background
    /// IGListKit's adaptive diffing: on main below `maxItemCountToRunOnMain` items, else background.
    case adaptive
    /// IGListKit's adaptive coalescing: an update waits until an interval has passed since the last
    /// one was applied; the interval grows by `intervalIncrement` (up to `maxInterval`) while updates
    /// arrive within it, and falls back to `minInterval` after a quiet spell; updates arriving while
    /// one waits are coalesced into the latest; diffing runs in the background.
    case coalescing
}

extension FieldType where Value == CoalescingIntervals {
    /// Coalescing intervals, written as an array of three seconds (each in ``FieldRange/seconds``):
    /// minimum, increment, maximum.
    public static var intervals: FieldType {
        FieldType<[Double]>.array(.seconds).converted(
            "three intervals: minimum, increment, maximum",
            decode: { $0.count == 3 ? CoalescingIntervals(minimum: $0[0], increment: $0[1], maximum: $0[2]) : nil },
            encode: { [$0.minimum, $0.increment, $0.maximum] })
    }
}

/// One run of a `difflab-policy/1` file: a policy at one list size, with or without IGListKit's
/// reload fallback, its simulation settings and what it measured.
public struct PolicyRun: ResultsRecord, Equatable {
    /// The simulation settings' members, in the order a report lists them.
    static let settingKeys = [
        "updateInterval", "frameRate", "frameWork", "duration", "maxItemCountToRunOnMain", "coalescing", "applyBaseCost", "layoutCostPerItem",
        "batchCostPerChange", "reloadCostPerItem", "editsPerUpdate",
    ]

    /// The diff policy.
    public var policy: DiffPolicy
    /// The diff engine (absent in older files).
    public var engine: String?
    /// The engine of diffs off the main thread, when it is not ``engine``.
    public var backgroundEngine: String?
    /// Items in the list, in ``FieldRange/size``.
    public var listSize: Int
    /// Whether more than 100 changes turned into a full reload.
    public var allowsReloadingOnTooManyUpdates: Bool
    // Settings (seconds in ``FieldRange/seconds`` unless said otherwise).
    /// Seconds between list updates, in ``FieldRange/seconds``.
    public var updateInterval: Double?
    /// In ``FieldRange/frameRate``.
    public var frameRate: Double?
    /// Seconds of other main-thread work per frame, in ``FieldRange/seconds``.
    public var frameWork: Double?
    /// In ``FieldRange/runSeconds``.
    public var duration: Double?
    /// In ``FieldRange/size``.
    public var maxItemCountToRunOnMain: Int?
    /// Coalescing intervals.
    public var coalescing: CoalescingIntervals?
    /// Modelled seconds to apply any update, in ``FieldRange/seconds``.
    public var applyBaseCost: Double?
    /// Modelled seconds per change of a batch update, in ``FieldRange/seconds``.
    public var batchCostPerChange: Double?
    /// Modelled seconds per item of every update's layout pass, in ``FieldRange/seconds``
    /// (absent in older files).
    public var layoutCostPerItem: Double?
    /// The move strategy (absent in older files: offsets).
    public var moves: MoveStrategy?
    /// Modelled seconds per item of a full reload, in ``FieldRange/seconds``.
    public var reloadCostPerItem: Double?
    /// In ``FieldRange/count``.
    public var editsPerUpdate: Int?
    // Results (counts in ``FieldRange/count``).
    /// Frames drawn, in ``FieldRange/count``.
    public var frames: Int?
    /// Frames over the frame budget, in ``FieldRange/count``.
    public var framesOverBudget: Int?
    /// Milliseconds of frame time over budget per second, in ``FieldRange/hitchRatio``.
    public var hitchTimeRatio: Double?
    /// Seconds from update request to applied on main (`null` when nothing was applied).
    public var latencyMedian: Double?
    /// 99th-percentile latency in seconds (`null` when nothing was applied).
    public var latencyP99: Double?
    /// Every latency recorded, in seconds.
    public var latencies: [Double]
    /// Updates requested, in ``FieldRange/count``.
    public var requested: Int?
    /// Updates applied, in ``FieldRange/count``.
    public var applied: Int?
    /// Updates folded into a later one, in ``FieldRange/count``.
    public var coalesced: Int?
    /// Updates applied as a full reload, in ``FieldRange/count``.
    public var reloads: Int?
    /// Updates never applied, in ``FieldRange/count``.
    public var dropped: Int?
    /// Fraction of one core, in ``FieldRange/utilisation``.
    public var cpuUtilisation: Double?
    /// Wall-clock seconds of the run, in ``FieldRange/runSeconds``.
    public var wallSeconds: Double?
    /// The same run simulated in virtual time: its hitch time ratio, in ``FieldRange/hitchRatio``.
    public var simulatedHitchTimeRatio: Double?
    /// The same run simulated in virtual time: its p99 latency, in ``FieldRange/seconds``.
    public var simulatedLatencyP99: Double?

    /// A run with no settings or figures.
    public init(policy: DiffPolicy, engine: String? = nil, listSize: Int, allowsReloadingOnTooManyUpdates: Bool) {
        self.policy = policy
        self.engine = engine
        self.listSize = listSize
        self.allowsReloadingOnTooManyUpdates = allowsReloadingOnTooManyUpdates
        latencies = []
    }

    /// Whether more than 100 changes turned into a full reload (``allowsReloadingOnTooManyUpdates``).
    public var reloadFallback: Bool { allowsReloadingOnTooManyUpdates }
    /// How many latencies were recorded.
    public var latencyCount: Int { latencies.count }

    @_spi(Records) public static let blank = PolicyRun(policy: .main, listSize: 0, allowsReloadingOnTooManyUpdates: false)

    /// The declaration table: `policy`, `listSize` and `allowsReloadingOnTooManyUpdates` required;
    /// `latencyMedian` and `latencyP99` written as `null` when absent, `latencies` always.
    @_spi(Records) public static let fields: [RecordField<PolicyRun>] = [
        .required("policy", \.policy, .cases(), "the diff policy"),
        .optional("engine", \.engine, .string, "the diff engine (absent in older files)"),
        .optional("backgroundEngine", \.backgroundEngine, .string, "the engine of diffs off the main thread, when not `engine`"),
        .required("listSize", \.listSize, .int(.size), "items in the list"),
        .required("allowsReloadingOnTooManyUpdates", \.allowsReloadingOnTooManyUpdates, .bool, "whether over 100 changes became a full reload"),
        .optional("updateInterval", \.updateInterval, .seconds, "seconds between list updates"),
        .optional("frameRate", \.frameRate, .double(.frameRate), "the display's refresh rate"),
        .optional("frameWork", \.frameWork, .seconds, "seconds of other main-thread work per frame"),
        .optional("duration", \.duration, .double(.runSeconds), "seconds the update stream ran"),
        .optional("maxItemCountToRunOnMain", \.maxItemCountToRunOnMain, .int(.size), "adaptive: smaller lists are diffed on main"),
        .optional("coalescing", \.coalescing, .intervals, "coalescing: minimum, increment and maximum interval"),
        .optional("applyBaseCost", \.applyBaseCost, .seconds, "modelled seconds to apply any update"),
        .optional("layoutCostPerItem", \.layoutCostPerItem, .seconds, "modelled seconds per item of every layout pass"),
        .optional("batchCostPerChange", \.batchCostPerChange, .seconds, "modelled seconds per change of a batch update"),
        .optional("reloadCostPerItem", \.reloadCostPerItem, .seconds, "modelled seconds per item of a full reload"),
        .optional("editsPerUpdate", \.editsPerUpdate, .int(.count), "edits between two list versions"),
        .optional("moves", \.moves, .cases(), "the move strategy (absent in older files: offsets)"),
        .optional("frames", \.frames, .int(.count), "frames drawn"),
        .optional("framesOverBudget", \.framesOverBudget, .int(.count), "frames over the frame budget"),
        .optional("hitchTimeRatio", \.hitchTimeRatio, .double(.hitchRatio), "ms of frame time over budget per second"),
        .optional("latencyMedian", \.latencyMedian, .seconds, absent: .null, "median seconds from request to applied"),
        .optional("latencyP99", \.latencyP99, .seconds, absent: .null, "99th-percentile seconds from request to applied"),
        .list("latencies", \.latencies, .seconds, written: .always, "every latency recorded, seconds"),
        .optional("requested", \.requested, .int(.count), "updates requested"),
        .optional("applied", \.applied, .int(.count), "updates applied"),
        .optional("coalesced", \.coalesced, .int(.count), "updates folded into a later one"),
        .optional("reloads", \.reloads, .int(.count), "updates applied as a full reload"),
        .optional("dropped", \.dropped, .int(.count), "updates never applied"),
        .optional("cpuUtilisation", \.cpuUtilisation, .double(.utilisation), "CPU time as a fraction of one core"),
        .optional("wallSeconds", \.wallSeconds, .double(.runSeconds), "wall-clock seconds of the run"),
        .optional("simulatedHitchTimeRatio", \.simulatedHitchTimeRatio, .double(.hitchRatio), "the run simulated: its hitch time ratio"),
        .optional("simulatedLatencyP99", \.simulatedLatencyP99, .seconds, "the run simulated: its p99 latency"),
    ]
}

/// The `crossoverSize` object of a policy file: the smallest list size at which background
/// diffing beat main-thread diffing, per mode (`null`: none found).
public struct PolicyCrossover: ResultsRecord, Equatable {
    /// With plain batch updates, in ``FieldRange/size``.
    public var batch: Int?
    /// With the reload fallback, in ``FieldRange/size``.
    public var reloadFallback: Int?

    /// Crossover sizes; see the properties.
    public init(batch: Int?, reloadFallback: Int?) {
        self.batch = batch
        self.reloadFallback = reloadFallback
    }

    /// Both sizes as display fields (`null` when none was found), in file order.
    public var displayFields: [DisplayField] {
        (json.objectValue ?? JSONObject()).map { DisplayField(name: $0.key, value: DisplayField.text($0.value)) }
    }

    @_spi(Records) public static let blank = PolicyCrossover(batch: nil, reloadFallback: nil)

    /// The declaration table: both members always written (`null`: none found).
    @_spi(Records) public static let fields: [RecordField<PolicyCrossover>] = [
        .optional("batch", \.batch, .int(.size), absent: .null, "with plain batch updates"),
        .optional("reloadFallback", \.reloadFallback, .int(.size), absent: .null, "with the reload fallback"),
    ]
}

/// A `difflab-policy/1` results file, written by `difflab policy`.
public struct PolicyResults: ResultsRecord, Equatable {
    /// The schema this type reads and writes.
    public static let schema = "difflab-policy/1"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made.
    public var provenance = RunProvenance()
    /// The crossover sizes (`nil` when the file has none).
    public var crossover: PolicyCrossover?
    /// One row per simulation run, in file order.
    public var runs: [PolicyRun]

    /// An empty results file named `source`.
    public init(source: String = "") {
        self.source = source
        runs = []
    }

    /// Simulation settings shared by every run, as display fields in a fixed order: those equal
    /// in all runs (taken from the first). O(runs).
    public var settings: [DisplayField] {
        let objects = runs.map { $0.json.objectValue ?? JSONObject() }
        guard let first = objects.first else { return [] }
        return PolicyRun.settingKeys.compactMap { key in
            guard let value = first[key], objects.allSatisfy({ $0[key] == value }) else { return nil }
            return DisplayField(name: key, value: DisplayField.text(value))
        }
    }

    @_spi(Records) public static let blank = PolicyResults()
    public static var documentSchema: String? { schema }

    /// The declaration table: the provenance stamp (`commit` written as `null` when unknown), the
    /// crossover sizes when known, the runs.
    @_spi(Records) public static let fields: [RecordField<PolicyResults>] =
        RecordField.inline(\.provenance, RunProvenance.stamp)
        + [
            .optional("crossoverSize", \.crossover, .record(), "the smallest sizes at which background diffing won"),
            .list("runs", \.runs, .record(), written: .always, "one row per simulation run"),
        ]

    /// Notes the file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) { source = position.source }
}
