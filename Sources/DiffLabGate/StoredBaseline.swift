import DiffLabJSON

/// A stored baseline (schema `difflab-gate-baseline/1`): the deterministic metrics of one build
/// per cell, written by `difflab gate --save-baseline` and read by `--baseline`, with where they
/// were measured.
///
/// ## What a valid file holds
/// - `schema`: exactly ``schema``.
/// - `cells`: a non-empty object; each member is a cell name (`subject:profile:kind:size`) whose
///   value is an object with only the members `instructions`, `allocatedBytes` and
///   `allocationRequests`, each `null` (not measured) or an integer in ``countRange``; at least
///   one of them must be a number, or the cell could not gate anything.
/// - optional: `createdAt` (an integer ≥ 0), `candidate` and `toolchain` (strings), `machine`
///   (an object of strings).
///
/// Anything else is a ``GateError/badBaseline(source:field:expected:)`` naming the file, the
/// field and what was expected, so a damaged or hand-edited baseline never passes as "no
/// regression" (issue 10: the gate fails closed).
public struct StoredBaseline: Sendable, Equatable {
    /// The schema name a stored baseline carries.
    public static let schema = "difflab-gate-baseline/1"
    /// The allowed range of a stored value (instructions, bytes, allocation requests of one
    /// call): integers from 0 to 2^53, the range in which a `Double` holds every integer.
    public static let countRange = 0.0...9_007_199_254_740_992
    /// ``countRange`` as integers, for checking values before they become `Double`s (2^53 + 1
    /// would round into the range).
    public static let integerCountRange = 0...(1 << 53)
    /// The metrics a stored baseline holds: the deterministic ones.
    public static let metrics = GateMetric.allCases.filter(\.isDeterministic)

    /// What the file was called (usually its path), for messages.
    public var source: String
    /// The cells in file order.
    public var cells: [String]
    /// The stored values: per cell, the metrics that are not `null`.
    public var values: [String: [GateMetric: Double]]
    /// Which build was stored (`candidate`), if the file says.
    public var candidate: String?
    /// The CPU model it was measured on (`machine.cpu`), if the file says.
    public var cpu: String?
    /// The toolchain it was built with (`toolchain`), if the file says.
    public var toolchain: String?

    /// Reads and checks a stored baseline; see the type's documentation for the rules.
    ///
    /// - Throws: ``GateError/badBaseline(source:field:expected:)`` for the first field that
    ///   breaks them.
    /// - Complexity: O(size of the file).
    public init(json: JSONValue, source: String) throws(GateError) {
        func bad(_ field: String, _ expected: String) -> GateError { .badBaseline(source: source, field: field, expected: expected) }
        guard json.objectValue != nil else { throw bad("the document", "a JSON object, not \(json.typeName)") }
        guard json["schema"]?.stringValue == Self.schema else { throw bad("\"schema\"", "\"\(Self.schema)\"") }
        if let createdAt = json["createdAt"], createdAt != .null, (createdAt.intValue ?? -1) < 0 {
            throw bad("\"createdAt\"", "an integer ≥ 0 (Unix seconds), not \(createdAt)")
        }
        for key in ["candidate", "toolchain"] {
            if let value = json[key], value != .null, value.stringValue == nil { throw bad("\"\(key)\"", "a string, not \(value.typeName)") }
        }
        if let machine = json["machine"], machine != .null {
            guard let fields = machine.objectValue else { throw bad("\"machine\"", "an object, not \(machine.typeName)") }
            for (key, value) in fields where value.stringValue == nil { throw bad("machine.\(key)", "a string, not \(value.typeName)") }
        }
        guard let cellsValue = json["cells"], let cells = cellsValue.objectValue else {
            throw bad("\"cells\"", "an object of cells, not \(json["cells"]?.typeName ?? "missing")")
        }
        guard cells.count > 0 else { throw bad("\"cells\"", "a non-empty object: a baseline with no cells gates nothing") }
        var names: [String] = []
        var values: [String: [GateMetric: Double]] = [:]
        let allowed = Self.metrics.map(\.rawValue)
        for (name, entry) in cells {
            let path = "cells[\"\(name)\"]"
            guard !name.isEmpty else { throw bad("cells[\"\"]", "a cell name (subject:profile:kind:size)") }
            guard let fields = entry.objectValue else { throw bad(path, "an object of metrics, not \(entry.typeName)") }
            var cellValues: [GateMetric: Double] = [:]
            for (key, value) in fields {
                guard let metric = GateMetric(rawValue: key), metric.isDeterministic else {
                    throw bad("\(path).\(key)", "absent: a cell holds only \(allowed.joined(separator: ", "))")
                }
                if value == .null { continue }
                // The parser gives integral values that fit Int as `.integer`; anything else is
                // fractional or beyond 2^63, so out of range either way.
                guard let count = value.intValue, Self.integerCountRange.contains(count) else {
                    throw bad("\(path).\(key)", "null or an integer from 0 to 2^53, not \(value.briefDescription)")
                }
                cellValues[metric] = Double(count)
            }
            guard !cellValues.isEmpty else {
                throw bad(path, "an object with at least one of \(allowed.joined(separator: ", ")) measured: this cell's are all null")
            }
            names.append(name)
            values[name] = cellValues
        }
        self.source = source
        self.cells = names
        self.values = values
        candidate = json["candidate"]?.stringValue
        cpu = json["machine"]?["cpu"]?.stringValue
        toolchain = json["toolchain"]?.stringValue
    }

    /// The stored value of `metric` for `cell`; `nil` when the file holds `null` or no such cell.
    /// - Complexity: O(1).
    public func value(_ cell: String, _ metric: GateMetric) -> Double? { values[cell]?[metric] }

    /// Checks that the file has an entry for every cell of `measured` (a cell the candidate
    /// measured but the baseline lacks would otherwise just go ungated).
    ///
    /// - Throws: ``GateError/baselineMissingCells(source:cells:)`` listing every missing cell.
    /// - Complexity: O(measured).
    public func requireCells(_ measured: [String]) throws(GateError) {
        let missing = measured.filter { values[$0] == nil }
        guard missing.isEmpty else { throw .baselineMissingCells(source: source, cells: missing) }
    }

    /// A stored baseline document: `cells` in order, each with its measured metrics (metrics not
    /// measured are written as `null`).
    /// - Complexity: O(cells).
    public static func json(
        cells: [(String, [GateMetric: Double])], candidate: String, createdAt: Int, machine: [(String, String)], toolchain: String
    ) -> JSONValue {
        var object = JSONObject()
        for (cell, values) in cells {
            object[cell] = .object(JSONObject(metrics.map { ($0.rawValue, values[$0].map { JSONValue($0) } ?? .null) }))
        }
        return .object(
            JSONObject([
                ("schema", .string(schema)),
                ("createdAt", .integer(createdAt)),
                ("candidate", .string(candidate)),
                ("machine", .object(JSONObject(machine.map { ($0.0, .string($0.1)) }))),
                ("toolchain", .string(toolchain)),
                ("cells", .object(object)),
            ]))
    }
}
