import DiffLabJSON
import DiffLabResults

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
    public static let schema = StoredBaselineFile.schema
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
        let file: StoredBaselineFile
        do throws(ResultsError) { file = try StoredBaselineFile(json: json, source: source) } catch {
            if case .invalid(let source, let field, let expected) = error { throw .badBaseline(source: source, field: field, expected: expected) }
            throw .badBaseline(source: source, field: "the document", expected: error.description)
        }
        self.source = source
        cells = file.cells.map(\.name)
        var values: [String: [GateMetric: Double]] = [:]
        for cell in file.cells {
            var cellValues: [GateMetric: Double] = [:]
            for metric in Self.metrics {
                if let value = Self.value(of: metric, in: cell) { cellValues[metric] = Double(value) }
            }
            values[cell.name] = cellValues
        }
        self.values = values
        candidate = file.candidate
        cpu = file.machine.first { $0.name == Self.cpuField }?.value
        toolchain = file.toolchain
    }

    /// A baseline from a `difflab bench` results file (a merged one of a sharded run included):
    /// every cell measured under jemalloc, with the bytes and allocation requests of one call
    /// (the figures the gate measures under jemalloc too; instructions are not in bench files and
    /// time is never gated against a stored baseline).
    ///
    /// - Parameters:
    ///   - bench: the `difflab bench` results file the baseline is read from.
    ///   - seed: the gate's dataset seed: a bench file made with another seed measured other
    ///     lists, so it is refused (a file without a seed is taken as made with DiffLab's default, 42).
    /// - Throws: ``GateError/badBaseline(source:field:expected:)`` when the seed differs, a cell is
    ///   measured twice (the gate fails closed rather than pick one), or no cell has those
    ///   figures (a bench run without jemalloc could not gate anything).
    /// - Complexity: O(measurements).
    public init(bench: BenchResults, seed: UInt64 = 42) throws(GateError) {
        source = bench.source
        guard (bench.options.seed ?? "42") == String(seed) else {
            throw .badBaseline(
                source: bench.source, field: "options.seed", expected: "the gate's seed \(seed) (the file's is \(bench.options.seed ?? "42"))")
        }
        var cells: [String] = []
        var values: [String: [GateMetric: Double]] = [:]
        for m in bench.measurements where m.allocator == .jemalloc && m.isMeasured {
            var cellValues: [GateMetric: Double] = [:]
            if let bytes = m.allocatedBytes { cellValues[.allocatedBytes] = bytes }
            if let requests = m.allocationRequests { cellValues[.allocationRequests] = requests }
            let name = "\(m.engine):\(m.profile):\(m.kind):\(m.size)"
            guard values[name] == nil else {
                throw .badBaseline(source: bench.source, field: "measurements", expected: "each jemalloc cell once (\(name) is there twice)")
            }
            guard !cellValues.isEmpty else { continue }
            cells.append(name)
            values[name] = cellValues
        }
        guard !cells.isEmpty else {
            throw .badBaseline(
                source: bench.source, field: "measurements", expected: "a cell measured under jemalloc with its allocated bytes or requests")
        }
        self.cells = cells
        self.values = values
        candidate = "difflab bench results" + (bench.provenance.commit.map { " at \($0.prefix(12))" } ?? "")
        cpu = bench.provenance.machine.first { $0.name == Self.cpuField }?.value
        toolchain = bench.provenance.toolchain
    }

    /// The machine field that names the CPU model.
    static let cpuField = "cpu"

    /// `metric`'s value in a stored cell (`nil` for time, which is never stored).
    static func value(of metric: GateMetric, in cell: BaselineCell) -> Int? {
        switch metric {
        case .instructions: cell.instructions
        case .allocatedBytes: cell.allocatedBytes
        case .allocationRequests: cell.allocationRequests
        case .time: nil
        }
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
    /// measured are written as `null`; values are whole counts, rounded down, at most 2^53).
    /// - Complexity: O(cells).
    public static func json(
        cells: [(String, [GateMetric: Double])], candidate: String, createdAt: Int, machine: [(String, String)], toolchain: String
    ) -> JSONValue {
        func count(_ value: Double?) -> Int? {
            value.flatMap { $0.isFinite ? Int(exactly: min(max($0, 0), countRange.upperBound).rounded(.down)) : nil }
        }
        let stored = cells.map { name, values in
            BaselineCell(
                name: name, instructions: count(values[.instructions]), allocatedBytes: count(values[.allocatedBytes]),
                allocationRequests: count(values[.allocationRequests]))
        }
        return StoredBaselineFile(
            createdAt: createdAt, candidate: candidate, machine: machine.map { DisplayField(name: $0.0, value: $0.1) }, toolchain: toolchain,
            cells: stored
        ).json
    }
}
