#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A linear or base-10 logarithmic axis scale.
public enum ScaleKind: Sendable, Equatable {
    /// Equal distances for equal differences.
    case linear
    /// Equal distances for equal ratios; only positive values can be shown.
    case log10
}

/// Tick positions for one axis, and the domain they were chosen for.
public struct TickSet: Sendable, Equatable {
    /// The axis domain in data units, widened so it starts and ends on "nice" values.
    public var lower: Double
    /// The upper end of the domain (always greater than ``lower``).
    public var upper: Double
    /// Labelled ticks, ascending, all inside `lower...upper`.
    public var major: [Double]
    /// Unlabelled ticks (log axes only: 2…9 × 10^k, or skipped decades), ascending.
    public var minor: [Double]
}

/// Picks "nice" linear ticks (1, 2 or 5 × 10^k apart) covering `lower...upper`.
///
/// The domain is widened to the nearest multiples of the step, so both ends are ticks. About
/// `target` intervals result (between roughly `target/2` and `2 × target`).
///
/// Edge cases (never traps): the bounds may come in either order; equal bounds are widened by half
/// their magnitude each way (or to -1…1 around zero); non-finite bounds give `0...1`.
/// - Complexity: O(number of ticks).
public func linearTicks(_ lower: Double, _ upper: Double, target: Int = 5) -> TickSet {
    guard lower.isFinite, upper.isFinite else { return TickSet(lower: 0, upper: 1, major: [0, 0.2, 0.4, 0.6, 0.8, 1], minor: []) }
    var lo = Swift.min(lower, upper)
    var hi = Swift.max(lower, upper)
    if lo == hi {
        let pad = lo == 0 ? 1 : Swift.abs(lo) / 2
        lo -= pad
        hi += pad
    }
    let rough = (hi - lo) / Double(Swift.max(1, target))
    guard let exponent = decadeFloor(rough) else { return TickSet(lower: lo, upper: hi, major: [lo, hi], minor: []) }
    let fraction = rough / exp10(exponent)
    let multiple = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
    let step = Double(multiple) * exp10(exponent)
    // value(i) = i × step, computed from integers so 3 × 0.1 prints as 0.3.
    func value(_ i: Int) -> Double {
        exponent < 0 ? Double(i * multiple) / exp10(-exponent) : Double(i * multiple) * exp10(exponent)
    }
    let first = Int((lo / step).rounded(.down))
    let last = Int((hi / step).rounded(.up))
    guard last - first <= 1000 else { return TickSet(lower: lo, upper: hi, major: [lo, hi], minor: []) }
    let major = (first...last).map(value)
    return TickSet(lower: major.first ?? lo, upper: major.last ?? hi, major: major, minor: [])
}

/// Picks ticks for a base-10 log axis covering `lower...upper` (both must be positive).
///
/// - Data spanning more than one decade: the domain is widened to whole decades; major ticks sit
///   on powers of ten, every decade when there are at most `maxMajor`, else every 2nd, 3rd, …
///   decade; minor ticks are at 2…9 × 10^k (when every decade is labelled) or at the unlabelled
///   decades.
/// - Data within one decade: the domain is widened to the 1-2-5 sequence (e.g. 2…5 for 2.3…4.1),
///   and those values are the major ticks, so a narrow range still gets at least two labels.
///
/// Edge cases (never traps): bounds in either order; equal bounds get the decade around them;
/// a non-positive or non-finite bound gives `1...10`.
/// - Complexity: O(number of decades).
public func logTicks(_ lower: Double, _ upper: Double, maxMajor: Int = 7) -> TickSet {
    let lo = Swift.min(lower, upper)
    let hi = Swift.max(lower, upper)
    guard let a = decadeFloor(lo), let top = decadeFloor(hi) else {
        return TickSet(lower: 1, upper: 10, major: [1, 10], minor: [2, 3, 4, 5, 6, 7, 8, 9])
    }
    let b = exp10(top) == hi ? top : top + 1
    if b - a <= 1 {
        // One decade: 1-2-5 steps inside [10^a, 10^(a+1)].
        let candidates = [1.0, 2, 5, 10].map { $0 * exp10(a) }
        let start = candidates.last { $0 <= lo } ?? candidates[0]
        let end = candidates.first { $0 >= hi && $0 > start } ?? candidates[3]
        let major = candidates.filter { $0 >= start && $0 <= end }
        let minor = (2...9).map { Double($0) * exp10(a) }.filter { $0 > start && $0 < end && !major.contains($0) }
        return TickSet(lower: start, upper: end, major: major, minor: minor)
    }
    let decades = b - a
    let step = Swift.max(1, (decades + Swift.max(1, maxMajor - 1) - 1) / Swift.max(1, maxMajor - 1))
    var major: [Double] = []
    var minor: [Double] = []
    for k in a...b {
        if (k - a) % step == 0 {
            major.append(exp10(k))
        } else {
            minor.append(exp10(k))
        }
        if step == 1 && k < b {
            minor.append(contentsOf: (2...9).map { Double($0) * exp10(k) })
        }
    }
    return TickSet(lower: exp10(a), upper: exp10(b), major: major, minor: minor.sorted())
}

/// Ticks for `kind` over the data bounds; see ``linearTicks(_:_:target:)`` and ``logTicks(_:_:maxMajor:)``.
public func ticks(_ kind: ScaleKind, _ lower: Double, _ upper: Double) -> TickSet {
    switch kind {
    case .linear: return linearTicks(lower, upper)
    case .log10: return logTicks(lower, upper)
    }
}
