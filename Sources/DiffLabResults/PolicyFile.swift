import DiffLabJSON

/// One run of a `difflab-policy/1` file: a policy at one list size, with or without IGListKit's
/// reload fallback, its simulation settings and what it measured.
public struct PolicyRun: Sendable, Equatable {
    enum Key: String {
        case policy, engine, backgroundEngine, listSize, allowsReloadingOnTooManyUpdates, updateInterval, frameRate, frameWork, duration
        case maxItemCountToRunOnMain, coalescing, applyBaseCost, layoutCostPerItem, batchCostPerChange, reloadCostPerItem, editsPerUpdate, moves
        case frames, framesOverBudget, hitchTimeRatio, latencyMedian, latencyP99, latencies, requested, applied, coalesced
        case reloads, dropped, cpuUtilisation, wallSeconds, simulatedHitchTimeRatio, simulatedLatencyP99
    }

    /// The simulation settings, in the order a report lists them.
    static let settingKeys: [Key] = [
        .updateInterval, .frameRate, .frameWork, .duration, .maxItemCountToRunOnMain, .coalescing, .applyBaseCost, .layoutCostPerItem,
        .batchCostPerChange,
        .reloadCostPerItem, .editsPerUpdate,
    ]

    /// The diff policy: `main`, `background`, `adaptive` or `coalescing`.
    public var policy: String
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
    /// Coalescing intervals: minimum, increment, maximum.
    public var coalescing: [Double]?
    /// Modelled seconds to apply any update, in ``FieldRange/seconds``.
    public var applyBaseCost: Double?
    /// Modelled seconds per change of a batch update, in ``FieldRange/seconds``.
    public var batchCostPerChange: Double?
    /// Modelled seconds per item of every update's layout pass, in ``FieldRange/seconds``
    /// (absent in older files).
    public var layoutCostPerItem: Double?
    /// The move strategy (absent in older files: offsets).
    public var moves: String?
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
    public init(policy: String, engine: String? = nil, listSize: Int, allowsReloadingOnTooManyUpdates: Bool) {
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

    /// The run object (`latencyMedian` and `latencyP99` written as `null` when absent). O(latencies).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.policy, policy)
        w.set(.engine, engine)
        w.set(.backgroundEngine, backgroundEngine)
        w.set(.listSize, listSize)
        w.set(.allowsReloadingOnTooManyUpdates, allowsReloadingOnTooManyUpdates)
        w.set(.updateInterval, updateInterval)
        w.set(.frameRate, frameRate)
        w.set(.frameWork, frameWork)
        w.set(.duration, duration)
        w.set(.maxItemCountToRunOnMain, maxItemCountToRunOnMain)
        if let coalescing { w.set(.coalescing, numbers: coalescing) }
        w.set(.applyBaseCost, applyBaseCost)
        w.set(.layoutCostPerItem, layoutCostPerItem)
        w.set(.batchCostPerChange, batchCostPerChange)
        w.set(.reloadCostPerItem, reloadCostPerItem)
        w.set(.editsPerUpdate, editsPerUpdate)
        w.set(.moves, moves)
        w.set(.frames, frames)
        w.set(.framesOverBudget, framesOverBudget)
        w.set(.hitchTimeRatio, hitchTimeRatio)
        w.set(.latencyMedian, latencyMedian, null: true)
        w.set(.latencyP99, latencyP99, null: true)
        w.set(.latencies, numbers: latencies)
        w.set(.requested, requested)
        w.set(.applied, applied)
        w.set(.coalesced, coalesced)
        w.set(.reloads, reloads)
        w.set(.dropped, dropped)
        w.set(.cpuUtilisation, cpuUtilisation)
        w.set(.wallSeconds, wallSeconds)
        w.set(.simulatedHitchTimeRatio, simulatedHitchTimeRatio)
        w.set(.simulatedLatencyP99, simulatedLatencyP99)
        return w.json
    }

    /// Reads a run object.
    ///
    /// - Throws: ``ResultsError`` for a run without `policy`, `listSize` or
    ///   `allowsReloadingOnTooManyUpdates`, any field of the wrong type, or a number outside its
    ///   ``FieldRange`` (see each property). Unknown members are ignored.
    /// - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            policy: try row.requiredString(.policy), engine: try row.optionalString(.engine), listSize: try row.requiredInt(.listSize, in: .size),
            allowsReloadingOnTooManyUpdates: try row.requiredBool(.allowsReloadingOnTooManyUpdates))
        backgroundEngine = try row.optionalString(.backgroundEngine)
        updateInterval = try row.optionalDouble(.updateInterval, in: .seconds)
        frameRate = try row.optionalDouble(.frameRate, in: .frameRate)
        frameWork = try row.optionalDouble(.frameWork, in: .seconds)
        duration = try row.optionalDouble(.duration, in: .runSeconds)
        maxItemCountToRunOnMain = try row.optionalInt(.maxItemCountToRunOnMain, in: .size)
        if row.present(.coalescing) != nil { coalescing = try row.numbers(.coalescing, in: .seconds) }
        applyBaseCost = try row.optionalDouble(.applyBaseCost, in: .seconds)
        layoutCostPerItem = try row.optionalDouble(.layoutCostPerItem, in: .seconds)
        batchCostPerChange = try row.optionalDouble(.batchCostPerChange, in: .seconds)
        moves = try row.optionalString(.moves)
        reloadCostPerItem = try row.optionalDouble(.reloadCostPerItem, in: .seconds)
        editsPerUpdate = try row.optionalInt(.editsPerUpdate, in: .count)
        frames = try row.optionalInt(.frames, in: .count)
        framesOverBudget = try row.optionalInt(.framesOverBudget, in: .count)
        hitchTimeRatio = try row.optionalDouble(.hitchTimeRatio, in: .hitchRatio)
        latencyMedian = try row.optionalDouble(.latencyMedian, in: .seconds)
        latencyP99 = try row.optionalDouble(.latencyP99, in: .seconds)
        latencies = try row.numbers(.latencies, in: .seconds)
        requested = try row.optionalInt(.requested, in: .count)
        applied = try row.optionalInt(.applied, in: .count)
        coalesced = try row.optionalInt(.coalesced, in: .count)
        reloads = try row.optionalInt(.reloads, in: .count)
        dropped = try row.optionalInt(.dropped, in: .count)
        cpuUtilisation = try row.optionalDouble(.cpuUtilisation, in: .utilisation)
        wallSeconds = try row.optionalDouble(.wallSeconds, in: .runSeconds)
        simulatedHitchTimeRatio = try row.optionalDouble(.simulatedHitchTimeRatio, in: .hitchRatio)
        simulatedLatencyP99 = try row.optionalDouble(.simulatedLatencyP99, in: .seconds)
    }
}

/// The `crossoverSize` object of a policy file: the smallest list size at which background
/// diffing beat main-thread diffing, per mode (`null`: none found).
public struct PolicyCrossover: Sendable, Equatable {
    enum Key: String { case batch, reloadFallback }

    /// With plain batch updates, in ``FieldRange/size``.
    public var batch: Int?
    /// With the reload fallback, in ``FieldRange/size``.
    public var reloadFallback: Int?

    /// Crossover sizes; see the properties.
    public init(batch: Int?, reloadFallback: Int?) {
        self.batch = batch
        self.reloadFallback = reloadFallback
    }

    /// The object, both members always written (`null`: none found). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.batch, batch, null: true)
        w.set(.reloadFallback, reloadFallback, null: true)
        return w.json
    }

    /// Both sizes as display fields (`null` when none was found), in file order.
    public var displayFields: [DisplayField] {
        (json.objectValue ?? JSONObject()).map { DisplayField(name: $0.key, value: DisplayField.text($0.value)) }
    }

    /// Reads the object. - Throws: ``ResultsError``. - Complexity: O(1).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(batch: try row.optionalInt(.batch, in: .size), reloadFallback: try row.optionalInt(.reloadFallback, in: .size))
    }
}

/// A `difflab-policy/1` results file, written by `difflab policy`.
public struct PolicyResults: Sendable, Equatable {
    enum Key: String, ProvenanceKey { case schema, createdAt, machine, toolchain, commit, crossoverSize, runs }

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

    /// The results document (`commit` written as `null` when unknown). O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(provenance)
        w.set(.crossoverSize, crossover?.json, null: false)
        w.set(.runs, .array(runs.map(\.json)))
        return w.json
    }

    /// Simulation settings shared by every run, as display fields in a fixed order: those equal
    /// in all runs (taken from the first). O(runs).
    public var settings: [DisplayField] {
        let objects = runs.map { $0.json.objectValue ?? JSONObject() }
        guard let first = objects.first else { return [] }
        return PolicyRun.settingKeys.compactMap { key in
            guard let value = first[key.rawValue], objects.allSatisfy({ $0[key.rawValue] == value }) else { return nil }
            return DisplayField(name: key.rawValue, value: DisplayField.text(value))
        }
    }

    /// Reads a policy document.
    ///
    /// - Throws: ``ResultsError``: schema errors as for ``BenchResults/init(json:source:)``,
    ///   `createdAt` outside ``FieldRange/unixTime``, crossover sizes outside ``FieldRange/size``,
    ///   and every error of ``PolicyRun/init(json:source:path:)`` with its path (`runs[2].listSize`).
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        self.init(source: source)
        provenance = try root.provenance()
        if let reader = try root.object(.crossoverSize, PolicyCrossover.Key.self) { crossover = try PolicyCrossover(reader) }
        for row in try root.objects(.runs, PolicyRun.Key.self) { runs.append(try PolicyRun(row)) }
    }
}
