// DiffLab's one set of number, time and byte formatters, below every layer that writes text for
// people (the report, the gate's summary, the benchmark's messages, the command line, the process
// layer's messages). Nothing here depends on the locale, on Foundation or on the C library (pure
// Swift, so an iOS target links it): the same value always gives the same text, so reports
// and golden outputs are byte-stable. Bytes are written in binary units (KiB, MiB, GiB) everywhere;
// dates in UTC.

/// `10^k` as the nearest `Double` (parsed from `"1ek"`, so `exp10(-3)` is exactly the literal `0.001`).
///
/// Total: `k` above 308 gives `+infinity` and `k` below -323 gives `0`, as the decimal literal
/// would (so a loop comparing `exp10(k)` with a finite value always ends); `k` is clamped to
/// -400...400 first only to keep the text short.
/// - Complexity: O(1).
package func exp10(_ k: Int) -> Double {
    let clamped = Swift.min(400, Swift.max(-400, k))
    return Double("1e\(clamped)") ?? 1
}

/// The largest `k` with `10^k ≤ x` (as ``exp10(_:)`` gives `10^k`), exact at powers of ten;
/// `nil` for zero, negative or non-finite `x`.
///
/// Total for every positive finite `x`, subnormals and `Double.greatestFiniteMagnitude` included:
/// the result is in -324...308. The first guess is `x`'s binary exponent times log10(2) (no C
/// library `log10`), at most one decade off; each correction loop then runs at most a few steps
/// (it is also bounded, so no input can make it spin).
/// - Complexity: O(1).
package func decadeFloor(_ x: Double) -> Int? {
    guard x.isFinite, x > 0 else { return nil }
    // log10(x) lies in [e, e + 1) × log10(2) for x in [2^e, 2^(e+1)) (subnormals included: their
    // `exponent` is the true one, down to -1074).
    var k = Int((Double(x.exponent) * 0.301_029_995_663_981_2).rounded(.down))
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
public func formatFixed(_ x: Double, decimals: Int) -> String {
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
package func trimmingZeros(_ text: String) -> String {
    guard text.contains(".") else { return text }
    var text = Substring(text)
    while text.last == "0" { text = text.dropLast() }
    if text.last == "." { text = text.dropLast() }
    return String(text)
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
public func formatSignificant(_ x: Double, _ digits: Int = 3) -> String {
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

/// How an axis, a table or a message shows a number: plain, seconds, bytes or a count.
public enum NumberStyle: Sendable, Equatable {
    /// Plain significant digits: `0.5`, `12`, `1500`.
    case plain
    /// Seconds with a unit: `17.4 µs`, `1.64 ms`, `2.4 s`.
    case seconds
    /// Bytes in binary units (DiffLab's one byte convention, 1 KiB = 1,024 bytes): `512 B`,
    /// `9.77 KiB`, `287 MiB`, `1.5 GiB`; beyond GiB the number grows (`1e299 GiB` is not
    /// scaled further).
    case bytes
    /// Counts with k/M/G suffixes: `1k`, `100k`, `1.5M`, `999`.
    case count

    /// `value` in this style with three significant digits (``formatSignificant(_:_:)``), e.g.
    /// `NumberStyle.seconds.format(0.0017) == "1.7 ms"`, `NumberStyle.bytes.format(300_000_000) == "286 MiB"`,
    /// `NumberStyle.count.format(1500) == "1.5k"`.
    ///
    /// Total: a negative value takes the unit of its magnitude (`-2048` bytes is `-2 KiB`); zero is
    /// `0 s`, `0 B`, `0`; NaN prints as `nan` with the smallest unit (`nan ns`, `nan B`, `nan`) and
    /// an infinity as `inf`/`-inf` with the largest (`inf s`, `inf GiB`, `infG`); huge values keep
    /// the largest unit and switch to scientific notation from 10^15 on (`9.31e298 GiB`).
    /// - Complexity: O(1).
    public func format(_ value: Double) -> String {
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
            return withSuffix(value, [(1_073_741_824, " GiB"), (1_048_576, " MiB"), (1024, " KiB")], " B")
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
public func formatGrouped(_ n: Int) -> String {
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
public func formatGrouped(_ x: Double) -> String {
    guard x.isFinite, Swift.abs(x) < 9e15 else { return formatSignificant(x) }
    return formatGrouped(Int(x))
}

/// Seconds with a unit and three significant digits: ``NumberStyle/seconds``
/// (`formatSeconds(0.0000174) == "17.4 µs"`, `formatSeconds(2.4029) == "2.4 s"`, `formatSeconds(0) == "0 s"`).
/// - Complexity: O(1).
public func formatSeconds(_ seconds: Double) -> String { NumberStyle.seconds.format(seconds) }

/// `text` padded with spaces on the right to `width` characters (unchanged when as wide or
/// wider): the column of a plain-text table. - Complexity: O(width).
package func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// Bytes in binary units with three significant digits: ``NumberStyle/bytes``
/// (`formatBytes(300_000_000) == "286 MiB"`, `formatBytes(1024) == "1 KiB"`, `formatBytes(17) == "17 B"`).
/// - Complexity: O(1).
public func formatBytes(_ bytes: Double) -> String { NumberStyle.bytes.format(bytes) }

/// A count with k/M/G suffixes and three significant digits: ``NumberStyle/count``
/// (`formatCount(1500) == "1.5k"`, `formatCount(999) == "999"`).
/// - Complexity: O(1).
public func formatCount(_ count: Double) -> String { NumberStyle.count.format(count) }

/// A byte count exactly, in the largest binary unit it is a whole number of, for limits and sizes
/// a person typed or must type back: `formatByteCount(268_435_456) == "256 MiB"`,
/// `formatByteCount(1024) == "1 KiB"`, `formatByteCount(1000) == "1000 bytes"`,
/// `formatByteCount(1) == "1 byte"`, `formatByteCount(0) == "0 bytes"`.
///
/// Never rounds (see ``formatBytes(_:)`` for an approximate size). Total: a negative count is
/// written in bytes (`-5 bytes`), `Int.max` as its digits.
/// - Complexity: O(digits).
public func formatByteCount(_ count: Int) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where count >= 1 << shift && count % (1 << shift) == 0 {
        return "\(count >> shift) \(unit)"
    }
    return count == 1 ? "1 byte" : "\(count) bytes"
}

/// A number as people write it, exactly: an integral value as an integer (`formatPlain(3600) == "3600"`,
/// `formatPlain(1e6) == "1000000"`), any other as Swift's shortest round-trip form
/// (`formatPlain(0.001) == "0.001"`). For bounds and settings in messages, which must read back as
/// the same value.
///
/// Total: integral magnitudes from 10^15 on and non-finite values print as Swift's description
/// (`1000000000000000.0`, `1e+16`, `nan`, `inf`, `-inf`), never through a trapping `Int` conversion.
/// - Complexity: O(digits).
public func formatPlain(_ value: Double) -> String {
    if value == value.rounded(), Swift.abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}

/// A calendar date and time of day in UTC (proleptic Gregorian calendar), computed from Unix
/// seconds without Foundation or the C library's time zone state, so the result is deterministic.
public struct UTCDateTime: Sendable, Hashable {
    /// The year (astronomical: year 0 precedes year 1; negative before that).
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...31.
    public let day: Int
    /// 0...23.
    public let hour: Int
    /// 0...59.
    public let minute: Int
    /// 0...59 (Unix time has no leap seconds).
    public let second: Int

    /// The date and time `seconds` after 1970-01-01 00:00:00 UTC (before it for a negative value).
    ///
    /// Total for every `Int` (`Int.min` and `Int.max` give dates some 292 billion years away, not a
    /// trap).
    /// - Complexity: O(1).
    public init(unixSeconds seconds: Int) {
        // Floor division and a non-negative remainder, written so no step can overflow.
        let days = seconds >= 0 ? seconds / 86_400 : -((-(seconds + 1)) / 86_400) - 1
        let secondOfDay = seconds >= 0 ? seconds % 86_400 : (seconds % 86_400 + 86_400) % 86_400
        // Civil-from-days (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    /// `YYYY-MM-DD HH:MM:SS UTC`, e.g. `1969-12-30 23:59:59 UTC` for -86,401 seconds.
    public var text: String {
        "\(year)-\(Self.two(month))-\(Self.two(day)) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second)) UTC"
    }

    /// `YYYYMMDD-HHMMSS`, for file names, e.g. `20261204-031317`.
    public var fileStamp: String {
        "\(year)\(Self.two(month))\(Self.two(day))-\(Self.two(hour))\(Self.two(minute))\(Self.two(second))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// `seconds` since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC` (``UTCDateTime/text``), e.g.
/// `utcDateTime(0) == "1970-01-01 00:00:00 UTC"`.
///
/// Total for every `Int` (results files keep `createdAt` within DiffLabResults' `FieldRange.unixTime`).
/// - Complexity: O(1).
public func utcDateTime(_ seconds: Int) -> String { UTCDateTime(unixSeconds: seconds).text }

/// `seconds` since the Unix epoch as `YYYYMMDD-HHMMSS` in UTC (``UTCDateTime/fileStamp``), for
/// file names: `utcFileStamp(0) == "19700101-000000"`.
/// - Complexity: O(1).
public func utcFileStamp(_ seconds: Int) -> String { UTCDateTime(unixSeconds: seconds).fileStamp }
