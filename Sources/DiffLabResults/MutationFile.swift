import DiffLabJSON

// The mutation-testing files: the catalogue of planted bugs `difflab-dev mutate` reads
// (`Corpus/mutants/catalogue.json`, schema `difflab-mutants/1`, written by hand) and the results
// file it writes (`results/mutation-<time>.json`, schema `difflab-mutation/1`).

/// The area of DiffLab a planted bug lives in; the catalogue must cover every one.
public enum MutantArea: String, CaseIterable, Sendable {
    /// `HeckelEngine`.
    case heckel
    /// `HashMapEngine`.
    case hashmap
    /// `MyersEngine`.
    case myers
    /// `StdlibEngine`, the standard library adapter.
    case stdlib
    /// The result derivation's offsets moves, deletes, inserts and updates (`DiffResult(matching:)`).
    case offsets
    /// The result derivation's minimal moves (the longest increasing run).
    case minimalMoves = "minimal-moves"
    /// `forBatchUpdates()`.
    case batchConversion = "batch-conversion"
    /// `StagedChangeset`.
    case stagedChangesets = "staged-changesets"
    /// `BatchUpdate.sanitized()`.
    case sanitizer
    /// `BatchUpdate.violations()`.
    case validator
    /// `DataSource`'s decoding of libFuzzer bytes.
    case libFuzzerDecoding = "libfuzzer-decoding"
}

/// How a mutant is killed.
public enum MutantCheck: String, CaseIterable, Sendable {
    /// `difflab fuzz --seconds N --seed S --json` of the mutant's build: killed by an in-contract
    /// failure or a crash of the fuzzer.
    case fuzz
    /// `swift test --filter TESTFILTER` of the mutant's tree: killed by a failing test (for code the
    /// fuzzer's own run never reaches, such as the libFuzzer byte decoding).
    case swiftTest = "swift-test"
}

/// One planted bug of the catalogue.
public struct Mutant: Sendable, Equatable {
    enum Key: String { case name, patch, file, area, kind, bug, check, testFilter, quick, equivalent }

    /// 1 to 64 lower-case letters, digits and `-`; unique in the catalogue.
    public var name: String
    /// The patch's file name in the catalogue's folder: `NN-<name>.patch` (two digits or more).
    public var patch: String
    /// The source file the patch changes, relative to the package root.
    public var file: String
    /// The area it lives in.
    public var area: MutantArea
    /// The kind of bug (off-by-one, dropped comparison, …), for the table.
    public var kind: String
    /// What the bug is, in words.
    public var bug: String
    /// How it is killed.
    public var check: MutantCheck
    /// The `swift test --filter` expression, for ``MutantCheck/swiftTest`` only: 1 to 200 of
    /// letters, digits and `|._-`.
    public var testFilter: String?
    /// Whether it belongs to the quick subset (`difflab-dev mutate --quick`).
    public var quick: Bool
    /// Why no property can kill it, when it is an equivalent mutant; `nil` otherwise.
    public var equivalent: String?

    /// A mutant; see the properties.
    public init(
        name: String, patch: String, file: String, area: MutantArea, kind: String, bug: String, check: MutantCheck = .fuzz,
        testFilter: String? = nil, quick: Bool = false, equivalent: String? = nil
    ) {
        self.name = name
        self.patch = patch
        self.file = file
        self.area = area
        self.kind = kind
        self.bug = bug
        self.check = check
        self.testFilter = testFilter
        self.quick = quick
        self.equivalent = equivalent
    }

    /// The mutant object (`testFilter`, `quick` and `equivalent` only when set). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.name, name)
        w.set(.patch, patch)
        w.set(.file, file)
        w.set(.area, area.rawValue)
        w.set(.kind, kind)
        w.set(.bug, bug)
        w.set(.check, check.rawValue)
        w.set(.testFilter, testFilter)
        if quick { w.set(.quick, JSONValue.bool(true)) }
        w.set(.equivalent, equivalent)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        func invalid(_ key: Key, _ expected: String) -> ResultsError {
            .invalid(source: row.source, field: row.path(key), expected: expected)
        }
        let name = try row.requiredString(.name)
        guard isLowerSlug(name) else { throw invalid(.name, "1 to 64 lower-case letters, digits and '-' (got '\(name)')") }
        let patch = try row.requiredString(.patch)
        guard isPatchName(patch, for: name) else { throw invalid(.patch, "'NN-\(name).patch', NN two or more digits (got '\(patch)')") }
        let file = try row.requiredString(.file)
        guard isRelativePath(file) else { throw invalid(.file, "a relative path inside the package, without '..' (got '\(file)')") }
        let areaName = try row.requiredString(.area)
        guard let area = MutantArea(rawValue: areaName) else {
            throw invalid(.area, "one of \(MutantArea.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(areaName)')")
        }
        let kind = try row.requiredString(.kind)
        guard (1...100).contains(kind.count) else { throw invalid(.kind, "1 to 100 characters") }
        let bug = try row.requiredString(.bug)
        guard (1...2_000).contains(bug.count) else { throw invalid(.bug, "1 to 2,000 characters") }
        let checkName = try row.optionalString(.check) ?? MutantCheck.fuzz.rawValue
        guard let check = MutantCheck(rawValue: checkName) else {
            throw invalid(.check, "one of \(MutantCheck.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(checkName)')")
        }
        let testFilter = try row.optionalString(.testFilter)
        switch (check, testFilter) {
        case (.swiftTest, nil): throw invalid(.testFilter, "present when check is swift-test")
        case (.fuzz, .some): throw invalid(.testFilter, "absent when check is fuzz")
        case (.swiftTest, .some(let filter)) where !isTestFilter(filter):
            throw invalid(.testFilter, "1 to 200 letters, digits and '|._-' (got '\(filter)')")
        default: break
        }
        let equivalent = try row.optionalString(.equivalent)
        if let equivalent, !(10...2_000).contains(equivalent.count) {
            throw invalid(.equivalent, "the reason no property can kill the mutant, 10 to 2,000 characters")
        }
        self.init(
            name: name, patch: patch, file: file, area: area, kind: kind, bug: bug, check: check, testFilter: testFilter,
            quick: try row.optionalBool(.quick) ?? false, equivalent: equivalent)
    }
}

/// The catalogue of planted bugs, `difflab-mutants/1`.
public struct MutantCatalogue: Sendable, Equatable {
    enum Key: String { case schema, mutants }

    /// The schema this type reads and writes.
    public static let schema = "difflab-mutants/1"
    /// The most mutants a catalogue may list.
    public static let maxMutants = 1_000

    /// The mutants, in catalogue order; at least one, names unique.
    public var mutants: [Mutant]

    /// A catalogue of `mutants` (not checked; ``init(json:source:)`` checks what it reads).
    public init(mutants: [Mutant]) { self.mutants = mutants }

    /// The catalogue document. O(mutants).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(.mutants, .array(mutants.map(\.json)))
        return w.json
    }

    /// Reads a catalogue, treating it as hostile.
    ///
    /// - Throws: ``ResultsError`` naming `source` and the field: a wrong or missing schema, no
    ///   mutants or more than ``maxMutants``, and for a mutant (`mutants[3].area`) a missing field,
    ///   a wrong type, a name that is not a slug or is repeated, a patch name other than
    ///   `NN-<name>.patch`, a file path that is absolute or has `..`, an unknown area or check, a
    ///   test filter missing for `swift-test` or given for `fuzz`, or an empty reason.
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        let rows = try root.objects(.mutants, Mutant.Key.self)
        guard (1...Self.maxMutants).contains(rows.count) else {
            throw .invalid(source: source, field: root.path(.mutants), expected: "1 to \(Self.maxMutants) mutants (got \(rows.count))")
        }
        var mutants: [Mutant] = []
        var names: Set<String> = []
        for row in rows {
            let mutant = try Mutant(row)
            guard names.insert(mutant.name).inserted else {
                throw .invalid(source: source, field: row.path(.name), expected: "a name not used before (got '\(mutant.name)' again)")
            }
            mutants.append(mutant)
        }
        self.init(mutants: mutants)
    }
}

/// What happened to one mutant in a run.
public enum MutantOutcome: String, CaseIterable, Sendable {
    /// The check failed on the mutant: a property (or test) caught it, or the fuzzer crashed.
    case killed
    /// The check passed on the mutant.
    case survived
    /// The patch did not apply or the mutant did not build, or the check could not run: neither
    /// killed nor survived.
    case error
}

/// One mutant's record in a `difflab-mutation/1` file.
public struct MutantResult: Sendable, Equatable {
    enum Key: String {
        case name, area, check, equivalent, outcome, crashed, secondsToKill, inputsToKill, signature, shrunkItems, originalItems
        case buildSeconds, checkSeconds, note
    }

    /// The mutant's name in the catalogue.
    public var name: String
    /// Its area.
    public var area: MutantArea
    /// How it was checked.
    public var check: MutantCheck
    /// Whether the catalogue marks it equivalent (not counted in the score).
    public var equivalent: Bool
    /// What happened.
    public var outcome: MutantOutcome
    /// Killed by a crash (a trap or signal) of the fuzzer rather than by a property failure.
    public var crashed: Bool
    /// Seconds into the check when the killing failure was found, in ``FieldRange/runSeconds``.
    public var secondsToKill: Double?
    /// Inputs generated up to the killing one (fuzz check), in ``FieldRange/count``.
    public var inputsToKill: Int?
    /// The killing failure's signature (or the failing test).
    public var signature: String?
    /// Items (old + new) of the shrunk counterexample, in ``FieldRange/count``.
    public var shrunkItems: Int?
    /// Items of the counterexample before shrinking, in ``FieldRange/count``.
    public var originalItems: Int?
    /// Seconds the mutant's build took, in ``FieldRange/runSeconds``.
    public var buildSeconds: Double?
    /// Seconds the check took, in ``FieldRange/runSeconds``.
    public var checkSeconds: Double?
    /// Anything else worth saying (the error, the crash, a refuted equivalence claim).
    public var note: String?

    /// A record with nothing measured.
    public init(name: String, area: MutantArea, check: MutantCheck, equivalent: Bool, outcome: MutantOutcome) {
        self.name = name
        self.area = area
        self.check = check
        self.equivalent = equivalent
        self.outcome = outcome
        crashed = false
    }

    /// The record (absent figures are not written). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.name, name)
        w.set(.area, area.rawValue)
        w.set(.check, check.rawValue)
        w.set(.equivalent, equivalent)
        w.set(.outcome, outcome.rawValue)
        w.set(.crashed, crashed)
        w.set(.secondsToKill, secondsToKill)
        w.set(.inputsToKill, inputsToKill)
        w.set(.signature, signature)
        w.set(.shrunkItems, shrunkItems)
        w.set(.originalItems, originalItems)
        w.set(.buildSeconds, buildSeconds)
        w.set(.checkSeconds, checkSeconds)
        w.set(.note, note)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        func named<T: RawRepresentable & CaseIterable>(_ key: Key, _ type: T.Type) throws(ResultsError) -> T where T.RawValue == String {
            let text = try row.requiredString(key)
            guard let value = T(rawValue: text) else {
                throw .invalid(
                    source: row.source, field: row.path(key), expected: "one of \(T.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(text)')"
                )
            }
            return value
        }
        self.init(
            name: try row.requiredString(.name), area: try named(.area, MutantArea.self), check: try named(.check, MutantCheck.self),
            equivalent: try row.requiredBool(.equivalent), outcome: try named(.outcome, MutantOutcome.self))
        crashed = try row.requiredBool(.crashed)
        secondsToKill = try row.optionalDouble(.secondsToKill, in: .runSeconds)
        inputsToKill = try row.optionalInt(.inputsToKill, in: .count)
        signature = try row.optionalString(.signature)
        shrunkItems = try row.optionalInt(.shrunkItems, in: .count)
        originalItems = try row.optionalInt(.originalItems, in: .count)
        buildSeconds = try row.optionalDouble(.buildSeconds, in: .runSeconds)
        checkSeconds = try row.optionalDouble(.checkSeconds, in: .runSeconds)
        note = try row.optionalString(.note)
        guard outcome == .killed || !crashed else {
            throw .invalid(source: row.source, field: row.path(.crashed), expected: "false unless the outcome is killed")
        }
    }
}

/// A `difflab-mutation/1` results file, written by `difflab-dev mutate`.
public struct MutationFile: Sendable, Equatable {
    enum Key: String, ProvenanceKey {
        case schema, createdAt, machine, toolchain, commit, seconds, seed, catalogue, configuration, killed, scored, score, results
    }

    /// How the mutants were built: SwiftPM's build configuration.
    public enum Configuration: String, Sendable, Hashable, CaseIterable {
        /// `swift build -c release`: the binary users run (the default, and a file without the
        /// member).
        case release
        /// `swift build -c debug`: unoptimized; incremental builds of a mutant take seconds
        /// instead of minutes, and the fuzzer runs several times slower (CI's quick subset).
        case debug
    }

    /// The schema this type reads and writes.
    public static let schema = "difflab-mutation/1"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made.
    public var provenance = RunProvenance()
    /// Seconds of fuzzing per mutant, in ``FieldRange/runSeconds``.
    public var seconds: Double
    /// The fuzzing seed (any unsigned 64-bit integer, written as a decimal string).
    public var seed: UInt64
    /// The catalogue read (its path).
    public var catalogue: String
    /// How the mutants were built (`configuration`; absent in a file means ``Configuration/release``).
    public var configuration: Configuration = .release
    /// One record per mutant run, in catalogue order.
    public var results: [MutantResult]

    /// An empty file.
    public init(source: String = "", seconds: Double, seed: UInt64, catalogue: String) {
        self.source = source
        self.seconds = seconds
        self.seed = seed
        self.catalogue = catalogue
        results = []
    }

    /// The mutants the score counts: those not marked equivalent.
    public var scored: Int { results.filter { !$0.equivalent }.count }
    /// The scored mutants killed.
    public var killed: Int { results.filter { !$0.equivalent && $0.outcome == .killed }.count }
    /// ``killed`` / ``scored`` (1 when nothing is scored).
    public var score: Double { scored == 0 ? 1 : Double(killed) / Double(scored) }

    /// The results document (`commit` written as `null` when unknown; `killed`, `scored` and
    /// `score` derived from the records). O(results).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(provenance)
        w.set(.seconds, seconds)
        w.set(.seed, String(seed))
        w.set(.catalogue, catalogue)
        w.set(.configuration, configuration.rawValue)
        w.set(.killed, killed)
        w.set(.scored, scored)
        w.set(.score, score)
        w.set(.results, .array(results.map(\.json)))
        return w.json
    }

    /// Reads a mutation results document.
    ///
    /// - Throws: ``ResultsError`` naming `source` and the field: a wrong or missing schema, any
    ///   field of the wrong type or outside its range (see each property; `seed` a decimal string
    ///   of 0 to 2^64 − 1), an unknown area, check or outcome, `crashed` true for a mutant not
    ///   killed, and `killed`, `scored` or `score` that disagree with the records.
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        let seedText = try root.requiredString(.seed)
        guard !seedText.hasPrefix("+"), !seedText.hasPrefix("-"), let seed = UInt64(seedText) else {
            throw .invalid(source: source, field: root.path(.seed), expected: "a decimal string of 0 to 18446744073709551615 (got '\(seedText)')")
        }
        guard let seconds = try root.optionalDouble(.seconds, in: .runSeconds) else { throw .missingField(source: source, path: "seconds") }
        self.init(source: source, seconds: seconds, seed: seed, catalogue: try root.requiredString(.catalogue))
        provenance = try root.provenance()
        if root.present(.configuration) != nil { configuration = try root.requiredCase(.configuration, Configuration.self) }
        for row in try root.objects(.results, MutantResult.Key.self) { results.append(try MutantResult(row)) }
        let killed = try root.requiredInt(.killed, in: .count)
        let scored = try root.requiredInt(.scored, in: .count)
        guard let score = try root.optionalDouble(.score, in: .probability) else { throw .missingField(source: source, path: "score") }
        guard killed == self.killed else {
            throw .invalid(source: source, field: "killed", expected: "\(self.killed), the killed scored mutants listed")
        }
        guard scored == self.scored else { throw .invalid(source: source, field: "scored", expected: "\(self.scored), the scored mutants listed") }
        guard abs(score - self.score) < 1e-9 else { throw .invalid(source: source, field: "score", expected: "killed / scored = \(self.score)") }
    }
}

/// Whether `patch` is `NN-<name>.patch` with two or more digits NN.
private func isPatchName(_ patch: String, for name: String) -> Bool {
    let suffix = "-" + name + ".patch"
    guard patch.hasSuffix(suffix) else { return false }
    let digits = patch.utf8.dropLast(suffix.utf8.count)
    return (2...6).contains(digits.count) && digits.allSatisfy { (0x30...0x39).contains($0) }
}

/// Whether `path` is relative, non-empty, at most 300 bytes, and has no `..`, empty or `.`
/// component and no control character.
private func isRelativePath(_ path: String) -> Bool {
    guard (1...300).contains(path.utf8.count), !path.hasPrefix("/"), path.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7f }) else { return false }
    return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
}

/// Whether `filter` is 1 to 200 ASCII letters, digits and `|._-`.
private func isTestFilter(_ filter: String) -> Bool {
    (1...200).contains(filter.utf8.count)
        && filter.utf8.allSatisfy { byte in
            (0x61...0x7a).contains(byte) || (0x41...0x5a).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x7c || byte == 0x2e
                || byte == 0x5f || byte == 0x2d
        }
}
