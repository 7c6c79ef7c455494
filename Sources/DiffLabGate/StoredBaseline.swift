import DiffLabJSON
import DiffLabResults

// `StoredBaseline` is DiffLabResults' record of a `difflab-gate-baseline/1` file; here, how the
// gate reads one (failing closed), makes one from its measurements or a bench results file, and
// checks it covers the cells measured.

extension StoredBaseline {
    /// Reads and checks a stored baseline (see ``StoredBaseline``'s rules), so a damaged or
    /// hand-edited baseline never passes as "no regression" (issue 10: the gate fails closed).
    ///
    /// - Throws: ``GateError/badBaseline(source:field:expected:)`` naming the file, the first field
    ///   that breaks the rules and what was expected.
    /// - Complexity: O(size of the file).
    public static func read(_ json: JSONValue, source: String) throws(GateError) -> StoredBaseline {
        do throws(ResultsError) { return try StoredBaseline(json: json, source: source) } catch {
            let (field, expected): (String, String) =
                switch error {
                case .invalid(_, let field, let expected): (field, expected)
                case .wrongType(_, let path, let expected, let found): (path, "\(expected), not \(found)")
                case .outOfRange(_, let path, let value, let allowed): (path, "\(allowed), not \(value)")
                case .missingField(_, let path): (path, "present")
                case .notAnObject(_, let found): ("the document", "a JSON object, not \(found)")
                case .missingSchema, .unknownSchema: ("schema", "\"\(schema)\"")
                case .noInputs, .noMeasurements: ("the document", error.description)
                }
            throw .badBaseline(source: source, field: field, expected: expected)
        }
    }

    /// A baseline of measured values: `cells` in order, each with its measured metrics (metrics
    /// not measured are stored as `nil`, written as `null`; values become whole counts, rounded
    /// down, within ``StoredBaseline/countRange``).
    /// - Complexity: O(cells).
    public init(
        measured cells: [(String, [GateMetric: Double])], candidate: String?, createdAt: Int? = nil, machine: [DisplayField] = [],
        toolchain: String? = nil, source: String = ""
    ) {
        func count(_ value: Double?) -> Int? {
            value.flatMap { $0.isFinite ? Int(exactly: min(max($0, 0), Self.countRange.upperBound).rounded(.down)) : nil }
        }
        let stored = cells.map { name, values in
            BaselineCell(
                name: name, instructions: count(values[.instructions]), allocatedBytes: count(values[.allocatedBytes]),
                allocationRequests: count(values[.allocationRequests]))
        }
        self.init(source: source, createdAt: createdAt, candidate: candidate, machine: machine, toolchain: toolchain, cells: stored)
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
        guard (bench.options.seed ?? "42") == String(seed) else {
            throw .badBaseline(
                source: bench.source, field: "options.seed", expected: "the gate's seed \(seed) (the file's is \(bench.options.seed ?? "42"))")
        }
        var cells: [(String, [GateMetric: Double])] = []
        var seen: Set<String> = []
        for m in bench.measurements where m.allocator == .jemalloc && m.isMeasured {
            var values: [GateMetric: Double] = [:]
            if let bytes = m.allocatedBytes { values[.allocatedBytes] = bytes }
            if let requests = m.allocationRequests { values[.allocationRequests] = requests }
            let name = "\(m.engine):\(m.profile):\(m.kind):\(m.size)"
            guard seen.insert(name).inserted else {
                throw .badBaseline(source: bench.source, field: "measurements", expected: "each jemalloc cell once (\(name) is there twice)")
            }
            if !values.isEmpty { cells.append((name, values)) }
        }
        guard !cells.isEmpty else {
            throw .badBaseline(
                source: bench.source, field: "measurements", expected: "a cell measured under jemalloc with its allocated bytes or requests")
        }
        self.init(
            measured: cells, candidate: "difflab bench results" + (bench.provenance.commit.map { " at \($0.prefix(12))" } ?? ""),
            createdAt: bench.provenance.createdAt, machine: bench.provenance.machine, toolchain: bench.provenance.toolchain, source: bench.source)
    }

    /// Checks that the file has an entry for every cell of `measured` (a cell the candidate
    /// measured but the baseline lacks would otherwise just go ungated).
    ///
    /// - Throws: ``GateError/baselineMissingCells(source:cells:)`` listing every missing cell.
    /// - Complexity: O(measured).
    public func requireCells(_ measured: [String]) throws(GateError) {
        let missing = measured.filter { self[cell: $0] == nil }
        guard missing.isEmpty else { throw .baselineMissingCells(source: source, cells: missing) }
    }
}
