import DiffLabJSON

/// The `options` object of an arena file: what the run was asked to do.
public struct ArenaOptions: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = ArenaOptions(fuzzSeconds: 0, seed: "", workers: 1, baselines: [])

    /// The declaration table (every member written). Whether each baseline is a contestant is
    /// checked by ``ArenaResults``.
    @_spi(Records) public static let fields: [RecordField<ArenaOptions>] = [
        .required("fuzzSeconds", \.fuzzSeconds, .seconds, "seconds of fuzzing asked per contestant"),
        .required("seed", \.seed, .text(atMost: ArenaLimits.label), "the fuzzing seed, as given (decimal text)"),
        .required("workers", \.workers, .int(ArenaLimits.workers), "worker processes"),
        .list(
            "baselines", \.baselines, .text(atMost: ArenaLimits.name), count: ArenaLimits.baselines, written: .always,
            "the engines every contestant's speed is compared with"),
    ]
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
///   ``BenchResults/init(json:source:path:)``; its errors are named under `bench.` It may measure engines
///   that are not contestants (the floors, `stdlib`).
///
/// Unknown members are ignored, as in the other results files.
public struct ArenaResults: ResultsRecord, Equatable {
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
    /// ``init(json:source:path:)`` checks files (a writer can read its ``json`` back to check it).
    public init(source: String = "", options: ArenaOptions, contestants: [ArenaContestant], bench: BenchResults? = nil) {
        self.source = source
        self.options = options
        self.contestants = contestants
        self.bench = bench
    }

    @_spi(Records) public static let blank = ArenaResults(options: .blank, contestants: [])
    public static var documentSchema: String? { schema }

    /// The declaration table: the provenance as a bench file has it (`commit` written as `null`
    /// when unknown), then `options`, `contestants` (their count checked before they are read) and
    /// the embedded bench document (left out when absent; its errors named under `bench.`).
    @_spi(Records) public static let fields: [RecordField<ArenaResults>] =
        RecordField.inline(\.provenance)
        + [
            .required("options", \.options, .record(), "what the run was asked to do"),
            .required("contestants", \.contestants, .array(.record(), count: ArenaLimits.contestants), "the engines, in run order"),
            .optional("bench", \.bench, .document(), "the benchmark of the contestants, when the run measured them"),
        ]

    /// Notes the file's name; refuses an engine name used twice and a baseline that names no
    /// contestant.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        var seen: [String: Int] = [:]
        for (index, contestant) in contestants.enumerated() {
            if let first = seen[contestant.engine] {
                throw .invalid(
                    source: source, field: position.member("contestants").element(index).member("engine").named,
                    expected: "an engine name no other contestant has (\"\(contestant.engine)\" is also contestants[\(first)]'s)")
            }
            seen[contestant.engine] = index
        }
        for (index, baseline) in options.baselines.enumerated() where seen[baseline] == nil {
            throw .invalid(
                source: source, field: position.member("options").member("baselines").element(index).named,
                expected: "a contestant's engine name; \(JSONValue.string(baseline).briefDescription) names no contestant")
        }
    }
}

/// Text limits of the arena file, in characters (Unicode scalars); the writer keeps within them
/// (``ArenaResults/init(json:source:path:)`` refuses longer text).
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
