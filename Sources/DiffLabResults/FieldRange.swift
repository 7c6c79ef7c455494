import DiffLabFormatting

/// A documented range of a numeric field in a results file, with how errors describe it.
///
/// Results files are data from outside (hand-edited, truncated, written by another version), so
/// every number a report reads is checked against its field's range: a value outside is a
/// ``ResultsError/outOfRange(source:path:value:allowed:)`` naming the file, the field and the
/// range — `difflab report` then exits 65, the gate 1 — rather than a plot that traps, loops or lies. (The
/// JSON parser already refuses numbers beyond `Double`'s range, so every value here is finite.)
/// The plotting code is total on its own as a second line of defence.
public struct FieldRange<Bound: Comparable & Sendable>: Sendable {
    /// The values allowed.
    public let range: ClosedRange<Bound>
    /// The range in words, e.g. `0 to 86,400 (seconds)`.
    public let text: String

    /// A range and its description for error messages, for a range better said in words
    /// (`at most 8 updaters`); a numeric range is better built with `init(_:unit:)`, whose text
    /// is derived from the bounds.
    public init(_ range: ClosedRange<Bound>, _ text: String) {
        self.range = range
        self.text = text
    }
}

extension FieldRange where Bound == Int {
    /// `range`, described by its bounds with thousands separated and `unit` in parentheses:
    /// `FieldRange(1...64, unit: "threads").text == "1 to 64 (threads)"`. O(digits).
    public init(_ range: ClosedRange<Int>, unit: String? = nil) {
        self.init(range, describe(formatGrouped(range.lowerBound), formatGrouped(range.upperBound), unit))
    }
}

extension FieldRange where Bound == Double {
    /// `range`, described by its bounds (whole numbers with thousands separated, others in
    /// Swift's shortest form) and `unit` in parentheses:
    /// `FieldRange(0...86_400, unit: "seconds").text == "0 to 86,400 (seconds)"`. O(digits).
    public init(_ range: ClosedRange<Double>, unit: String? = nil) {
        self.init(range, describe(bound(range.lowerBound), bound(range.upperBound), unit))
    }
}

/// A bound as text: grouped when whole, else Swift's shortest form.
private func bound(_ value: Double) -> String {
    // Every whole bound here is below 2^63, so the conversion cannot trap.
    guard value == value.rounded(), value.magnitude < 9.2e18 else { return "\(value)" }
    return formatGrouped(Int(value))
}

/// `low to high (unit)`.
private func describe(_ low: String, _ high: String, _ unit: String?) -> String { "\(low) to \(high)" + (unit.map { " (\($0))" } ?? "") }

extension FieldRange where Bound == Double {
    /// Seconds of one call or update (medians, percentiles, samples, latencies): 0 to one day.
    public static var seconds: FieldRange { FieldRange(0...86_400, unit: "seconds") }
    /// Wall-clock seconds of a whole run: 0 to 10^7 (about 4 months).
    public static var runSeconds: FieldRange { FieldRange(0...1e7, unit: "seconds") }
    /// Byte and allocation counts stored as numbers: 0 to 2^53, the largest range in which a
    /// `Double` holds every integer.
    public static var amount: FieldRange { FieldRange(0...9_007_199_254_740_992, unit: "2^53") }
    /// Ratios of two medians (speed-up over stdlib, ratio to the hash floor): 0 to 10^9.
    public static var ratio: FieldRange { FieldRange(0...1e9) }
    /// Fitted growth exponents (time ∝ size^e): -100 to 100.
    public static var exponent: FieldRange { FieldRange(-100...100) }
    /// Hitch time ratio, milliseconds over budget per second of running: 0 to 1,000 (more would
    /// be over budget for longer than the run lasted).
    public static var hitchRatio: FieldRange { FieldRange(0...1000, unit: "ms per second") }
    /// CPU utilisation as a fraction of one core: 0 to 1,024 cores.
    public static var utilisation: FieldRange { FieldRange(0...1024, unit: "fraction of one core") }
    /// Probabilities and significance levels (p-values, alpha): 0 to 1.
    public static var probability: FieldRange { FieldRange(0...1) }
    /// Relative thresholds (0.05 is 5%): 0 to 10.
    public static var relative: FieldRange { FieldRange(0...10) }
    /// Display refresh rates: 0 to 1,000 Hz.
    public static var frameRate: FieldRange { FieldRange(0...1000, unit: "Hz") }
}

extension FieldRange where Bound == Int {
    /// List sizes (`size`, `listSize`): 0 to 10^9 items.
    public static var size: FieldRange { FieldRange(0...1_000_000_000, unit: "items") }
    /// Event counts (changes, moves, frames, updates): 0 to 2^53.
    public static var count: FieldRange { FieldRange(0...(1 << 53), unit: "2^53") }
    /// Calls timed together as one sample: 1 to 10^9.
    public static var callsPerSample: FieldRange { FieldRange(1...1_000_000_000) }
    /// Threads an engine ran on: 1 to 64.
    public static var threads: FieldRange { FieldRange(1...64, unit: "threads") }
    /// Shard numbers and counts of a sharded run: 1 to 64.
    public static var shards: FieldRange { FieldRange(1...64) }
    /// Process exit statuses: 0 to 255.
    public static var exitStatus: FieldRange { FieldRange(0...255) }
    /// `createdAt`, Unix seconds: 1970-01-01 to 9999-12-31.
    public static var unixTime: FieldRange { FieldRange(0...253_402_300_799, unit: "1970 to 9999, Unix seconds") }
}
