/// How strings are compared: code point for code point, or up to Unicode canonical equivalence.
///
/// `"\u00e9"` (é, one code point) and `"e\u0301"` (e + combining acute accent, two code points) look
/// the same but are different code point sequences.
/// - ``literal``: they are different strings. This is what ``JSONValue`` and ``JSONObject`` do
///   (RFC 8259 §8.3 compares strings by code units), what a server's identifiers mean, and what
///   IGListKit does (`-[NSString isEqual:]` compares UTF-16 code units literally).
/// - ``canonical``: they are the same string. This is Swift's `String ==`.
public enum JSONStringComparison: String, Sendable, CaseIterable {
    /// Equal when the Unicode scalar sequences are identical (equivalently, the UTF-8 bytes).
    case literal
    /// Equal when Unicode canonically equivalent (Swift's `String ==` and `String.hash(into:)`).
    case canonical
}

/// Literal (code point for code point) equality and hashing of Swift strings.
///
/// Swift's own `String ==` uses canonical equivalence; these compare and hash the UTF-8 bytes.
enum LiteralString {
    /// Whether `a` and `b` have identical UTF-8 bytes. O(min length); O(1) when lengths differ.
    @inline(__always)
    static func equal(_ a: String, _ b: String) -> Bool {
        let left = a.utf8
        let right = b.utf8
        guard left.count == right.count else { return false }
        let contiguous = left.withContiguousStorageIfAvailable { l in
            right.withContiguousStorageIfAvailable { r in l.elementsEqual(r) }
        }
        if let result = contiguous ?? nil { return result }
        return left.elementsEqual(right)
    }

    /// Feeds the UTF-8 bytes and a terminator to `hasher` (the terminator keeps `["ab","c"]` and
    /// `["a","bc"]` apart in composite hashes). O(length).
    @inline(__always)
    static func hash(_ s: String, into hasher: inout Hasher) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil {
            for byte in s.utf8 { hasher.combine(byte) }
        }
        hasher.combine(0xFF as UInt8)  // never a UTF-8 byte
    }
}

/// A `String` wrapper with literal equality and hashing, for dictionary keys.
struct LiteralKey: Hashable {
    let string: String

    static func == (lhs: LiteralKey, rhs: LiteralKey) -> Bool {
        LiteralString.equal(lhs.string, rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        LiteralString.hash(string, into: &hasher)
    }
}

/// Rewrites JSON values so that literal comparison behaves like canonical-equivalence comparison.
///
/// Every string (values and object keys) is replaced by the **representative** of its canonical
/// equivalence class: the first spelling this canonicaliser saw. After two values went through the
/// same canonicaliser, `==` (literal) on the results is canonical-equivalence equality on the
/// originals, and hashing stays consistent with it — without a Unicode normaliser. Numbers, booleans,
/// null and structure are unchanged; output therefore shows the first-seen spelling of each string.
///
/// Cost: one `Set<String>` lookup per string (Swift's canonical hash, O(length)); memory for one
/// reference per distinct string (storage is shared with the values). Recursion depth is the nesting
/// depth of the value (at most 512 for parsed values).
public struct JSONStringCanonicalizer: Sendable {
    private var representatives: Set<String> = []

    /// A canonicaliser that has seen no strings yet.
    public init() {}

    /// The first-seen spelling canonically equivalent to `string`, or `string` itself (which becomes
    /// the representative) if none was seen. Average O(length of `string`).
    public mutating func representative(of string: String) -> String {
        representatives.insert(string).memberAfterInsert
    }

    /// `value` with every string and object key replaced by its ``representative(of:)``.
    ///
    /// - Throws: ``JSONCanonicalKeyCollision`` when one object has two keys that are different
    ///   literally but canonically equivalent: under canonical comparison they would be duplicate keys.
    /// - Complexity: O(size of `value`).
    public mutating func canonicalize(_ value: JSONValue) throws(JSONCanonicalKeyCollision) -> JSONValue {
        switch value {
        case .string(let s):
            return .string(representative(of: s))
        case .array(let elements):
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                result.append(try canonicalize(element))
            }
            return .array(result)
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object {
                let canonicalKey = representative(of: key)
                if result.containsKey(canonicalKey) {
                    let earlier = object.keys.first { $0 == key && !LiteralString.equal($0, key) } ?? canonicalKey
                    throw JSONCanonicalKeyCollision(first: earlier, second: key)
                }
                result.appendUnchecked(key: canonicalKey, value: try canonicalize(member))
            }
            return .object(result)
        case .null, .bool, .integer, .bigInteger, .double:
            return value
        }
    }
}

/// Two keys of one object that differ literally but are canonically equivalent (see
/// ``JSONStringCanonicalizer/canonicalize(_:)``).
public struct JSONCanonicalKeyCollision: Error, Sendable, Equatable, CustomStringConvertible {
    /// The earlier key, as written.
    public var first: String
    /// The later key, as written.
    public var second: String

    /// A collision between keys `first` and `second`.
    public init(first: String, second: String) {
        self.first = first
        self.second = second
    }

    /// E.g. `keys "\u00E9" and "e\u0301" of one object are canonically equivalent`; non-ASCII
    /// characters are shown as `\u` escapes so the difference is visible.
    public var description: String {
        "keys \(JSONWriter.asciiQuoted(first)) and \(JSONWriter.asciiQuoted(second)) of one object are canonically equivalent"
    }

    /// Literal comparison, so two collisions are equal only when spelled identically.
    public static func == (lhs: JSONCanonicalKeyCollision, rhs: JSONCanonicalKeyCollision) -> Bool {
        LiteralString.equal(lhs.first, rhs.first) && LiteralString.equal(lhs.second, rhs.second)
    }
}

extension String {
    /// The most non-starters (scalars of nonzero canonical combining class) in a row that
    /// Unicode's Stream-Safe Text Format allows (UAX #15, section 13).
    public static let maxConsecutiveNonStarters = 30

    /// Whether the string keeps to the Stream-Safe Text Format: no run of more than
    /// ``maxConsecutiveNonStarters`` non-starters. Canonical comparison (Swift's `String ==` and
    /// hashing) reorders such runs and takes time quadratic in their length, so code that compares
    /// strings from a hostile file canonically checks this first. O(length).
    public var isStreamSafe: Bool {
        var run = 0
        for scalar in unicodeScalars {
            if scalar.properties.canonicalCombiningClass.rawValue == 0 {
                run = 0
            } else {
                run += 1
                if run > Self.maxConsecutiveNonStarters { return false }
            }
        }
        return true
    }
}

extension JSONValue {
    /// The first string or object key in the value that is not stream-safe (see
    /// `String.isStreamSafe`), or `nil`. O(size of the value).
    public var firstNonStreamSafeString: String? {
        switch self {
        case .string(let s): return s.isStreamSafe ? nil : s
        case .array(let elements):
            for element in elements { if let found = element.firstNonStreamSafeString { return found } }
            return nil
        case .object(let object):
            for (key, member) in object {
                if !key.isStreamSafe { return key }
                if let found = member.firstNonStreamSafeString { return found }
            }
            return nil
        case .null, .bool, .integer, .bigInteger, .double:
            return nil
        }
    }
}
