import DiffLabJSON

/// A results file a report can be made from, recognised by its `"schema"` field.
public enum ResultsFile: Sendable, Equatable {
    /// `difflab-bench/1`, written by `difflab bench`.
    case bench(BenchResults)
    /// `difflab-policy/1`, written by `difflab policy`.
    case policy(PolicyResults)
    /// `difflab-policy/2`, written by `difflab policy` (the scenario grid).
    case policyGrid(PolicyGridResults)
    /// `difflab-arena/1`, written by the arena run (third-party diff libraries fuzzed and benchmarked).
    case arena(ArenaResults)
    /// `difflab-bench-trace/1`, written by `difflab bench --trace` (every engine on a recorded trace).
    case traceBench(TraceBenchResults)
    /// `difflab-updaters/1`, written by `difflab updaters --out` (updaters checked under every
    /// interleaving, with each broken property's shrunk run).
    case updaters(UpdaterFindingsFile)

    /// Recognises and reads a parsed results document, refusing one a report would show nothing of.
    ///
    /// - Parameters:
    ///   - document: the parsed results file.
    ///   - source: names the input in errors and in the report (usually the path).
    /// - Throws: ``ResultsError/notAnObject(source:found:)``, ``ResultsError/missingSchema(source:)``,
    ///   ``ResultsError/unknownSchema(source:schema:)``, the field errors of the schema's decoder, and
    ///   ``ResultsError/noMeasurements(source:cells:)`` for a bench file without a measured cell,
    ///   ``ResultsError/invalid(source:field:expected:)`` for an updaters findings file without an
    ///   updater.
    /// - Complexity: O(size of the document).
    public init(_ document: JSONValue, source: String) throws(ResultsError) {
        switch try schemaName(document, source: source) {
        case BenchResults.schema:
            let results = try BenchResults(json: document, source: source)
            guard results.measurements.contains(where: \.isMeasured) else {
                throw .noMeasurements(source: source, cells: results.measurements.count)
            }
            self = .bench(results)
        case PolicyResults.schema:
            self = .policy(try PolicyResults(json: document, source: source))
        case PolicyGridResults.schema:
            self = .policyGrid(try PolicyGridResults(json: document, source: source))
        case ArenaResults.schema:
            self = .arena(try ArenaResults(json: document, source: source))
        case TraceBenchResults.schema:
            let results = try TraceBenchResults(json: document, source: source)
            guard results.subjects.contains(where: { $0.isMeasured(pairs: results.pairs.count) }) else {
                throw .noMeasurements(source: source, cells: results.subjects.count)
            }
            self = .traceBench(results)
        case UpdaterFindingsFile.schema:
            let findings = try UpdaterFindingsFile(json: document, source: source)
            guard !findings.updaters.isEmpty else {
                throw .invalid(source: source, field: "updaters", expected: "at least one updater (a report of none would compare nothing)")
            }
            self = .updaters(findings)
        case let schema:
            throw .unknownSchema(source: source, schema: schema)
        }
    }

    /// The input's name.
    public var source: String {
        switch self {
        case .bench(let results): results.source
        case .policy(let results): results.source
        case .policyGrid(let results): results.source
        case .arena(let results): results.source
        case .traceBench(let results): results.source
        case .updaters(let findings): findings.source
        }
    }

    /// The input's schema name.
    public var schema: String {
        switch self {
        case .bench: BenchResults.schema
        case .policy: PolicyResults.schema
        case .policyGrid: PolicyGridResults.schema
        case .arena: ArenaResults.schema
        case .traceBench: TraceBenchResults.schema
        case .updaters: UpdaterFindingsFile.schema
        }
    }
}
