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
public struct Mutant: ResultsRecord, Equatable {
    /// 1 to 64 lower-case letters, digits and `-`; unique in the catalogue.
    public var name: String
    /// The patch's file name in the catalogue's folder: `NN-<name>.patch` (two digits or more).
    public var patch: String
    /// The source file the patch changes, relative to the package root.
    public var file: String
    /// The area it lives in.
    public var area: MutantArea
    /// The kind of bug (off-by-one, dropped comparison, …), for the table: 1 to 100 characters.
    public var kind: String
    /// What the bug is, in words: 1 to 2,000 characters.
    public var bug: String
    /// How it is killed.
    public var check: MutantCheck
    /// The `swift test --filter` expression, for ``MutantCheck/swiftTest`` only: 1 to 200 of
    /// letters, digits and `|._-`.
    public var testFilter: String?
    /// Whether it belongs to the quick subset (`difflab-dev mutate --quick`).
    public var quick: Bool
    /// Why no property can kill it, when it is an equivalent mutant (10 to 2,000 characters);
    /// `nil` otherwise.
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

    @_spi(Records) public static let blank = Mutant(name: "", patch: "", file: "", area: .heckel, kind: "", bug: "")

    /// The declaration table (`testFilter`, `quick` and `equivalent` written only when set).
    @_spi(Records) public static let fields: [RecordField<Mutant>] = [
        .required("name", \.name, FieldType.string.checked("1 to 64 lower-case letters, digits and '-'", isLowerSlug), "the mutant's name"),
        .required("patch", \.patch, .string, "the patch's file name, `NN-<name>.patch`"),
        .required(
            "file", \.file, FieldType.string.checked("a relative path inside the package, without '..'", isRelativePath),
            "the source file the patch changes"),
        .required("area", \.area, .cases(), "the area the bug lives in"),
        .required("kind", \.kind, .text(atMost: FieldRange(1...100)), "the kind of bug"),
        .required("bug", \.bug, .text(atMost: FieldRange(1...2_000)), "what the bug is"),
        .defaulted("check", \.check, .cases(), default: .fuzz, written: .always, "how it is killed"),
        .optional(
            "testFilter", \.testFilter, FieldType.string.checked("1 to 200 letters, digits and '|._-'", isTestFilter),
            "the `swift test --filter` expression, for `swift-test` only"),
        .defaulted("quick", \.quick, .bool, default: false, "whether it belongs to the quick subset"),
        .optional(
            "equivalent", \.equivalent, .text(atMost: FieldRange(10...2_000)),
            "why no property can kill it, for an equivalent mutant"),
    ]

    /// Refuses a patch name other than `NN-<name>.patch`, and a test filter missing for
    /// `swift-test` or given for `fuzz`.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        func invalid(_ key: String, _ expected: String) -> ResultsError {
            .invalid(source: position.source, field: position.member(key).named, expected: expected)
        }
        guard isPatchName(patch, for: name) else { throw invalid("patch", "'NN-\(name).patch', NN two or more digits (got '\(patch)')") }
        switch (check, testFilter) {
        case (.swiftTest, nil): throw invalid("testFilter", "present when check is swift-test")
        case (.fuzz, .some): throw invalid("testFilter", "absent when check is fuzz")
        default: break
        }
    }
}

/// The catalogue of planted bugs, `difflab-mutants/1`.
public struct MutantCatalogue: ResultsRecord, Equatable {
    /// The schema this type reads and writes.
    public static let schema = "difflab-mutants/1"
    /// The most mutants a catalogue may list.
    public static let maxMutants = 1_000

    /// What the caller called the input (usually its path); not written.
    public var source = ""
    /// The mutants, in catalogue order; at least one, names unique.
    public var mutants: [Mutant]

    /// A catalogue of `mutants` (not checked; reading a file checks it).
    public init(source: String = "", mutants: [Mutant]) {
        self.source = source
        self.mutants = mutants
    }

    @_spi(Records) public static let blank = MutantCatalogue(mutants: [])
    public static var documentSchema: String? { schema }

    /// The declaration table: 1 to ``maxMutants`` mutants.
    @_spi(Records) public static let fields: [RecordField<MutantCatalogue>] = [
        .required("mutants", \.mutants, .array(.record(), count: FieldRange(1...maxMutants, unit: "mutants")), "the planted bugs, in catalogue order")
    ]

    /// Refuses a mutant name used twice; notes the file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        var names: Set<String> = []
        for (index, mutant) in mutants.enumerated() where !names.insert(mutant.name).inserted {
            throw .invalid(
                source: source, field: position.member("mutants").element(index).member("name").named,
                expected: "a name not used before (got '\(mutant.name)' again)")
        }
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
public struct MutantResult: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = MutantResult(name: "", area: .heckel, check: .fuzz, equivalent: false, outcome: .error)

    /// The declaration table (absent figures are not written).
    @_spi(Records) public static let fields: [RecordField<MutantResult>] = [
        .required("name", \.name, .string, "the mutant's name in the catalogue"),
        .required("area", \.area, .cases(), "its area"),
        .required("check", \.check, .cases(), "how it was checked"),
        .required("equivalent", \.equivalent, .bool, "whether the catalogue marks it equivalent (not scored)"),
        .required("outcome", \.outcome, .cases(), "what happened"),
        .required("crashed", \.crashed, .bool, "killed by a crash of the fuzzer rather than a property"),
        .optional("secondsToKill", \.secondsToKill, .double(.runSeconds), "seconds into the check when the killing failure was found"),
        .optional("inputsToKill", \.inputsToKill, .int(.count), "inputs generated up to the killing one"),
        .optional("signature", \.signature, .string, "the killing failure's signature, or the failing test"),
        .optional("shrunkItems", \.shrunkItems, .int(.count), "items of the shrunk counterexample"),
        .optional("originalItems", \.originalItems, .int(.count), "items of the counterexample before shrinking"),
        .optional("buildSeconds", \.buildSeconds, .double(.runSeconds), "seconds the mutant's build took"),
        .optional("checkSeconds", \.checkSeconds, .double(.runSeconds), "seconds the check took"),
        .optional("note", \.note, .string, "anything else worth saying"),
    ]

    /// Refuses `crashed` for a mutant not killed.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        guard outcome == .killed || !crashed else {
            throw .invalid(source: position.source, field: position.member("crashed").named, expected: "false unless the outcome is killed")
        }
    }
}

/// A `difflab-mutation/1` results file, written by `difflab-dev mutate`.
public struct MutationFile: ResultsRecord, Equatable {
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
    public var configuration: Configuration {
        get { writtenConfiguration ?? .release }
        set { writtenConfiguration = newValue }
    }
    /// The `configuration` member: always written by a new file, `nil` for a file written before
    /// the member existed (so it writes back without it).
    private var writtenConfiguration: Configuration? = .release
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

    /// `killed`, `scored` and `score` as a file states them, from reading them until
    /// `finishDecoding(at:)` checks them against the records (then empty again).
    private var stated = Stated()
    private struct Stated: Sendable, Equatable {
        var killed: Int?
        var scored: Int?
        var score: Double?
    }
    // The members the table reads and writes: written from the records, read into `stated`.
    private var killedMember: Int {
        get { killed }
        set { stated.killed = newValue }
    }
    private var scoredMember: Int {
        get { scored }
        set { stated.scored = newValue }
    }
    private var scoreMember: Double {
        get { score }
        set { stated.score = newValue }
    }

    @_spi(Records) public static let blank: MutationFile = {
        var blank = MutationFile(seconds: 0, seed: 0, catalogue: "")
        blank.writtenConfiguration = nil
        return blank
    }()
    public static var documentSchema: String? { schema }

    /// The declaration table: the provenance stamp (`commit` written as `null` when unknown),
    /// then `killed`, `scored` and `score` derived from the records (and checked against them).
    @_spi(Records) public static let fields: [RecordField<MutationFile>] =
        RecordField.inline(\.provenance, RunProvenance.stamp)
        + [
            .required("seconds", \.seconds, .double(.runSeconds), "seconds of fuzzing per mutant"),
            .required("seed", \.seed, .decimalUInt64, "the fuzzing seed"),
            .required("catalogue", \.catalogue, .string, "the catalogue read (its path)"),
            .optional("configuration", \.writtenConfiguration, .cases(), "how the mutants were built (absent: `release`)"),
            .required("killed", \.killedMember, .int(.count), "the scored mutants killed"),
            .required("scored", \.scoredMember, .int(.count), "the mutants not marked equivalent"),
            .required("score", \.scoreMember, .double(.probability), "killed ÷ scored (1 when nothing is scored)"),
            .list("results", \.results, .record(), written: .always, "one record per mutant run, in catalogue order"),
        ]

    /// Refuses `killed`, `scored` or `score` that disagree with the records; notes the file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        defer { stated = Stated() }
        guard stated.killed == killed else {
            throw .invalid(source: source, field: "killed", expected: "\(killed), the killed scored mutants listed")
        }
        guard stated.scored == scored else { throw .invalid(source: source, field: "scored", expected: "\(scored), the scored mutants listed") }
        guard let statedScore = stated.score, abs(statedScore - score) < 1e-9 else {
            throw .invalid(source: source, field: "score", expected: "killed / scored = \(score)")
        }
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

/// Whether `text` is 1 to 64 lower-case ASCII letters, digits and `-` (a mutant's name). O(1).
package func isLowerSlug(_ text: String) -> Bool {
    (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
}
