#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Deterministic number formatting for SVG coordinates, axis labels and markdown tables.
// Nothing here depends on the locale or on Foundation: the same value always gives the same text.

/// `10^k` as the nearest `Double` (parsed from `"1ek"`, so `exp10(-3)` is exactly the literal `0.001`).
///
/// Total: `k` above 308 gives `+infinity` and `k` below -323 gives `0`, as the decimal literal
/// would (so a loop comparing `exp10(k)` with a finite value always ends); `k` is clamped to
/// -400...400 first only to keep the text short.
/// - Complexity: O(1).
func exp10(_ k: Int) -> Double {
    let clamped = Swift.min(400, Swift.max(-400, k))
    return Double("1e\(clamped)") ?? 1
}

/// The largest `k` with `10^k ≤ x`, exact at powers of ten (corrects `log10` rounding);
/// `nil` for zero, negative or non-finite `x`.
///
/// Total for every positive finite `x`, subnormals and `Double.greatestFiniteMagnitude` included:
/// the result is in -324...308 and each correction loop runs at most a few steps (it is also
/// bounded, so no input can make it spin).
/// - Complexity: O(1).
func decadeFloor(_ x: Double) -> Int? {
    guard x.isFinite, x > 0 else { return nil }
    var k = Int(log10(x).rounded(.down))
    while k > -400 && exp10(k) > x { k -= 1 }
    while k < 400 && exp10(k + 1) <= x { k += 1 }
    return k
}

/// `x` with exactly `decimals` digits after the point (half away from zero), e.g.
/// `formatFixed(1.005, decimals: 1) == "1.0"`, `formatFixed(-0.001, decimals: 2) == "0.00"`.
///
/// Never prints `-0`. Non-finite values print as `"nan"`, `"inf"` or `"-inf"`; magnitudes too large
/// for exact integer scaling (about 9e15 after scaling) fall back to Swift's shortest round-trip
/// description, which is also deterministic.
/// - Complexity: O(digits).
package func formatFixed(_ x: Double, decimals: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    let decimals = Swift.max(0, Swift.min(15, decimals))
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (Swift.abs(x) * Double(scale)).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9e15 else { return String(x) }
    let n = Int(scaled)
    let sign = x < 0 && n != 0 ? "-" : ""
    let whole = String(n / scale)
    guard decimals > 0 else { return sign + whole }
    let fraction = String(n % scale)
    return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// Removes trailing zeros after a decimal point, and the point itself if nothing follows:
/// `"1.50" → "1.5"`, `"2.00" → "2"`, `"100" → "100"`.
func trimmingZeros(_ text: String) -> String {
    guard text.contains(".") else { return text }
    var text = Substring(text)
    while text.last == "0" { text = text.dropLast() }
    if text.last == "." { text = text.dropLast() }
    return String(text)
}

/// A coordinate or length for SVG markup: at most two decimals, trailing zeros dropped
/// (`12.5`, `3`, `-0.25`); non-finite values become `0` so the markup stays valid.
/// - Complexity: O(1).
package func svgNumber(_ x: Double) -> String {
    guard x.isFinite else { return "0" }
    return trimmingZeros(formatFixed(x, decimals: 2))
}

/// `x` rounded to `digits` significant digits (1...17; others are clamped), trailing zeros dropped:
/// `formatSignificant(1234.5, 3) == "1235"` (integer parts are never rounded away),
/// `formatSignificant(0.012345, 3) == "0.0123"`, `formatSignificant(0, 3) == "0"`.
///
/// Magnitudes of 10^15 and above, and magnitudes so small that `digits` significant digits would
/// need more than 15 decimals, are written in scientific notation with `digits` significant digits:
/// `formatSignificant(1.7976931348623157e308) == "1.8e308"`, `formatSignificant(1e-320) == "1e-320"`,
/// so no finite value prints as a misleading `0` or as a 300-digit integer. Non-finite values print
/// as `nan`, `inf`, `-inf`.
/// - Complexity: O(digits).
package func formatSignificant(_ x: Double, _ digits: Int = 3) -> String {
    guard x.isFinite else { return formatFixed(x, decimals: 0) }
    guard x != 0, let exponent = decadeFloor(Swift.abs(x)) else { return "0" }
    let digits = Swift.max(1, Swift.min(17, digits))
    let decimals = Swift.max(0, digits - 1 - exponent)
    guard exponent >= 15 || decimals > 15 else { return trimmingZeros(formatFixed(x, decimals: decimals)) }
    // Scientific: x = mantissa × 10^exponent with 1 ≤ |mantissa| < 10. Subnormals are scaled up
    // first, so the power of ten divided by stays a normal number.
    var mantissa = exponent < -290 ? (x * 1e300) / exp10(exponent + 300) : x / exp10(exponent)
    var power = exponent
    var text = trimmingZeros(formatFixed(mantissa, decimals: digits - 1))
    if text.hasPrefix("10") || text.hasPrefix("-10") {
        // Rounding carried into a new digit (9.996 → 10.0).
        mantissa /= 10
        power += 1
        text = trimmingZeros(formatFixed(mantissa, decimals: digits - 1))
    }
    return text + "e\(power)"
}

/// How an axis or table shows a number.
package enum NumberStyle: Sendable, Equatable {
    /// Plain significant digits: `0.5`, `12`, `1500`.
    case plain
    /// Seconds with a unit: `17.4 µs`, `1.64 ms`, `2.4 s`.
    case seconds
    /// Bytes with decimal (SI) units, matching powers-of-ten axes: `10 kB`, `287 MB`.
    case bytes
    /// Counts with k/M/G suffixes: `1k`, `100k`, `1.5M`, `999`.
    case count

    /// `value` in this style with three significant digits.
    /// - Complexity: O(1).
    package func format(_ value: Double) -> String {
        switch self {
        case .plain:
            return formatSignificant(value)
        case .seconds:
            let magnitude = Swift.abs(value)
            if magnitude == 0 { return "0 s" }
            if magnitude >= 1 { return formatSignificant(value) + " s" }
            if magnitude >= 1e-3 { return formatSignificant(value * 1e3) + " ms" }
            if magnitude >= 1e-6 { return formatSignificant(value * 1e6) + " µs" }
            return formatSignificant(value * 1e9) + " ns"
        case .bytes:
            return withSuffix(value, [(1e9, " GB"), (1e6, " MB"), (1e3, " kB")], " B")
        case .count:
            return withSuffix(value, [(1e9, "G"), (1e6, "M"), (1e3, "k")], "")
        }
    }

    private func withSuffix(_ value: Double, _ units: [(Double, String)], _ base: String) -> String {
        for (scale, suffix) in units where Swift.abs(value) >= scale {
            return formatSignificant(value / scale) + suffix
        }
        return formatSignificant(value) + base
    }
}

/// An integer with thousands separated by commas: `1234567 → "1,234,567"`, `-1000 → "-1,000"`.
/// - Complexity: O(digits).
package func formatGrouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return (n < 0 ? "-" : "") + out
}

/// A count held as a `Double` with thousands separated, e.g. `1234567.0 → "1,234,567"` (the
/// fraction is cut off). Total: magnitudes beyond 9e15 (where a `Double` no longer holds every
/// integer) and non-finite values fall back to ``formatSignificant(_:_:)``, never to a trapping
/// `Int` conversion.
/// - Complexity: O(digits).
package func formatGrouped(_ x: Double) -> String {
    guard x.isFinite, Swift.abs(x) < 9e15 else { return formatSignificant(x) }
    return formatGrouped(Int(x))
}
