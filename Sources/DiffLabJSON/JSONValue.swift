// DiffLabJSON — a small, strict, dependency-free JSON model, parser and writer.
//
// Files in this module:
//   JSONValue.swift   the value enum, normalising initialisers, equality/hashing, accessors, literals
//   JSONObject.swift  the order-preserving, order-insensitive-equality object type
//   JSONParser.swift  the RFC 8259 parser over UTF-8 bytes (iterative, depth-limited)
//   JSONWriter.swift  compact and pretty serialisation
//   JSONParseError.swift  the error type thrown by the parser

/// A JSON value.
///
/// ## Number model
/// JSON has a single number type; this model splits it in two so integers stay exact:
/// - ``integer(_:)`` holds every number whose *value* is an integer exactly representable as `Int`,
///   however it was spelled: `1`, `1.0`, `1e0`, `100E-2`, `-0` all become `.integer(1)` / `.integer(0)`.
/// - ``double(_:)`` holds every other finite number. The parser, ``init(_:)`` and the float-literal
///   initialiser never put an integral value that fits in `Int` into `.double`.
///
/// The enum cases are public, so code can still build `.double(1.0)` by hand. To keep that harmless,
/// equality and hashing compare numbers **by value**: `.double(1.0) == .integer(1)` and both hash alike.
/// `.double(-0.0) == .integer(0)`. A hand-built `.double(.nan)` is not equal to itself (IEEE semantics),
/// and non-finite doubles are written as `null` (see ``serialized(pretty:)``).
///
/// ## Equality
/// Objects compare ignoring key order (see ``JSONObject``); arrays compare element-wise in order;
/// values of different JSON types are never equal (`1 != "1"`, `0 != false`, `null != []`).
/// Equality and hashing are O(size of the value).
///
/// ## Nesting
/// The parser refuses documents nested deeper than 512 containers, so parsed values can always be
/// compared, hashed and serialised safely. Values built by hand that are nested far deeper
/// (tens of thousands of levels) may exhaust the stack in the recursive writer, `==` or `hash(into:)`.
public enum JSONValue: Sendable {
    /// The JSON literal `null`.
    case null
    /// The JSON literals `true` / `false`.
    case bool(Bool)
    /// A JSON number whose value is an integer exactly representable as `Int`
    /// (`1`, `1.0`, `1e2`, `-0`, `100E-2`, `-9223372036854775808`).
    case integer(Int)
    /// Any other finite JSON number. By convention never holds an integral value that fits in `Int`
    /// (use ``init(_:)`` to construct normalised values); equality tolerates violations, see the type docs.
    case double(Double)
    /// A JSON string (any valid Unicode; escapes already decoded).
    case string(String)
    /// A JSON array, in document order.
    case array([JSONValue])
    /// A JSON object; keys are unique, insertion order is kept for output.
    case object(JSONObject)

    /// Creates a number from a `Double`, normalising it like the parser does.
    ///
    /// - If `double` is integral and exactly representable as `Int` (including `-0.0`), the result is
    ///   `.integer`; otherwise it is `.double(double)`.
    /// - Non-finite inputs (`.infinity`, `.nan`) are stored as `.double` unchanged; they cannot come from
    ///   the parser and are written as `null` by ``serialized(pretty:)``.
    ///
    /// Complexity: O(1).
    public init(_ double: Double) {
        if let exact = JSONValue.exactInt(double) {
            self = .integer(exact)
        } else {
            self = .double(double)
        }
    }

    /// Returns `d` as an `Int` if it is integral and exactly representable, else `nil`.
    /// (Implemented without libm so no extra link dependency is needed.) `-0.0` maps to `0`; NaN/inf to nil.
    @inline(__always)
    static func exactInt(_ d: Double) -> Int? {
        // -2^63 is representable; 2^63 is not. NaN fails both comparisons.
        guard d >= -0x1p63, d < 0x1p63 else { return nil }
        let truncated = Int(d)
        return Double(truncated) == d ? truncated : nil
    }
}

// MARK: - Equatable & Hashable

extension JSONValue: Hashable {
    /// Structural equality. Numbers compare by value across `.integer`/`.double`
    /// (`.integer(1) == .double(1.0)`), objects ignore key order, arrays are ordered.
    /// Complexity: O(n) in the size of the smaller value (objects use hashed lookup when large).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.bool(a), .bool(b)):
            return a == b
        case let (.integer(a), .integer(b)):
            return a == b
        case let (.double(a), .double(b)):
            return a == b
        case let (.integer(a), .double(b)), let (.double(b), .integer(a)):
            return JSONValue.exactInt(b) == a
        case let (.string(a), .string(b)):
            return a == b
        case let (.array(a), .array(b)):
            return a == b
        case let (.object(a), .object(b)):
            return a == b
        default:
            return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``: a `.double` holding an integral `Int`-sized value hashes
    /// like the corresponding `.integer`; objects hash independently of key order.
    /// Complexity: O(size of the value).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let b):
            hasher.combine(1 as UInt8)
            hasher.combine(b)
        case .integer(let i):
            hasher.combine(2 as UInt8)
            hasher.combine(i)
        case .double(let d):
            if let i = JSONValue.exactInt(d) {
                hasher.combine(2 as UInt8)
                hasher.combine(i)
            } else {
                hasher.combine(3 as UInt8)
                hasher.combine(d)
            }
        case .string(let s):
            hasher.combine(4 as UInt8)
            hasher.combine(s)
        case .array(let a):
            hasher.combine(5 as UInt8)
            hasher.combine(a)
        case .object(let o):
            hasher.combine(6 as UInt8)
            hasher.combine(o)
        }
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The payload of `.string`, else `nil`. O(1).
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The payload of `.integer`, else `nil` (also `nil` for `.double`, even a hand-built integral one).
    /// O(1).
    public var intValue: Int? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// Any number as `Double`: `.double` as is, `.integer` converted (magnitudes above 2^53 round to the
    /// nearest `Double`). `nil` for non-numbers. O(1).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The payload of `.bool`, else `nil`. O(1).
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements of `.array`, else `nil`. O(1) (copy-on-write).
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The payload of `.object`, else `nil`. O(1) (copy-on-write).
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The member named `key` if `self` is an object that has it; `nil` otherwise (including when
    /// `self` is not an object). Average O(1) for large objects, O(count) for objects of ≤ 16 members.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The JSON type name, for error messages: `"null"`, `"boolean"`, `"number"` (both `.integer` and
    /// `.double`), `"string"`, `"array"` or `"object"`. O(1).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` as a `JSONValue` literal is `.null`. (A `JSONValue?` initialised with `nil` is still
    /// `Optional.none`; the context decides.)
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` / `false` become `.bool`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Integer literals become `.integer`.
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Float literals are normalised like the parser: `2.0` becomes `.integer(2)`, `2.5` stays `.double`.
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// String literals become `.string`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Array literals become `.array`.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Dictionary literals become `.object`, keeping the literal's key order. Unlike `Dictionary`,
    /// a repeated key does not trap: the later value replaces the earlier one at the first position.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

// MARK: - Description

extension JSONValue: CustomStringConvertible {
    /// The compact serialisation, `serialized(pretty: false)`. O(size of the value).
    public var description: String {
        serialized()
    }
}
