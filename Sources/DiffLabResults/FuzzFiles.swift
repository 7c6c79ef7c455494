import DiffLabJSON

// The files `difflab fuzz` writes besides its regression cases (`RegressionCase` in DiffLabFuzz,
// one file per counterexample):
// - the `--json` summary, the last line of its standard output (``FuzzSummaryFile``, its failures
//   ``FuzzFailureRecord``s), read back by `difflab mutate`;
// - the findings a crash-isolated campaign process hands to its supervisor, one
//   ``FuzzFindingRecord`` per line of a file in the run's private folder.
// Each is declared once, by its table, like every record here.

/// One failure of a `difflab fuzz --json` summary.
public struct FuzzFailureRecord: ResultsRecord, Equatable {
    /// `<property>/<engine>/<detail>`.
    public var signature: String
    /// What failed, in words.
    public var message: String
    /// Where the shrunk counterexample was saved (or would have been, when saving failed).
    public var file: String
    /// Items of the failing input before shrinking (old and new lists together), in ``FieldRange/size``.
    public var originalItems: Int
    /// Items of the shrunk counterexample, in ``FieldRange/size``.
    public var shrunkItems: Int
    /// Whether the input lies outside the engine's contract (reported, not a failed run).
    public var outsideContract: Bool
    /// The 1-based number of the input that failed, in ``FieldRange/count``.
    public var inputsToFind: Int
    /// Seconds into the run when the failing input was checked, in ``FieldRange/runSeconds``.
    public var secondsToFind: Double
    /// Whether the failure is a crash or a hang of the engine (crash-isolated fuzzing).
    public var crashed: Bool

    /// A record; see the properties.
    public init(
        signature: String, message: String, file: String, originalItems: Int, shrunkItems: Int, outsideContract: Bool,
        inputsToFind: Int, secondsToFind: Double, crashed: Bool
    ) {
        self.signature = signature
        self.message = message
        self.file = file
        self.originalItems = originalItems
        self.shrunkItems = shrunkItems
        self.outsideContract = outsideContract
        self.inputsToFind = inputsToFind
        self.secondsToFind = secondsToFind
        self.crashed = crashed
    }

    @_spi(Records) public static let blank = FuzzFailureRecord(
        signature: "", message: "", file: "", originalItems: 0, shrunkItems: 0, outsideContract: false, inputsToFind: 0, secondsToFind: 0,
        crashed: false)

    /// The declaration table: every member required.
    @_spi(Records) public static let fields: [RecordField<FuzzFailureRecord>] = [
        .required("signature", \.signature, .string, "`<property>/<engine>/<detail>`"),
        .required("message", \.message, .string, "what failed, in words"),
        .required("file", \.file, .string, "where the shrunk counterexample was saved"),
        .required("originalItems", \.originalItems, .int(.size), "items of the failing input before shrinking"),
        .required("shrunkItems", \.shrunkItems, .int(.size), "items of the shrunk counterexample"),
        .required("outsideContract", \.outsideContract, .bool, "whether the input lies outside the engine's contract"),
        .required("inputsToFind", \.inputsToFind, .int(.count), "the 1-based number of the input that failed"),
        .required("secondsToFind", \.secondsToFind, .double(.runSeconds), "seconds into the run when it was checked"),
        .required("crashed", \.crashed, .bool, "whether the engine crashed or hung"),
    ]
}

/// The summary `difflab fuzz --json` prints as the last line of its standard output.
public struct FuzzSummaryFile: ResultsRecord, Equatable {
    /// Checks run (one property on one engine for one input), in ``FieldRange/count``.
    public var cases: Int
    /// Inputs generated, in ``FieldRange/count``.
    public var inputs: Int
    /// Wall-clock seconds of the campaign, in ``FieldRange/runSeconds``.
    public var seconds: Double
    /// `cases / seconds`, rounded down, in ``FieldRange/count``.
    public var casesPerSecond: Int
    /// Large lists generated, in ``FieldRange/count``.
    public var largeInputs: Int
    /// Items of the largest input, in ``FieldRange/size``.
    public var largestInput: Int
    /// Inputs per element kind, in the fuzzer's order of kinds (every kind, 0 when none ran).
    /// The kinds are DiffLabFuzz's `FuzzElementKind` names, kept as text here (the module above
    /// owns them); nothing reads them back but people.
    public var inputsByKind: [(kind: String, inputs: Int)]
    /// The failures, in the order found.
    public var failures: [FuzzFailureRecord]

    /// A summary; see the properties.
    public init(
        cases: Int, inputs: Int, seconds: Double, casesPerSecond: Int, largeInputs: Int, largestInput: Int,
        inputsByKind: [(kind: String, inputs: Int)], failures: [FuzzFailureRecord]
    ) {
        self.cases = cases
        self.inputs = inputs
        self.seconds = seconds
        self.casesPerSecond = casesPerSecond
        self.largeInputs = largeInputs
        self.largestInput = largestInput
        self.inputsByKind = inputsByKind
        self.failures = failures
    }

    /// Two summaries are equal when every member is (the kinds in the same order).
    public static func == (a: FuzzSummaryFile, b: FuzzSummaryFile) -> Bool {
        a.cases == b.cases && a.inputs == b.inputs && a.seconds == b.seconds && a.casesPerSecond == b.casesPerSecond
            && a.largeInputs == b.largeInputs && a.largestInput == b.largestInput
            && a.inputsByKind.map(\.kind) == b.inputsByKind.map(\.kind) && a.inputsByKind.map(\.inputs) == b.inputsByKind.map(\.inputs)
            && a.failures == b.failures
    }

    @_spi(Records) public static let blank = FuzzSummaryFile(
        cases: 0, inputs: 0, seconds: 0, casesPerSecond: 0, largeInputs: 0, largestInput: 0, inputsByKind: [], failures: [])

    /// The declaration table: every member required.
    @_spi(Records) public static let fields: [RecordField<FuzzSummaryFile>] = [
        .required("cases", \.cases, .int(.count), "checks run (one property on one engine for one input)"),
        .required("inputs", \.inputs, .int(.count), "inputs generated"),
        .required("seconds", \.seconds, .double(.runSeconds), "wall-clock seconds of the campaign"),
        .required("casesPerSecond", \.casesPerSecond, .int(.count), "cases per second, rounded down"),
        .required("largeInputs", \.largeInputs, .int(.count), "large lists generated"),
        .required("largestInput", \.largestInput, .int(.size), "items of the largest input"),
        .required(
            "inputsByKind", \.inputsByKind, .members(.int(.count), join: { (kind: $0, inputs: $1) }, split: { ($0.kind, $0.inputs) }),
            "inputs per element kind, in the fuzzer's order"),
        .required("failures", \.failures, .array(.record()), "the failures, in the order found"),
    ]
}

/// One failure as a crash-isolated campaign process hands it to its supervisor: its regression
/// case (the object of a regression file, `RegressionCase.json`) and the run's figures about it.
public struct FuzzFindingRecord: ResultsRecord, Equatable {
    /// The regression case, as in a regression file (decoded by `RegressionCase(json:)`).
    public var regression: JSONValue
    /// Items of the failing input before shrinking, in ``FieldRange/size``.
    public var originalItems: Int
    /// The 1-based number of the input that failed, in ``FieldRange/count``.
    public var inputsToFind: Int
    /// Shrinking candidates tried, in ``FieldRange/count``.
    public var shrinkAttempts: Int
    /// Seconds into the campaign process's run when the failing input was checked, in
    /// ``FieldRange/runSeconds``.
    public var secondsToFind: Double

    /// A record; see the properties.
    public init(regression: JSONValue, originalItems: Int, inputsToFind: Int, shrinkAttempts: Int, secondsToFind: Double) {
        self.regression = regression
        self.originalItems = originalItems
        self.inputsToFind = inputsToFind
        self.shrinkAttempts = shrinkAttempts
        self.secondsToFind = secondsToFind
    }

    @_spi(Records) public static let blank = FuzzFindingRecord(
        regression: .object(JSONObject()), originalItems: 0, inputsToFind: 0, shrinkAttempts: 0, secondsToFind: 0)

    /// The declaration table: every member required (`regression` an object, checked by its own decoder).
    @_spi(Records) public static let fields: [RecordField<FuzzFindingRecord>] = [
        .required("regression", \.regression, FieldType.any.checked("an object") { $0.objectValue != nil }, "the regression case's object"),
        .required("originalItems", \.originalItems, .int(.size), "items of the failing input before shrinking"),
        .required("inputsToFind", \.inputsToFind, .int(.count), "the 1-based number of the input that failed"),
        .required("shrinkAttempts", \.shrinkAttempts, .int(.count), "shrinking candidates tried"),
        .required("secondsToFind", \.secondsToFind, .double(.runSeconds), "seconds into the process's run when it was checked"),
    ]
}

/// What a fuzzing worker process started by its supervisor is asked to do, in a file of the run's
/// private folder: crash-isolated fuzzing where `fork` is unavailable (or not wanted) starts a
/// worker that rebuilds the same campaign options from its command line and reads the rest here.
///
/// A `campaign` job runs the campaign from input `firstInput` for `seconds`, without the checks
/// in `skipping` (`[subject, property]` index pairs) and the failures in `known`, writing what it
/// finds to `findings` and its progress to the shared `slots` file. A `replay` job checks one
/// input (`choices` at `size`) for one `subject` × `property` and exits 0 (passed) or 1 (failed).
package struct FuzzWorkerJobRecord: ResultsRecord, Equatable {
    /// The two kinds of job.
    package enum Kind: String, CaseIterable, Sendable {
        case campaign, replay
    }

    /// The most choices a replay job carries (a slot's capacity in DiffLabFuzz).
    package static let maxChoices = 1 << 17
    /// The most skipped checks or known failures a campaign job carries.
    package static let maxEntries = 1 << 20

    package var kind: Kind
    /// Whether the worker keeps the Swift runtime's crash handler (a campaign of `difflab fuzz`).
    package var backtraces = false
    package var slots = ""
    package var findings = ""
    package var firstInput = 0
    package var seconds: Double?
    package var skipping: [[Int]] = []
    package var known: [String] = []
    package var choices: [UInt64] = []
    package var size = 0
    package var subject = 0
    package var property = 0

    /// A job of `kind`; set the members it uses.
    package init(kind: Kind) { self.kind = kind }

    package static let blank = FuzzWorkerJobRecord(kind: .campaign)

    /// The declaration table: `kind` and `backtraces`, then the members of that kind of job, all
    /// required but `seconds` (`null`: no limit) and the lists (absent: empty).
    package static let fields: [RecordField<FuzzWorkerJobRecord>] =
        [
            .required("kind", \.kind, .cases(), "the kind of job"),
            .required("backtraces", \.backtraces, .bool, "whether the worker keeps the Swift runtime's crash handler"),
        ]
        + RecordField.when(
            "kind is campaign", { $0.kind == .campaign },
            [
                .required("slots", \.slots, .string, "the shared progress file"),
                .required("findings", \.findings, .string, "the file the worker writes its findings to"),
                .required("firstInput", \.firstInput, .int(.count), "the input the campaign starts from"),
                .optional("seconds", \.seconds, .double(.runSeconds), absent: .null, "how long the campaign runs (`null`: no limit)"),
                .list(
                    "skipping", \.skipping, .array(.int(.size), count: FieldRange(2...2, "2 indices")),
                    count: FieldRange(0...maxEntries, unit: "entries"),
                    written: .always, "the `[subject, property]` checks not run"),
                .list(
                    "known", \.known, .string, count: FieldRange(0...maxEntries, unit: "entries"), written: .always,
                    "the failures already known"),
            ])
        + RecordField.when(
            "kind is replay", { $0.kind == .replay },
            [
                .list(
                    "choices", \.choices, .decimalUInt64, count: FieldRange(0...maxChoices, unit: "choices"), written: .always,
                    "the input's choices, decimal strings"),
                .required("size", \.size, .int(.size), "the input's size"),
                .required("subject", \.subject, .int(.size), "the subject's index in the worker's options"),
                .required("property", \.property, .int(.size), "the property's index in the worker's options"),
            ])
}
