/// A JSON object: unique string keys mapped to ``JSONValue``s.
///
/// - **Order:** keys remember insertion order; iteration, ``keys`` and serialisation use it.
/// - **Equality / hashing ignore order:** `{"a":1,"b":2} == {"b":2,"a":1}`.
/// - **Lookup:** objects with at most 16 members are searched linearly (cheap and allocation-free);
///   larger objects keep a hash index, giving average O(1) lookup, insertion and replacement.
///   Removal is O(count) because later members shift down.
/// - Keys are compared **literally**, code point for code point (their UTF-8 bytes), like string
///   values (see ``JSONValue``): `"\u00e9"` (precomposed é) and `"e\u0301"` (decomposed) are two
///   different keys, although Swift's `String ==` calls them equal. Lookups by a `String` key use the
///   same rule.
public struct JSONObject: Sendable {
    /// Members in insertion order; keys are unique.
    private var entries: [(key: String, value: JSONValue)]
    /// Key → position in `entries`; present only when `entries.count > JSONObject.indexThreshold`.
    private var index: [LiteralKey: Int]?

    /// Objects larger than this keep a hash index.
    private static let indexThreshold = 16

    /// Creates an empty object. O(1), no allocation.
    public init() {
        entries = []
        index = nil
    }

    /// Creates an object from key/value pairs in order.
    ///
    /// A key that occurs more than once keeps the position of its **first** occurrence and the value of
    /// its **last** occurrence. Average O(n).
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        entries.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// The keys in insertion order. O(count).
    public var keys: [String] {
        entries.map(\.key)
    }

    /// The number of members. O(1).
    public var count: Int {
        entries.count
    }

    /// Gets, replaces, appends or removes the member named `key`.
    ///
    /// - get: the value, or `nil` if absent.
    /// - set non-nil: replaces the value in place if the key exists (position unchanged), otherwise
    ///   appends the member at the end.
    /// - set `nil`: removes the member if present (O(count)); otherwise does nothing.
    ///
    /// Complexity: average O(1) for objects above 16 members, O(count) otherwise; removal O(count).
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return entries[position].value
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    entries[position].value = newValue
                } else {
                    appendUnchecked(key: key, value: newValue)
                }
            } else if let position = position(of: key) {
                entries.remove(at: position)
                rebuildIndex()
            }
        }
    }

    // MARK: Internal helpers (used by the parser)

    /// Whether `key` is present. Average O(1) when indexed, else O(count).
    func containsKey(_ key: String) -> Bool {
        position(of: key) != nil
    }

    /// Appends a member whose key the caller guarantees is absent. Amortised O(1).
    mutating func appendUnchecked(key: String, value: JSONValue) {
        entries.append((key: key, value: value))
        if index != nil {
            index?[LiteralKey(string: key)] = entries.count - 1
        } else if entries.count > JSONObject.indexThreshold {
            rebuildIndex()
        }
    }

    private func position(of key: String) -> Int? {
        if let index {
            return index[LiteralKey(string: key)]
        }
        for position in entries.indices where LiteralString.equal(entries[position].key, key) {
            return position
        }
        return nil
    }

    private mutating func rebuildIndex() {
        guard entries.count > JSONObject.indexThreshold else {
            index = nil
            return
        }
        var newIndex = [LiteralKey: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() {
            newIndex[LiteralKey(string: entry.key)] = position
        }
        index = newIndex
    }
}

// MARK: - Sequence

extension JSONObject: Sequence {
    /// Iterates `(key:value:)` pairs in insertion order.
    public struct Iterator: IteratorProtocol {
        private var base: IndexingIterator<[(key: String, value: JSONValue)]>

        fileprivate init(_ entries: [(key: String, value: JSONValue)]) {
            base = entries.makeIterator()
        }

        /// The next member in insertion order, or `nil` at the end. O(1).
        public mutating func next() -> (key: String, value: JSONValue)? {
            base.next()
        }
    }

    /// Returns an iterator over the members in insertion order. O(1).
    public func makeIterator() -> Iterator {
        Iterator(entries)
    }

    /// Equal to ``count``. O(1).
    public var underestimatedCount: Int {
        entries.count
    }
}

// MARK: - Equatable & Hashable (order-insensitive)

extension JSONObject: Hashable {
    /// `true` when both objects have the same key set (keys compared literally) and equal values per
    /// key; order is ignored.
    /// Complexity: average O(count) (O(count²) only for objects of ≤ 16 members, i.e. bounded).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.entries {
            guard let position = rhs.position(of: key), rhs.entries[position].value == value else {
                return false
            }
        }
        return true
    }

    /// Order-insensitive hash (a commutative sum of per-member hashes), consistent with `==`.
    /// Complexity: O(size of the object).
    public func hash(into hasher: inout Hasher) {
        var sum: UInt = 0
        for (key, value) in entries {
            var memberHasher = Hasher()
            LiteralString.hash(key, into: &memberHasher)
            memberHasher.combine(value)
            sum &+= UInt(bitPattern: memberHasher.finalize())
        }
        hasher.combine(entries.count)
        hasher.combine(sum)
    }
}

// MARK: - Literals & description

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Builds an object in literal order. A repeated key does not trap (unlike `Dictionary`): the later
    /// value replaces the earlier one at the first position.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON serialisation of the object, keys in insertion order.
    public var description: String {
        JSONValue.object(self).serialized()
    }
}
