import DiffLabJSON

// Field types the policy and arena records needed beyond FieldType.swift's (issue 44): a value
// stored in another shape than the file's (coalescing intervals, written as an array of three
// numbers), and a whole document embedded in another (the arena file's `bench`).

extension FieldType {
    /// This type's file values, held as `Target`: `decode` turns a value read by this type into
    /// a `Target` (`nil`: refused, ``ResultsError/invalid(source:field:expected:)`` with
    /// `expected` as the words), `encode` turns a `Target` back into the value written.
    ///
    /// - Complexity: this type's cost plus the conversion's.
    public func converted<Target>(
        _ expected: String, decode convert: @escaping @Sendable (Value) -> Target?, encode back: @escaping @Sendable (Target) -> Value
    ) -> FieldType<Target> {
        let (decode, encode) = (self.decode, self.encode)
        return FieldType<Target>(
            expected, records: records,
            decode: { value, at throws(ResultsError) in
                guard let converted = convert(try decode(value, at)) else { throw .invalid(source: at.source, field: at.named, expected: expected) }
                return converted
            }, encode: { encode(back($0)) })
    }
}

extension FieldType where Value: ResultsRecord {
    /// A whole document of `Value`'s schema held as a member of another document: read with its
    /// own `schema` checked, its errors named under the member (`bench.measurements[3].median`,
    /// `bench.schema`), and written whole (with its `schema`).
    ///
    /// - Precondition: `Value` has a ``ResultsRecord/documentSchema``.
    /// - Complexity: O(size of the document).
    public static func document(_ type: Value.Type = Value.self) -> FieldType {
        guard let schema = Value.documentSchema else { preconditionFailure("FieldType.document: \(Value.recordName) is not a document") }
        return FieldType(
            "a `\(schema)` document (\(Value.recordName))", records: { [Value.recordSchema] },
            decode: { value, at throws(ResultsError) in
                do throws(ResultsError) {
                    return try Value(json: value, source: at.source)
                } catch {
                    throw error.nested(under: at.path, schema: schema)
                }
            }, encode: \.json)
    }
}

extension ResultsError {
    /// The error of a document of schema `schema` embedded at `prefix` (e.g. `bench`) in another,
    /// with its field path moved under `prefix` and schema errors turned into errors of that
    /// member. O(path).
    func nested(under prefix: String, schema expected: String) -> ResultsError {
        func joined(_ path: String) -> String {
            path.isEmpty || path == "the document" ? prefix : path.hasPrefix("[") ? prefix + path : prefix + "." + path
        }
        switch self {
        case .noInputs, .noMeasurements: return self
        case .notAnObject(let source, let found):
            return .wrongType(source: source, path: prefix, expected: "a JSON object", found: found)
        case .missingSchema(let source):
            return .missingField(source: source, path: prefix + ".schema")
        case .unknownSchema(let source, let schema):
            return .invalid(
                source: source, field: prefix + ".schema", expected: "the schema \"\(expected)\", not \(JSONValue.string(schema).briefDescription)")
        case .missingField(let source, let path):
            return .missingField(source: source, path: joined(path))
        case .wrongType(let source, let path, let expected, let found):
            return .wrongType(source: source, path: joined(path), expected: expected, found: found)
        case .outOfRange(let source, let path, let value, let allowed):
            return .outOfRange(source: source, path: joined(path), value: value, allowed: allowed)
        case .invalid(let source, let field, let expected):
            return .invalid(source: source, field: joined(field), expected: expected)
        }
    }
}
