// DiffLabResults — the single home of the files DiffLab writes and reads back, as typed records.
//
// Every record has exactly one encoder (`var json: JSONValue`) and one decoder
// (`init(json:source:) throws(ResultsError)`); its key names exist once, in its `Key` enum.
// Decoders treat the file as hostile: every field read is type- and range-checked (see
// ``FieldRange``), unknown keys are ignored (forward compatibility) except where a file's rules
// say otherwise (stored baselines), and every failure is a ``ResultsError`` naming the file, the
// field path, what was expected and what was found.
//
// Files in this module:
//   ResultsError.swift       the typed error
//   FieldRange.swift         documented ranges of numeric fields
//   RecordField.swift        ResultsRecord: one declaration table per record (encoding, decoding, format tables)
//   FieldType.swift          how one field's value is checked, read and written
//   BenchFile.swift          `difflab-bench/1` (bench results, and the bench worker's measurements)
//   PolicyFile.swift         `difflab-policy/1`
//   MeasureProtocol.swift    `difflab-measure/1` (the gate's worker answer)
//   GateFiles.swift          `difflab-gate-baseline/1` (stored baselines) and `difflab-gate/1` (gate reports)

/// Why a DiffLab file cannot be read. Every case names the input (`source`, as the caller called
/// it, usually the path) and, for field problems, a path into the JSON such as
/// `measurements[3].median`.
public enum ResultsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No results files were given.
    case noInputs
    /// The document is not a JSON object.
    case notAnObject(source: String, found: String)
    /// The document has no `"schema"` string.
    case missingSchema(source: String)
    /// The `"schema"` is not one this reader understands.
    case unknownSchema(source: String, schema: String)
    /// A required field is absent (or `null`).
    case missingField(source: String, path: String)
    /// A field has the wrong JSON type.
    case wrongType(source: String, path: String, expected: String, found: String)
    /// A number lies outside its field's documented range (see ``FieldRange``); `allowed`
    /// describes the range, e.g. `0 to 86400 (seconds)`.
    case outOfRange(source: String, path: String, value: String, allowed: String)
    /// A bench results file holds no measured cell: a report of it would compare nothing.
    /// `cells` counts its measurement objects (all skipped, or none).
    case noMeasurements(source: String, cells: Int)
    /// A field breaks a rule of a strict file (the gate's worker answer, a stored baseline):
    /// `field` (e.g. `results[0].samples`) should be `expected`.
    case invalid(source: String, field: String, expected: String)

    /// The schemas a report can be made from.
    public static let knownSchemas = [
        BenchResults.schema, PolicyResults.schema, PolicyGridResults.schema, ArenaResults.schema, TraceBenchResults.schema,
        UpdaterFindingsFile.schema,
    ]

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .noInputs:
            return "no results files given"
        case .notAnObject(let source, let found):
            return "\(source): expected a JSON object with a \"schema\" field, not \(found)"
        case .missingSchema(let source):
            return "\(source): no \"schema\" string; expected one of \(ResultsError.knownSchemas.joined(separator: ", "))"
        case .unknownSchema(let source, let schema):
            return "\(source): unknown schema \"\(schema)\"; expected one of \(ResultsError.knownSchemas.joined(separator: ", "))"
        case .missingField(let source, let path):
            return "\(source): missing field \(path)"
        case .wrongType(let source, let path, let expected, let found):
            return "\(source): \(path) should be \(expected), not \(found)"
        case .outOfRange(let source, let path, let value, let allowed):
            return "\(source): \(path) is \(value), outside its allowed range \(allowed)"
        case .noMeasurements(let source, let cells):
            return
                "\(source): no measured cell (\(cells == 0 ? "no measurements" : "all \(cells) cells skipped")); a report of it would compare nothing"
        case .invalid(let source, let field, let expected):
            return "\(source): \(field) should be \(expected)"
        }
    }
}
