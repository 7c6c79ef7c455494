/// An integer of any size, kept exactly as canonical decimal text.
///
/// JSON puts no limit on integer size, but `Int` holds 64 bits and a `Double` only 53 bits of
/// precision, so `18446744073709551615` and `18446744073709551614` would collapse into one value.
/// ``JSONValue/bigInteger(_:)`` keeps such integers exactly instead.
///
/// - **Canonical form** (``decimal``): an optional `-`, then decimal digits without leading zeros;
///   zero is `"0"`, never `"-0"`. Every initialiser produces it, so two values are equal exactly when
///   their integers are equal, and equality and hashing are a comparison of short ASCII strings.
/// - **Any size:** the type itself has no limit. The parser only produces integers whose magnitude
///   rounds to a finite `Double` (at most 309 digits), like every other JSON number; see
///   ``JSONValue/parse(_:)``.
/// - Cost: memory and the time of `==`, `hash(into:)` and ``doubleValue`` are O(number of digits).
public struct JSONBigInteger: Hashable, Sendable, CustomStringConvertible {
    /// The canonical decimal text, e.g. `"18446744073709551615"` or `"-170141183460469231731687303715884105728"`.
    public let decimal: String

    /// Wraps text the caller guarantees is canonical (`-`? then digits, no leading zero, not `-0`).
    init(canonical decimal: String) {
        self.decimal = decimal
    }

    /// Parses decimal integer text: an optional `-`, then one or more ASCII digits (nothing else, no
    /// `+`, no spaces). Leading zeros are allowed and dropped; `-0` becomes `0`.
    ///
    /// Returns `nil` when `text` is not of that form. Complexity: O(length of `text`).
    public init?(_ text: some StringProtocol) {
        var utf8 = Substring(text).utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        let digits = utf8.drop { $0 == UInt8(ascii: "0") }
        if digits.isEmpty {
            decimal = "0"
        } else {
            decimal = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
        }
    }

    /// The integer `value`. O(1) (at most 20 characters).
    public init(_ value: Int) {
        decimal = String(value)
    }

    /// The exact integer value of `double`, or `nil` if it is not finite or not integral.
    ///
    /// Every finite `Double` of magnitude 2^53 or more is an integer; its exact decimal expansion is
    /// computed here (e.g. `1e23` is `99999999999999991611392`), up to 309 digits for
    /// `Double.greatestFiniteMagnitude`. `-0.0` gives `0`. Complexity: O(1), bounded by the
    /// 309-digit expansion (a few thousand machine operations at most).
    public init?(exactly double: Double) {
        if let small = JSONValue.exactInt(double) {
            decimal = String(small)
            return
        }
        // Below 2^63 every integral double fits `Int`, so what is left is either not integral,
        // not finite, or at least 2^63 in magnitude (hence integral).
        guard double.isFinite, double.magnitude >= 0x1p63 else { return nil }
        // magnitude = significand * 2^shift with a 53-bit integer significand; shift >= 11 here.
        let significand = (1 << 52) | double.significandBitPattern
        var shift = Int(double.exponent) - 52
        // Little-endian base-10^9 limbs.
        let base: UInt64 = 1_000_000_000
        var limbs: [UInt64] = [significand % base, (significand / base) % base, significand / (base * base)]
        while shift > 0 {
            let step = min(shift, 32)
            shift -= step
            var carry: UInt64 = 0
            for i in limbs.indices {
                // limb < 10^9 < 2^30, so limb << 32 + carry < 2^63: no overflow.
                let product = limbs[i] << UInt64(step) + carry
                limbs[i] = product % base
                carry = product / base
            }
            while carry > 0 {
                limbs.append(carry % base)
                carry /= base
            }
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var text = double < 0 ? "-" : ""
        text += String(limbs[limbs.count - 1])
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb)
            text += String(repeating: "0", count: 9 - digits.utf8.count) + digits
        }
        decimal = text
    }

    /// Whether the integer is below zero. O(1).
    public var isNegative: Bool {
        decimal.utf8.first == UInt8(ascii: "-")
    }

    /// The value as an `Int`, or `nil` if it does not fit. O(1) (only texts of at most 20 characters
    /// are converted).
    public var intValue: Int? {
        decimal.utf8.count <= 20 ? Int(decimal) : nil
    }

    /// The nearest `Double` (correctly rounded, ties to even): precision is lost above 2^53, e.g.
    /// `18446744073709551615` and `18446744073709551614` both give `18446744073709551616.0`.
    /// Magnitudes beyond `Double.greatestFiniteMagnitude` give ±infinity (never for parsed values).
    /// Complexity: O(number of digits).
    public var doubleValue: Double {
        Double(decimal) ?? (isNegative ? -.infinity : .infinity)
    }

    /// The canonical decimal text, ``decimal``.
    public var description: String {
        decimal
    }
}
