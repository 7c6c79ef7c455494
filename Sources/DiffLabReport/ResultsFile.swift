import DiffLabJSON

/// A results file a report can be made from, recognised by its `"schema"` field.
public enum ResultsFile: Sendable, Equatable {
    /// `difflab-bench/1`, written by `difflab bench`.
    case bench(BenchResults)
    /// `difflab-policy/1`, written by `difflab policy`.
    case policy(PolicyResults)

    /// Recognises and reads a parsed results document.
    ///
    /// - Parameter source: names the input in errors and in the report (usually the path).
    /// - Throws: ``ReportError/notAnObject(source:found:)``, ``ReportError/missingSchema(source:)``,
    ///   ``ReportError/unknownSchema(source:schema:)``, or the field errors of the schema's reader.
    /// - Complexity: O(size of the document).
    public init(_ document: JSONValue, source: String) throws(ReportError) {
        guard document.objectValue != nil else { throw .notAnObject(source: source, found: article(document)) }
        guard let schema = document["schema"]?.stringValue else { throw .missingSchema(source: source) }
        guard schema.isStreamSafe else { throw .unknownSchema(source: source, schema: String(schema.unicodeScalars.prefix(40))) }
        switch schema {
        case BenchResults.schema: self = .bench(try BenchResults(document, source: source))
        case PolicyResults.schema: self = .policy(try PolicyResults(document, source: source))
        default: throw .unknownSchema(source: source, schema: schema)
        }
    }

    /// The input's name.
    public var source: String {
        switch self {
        case .bench(let results): results.source
        case .policy(let results): results.source
        }
    }
}
