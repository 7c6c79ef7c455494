import DiffLabJSON

/// What the gate compares, per cell.
public enum GateMetric: String, CaseIterable, Sendable, Hashable {
    /// Wall-clock seconds per call: gated only from interleaved A/B samples of both builds taken
    /// in the same job: a paired Wilcoxon signed-rank test over rounds, Holm's correction and a
    /// noise floor (see ``compareTimes(_:thresholds:)``).
    case time
    /// Instructions of one call, counted by valgrind's callgrind: deterministic, gated tightly.
    case instructions
    /// Bytes one call allocates (jemalloc `thread.allocatedp`): deterministic, gated tightly.
    case allocatedBytes
    /// Allocation requests of one call (jemalloc arena statistics): deterministic, gated tightly.
    case allocationRequests

    /// Whether two runs of one build give the same value (so no statistics are needed).
    public var isDeterministic: Bool { self != .time }
}

/// How much change one metric tolerates.
///
/// A change is a regression when the candidate exceeds the baseline by more than `regression`
/// (relative: 0.05 is 5%) *and* by at least `absolute` (in the metric's unit), so tiny values
/// cannot trip the gate on rounding. An improvement is the mirror image with `improvement`.
public struct MetricThreshold: Sendable, Hashable {
    public var regression: Double
    public var improvement: Double
    public var absolute: Double

    public init(regression: Double, improvement: Double, absolute: Double) {
        self.regression = regression
        self.improvement = improvement
        self.absolute = absolute
    }
}

/// The gate's thresholds, read from a checked-in file (`Corpus/gate/thresholds.json`).
public struct GateThresholds: Sendable, Hashable {
    /// The schema name a thresholds file must carry.
    public static let schema = "difflab-gate-thresholds/1"

    /// Family-wise error rate for the time comparisons (Holm-adjusted p-values are compared with it).
    public var alpha: Double
    /// Exit status when the only findings are improvements: 4, or 0 to let them pass.
    public var improvementExitCode: Int32
    /// Per-metric thresholds; every ``GateMetric`` has one.
    public var metrics: [GateMetric: MetricThreshold]

    /// Thresholds.
    public init(alpha: Double, improvementExitCode: Int32, metrics: [GateMetric: MetricThreshold]) {
        self.alpha = alpha
        self.improvementExitCode = improvementExitCode
        self.metrics = metrics
    }

    /// The threshold of `metric`.
    public subscript(metric: GateMetric) -> MetricThreshold {
        metrics[metric] ?? MetricThreshold(regression: 0, improvement: 0, absolute: 0)
    }

    /// Reads a thresholds file's JSON.
    ///
    /// - Throws: ``GateError/badThresholds(_:)`` naming the missing or wrong field; every metric
    ///   must be present, values must be non-negative and `alpha` in (0, 1).
    public init(json: JSONValue) throws(GateError) {
        guard json["schema"]?.stringValue == Self.schema else {
            throw .badThresholds("expected \"schema\": \"\(Self.schema)\"")
        }
        guard let alpha = json["alpha"]?.doubleValue, alpha > 0, alpha < 1 else {
            throw .badThresholds("\"alpha\" must be a number between 0 and 1")
        }
        let exitCode = json["improvementExitCode"]?.intValue ?? 4
        guard exitCode == 0 || exitCode == 4 else { throw .badThresholds("\"improvementExitCode\" must be 0 or 4") }
        var metrics: [GateMetric: MetricThreshold] = [:]
        for metric in GateMetric.allCases {
            guard let entry = json["metrics"]?[metric.rawValue] else {
                throw .badThresholds("\"metrics\" has no entry for \"\(metric.rawValue)\"")
            }
            var values: [Double] = []
            for field in ["regression", "improvement", "absolute"] {
                guard let value = entry[field]?.doubleValue, value >= 0 else {
                    throw .badThresholds("\"metrics.\(metric.rawValue).\(field)\" must be a non-negative number")
                }
                values.append(value)
            }
            metrics[metric] = MetricThreshold(regression: values[0], improvement: values[1], absolute: values[2])
        }
        self.init(alpha: alpha, improvementExitCode: Int32(exitCode), metrics: metrics)
    }
}

/// What can go wrong in the gate's own logic (the CLI adds process and file errors).
public enum GateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The thresholds file is not valid.
    case badThresholds(String)
    /// A measurement file or stored baseline is not valid.
    case badMeasurements(String)

    public var description: String {
        switch self {
        case .badThresholds(let reason): "bad thresholds file: \(reason)"
        case .badMeasurements(let reason): "bad measurements: \(reason)"
        }
    }
}
