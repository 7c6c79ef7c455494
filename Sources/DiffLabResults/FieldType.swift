import DiffLabCore
import DiffLabJSON

/// Where a value sits in a file, for errors: the file (as the caller named it) and the value's
/// JSON path (`measurements[3].median`; empty for the document itself).
public struct FieldPosition: Sendable {
    /// The file's name, as the caller called it (usually its path).
    public let source: String
    /// The JSON path of the value; empty for the document itself.
    public let path: String

    /// The document of `source`.
    public init(source: String, path: String = "") {
        self.source = source
        self.path = path
    }

    /// The position of member `key` of the object here. O(path).
    func member(_ key: String) -> FieldPosition { FieldPosition(source: source, path: path.isEmpty ? key : path + "." + key) }

    /// The position of element `index` of the array here. O(path).
    func element(_ index: Int) -> FieldPosition { FieldPosition(source: source, path: path + "[\(index)]") }

    /// The path as error messages name it (`the document` for the root).
    var named: String { path.isEmpty ? "the document" : path }

    func wrongType(_ expected: String, _ value: JSONValue) -> ResultsError {
        .wrongType(source: source, path: named, expected: expected, found: value.typeNameWithArticle)
    }
}

/// How one field's JSON value maps to its Swift value: the checks on reading, the writing, and
/// the words the format tables use. Built from the static members (``int(_:)``, ``seconds``,
/// ``cases(_:)``, ``record(_:)``, ``array(_:count:)``, …), never by hand outside this file.
///
/// Reading is total: every JSON value either becomes a `Value` or a ``ResultsError`` naming the
/// file, the path and what was expected. A hostile value is quoted by at most 40 characters.
public struct FieldType<Value>: Sendable {
    /// What a value of this type must be, in words (`an integer, 0 to 64 (threads)`).
    public let expected: String
    let decode: @Sendable (JSONValue, FieldPosition) throws(ResultsError) -> Value
    let encode: @Sendable (Value) -> JSONValue
    /// The records this type holds, for the format tables.
    let records: @Sendable () -> [RecordSchema]

    init(
        _ expected: String, records: @escaping @Sendable () -> [RecordSchema] = { [] },
        decode: @escaping @Sendable (JSONValue, FieldPosition) throws(ResultsError) -> Value, encode: @escaping @Sendable (Value) -> JSONValue
    ) {
        self.expected = expected
        self.decode = decode
        self.encode = encode
        self.records = records
    }

    /// This type, refusing a decoded value `isValid` rejects with `expected` (the words replace
    /// this type's). O(1) plus the check.
    func checked(_ expected: String, _ isValid: @escaping @Sendable (Value) -> Bool) -> FieldType {
        let decode = self.decode
        return FieldType(
            expected, records: records,
            decode: { value, at throws(ResultsError) in
                let decoded = try decode(value, at)
                guard isValid(decoded) else {
                    throw .invalid(source: at.source, field: at.named, expected: "\(expected), not \(value.briefDescription)")
                }
                return decoded
            }, encode: encode)
    }
}

extension FieldType where Value == Bool {
    /// `true` or `false`.
    public static var bool: FieldType {
        FieldType(
            "true or false",
            decode: { value, at throws(ResultsError) in
                guard let bool = value.boolValue else { throw at.wrongType("true or false", value) }
                return bool
            }, encode: JSONValue.bool)
    }
}

extension FieldType where Value == String {
    /// Any stream-safe string (see ``Swift/String/isStreamSafe``): text that is compared and grouped
    /// as Swift strings, which is quadratic in a run of combining marks, is refused, not compared.
    public static var string: FieldType {
        FieldType("a string", decode: { value, at throws(ResultsError) in try streamSafeString(value, at) }, encode: JSONValue.string)
    }

    /// A stream-safe string whose length in Unicode scalars is within `limit`; counting stops one
    /// past the limit, so a huge string costs O(limit) before it is refused.
    public static func text(atMost limit: FieldRange<Int>) -> FieldType {
        FieldType(
            "a string of \(limit.text) characters",
            decode: { value, at throws(ResultsError) in
                let text = try streamSafeString(value, at)
                let counted = text.unicodeScalars.prefix(limit.range.upperBound + 1).count
                guard limit.range.contains(counted) else {
                    throw .invalid(source: at.source, field: at.named, expected: "\(limit.text), not \(text.unicodeScalars.count)")
                }
                return text
            }, encode: JSONValue.string)
    }

    /// An engine name: 1 to 64 lower-case letters, digits, `-`, `_` and `.`, starting with a
    /// letter or digit (see ``isEngineSlug(_:)``).
    public static var engineName: FieldType {
        let expected = "an engine name of 1 to 64 lower-case letters, digits, '-', '_' and '.', starting with a letter or digit"
        return string.checked(expected, isEngineSlug)
    }
}

/// `value` as a stream-safe string, or the error naming `at`.
private func streamSafeString(_ value: JSONValue, _ at: FieldPosition) throws(ResultsError) -> String {
    guard let string = value.stringValue else { throw at.wrongType("a string", value) }
    guard string.isStreamSafe else {
        throw at.wrongType("stream-safe text (at most \(String.maxConsecutiveNonStarters) combining marks in a row, UAX #15)", value)
    }
    return string
}

extension FieldType where Value == Int {
    /// An integer within `range`. An integer beyond `Int` is out of range, not of the wrong type.
    public static func int(_ range: FieldRange<Int>) -> FieldType {
        FieldType(
            "an integer, \(range.text)",
            decode: { value, at throws(ResultsError) in
                if value.bigIntegerValue != nil {
                    throw .outOfRange(source: at.source, path: at.named, value: value.briefDescription, allowed: range.text)
                }
                guard let number = value.intValue else { throw at.wrongType("an integer", value) }
                return try within(number, range, at)
            }, encode: JSONValue.integer)
    }
}

extension FieldType where Value == Double {
    /// Any number (the parser has already refused numbers beyond `Double`'s range).
    public static var number: FieldType {
        FieldType(
            "a number",
            decode: { value, at throws(ResultsError) in
                guard let number = value.doubleValue else { throw at.wrongType("a number", value) }
                return number
            }, encode: { JSONValue($0) })
    }

    /// A number within `range`.
    public static func double(_ range: FieldRange<Double>) -> FieldType {
        FieldType(
            "a number, \(range.text)",
            decode: { value, at throws(ResultsError) in
                try within(try number.decode(value, at), range, at)
            }, encode: { JSONValue($0) })
    }

    /// A whole number within `range`, kept as a `Double` (byte and allocation counts): a fraction
    /// is out of range, for a count has none.
    public static func count(_ range: FieldRange<Double>) -> FieldType {
        FieldType(
            "a whole number, \(range.text)",
            decode: { value, at throws(ResultsError) in
                let number = try double(range).decode(value, at)
                guard number.rounded(.towardZero) == number else {
                    throw .outOfRange(source: at.source, path: at.named, value: "\(number)", allowed: range.text + ", a whole number")
                }
                return number
            }, encode: { JSONValue($0) })
    }

    /// Seconds of one call or update, in ``FieldRange/seconds``.
    public static var seconds: FieldType { double(.seconds) }
    /// A ratio of two medians, in ``FieldRange/ratio``.
    public static var ratio: FieldType { double(.ratio) }
}

/// `value` if `range` holds it, or the error naming `at`.
private func within<T: Comparable & Sendable>(_ value: T, _ range: FieldRange<T>, _ at: FieldPosition) throws(ResultsError) -> T {
    guard range.range.contains(value) else { throw .outOfRange(source: at.source, path: at.named, value: "\(value)", allowed: range.text) }
    return value
}

extension FieldType where Value == JSONValue {
    /// Any JSON value, kept as it is.
    public static var any: FieldType { FieldType("any JSON value", decode: { value, _ in value }, encode: { $0 }) }
}

extension FieldType where Value == [DisplayField] {
    /// An object shown as (name, text) pairs in order: strings as they are, other values as
    /// compact JSON (written back as an object of strings).
    public static var display: FieldType {
        FieldType(
            "an object",
            decode: { value, at throws(ResultsError) in
                guard let members = value.objectValue else { throw at.wrongType("an object", value) }
                return members.map { DisplayField(name: $0.key, value: DisplayField.text($0.value)) }
            }, encode: DisplayField.json)
    }
}

extension FieldType where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// A string naming one of `Value`'s cases by its raw value; an error lists every name.
    public static func cases(_ type: Value.Type = Value.self) -> FieldType {
        let names = Value.allCases.map { "\"\($0.rawValue)\"" }
        let expected = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
        return FieldType(
            expected,
            decode: { value, at throws(ResultsError) in
                guard let text = value.stringValue else { throw at.wrongType("a string", value) }
                guard let name = Value(rawValue: text) else {
                    throw .wrongType(source: at.source, path: at.named, expected: expected, found: value.briefDescription)
                }
                return name
            }, encode: { .string($0.rawValue) })
    }
}

extension FieldType where Value: ResultsRecord {
    /// An object read and written by `Value`'s declaration table.
    public static func record(_ type: Value.Type = Value.self) -> FieldType {
        FieldType(
            "an object (\(Value.recordName))", records: { [Value.recordSchema] },
            decode: { value, at throws(ResultsError) in
                try Value(json: value, at: at)
            }, encode: \.json)
    }
}

extension FieldType {
    /// An array whose elements are `element`s; with `count`, its length must be in that range
    /// (checked before any element is read). An element's error names its index.
    /// - Complexity: O(length) times the element's cost.
    public static func array<Element>(_ element: FieldType<Element>, count: FieldRange<Int>? = nil) -> FieldType<[Element]> where Value == [Element] {
        let counted = count.map { " of \($0.text)" } ?? ""
        return FieldType(
            "an array\(counted), each \(element.expected)", records: element.records,
            decode: { value, at throws(ResultsError) in
                guard let array = value.arrayValue else { throw at.wrongType("an array", value) }
                if let count, !count.range.contains(array.count) {
                    throw .outOfRange(source: at.source, path: at.named, value: "\(array.count) elements", allowed: count.text)
                }
                var result: [Element] = []
                result.reserveCapacity(array.count)
                for (index, item) in array.enumerated() { result.append(try element.decode(item, at.element(index))) }
                return result
            }, encode: { .array($0.map(element.encode)) })
    }
}
