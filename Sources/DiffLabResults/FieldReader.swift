import DiffLabJSON

/// Typed access to the members of one JSON object, by the record's `Key`, throwing
/// ``ResultsError`` with the source and the JSON path of the offending field.
///
/// Conventions: `required…` accessors throw ``ResultsError/missingField(source:path:)`` when the
/// member is absent or `null`; `optional…` accessors return `nil` then. Both throw
/// ``ResultsError/wrongType(source:path:expected:found:)`` when the member is present with another
/// JSON type, and ``ResultsError/outOfRange(source:path:value:allowed:)`` for a number outside
/// the field's ``FieldRange`` — a file is never silently misread. Members not asked for are
/// ignored. Every accessor is O(1) but the array ones, O(length).
struct FieldReader<Key: RawRepresentable> where Key.RawValue == String {
    let object: JSONObject
    let source: String
    /// The JSON path of `object`, e.g. `measurements[3]`; empty for the document itself.
    let path: String

    /// A reader for `value`, which must be an object.
    init(_ value: JSONValue, source: String, path: String) throws(ResultsError) {
        guard let object = value.objectValue else {
            throw .wrongType(source: source, path: path.isEmpty ? "the document" : path, expected: "an object", found: article(value))
        }
        self.object = object
        self.source = source
        self.path = path
    }

    /// The path of member `key`.
    func path(_ key: Key) -> String { path.isEmpty ? key.rawValue : path + "." + key.rawValue }

    /// The member named `key`, `nil` when absent or `null`.
    func present(_ key: Key) -> JSONValue? {
        guard let value = object[key.rawValue], value != .null else { return nil }
        return value
    }

    private func wrong(_ key: Key, _ expected: String, _ value: JSONValue) -> ResultsError {
        .wrongType(source: source, path: path(key), expected: expected, found: article(value))
    }

    private func missing(_ key: Key) -> ResultsError { .missingField(source: source, path: path(key)) }

    func optionalString(_ key: Key) throws(ResultsError) -> String? {
        guard let value = present(key) else { return nil }
        return try streamSafeString(value, path(key))
    }

    func requiredString(_ key: Key) throws(ResultsError) -> String {
        guard let string = try optionalString(key) else { throw missing(key) }
        return string
    }

    /// `value` as a string that is safe to compare (see ``Swift/String/isStreamSafe``).
    private func streamSafeString(_ value: JSONValue, _ path: String) throws(ResultsError) -> String {
        guard let string = value.stringValue else {
            throw .wrongType(source: source, path: path, expected: "a string", found: article(value))
        }
        // Names are grouped and compared as Swift strings (canonical equivalence), which is
        // quadratic in a run of combining marks: such text is refused, not compared.
        guard string.isStreamSafe else {
            throw .wrongType(
                source: source, path: path,
                expected: "stream-safe text (at most \(String.maxConsecutiveNonStarters) combining marks in a row, UAX #15)", found: article(value))
        }
        return string
    }

    /// The member `key` as the case of `T` whose raw value it is, `nil` when absent or `null`.
    ///
    /// - Throws: ``ResultsError/wrongType(source:path:expected:found:)`` naming every case when
    ///   the member is a string that is no case's raw value, or not a string.
    func optionalCase<T: RawRepresentable & CaseIterable>(_ key: Key, _ type: T.Type = T.self) throws(ResultsError) -> T?
    where T.RawValue == String {
        guard let text = try optionalString(key) else { return nil }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map { "\"\($0.rawValue)\"" }
            let expected = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
            throw .wrongType(source: source, path: path(key), expected: expected, found: JSONValue.string(text).briefDescription)
        }
        return value
    }

    func optionalBool(_ key: Key) throws(ResultsError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard let bool = value.boolValue else { throw wrong(key, "true or false", value) }
        return bool
    }

    func requiredBool(_ key: Key) throws(ResultsError) -> Bool {
        guard let bool = try optionalBool(key) else { throw missing(key) }
        return bool
    }

    /// Any number member, unchecked (absent or `null` → `nil`); for fields documented as "any number".
    func optionalNumber(_ key: Key) throws(ResultsError) -> Double? {
        guard let value = present(key) else { return nil }
        guard let number = value.doubleValue else { throw wrong(key, "a number", value) }
        return number
    }

    /// A number member within `range` (absent or `null` → `nil`).
    func optionalDouble(_ key: Key, in range: FieldRange<Double>) throws(ResultsError) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        return try checked(number, range, path(key))
    }

    func requiredDouble(_ key: Key, in range: FieldRange<Double>) throws(ResultsError) -> Double {
        guard let number = try optionalDouble(key, in: range) else { throw missing(key) }
        return number
    }

    /// A whole-number member within `range`, kept as a `Double` (byte and allocation counts);
    /// absent or `null` → `nil`. A fraction is out of range: a count has none.
    func optionalCount(_ key: Key, in range: FieldRange<Double>) throws(ResultsError) -> Double? {
        guard let number = try optionalDouble(key, in: range) else { return nil }
        guard number.rounded(.towardZero) == number else {
            throw .outOfRange(source: source, path: path(key), value: "\(number)", allowed: range.text + ", a whole number")
        }
        return number
    }

    /// An integer member within `range` (absent or `null` → `nil`).
    func optionalInt(_ key: Key, in range: FieldRange<Int>) throws(ResultsError) -> Int? {
        guard let value = present(key) else { return nil }
        return try integer(value, range, path(key))
    }

    /// A required integer member within `range`.
    func requiredInt(_ key: Key, in range: FieldRange<Int>) throws(ResultsError) -> Int {
        guard let number = try optionalInt(key, in: range) else { throw missing(key) }
        return number
    }

    /// `value` as an integer within `range`.
    private func integer(_ value: JSONValue, _ range: FieldRange<Int>, _ path: String) throws(ResultsError) -> Int {
        // An integer beyond Int is out of every integer field's range, not of the wrong type.
        if value.bigIntegerValue != nil {
            throw .outOfRange(source: source, path: path, value: value.briefDescription, allowed: range.text)
        }
        guard let number = value.intValue else {
            throw .wrongType(source: source, path: path, expected: "an integer", found: article(value))
        }
        return try checked(number, range, path)
    }

    /// An array member (absent or `null` → empty).
    func optionalArray(_ key: Key) throws(ResultsError) -> [JSONValue] {
        guard let value = present(key) else { return [] }
        guard let array = value.arrayValue else { throw wrong(key, "an array", value) }
        return array
    }

    /// An array of numbers, each within `range` (absent or `null` → empty; a non-number or
    /// out-of-range element is an error naming its index).
    func numbers(_ key: Key, in range: FieldRange<Double>) throws(ResultsError) -> [Double] {
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

    /// An array of integers, each within `range` (absent or `null` → empty).
    func integers(_ key: Key, in range: FieldRange<Int>) throws(ResultsError) -> [Int] {
        var result: [Int] = []
        for (index, element) in try optionalArray(key).enumerated() {
            result.append(try integer(element, range, path(key) + "[\(index)]"))
        }
        return result
    }

    /// An array of stream-safe strings (absent or `null` → empty).
    func strings(_ key: Key) throws(ResultsError) -> [String] {
        var result: [String] = []
        for (index, element) in try optionalArray(key).enumerated() {
            result.append(try streamSafeString(element, path(key) + "[\(index)]"))
        }
        return result
    }

    /// `value` if `range` holds it.
    private func checked<T: Comparable & Sendable>(_ value: T, _ range: FieldRange<T>, _ path: String) throws(ResultsError) -> T {
        guard range.range.contains(value) else {
            throw .outOfRange(source: source, path: path, value: "\(value)", allowed: range.text)
        }
        return value
    }

    /// Readers (keyed by `Member`) for the objects in array member `key`.
    func objects<Member>(_ key: Key, _ member: Member.Type = Member.self) throws(ResultsError) -> [FieldReader<Member>] {
        var readers: [FieldReader<Member>] = []
        for (index, element) in try optionalArray(key).enumerated() {
            readers.append(try FieldReader<Member>(element, source: source, path: path(key) + "[\(index)]"))
        }
        return readers
    }

    /// A reader (keyed by `Member`) for object member `key`; `nil` when absent or `null`.
    func object<Member>(_ key: Key, _ member: Member.Type = Member.self) throws(ResultsError) -> FieldReader<Member>? {
        guard let value = present(key) else { return nil }
        return try FieldReader<Member>(value, source: source, path: path(key))
    }

    /// An object member as ordered (name, text) pairs for display: strings as they are, other
    /// values as compact JSON. Absent or `null` → empty.
    func displayFields(_ key: Key) throws(ResultsError) -> [DisplayField] {
        guard let value = present(key) else { return [] }
        guard let members = value.objectValue else { throw wrong(key, "an object", value) }
        return members.map { DisplayField(name: $0.key, value: DisplayField.text($0.value)) }
    }
}

/// Builds one JSON object member by member, by the record's `Key`, in the order written.
struct FieldWriter<Key: RawRepresentable> where Key.RawValue == String {
    private(set) var object = JSONObject()

    /// The object as a JSON value.
    var json: JSONValue { .object(object) }

    /// Sets `key` to `value` (replacing an earlier value in place).
    mutating func set(_ key: Key, _ value: JSONValue) { object[key.rawValue] = value }

    /// Sets `key` to `value`; when `value` is `nil`, writes `null` if `null` is set, else nothing.
    mutating func set(_ key: Key, _ value: JSONValue?, null: Bool) {
        if let value { set(key, value) } else if null { set(key, .null) }
    }

    mutating func set(_ key: Key, _ value: String?, null: Bool = false) { set(key, value.map(JSONValue.string), null: null) }
    mutating func set(_ key: Key, _ value: Int?, null: Bool = false) { set(key, value.map(JSONValue.integer), null: null) }
    mutating func set(_ key: Key, _ value: Double?, null: Bool = false) { set(key, value.map { JSONValue($0) }, null: null) }
    mutating func set(_ key: Key, _ value: Bool?, null: Bool = false) { set(key, value.map(JSONValue.bool), null: null) }
    mutating func set(_ key: Key, numbers: [Double]) { set(key, .array(numbers.map { JSONValue($0) })) }
    mutating func set(_ key: Key, integers: [Int]) { set(key, .array(integers.map(JSONValue.integer))) }
    mutating func set(_ key: Key, strings: [String]) { set(key, .array(strings.map(JSONValue.string))) }
}

/// A named value shown in a report header table (and the `machine` object of every results file).
public struct DisplayField: Sendable, Equatable {
    /// The label, e.g. `cpu`.
    public var name: String
    /// The value as shown.
    public var value: String

    /// A field labelled `name` showing `value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// A JSON value as display text: a string without quotes, an array of strings joined by
    /// `, `, anything else as compact JSON. O(size of the value).
    public static func text(_ value: JSONValue) -> String {
        if let string = value.stringValue { return string }
        if let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) {
            return array.compactMap(\.stringValue).joined(separator: ", ")
        }
        return value.serialized()
    }

    /// `fields` as a JSON object of strings, in order. O(count).
    static func json(_ fields: [DisplayField]) -> JSONValue {
        .object(JSONObject(fields.map { ($0.name, .string($0.value)) }))
    }
}

/// "an object", "a string", "null", … for error messages.
func article(_ value: JSONValue) -> String { value.typeNameWithArticle }

/// A record key enum that has the provenance members every run's results file carries first:
/// when it ran, on what machine, with which toolchain, at which commit; and, for the files whose
/// schema has them, how long the run took (``runSeconds``) and whether the checkout was dirty
/// (``dirtyFlag``).
protocol ProvenanceKey: RawRepresentable where RawValue == String {
    static var createdAt: Self { get }
    static var machine: Self { get }
    static var toolchain: Self { get }
    static var commit: Self { get }
    /// The member of the run's wall-clock seconds, when the schema has one.
    static var runSeconds: Self? { get }
    /// The member of the dirty flag, when the schema has one.
    static var dirtyFlag: Self? { get }
}

extension ProvenanceKey {
    static var runSeconds: Self? { nil }
    static var dirtyFlag: Self? { nil }
}

extension FieldWriter where Key: ProvenanceKey {
    /// Writes `provenance`'s members in file order: `createdAt`, `seconds`, `machine`,
    /// `toolchain`, `commit` (as `null` when unknown), `dirty`; `seconds` and `dirty` only when
    /// the schema has them. O(machine).
    mutating func set(_ provenance: RunProvenance) {
        set(.createdAt, provenance.createdAt)
        if let key = Key.runSeconds { set(key, provenance.seconds) }
        set(.machine, DisplayField.json(provenance.machine))
        set(.toolchain, provenance.toolchain)
        set(.commit, provenance.commit, null: true)
        if let key = Key.dirtyFlag { set(key, provenance.dirty) }
    }
}

extension FieldReader where Key: ProvenanceKey {
    /// Reads the provenance members the schema has. - Throws: ``ResultsError`` for a wrong type,
    /// `createdAt` outside ``FieldRange/unixTime`` or `seconds` outside ``FieldRange/runSeconds``.
    /// - Complexity: O(machine).
    func provenance() throws(ResultsError) -> RunProvenance {
        var provenance = RunProvenance(createdAt: try optionalInt(.createdAt, in: .unixTime))
        if let key = Key.runSeconds { provenance.seconds = try optionalDouble(key, in: .runSeconds) }
        provenance.machine = try displayFields(.machine)
        provenance.toolchain = try optionalString(.toolchain)
        provenance.commit = try optionalString(.commit)
        if let key = Key.dirtyFlag { provenance.dirty = try optionalBool(key) }
        return provenance
    }
}
