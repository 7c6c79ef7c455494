import DiffLabJSON

// Field types the updaters' and the trace bench's records need: a 64-bit seed written as a
// decimal string, a two-element array read as one value, and an array whose elements are all
// different.

extension FieldType where Value == UInt64 {
    /// An unsigned 64-bit integer written as a decimal string (a seed: it may exceed 2^53, which a
    /// JSON number does not hold exactly): ASCII digits only, no sign. At most 20 characters are
    /// read; anything else is out of range. O(1).
    public static var decimalUInt64: FieldType {
        let allowed = "a decimal integer from 0 to \(UInt64.max)"
        return FieldType(
            "a string holding \(allowed)",
            decode: { value, at throws(ResultsError) in
                let text = try FieldType<String>.string.decode(value, at)
                // Digits only: `UInt64("+5")` and `UInt64("-0")` parse, but no writer writes a sign.
                guard text.utf8.count <= 20, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = UInt64(text) else {
                    throw .outOfRange(source: at.source, path: at.named, value: value.briefDescription, allowed: allowed)
                }
                return number
            }, encode: { .string(String($0)) })
    }
}

extension FieldType {
    /// A JSON array of exactly two `element`s, `[first, second]`, read as one value by `make` and
    /// written back from `parts`; `names` names the two in words (`id, content`). A value that is
    /// not a two-element array is of the wrong type; an element's own error names its index
    /// (`items[3][1]`). O(1) plus the elements' cost.
    public static func pair<Element>(
        _ names: String, _ element: FieldType<Element>, make: @escaping @Sendable (Element, Element) -> Value,
        parts: @escaping @Sendable (Value) -> (Element, Element)
    ) -> FieldType {
        let expected = "an [\(names)] pair, each \(element.expected)"
        return FieldType(
            expected, records: element.records,
            decode: { value, at throws(ResultsError) in
                guard let array = value.arrayValue, array.count == 2 else {
                    throw .wrongType(source: at.source, path: at.named, expected: expected, found: value.briefDescription)
                }
                return make(try element.decode(array[0], at.element(0)), try element.decode(array[1], at.element(1)))
            },
            encode: { value in
                let (first, second) = parts(value)
                return .array([element.encode(first), element.encode(second)])
            })
    }

    /// An array like ``array(_:count:)`` whose elements are all different: an element equal to
    /// an earlier one is ``ResultsError/invalid(source:field:expected:)`` naming its index and
    /// saying `what` each element should be (`a property` → `a property not listed before`).
    /// - Complexity: O(length) times the element's cost.
    public static func distinct<Element: Hashable & Sendable>(
        _ element: FieldType<Element>, count: FieldRange<Int>? = nil, _ what: String
    ) -> FieldType
    where Value == [Element] {
        let array = FieldType.array(element, count: count)
        return FieldType(
            array.expected + ", no two equal", records: array.records,
            decode: { value, at throws(ResultsError) in
                let elements = try array.decode(value, at)
                var seen: Set<Element> = []
                for (index, element) in elements.enumerated() where !seen.insert(element).inserted {
                    throw .invalid(source: at.source, field: at.element(index).named, expected: "\(what) not listed before")
                }
                return elements
            }, encode: array.encode)
    }
}
