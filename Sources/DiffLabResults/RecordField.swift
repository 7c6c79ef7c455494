import DiffLabJSON

/// A record of a DiffLab file, declared once: its `fields` table gives, for every field, the
/// member's key, its Swift property, its type and range, whether it may be absent and what it
/// means. Encoding (``json``), decoding (``init(json:source:path:)``), export columns and the
/// format tables of the documentation (``recordSchema``) all come from that one table, so a
/// field is added, renamed or re-ranged in one line.
///
/// Decoding starts from `blank` and reads each field in table order; members not in the table
/// are ignored. Encoding writes the fields in table order (after `schema` for a document).
///
/// The table (`fields`, `blank`, `finishDecoding(at:)`, and the `RecordField`, `FieldType` and
/// `FieldPosition` it is written in) is SPI, `@_spi(Records)`: how DiffLab declares its own
/// records, not public API.
public protocol ResultsRecord: Sendable {
    /// The fields, in file order.
    @_spi(Records) static var fields: [RecordField<Self>] { get }
    /// The value decoding starts from: every field at its default (required ones are overwritten).
    @_spi(Records) static var blank: Self { get }
    /// The `schema` a whole document of this record names (written first and checked on
    /// reading), or `nil` for a record that is part of a document. Default: `nil`.
    static var documentSchema: String? { get }
    /// Checks that hold across fields, and notes what decoding does not read (a document's
    /// `source`); runs after every field is read. Default: nothing.
    ///
    /// - Throws: ``ResultsError/invalid(source:field:expected:)`` naming the field at fault.
    @_spi(Records) mutating func finishDecoding(at position: FieldPosition) throws(ResultsError)
}

extension ResultsRecord {
    public static var documentSchema: String? { nil }
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {}

    /// The record's name in the format tables: its Swift type's name, with the types it is
    /// nested in (`UpdaterFindingsFile.Campaign`) but no module or local context.
    public static var recordName: String {
        String(reflecting: Self.self).replacing(/\(unknown context at [^)]*\)\./, with: "").replacing(/\b(DiffLab[A-Za-z]*|Swift)\./, with: "")
    }

    /// The record as a JSON object: `schema` first for a document, then each field the table
    /// writes, in table order. O(size of the record).
    public var json: JSONValue {
        var object = JSONObject()
        if let schema = Self.documentSchema { object[SchemaKey.schema.rawValue] = .string(schema) }
        for field in Self.fields { field.write(self, &object) }
        return .object(object)
    }

    /// Reads a record from `json`.
    ///
    /// - Parameters:
    ///   - json: the record's object (for a document, the whole parsed file).
    ///   - source: the file it comes from, for messages.
    ///   - path: the object's JSON path in its file (e.g. `measurements[3]`); empty for a document.
    /// - Throws: ``ResultsError``: a document that is not an object or names another schema; then
    ///   a missing required field, any field of the wrong type or outside its range (each named
    ///   by its path, with what `fields` allows), or a failed cross-field check.
    /// - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        // A document's schema is checked wherever it sits (`FieldType.document` embeds one).
        if let schema = Self.documentSchema { try checkSchema(json, schema, source: source) }
        try self.init(json: json, at: FieldPosition(source: source, path: path))
    }

    /// Reads the record at `position`; a document's schema is its caller's to check.
    init(json: JSONValue, at position: FieldPosition) throws(ResultsError) {
        guard let object = json.objectValue else { throw position.wrongType("an object", json) }
        var record = Self.blank
        for field in Self.fields { try field.read(object, &record, position) }
        try record.finishDecoding(at: position)
        self = record
    }

    /// The record's fields as a format table, with the records they hold.
    public static var recordSchema: RecordSchema {
        RecordSchema(
            name: recordName, documentSchema: documentSchema, fields: fields.map(\.description), records: { fields.flatMap { $0.records() } })
    }
}

/// A field of a ``ResultsRecord``: how one member is read into, and written from, one property.
/// Declared with ``required(_:_:_:column:_:)``, ``optional(_:_:_:absent:column:_:)`` or
/// ``defaulted(_:_:_:default:written:column:_:)``.
@_spi(Records) public struct RecordField<Root>: Sendable {
    /// The field as the format tables show it.
    public let description: FieldDescription
    let read: @Sendable (JSONObject, inout Root, FieldPosition) throws(ResultsError) -> Void
    let write: @Sendable (Root, inout JSONObject) -> Void
    /// The value an export column shows; `nil` for an absent value.
    let exported: @Sendable (Root) -> JSONValue?
    let records: @Sendable () -> [RecordSchema]

    /// When an optional field with no value is written.
    public enum Absent: Sendable {
        /// Left out.
        case omitted
        /// Written as `null`.
        case null
        /// Written as `null` when the record satisfies the predicate, else left out.
        case nullWhen(@Sendable (Root) -> Bool)
    }

    /// When a field with a default is written.
    public enum Written: Sendable {
        /// Always.
        case always
        /// Unless it holds the default.
        case unlessDefault
        /// When the record satisfies the predicate.
        case when(@Sendable (Root) -> Bool)
    }

    /// A member that must be present (and not `null`).
    public static func required<Value>(
        _ key: String, _ property: WritableKeyPath<Root, Value> & Sendable, _ type: FieldType<Value>, column: String? = nil, _ meaning: String
    ) -> RecordField {
        RecordField(
            description: FieldDescription(key: key, expected: type.expected, presence: "required", meaning: meaning, column: column),
            read: { object, root, at throws(ResultsError) in
                guard let value = present(object, key) else { throw .missingField(source: at.source, path: at.member(key).named) }
                root[keyPath: property] = try type.decode(value, at.member(key))
            },
            write: { root, object in object[key] = type.encode(root[keyPath: property]) },
            exported: { type.encode($0[keyPath: property]) }, records: type.records)
    }

    /// A member that may be absent or `null` (read as `nil`); `absent` says how `nil` is written.
    public static func optional<Value>(
        _ key: String, _ property: WritableKeyPath<Root, Value?> & Sendable, _ type: FieldType<Value>, absent: Absent = .omitted,
        column: String? = nil, _ meaning: String
    ) -> RecordField {
        let presence: String
        switch absent {
        case .omitted: presence = "optional"
        case .null: presence = "optional (`null` when unknown)"
        case .nullWhen: presence = "optional (sometimes `null`)"
        }
        return RecordField(
            description: FieldDescription(key: key, expected: type.expected, presence: presence, meaning: meaning, column: column),
            read: { object, root, at throws(ResultsError) in
                guard let value = present(object, key) else { return }
                root[keyPath: property] = try type.decode(value, at.member(key))
            },
            write: { root, object in
                if let value = root[keyPath: property] {
                    object[key] = type.encode(value)
                } else if case .null = absent {
                    object[key] = .null
                } else if case .nullWhen(let isNull) = absent, isNull(root) {
                    object[key] = .null
                }
            },
            exported: { $0[keyPath: property].map(type.encode) }, records: type.records)
    }

    /// A member that may be absent or `null`, then read as `defaultValue`; `written` says when it
    /// is written.
    public static func defaulted<Value: Equatable & Sendable>(
        _ key: String, _ property: WritableKeyPath<Root, Value> & Sendable, _ type: FieldType<Value>, default defaultValue: Value,
        written: Written = .unlessDefault, column: String? = nil, _ meaning: String
    ) -> RecordField {
        let shown = type.encode(defaultValue).serialized()
        return RecordField(
            description: FieldDescription(
                key: key, expected: type.expected, presence: "optional (absent: `\(shown)`)", meaning: meaning, column: column),
            read: { object, root, at throws(ResultsError) in
                guard let value = present(object, key) else {
                    root[keyPath: property] = defaultValue
                    return
                }
                root[keyPath: property] = try type.decode(value, at.member(key))
            },
            write: { root, object in
                let value = root[keyPath: property]
                switch written {
                case .always: break
                case .unlessDefault: guard value != defaultValue else { return }
                case .when(let isWritten): guard isWritten(root) else { return }
                }
                object[key] = type.encode(value)
            },
            exported: { type.encode($0[keyPath: property]) }, records: type.records)
    }

    /// An array member that reads as empty when absent or `null`; `written` says when it is
    /// written (by default unless empty).
    public static func list<Element: Equatable & Sendable>(
        _ key: String, _ property: WritableKeyPath<Root, [Element]> & Sendable, _ element: FieldType<Element>, count: FieldRange<Int>? = nil,
        written: Written = .unlessDefault, column: String? = nil, _ meaning: String
    ) -> RecordField {
        defaulted(key, property, .array(element, count: count), default: [], written: written, column: column, meaning)
    }

    /// `fields` of a record held in `property` and written inline, as members of this object.
    public static func inline<Member: ResultsRecord>(
        _ property: WritableKeyPath<Root, Member> & Sendable, _ fields: [RecordField<Member>] = Member.fields
    ) -> [RecordField] {
        fields.map { field in
            RecordField(
                description: field.description,
                read: { object, root, at throws(ResultsError) in try field.read(object, &root[keyPath: property], at) },
                write: { root, object in field.write(root[keyPath: property], &object) },
                exported: { field.exported($0[keyPath: property]) }, records: field.records)
        }
    }
}

/// The member `key` of `object`, `nil` when absent or `null`.
private func present(_ object: JSONObject, _ key: String) -> JSONValue? {
    guard let value = object[key], value != .null else { return nil }
    return value
}

/// One row of a format table: a field's key, what its value must be, whether it may be absent,
/// what it means and, for exported records, its column.
public struct FieldDescription: Sendable, Equatable {
    /// The member's key.
    public let key: String
    /// What its value must be (type and range).
    public let expected: String
    /// `required`, or how absence reads.
    public let presence: String
    /// Its meaning, in one line.
    public let meaning: String
    /// Its column in CSV exports, for exported records.
    public let column: String?
}

/// A record's format table: the record, its fields and the records they hold.
public struct RecordSchema: Sendable {
    /// The record's Swift type name.
    public let name: String
    /// The `schema` it names as a whole document, if it is one.
    public let documentSchema: String?
    /// Its fields, in file order.
    public let fields: [FieldDescription]
    let records: @Sendable () -> [RecordSchema]

    /// This record and every record it holds, each once, depth first in field order.
    /// - Complexity: O(records × fields).
    public var all: [RecordSchema] {
        var seen: Set<String> = []
        var result: [RecordSchema] = []
        func visit(_ schema: RecordSchema) {
            guard seen.insert(schema.name).inserted else { return }
            result.append(schema)
            for held in schema.records() { visit(held) }
        }
        visit(self)
        return result
    }
}
