import DiffLabJSON

/// Typed access to the members of one JSON object, throwing ``ReportError`` with the source and
/// the JSON path of the offending field.
///
/// Conventions: `required…` accessors throw ``ReportError/missingField(source:path:)`` when the
/// member is absent or `null`; `optional…` accessors return `nil` then. Both throw
/// ``ReportError/wrongType(source:path:expected:found:)`` when the member is present with another
/// JSON type — a results file is never silently misread.
struct FieldReader {
    let object: JSONObject
    let source: String
    /// The JSON path of `object`, e.g. `measurements[3]`; empty for the document itself.
    let path: String

    /// A reader for `value`, which must be an object.
    init(_ value: JSONValue, source: String, path: String) throws(ReportError) {
        guard let object = value.objectValue else {
            throw .wrongType(source: source, path: path.isEmpty ? "the document" : path, expected: "an object", found: article(value))
        }
        self.object = object
        self.source = source
        self.path = path
    }

    /// The path of member `key`.
    func path(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func present(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    private func wrong(_ key: String, _ expected: String, _ value: JSONValue) -> ReportError {
        .wrongType(source: source, path: path(key), expected: expected, found: article(value))
    }

    func optionalString(_ key: String) throws(ReportError) -> String? {
        guard let value = present(key) else { return nil }
        guard let string = value.stringValue else { throw wrong(key, "a string", value) }
        // Names are grouped and compared as Swift strings (canonical equivalence), which is
        // quadratic in a run of combining marks: such text is refused, not compared.
        guard string.isStreamSafe else {
            throw wrong(key, "stream-safe text (at most \(String.maxConsecutiveNonStarters) combining marks in a row, UAX #15)", value)
        }
        return string
    }

    func requiredString(_ key: String) throws(ReportError) -> String {
        guard let string = try optionalString(key) else { throw .missingField(source: source, path: path(key)) }
        return string
    }

    func optionalDouble(_ key: String) throws(ReportError) -> Double? {
        guard let value = present(key) else { return nil }
        guard let number = value.doubleValue else { throw wrong(key, "a number", value) }
        return number
    }

    func optionalInt(_ key: String) throws(ReportError) -> Int? {
        guard let value = present(key) else { return nil }
        guard let number = value.intValue else { throw wrong(key, "an integer", value) }
        return number
    }

    func requiredInt(_ key: String) throws(ReportError) -> Int {
        guard let number = try optionalInt(key) else { throw .missingField(source: source, path: path(key)) }
        return number
    }

    func optionalBool(_ key: String) throws(ReportError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard let bool = value.boolValue else { throw wrong(key, "true or false", value) }
        return bool
    }

    /// An array member (absent or `null` → empty).
    func optionalArray(_ key: String) throws(ReportError) -> [JSONValue] {
        guard let value = present(key) else { return [] }
        guard let array = value.arrayValue else { throw wrong(key, "an array", value) }
        return array
    }

    /// A number member within `range` (absent or `null` → `nil`).
    /// - Throws: ``ReportError/outOfRange(source:path:value:allowed:)`` outside `range`.
    func optionalDouble(_ key: String, in range: FieldRange<Double>) throws(ReportError) -> Double? {
        guard let number = try optionalDouble(key) else { return nil }
        return try checked(number, range, path(key))
    }

    /// An integer member within `range` (absent or `null` → `nil`).
    /// - Throws: ``ReportError/outOfRange(source:path:value:allowed:)`` outside `range`.
    func optionalInt(_ key: String, in range: FieldRange<Int>) throws(ReportError) -> Int? {
        // An integer beyond Int is out of every integer field's range, not of the wrong type.
        if let value = present(key), value.bigIntegerValue != nil {
            throw .outOfRange(source: source, path: path(key), value: value.briefDescription, allowed: range.text)
        }
        guard let number = try optionalInt(key) else { return nil }
        return try checked(number, range, path(key))
    }

    /// A required integer member within `range`.
    func requiredInt(_ key: String, in range: FieldRange<Int>) throws(ReportError) -> Int {
        guard let number = try optionalInt(key, in: range) else { throw .missingField(source: source, path: path(key)) }
        return number
    }

    /// An array of numbers, each within `range` (absent or `null` → empty; a non-number or
    /// out-of-range element is an error naming its index).
    func numbers(_ key: String, in range: FieldRange<Double>) throws(ReportError) -> [Double] {
        var result: [Double] = []
        for (index, element) in try optionalArray(key).enumerated() {
            let elementPath = path(key) + "[\(index)]"
            guard let number = element.doubleValue else {
                throw .wrongType(source: source, path: elementPath, expected: "a number", found: article(element))
            }
            result.append(try checked(number, range, elementPath))
        }
        return result
    }

    /// `value` if `range` holds it.
    private func checked<T: Comparable & Sendable>(_ value: T, _ range: FieldRange<T>, _ path: String) throws(ReportError) -> T {
        guard range.range.contains(value) else {
            throw .outOfRange(source: source, path: path, value: "\(value)", allowed: range.text)
        }
        return value
    }

    /// Readers for the objects in array member `key`.
    func objects(_ key: String) throws(ReportError) -> [FieldReader] {
        var readers: [FieldReader] = []
        for (index, element) in try optionalArray(key).enumerated() {
            readers.append(try FieldReader(element, source: source, path: path(key) + "[\(index)]"))
        }
        return readers
    }

    /// An object member as ordered (name, text) pairs for display: strings as they are, other
    /// values as compact JSON. Absent or `null` → empty.
    func displayFields(_ key: String) throws(ReportError) -> [DisplayField] {
        guard let value = present(key) else { return [] }
        guard let members = value.objectValue else { throw wrong(key, "an object", value) }
        return members.map { DisplayField(name: $0.key, value: displayText($0.value)) }
    }
}

/// A named value shown in a report header table.
public struct DisplayField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A JSON value as display text: a string without quotes, anything else as compact JSON.
func displayText(_ value: JSONValue) -> String {
    if let string = value.stringValue { return string }
    if let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) {
        return array.compactMap(\.stringValue).joined(separator: ", ")
    }
    return value.serialized()
}

/// "an object", "a string", "null", … for error messages.
func article(_ value: JSONValue) -> String {
    switch value.typeName {
    case "null": return "null"
    case "array", "object": return "an \(value.typeName)"
    default: return "a \(value.typeName)"
    }
}
