import DiffLabCore
import DiffLabJSON

/// Where a value sits in a file, for errors: the file (as the caller named it) and the value's
/// JSON path (`measurements[3].median`; empty for the document itself).
@_spi(Records) public struct FieldPosition: Sendable {
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
@_spi(Records) public struct FieldType<Value>: Sendable {
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

extension FieldType {
    /// This type, running `check` on the raw JSON value first: for a bound that must hold before
    /// the value is read (a total over nested arrays, counted without decoding them). O(check)
    /// plus this type's cost.
    func checkingFirst(_ check: @escaping @Sendable (JSONValue, FieldPosition) throws(ResultsError) -> Void) -> FieldType {
        let decode = self.decode
        return FieldType(
            expected, records: records,
            decode: { value, at throws(ResultsError) in
                try check(value, at)
                return try decode(value, at)
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
    /// Any stream-safe string (see `String.isStreamSafe`): text that is compared and grouped
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
    /// letter or digit (see `isEngineSlug(_:)`).
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
        let inner = double(range)
        return FieldType(
            "a whole number, \(range.text)",
            decode: { value, at throws(ResultsError) in
                let number = try inner.decode(value, at)
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
                // Compared byte by byte: text from the file is not known to be stream-safe.
                guard let name = Value.allCases.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else {
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

// MARK: - Strict wording, named members, keyed objects, closed records, fields of one kind

// Declaration-table capabilities the gate, measure, fuzz and mutation records need (issue 44):
// strict wording, objects of named members, objects keyed by a closed set of names, closed
// records, converted values and fields of one kind of record only.

extension ResultsError {
    /// The JSON path of the field the error names (`the document` for the root); `nil` for an
    /// error about no field.
    var fieldPath: String? {
        switch self {
        case .missingField(_, let path), .wrongType(_, let path, _, _), .outOfRange(_, let path, _, _): path
        case .invalid(_, let field, _): field
        case .noInputs, .notAnObject, .missingSchema, .unknownSchema, .noMeasurements: nil
        }
    }
}

extension FieldPosition {
    /// The position of the member named `name` of the object here: `path.name` for a plain name
    /// (ASCII letters, digits and `_`), else `path["name"]` (cell names hold `:`). O(path + name).
    func named(_ name: String) -> FieldPosition {
        let plain =
            !name.isEmpty
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == 0x5f }
        // A hostile name is quoted by at most 40 characters, like any hostile value.
        return plain && name.utf8.count <= 64
            ? member(name) : FieldPosition(source: source, path: path + "[\(JSONValue.string(name).briefDescription)]")
    }
}

extension FieldType {
    /// This type, with every refusal of the value itself (a wrong type, a number out of range, a
    /// broken rule; not a refusal of a value it holds, which names its own path) worded as a rule
    /// of a strict file: `<path> should be <expected>, not <value>`
    /// (``ResultsError/invalid(source:field:expected:)``). For the worker protocol and stored
    /// baselines, whose messages say in one phrase what the field must be. O(1) plus the type's cost.
    public func strict(_ expected: String) -> FieldType {
        let decode = self.decode
        return FieldType(
            expected, records: records,
            decode: { value, at throws(ResultsError) in
                do throws(ResultsError) { return try decode(value, at) } catch {
                    guard error.fieldPath == at.named else { throw error }
                    throw .invalid(source: at.source, field: at.named, expected: "\(expected), not \(value.briefDescription)")
                }
            }, encode: encode)
    }

    /// An object read member by member in file order: each member's value read as `member`, then
    /// made an element by `join` (the member's name and value); written back as one member per
    /// element, named and valued by `split`. A member's errors name it `path.name`, or
    /// `path["name"]` when the name is not a plain word; a name that is not stream-safe is refused.
    /// - Complexity: O(members) times the member type's cost.
    public static func members<Member, Element>(
        _ member: FieldType<Member>, join: @escaping @Sendable (String, Member) -> Element,
        split: @escaping @Sendable (Element) -> (String, Member)
    ) -> FieldType<[Element]> where Value == [Element] {
        FieldType(
            "an object, each member \(member.expected)", records: member.records,
            decode: { value, at throws(ResultsError) in
                guard let object = value.objectValue else { throw at.wrongType("an object", value) }
                var result: [Element] = []
                result.reserveCapacity(object.count)
                for (name, item) in object {
                    guard name.isStreamSafe else {
                        throw .wrongType(
                            source: at.source, path: at.named, expected: "member names of stream-safe text",
                            found: JSONValue.string(name).briefDescription)
                    }
                    result.append(join(name, try member.decode(item, at.named(name))))
                }
                return result
            },
            encode: { elements in
                .object(
                    JSONObject(
                        elements.map {
                            let (name, value) = split($0)
                            return (name, member.encode(value))
                        }))
            })
    }

    /// An object whose members are named by `Key`'s cases (raw values), each read as `element`;
    /// a member of another name is refused, naming the names allowed. Written in `Key.allCases`
    /// order, the members the dictionary holds.
    /// - Complexity: O(members) times the element type's cost.
    public static func keyed<Key, Element>(_ key: Key.Type, _ element: FieldType<Element>) -> FieldType<[Key: Element]>
    where Value == [Key: Element], Key: RawRepresentable & CaseIterable & Hashable & Sendable, Key.RawValue == String {
        let names = Key.allCases.map(\.rawValue).joined(separator: ", ")
        return FieldType(
            "an object of members named \(names), each \(element.expected)", records: element.records,
            decode: { value, at throws(ResultsError) in
                guard let object = value.objectValue else { throw at.wrongType("an object", value) }
                var result: [Key: Element] = [:]
                for (name, item) in object {
                    let position = at.named(name)
                    // Compared byte by byte: a name from the file is not known to be stream-safe.
                    guard let key = Key.allCases.first(where: { $0.rawValue.utf8.elementsEqual(name.utf8) }) else {
                        throw .invalid(source: at.source, field: position.named, expected: "absent: the members are \(names)")
                    }
                    result[key] = try element.decode(item, position)
                }
                return result
            },
            encode: { dictionary in
                .object(JSONObject(Key.allCases.compactMap { key in dictionary[key].map { (key.rawValue, element.encode($0)) } }))
            })
    }
}

extension FieldType where Value: ResultsRecord {
    /// An object read by `Value`'s table that holds nothing else: a member the table does not
    /// declare is refused (`<path>.<member> should be absent: <holder> holds only a, b, c`), for
    /// files where a typo must not pass as "not measured".
    /// - Complexity: O(size of the object).
    public static func closedRecord(_ type: Value.Type = Value.self, holder: String) -> FieldType {
        let keys = Value.fields.map(\.description.key)
        let record = FieldType.record(type)
        return FieldType(
            record.expected + " with no other members", records: record.records,
            decode: { value, at throws(ResultsError) in
                if let object = value.objectValue,
                    let stray = object.keys.first(where: { name in !keys.contains { $0.utf8.elementsEqual(name.utf8) } })
                {
                    throw .invalid(
                        source: at.source, field: at.named(stray).named, expected: "absent: \(holder) holds only \(keys.joined(separator: ", "))")
                }
                return try record.decode(value, at)
            }, encode: record.encode)
    }
}

extension RecordField {
    /// `fields`, read and written only for records `applies` holds for (on reading, as read so
    /// far: decide by fields earlier in the table, such as a kind): other records neither write
    /// them nor read their members. `condition` says when in the format tables (`kind is replay`).
    public static func when(_ condition: String, _ applies: @escaping @Sendable (Root) -> Bool, _ fields: [RecordField]) -> [RecordField] {
        fields.map { field in
            let described = field.description
            return RecordField(
                description: FieldDescription(
                    key: described.key, expected: described.expected, presence: described.presence + ", when \(condition)",
                    meaning: described.meaning, column: described.column),
                read: { object, root, at throws(ResultsError) in
                    guard applies(root) else { return }
                    try field.read(object, &root, at)
                },
                write: { root, object in if applies(root) { field.write(root, &object) } },
                exported: { applies($0) ? field.exported($0) : nil }, records: field.records)
        }
    }
}

// MARK: - Converted values and embedded documents

// Field types the policy and arena records needed beyond FieldType.swift's (issue 44): a value
// stored in another shape than the file's (coalescing intervals, written as an array of three
// numbers), and a whole document embedded in another (the arena file's `bench`).

extension FieldType {
    /// This type's file values, held as `Target`: `decode` turns a value read by this type into
    /// a `Target` (`nil`: refused, ``ResultsError/invalid(source:field:expected:)`` with
    /// `expected` as the words; without `expected`, this type's), `encode` turns a `Target` back
    /// into the value written.
    ///
    /// - Complexity: this type's cost plus the conversion's.
    public func converted<Target>(
        _ expected: String? = nil, decode convert: @escaping @Sendable (Value) -> Target?, encode back: @escaping @Sendable (Target) -> Value
    ) -> FieldType<Target> {
        let (decode, encode) = (self.decode, self.encode)
        let words = expected ?? self.expected
        return FieldType<Target>(
            words, records: records,
            decode: { value, at throws(ResultsError) in
                guard let converted = convert(try decode(value, at)) else { throw .invalid(source: at.source, field: at.named, expected: words) }
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

// MARK: - Seeds, pairs and distinct arrays

// Field types the updaters' and the trace bench's records need: a 64-bit seed written as a
// decimal string, a two-element array read as one value, and an array whose elements are all
// different.

extension FieldType where Value == UInt64 {
    /// An unsigned 64-bit integer written as a decimal string (a seed: it may exceed 2^53, which a
    /// JSON number does not hold exactly): ASCII digits only, no sign. At most 20 characters are
    /// read; anything else is out of range. O(1).
    public static var decimalUInt64: FieldType {
        let allowed = "a decimal integer from 0 to \(UInt64.max)"
        return FieldType(
            "a string holding \(allowed)",
            decode: { value, at throws(ResultsError) in
                let text = try FieldType<String>.string.decode(value, at)
                // Digits only: `UInt64("+5")` and `UInt64("-0")` parse, but no writer writes a sign.
                guard text.utf8.count <= 20, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = UInt64(text) else {
                    throw .outOfRange(source: at.source, path: at.named, value: value.briefDescription, allowed: allowed)
                }
                return number
            }, encode: { .string(String($0)) })
    }
}

extension FieldType {
    /// A JSON array of exactly two `element`s, `[first, second]`, read as one value by `make` and
    /// written back from `parts`; `names` names the two in words (`id, content`). A value that is
    /// not a two-element array is of the wrong type; an element's own error names its index
    /// (`items[3][1]`). O(1) plus the elements' cost.
    public static func pair<Element>(
        _ names: String, _ element: FieldType<Element>, make: @escaping @Sendable (Element, Element) -> Value,
        parts: @escaping @Sendable (Value) -> (Element, Element)
    ) -> FieldType {
        let expected = "an [\(names)] pair, each \(element.expected)"
        return FieldType(
            expected, records: element.records,
            decode: { value, at throws(ResultsError) in
                guard let array = value.arrayValue, array.count == 2 else {
                    throw .wrongType(source: at.source, path: at.named, expected: expected, found: value.briefDescription)
                }
                return make(try element.decode(array[0], at.element(0)), try element.decode(array[1], at.element(1)))
            },
            encode: { value in
                let (first, second) = parts(value)
                return .array([element.encode(first), element.encode(second)])
            })
    }

    /// An array like ``array(_:count:)`` whose elements are all different: an element equal to
    /// an earlier one is ``ResultsError/invalid(source:field:expected:)`` naming its index and
    /// saying `what` each element should be (`a property` → `a property not listed before`).
    /// - Complexity: O(length) times the element's cost.
    public static func distinct<Element: Hashable & Sendable>(
        _ element: FieldType<Element>, count: FieldRange<Int>? = nil, _ what: String
    ) -> FieldType
    where Value == [Element] {
        let array = FieldType.array(element, count: count)
        return FieldType(
            array.expected + ", no two equal", records: array.records,
            decode: { value, at throws(ResultsError) in
                let elements = try array.decode(value, at)
                var seen: Set<Element> = []
                for (index, element) in elements.enumerated() where !seen.insert(element).inserted {
                    throw .invalid(source: at.source, field: at.element(index).named, expected: "\(what) not listed before")
                }
                return elements
            }, encode: array.encode)
    }
}
