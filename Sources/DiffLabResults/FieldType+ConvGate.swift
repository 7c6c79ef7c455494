import DiffLabJSON

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
        return plain ? member(name) : FieldPosition(source: source, path: path + "[\"\(name)\"]")
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

    /// This type's values converted to `T` by `into` (which must accept every value this type
    /// decodes: its range guarantees it) and written back through `back`. O(1) plus the type's cost.
    public func converted<T>(_ into: @escaping @Sendable (Value) -> T, back: @escaping @Sendable (T) -> Value) -> FieldType<T> {
        let decode = self.decode
        let encode = self.encode
        return FieldType<T>(
            expected, records: records, decode: { value, at throws(ResultsError) in into(try decode(value, at)) }, encode: { encode(back($0)) })
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
                    guard let key = Key(rawValue: name) else {
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
                if let object = value.objectValue, let stray = object.keys.first(where: { !keys.contains($0) }) {
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
