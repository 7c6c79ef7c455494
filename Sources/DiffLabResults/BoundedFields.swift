import DiffLabCore
import DiffLabJSON

// Reading rules for fields whose size a file's schema bounds (the arena file's text and lists):
// text of at most so many characters, names from a closed list, engine names, and arrays of at
// most so many elements. Each refusal is a ``ResultsError`` naming the file, the field's path and
// what was allowed; a hostile value is quoted only as ``DiffLabJSON/JSONValue/briefDescription``
// (at most 40 characters), never whole.

extension FieldReader {
    /// A string member whose length in characters (Unicode scalars) is within `limit`; absent or
    /// `null` → `nil`.
    ///
    /// - Throws: the errors of ``optionalString(_:)``, and ``ResultsError/invalid(source:field:expected:)``
    ///   for a string of another length, naming its length.
    /// - Complexity: O(length of the string).
    func optionalText(_ key: Key, atMost limit: FieldRange<Int>) throws(ResultsError) -> String? {
        guard let text = try optionalString(key) else { return nil }
        try checkLength(text, atMost: limit, path(key))
        return text
    }

    /// A required string member of a length within `limit`; see ``optionalText(_:atMost:)``.
    func requiredText(_ key: Key, atMost limit: FieldRange<Int>) throws(ResultsError) -> String {
        let text = try requiredString(key)
        try checkLength(text, atMost: limit, path(key))
        return text
    }

    /// An array of strings, each of a length within `limit`, with a count in `range`; absent or
    /// `null` → empty (then refused if the range needs elements).
    func texts(_ key: Key, count range: FieldRange<Int>, atMost limit: FieldRange<Int>) throws(ResultsError) -> [String] {
        try checkCount(key, range)
        let texts = try strings(key)
        for (index, text) in texts.enumerated() { try checkLength(text, atMost: limit, path(key) + "[\(index)]") }
        return texts
    }

    /// Readers for the objects of array member `key`, which must have a count in `range`
    /// (checked before any element is read).
    ///
    /// - Throws: ``ResultsError/outOfRange(source:path:value:allowed:)`` naming the count, and the
    ///   errors of ``objects(_:_:)``.
    func objects<Member>(_ key: Key, _ member: Member.Type = Member.self, count range: FieldRange<Int>) throws(ResultsError) -> [FieldReader<Member>]
    {
        try checkCount(key, range)
        return try objects(key, member)
    }

    /// A reader (keyed by `Member`) for the required object member `key`.
    ///
    /// - Throws: ``ResultsError/missingField(source:path:)`` when absent or `null`, a wrong type otherwise.
    func requiredObject<Member>(_ key: Key, _ member: Member.Type = Member.self) throws(ResultsError) -> FieldReader<Member> {
        guard let reader = try object(key, member) else { throw .missingField(source: source, path: path(key)) }
        return reader
    }

    /// Refuses array member `key` (absent counts as empty) when its length is outside `range`.
    private func checkCount(_ key: Key, _ range: FieldRange<Int>) throws(ResultsError) {
        let count = try optionalArray(key).count
        guard range.range.contains(count) else {
            throw .outOfRange(source: source, path: path(key), value: "\(count) elements", allowed: range.text)
        }
    }

    /// Refuses `text` when its count of Unicode scalars is outside `limit`.
    private func checkLength(_ text: String, atMost limit: FieldRange<Int>, _ path: String) throws(ResultsError) {
        // Counting stops one past the limit: a huge string costs O(limit) unless it is refused.
        let counted = text.unicodeScalars.prefix(limit.range.upperBound + 1).count
        guard !limit.range.contains(counted) else { return }
        throw .invalid(source: source, field: path, expected: "\(limit.text), not \(text.unicodeScalars.count)")
    }

    /// A required member whose string must be the raw value of one of `type`'s cases.
    ///
    /// - Throws: ``ResultsError/missingField(source:path:)``, or
    ///   ``ResultsError/wrongType(source:path:expected:found:)`` listing the allowed names.
    func requiredCase<Name: RawRepresentable & CaseIterable>(_ key: Key, _ type: Name.Type) throws(ResultsError) -> Name
    where Name.RawValue == String {
        let text = try requiredString(key)
        guard let name = Name(rawValue: text) else {
            throw .wrongType(
                source: source, path: path(key), expected: "one of " + Name.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "),
                found: JSONValue.string(text).briefDescription)
        }
        return name
    }

    /// A required engine name: 1 to 64 lower-case ASCII letters, digits and `-` (see
    /// ``isEngineSlug(_:)``).
    ///
    /// - Throws: ``ResultsError/missingField(source:path:)``, a wrong type, or
    ///   ``ResultsError/invalid(source:field:expected:)``.
    func requiredEngineName(_ key: Key) throws(ResultsError) -> String {
        let name = try requiredString(key)
        guard isEngineSlug(name) else {
            throw .invalid(
                source: source, field: path(key),
                expected:
                    "an engine name of 1 to 64 lower-case letters, digits, '-', '_' and '.', starting with a letter or digit, not \(JSONValue.string(name).briefDescription)"
            )
        }
        return name
    }
}

/// Whether `text` is 1 to 64 lower-case ASCII letters, digits and `-` (a mutant's name). O(1).
package func isLowerSlug(_ text: String) -> Bool {
    (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
}
