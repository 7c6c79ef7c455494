/// Why a results file cannot be turned into a report. Every case names the input (`source`, as the
/// caller called it, usually the path) and, for field problems, a path into the JSON such as
/// `measurements[3].median`.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No results files were given.
    case noInputs
    /// The document is not a JSON object.
    case notAnObject(source: String, found: String)
    /// The document has no `"schema"` string.
    case missingSchema(source: String)
    /// The `"schema"` is not one this report understands.
    case unknownSchema(source: String, schema: String)
    /// A required field is absent (or `null`).
    case missingField(source: String, path: String)
    /// A field has the wrong JSON type.
    case wrongType(source: String, path: String, expected: String, found: String)
    /// A number lies outside its field's documented range (see ``FieldRange``); `allowed`
    /// describes the range, e.g. `0 to 86400 (seconds)`.
    case outOfRange(source: String, path: String, value: String, allowed: String)

    /// The schemas a report can be made from.
    public static let knownSchemas = ["difflab-bench/1", "difflab-policy/1"]

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .noInputs:
            return "no results files given"
        case .notAnObject(let source, let found):
            return "\(source): expected a JSON object with a \"schema\" field, not \(found)"
        case .missingSchema(let source):
            return "\(source): no \"schema\" string; expected one of \(ReportError.knownSchemas.joined(separator: ", "))"
        case .unknownSchema(let source, let schema):
            return "\(source): unknown schema \"\(schema)\"; expected one of \(ReportError.knownSchemas.joined(separator: ", "))"
        case .missingField(let source, let path):
            return "\(source): missing field \(path)"
        case .wrongType(let source, let path, let expected, let found):
            return "\(source): \(path) should be \(expected), not \(found)"
        case .outOfRange(let source, let path, let value, let allowed):
            return "\(source): \(path) is \(value), outside its allowed range \(allowed)"
        }
    }
}
