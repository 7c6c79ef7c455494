import DiffLabJSON

/// One cell of a `difflab-bench/1` file: an engine (or the `stdlib` reference, or the
/// `hash-floor`) on one profile × size × element kind × allocator, measured or skipped.
///
/// Every figure is optional because files may lack it (skipped cells have only ``skipped``;
/// allocation figures exist only under jemalloc; move counts not for the hash floor).
public struct BenchMeasurement: Sendable, Equatable {
    public var engine: String
    public var profile: String
    public var size: Int
    public var kind: String
    public var allocator: String
    /// Why the cell was not measured, when it was not.
    public var skipped: String?
    /// Seconds per call.
    public var median: Double?
    public var min: Double?
    public var p90: Double?
    public var p99: Double?
    public var mad: Double?
    public var cpuMedian: Double?
    public var callsPerSample: Int?
    /// Bytes allocated by one call (jemalloc only).
    public var allocatedBytes: Double?
    /// Allocation requests of one call (jemalloc only).
    public var allocationRequests: Double?
    public var peakRSSBytes: Double?
    /// Seconds per call, one per sample, in measurement order.
    public var samples: [Double]
    /// stdlib median ÷ this median.
    public var speedupOverStdlib: Double?
    /// This median ÷ hash-floor median.
    public var ratioToFloor: Double?
    public var changeCount: Int?
    public var offsetsMoves: Int?
    public var minimalMoves: Int?

    public init(engine: String, profile: String, size: Int, kind: String, allocator: String) {
        self.engine = engine
        self.profile = profile
        self.size = size
        self.kind = kind
        self.allocator = allocator
        self.samples = []
    }
}

/// A growth-exponent row of a bench file's `scaling` array.
public struct BenchScaling: Sendable, Equatable {
    public var engine: String
    public var profile: String
    public var kind: String
    public var allocator: String
    /// Fitted exponent of time against size (time ∝ sizeᵉ).
    public var timeExponent: Double?
    /// Fitted exponent of allocated bytes against size.
    public var bytesExponent: Double?
}

/// A row of a bench file's `targets` array: a goal and whether this run met it.
public struct BenchTarget: Sendable, Equatable {
    public var name: String
    public var goal: String
    public var value: Double?
    public var met: Bool?
    public var note: String
}

/// A parsed `difflab-bench/1` results file.
public struct BenchResults: Sendable, Equatable {
    /// What the caller called the input (usually its path).
    public var source: String
    /// Unix seconds when the run was written.
    public var createdAt: Int?
    /// Wall-clock seconds the run took.
    public var seconds: Double?
    public var machine: [DisplayField]
    public var toolchain: String?
    public var commit: String?
    public var dirty: Bool?
    public var options: [DisplayField]
    /// Allocator names, in file order.
    public var allocators: [String]
    public var measurements: [BenchMeasurement]
    public var scaling: [BenchScaling]
    public var targets: [BenchTarget]

    /// The schema this type reads.
    public static let schema = "difflab-bench/1"

    /// Reads a bench document (the schema is assumed checked by ``ResultsFile/init(_:source:)``).
    ///
    /// - Throws: ``ReportError`` for a missing identity field of a measurement (engine, profile,
    ///   size, kind, allocator), any field of the wrong type, or a number outside its field's
    ///   ``FieldRange``: `createdAt` ``FieldRange/unixTime``, `seconds` ``FieldRange/runSeconds``,
    ///   `size` ``FieldRange/size``, times and `samples` ``FieldRange/seconds``, `callsPerSample`
    ///   ``FieldRange/callsPerSample``, byte and allocation figures ``FieldRange/amount``, ratios
    ///   ``FieldRange/ratio``, change and move counts ``FieldRange/count``, scaling exponents
    ///   ``FieldRange/exponent``; a target's `value` may be any number. Absent optional figures are `nil`.
    /// - Complexity: O(size of the document).
    public init(_ document: JSONValue, source: String) throws(ReportError) {
        let root = try FieldReader(document, source: source, path: "")
        self.source = source
        createdAt = try root.optionalInt("createdAt", in: .unixTime)
        seconds = try root.optionalDouble("seconds", in: .runSeconds)
        machine = try root.displayFields("machine")
        toolchain = try root.optionalString("toolchain")
        commit = try root.optionalString("commit")
        dirty = try root.optionalBool("dirty")
        options = try root.displayFields("options")
        allocators = []
        for allocator in try root.objects("allocators") {
            allocators.append(try allocator.requiredString("name"))
        }
        measurements = []
        for row in try root.objects("measurements") {
            var m = BenchMeasurement(
                engine: try row.requiredString("engine"), profile: try row.requiredString("profile"), size: try row.requiredInt("size", in: .size),
                kind: try row.requiredString("kind"), allocator: try row.requiredString("allocator"))
            m.skipped = try row.optionalString("skipped")
            m.median = try row.optionalDouble("median", in: .seconds)
            m.min = try row.optionalDouble("min", in: .seconds)
            m.p90 = try row.optionalDouble("p90", in: .seconds)
            m.p99 = try row.optionalDouble("p99", in: .seconds)
            m.mad = try row.optionalDouble("mad", in: .seconds)
            m.cpuMedian = try row.optionalDouble("cpuMedian", in: .seconds)
            m.callsPerSample = try row.optionalInt("callsPerSample", in: .callsPerSample)
            m.allocatedBytes = try row.optionalDouble("allocatedBytes", in: .amount)
            m.allocationRequests = try row.optionalDouble("allocationRequests", in: .amount)
            m.peakRSSBytes = try row.optionalDouble("peakRSSBytes", in: .amount)
            m.samples = try row.numbers("samples", in: .seconds)
            m.speedupOverStdlib = try row.optionalDouble("speedupOverStdlib", in: .ratio)
            m.ratioToFloor = try row.optionalDouble("ratioToFloor", in: .ratio)
            m.changeCount = try row.optionalInt("changeCount", in: .count)
            m.offsetsMoves = try row.optionalInt("offsetsMoves", in: .count)
            m.minimalMoves = try row.optionalInt("minimalMoves", in: .count)
            measurements.append(m)
        }
        scaling = []
        for row in try root.objects("scaling") {
            scaling.append(
                BenchScaling(
                    engine: try row.requiredString("engine"), profile: try row.requiredString("profile"), kind: try row.requiredString("kind"),
                    allocator: try row.requiredString("allocator"), timeExponent: try row.optionalDouble("timeExponent", in: .exponent),
                    bytesExponent: try row.optionalDouble("bytesExponent", in: .exponent)))
        }
        targets = []
        for row in try root.objects("targets") {
            targets.append(
                BenchTarget(
                    name: try row.requiredString("name"), goal: try row.optionalString("goal") ?? "", value: try row.optionalDouble("value"),
                    met: try row.optionalBool("met"), note: try row.optionalString("note") ?? ""))
        }
    }
}
