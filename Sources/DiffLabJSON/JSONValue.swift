// DiffLabJSON — a small, strict, dependency-free JSON model, parser and writer.
//
// Files in this module:
//   JSONValue.swift   the value enum, normalising initialisers, equality/hashing, accessors, literals
//   JSONBigInteger.swift  exact integers beyond Int, as canonical decimal text
//   JSONStrings.swift literal string comparison, and the canonical-equivalence canonicaliser
//   JSONObject.swift  the order-preserving, order-insensitive-equality object type
//   JSONParser.swift  the RFC 8259 parser over UTF-8 bytes (iterative, depth-limited)
//   JSONWriter.swift  compact and pretty serialisation
//   JSONParseError.swift  the error type thrown by the parser

/// A JSON value.
///
/// ## Number model
/// JSON has a single number type; this model splits it in three so integers stay exact at any size:
/// - ``integer(_:)`` holds every number whose *value* is an integer exactly representable as `Int`,
///   however it was spelled: `1`, `1.0`, `1e0`, `100E-2`, `-0` all become `.integer(1)` / `.integer(0)`.
/// - ``bigInteger(_:)`` holds every other integer value, exactly, as canonical decimal digits
///   (``JSONBigInteger``): `18446744073709551615`, `1.8446744073709551615e19` and
///   `184467440737095516150e-1` are all `.bigInteger("18446744073709551615")`, and differ from
///   `18446744073709551614`. Never rounded through `Double`.
/// - ``double(_:)`` holds every other finite number, i.e. the non-integral ones, as the correctly
///   rounded `Double` (so `0.1` and `0.10000000000000000001` are the same number).
///
/// A number is *integral* by its decimal spelling: `1.5e1` is the integer 15. The parser, the
/// number initialisers (``init(_:)-(Double)`` and ``init(_:)-(JSONBigInteger)``) and the
/// float-literal initialiser never put an integral value into `.double`, nor an `Int`-sized
/// one into `.bigInteger`. (A non-integral spelling whose nearest `Double` is integral, such as
/// `9007199254740993.5`, becomes that integer.)
///
/// Range: every parsed number, integers included, rounds to a finite `Double` (integers have at
/// most 309 digits); larger ones are the parse error `number out of range`. So a hostile number
/// costs at most O(its length + 309) to read, compare, hash and write.
///
/// The enum cases are public, so code can still build `.double(1.0)` or `.bigInteger` of a small
/// value by hand. To keep that harmless, equality and hashing compare numbers **by exact value**:
/// `.double(1.0) == .integer(1)`, `.double(1e23) == .bigInteger("99999999999999991611392")`, and
/// equal numbers hash alike. `.double(-0.0) == .integer(0)`. A hand-built `.double(.nan)` is not
/// equal to itself (IEEE semantics), and non-finite doubles are written as `null` (see
/// ``serialized(pretty:)``).
///
/// ## Strings
/// Strings compare **literally**, code point for code point (by their UTF-8 bytes), as RFC 8259 §8.3
/// describes: `"\u00e9"` (é) and `"e\u0301"` (e + combining accent) are different strings, although
/// Swift's `String ==` calls them equal (canonical equivalence). Hashing uses the UTF-8 bytes too.
/// Object keys follow the same rule (see ``JSONObject``). To compare up to canonical equivalence,
/// run both values through one ``JSONStringCanonicalizer`` first.
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
    /// A JSON number whose value is an integer outside `Int`'s range, kept exactly
    /// (`9223372036854775808`, `-1e30`). By convention never holds an `Int`-sized value; equality
    /// tolerates violations, see the type docs.
    case bigInteger(JSONBigInteger)
    /// Any other finite JSON number: a non-integral one. By convention never holds an integral value
    /// (use ``init(_:)-(Double)`` to construct normalised values); equality tolerates violations, see the type docs.
    case double(Double)
    /// A JSON string (any valid Unicode; escapes already decoded). Compared literally, see the type docs.
    case string(String)
    /// A JSON array, in document order.
    case array([JSONValue])
    /// A JSON object; keys are unique, insertion order is kept for output.
    case object(JSONObject)

    /// Creates a number from a `Double`, normalising it like the parser does.
    ///
    /// - If `double` is integral and exactly representable as `Int` (including `-0.0`), the result is
    ///   `.integer`; if it is integral beyond `Int` (every finite double of magnitude 2^63 or more), it
    ///   is `.bigInteger` of its exact value (`1e23` becomes `99999999999999991611392`); otherwise it
    ///   is `.double(double)`.
    /// - Non-finite inputs (`.infinity`, `.nan`) are stored as `.double` unchanged; they cannot come from
    ///   the parser and are written as `null` by ``serialized(pretty:)``.
    ///
    /// Complexity: O(1) (at most a 309-digit expansion for huge magnitudes).
    public init(_ double: Double) {
        if let exact = JSONValue.exactInt(double) {
            self = .integer(exact)
        } else if let big = JSONBigInteger(exactly: double) {
            self = .bigInteger(big)
        } else {
            self = .double(double)
        }
    }

    /// Creates a number from an exact integer: `.integer` if it fits `Int`, else `.bigInteger`.
    /// Complexity: O(number of digits).
    public init(_ integer: JSONBigInteger) {
        if let small = integer.intValue {
            self = .integer(small)
        } else {
            self = .bigInteger(integer)
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
    /// Structural equality. Numbers compare by exact value across `.integer`/`.bigInteger`/`.double`
    /// (`.integer(1) == .double(1.0)`), strings compare literally (UTF-8 bytes, not canonical
    /// equivalence), objects ignore key order, arrays are ordered.
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
        case let (.bigInteger(a), .bigInteger(b)):
            return a == b
        case (.bigInteger, .integer), (.integer, .bigInteger), (.bigInteger, .double), (.double, .bigInteger):
            return lhs.exactNumber == rhs.exactNumber
        case let (.string(a), .string(b)):
            return LiteralString.equal(a, b)
        case let (.array(a), .array(b)):
            return a == b
        case let (.object(a), .object(b)):
            return a == b
        default:
            return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``: equal numbers hash alike whatever their case (a `.double`
    /// holding an integral `Int`-sized value hashes like the `.integer`); strings hash their UTF-8
    /// bytes; objects hash independently of key order. `.integer` costs one tag and one word.
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
        case .bigInteger, .double:
            switch exactNumber {
            case .int(let i):
                hasher.combine(2 as UInt8)
                hasher.combine(i)
            case .big(let b):
                hasher.combine(7 as UInt8)
                hasher.combine(b)
            case .fraction(let d):
                hasher.combine(3 as UInt8)
                hasher.combine(d)
            case nil:
                break
            }
        case .string(let s):
            hasher.combine(4 as UInt8)
            LiteralString.hash(s, into: &hasher)
        case .array(let a):
            hasher.combine(5 as UInt8)
            hasher.combine(a)
        case .object(let o):
            hasher.combine(6 as UInt8)
            hasher.combine(o)
        }
    }
}

/// A number in one canonical case, so that equal values have equal representations.
private enum ExactNumber: Equatable {
    case int(Int)
    case big(JSONBigInteger)
    /// A non-integral (or non-finite) double.
    case fraction(Double)
}

extension JSONValue {
    /// The number in canonical form; `nil` for non-numbers. O(1) for `.integer`; O(digits) otherwise.
    private var exactNumber: ExactNumber? {
        switch self {
        case .integer(let i):
            return .int(i)
        case .bigInteger(let b):
            return b.intValue.map(ExactNumber.int) ?? .big(b)
        case .double(let d):
            if let i = JSONValue.exactInt(d) { return .int(i) }
            return JSONBigInteger(exactly: d).map(ExactNumber.big) ?? .fraction(d)
        default:
            return nil
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

    /// The payload of `.integer`, else `nil` (also `nil` for `.double` and `.bigInteger`, even
    /// hand-built ones holding an `Int`-sized value). O(1).
    public var intValue: Int? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// The payload of `.bigInteger` (an integer outside `Int`'s range), else `nil`. O(1).
    public var bigIntegerValue: JSONBigInteger? {
        if case .bigInteger(let b) = self { return b }
        return nil
    }

    /// Any number as `Double`: `.double` as is; `.integer` and `.bigInteger` converted to the nearest
    /// `Double` (magnitudes above 2^53 round, so different big integers may give the same `Double`;
    /// compare the values themselves when exactness matters). `nil` for non-numbers.
    /// O(1), O(digits) for `.bigInteger`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .bigInteger(let b): return b.doubleValue
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

    /// The JSON type name, for error messages: `"null"`, `"boolean"`, `"number"` (`.integer`,
    /// `.bigInteger` and `.double`), `"string"`, `"array"` or `"object"`. O(1).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .bigInteger, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The value as an error message names it, in one short line: a number as written (an integer
    /// of more than 24 digits as its nearest double, e.g. `1e+300`), a string of up to 40 characters
    /// quoted as JSON, anything else by its type with an article (`a string`, `an array`, `null`,
    /// `a boolean`). O(1) for containers, O(length) for short strings and numbers.
    public var briefDescription: String {
        switch self {
        case .integer(let i): return String(i)
        case .double(let d): return "\(d)"
        case .bigInteger(let big):
            let text = big.description
            return text.utf8.count <= 24 ? text : "\(doubleValue ?? 0)"
        case .string(let text) where text.unicodeScalars.count <= 40: return serialized()
        case .null: return "null"
        case .array, .object: return "an \(typeName)"
        default: return "a \(typeName)"
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
