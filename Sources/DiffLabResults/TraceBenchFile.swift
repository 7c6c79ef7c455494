import DiffLabCore
import DiffLabEngines
import DiffLabJSON

extension TraceProvenance: ResultsRecord {
    @_spi(Records) public static let blank = TraceProvenance(source: "", tool: "", date: "", ids: "", contents: "")

    /// The declaration table of a trace's provenance as a results file holds it (inline in
    /// ``TraceWorkload``).
    @_spi(Records) public static let fields: [RecordField<TraceProvenance>] = [
        .required("source", \.source, .string, "what was recorded"),
        .required("tool", \.tool, .string, "what made the trace"),
        .required("date", \.date, .string, "when the trace was made"),
        .required("ids", \.ids, .string, "how identifiers were derived"),
        .required("contents", \.contents, .string, "how contents were derived"),
    ]
}

/// The workload of a trace-driven run: the trace file and its provenance, so that a results file
/// says what it measured (a recorded trace, not a generated profile).
public struct TraceWorkload: ResultsRecord, Equatable {
    /// The trace file as the run was given it.
    public var file: String
    /// The trace's provenance.
    public var provenance: TraceProvenance
    /// Versions in the trace, in ``FieldRange/count``.
    public var versions: Int
    /// Items over all versions, in ``FieldRange/count``.
    public var items: Int
    /// Distinct identifiers, in ``FieldRange/count``.
    public var distinctIds: Int
    /// Whether the versions carry times.
    public var timestamps: Bool

    /// The workload of `trace`, read from `file`.
    public init(_ trace: Trace, file: String) {
        self.file = file
        provenance = trace.provenance
        versions = trace.versions.count
        items = trace.itemCount
        distinctIds = trace.ids.count
        timestamps = trace.hasTimestamps
    }

    @_spi(Records) public static let blank = TraceWorkload(Trace(provenance: .blank), file: "")

    /// The declaration table: the file, its provenance's members inline, then its size.
    @_spi(Records) public static let fields: [RecordField<TraceWorkload>] =
        [.required("file", \.file, .string, "the trace file as the run was given it")]
        + RecordField.inline(\.provenance)
        + [
            .required("versions", \.versions, .int(.count), "versions in the trace"),
            .required("items", \.items, .int(.count), "items over all versions"),
            .required("distinctIds", \.distinctIds, .int(.count), "distinct identifiers"),
            .required("timestamps", \.timestamps, .bool, "whether the versions carry times"),
        ]
}

/// One consecutive pair of a trace's versions: the sizes of its old and new lists.
public struct TraceBenchPair: Sendable, Equatable {
    /// Items in the older version, in ``FieldRange/size``.
    public var old: Int
    /// Items in the newer version, in ``FieldRange/size``.
    public var new: Int

    /// A pair; see the properties.
    public init(old: Int, new: Int) {
        self.old = old
        self.new = new
    }

    /// A pair as a trace bench file writes it: `[old, new]`.
    static let field = FieldType.pair("old, new", .int(.size), make: { TraceBenchPair(old: $0, new: $1) }, parts: { ($0.old, $0.new) })
}

/// One subject of a trace-driven bench (an engine, the `stdlib` reference or a floor): its median
/// time on each pair, or why it was skipped.
public struct TraceBenchSubject: ResultsRecord, Equatable {
    /// The subject's name.
    public var engine: String
    /// Whether it is a diff engine (the floors are not).
    public var isEngine: Bool
    /// Why it has no times: an engine that failed, or a call over the per-call limit, on some pair.
    public var skipped: String?
    /// The median seconds per call on each pair, in pair order (every pair, unless skipped).
    public var pairSeconds: [Double]
    /// Changes reported over all pairs (IGListKit's offsets moves for a pairing engine); `nil` for
    /// a floor.
    public var changes: Int?

    /// A subject; see the properties.
    public init(engine: String, isEngine: Bool, skipped: String? = nil, pairSeconds: [Double] = [], changes: Int? = nil) {
        self.engine = engine
        self.isEngine = isEngine
        self.skipped = skipped
        self.pairSeconds = pairSeconds
        self.changes = changes
    }

    /// Whether it has a time for every pair of a run of `pairs` pairs.
    public func isMeasured(pairs: Int) -> Bool { skipped == nil && pairSeconds.count == pairs && pairs > 0 }

    /// The seconds over all pairs (one call each).
    public var total: Double { pairSeconds.reduce(0, +) }
    /// The median seconds per pair; `nil` for no pairs.
    public var medianPerPair: Double? { median(pairSeconds) }
    /// The 99th-percentile seconds per pair (nearest rank); `nil` for no pairs.
    public var p99PerPair: Double? {
        guard !pairSeconds.isEmpty else { return nil }
        let sorted = pairSeconds.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1))]
    }
    /// The pair that took longest (its index) and its seconds; `nil` for no pairs.
    public var worstPair: (index: Int, seconds: Double)? {
        pairSeconds.indices.max { pairSeconds[$0] < pairSeconds[$1] }.map { ($0, pairSeconds[$0]) }
    }

    @_spi(Records) public static let blank = TraceBenchSubject(engine: "", isEngine: false)

    /// The declaration table (`pairSeconds` always written).
    @_spi(Records) public static let fields: [RecordField<TraceBenchSubject>] = [
        .required("engine", \.engine, .string, "the subject's name"),
        .required("isEngine", \.isEngine, .bool, "whether it is a diff engine (the floors are not)"),
        .optional("skipped", \.skipped, .string, "why it has no times"),
        .list("pairSeconds", \.pairSeconds, .seconds, written: .always, "the median seconds per call on each pair, in pair order"),
        .optional("changes", \.changes, .int(.count), "changes reported over all pairs; absent for a floor"),
    ]
}

/// A `difflab-bench-trace/1` file: `difflab bench --trace`'s results, every subject on every
/// consecutive pair of a recorded trace's versions, side by side in one process.
///
/// Reading it throws ``ResultsError`` for a schema other than `difflab-bench-trace/1`, a missing
/// or mistyped field (named by its path, e.g. `subjects[2].pairSeconds`), a number outside its
/// range, a pair that is not two sizes, a subject with more times than pairs, or no pairs.
public struct TraceBenchResults: ResultsRecord, Equatable {
    /// The schema this type reads and writes.
    public static let schema = "difflab-bench-trace/1"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made.
    public var provenance = RunProvenance()
    /// The trace measured.
    public var trace: TraceWorkload
    /// `system` or `jemalloc`: the allocator the run's process used.
    public var allocator: MemoryAllocator
    /// The element kind the versions were built as (`int`, `model`, `object`).
    public var kind: String
    /// Seconds of samples per subject and pair, in ``FieldRange/seconds``.
    public var budgetSeconds: Double
    /// The consecutive pairs, in order.
    public var pairs: [TraceBenchPair]
    /// The subjects, in measurement order: the floors, `stdlib`, the engines.
    public var subjects: [TraceBenchSubject]

    /// A results record; see the properties.
    public init(
        source: String = "", trace: TraceWorkload, allocator: MemoryAllocator, kind: String, budgetSeconds: Double, pairs: [TraceBenchPair],
        subjects: [TraceBenchSubject]
    ) {
        self.source = source
        self.trace = trace
        self.allocator = allocator
        self.kind = kind
        self.budgetSeconds = budgetSeconds
        self.pairs = pairs
        self.subjects = subjects
    }

    /// The subject named `name`, when measured on every pair.
    public func measured(_ name: String) -> TraceBenchSubject? {
        subjects.first { $0.engine == name && $0.isMeasured(pairs: pairs.count) }
    }

    @_spi(Records) public static let blank = TraceBenchResults(trace: .blank, allocator: .system, kind: "", budgetSeconds: 0, pairs: [], subjects: [])
    public static var documentSchema: String? { schema }

    /// The declaration table: the provenance (with `seconds` and `dirty`), the trace, the run's
    /// settings, the pairs as `[old, new]` and the subjects.
    @_spi(Records) public static let fields: [RecordField<TraceBenchResults>] =
        RecordField.inline(\.provenance)
        + [
            .required("trace", \.trace, .record(), "the trace measured"),
            .required("allocator", \.allocator, .cases(), "the allocator the run's process used"),
            .required("kind", \.kind, .string, "the element kind the versions were built as"),
            .required("budgetSeconds", \.budgetSeconds, .seconds, "seconds of samples per subject and pair"),
            .list("pairs", \.pairs, TraceBenchPair.field, written: .always, "the consecutive pairs' sizes, in order"),
            .list("subjects", \.subjects, .record(), written: .always, "the subjects, in measurement order"),
        ]

    /// Notes the file's name; checks that there is a pair and no subject has more times than pairs.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        guard !pairs.isEmpty else { throw .invalid(source: source, field: "pairs", expected: "at least one pair of versions") }
        for (i, subject) in subjects.enumerated() where subject.pairSeconds.count > pairs.count {
            throw .invalid(source: source, field: "subjects[\(i)].pairSeconds", expected: "at most one time per pair (\(pairs.count))")
        }
    }
}

/// One subject's figures over a trace, derived from a ``TraceBenchResults`` file: what the command
/// line's table and the report show.
public struct TraceBenchSummary: Sendable, Equatable {
    /// The subject's name.
    public var engine: String
    /// Whether it is a diff engine (the floors are not).
    public var isEngine: Bool
    /// Why it has no figures, when it has none.
    public var skipped: String?
    /// Seconds over all pairs.
    public var total: Double?
    /// Median seconds per pair.
    public var medianPerPair: Double?
    /// 99th-percentile seconds per pair.
    public var p99PerPair: Double?
    /// The slowest pair's index, its sizes and its seconds.
    public var worstPair: (index: Int, pair: TraceBenchPair, seconds: Double)?
    /// Total ÷ the hash floor's total.
    public var ratioToHashFloor: Double?
    /// Total ÷ the partitioned floor's total.
    public var ratioToPartitionedFloor: Double?
    /// `stdlib`'s total ÷ this total.
    public var speedupOverStdlib: Double?
    /// Changes reported over all pairs.
    public var changes: Int?

    /// Whether `a` and `b` have the same subject, skip reason, total and worst pair (compared by
    /// its index); the other figures are not compared.
    public static func == (a: Self, b: Self) -> Bool {
        a.engine == b.engine && a.skipped == b.skipped && a.total == b.total && a.worstPair?.index == b.worstPair?.index
    }
}

extension TraceBenchResults {
    /// The name of the hash floor subject (in every bench file, and `difflab bench`'s): the
    /// engine table's `BuiltInEngines.Name.hashFloor`.
    public static let hashFloorName = BuiltInEngines.Name.hashFloor
    /// The name of the partitioned floor subject (in every bench file, and `difflab bench`'s).
    public static let partitionedFloorName = BuiltInEngines.Name.partitionedFloor
    /// The name of the trim floor subject (in every bench file written since 0.2, and `difflab bench`'s).
    public static let trimFloorName = BuiltInEngines.Name.trimFloor

    /// Each subject's figures, in file order; ratios only between subjects measured on every pair.
    ///
    /// - Complexity: O(subjects × pairs log pairs).
    public var summaries: [TraceBenchSummary] {
        let hashFloor = measured(Self.hashFloorName)?.total
        let partitionedFloor = measured(Self.partitionedFloorName)?.total
        let stdlib = measured(BuiltInEngines.reference)?.total
        return subjects.map { subject in
            var row = TraceBenchSummary(engine: subject.engine, isEngine: subject.isEngine, skipped: subject.skipped, changes: subject.changes)
            guard subject.isMeasured(pairs: pairs.count) else {
                if row.skipped == nil { row.skipped = "timed on \(subject.pairSeconds.count) of \(pairs.count) pairs" }
                return row
            }
            let total = subject.total
            row.total = total
            row.medianPerPair = subject.medianPerPair
            row.p99PerPair = subject.p99PerPair
            row.worstPair = subject.worstPair.map { ($0.index, pairs[$0.index], $0.seconds) }
            func ratio(_ a: Double?, _ b: Double?) -> Double? {
                guard let a, let b, a > 0, b > 0 else { return nil }
                return a / b
            }
            row.ratioToHashFloor = ratio(total, hashFloor)
            row.ratioToPartitionedFloor = ratio(total, partitionedFloor)
            row.speedupOverStdlib = ratio(stdlib, total)
            return row
        }
    }
}
