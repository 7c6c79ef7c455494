import DiffLabJSON

/// One cell of a stored gate baseline: the deterministic metrics of one call, each `nil` when
/// not measured (written as `null`).
public struct BaselineCell: Sendable, Equatable {
    enum Key: String, CaseIterable { case instructions, allocatedBytes, allocationRequests }

    /// The cell name (`subject:profile:kind:size`), not empty.
    public var name: String
    /// Values from 0 to 2^53.
    public var instructions: Int?
    /// Bytes allocated per call, 0 to 2^53 (jemalloc only).
    public var allocatedBytes: Int?
    /// Allocation requests per call, 0 to 2^53 (jemalloc only).
    public var allocationRequests: Int?

    /// A cell; see the properties (not range-checked: ``StoredBaselineFile/init(json:source:)`` checks files).
    public init(name: String, instructions: Int? = nil, allocatedBytes: Int? = nil, allocationRequests: Int? = nil) {
        self.name = name
        self.instructions = instructions
        self.allocatedBytes = allocatedBytes
        self.allocationRequests = allocationRequests
    }

    /// The metrics object (every metric written, `null` when absent). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.instructions, instructions, null: true)
        w.set(.allocatedBytes, allocatedBytes, null: true)
        w.set(.allocationRequests, allocationRequests, null: true)
        return w.json
    }
}

/// A stored gate baseline (schema `difflab-gate-baseline/1`): the deterministic metrics of one
/// build per cell, written by `difflab gate --save-baseline` and read by `--baseline`, with where
/// they were measured.
///
/// ## What a valid file holds
/// - `schema`: exactly ``schema``.
/// - `cells`: a non-empty object; each member is a cell name whose value is an object with only
///   the members `instructions`, `allocatedBytes` and `allocationRequests`, each `null` (not
///   measured) or an integer from 0 to 2^53; at least one of them must be a number, or the cell
///   could not gate anything.
/// - optional: `createdAt` (an integer ≥ 0), `candidate` and `toolchain` (strings), `machine`
///   (an object of strings).
///
/// Unlike results files, unknown members of a cell are refused: a typo must not pass as "no
/// regression" (the gate fails closed).
public struct StoredBaselineFile: Sendable, Equatable {
    enum Key: String { case schema, createdAt, candidate, machine, toolchain, cells }

    /// The schema name a stored baseline carries.
    public static let schema = "difflab-gate-baseline/1"

    /// Unix seconds when the baseline was stored, in ``FieldRange/unixTime``.
    public var createdAt: Int?
    /// Which build was stored.
    public var candidate: String?
    /// The machine it was measured on, in order.
    public var machine: [DisplayField]
    /// The Swift toolchain that built it.
    public var toolchain: String?
    /// The cells, in file order.
    public var cells: [BaselineCell]

    /// A baseline file; see the properties.
    public init(createdAt: Int? = nil, candidate: String? = nil, machine: [DisplayField] = [], toolchain: String? = nil, cells: [BaselineCell]) {
        self.createdAt = createdAt
        self.candidate = candidate
        self.machine = machine
        self.toolchain = toolchain
        self.cells = cells
    }

    /// The document. O(cells).
    public var json: JSONValue {
        var cellsObject = JSONObject()
        for cell in cells { cellsObject[cell.name] = cell.json }
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(.createdAt, createdAt)
        w.set(.candidate, candidate)
        w.set(.machine, DisplayField.json(machine))
        w.set(.toolchain, toolchain)
        w.set(.cells, .object(cellsObject))
        return w.json
    }

    /// Reads and checks a stored baseline; see the type's documentation for the rules.
    ///
    /// - Throws: ``ResultsError/invalid(source:field:expected:)`` for the first field that breaks them.
    /// - Complexity: O(size of the file).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        func bad(_ field: String, _ expected: String) -> ResultsError { .invalid(source: source, field: field, expected: expected) }
        func quoted(_ key: Key) -> String { "\"\(key.rawValue)\"" }
        guard json.objectValue != nil else { throw bad("the document", "a JSON object, not \(json.typeName)") }
        guard json[Key.schema.rawValue]?.stringValue == Self.schema else { throw bad(quoted(.schema), "\"\(Self.schema)\"") }
        if let value = json[Key.createdAt.rawValue], value != .null {
            guard let createdAt = value.intValue, createdAt >= 0 else { throw bad(quoted(.createdAt), "an integer ≥ 0 (Unix seconds), not \(value)") }
            self.createdAt = createdAt
        }
        for key in [Key.candidate, .toolchain] {
            if let value = json[key.rawValue], value != .null, value.stringValue == nil { throw bad(quoted(key), "a string, not \(value.typeName)") }
        }
        candidate = json[Key.candidate.rawValue]?.stringValue
        toolchain = json[Key.toolchain.rawValue]?.stringValue
        machine = []
        if let value = json[Key.machine.rawValue], value != .null {
            guard let fields = value.objectValue else { throw bad(quoted(.machine), "an object, not \(value.typeName)") }
            for (key, field) in fields {
                guard let text = field.stringValue else { throw bad("\(Key.machine.rawValue).\(key)", "a string, not \(field.typeName)") }
                machine.append(DisplayField(name: key, value: text))
            }
        }
        guard let cellsObject = json[Key.cells.rawValue]?.objectValue else {
            throw bad(quoted(.cells), "an object of cells, not \(json[Key.cells.rawValue]?.typeName ?? "missing")")
        }
        guard cellsObject.count > 0 else { throw bad(quoted(.cells), "a non-empty object: a baseline with no cells gates nothing") }
        let allowed = BaselineCell.Key.allCases.map(\.rawValue).joined(separator: ", ")
        cells = []
        for (name, entry) in cellsObject {
            let path = "\(Key.cells.rawValue)[\"\(name)\"]"
            guard !name.isEmpty else { throw bad("\(Key.cells.rawValue)[\"\"]", "a cell name (subject:profile:kind:size)") }
            guard let fields = entry.objectValue else { throw bad(path, "an object of metrics, not \(entry.typeName)") }
            var cell = BaselineCell(name: name)
            for (key, value) in fields {
                guard let metric = BaselineCell.Key(rawValue: key) else { throw bad("\(path).\(key)", "absent: a cell holds only \(allowed)") }
                if value == .null { continue }
                // The parser gives integral values that fit Int as `.integer`; anything else is
                // fractional or beyond 2^63, so out of range either way.
                guard let count = value.intValue, FieldRange<Int>.count.range.contains(count) else {
                    throw bad("\(path).\(key)", "null or an integer from 0 to 2^53, not \(value.briefDescription)")
                }
                switch metric {
                case .instructions: cell.instructions = count
                case .allocatedBytes: cell.allocatedBytes = count
                case .allocationRequests: cell.allocationRequests = count
                }
            }
            guard cell.instructions != nil || cell.allocatedBytes != nil || cell.allocationRequests != nil else {
                throw bad(path, "an object with at least one of \(allowed) measured: this cell's are all null")
            }
            cells.append(cell)
        }
    }
}

/// One comparison of a gate report: a metric of a cell, its verdict and evidence.
public struct GateComparisonRecord: Sendable, Equatable {
    enum Key: String { case cell, metric, verdict, base, head, ratio, ratioLow, ratioHigh, p, pAdjusted, rounds, note }

    /// The paired-rounds statistics of a time comparison (written, `null` when absent, only for time).
    public struct TimeStatistics: Sendable, Equatable {
        /// Lower end of the 95% bootstrap interval of the ratio.
        public var ratioLow: Double?
        /// Upper end of the 95% bootstrap interval of the ratio.
        public var ratioHigh: Double?
        /// Wilcoxon signed-rank two-sided p-value, in ``FieldRange/probability``.
        public var p: Double?
        /// ``p`` after Holm's adjustment, in ``FieldRange/probability``.
        public var pAdjusted: Double?
        /// Paired rounds compared.
        public var rounds: Int?

        /// Statistics; see the properties.
        public init(ratioLow: Double? = nil, ratioHigh: Double? = nil, p: Double? = nil, pAdjusted: Double? = nil, rounds: Int? = nil) {
            self.ratioLow = ratioLow
            self.ratioHigh = ratioHigh
            self.p = p
            self.pAdjusted = pAdjusted
            self.rounds = rounds
        }
    }

    /// The cell name, `subject:profile:kind:size`.
    public var cell: String
    /// The metric: `time`, `instructions`, `allocatedBytes` or `allocationRequests`.
    public var metric: String
    /// The verdict: `pass`, `regression`, `improvement` or `not-gated`.
    public var verdict: String
    /// Values in the metric's unit (seconds, instructions, bytes, requests), 0 to 2^53.
    public var base: Double?
    /// The candidate's value, like ``base``.
    public var head: Double?
    /// head ÷ base, in ``FieldRange/ratio``.
    public var ratio: Double?
    /// Paired-rounds statistics; only for the time metric.
    public var time: TimeStatistics?
    /// Why the comparison was not gated, or a remark; empty when none (then not written).
    public var note: String

    /// A comparison row; see the properties.
    public init(
        cell: String, metric: String, verdict: String, base: Double?, head: Double?, ratio: Double?, time: TimeStatistics? = nil, note: String = ""
    ) {
        self.cell = cell
        self.metric = metric
        self.verdict = verdict
        self.base = base
        self.head = head
        self.ratio = ratio
        self.time = time
        self.note = note
    }

    /// The comparison object. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.cell, cell)
        w.set(.metric, metric)
        w.set(.verdict, verdict)
        w.set(.base, base, null: true)
        w.set(.head, head, null: true)
        w.set(.ratio, ratio, null: true)
        if let time {
            w.set(.ratioLow, time.ratioLow, null: true)
            w.set(.ratioHigh, time.ratioHigh, null: true)
            w.set(.p, time.p, null: true)
            w.set(.pAdjusted, time.pAdjusted, null: true)
            w.set(.rounds, time.rounds, null: true)
        }
        if !note.isEmpty { w.set(.note, note) }
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            cell: try row.requiredString(.cell), metric: try row.requiredString(.metric), verdict: try row.requiredString(.verdict),
            base: try row.optionalDouble(.base, in: .amount), head: try row.optionalDouble(.head, in: .amount),
            ratio: try row.optionalDouble(.ratio, in: .ratio),
            note: try row.optionalString(.note) ?? "")
        // Time statistics are present exactly when the object has their members.
        if [Key.ratioLow, .ratioHigh, .p, .pAdjusted, .rounds].contains(where: { row.object[$0.rawValue] != nil }) {
            time = TimeStatistics(
                ratioLow: try row.optionalDouble(.ratioLow, in: .ratio), ratioHigh: try row.optionalDouble(.ratioHigh, in: .ratio),
                p: try row.optionalDouble(.p, in: .probability), pAdjusted: try row.optionalDouble(.pAdjusted, in: .probability),
                rounds: try row.optionalInt(.rounds, in: .count))
        }
    }
}

/// A metric's thresholds in a gate report.
public struct GateMetricThresholdRecord: Sendable, Equatable {
    enum Key: String { case regression, improvement, absolute }

    /// The metric the thresholds apply to.
    public var metric: String
    /// Relative thresholds, in ``FieldRange/relative``.
    public var regression: Double
    /// Relative improvement threshold, in ``FieldRange/relative``.
    public var improvement: Double
    /// In the metric's unit, in ``FieldRange/amount``.
    public var absolute: Double

    /// A thresholds row; see the properties.
    public init(metric: String, regression: Double, improvement: Double, absolute: Double) {
        self.metric = metric
        self.regression = regression
        self.improvement = improvement
        self.absolute = absolute
    }

    var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.regression, regression)
        w.set(.improvement, improvement)
        w.set(.absolute, absolute)
        return w.json
    }
}

/// A gate report (schema `difflab-gate/1`), written by `difflab gate --out`: verdict, exit code,
/// context, notes, thresholds and every comparison.
public struct GateReportFile: Sendable, Equatable {
    enum Key: String { case schema, verdict, error, exitCode, context, notes, thresholds, comparisons }
    enum ThresholdsKey: String { case alpha, improvementExitCode, metrics }

    /// The schema name of a gate report.
    public static let schema = "difflab-gate/1"

    /// `pass`, `regression`, `improvement` or `error`.
    public var verdict: String
    /// Why the report cannot be trusted (then ``verdict`` is `error`).
    public var error: String?
    /// In 0 to 255.
    public var exitCode: Int
    /// Labelled facts for the reader (baseline, candidate, rounds, machine…), in order.
    public var context: [DisplayField]
    /// Remarks, e.g. a metric that could not be measured and why.
    public var notes: [String]
    /// In ``FieldRange/probability``.
    public var alpha: Double
    /// 0 or 4.
    public var improvementExitCode: Int
    /// The thresholds of each metric.
    public var metrics: [GateMetricThresholdRecord]
    /// Every comparison, in cell order.
    public var comparisons: [GateComparisonRecord]

    /// A gate report; see the properties.
    public init(
        verdict: String, error: String?, exitCode: Int, context: [DisplayField], notes: [String], alpha: Double, improvementExitCode: Int,
        metrics: [GateMetricThresholdRecord], comparisons: [GateComparisonRecord]
    ) {
        self.verdict = verdict
        self.error = error
        self.exitCode = exitCode
        self.context = context
        self.notes = notes
        self.alpha = alpha
        self.improvementExitCode = improvementExitCode
        self.metrics = metrics
        self.comparisons = comparisons
    }

    /// The report document (`error` written as `null` when absent). O(comparisons).
    public var json: JSONValue {
        var metricsObject = JSONObject()
        for metric in metrics { metricsObject[metric.metric] = metric.json }
        var t = FieldWriter<ThresholdsKey>()
        t.set(.alpha, alpha)
        t.set(.improvementExitCode, improvementExitCode)
        t.set(.metrics, .object(metricsObject))
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(.verdict, verdict)
        w.set(.error, error, null: true)
        w.set(.exitCode, exitCode)
        w.set(.context, DisplayField.json(context))
        w.set(.notes, strings: notes)
        w.set(.thresholds, t.json)
        w.set(.comparisons, .array(comparisons.map(\.json)))
        return w.json
    }

    /// Reads a gate report.
    /// - Throws: ``ResultsError``: schema errors, a missing `verdict`, `exitCode` or threshold,
    ///   numbers outside their ranges (see the properties), wrong types.
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        verdict = try root.requiredString(.verdict)
        error = try root.optionalString(.error)
        exitCode = try root.requiredInt(.exitCode, in: .exitStatus)
        context = try root.displayFields(.context)
        notes = try root.strings(.notes)
        guard let thresholds = try root.object(.thresholds, ThresholdsKey.self) else {
            throw .missingField(source: source, path: Key.thresholds.rawValue)
        }
        guard let alpha = try thresholds.optionalDouble(.alpha, in: .probability) else {
            throw .missingField(source: source, path: thresholds.path(.alpha))
        }
        self.alpha = alpha
        improvementExitCode = try thresholds.requiredInt(.improvementExitCode, in: .exitStatus)
        metrics = []
        if let value = thresholds.present(.metrics) {
            guard let members = value.objectValue else {
                throw .wrongType(source: source, path: thresholds.path(.metrics), expected: "an object", found: article(value))
            }
            for (name, member) in members {
                let reader = try FieldReader<GateMetricThresholdRecord.Key>(member, source: source, path: thresholds.path(.metrics) + "." + name)
                func required(_ key: GateMetricThresholdRecord.Key, _ range: FieldRange<Double>) throws(ResultsError) -> Double {
                    guard let number = try reader.optionalDouble(key, in: range) else { throw .missingField(source: source, path: reader.path(key)) }
                    return number
                }
                metrics.append(
                    GateMetricThresholdRecord(
                        metric: name, regression: try required(.regression, .relative), improvement: try required(.improvement, .relative),
                        absolute: try required(.absolute, .amount)))
            }
        }
        comparisons = []
        for row in try root.objects(.comparisons, GateComparisonRecord.Key.self) { comparisons.append(try GateComparisonRecord(row)) }
    }
}
