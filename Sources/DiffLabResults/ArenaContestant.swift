import DiffLabCore
import DiffLabJSON

/// What a contestant of the arena is.
public enum ArenaRole: String, Sendable, Hashable, CaseIterable {
    /// A third-party diff library, through DiffLab's adapter (its failures get bug reports).
    case library
    /// One of DiffLab's own engines (a baseline).
    case difflab
    /// An adapter that applies no library: it measures what the adapter layer itself costs.
    case identityAdapter = "identity-adapter"
}

extension EnginePromises: ResultsRecord {
    @_spi(Records) public static let blank = EnginePromises()

    /// The promises object of an arena file, every member required and written; the same members
    /// as the `promises` of the engine protocol's hello (which its own reader checks more
    /// strictly: it refuses unknown members).
    @_spi(Records) public static let fields: [RecordField<EnginePromises>] = [
        .required("duplicates", \.supportsDuplicates, .bool, "whether repeated identifiers are supported"),
        .required("minimalMoves", \.minimalMoves, .bool, "whether the moves are the fewest"),
        .required("reference", \.reference, .cases(), "the reference the result equals"),
    ]
}

/// How long a contestant was fuzzed and on how much.
public struct ArenaFuzzCounts: ResultsRecord, Equatable {
    /// Seconds of fuzzing, in ``FieldRange/seconds``.
    public var seconds: Double
    /// Inputs generated, in ``FieldRange/count``.
    public var inputs: Int
    /// Property checks run on them (inputs × properties × element kinds …), in ``FieldRange/count``.
    public var cases: Int

    /// Counts; see the properties.
    public init(seconds: Double, inputs: Int, cases: Int) {
        self.seconds = seconds
        self.inputs = inputs
        self.cases = cases
    }

    @_spi(Records) public static let blank = ArenaFuzzCounts(seconds: 0, inputs: 0, cases: 0)

    /// The declaration table: every member required.
    @_spi(Records) public static let fields: [RecordField<ArenaFuzzCounts>] = [
        .required("seconds", \.seconds, .seconds, "seconds of fuzzing"),
        .required("inputs", \.inputs, .int(.count), "inputs generated"),
        .required("cases", \.cases, .int(.count), "property checks run on them"),
    ]
}

/// One engine of an arena run: what it is, what it promises and where that is written, how long
/// it was fuzzed, and what the fuzzer found (an element of the `contestants` array of a
/// `difflab-arena/1` file).
public struct ArenaContestant: ResultsRecord, Equatable {
    /// The engine name (1 to 64 lower-case letters, digits, `-`, `_` and `.`, starting with a letter or
    /// digit), as bench cells name it.
    public var engine: String
    /// A library, DiffLab's own engine, or the identity adapter.
    public var role: ArenaRole
    /// Where the engine comes from, as its adapter states it (``EngineAbout``), written as the
    /// contestant's own members: `library` and `version` (each ``ArenaLimits/label``), `revision`
    /// (``ArenaLimits/name``), `source` and `build` (``ArenaLimits/line``), `adapter`
    /// (``ArenaLimits/sentence``), and `promiseSources` (at most 32, each ``ArenaLimits/sentence``).
    public var about: EngineAbout
    /// What the adapter declares the engine promises.
    public var promises: EnginePromises
    /// Whether sectioned input was fuzzed too (stage by stage); when not, no failure is sectioned.
    public var sectioned: Bool
    /// How long and on how much it was fuzzed.
    public var fuzz: ArenaFuzzCounts
    /// What the fuzzer found, at most 1,000, in the order found.
    public var failures: [ArenaFailure]

    /// A contestant; see the properties. Not checked: ``ArenaResults/init(json:source:path:)`` checks files.
    public init(
        engine: String, role: ArenaRole, about: EngineAbout, promises: EnginePromises, sectioned: Bool, fuzz: ArenaFuzzCounts,
        failures: [ArenaFailure] = []
    ) {
        self.engine = engine
        self.role = role
        self.about = about
        self.promises = promises
        self.sectioned = sectioned
        self.fuzz = fuzz
        self.failures = failures
    }

    /// The name to show for the contestant: its library's, or its engine's when that is empty. O(1).
    public var displayName: String { about.library.isEmpty ? engine : about.library }

    @_spi(Records) public static let blank = ArenaContestant(
        engine: "", role: .library, about: EngineAbout(library: "", version: ""), promises: EnginePromises(), sectioned: false,
        fuzz: .blank)

    /// The declaration table: `about`'s members written as the contestant's own (absent optional
    /// ones left out); `promiseSources` and `failures` always written, each count checked before
    /// its elements are read. Unknown members are ignored.
    @_spi(Records) public static let fields: [RecordField<ArenaContestant>] = [
        .required("engine", \.engine, .engineName, "the engine name, as bench cells name it"),
        .required("role", \.role, .cases(), "a library, DiffLab's own engine, or the identity adapter"),
        .required("library", \.about.library, .text(atMost: ArenaLimits.label), "the library's name"),
        .required("version", \.about.version, .text(atMost: ArenaLimits.label), "the library's version"),
        .optional("revision", \.about.revision, .text(atMost: ArenaLimits.name), "the library's revision"),
        .optional("source", \.about.source, .text(atMost: ArenaLimits.line), "where the library comes from"),
        .optional("build", \.about.build, .text(atMost: ArenaLimits.line), "how it was built"),
        .optional("adapter", \.about.adapter, .text(atMost: ArenaLimits.sentence), "what DiffLab's adapter does"),
        .optional("native", \.about.native, .bool, "whether the library's diff runs as compiled code, not in an interpreter"),
        .required("promises", \.promises, .record(), "what the adapter declares the engine promises"),
        .list(
            "promiseSources", \.about.promiseSources, .text(atMost: ArenaLimits.sentence), count: ArenaLimits.promiseSources, written: .always,
            "where each promise is written"),
        .required("sectioned", \.sectioned, .bool, "whether sectioned input was fuzzed too"),
        .required("fuzz", \.fuzz, .record(), "how long and on how much it was fuzzed"),
        .list("failures", \.failures, .record(), count: ArenaLimits.failures, written: .always, "what the fuzzer found, in the order found"),
    ]

    /// Refuses a sectioned failure of a contestant not fuzzed on sectioned input (the file
    /// contradicts itself).
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        guard !sectioned, let index = failures.firstIndex(where: { $0.scope != .flat }) else { return }
        throw .invalid(
            source: position.source, field: position.member("failures").element(index).member("scope").named,
            expected: "\"flat\": the contestant's sectioned is false")
    }
}
