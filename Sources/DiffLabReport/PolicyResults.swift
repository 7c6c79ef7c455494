import DiffLabJSON

/// One run of a `difflab-policy/1` file: a policy at one list size, with or without IGListKit's
/// reload fallback.
public struct PolicyRun: Sendable, Equatable {
    public var policy: String
    public var engine: String?
    public var listSize: Int
    /// Whether more than 100 changes turned into a full reload.
    public var reloadFallback: Bool
    public var frames: Int?
    public var framesOverBudget: Int?
    /// Milliseconds of frame time over budget per second.
    public var hitchTimeRatio: Double?
    /// Seconds from update request to applied on main.
    public var latencyMedian: Double?
    public var latencyP99: Double?
    /// How many latencies were recorded.
    public var latencyCount: Int
    public var requested: Int?
    public var applied: Int?
    public var coalesced: Int?
    public var reloads: Int?
    public var dropped: Int?
    /// Fraction of one core, 0…1+.
    public var cpuUtilisation: Double?
}

/// A parsed `difflab-policy/1` results file.
public struct PolicyResults: Sendable, Equatable {
    /// What the caller called the input (usually its path).
    public var source: String
    public var createdAt: Int?
    public var machine: [DisplayField]
    public var toolchain: String?
    public var commit: String?
    /// Crossover sizes as the file states them (`batch`, `reloadFallback`; `null` = none found).
    public var crossover: [DisplayField]
    /// Simulation settings shared by every run (taken from the first run, listed only when all
    /// runs agree on them).
    public var settings: [DisplayField]
    public var runs: [PolicyRun]

    /// The schema this type reads.
    public static let schema = "difflab-policy/1"

    /// Reads a policy document (the schema is assumed checked by ``ResultsFile/init(_:source:)``).
    ///
    /// - Throws: ``ReportError`` for a number outside its field's ``FieldRange`` (`createdAt`
    ///   ``FieldRange/unixTime``, `listSize` ``FieldRange/size``, counts ``FieldRange/count``,
    ///   latencies ``FieldRange/seconds``, `hitchTimeRatio` ``FieldRange/hitchRatio``,
    ///   `cpuUtilisation` ``FieldRange/utilisation``), for a run without `policy`, `listSize` or
    ///   `allowsReloadingOnTooManyUpdates`, or any field of the wrong type.
    /// - Complexity: O(size of the document).
    public init(_ document: JSONValue, source: String) throws(ReportError) {
        let root = try FieldReader(document, source: source, path: "")
        self.source = source
        createdAt = try root.optionalInt("createdAt", in: .unixTime)
        machine = try root.displayFields("machine")
        toolchain = try root.optionalString("toolchain")
        commit = try root.optionalString("commit")
        crossover = try root.displayFields("crossoverSize")
        runs = []
        let settingKeys = [
            "updateInterval", "frameRate", "frameWork", "duration", "maxItemCountToRunOnMain", "coalescing", "applyBaseCost",
            "batchCostPerChange", "reloadCostPerItem", "editsPerUpdate",
        ]
        var shared: [String: JSONValue] = [:]
        var disagreeing: Set<String> = []
        for row in try root.objects("runs") {
            guard let fallback = try row.optionalBool("allowsReloadingOnTooManyUpdates") else {
                throw .missingField(source: source, path: row.path("allowsReloadingOnTooManyUpdates"))
            }
            var run = PolicyRun(
                policy: try row.requiredString("policy"), listSize: try row.requiredInt("listSize", in: .size), reloadFallback: fallback,
                latencyCount: try row.numbers("latencies", in: .seconds).count)
            run.engine = try row.optionalString("engine")
            run.frames = try row.optionalInt("frames", in: .count)
            run.framesOverBudget = try row.optionalInt("framesOverBudget", in: .count)
            run.hitchTimeRatio = try row.optionalDouble("hitchTimeRatio", in: .hitchRatio)
            run.latencyMedian = try row.optionalDouble("latencyMedian", in: .seconds)
            run.latencyP99 = try row.optionalDouble("latencyP99", in: .seconds)
            run.requested = try row.optionalInt("requested", in: .count)
            run.applied = try row.optionalInt("applied", in: .count)
            run.coalesced = try row.optionalInt("coalesced", in: .count)
            run.reloads = try row.optionalInt("reloads", in: .count)
            run.dropped = try row.optionalInt("dropped", in: .count)
            run.cpuUtilisation = try row.optionalDouble("cpuUtilisation", in: .utilisation)
            for key in settingKeys {
                if runs.isEmpty {
                    shared[key] = row.object[key]
                } else if shared[key] != row.object[key] {
                    disagreeing.insert(key)
                }
            }
            runs.append(run)
        }
        settings = settingKeys.compactMap { key in
            guard let value = shared[key], !disagreeing.contains(key) else { return nil }
            return DisplayField(name: key, value: displayText(value))
        }
    }
}
