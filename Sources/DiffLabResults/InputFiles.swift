import DiffLabBatch
import DiffLabCore
import DiffLabJSON

// The input files of `difflab diff` and `difflab stages` (lists and sectioned lists of
// elements), read by one decoder under one string rule, and the error every input decoder throws.

/// Why an input file's document is not what its command reads: one line naming the input, the
/// element or field, and what was expected (`difflab` exits 65 with it).
public struct InputFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A list element as the command line reads it from JSON.
///
/// - A scalar — a string or a number — is its own identifier and content: `1` and `"1"` are
///   different identifiers; `1` and `1.0` are the same number.
/// - An object `{"id": scalar, "content": any JSON}` has that identifier and content (content
///   compared as JSON values, object key order ignored; an absent content is `null`).
///
/// Identifiers and contents compare as ``JSONValue``s: integers exactly at any size
/// (`18446744073709551615` ≠ `18446744073709551614`), strings literally, code point for code point
/// (`"\u00e9"` ≠ `"e\u0301"`, as in IGListKit). For `--strings canonical`, ``ElementDecoder``
/// rewrites canonically equivalent strings to one spelling while decoding, so this type and the
/// engines never need to know the rule.
public struct JSONElement: Diffable, Hashable, Sendable {
    /// The identifier: a `.string`, `.integer`, `.bigInteger` or `.double` value.
    public var id: JSONValue
    /// The content compared for updates.
    public var content: JSONValue

    /// An element with identifier `id` and `content`.
    public init(id: JSONValue, content: JSONValue) {
        self.id = id
        self.content = content
    }

    /// The element's ``id``.
    public var diffIdentifier: JSONValue { id }

    /// Contents compare as JSON values: numbers by value, objects ignoring key order.
    public func isContentEqual(to other: JSONElement) -> Bool { content == other.content }

    /// Decodes a JSON array of elements with literal string comparison (see ``ElementDecoder``).
    ///
    /// - Parameters:
    ///   - value: the parsed input, a JSON array of elements.
    ///   - what: names the input in error messages, e.g. `"OLD.json"`.
    /// - Throws: ``InputFormatError`` naming the input, the element index and what is wrong.
    /// - Complexity: O(n).
    public static func list(from value: JSONValue, what: String) throws(InputFormatError) -> [JSONElement] {
        var decoder = ElementDecoder(strings: .literal)
        return try decoder.list(from: value, what: what)
    }

    /// Decodes one element with literal string comparison; `context` prefixes error messages.
    public static func element(from item: JSONValue, at context: String) throws(InputFormatError) -> JSONElement {
        var decoder = ElementDecoder(strings: .literal)
        return try decoder.element(from: item, at: context)
    }
}

/// Decodes list elements under one string-comparison rule (`--strings`).
///
/// - ``JSONStringComparison/literal``: values are used as parsed.
/// - ``JSONStringComparison/canonical``: every string (identifiers, contents, object keys inside
///   contents, section identifiers) is replaced by the first spelling this decoder saw of its Unicode
///   canonical-equivalence class (``JSONStringCanonicalizer``). Decode OLD and NEW with the **same**
///   decoder: then literal comparison of the results is canonical equivalence of the inputs.
///   Output (e.g. `difflab stages` data) shows those first-seen spellings.
public struct ElementDecoder: Sendable {
    private var canonicalizer: JSONStringCanonicalizer?

    /// A decoder applying `strings`.
    public init(strings: JSONStringComparison) {
        canonicalizer = strings == .canonical ? JSONStringCanonicalizer() : nil
    }

    /// Decodes a JSON array of elements.
    ///
    /// - Parameters:
    ///   - value: the parsed input, a JSON array of elements.
    ///   - what: names the input in error messages, e.g. `"OLD.json"`.
    /// - Throws: ``InputFormatError`` naming the input, the element index and what is wrong.
    /// - Complexity: O(size of `value`).
    public mutating func list(from value: JSONValue, what: String) throws(InputFormatError) -> [JSONElement] {
        guard case .array(let items) = value else {
            throw InputFormatError("\(what): expected a JSON array of elements, not \(value.typeNameWithArticle)")
        }
        var elements: [JSONElement] = []
        elements.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            elements.append(try element(from: item, at: "\(what): element \(index)"))
        }
        return elements
    }

    /// Decodes one element; `context` prefixes error messages.
    ///
    /// - Throws: a data error for a wrong shape, or (canonical rule) for an object in the content
    ///   with two canonically equivalent keys.
    public mutating func element(from item: JSONValue, at context: String) throws(InputFormatError) -> JSONElement {
        switch item {
        case .string, .integer, .bigInteger, .double:
            let id = try apply(item, context)
            return JSONElement(id: id, content: id)
        case .object(let object):
            let id = try apply(try scalarID(of: object, otherKey: "content", context), context)
            return JSONElement(id: id, content: try apply(object["content"] ?? .null, context))
        default:
            throw InputFormatError(
                "\(context) is \(item.typeNameWithArticle); expected a string, a number or {\"id\": ..., \"content\": ...}")
        }
    }

    /// `value` under the rule: unchanged (literal) or canonicalised.
    ///
    /// - Throws: a data error prefixed with `context` for canonically equivalent keys in one object.
    public mutating func apply(_ value: JSONValue, _ context: String) throws(InputFormatError) -> JSONValue {
        guard canonicalizer != nil else { return value }
        // Canonical comparison is quadratic in a run of combining marks: refuse text that is not
        // stream-safe (UAX #15) instead of hanging on it.
        if let hostile = value.firstNonStreamSafeString {
            throw InputFormatError(
                "\(context): a string of \(hostile.unicodeScalars.count) scalars has more than \(String.maxConsecutiveNonStarters) combining marks in a row, which --strings canonical cannot compare in reasonable time (Unicode's Stream-Safe Text Format, UAX #15); use --strings literal"
            )
        }
        do {
            // Optional chaining mutates the canonicaliser in place (no copy of its set).
            return try canonicalizer?.canonicalize(value) ?? value
        } catch {
            throw InputFormatError("\(context): \(error) (with --strings canonical they would be one key)")
        }
    }
}

/// The `"id"` of an object that may hold only `"id"` and `otherKey`; the id must be a string or a
/// number.
///
/// - Throws: a data error prefixed with `context`.
package func scalarID(of object: JSONObject, otherKey: String, _ context: String) throws(InputFormatError) -> JSONValue {
    for key in object.keys where key != "id" && key != otherKey {
        throw InputFormatError("\(context) has unknown key \"\(key)\"; expected only \"id\" and \"\(otherKey)\"")
    }
    guard let id = object["id"] else { throw InputFormatError("\(context) has no \"id\"") }
    switch id {
    case .string, .integer, .bigInteger, .double: return id
    default: throw InputFormatError("\(context): \"id\" must be a string or a number, not \(id.typeNameWithArticle)")
    }
}

/// A sectioned list of elements, as `difflab stages` reads it.
public typealias JSONSections = SectionedList<JSONValue, JSONElement>

extension SectionedList where SectionID == JSONValue, Element == JSONElement {
    /// Decodes a sectioned list; `decoder` applies the `--strings` rule to section ids and items.
    public init(json value: JSONValue, what: String, decoder: inout ElementDecoder) throws(InputFormatError) {
        guard case .array(let sections) = value else {
            throw InputFormatError("\(what): expected a JSON array of sections, not \(value.typeNameWithArticle)")
        }
        var model = JSONSections([])
        for (s, section) in sections.enumerated() {
            let context = "\(what): section \(s)"
            guard case .object(let object) = section else {
                throw InputFormatError("\(context) is \(section.typeNameWithArticle); expected {\"id\": ..., \"items\": [...]}")
            }
            let id = try decoder.apply(try scalarID(of: object, otherKey: "items", context), context)
            guard case .array(let items)? = object["items"] else {
                throw InputFormatError("\(context): \"items\" must be an array of elements")
            }
            var elements: [JSONElement] = []
            for (i, item) in items.enumerated() {
                elements.append(try decoder.element(from: item, at: "\(context), item \(i)"))
            }
            model.sections.append(.init(id: id, items: elements))
        }
        self = model
    }

    /// The lists in the input format of `difflab stages` (its output shows each stage's data so).
    public var json: JSONValue {
        .array(
            sections.map { section in
                .object(JSONObject([("id", section.id), ("items", .array(section.items.map(\.jsonValue)))]))
            })
    }
}

extension JSONElement {
    /// The element in `difflab`'s input format: a bare scalar when it is its own content.
    public var jsonValue: JSONValue {
        content == id ? id : .object(JSONObject([("id", id), ("content", content)]))
    }
}
