import DiffLabJSON

// The regression gate's files and their vocabulary: stored baselines (`difflab-gate-baseline/1`)
// and reports (`difflab-gate/1`). The gate's logic (comparisons, statistics, the thresholds
// file's strict reader, `GateError`) lives in DiffLabGate and works on these same types.

/// What the gate compares, per cell.
public enum GateMetric: String, CaseIterable, Sendable, Hashable {
    /// Wall-clock seconds per call: gated only from interleaved A/B samples of both builds taken
    /// in the same job: a paired Wilcoxon signed-rank test over rounds, Holm's correction and a
    /// noise floor (DiffLabGate's `compareTimes(_:thresholds:)`).
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

/// The gate's finding for one metric of one cell.
public enum GateVerdict: String, CaseIterable, Sendable, Hashable {
    /// Within the thresholds (or, for time, not significant after correction).
    case pass
    /// Worse than the baseline beyond the thresholds.
    case regression
    /// Better than the baseline beyond the thresholds.
    case improvement
    /// Not gated: a value is missing on one side (the note says why).
    case notGated = "not-gated"
}

/// The verdict of a whole gate run, as its report states it.
public enum GateRunVerdict: String, CaseIterable, Sendable, Hashable {
    /// Nothing regressed or improved.
    case pass
    /// Some comparison regressed.
    case regression
    /// Some comparison improved and none regressed.
    case improvement
    /// The run cannot be trusted (it compared nothing, or left cells ungated): the report's
    /// `error` says why.
    case error
}

/// How much change one metric tolerates.
///
/// A change is a regression when the candidate exceeds the baseline by more than `regression`
/// (relative: 0.05 is 5%) *and* by at least `absolute` (in the metric's unit), so tiny values
/// cannot trip the gate on rounding. An improvement is the mirror image with `improvement`.
public struct MetricThreshold: ResultsRecord, Hashable {
    /// Relative worsening (0.05 = 5%) beyond which a change is a regression.
    public var regression: Double
    /// Relative betterment beyond which a change is an improvement.
    public var improvement: Double
    /// Smallest absolute change, in the metric's unit, that can count either way.
    public var absolute: Double

    /// A threshold; see the properties (not range-checked: the readers check files).
    public init(regression: Double, improvement: Double, absolute: Double) {
        self.regression = regression
        self.improvement = improvement
        self.absolute = absolute
    }

    @_spi(Records) public static let blank = MetricThreshold(regression: 0, improvement: 0, absolute: 0)

    /// The declaration table (a report's thresholds of one metric).
    @_spi(Records) public static let fields: [RecordField<MetricThreshold>] = [
        .required("regression", \.regression, .double(.relative), "relative worsening beyond which a change regresses (0.05 is 5%)"),
        .required("improvement", \.improvement, .double(.relative), "relative betterment beyond which a change improves"),
        .required("absolute", \.absolute, .double(.amount), "the smallest change, in the metric's unit, that counts either way"),
    ]
}

/// The gate's thresholds: a report's `thresholds` object, and what the checked-in thresholds file
/// (`Corpus/gate/thresholds.json`, read strictly by DiffLabGate's `GateThresholds.init(json:)`)
/// gives.
public struct GateThresholds: ResultsRecord, Hashable {
    /// Family-wise error rate for the time comparisons (Holm-adjusted p-values are compared with it).
    public var alpha: Double
    /// Exit status when the only findings are improvements: 4, or 0 to let them pass.
    public var improvementExitCode: Int32
    /// Per-metric thresholds; every ``GateMetric`` has one in a file.
    public var metrics: [GateMetric: MetricThreshold]

    /// Thresholds.
    public init(alpha: Double, improvementExitCode: Int32, metrics: [GateMetric: MetricThreshold]) {
        self.alpha = alpha
        self.improvementExitCode = improvementExitCode
        self.metrics = metrics
    }

    /// The threshold of `metric` (all zero when there is none).
    public subscript(metric: GateMetric) -> MetricThreshold { metrics[metric] ?? .blank }

    @_spi(Records) public static let blank = GateThresholds(alpha: 0, improvementExitCode: 0, metrics: [:])

    /// The declaration table of a report's `thresholds` object (metrics in ``GateMetric`` order).
    @_spi(Records) public static let fields: [RecordField<GateThresholds>] = [
        .required("alpha", \.alpha, .double(.probability), "the family-wise error rate of the time comparisons"),
        .required(
            "improvementExitCode", \.improvementExitCode, FieldType.int(.exitStatus).converted(decode: { Int32(exactly: $0) }, encode: { Int($0) }),
            "the exit status when the only findings are improvements (4, or 0)"),
        .defaulted(
            "metrics", \.metrics, .keyed(GateMetric.self, .record()), default: [:], written: .always, "each metric's thresholds, by metric name"),
    ]
}

/// One metric of one cell, baseline against candidate: an element of a gate report's
/// `comparisons`.
public struct GateComparison: ResultsRecord, Hashable {
    /// The cell name, `subject:profile:kind:size`.
    public var cell: String
    /// The metric compared.
    public var metric: GateMetric
    /// The baseline's value in the metric's unit (seconds, instructions, bytes, requests): the
    /// median for time, the exact value otherwise; in ``FieldRange/amount``.
    public var base: Double?
    /// The candidate's value, like ``base``.
    public var head: Double?
    /// Candidate / baseline, in ``FieldRange/ratio``: for time, the median of the per-round ratios
    /// median(candidate) / median(baseline); otherwise head ÷ base (`nil` when base is 0 or a side
    /// is missing).
    public var ratio: Double?
    /// For time: the lower end of a 95% bootstrap confidence interval of ``ratio`` (rounds resampled).
    public var ratioLow: Double?
    /// For time: the upper end of that interval.
    public var ratioHigh: Double?
    /// For time: the Wilcoxon signed-rank two-sided p-value, in ``FieldRange/probability``.
    public var p: Double?
    /// For time: ``p`` after Holm's adjustment over every time comparison of the run.
    public var pAdjusted: Double?
    /// For time: how many paired rounds were compared.
    public var rounds: Int?
    /// The verdict for this cell and metric.
    public var verdict: GateVerdict
    /// Why a comparison is not gated, or other context; empty when none.
    public var note: String

    /// A comparison with `ratio` head ÷ base; the verdict is decided by DiffLabGate's
    /// `compareDeterministic(cell:metric:base:head:thresholds:note:)` or `compareTimes(_:thresholds:)`.
    public init(cell: String, metric: GateMetric, base: Double?, head: Double?, verdict: GateVerdict, note: String = "") {
        self.cell = cell
        self.metric = metric
        self.base = base
        self.head = head
        if let base, let head, base > 0 { ratio = head / base }
        self.verdict = verdict
        self.note = note
    }

    /// For time: ``ratioLow`` to ``ratioHigh``, `nil` unless both are known and in order.
    public var interval: ClosedRange<Double>? {
        get {
            guard let ratioLow, let ratioHigh, ratioLow <= ratioHigh else { return nil }
            return ratioLow...ratioHigh
        }
        set {
            ratioLow = newValue?.lowerBound
            ratioHigh = newValue?.upperBound
        }
    }

    @_spi(Records) public static let blank = GateComparison(cell: "", metric: .time, base: nil, head: nil, verdict: .pass)

    /// The declaration table: figures written as `null` when absent, the time statistics only in
    /// a time comparison, `note` only when there is one.
    @_spi(Records) public static let fields: [RecordField<GateComparison>] = [
        .required("cell", \.cell, .string, "the cell, `subject:profile:kind:size`"),
        .required("metric", \.metric, .cases(), "the metric compared"),
        .required("verdict", \.verdict, .cases(), "the verdict for this cell and metric"),
        .optional("base", \.base, .double(.amount), absent: .null, "the baseline's value, in the metric's unit"),
        .optional("head", \.head, .double(.amount), absent: .null, "the candidate's value"),
        .optional("ratio", \.ratio, .ratio, absent: .null, "candidate ÷ baseline (for time, the median round ratio)"),
        .optional("ratioLow", \.ratioLow, .ratio, absent: .nullWhen(\.isTime), "time: the 95% bootstrap interval's lower end"),
        .optional("ratioHigh", \.ratioHigh, .ratio, absent: .nullWhen(\.isTime), "time: the interval's upper end"),
        .optional("p", \.p, .double(.probability), absent: .nullWhen(\.isTime), "time: the Wilcoxon signed-rank p-value"),
        .optional("pAdjusted", \.pAdjusted, .double(.probability), absent: .nullWhen(\.isTime), "time: p after Holm's adjustment"),
        .optional("rounds", \.rounds, .int(.count), absent: .nullWhen(\.isTime), "time: the paired rounds compared"),
        .defaulted("note", \.note, .string, default: "", "why the comparison was not gated, or a remark"),
    ]

    private var isTime: Bool { metric == .time }
}

/// One cell of a stored baseline: the deterministic metrics of one call, each `nil` when not
/// measured (written as `null`).
public struct BaselineCell: ResultsRecord, Hashable {
    /// The cell name (`subject:profile:kind:size`), not empty: the member's name in `cells`.
    public var name: String
    /// Instructions of one call, 0 to 2^53.
    public var instructions: Int?
    /// Bytes allocated per call, 0 to 2^53 (jemalloc only).
    public var allocatedBytes: Int?
    /// Allocation requests per call, 0 to 2^53 (jemalloc only).
    public var allocationRequests: Int?

    /// A cell; see the properties (not range-checked: reading a file checks them).
    public init(name: String, instructions: Int? = nil, allocatedBytes: Int? = nil, allocationRequests: Int? = nil) {
        self.name = name
        self.instructions = instructions
        self.allocatedBytes = allocatedBytes
        self.allocationRequests = allocationRequests
    }

    /// The stored value of `metric` (`nil` for time, which is never stored).
    public subscript(metric: GateMetric) -> Int? {
        switch metric {
        case .instructions: instructions
        case .allocatedBytes: allocatedBytes
        case .allocationRequests: allocationRequests
        case .time: nil
        }
    }

    @_spi(Records) public static let blank = BaselineCell(name: "")

    /// The declaration table: every metric written, `null` when not measured.
    @_spi(Records) public static let fields: [RecordField<BaselineCell>] = [
        .optional("instructions", \.instructions, count, absent: .null, "instructions of one call"),
        .optional("allocatedBytes", \.allocatedBytes, count, absent: .null, "bytes one call allocates (jemalloc)"),
        .optional("allocationRequests", \.allocationRequests, count, absent: .null, "allocation requests of one call (jemalloc)"),
    ]
    private static let count = FieldType.int(.count).strict("null or an integer from 0 to 2^53")

    /// Refuses a cell whose metrics are all `null`: it could not gate anything.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        guard instructions != nil || allocatedBytes != nil || allocationRequests != nil else {
            let names = Self.fields.map(\.description.key).joined(separator: ", ")
            throw .invalid(
                source: position.source, field: position.named, expected: "an object with at least one of \(names) measured: this cell's are all null"
            )
        }
    }
}

/// A stored gate baseline (schema `difflab-gate-baseline/1`): the deterministic metrics of one
/// build per cell, written by `difflab gate --save-baseline` and read by `--baseline`, with where
/// they were measured.
///
/// ## What a valid file holds
/// - `schema`: exactly ``schema``.
/// - `cells`: a non-empty object; each member is a cell name (`subject:profile:kind:size`) whose
///   value is an object with only the members `instructions`, `allocatedBytes` and
///   `allocationRequests`, each `null` (not measured) or an integer in ``integerCountRange``; at
///   least one of them must be a number, or the cell could not gate anything.
/// - optional: `createdAt` (Unix seconds, ``FieldRange/unixTime``), `candidate` and `toolchain`
///   (strings), `machine` (an object of strings).
///
/// Unlike results files, unknown members of a cell are refused: a typo must not pass as "no
/// regression" (issue 10: the gate fails closed).
public struct StoredBaseline: ResultsRecord, Equatable {
    /// The schema name a stored baseline carries.
    public static let schema = "difflab-gate-baseline/1"
    /// The allowed range of a stored value (instructions, bytes, allocation requests of one
    /// call): integers from 0 to 2^53, the range in which a `Double` holds every integer.
    public static let countRange = 0.0...9_007_199_254_740_992
    /// ``countRange`` as integers, for checking values before they become `Double`s (2^53 + 1
    /// would round into the range).
    public static let integerCountRange = FieldRange<Int>.count.range
    /// The metrics a stored baseline holds: the deterministic ones.
    public static let metrics = GateMetric.allCases.filter(\.isDeterministic)

    /// What the file was called (usually its path), for messages; not written.
    public var source: String
    /// Unix seconds when the baseline was stored, in ``FieldRange/unixTime``.
    public var createdAt: Int?
    /// Which build was stored.
    public var candidate: String?
    /// The machine it was measured on, in order.
    public var machine: [DisplayField]
    /// The Swift toolchain that built it.
    public var toolchain: String?
    /// The cells, in file order.
    public var cells: [BaselineCell] { didSet { positions = Self.positions(cells) } }
    /// Each cell name's position in ``cells`` (the first, should a name repeat).
    private var positions: [String: Int]

    /// A baseline; see the properties (not checked: reading a file checks it).
    public init(
        source: String = "", createdAt: Int? = nil, candidate: String? = nil, machine: [DisplayField] = [], toolchain: String? = nil,
        cells: [BaselineCell]
    ) {
        self.source = source
        self.createdAt = createdAt
        self.candidate = candidate
        self.machine = machine
        self.toolchain = toolchain
        self.cells = cells
        positions = Self.positions(cells)
    }

    private static func positions(_ cells: [BaselineCell]) -> [String: Int] {
        Dictionary(cells.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The CPU model it was measured on (`machine.cpu`), if the file says.
    public var cpu: String? { machine.first { $0.name == "cpu" }?.value }

    /// The stored cell named `name`, or `nil`. O(1).
    public subscript(cell name: String) -> BaselineCell? { positions[name].map { cells[$0] } }

    /// The stored value of `metric` for `cell`; `nil` when the file holds `null` or no such cell.
    /// - Complexity: O(1).
    public func value(_ cell: String, _ metric: GateMetric) -> Double? { self[cell: cell]?[metric].map(Double.init) }

    @_spi(Records) public static let blank = StoredBaseline(cells: [])
    public static var documentSchema: String? { schema }

    /// The declaration table: `machine` always written; `cells` an object of cells by name.
    @_spi(Records) public static let fields: [RecordField<StoredBaseline>] = [
        .optional("createdAt", \.createdAt, .int(.unixTime), "when the baseline was stored, Unix seconds"),
        .optional("candidate", \.candidate, .string, "which build was stored"),
        .defaulted(
            "machine", \.machine, .members(.string, join: { DisplayField(name: $0, value: $1) }, split: { ($0.name, $0.value) }), default: [],
            written: .always, "the machine it was measured on (CPU, cores, memory, kernel)"),
        .optional("toolchain", \.toolchain, .string, "the Swift toolchain that built it"),
        .required(
            "cells", \.cells,
            .members(
                .closedRecord(BaselineCell.self, holder: "a cell"),
                join: { name, cell in
                    var named = cell
                    named.name = name
                    return named
                }, split: { ($0.name, $0) }), "the cells by name (`subject:profile:kind:size`), in order"),
    ]

    /// Refuses a baseline with no cells (it gates nothing) or a cell without a name; notes the
    /// file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        guard !cells.isEmpty else {
            throw .invalid(source: source, field: "cells", expected: "a non-empty object: a baseline with no cells gates nothing")
        }
        if cells.contains(where: \.name.isEmpty) {
            throw .invalid(source: source, field: "cells[\"\"]", expected: "a cell name (subject:profile:kind:size)")
        }
    }
}

/// A gate report (schema `difflab-gate/1`), written by `difflab gate --out`: verdict, exit code,
/// context, notes, thresholds and every comparison.
public struct GateReportFile: ResultsRecord, Equatable {
    /// The schema name of a gate report.
    public static let schema = "difflab-gate/1"

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// The run's verdict (``GateRunVerdict/error`` when the report cannot be trusted).
    public var verdict: GateRunVerdict
    /// Why the report cannot be trusted (then ``verdict`` is ``GateRunVerdict/error``).
    public var error: String?
    /// The exit status, in ``FieldRange/exitStatus``.
    public var exitCode: Int
    /// Labelled facts for the reader (baseline, candidate, rounds, machine…), in order.
    public var context: [DisplayField]
    /// Remarks, e.g. a metric that could not be measured and why.
    public var notes: [String]
    /// The thresholds the comparisons were judged with.
    public var thresholds: GateThresholds
    /// Every comparison, in cell order.
    public var comparisons: [GateComparison]

    /// A gate report; see the properties.
    public init(
        source: String = "", verdict: GateRunVerdict, error: String?, exitCode: Int, context: [DisplayField], notes: [String],
        thresholds: GateThresholds, comparisons: [GateComparison]
    ) {
        self.source = source
        self.verdict = verdict
        self.error = error
        self.exitCode = exitCode
        self.context = context
        self.notes = notes
        self.thresholds = thresholds
        self.comparisons = comparisons
    }

    @_spi(Records) public static let blank = GateReportFile(
        verdict: .pass, error: nil, exitCode: 0, context: [], notes: [], thresholds: .blank, comparisons: [])
    public static var documentSchema: String? { schema }

    /// The declaration table (`error` written as `null` when absent).
    @_spi(Records) public static let fields: [RecordField<GateReportFile>] = [
        .required("verdict", \.verdict, .cases(), "the run's verdict"),
        .optional("error", \.error, .string, absent: .null, "why the report cannot be trusted"),
        .required("exitCode", \.exitCode, .int(.exitStatus), "the exit status"),
        .defaulted("context", \.context, .display, default: [], written: .always, "labelled facts for the reader"),
        .list("notes", \.notes, .string, written: .always, "remarks, e.g. a metric not measured and why"),
        .required("thresholds", \.thresholds, .record(), "the thresholds the comparisons were judged with"),
        .list("comparisons", \.comparisons, .record(), written: .always, "every comparison, in cell order"),
    ]

    /// Notes the file's name.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) { source = position.source }
}
