import DiffLabJSON

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
