import DiffLabCore
import DiffLabJSON

/// The allocator a bench worker runs under.
public enum MemoryAllocator: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The platform's `malloc`.
    case system
    /// jemalloc, preloaded: the only one whose allocation figures a bench reads.
    case jemalloc

    /// Declaration order: `system` first.
    public static func < (lhs: MemoryAllocator, rhs: MemoryAllocator) -> Bool { lhs == .system && rhs == .jemalloc }

    /// The name as files and flags spell it.
    public var description: String { rawValue }
}

/// Who timed a bench measurement.
public enum BenchTiming: String, Sendable, Hashable, CaseIterable {
    /// The harness timed the calls (the default; the field is absent from the file).
    case harness
    /// The engine reported its own time per request (an out-of-process engine): the figures
    /// exclude the harness's process overhead. Written as `"timing": "self"`.
    case selfTimed = "self"

    /// The footnote under every table or plot that shows a self-timed figure (marked `†`).
    public static let footnote = "† self-timed by the engine: excludes the harness's process overhead"
}

/// How a bench run keeps a cell's figures from depending on the cells measured before it.
///
/// An allocator's state is the history of the process: glibc raises its mmap threshold to the
/// largest block freed (up to 32 MiB) and keeps freed memory in its heap, and jemalloc keeps
/// freed extents by its decay rule, so a call that runs after large cells can reuse memory that
/// the same call, alone, has to fault in.
public enum BenchIsolation: String, Sendable, Hashable, CaseIterable {
    /// Every measurement (one subject on one dataset) in a fresh worker process that generates
    /// the dataset and measures that one subject: every cell starts from the same allocator
    /// state, whatever ran before it.
    case process
    /// All measurements of an allocator in one process, in matrix order (files written before
    /// 0.2, and a run that cannot start itself again): a figure may depend on the cells before it.
    case shared
}

/// One cell of a `difflab-bench/1` file (an element of its `measurements` array, and of the bench
/// worker's answer): an engine (or the `stdlib` reference, or the `hash-floor`) on one profile ×
/// size × element kind × allocator, measured or skipped.
///
/// Every figure is optional because files may lack it (skipped cells have only ``skipped``;
/// allocation figures exist only under jemalloc; move counts not for the hash floor).
public struct BenchMeasurement: ResultsRecord, Equatable {
    /// The subject measured (engine name, `stdlib` or `hash-floor`).
    public var engine: String
    /// The dataset profile, e.g. `small-edit`.
    public var profile: String
    /// List size, in ``FieldRange/size``.
    public var size: Int
    /// The element kind: `int`, `model` or `object`.
    public var kind: String
    /// `system` or `jemalloc`.
    public var allocator: MemoryAllocator
    /// Why the cell was not measured, when it was not.
    public var skipped: String?
    /// Who timed the figures (absent in the file: the harness).
    public var timing: BenchTiming
    /// Seconds per call (``FieldRange/seconds``, like the other times).
    public var median: Double?
    /// The fastest sample, in seconds per call.
    public var min: Double?
    /// The 90th-percentile sample, in seconds per call.
    public var p90: Double?
    /// The 99th-percentile sample, in seconds per call.
    public var p99: Double?
    /// Median absolute deviation of the samples, in seconds.
    public var mad: Double?
    /// Median thread CPU seconds per call.
    public var cpuMedian: Double?
    /// Calls timed together as one sample, in ``FieldRange/callsPerSample``.
    public var callsPerSample: Int?
    /// Bytes allocated by one call (jemalloc only), in ``FieldRange/amount``.
    public var allocatedBytes: Double?
    /// Allocation requests of one call (jemalloc only), in ``FieldRange/amount``.
    public var allocationRequests: Double?
    /// Peak resident set size of the worker after the measurement, in ``FieldRange/amount``: of
    /// the fresh worker that measured this cell (``BenchIsolation/process``, its dataset's
    /// generation included) or of the one process so far (``BenchIsolation/shared``); in a
    /// self-timed cell of an engine in another process, that engine process's peak so far.
    public var peakRSSBytes: Double?
    /// Seconds per call, one per sample, in measurement order.
    public var samples: [Double]
    /// Thread CPU seconds per call, one per sample.
    public var cpuSamples: [Double]
    /// stdlib median ÷ this median, in ``FieldRange/ratio``.
    public var speedupOverStdlib: Double?
    /// This median ÷ hash-floor median, in ``FieldRange/ratio``.
    public var ratioToFloor: Double?
    /// This median ÷ partitioned-floor median, in ``FieldRange/ratio``.
    public var ratioToPartitionedFloor: Double?
    /// This median ÷ trim-floor median, in ``FieldRange/ratio``; absent from files written before 0.2.
    public var ratioToTrimFloor: Double?
    /// Minor page faults of one call (the whole process's), in ``FieldRange/count``.
    public var minorFaults: Int?
    /// Major page faults of one call, in ``FieldRange/count``.
    public var majorFaults: Int?
    /// Peak resident memory of one call above the resident size before it, in bytes, in ``FieldRange/amount``.
    public var peakExtraRSSBytes: Double?
    /// Changes reported, and moves under each strategy, in ``FieldRange/count``.
    public var changeCount: Int?
    /// Moves with offsets moves, in ``FieldRange/count``; `nil` for a changeset engine.
    public var offsetsMoves: Int?
    /// Moves with minimal moves, in ``FieldRange/count``; `nil` for a changeset engine.
    public var minimalMoves: Int?
    /// Moves handed to UIKit, in ``FieldRange/count``: those of the batch update the engine's
    /// answer is applied as (summed over a changeset engine's stages). `nil` for the hash floor
    /// and in files written before the field existed.
    public var batchMoves: Int?
    /// `hashmap`'s phases with each move strategy on 1 and 2 threads (``BenchPhases``), measured
    /// in its cells from 10,000 items; empty elsewhere and in files written before 0.2.
    public var phases: [BenchPhases] = []
    /// `hashmap` through one reused workspace against one-off calls, on 1 and 2 threads
    /// (``BenchRepeated``), measured in its cells from 10,000 items; empty elsewhere and in files
    /// written before the repeated mode existed.
    public var repeated: [BenchRepeated] = []

    /// A cell with no figures (timed by the harness).
    public init(engine: String, profile: String, size: Int, kind: String, allocator: MemoryAllocator) {
        self.engine = engine
        self.profile = profile
        self.size = size
        self.kind = kind
        self.allocator = allocator
        self.timing = .harness
        self.samples = []
        self.cpuSamples = []
    }

    /// Whether the cell has a median (it was measured, not skipped).
    public var isMeasured: Bool { median != nil }

    /// How ``skipped`` starts when the engine failed (it crashed, answered wrongly or timed out,
    /// or its worker process died of a fault) rather than being skipped by the per-call limit:
    /// `the engine failed: `.
    public static let engineFailedPrefix = "the engine failed: "

    /// Whether the cell was skipped because its engine failed (its ``skipped`` reason starts with
    /// ``engineFailedPrefix``), not by the per-call limit or the memory guard.
    public var engineFailed: Bool { skipped?.hasPrefix(Self.engineFailedPrefix) ?? false }

    @_spi(Records) public static let blank = BenchMeasurement(engine: "", profile: "", size: 0, kind: "", allocator: .system)

    /// The declaration table, in the order of the CSV columns (``BenchResults/csvColumns``):
    /// `engine`, `profile`, `kind`, `size` and `allocator` are required;
    /// a measured cell writes `allocatedBytes` and `allocationRequests` as `null` when absent (no
    /// jemalloc) and its `samples` even when empty; `timing` is written only when self-timed.
    @_spi(Records) public static let fields: [RecordField<BenchMeasurement>] = [
        .required("engine", \.engine, .string, column: "engine", "the subject measured: an engine, `stdlib` or a floor"),
        .required("profile", \.profile, .string, column: "profile", "the dataset profile"),
        .required("kind", \.kind, .string, column: "kind", "the element kind: `int`, `model` or `object`"),
        .required("size", \.size, .int(.size), column: "size", "the list size"),
        .required("allocator", \.allocator, .cases(), column: "allocator", "the allocator the worker ran under"),
        .defaulted("timing", \.timing, .cases(), default: .harness, column: "timing", "who timed the figures"),
        .optional("skipped", \.skipped, .string, column: "skipped", "why the cell was not measured"),
        .optional("median", \.median, .seconds, column: "median_s", "seconds per call, the median sample"),
        .optional("min", \.min, .seconds, column: "min_s", "the fastest sample, seconds per call"),
        .optional("p90", \.p90, .seconds, column: "p90_s", "the 90th-percentile sample, seconds per call"),
        .optional("p99", \.p99, .seconds, column: "p99_s", "the 99th-percentile sample, seconds per call"),
        .optional("mad", \.mad, .seconds, column: "mad_s", "the median absolute deviation of the samples, seconds"),
        .optional("cpuMedian", \.cpuMedian, .seconds, column: "cpu_median_s", "median thread CPU seconds per call"),
        .list(
            "samples", \.samples, .seconds, written: .when(\.hasSamples), column: "samples",
            "seconds per call, one per sample, in order (a column: how many)"),
        .optional("callsPerSample", \.callsPerSample, .int(.callsPerSample), column: "calls_per_sample", "calls timed together as one sample"),
        .optional(
            "allocatedBytes", \.allocatedBytes, .count(.amount), absent: .nullWhen(\.isMeasured), column: "allocated_bytes",
            "bytes allocated by one call (jemalloc)"),
        .optional(
            "allocationRequests", \.allocationRequests, .count(.amount), absent: .nullWhen(\.isMeasured), column: "allocation_requests",
            "allocation requests of one call (jemalloc)"),
        .optional("peakRSSBytes", \.peakRSSBytes, .double(.amount), column: "peak_rss_bytes", "the worker's peak resident bytes after the cell"),
        .optional(
            "peakExtraRSSBytes", \.peakExtraRSSBytes, .count(.amount), column: "peak_extra_rss_bytes",
            "peak resident bytes of one call above those before it"),
        .optional("minorFaults", \.minorFaults, .int(.count), column: "minor_faults", "minor page faults of one call"),
        .optional("majorFaults", \.majorFaults, .int(.count), column: "major_faults", "major page faults of one call"),
        .optional("speedupOverStdlib", \.speedupOverStdlib, .ratio, column: "speedup_over_stdlib", "the stdlib median ÷ this median"),
        .optional("ratioToFloor", \.ratioToFloor, .ratio, column: "ratio_to_floor", "this median ÷ the hash floor's"),
        .optional(
            "ratioToPartitionedFloor", \.ratioToPartitionedFloor, .ratio, column: "ratio_to_partitioned_floor",
            "this median ÷ the partitioned floor's"),
        .optional("ratioToTrimFloor", \.ratioToTrimFloor, .ratio, column: "ratio_to_trim_floor", "this median ÷ the trim floor's"),
        .optional("changeCount", \.changeCount, .int(.count), column: "change_count", "changes reported"),
        .optional("offsetsMoves", \.offsetsMoves, .int(.count), column: "offsets_moves", "moves with offsets moves"),
        .optional("minimalMoves", \.minimalMoves, .int(.count), column: "minimal_moves", "moves with minimal moves"),
        .optional("batchMoves", \.batchMoves, .int(.count), column: "batch_moves", "moves handed to UIKit in the batch update"),
        .list("cpuSamples", \.cpuSamples, .seconds, written: .when(\.hasCPUSamples), "thread CPU seconds per call, one per sample"),
        .list("phases", \.phases, .record(), "hashmap's phases by thread count and move strategy"),
        .list("repeated", \.repeated, .record(), "hashmap through one reused workspace against one-off calls"),
    ]

    private var hasSamples: Bool { isMeasured || !samples.isEmpty }
    private var hasCPUSamples: Bool { isMeasured || !cpuSamples.isEmpty }
}

/// What a `difflab bench` worker process hands back to its parent: a JSON array of
/// ``BenchMeasurement`` objects (no schema; the parent merges them into one results file).
package struct BenchWorkerOutput: Sendable, Equatable {
    package var measurements: [BenchMeasurement]

    package init(measurements: [BenchMeasurement]) {
        self.measurements = measurements
    }

    /// The array of measurement objects. O(size).
    package var json: JSONValue { .array(measurements.map(\.json)) }

    /// Reads a worker's array; element `i`'s errors are named `[i].field`.
    /// - Throws: ``ResultsError/wrongType(source:path:expected:found:)`` when the document is not
    ///   an array, or any error of ``BenchMeasurement/init(json:source:path:)``.
    /// - Complexity: O(size of the document).
    package init(json: JSONValue, source: String) throws(ResultsError) {
        guard let elements = json.arrayValue else {
            throw .wrongType(source: source, path: "the document", expected: "an array of measurements", found: json.typeNameWithArticle)
        }
        measurements = []
        for (index, element) in elements.enumerated() {
            measurements.append(try BenchMeasurement(json: element, source: source, path: "[\(index)]"))
        }
    }
}

/// A growth-exponent row of a bench file's `scaling` array.
public struct BenchScaling: ResultsRecord, Equatable {

    /// The subject the fit is for.
    public var engine: String
    /// The dataset profile.
    public var profile: String
    /// The element kind.
    public var kind: String
    /// The allocator of the cells fitted.
    public var allocator: MemoryAllocator
    /// The sizes the fit used, ascending (each in ``FieldRange/size``).
    public var sizes: [Int]
    /// Fitted exponent of time against size (time ∝ sizeᵉ), in ``FieldRange/exponent``.
    public var timeExponent: Double?
    /// Fitted exponent of allocated bytes against size (`null` when not measured).
    public var bytesExponent: Double?

    /// A row; see the properties.
    public init(
        engine: String, profile: String, kind: String, allocator: MemoryAllocator, sizes: [Int], timeExponent: Double?, bytesExponent: Double?
    ) {
        self.engine = engine
        self.profile = profile
        self.kind = kind
        self.allocator = allocator
        self.sizes = sizes
        self.timeExponent = timeExponent
        self.bytesExponent = bytesExponent
    }

    @_spi(Records) public static let blank = BenchScaling(
        engine: "", profile: "", kind: "", allocator: .system, sizes: [], timeExponent: nil, bytesExponent: nil)

    /// The declaration table (`bytesExponent` written as `null` when absent).
    @_spi(Records) public static let fields: [RecordField<BenchScaling>] = [
        .required("engine", \.engine, .string, "the subject the fit is for"),
        .required("profile", \.profile, .string, "the dataset profile"),
        .required("kind", \.kind, .string, "the element kind"),
        .required("allocator", \.allocator, .cases(), "the allocator"),
        .list("sizes", \.sizes, .int(.size), written: .always, "the sizes the fit used, ascending"),
        .optional("timeExponent", \.timeExponent, .double(.exponent), "the fitted exponent of time against size"),
        .optional("bytesExponent", \.bytesExponent, .double(.exponent), absent: .null, "the fitted exponent of allocated bytes against size"),
    ]
}

/// A row of a bench file's `targets` array: a goal and whether this run met it.
public struct BenchTarget: ResultsRecord, Equatable {

    /// What the target is about, e.g. an engine and profile.
    public var name: String
    /// The goal, in words (e.g. `≤ 2`).
    public var goal: String
    /// The measured value (any number).
    public var value: Double?
    /// Whether the goal was met; `nil` when it could not be judged.
    public var met: Bool?
    /// Context for the reader; may be empty.
    public var note: String

    /// A target row; see the properties.
    public init(name: String, goal: String, value: Double?, met: Bool?, note: String) {
        self.name = name
        self.goal = goal
        self.value = value
        self.met = met
        self.note = note
    }

    @_spi(Records) public static let blank = BenchTarget(name: "", goal: "", value: nil, met: nil, note: "")

    /// The declaration table (`value` and `met` written as `null` when absent).
    @_spi(Records) public static let fields: [RecordField<BenchTarget>] = [
        .required("name", \.name, .string, "what the target is about"),
        .defaulted("goal", \.goal, .string, default: "", written: .always, "the goal, in words"),
        .optional("value", \.value, .number, absent: .null, "the measured value"),
        .optional("met", \.met, .bool, absent: .null, "whether the goal was met (`null`: not judged)"),
        .defaulted("note", \.note, .string, default: "", written: .always, "context for the reader"),
    ]
}

/// An element of a bench file's `allocators` array.
public struct BenchAllocator: ResultsRecord, Equatable {
    /// The allocator.
    public var name: MemoryAllocator
    /// The preloaded library, for jemalloc.
    public var library: String?

    /// An allocator entry; see the properties.
    public init(name: MemoryAllocator, library: String? = nil) {
        self.name = name
        self.library = library
    }

    @_spi(Records) public static let blank = BenchAllocator(name: .system)

    /// The declaration table.
    @_spi(Records) public static let fields: [RecordField<BenchAllocator>] = [
        .required("name", \.name, .cases(), "the allocator"),
        .optional("library", \.library, .string, "the preloaded library, for jemalloc"),
    ]
}

/// The `options` object of a bench file: what the run was asked to measure. Every member is
/// optional (absent ones are not written).
public struct BenchRunOptions: ResultsRecord, Equatable {

    /// Whether the run used the quick preset.
    public var quick: Bool?
    /// The subjects measured, in run order.
    public var engines: [String]?
    /// The dataset profiles measured.
    public var profiles: [String]?
    /// List sizes, each in ``FieldRange/size``.
    public var sizes: [Int]?
    /// The element kinds measured.
    public var kinds: [String]?
    /// In ``FieldRange/seconds``.
    public var budgetSeconds: Double?
    /// In ``FieldRange/seconds``.
    public var maxCallSeconds: Double?
    /// The dataset seed, as decimal text (it may exceed 2^53).
    public var seed: String?
    /// The move strategy of the reported change counts.
    public var moves: MoveStrategy?
    /// In ``FieldRange/size``.
    public var probeFloor: Int?
    /// The parts of a sharded run this file holds (`bench --shard K/N` gives `[K]`; a merge of
    /// every part has none), each from 1 to ``shardCount``.
    public var shardParts: [Int]?
    /// How many parts the run was sharded into, in ``FieldRange/shards``.
    public var shardCount: Int?
    /// How cells were kept apart (absent in the file: ``BenchIsolation/shared``, as before 0.2).
    public var isolation: BenchIsolation = .shared

    /// Options as recorded; every field is optional (absent in the file: `nil`).
    public init(
        quick: Bool? = nil, engines: [String]? = nil, profiles: [String]? = nil, sizes: [Int]? = nil, kinds: [String]? = nil,
        budgetSeconds: Double? = nil, maxCallSeconds: Double? = nil, seed: String? = nil, moves: MoveStrategy? = nil, probeFloor: Int? = nil
    ) {
        self.quick = quick
        self.engines = engines
        self.profiles = profiles
        self.sizes = sizes
        self.kinds = kinds
        self.budgetSeconds = budgetSeconds
        self.maxCallSeconds = maxCallSeconds
        self.seed = seed
        self.moves = moves
        self.probeFloor = probeFloor
    }

    @_spi(Records) public static let blank = BenchRunOptions()

    /// The declaration table: every member optional, absent ones not written.
    @_spi(Records) public static let fields: [RecordField<BenchRunOptions>] = [
        .optional("quick", \.quick, .bool, "whether the run used the quick preset"),
        .optional("engines", \.engines, .array(.string), "the subjects measured, in run order"),
        .optional("profiles", \.profiles, .array(.string), "the dataset profiles measured"),
        .optional("sizes", \.sizes, .array(.int(.size)), "the list sizes"),
        .optional("kinds", \.kinds, .array(.string), "the element kinds"),
        .optional("budgetSeconds", \.budgetSeconds, .seconds, "the time budget of one cell"),
        .optional("maxCallSeconds", \.maxCallSeconds, .seconds, "the longest one call may take before a cell is skipped"),
        .optional("seed", \.seed, .string, "the dataset seed, as decimal text (it may exceed 2^53)"),
        .optional("moves", \.moves, .cases(), "the move strategy of the reported change counts"),
        .optional("probeFloor", \.probeFloor, .int(.size), "the smallest size probed"),
        .optional("shardParts", \.shardParts, .array(.int(.shards)), "the parts of a sharded run this file holds"),
        .optional("shardCount", \.shardCount, .int(.shards), "how many parts the run was sharded into"),
        .defaulted(
            "isolation", \.isolation, .cases(), default: .shared, written: .unlessDefault,
            "`process`: every measurement in a fresh worker; `shared`: one process per allocator"),
    ]

    /// Refuses `shardParts` unless they are distinct parts from 1 to `shardCount`.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        guard let parts = shardParts else { return }
        guard let count = shardCount, parts.allSatisfy({ $0 <= count }), Set(parts).count == parts.count else {
            throw .invalid(source: position.source, field: position.member("shardParts").named, expected: "distinct parts from 1 to shardCount")
        }
    }

    /// The options as (name, text) pairs in file order, for a report header: strings as they
    /// are, lists of names joined by `, `, other values as compact JSON. O(size).
    public var displayFields: [DisplayField] {
        (json.objectValue ?? JSONObject()).map { DisplayField(name: $0.key, value: DisplayField.text($0.value)) }
    }

    /// The options without the shard fields: what every part of one sharded run shares.
    public var unsharded: BenchRunOptions {
        var copy = self
        copy.shardParts = nil
        copy.shardCount = nil
        return copy
    }

    /// The file members (names as written in the options object) whose values differ between
    /// these options and `other`: this object's members first, in file order, then members only
    /// `other` has. Empty when the two would be written the same.
    ///
    /// - Complexity: O(size of both objects).
    public func differingMembers(from other: BenchRunOptions) -> [String] {
        let mine = json.objectValue ?? JSONObject()
        let theirs = other.json.objectValue ?? JSONObject()
        return (mine.keys + theirs.keys.filter { mine[$0] == nil }).filter { mine[$0] != theirs[$0] }
    }
}

/// A `difflab-bench/1` results file, written by `difflab bench`.
public struct BenchResults: ResultsRecord, Equatable {
    /// The schema this type reads and writes.
    public static let schema = "difflab-bench/1"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made (with its `seconds` and `dirty` flag); the
    /// commit is the one measured.
    public var provenance = RunProvenance()
    /// The options the run used.
    public var options: BenchRunOptions
    /// The allocators, in file order.
    public var allocators: [BenchAllocator]
    /// One row per measured (or skipped) cell, in file order.
    public var measurements: [BenchMeasurement]
    /// Growth-exponent fits, in file order.
    public var scaling: [BenchScaling]
    /// Performance targets and whether they were met, in file order.
    public var targets: [BenchTarget]

    /// An empty results file named `source`.
    public init(source: String = "") {
        self.source = source
        options = BenchRunOptions()
        allocators = []
        measurements = []
        scaling = []
        targets = []
    }

    @_spi(Records) public static let blank = BenchResults()
    public static var documentSchema: String? { schema }

    /// The declaration table. A file without measurements is valid here (a report refuses it).
    @_spi(Records) public static let fields: [RecordField<BenchResults>] =
        RecordField.inline(\.provenance)
        + [
            .defaulted("options", \.options, .record(), default: BenchRunOptions(), written: .always, "the options the run used"),
            .list("allocators", \.allocators, .record(), written: .always, "the allocators, in file order"),
            .list("measurements", \.measurements, .record(), written: .always, "one row per measured or skipped cell"),
            .list("scaling", \.scaling, .record(), written: .always, "growth-exponent fits"),
            .list("targets", \.targets, .record(), written: .always, "performance targets and whether they were met"),
        ]

    /// Notes the file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) { source = position.source }
}

/// The member every DiffLab results document names its schema with.
enum SchemaKey: String { case schema }

/// Checks that `document` is an object whose `schema` is `schema`.
/// - Throws: ``ResultsError/notAnObject(source:found:)``, ``ResultsError/missingSchema(source:)``
///   or ``ResultsError/unknownSchema(source:schema:)`` (a schema shown by at most 40 characters).
func checkSchema(_ document: JSONValue, _ schema: String, source: String) throws(ResultsError) {
    let found = try schemaName(document, source: source)
    guard found == schema else { throw .unknownSchema(source: source, schema: found) }
}

/// The `schema` string of a results document.
/// - Throws: ``ResultsError/notAnObject(source:found:)``, ``ResultsError/missingSchema(source:)``,
///   or ``ResultsError/unknownSchema(source:schema:)`` for text that is not stream-safe.
func schemaName(_ document: JSONValue, source: String) throws(ResultsError) -> String {
    guard document.objectValue != nil else { throw .notAnObject(source: source, found: document.typeNameWithArticle) }
    guard let schema = document[SchemaKey.schema.rawValue]?.stringValue else { throw .missingSchema(source: source) }
    guard schema.isStreamSafe else { throw .unknownSchema(source: source, schema: String(schema.unicodeScalars.prefix(40))) }
    return schema
}
