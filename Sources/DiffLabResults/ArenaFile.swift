import DiffLabJSON

/// The `options` object of an arena file: what the run was asked to do.
public struct ArenaOptions: Sendable, Equatable {
    enum Key: String { case fuzzSeconds, seed, workers, baselines }

    /// Seconds of fuzzing asked per contestant, in ``FieldRange/seconds``.
    public var fuzzSeconds: Double
    /// The fuzzing seed, as given (decimal text; it may exceed 2^53); ``ArenaLimits/label``.
    public var seed: String
    /// Worker processes, in ``ArenaLimits/workers``.
    public var workers: Int
    /// The engines every contestant's speed is compared with (each a contestant), in order; at
    /// most 64.
    public var baselines: [String]

    /// Options; see the properties.
    public init(fuzzSeconds: Double, seed: String, workers: Int, baselines: [String]) {
        self.fuzzSeconds = fuzzSeconds
        self.seed = seed
        self.workers = workers
        self.baselines = baselines
    }

    /// The options object (every member written). O(baselines).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.fuzzSeconds, fuzzSeconds)
        w.set(.seed, seed)
        w.set(.workers, workers)
        w.set(.baselines, strings: baselines)
        return w.json
    }

    /// Reads an options object: `fuzzSeconds` (in ``FieldRange/seconds``), `seed` (``ArenaLimits/label``)
    /// and `workers` (``ArenaLimits/workers``) required, `baselines` at most 64 names (absent: none).
    /// Whether each baseline is a contestant is checked by ``ArenaResults/init(json:source:)``.
    /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            fuzzSeconds: try row.requiredDouble(.fuzzSeconds, in: .seconds), seed: try row.requiredText(.seed, atMost: ArenaLimits.label),
            workers: try row.requiredInt(.workers, in: ArenaLimits.workers),
            baselines: try row.texts(.baselines, count: ArenaLimits.baselines, atMost: ArenaLimits.name))
    }
}

/// A `difflab-arena/1` results file: third-party diff libraries (and DiffLab's own engines as
/// baselines) fuzzed for UIKit batch-update validity and benchmarked for speed, written by the
/// arena command and read by `difflab report`.
///
/// ## What a valid file holds
/// - `schema`: exactly ``schema``; the run's provenance as a bench file has it (`createdAt`,
///   `seconds`, `machine`, `toolchain`, `commit`, `dirty`, all optional).
/// - `options` (required): see ``ArenaOptions``; every name in `baselines` is a contestant's engine.
/// - `contestants` (required): 1 to 64 ``ArenaContestant`` objects with distinct engine names.
/// - `bench` (optional): a complete `difflab-bench/1` document, read by
///   ``BenchResults/init(json:source:)``; its errors are named under `bench.` It may measure engines
///   that are not contestants (the floors, `stdlib`).
///
/// Unknown members are ignored, as in the other results files.
public struct ArenaResults: Sendable, Equatable {
    enum Key: String, ProvenanceKey {
        case schema, createdAt, seconds, machine, toolchain, commit, dirty, options, contestants, bench
        static var runSeconds: Key? { .seconds }
        static var dirtyFlag: Key? { .dirty }
    }

    /// The schema this type reads and writes.
    public static let schema = "difflab-arena/1"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made (with its `seconds` and `dirty` flag); the
    /// commit is DiffLab's.
    public var provenance = RunProvenance()
    /// What the run was asked to do.
    public var options: ArenaOptions
    /// The engines, in run order.
    public var contestants: [ArenaContestant]
    /// The benchmark of the contestants, when the run measured them.
    public var bench: BenchResults?

    /// A results file with no provenance; see the properties. Not checked:
    /// ``init(json:source:)`` checks files (a writer can read its ``json`` back to check it).
    public init(source: String = "", options: ArenaOptions, contestants: [ArenaContestant], bench: BenchResults? = nil) {
        self.source = source
        self.options = options
        self.contestants = contestants
        self.bench = bench
    }

    /// The results document (`commit` written as `null` when unknown, `bench` left out when
    /// absent). O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(provenance)
        w.set(.options, options.json)
        w.set(.contestants, .array(contestants.map(\.json)))
        w.set(.bench, bench?.json, null: false)
        return w.json
    }

    /// Reads an arena document; see the type's documentation for what is valid.
    ///
    /// - Throws: ``ResultsError`` naming `source` and the field: schema errors as for
    ///   ``BenchResults/init(json:source:)``; `createdAt` outside ``FieldRange/unixTime``, `seconds`
    ///   outside ``FieldRange/runSeconds``; a missing `options` or `contestants`; a number outside
    ///   its range, text longer than its ``ArenaLimits``, a name not in its list, or a count out of
    ///   range (contestants, failures, promise sources, baselines), each checked before the
    ///   elements are read; an engine name used twice; a baseline that names no contestant; and
    ///   every error of the embedded bench document under `bench.` (`bench.measurements[3].median`).
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        let options = try ArenaOptions(root.requiredObject(.options, ArenaOptions.Key.self))
        guard root.present(.contestants) != nil else { throw .missingField(source: source, path: root.path(.contestants)) }
        var contestants: [ArenaContestant] = []
        var seen: [String: Int] = [:]
        for (index, row) in try root.objects(.contestants, ArenaContestant.Key.self, count: ArenaLimits.contestants).enumerated() {
            let contestant = try ArenaContestant(row)
            if let first = seen[contestant.engine] {
                throw .invalid(
                    source: source, field: row.path(.engine),
                    expected: "an engine name no other contestant has (\"\(contestant.engine)\" is also contestants[\(first)]'s)")
            }
            seen[contestant.engine] = index
            contestants.append(contestant)
        }
        for (index, baseline) in options.baselines.enumerated() where seen[baseline] == nil {
            throw .invalid(
                source: source, field: "options.baselines[\(index)]",
                expected: "a contestant's engine name; \(JSONValue.string(baseline).briefDescription) names no contestant")
        }
        self.init(source: source, options: options, contestants: contestants)
        provenance = try root.provenance()
        if let document = root.present(.bench) {
            do {
                bench = try BenchResults(json: document, source: source)
            } catch {
                throw error.nested(under: root.path(.bench), schema: BenchResults.schema)
            }
        }
    }
}

/// Text limits of the arena file, in characters (Unicode scalars); the writer keeps within them
/// (``ArenaResults/init(json:source:)`` refuses longer text).
public enum ArenaLimits {
    /// Display names, versions, builds: 200.
    public static let label = FieldRange<Int>(0...200, "at most 200 characters")
    /// Short names (a property, an element kind, a revision): 64.
    public static let name = FieldRange<Int>(0...64, "at most 64 characters")
    /// Signatures, source addresses, build descriptions: 500.
    public static let line = FieldRange<Int>(0...500, "at most 500 characters")
    /// An adapter's description, a promise source, a replay command: 2,000.
    public static let sentence = FieldRange<Int>(0...2_000, "at most 2,000 characters")
    /// A counterexample list, a message, a batch update: 100,000.
    public static let text = FieldRange<Int>(0...100_000, "at most 100,000 characters")
    /// Contestants of one run: 1 to 64.
    public static let contestants = FieldRange<Int>(1...64, "1 to 64 contestants")
    /// Failures of one contestant: 0 to 1,000.
    public static let failures = FieldRange<Int>(0...1_000, "0 to 1,000 failures")
    /// Quoted promise sources of one contestant: 0 to 32.
    public static let promiseSources = FieldRange<Int>(0...32, "0 to 32 sources")
    /// Baselines of a run: 0 to 64 (each a contestant).
    public static let baselines = FieldRange<Int>(0...64, "0 to 64 baselines")
    /// Worker processes of a run: 1 to 1,024.
    public static let workers = FieldRange<Int>(1...1_024, "1 to 1,024 (worker processes)")
}

extension ResultsError {
    /// The error of a document of schema `schema` embedded at `prefix` (e.g. `bench`) in another,
    /// with its field path moved under `prefix` and schema errors turned into errors of that
    /// member. O(path).
    func nested(under prefix: String, schema expected: String) -> ResultsError {
        func joined(_ path: String) -> String {
            path.isEmpty || path == "the document" ? prefix : path.hasPrefix("[") ? prefix + path : prefix + "." + path
        }
        switch self {
        case .noInputs, .noMeasurements: return self
        case .notAnObject(let source, let found):
            return .wrongType(source: source, path: prefix, expected: "a JSON object", found: found)
        case .missingSchema(let source):
            return .missingField(source: source, path: prefix + ".schema")
        case .unknownSchema(let source, let schema):
            return .invalid(
                source: source, field: prefix + ".schema", expected: "the schema \"\(expected)\", not \(JSONValue.string(schema).briefDescription)")
        case .missingField(let source, let path):
            return .missingField(source: source, path: joined(path))
        case .wrongType(let source, let path, let expected, let found):
            return .wrongType(source: source, path: joined(path), expected: expected, found: found)
        case .outOfRange(let source, let path, let value, let allowed):
            return .outOfRange(source: source, path: joined(path), value: value, allowed: allowed)
        case .invalid(let source, let field, let expected):
            return .invalid(source: source, field: joined(field), expected: expected)
        }
    }
}
