import DiffLabJSON

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

/// One cell of a `difflab-bench/1` file (an element of its `measurements` array, and of the bench
/// worker's answer): an engine (or the `stdlib` reference, or the `hash-floor`) on one profile ×
/// size × element kind × allocator, measured or skipped.
///
/// Every figure is optional because files may lack it (skipped cells have only ``skipped``;
/// allocation figures exist only under jemalloc; move counts not for the hash floor).
public struct BenchMeasurement: Sendable, Equatable {
    /// The member names, each written once.
    enum Key: String {
        case engine, profile, size, kind, allocator, skipped, timing, median, min, p90, p99, mad, cpuMedian, callsPerSample
        case allocatedBytes, allocationRequests, peakRSSBytes, samples, cpuSamples, changeCount, offsetsMoves, minimalMoves, batchMoves
        case speedupOverStdlib, ratioToFloor, ratioToPartitionedFloor, ratioToTrimFloor, minorFaults, majorFaults, peakExtraRSSBytes
        case phases, repeated
    }

    /// The subject measured (engine name, `stdlib` or `hash-floor`).
    public var engine: String
    /// The dataset profile, e.g. `small-edit`.
    public var profile: String
    /// List size, in ``FieldRange/size``.
    public var size: Int
    /// The element kind: `int`, `model` or `object`.
    public var kind: String
    /// `system` or `jemalloc`.
    public var allocator: String
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
    /// Peak resident set size of the worker after the measurement, in ``FieldRange/amount``; in a
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
    public init(engine: String, profile: String, size: Int, kind: String, allocator: String) {
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

    /// The measurement object. A measured cell writes `allocatedBytes` and `allocationRequests`
    /// as `null` when absent (no jemalloc); other absent figures are left out; `timing` is
    /// written only when self-timed. O(samples).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.engine, engine)
        w.set(.profile, profile)
        w.set(.size, size)
        w.set(.kind, kind)
        w.set(.allocator, allocator)
        w.set(.skipped, skipped)
        if timing != .harness { w.set(.timing, timing.rawValue) }
        w.set(.median, median)
        w.set(.min, min)
        w.set(.p90, p90)
        w.set(.p99, p99)
        w.set(.mad, mad)
        w.set(.cpuMedian, cpuMedian)
        w.set(.callsPerSample, callsPerSample)
        w.set(.allocatedBytes, allocatedBytes, null: isMeasured)
        w.set(.allocationRequests, allocationRequests, null: isMeasured)
        w.set(.peakRSSBytes, peakRSSBytes)
        if isMeasured || !samples.isEmpty { w.set(.samples, numbers: samples) }
        if isMeasured || !cpuSamples.isEmpty { w.set(.cpuSamples, numbers: cpuSamples) }
        w.set(.changeCount, changeCount)
        w.set(.offsetsMoves, offsetsMoves)
        w.set(.minimalMoves, minimalMoves)
        w.set(.batchMoves, batchMoves)
        w.set(.speedupOverStdlib, speedupOverStdlib)
        w.set(.ratioToFloor, ratioToFloor)
        w.set(.ratioToPartitionedFloor, ratioToPartitionedFloor)
        w.set(.ratioToTrimFloor, ratioToTrimFloor)
        w.set(.minorFaults, minorFaults)
        w.set(.majorFaults, majorFaults)
        w.set(.peakExtraRSSBytes, peakExtraRSSBytes)
        if !phases.isEmpty { w.set(.phases, .array(phases.map(\.json))) }
        if !repeated.isEmpty { w.set(.repeated, .array(repeated.map(\.json))) }
        return w.json
    }

    /// Reads a measurement object.
    ///
    /// - Parameters:
    ///   - json: the measurement object.
    ///   - source: the file it comes from, for messages.
    ///   - path: the object's JSON path in its file, for messages (e.g. `measurements[3]`).
    /// - Throws: ``ResultsError`` for a missing identity field (engine, profile, size, kind,
    ///   allocator), any field of the wrong type, a `timing` other than `"harness"` or `"self"`, or a
    ///   number outside its ``FieldRange``: `size` ``FieldRange/size``, times, `samples` and
    ///   `cpuSamples` ``FieldRange/seconds``, `callsPerSample` ``FieldRange/callsPerSample``, byte
    ///   and allocation figures ``FieldRange/amount`` (allocation counts and `peakExtraRSSBytes` whole
    ///   numbers), ratios ``FieldRange/ratio``, change, move and page-fault counts ``FieldRange/count``. Unknown members are ignored.
    /// - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            engine: try row.requiredString(.engine), profile: try row.requiredString(.profile), size: try row.requiredInt(.size, in: .size),
            kind: try row.requiredString(.kind), allocator: try row.requiredString(.allocator))
        skipped = try row.optionalString(.skipped)
        if let timing = try row.optionalCase(.timing, BenchTiming.self) { self.timing = timing }
        median = try row.optionalDouble(.median, in: .seconds)
        min = try row.optionalDouble(.min, in: .seconds)
        p90 = try row.optionalDouble(.p90, in: .seconds)
        p99 = try row.optionalDouble(.p99, in: .seconds)
        mad = try row.optionalDouble(.mad, in: .seconds)
        cpuMedian = try row.optionalDouble(.cpuMedian, in: .seconds)
        callsPerSample = try row.optionalInt(.callsPerSample, in: .callsPerSample)
        allocatedBytes = try row.optionalCount(.allocatedBytes, in: .amount)
        allocationRequests = try row.optionalCount(.allocationRequests, in: .amount)
        peakRSSBytes = try row.optionalDouble(.peakRSSBytes, in: .amount)
        samples = try row.numbers(.samples, in: .seconds)
        cpuSamples = try row.numbers(.cpuSamples, in: .seconds)
        speedupOverStdlib = try row.optionalDouble(.speedupOverStdlib, in: .ratio)
        ratioToFloor = try row.optionalDouble(.ratioToFloor, in: .ratio)
        ratioToPartitionedFloor = try row.optionalDouble(.ratioToPartitionedFloor, in: .ratio)
        ratioToTrimFloor = try row.optionalDouble(.ratioToTrimFloor, in: .ratio)
        minorFaults = try row.optionalInt(.minorFaults, in: .count)
        majorFaults = try row.optionalInt(.majorFaults, in: .count)
        peakExtraRSSBytes = try row.optionalCount(.peakExtraRSSBytes, in: .amount)
        changeCount = try row.optionalInt(.changeCount, in: .count)
        offsetsMoves = try row.optionalInt(.offsetsMoves, in: .count)
        minimalMoves = try row.optionalInt(.minimalMoves, in: .count)
        batchMoves = try row.optionalInt(.batchMoves, in: .count)
        for phase in try row.objects(.phases, BenchPhases.Key.self) { phases.append(try BenchPhases(phase)) }
        for entry in try row.objects(.repeated, BenchRepeated.Key.self) { repeated.append(try BenchRepeated(entry)) }
    }
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
            throw .wrongType(source: source, path: "the document", expected: "an array of measurements", found: article(json))
        }
        measurements = []
        for (index, element) in elements.enumerated() {
            measurements.append(try BenchMeasurement(json: element, source: source, path: "[\(index)]"))
        }
    }
}

/// A growth-exponent row of a bench file's `scaling` array.
public struct BenchScaling: Sendable, Equatable {
    enum Key: String { case engine, profile, kind, allocator, sizes, timeExponent, bytesExponent }

    /// The subject the fit is for.
    public var engine: String
    /// The dataset profile.
    public var profile: String
    /// The element kind.
    public var kind: String
    /// `system` or `jemalloc`.
    public var allocator: String
    /// The sizes the fit used, ascending (each in ``FieldRange/size``).
    public var sizes: [Int]
    /// Fitted exponent of time against size (time ∝ sizeᵉ), in ``FieldRange/exponent``.
    public var timeExponent: Double?
    /// Fitted exponent of allocated bytes against size (`null` when not measured).
    public var bytesExponent: Double?

    /// A row; see the properties.
    public init(
        engine: String, profile: String, kind: String, allocator: String, sizes: [Int], timeExponent: Double?, bytesExponent: Double?
    ) {
        self.engine = engine
        self.profile = profile
        self.kind = kind
        self.allocator = allocator
        self.sizes = sizes
        self.timeExponent = timeExponent
        self.bytesExponent = bytesExponent
    }

    /// The scaling object (`bytesExponent` written as `null` when absent). O(sizes).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.engine, engine)
        w.set(.profile, profile)
        w.set(.kind, kind)
        w.set(.allocator, allocator)
        w.set(.sizes, integers: sizes)
        w.set(.timeExponent, timeExponent)
        w.set(.bytesExponent, bytesExponent, null: true)
        return w.json
    }

    /// Reads a scaling object: names required, `sizes` in ``FieldRange/size``, exponents in
    /// ``FieldRange/exponent``. - Throws: ``ResultsError``. - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            engine: try row.requiredString(.engine), profile: try row.requiredString(.profile), kind: try row.requiredString(.kind),
            allocator: try row.requiredString(.allocator), sizes: try row.integers(.sizes, in: .size),
            timeExponent: try row.optionalDouble(.timeExponent, in: .exponent), bytesExponent: try row.optionalDouble(.bytesExponent, in: .exponent))
    }
}

/// A row of a bench file's `targets` array: a goal and whether this run met it.
public struct BenchTarget: Sendable, Equatable {
    enum Key: String { case name, goal, value, met, note }

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

    /// The target object (`value` and `met` written as `null` when absent). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.name, name)
        w.set(.goal, goal)
        w.set(.value, value, null: true)
        w.set(.met, met, null: true)
        w.set(.note, note)
        return w.json
    }

    /// Reads a target object: `name` required, `goal` and `note` default to empty, `value` any
    /// number. - Throws: ``ResultsError``. - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            name: try row.requiredString(.name), goal: try row.optionalString(.goal) ?? "", value: try row.optionalNumber(.value),
            met: try row.optionalBool(.met), note: try row.optionalString(.note) ?? "")
    }
}

/// An element of a bench file's `allocators` array.
public struct BenchAllocator: Sendable, Equatable {
    enum Key: String { case name, library }

    /// `system` or `jemalloc`.
    public var name: String
    /// The preloaded library, for jemalloc.
    public var library: String?

    /// An allocator entry; see the properties.
    public init(name: String, library: String? = nil) {
        self.name = name
        self.library = library
    }

    /// The allocator object. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.name, name)
        w.set(.library, library)
        return w.json
    }

    /// Reads an allocator object (`name` required). - Throws: ``ResultsError``. - Complexity: O(1).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(name: try row.requiredString(.name), library: try row.optionalString(.library))
    }
}

/// The `options` object of a bench file: what the run was asked to measure. Every member is
/// optional (absent ones are not written).
public struct BenchRunOptions: Sendable, Equatable {
    enum Key: String { case quick, engines, profiles, sizes, kinds, budgetSeconds, maxCallSeconds, seed, moves, probeFloor, shardParts, shardCount }

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
    public var moves: String?
    /// In ``FieldRange/size``.
    public var probeFloor: Int?
    /// The parts of a sharded run this file holds (`bench --shard K/N` gives `[K]`; a merge of
    /// every part has none), each from 1 to ``shardCount``.
    public var shardParts: [Int]?
    /// How many parts the run was sharded into, in ``FieldRange/shards``.
    public var shardCount: Int?

    /// Options as recorded; every field is optional (absent in the file: `nil`).
    public init(
        quick: Bool? = nil, engines: [String]? = nil, profiles: [String]? = nil, sizes: [Int]? = nil, kinds: [String]? = nil,
        budgetSeconds: Double? = nil, maxCallSeconds: Double? = nil, seed: String? = nil, moves: String? = nil, probeFloor: Int? = nil
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

    /// The options object. O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.quick, quick)
        if let engines { w.set(.engines, strings: engines) }
        if let profiles { w.set(.profiles, strings: profiles) }
        if let sizes { w.set(.sizes, integers: sizes) }
        if let kinds { w.set(.kinds, strings: kinds) }
        w.set(.budgetSeconds, budgetSeconds)
        w.set(.maxCallSeconds, maxCallSeconds)
        w.set(.seed, seed)
        w.set(.moves, moves)
        w.set(.probeFloor, probeFloor)
        if let shardParts { w.set(.shardParts, integers: shardParts) }
        w.set(.shardCount, shardCount)
        return w.json
    }

    /// The options as (name, text) pairs in file order, for a report header: strings as they
    /// are, lists of names joined by `, `, other values as compact JSON. O(size).
    public var displayFields: [DisplayField] {
        (json.objectValue ?? JSONObject()).map { DisplayField(name: $0.key, value: DisplayField.text($0.value)) }
    }

    /// Reads an options object. - Throws: ``ResultsError`` (sizes in ``FieldRange/size``, seconds
    /// in ``FieldRange/seconds``). - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init()
        quick = try row.optionalBool(.quick)
        if row.present(.engines) != nil { engines = try row.strings(.engines) }
        if row.present(.profiles) != nil { profiles = try row.strings(.profiles) }
        if row.present(.sizes) != nil { sizes = try row.integers(.sizes, in: .size) }
        if row.present(.kinds) != nil { kinds = try row.strings(.kinds) }
        budgetSeconds = try row.optionalDouble(.budgetSeconds, in: .seconds)
        maxCallSeconds = try row.optionalDouble(.maxCallSeconds, in: .seconds)
        seed = try row.optionalString(.seed)
        moves = try row.optionalString(.moves)
        probeFloor = try row.optionalInt(.probeFloor, in: .size)
        shardCount = try row.optionalInt(.shardCount, in: .shards)
        if row.present(.shardParts) != nil {
            let parts = try row.integers(.shardParts, in: .shards)
            guard let count = shardCount, parts.allSatisfy({ $0 <= count }), Set(parts).count == parts.count else {
                throw .invalid(source: row.source, field: row.path(.shardParts), expected: "distinct parts from 1 to shardCount")
            }
            shardParts = parts
        }
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
public struct BenchResults: Sendable, Equatable {
    enum Key: String, ProvenanceKey {
        case schema, createdAt, seconds, machine, toolchain, commit, dirty, options, allocators, measurements, scaling, targets
        static var runSeconds: Key? { .seconds }
        static var dirtyFlag: Key? { .dirty }
    }

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

    /// The results document (`commit` written as `null` when unknown). O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(provenance)
        w.set(.options, options.json)
        w.set(.allocators, .array(allocators.map(\.json)))
        w.set(.measurements, .array(measurements.map(\.json)))
        w.set(.scaling, .array(scaling.map(\.json)))
        w.set(.targets, .array(targets.map(\.json)))
        return w.json
    }

    /// Reads a bench document.
    ///
    /// - Throws: ``ResultsError``: ``ResultsError/notAnObject(source:found:)``,
    ///   ``ResultsError/missingSchema(source:)`` or ``ResultsError/unknownSchema(source:schema:)``
    ///   unless the document is an object with `"schema": "difflab-bench/1"`; `createdAt` outside
    ///   ``FieldRange/unixTime``, `seconds` outside ``FieldRange/runSeconds``; a `machine` that is
    ///   not an object; and every error of ``BenchMeasurement``, ``BenchScaling``,
    ///   ``BenchTarget``, ``BenchAllocator`` and ``BenchRunOptions`` with its path
    ///   (`measurements[3].median`). A file without measurements is valid here (a report refuses it).
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        self.init(source: source)
        provenance = try root.provenance()
        if let reader = try root.object(.options, BenchRunOptions.Key.self) { options = try BenchRunOptions(reader) }
        for row in try root.objects(.allocators, BenchAllocator.Key.self) { allocators.append(try BenchAllocator(row)) }
        for row in try root.objects(.measurements, BenchMeasurement.Key.self) { measurements.append(try BenchMeasurement(row)) }
        for row in try root.objects(.scaling, BenchScaling.Key.self) { scaling.append(try BenchScaling(row)) }
        for row in try root.objects(.targets, BenchTarget.Key.self) { targets.append(try BenchTarget(row)) }
    }
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
    guard document.objectValue != nil else { throw .notAnObject(source: source, found: article(document)) }
    guard let schema = document[SchemaKey.schema.rawValue]?.stringValue else { throw .missingSchema(source: source) }
    guard schema.isStreamSafe else { throw .unknownSchema(source: source, schema: String(schema.unicodeScalars.prefix(40))) }
    return schema
}
