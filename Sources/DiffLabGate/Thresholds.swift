import DiffLabJSON
import DiffLabResults

// `GateMetric`, `MetricThreshold` and `GateThresholds` are DiffLabResults' records (a report holds
// them); here, the gate's defaults and the strict reader of its checked-in thresholds file.

extension GateThresholds {
    /// The schema name a thresholds file must carry.
    public static let schema = "difflab-gate-thresholds/1"

    /// The thresholds used when no file is given and `Corpus/gate/thresholds.json` does not exist,
    /// as in a user's own package: the same values as DiffLab's checked-in file (a test keeps them
    /// equal). Alpha 0.01; relative thresholds 5% time, 1% instructions, 0.5% allocated bytes,
    /// 0 allocation requests; improvements exit 4.
    public static let defaults = GateThresholds(
        alpha: 0.01, improvementExitCode: 4,
        metrics: [
            .time: MetricThreshold(regression: 0.05, improvement: 0.05, absolute: 2e-6),
            .instructions: MetricThreshold(regression: 0.01, improvement: 0.01, absolute: 1000),
            .allocatedBytes: MetricThreshold(regression: 0.005, improvement: 0.005, absolute: 64),
            .allocationRequests: MetricThreshold(regression: 0, improvement: 0, absolute: 1),
        ])

    /// The allowed range of `alpha`: above 0, at most 0.5 (a family-wise error rate above one
    /// half would flag noise more often than not).
    public static let alphaRange = Double.leastNonzeroMagnitude...0.5
    /// The allowed range of a relative threshold (`regression`, `improvement`): 0 to 10 (+1,000%).
    public static let relativeRange = 0.0...10
    /// The allowed range of an absolute threshold, in the metric's unit: 0 to 2^53.
    public static let absoluteRange = 0.0...9_007_199_254_740_992

    /// Reads a thresholds file's JSON.
    ///
    /// The file is checked strictly, so a typo cannot quietly loosen the gate: the root must be an
    /// object with exactly the members `schema` (``schema``), `alpha` (a number in
    /// ``alphaRange``), `metrics` (an object with one entry per `GateMetric` and no others,
    /// each an object of exactly `regression` and `improvement` in ``relativeRange`` and
    /// `absolute` in ``absoluteRange``), and optionally `improvementExitCode` (the integer 0 or
    /// 4; default 4) and `about` (a string, for people).
    ///
    /// - Throws: ``GateError/badThresholds(_:)`` naming the field, what it should be and what it is.
    /// - Complexity: O(size of the file).
    public init(json: JSONValue) throws(GateError) {
        guard let root = json.objectValue else { throw .badThresholds("expected a JSON object, not \(json.typeName)") }
        try Self.rejectUnknown(root, allowed: ["schema", "about", "alpha", "improvementExitCode", "metrics"], at: "")
        guard json["schema"]?.stringValue == Self.schema else {
            throw .badThresholds("expected \"schema\": \"\(Self.schema)\"")
        }
        if let about = json["about"], about.stringValue == nil {
            throw .badThresholds("\"about\" must be a string, not \(about.typeName)")
        }
        let alpha = try Self.number(json["alpha"], "alpha", in: Self.alphaRange, "above 0 and at most 0.5")
        var exitCode = 4
        if let value = json["improvementExitCode"] {
            guard let code = value.intValue, code == 0 || code == 4 else {
                throw .badThresholds("\"improvementExitCode\" must be 0 or 4, not \(value.briefDescription)")
            }
            exitCode = code
        }
        guard let entries = json["metrics"]?.objectValue else {
            throw .badThresholds(
                "\"metrics\" must be an object with an entry per metric (\(GateMetric.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        try Self.rejectUnknown(entries, allowed: GateMetric.allCases.map(\.rawValue), at: "metrics.")
        var metrics: [GateMetric: MetricThreshold] = [:]
        for metric in GateMetric.allCases {
            guard let entry = entries[metric.rawValue] else {
                throw .badThresholds("\"metrics\" has no entry for \"\(metric.rawValue)\"")
            }
            let path = "metrics.\(metric.rawValue)"
            guard let fields = entry.objectValue else { throw .badThresholds("\"\(path)\" must be an object, not \(entry.typeName)") }
            try Self.rejectUnknown(fields, allowed: ["regression", "improvement", "absolute"], at: path + ".")
            metrics[metric] = MetricThreshold(
                regression: try Self.number(
                    fields["regression"], path + ".regression", in: Self.relativeRange, "from 0 to 10 (a fraction: 0.05 is 5%)"),
                improvement: try Self.number(
                    fields["improvement"], path + ".improvement", in: Self.relativeRange, "from 0 to 10 (a fraction: 0.05 is 5%)"),
                absolute: try Self.number(fields["absolute"], path + ".absolute", in: Self.absoluteRange, "from 0 to 2^53 (in the metric's unit)"))
        }
        self.init(alpha: alpha, improvementExitCode: Int32(exitCode), metrics: metrics)
    }

    /// `value` as a number in `range`, else an error naming `field` and the range in words.
    private static func number(_ value: JSONValue?, _ field: String, in range: ClosedRange<Double>, _ words: String) throws(GateError) -> Double {
        guard let value else { throw .badThresholds("\"\(field)\" is missing; it must be a number \(words)") }
        guard let number = value.doubleValue, number.isFinite, range.contains(number) else {
            throw .badThresholds("\"\(field)\" must be a number \(words), not \(value.briefDescription)")
        }
        return number
    }

    /// Throws for a member of `object` not in `allowed` (a typo would otherwise be ignored).
    private static func rejectUnknown(_ object: JSONObject, allowed: [String], at prefix: String) throws(GateError) {
        for (key, _) in object where !allowed.contains(key) {
            throw .badThresholds("unknown field \"\(prefix)\(key)\"; expected \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }
}

/// What can go wrong in the gate's own logic (the CLI adds process and file errors). Every case
/// makes `difflab gate` exit 1.
public enum GateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The thresholds file is not valid.
    case badThresholds(String)
    /// A worker's output (a measurement) is not valid.
    case badMeasurements(String)
    /// A stored baseline is not valid: `field` (a JSON path such as
    /// `cells["hashmap:differencekit:int:10000"].instructions`) is not what `expected` says.
    case badBaseline(source: String, field: String, expected: String)
    /// The stored baseline has no entry for cells the candidate measured.
    case baselineMissingCells(source: String, cells: [String])
    /// No comparison of the run compared two values: the gate would pass having checked nothing.
    /// `reasons` say why each metric was not compared.
    case nothingCompared(reasons: [String])
    /// Some cells had no metric compared at all (each entry: the cell and why).
    case cellsNotCompared([String])

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .badThresholds(let reason): "bad thresholds file: \(reason)"
        case .badMeasurements(let reason): "bad measurements: \(reason)"
        case .badBaseline(let source, let field, let expected): "\(source): not a usable stored gate baseline: \(field) should be \(expected)"
        case .baselineMissingCells(let source, let cells):
            "\(source): the stored baseline has no entry for \(cells.count == 1 ? "cell" : "\(cells.count) cells") "
                + cells.joined(separator: ", ") + " (store a new one with --save-baseline, or give --cells that it covers)"
        case .nothingCompared(let reasons):
            "the gate compared nothing, so it cannot pass"
                + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
        case .cellsNotCompared(let cells):
            "the gate compared nothing for \(cells.count == 1 ? "cell" : "\(cells.count) cells") " + cells.joined(separator: "; ")
        }
    }
}
