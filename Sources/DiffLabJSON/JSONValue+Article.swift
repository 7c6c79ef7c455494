extension JSONValue {
    /// The value's type name with its article, for messages: "an array", "an object", "a string",
    /// "a number"…, and "null". O(1).
    package var typeNameWithArticle: String {
        switch typeName {
        case "null": "null"
        case "array", "object": "an \(typeName)"
        default: "a \(typeName)"
        }
    }
}
