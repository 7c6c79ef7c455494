import DiffLabCore
import DiffLabJSON

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
    /// - Parameter what: names the input in error messages, e.g. `"OLD.json"`.
    /// - Throws: ``CommandError/data(_:)`` naming the input, the element index and what is wrong.
    /// - Complexity: O(n).
    static func list(from value: JSONValue, what: String) throws(CommandError) -> [JSONElement] {
        var decoder = ElementDecoder(strings: .literal)
        return try decoder.list(from: value, what: what)
    }

    /// Decodes one element with literal string comparison; `context` prefixes error messages.
    static func element(from item: JSONValue, at context: String) throws(CommandError) -> JSONElement {
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
struct ElementDecoder: Sendable {
    private var canonicalizer: JSONStringCanonicalizer?

    /// A decoder applying `strings`.
    init(strings: JSONStringComparison) {
        canonicalizer = strings == .canonical ? JSONStringCanonicalizer() : nil
    }

    /// Decodes a JSON array of elements.
    ///
    /// - Parameter what: names the input in error messages, e.g. `"OLD.json"`.
    /// - Throws: ``CommandError/data(_:)`` naming the input, the element index and what is wrong.
    /// - Complexity: O(size of `value`).
    mutating func list(from value: JSONValue, what: String) throws(CommandError) -> [JSONElement] {
        guard case .array(let items) = value else {
            throw .data("\(what): expected a JSON array of elements, not \(value.typeNameWithArticle)")
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
    mutating func element(from item: JSONValue, at context: String) throws(CommandError) -> JSONElement {
        switch item {
        case .string, .integer, .bigInteger, .double:
            let id = try apply(item, context)
            return JSONElement(id: id, content: id)
        case .object(let object):
            let id = try apply(try scalarID(of: object, otherKey: "content", context), context)
            return JSONElement(id: id, content: try apply(object["content"] ?? .null, context))
        default:
            throw .data(
                "\(context) is \(item.typeNameWithArticle); expected a string, a number or {\"id\": ..., \"content\": ...}")
        }
    }

    /// `value` under the rule: unchanged (literal) or canonicalised.
    ///
    /// - Throws: a data error prefixed with `context` for canonically equivalent keys in one object.
    mutating func apply(_ value: JSONValue, _ context: String) throws(CommandError) -> JSONValue {
        guard canonicalizer != nil else { return value }
        // Canonical comparison is quadratic in a run of combining marks: refuse text that is not
        // stream-safe (UAX #15) instead of hanging on it.
        if let hostile = value.firstNonStreamSafeString {
            throw .data(
                "\(context): a string of \(hostile.unicodeScalars.count) scalars has more than \(String.maxConsecutiveNonStarters) combining marks in a row, which --strings canonical cannot compare in reasonable time (Unicode's Stream-Safe Text Format, UAX #15); use --strings literal"
            )
        }
        do {
            // Optional chaining mutates the canonicaliser in place (no copy of its set).
            return try canonicalizer?.canonicalize(value) ?? value
        } catch {
            throw .data("\(context): \(error) (with --strings canonical they would be one key)")
        }
    }
}

/// Reads and decodes a list file for a command.
///
/// - Throws: exit 66 when unreadable, exit 65 for malformed JSON or a wrong element shape.
func readList(_ path: String, _ decoder: inout ElementDecoder) throws(CommandError) -> [JSONElement] {
    try decoder.list(from: try readJSON(path), what: path)
}

/// Reads and parses a JSON file for a command.
///
/// - Throws: exit 66 when unreadable, exit 65 for malformed JSON.
package func readJSON(_ path: String) throws(CommandError) -> JSONValue {
    let bytes = try readInputFile(path)
    do {
        return try JSONValue.parse(bytes: bytes)
    } catch {
        throw .data("\(path): malformed JSON at \(error)")
    }
}

/// The `"id"` of an object that may hold only `"id"` and `otherKey`; the id must be a string or a
/// number.
///
/// - Throws: a data error prefixed with `context`.
func scalarID(of object: JSONObject, otherKey: String, _ context: String) throws(CommandError) -> JSONValue {
    for key in object.keys where key != "id" && key != otherKey {
        throw .data("\(context) has unknown key \"\(key)\"; expected only \"id\" and \"\(otherKey)\"")
    }
    guard let id = object["id"] else { throw .data("\(context) has no \"id\"") }
    switch id {
    case .string, .integer, .bigInteger, .double: return id
    default: throw .data("\(context): \"id\" must be a string or a number, not \(id.typeNameWithArticle)")
    }
}
