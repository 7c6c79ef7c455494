import DiffLabJSON

// The files `difflab fuzz` writes besides its regression cases (`RegressionCase` in DiffLabFuzz,
// one file per counterexample):
// - the `--json` summary, the last line of its standard output (``FuzzSummaryFile``, its failures
//   ``FuzzFailureRecord``s), read back by `difflab mutate`;
// - the findings a crash-isolated campaign process hands to its supervisor, one
//   ``FuzzFindingRecord`` per line of a file in the run's private folder.
// Each has one encoder (`json`) and one decoder (`init(json:source:)`), like every record here.

/// One failure of a `difflab fuzz --json` summary.
public struct FuzzFailureRecord: Sendable, Equatable {
    enum Key: String {
        case signature, message, file, originalItems, shrunkItems, outsideContract, inputsToFind, secondsToFind, crashed
    }

    /// `<property>/<engine>/<detail>`.
    public var signature: String
    /// What failed, in words.
    public var message: String
    /// Where the shrunk counterexample was saved (or would have been, when saving failed).
    public var file: String
    /// Items of the failing input before shrinking (old and new lists together).
    public var originalItems: Int
    /// Items of the shrunk counterexample.
    public var shrunkItems: Int
    /// Whether the input lies outside the engine's contract (reported, not a failed run).
    public var outsideContract: Bool
    /// The 1-based number of the input that failed.
    public var inputsToFind: Int
    /// Seconds into the run when the failing input was checked.
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

    /// The failure object, members in the order above. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.signature, signature)
        w.set(.message, message)
        w.set(.file, file)
        w.set(.originalItems, originalItems)
        w.set(.shrunkItems, shrunkItems)
        w.set(.outsideContract, outsideContract)
        w.set(.inputsToFind, inputsToFind)
        w.set(.secondsToFind, secondsToFind)
        w.set(.crashed, crashed)
        return w.json
    }

    /// Reads a failure object at `path` of `source`. Every member is required: `signature`,
    /// `message` and `file` stream-safe strings; the item counts in ``FieldRange/size``;
    /// `inputsToFind` in ``FieldRange/count``; `secondsToFind` in ``FieldRange/runSeconds``;
    /// `outsideContract` and `crashed` booleans.
    ///
    /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the strings).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        let r = try FieldReader<Key>(json, source: source, path: path)
        signature = try r.requiredString(.signature)
        message = try r.requiredString(.message)
        file = try r.requiredString(.file)
        originalItems = try r.requiredInt(.originalItems, in: .size)
        shrunkItems = try r.requiredInt(.shrunkItems, in: .size)
        outsideContract = try r.requiredBool(.outsideContract)
        inputsToFind = try r.requiredInt(.inputsToFind, in: .count)
        secondsToFind = try r.requiredDouble(.secondsToFind, in: .runSeconds)
        crashed = try r.requiredBool(.crashed)
    }
}

/// The summary `difflab fuzz --json` prints as the last line of its standard output.
public struct FuzzSummaryFile: Sendable, Equatable {
    enum Key: String { case cases, inputs, seconds, casesPerSecond, largeInputs, largestInput, inputsByKind, failures }
    /// A member of `inputsByKind`: an element kind's name (the fuzzer's kinds, not listed here).
    struct KindKey: RawRepresentable { var rawValue: String }

    /// Checks run (one property on one engine for one input).
    public var cases: Int
    /// Inputs generated.
    public var inputs: Int
    /// Wall-clock seconds of the campaign.
    public var seconds: Double
    /// `cases / seconds`, rounded down.
    public var casesPerSecond: Int
    /// Large lists generated.
    public var largeInputs: Int
    /// Items of the largest input.
    public var largestInput: Int
    /// Inputs per element kind, in the fuzzer's order of kinds (every kind, 0 when none ran).
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

    /// The summary object, members in the order above. O(failures + kinds).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.cases, cases)
        w.set(.inputs, inputs)
        w.set(.seconds, seconds)
        w.set(.casesPerSecond, casesPerSecond)
        w.set(.largeInputs, largeInputs)
        w.set(.largestInput, largestInput)
        w.set(.inputsByKind, .object(JSONObject(inputsByKind.map { ($0.kind, .integer($0.inputs)) })))
        w.set(.failures, .array(failures.map(\.json)))
        return w.json
    }

    /// Reads a summary. Every member is required: the counts in ``FieldRange/count``, `seconds` in
    /// ``FieldRange/runSeconds``, `largestInput` in ``FieldRange/size``, `inputsByKind` an object
    /// of counts, `failures` an array of ``FuzzFailureRecord`` objects.
    ///
    /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        let r = try FieldReader<Key>(json, source: source, path: "")
        cases = try r.requiredInt(.cases, in: .count)
        inputs = try r.requiredInt(.inputs, in: .count)
        seconds = try r.requiredDouble(.seconds, in: .runSeconds)
        casesPerSecond = try r.requiredInt(.casesPerSecond, in: .count)
        largeInputs = try r.requiredInt(.largeInputs, in: .count)
        largestInput = try r.requiredInt(.largestInput, in: .size)
        guard let kinds = try r.object(.inputsByKind, KindKey.self) else { throw .missingField(source: source, path: "inputsByKind") }
        inputsByKind = []
        for kind in kinds.object.keys {
            inputsByKind.append((kind, try kinds.requiredInt(KindKey(rawValue: kind), in: .count)))
        }
        guard r.present(.failures) != nil else { throw .missingField(source: source, path: "failures") }
        failures = []
        for (index, failure) in try r.optionalArray(.failures).enumerated() {
            failures.append(try FuzzFailureRecord(json: failure, source: source, path: "failures[\(index)]"))
        }
    }
}

/// One failure as a crash-isolated campaign process hands it to its supervisor: its regression
/// case (the object of a regression file, `RegressionCase.json`) and the run's figures about it.
public struct FuzzFindingRecord: Sendable, Equatable {
    enum Key: String { case regression, originalItems, inputsToFind, shrinkAttempts, secondsToFind }

    /// The regression case, as in a regression file (decoded by `RegressionCase(json:)`).
    public var regression: JSONValue
    /// Items of the failing input before shrinking.
    public var originalItems: Int
    /// The 1-based number of the input that failed.
    public var inputsToFind: Int
    /// Shrinking candidates tried.
    public var shrinkAttempts: Int
    /// Seconds into the campaign process's run when the failing input was checked.
    public var secondsToFind: Double

    /// A record; see the properties.
    public init(regression: JSONValue, originalItems: Int, inputsToFind: Int, shrinkAttempts: Int, secondsToFind: Double) {
        self.regression = regression
        self.originalItems = originalItems
        self.inputsToFind = inputsToFind
        self.shrinkAttempts = shrinkAttempts
        self.secondsToFind = secondsToFind
    }

    /// The record object, members in the order above. O(1) besides the regression's size.
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.regression, regression)
        w.set(.originalItems, originalItems)
        w.set(.inputsToFind, inputsToFind)
        w.set(.shrinkAttempts, shrinkAttempts)
        w.set(.secondsToFind, secondsToFind)
        return w.json
    }

    /// Reads a record. Every member is required: `regression` an object (checked by its own
    /// decoder), the counts in ``FieldRange/size`` and ``FieldRange/count``, `secondsToFind` in
    /// ``FieldRange/runSeconds``.
    ///
    /// - Throws: ``ResultsError`` naming the field. - Complexity: O(1) besides the regression.
    public init(json: JSONValue, source: String) throws(ResultsError) {
        let r = try FieldReader<Key>(json, source: source, path: "")
        guard let regression = r.present(.regression) else { throw .missingField(source: source, path: "regression") }
        guard regression.objectValue != nil else {
            throw .wrongType(source: source, path: "regression", expected: "an object", found: article(regression))
        }
        self.regression = regression
        originalItems = try r.requiredInt(.originalItems, in: .size)
        inputsToFind = try r.requiredInt(.inputsToFind, in: .count)
        shrinkAttempts = try r.requiredInt(.shrinkAttempts, in: .count)
        secondsToFind = try r.requiredDouble(.secondsToFind, in: .runSeconds)
    }
}

/// What a fuzzing worker process started by its supervisor is asked to do, in a file of the run's
/// private folder: crash-isolated fuzzing where `fork` is unavailable (or not wanted) starts a
/// worker that rebuilds the same campaign options from its command line and reads the rest here.
///
/// A `campaign` job runs the campaign from input `firstInput` for `seconds`, without the checks
/// in `skipping` (`[subject, property]` index pairs) and the failures in `known`, writing what it
/// finds to `findings` and its progress to the shared `slots` file. A `replay` job checks one
/// input (`choices` at `size`) for one `subject` × `property` and exits 0 (passed) or 1 (failed).
package struct FuzzWorkerJobRecord: Sendable, Equatable {
    enum Key: String {
        case kind, backtraces, slots, findings, firstInput, seconds, skipping, known, choices, size, subject, property
    }

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

    /// The job object. O(size of the job).
    package var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.kind, kind.rawValue)
        w.set(.backtraces, backtraces)
        switch kind {
        case .campaign:
            w.set(.slots, slots)
            w.set(.findings, findings)
            w.set(.firstInput, firstInput)
            w.set(.seconds, seconds, null: true)
            w.set(.skipping, .array(skipping.map { .array($0.map(JSONValue.integer)) }))
            w.set(.known, strings: known)
        case .replay:
            w.set(.choices, strings: choices.map { String($0) })
            for (key, value) in [(Key.size, size), (.subject, subject), (.property, property)] { w.set(key, value) }
        }
        return w.json
    }

    /// Reads a job. `kind` and `backtraces` are required; a campaign needs `slots` and
    /// `findings` (stream-safe strings), `firstInput` in ``FieldRange/count``, `seconds` (`null`
    /// or in ``FieldRange/runSeconds``), `skipping` (at most ``maxEntries`` pairs of indices in
    /// ``FieldRange/size``) and `known` (at most ``maxEntries`` strings); a replay needs `choices`
    /// (at most ``maxChoices`` decimal `UInt64` strings), `size` in ``FieldRange/size``, and
    /// `subject` and `property` in ``FieldRange/size`` (the worker checks them against its options).
    ///
    /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the job).
    package init(json: JSONValue, source: String) throws(ResultsError) {
        let r = try FieldReader<Key>(json, source: source, path: "")
        guard let kind = try r.optionalCase(.kind, Kind.self) else { throw .missingField(source: source, path: "kind") }
        self.kind = kind
        backtraces = try r.requiredBool(.backtraces)
        switch kind {
        case .campaign:
            slots = try r.requiredString(.slots)
            findings = try r.requiredString(.findings)
            firstInput = try r.requiredInt(.firstInput, in: .count)
            seconds = try r.optionalDouble(.seconds, in: .runSeconds)
            let pairs = try r.optionalArray(.skipping)
            guard pairs.count <= Self.maxEntries else {
                throw .outOfRange(source: source, path: "skipping", value: "\(pairs.count) entries", allowed: "at most \(Self.maxEntries)")
            }
            skipping = try pairs.enumerated().map { index, pair throws(ResultsError) in
                let path = "skipping[\(index)]"
                guard let items = pair.arrayValue, items.count == 2 else {
                    throw .wrongType(source: source, path: path, expected: "an array of two indices", found: article(pair))
                }
                return try items.map { item throws(ResultsError) in
                    guard let value = item.intValue, FieldRange<Int>.size.range.contains(value) else {
                        throw .outOfRange(source: source, path: path, value: item.briefDescription, allowed: FieldRange<Int>.size.text)
                    }
                    return value
                }
            }
            known = try r.strings(.known)
            guard known.count <= Self.maxEntries else {
                throw .outOfRange(source: source, path: "known", value: "\(known.count) entries", allowed: "at most \(Self.maxEntries)")
            }
        case .replay:
            let texts = try r.strings(.choices)
            guard texts.count <= Self.maxChoices else {
                throw .outOfRange(source: source, path: "choices", value: "\(texts.count) entries", allowed: "at most \(Self.maxChoices)")
            }
            choices = try texts.enumerated().map { index, text throws(ResultsError) in
                guard let value = UInt64(text) else {
                    throw .outOfRange(source: source, path: "choices[\(index)]", value: text, allowed: "a decimal 64-bit unsigned integer")
                }
                return value
            }
            size = try r.requiredInt(.size, in: .size)
            subject = try r.requiredInt(.subject, in: .size)
            property = try r.requiredInt(.property, in: .size)
        }
    }
}
