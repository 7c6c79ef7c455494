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

extension EnginePromises {
    /// The member names of a promises object, each written once.
    enum Key: String { case duplicates, minimalMoves, reference }

    /// The promises object of an arena file: `duplicates`, `minimalMoves` and `reference`
    /// (``EngineReference``'s raw value), every member written; the same members as the
    /// `promises` of the engine protocol's hello (which its own reader checks more strictly:
    /// it refuses unknown members). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.duplicates, supportsDuplicates)
        w.set(.minimalMoves, minimalMoves)
        w.set(.reference, reference.rawValue)
        return w.json
    }

    /// Reads a promises object: every member required, `reference` one of ``EngineReference``'s
    /// raw values. - Throws: ``ResultsError`` naming the field. - Complexity: O(1).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            supportsDuplicates: try row.requiredBool(.duplicates), minimalMoves: try row.requiredBool(.minimalMoves),
            reference: try row.requiredCase(.reference, EngineReference.self))
    }
}

/// How long a contestant was fuzzed and on how much.
public struct ArenaFuzzCounts: Sendable, Equatable {
    enum Key: String { case seconds, inputs, cases }

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

    /// The fuzz object. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.seconds, seconds)
        w.set(.inputs, inputs)
        w.set(.cases, cases)
        return w.json
    }

    /// Reads a fuzz object: every member required, `seconds` in ``FieldRange/seconds``, counts in
    /// ``FieldRange/count``. - Throws: ``ResultsError`` naming the field. - Complexity: O(1).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            seconds: try row.requiredDouble(.seconds, in: .seconds), inputs: try row.requiredInt(.inputs, in: .count),
            cases: try row.requiredInt(.cases, in: .count))
    }
}

/// One engine of an arena run: what it is, what it promises and where that is written, how long
/// it was fuzzed, and what the fuzzer found (an element of the `contestants` array of a
/// `difflab-arena/1` file).
public struct ArenaContestant: Sendable, Equatable {
    enum Key: String {
        case engine, role, library, version, revision, source, build, adapter, promises, promiseSources, sectioned, fuzz, failures
    }

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

    /// A contestant; see the properties. Not checked: ``ArenaResults/init(json:source:)`` checks files.
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

    /// The contestant object (absent optional members are left out; `promiseSources` and
    /// `failures` always written). O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.engine, engine)
        w.set(.role, role.rawValue)
        w.set(.library, about.library)
        w.set(.version, about.version)
        w.set(.revision, about.revision)
        w.set(.source, about.source)
        w.set(.build, about.build)
        w.set(.adapter, about.adapter)
        w.set(.promises, promises.json)
        w.set(.promiseSources, strings: about.promiseSources)
        w.set(.sectioned, sectioned)
        w.set(.fuzz, fuzz.json)
        w.set(.failures, .array(failures.map(\.json)))
        return w.json
    }

    /// Reads a contestant object.
    ///
    /// - Parameters:
    ///   - json: the contestant object.
    ///   - source: the file it comes from, for messages.
    ///   - path: the object's JSON path in its file, for messages (e.g. `contestants[1]`).
    /// - Throws: ``ResultsError`` naming the field: a missing required member (all but `revision`,
    ///   `source`, `build`, `adapter`, `promiseSources` and `failures`), a wrong type, an engine
    ///   name that is not a valid engine name (1 to 64 of `[a-z0-9._-]`, starting with a letter or digit), a role or reference not listed, text longer than
    ///   its ``ArenaLimits``, more than 32 promise sources or 1,000 failures (refused before they
    ///   are read), `fuzz.seconds` outside ``FieldRange/seconds`` and counts outside
    ///   ``FieldRange/count``, a failure of scope `sectioned` when `sectioned` is false, and every
    ///   error of ``ArenaFailure/init(json:source:path:)``.
    ///   Unknown members are ignored.
    /// - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        let about = EngineAbout(
            library: try row.requiredText(.library, atMost: ArenaLimits.label), version: try row.requiredText(.version, atMost: ArenaLimits.label),
            revision: try row.optionalText(.revision, atMost: ArenaLimits.name), source: try row.optionalText(.source, atMost: ArenaLimits.line),
            build: try row.optionalText(.build, atMost: ArenaLimits.line), adapter: try row.optionalText(.adapter, atMost: ArenaLimits.sentence),
            promiseSources: try row.texts(.promiseSources, count: ArenaLimits.promiseSources, atMost: ArenaLimits.sentence))
        self.init(
            engine: try row.requiredEngineName(.engine), role: try row.requiredCase(.role, ArenaRole.self), about: about,
            promises: try EnginePromises(row.requiredObject(.promises, EnginePromises.Key.self)),
            sectioned: try row.requiredBool(.sectioned), fuzz: try ArenaFuzzCounts(row.requiredObject(.fuzz, ArenaFuzzCounts.Key.self)))
        for failure in try row.objects(.failures, ArenaFailure.Key.self, count: ArenaLimits.failures) {
            let read = try ArenaFailure(failure)
            // A sectioned failure of a contestant not fuzzed on sectioned input: the file contradicts itself.
            guard sectioned || read.scope == .flat else {
                throw .invalid(source: row.source, field: failure.path(.scope), expected: "\"flat\": the contestant's sectioned is false")
            }
            failures.append(read)
        }
    }
}
