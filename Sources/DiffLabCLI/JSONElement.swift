import DiffLabCore
import DiffLabJSON

/// A list element as the command line reads it from JSON.
///
/// - A scalar — a string or a number — is its own identifier and content: `1` and `"1"` are
///   different identifiers; `1` and `1.0` are the same number.
/// - An object `{"id": scalar, "content": any JSON}` has that identifier and content (content
///   compared as JSON values, object key order ignored; an absent content is `null`).
public struct JSONElement: Diffable, Hashable, Sendable {
    /// The identifier: a `.string`, `.integer` or `.double` value.
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

    /// Decodes a JSON array of elements.
    ///
    /// - Parameter what: names the input in error messages, e.g. `"OLD.json"`.
    /// - Throws: ``CommandError/data(_:)`` naming the input, the element index and what is wrong.
    /// - Complexity: O(n).
    public static func list(from value: JSONValue, what: String) throws(CommandError) -> [JSONElement] {
        guard case .array(let items) = value else {
            throw .data("\(what): expected a JSON array of elements, not \(withArticle(value.typeName))")
        }
        var elements: [JSONElement] = []
        elements.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            elements.append(try element(from: item, at: "\(what): element \(index)"))
        }
        return elements
    }

    /// Decodes one element; `context` prefixes error messages.
    public static func element(from item: JSONValue, at context: String) throws(CommandError) -> JSONElement {
        switch item {
        case .string, .integer, .double:
            return JSONElement(id: item, content: item)
        case .object(let object):
            let id = try scalarID(of: object, otherKey: "content", context)
            return JSONElement(id: id, content: object["content"] ?? .null)
        default:
            throw .data(
                "\(context) is \(withArticle(item.typeName)); expected a string, a number or {\"id\": ..., \"content\": ...}")
        }
    }
}

/// Reads and decodes a list file for a command.
///
/// - Throws: exit 66 when unreadable, exit 65 for malformed JSON or a wrong element shape.
func readList(_ path: String) throws(CommandError) -> [JSONElement] {
    try JSONElement.list(from: try readJSON(path), what: path)
}

/// Reads and parses a JSON file for a command.
///
/// - Throws: exit 66 when unreadable, exit 65 for malformed JSON.
func readJSON(_ path: String) throws(CommandError) -> JSONValue {
    let bytes = try readInputFile(path)
    do {
        return try JSONValue.parse(bytes: bytes)
    } catch {
        throw .data("\(path): malformed JSON at \(error)")
    }
}

/// "an array", "an object", "a string", "null".
func withArticle(_ typeName: String) -> String {
    switch typeName {
    case "null": "null"
    case "array", "object": "an \(typeName)"
    default: "a \(typeName)"
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
    case .string, .integer, .double: return id
    default: throw .data("\(context): \"id\" must be a string or a number, not \(withArticle(id.typeName))")
    }
}
