import DiffLabFormatting
import DiffLabPlatform

/// A linear or base-10 logarithmic axis scale.
package enum ScaleKind: Sendable, Equatable {
    /// Equal distances for equal differences.
    case linear
    /// Equal distances for equal ratios; only positive values can be shown.
    case log10
}

/// Tick positions for one axis, and the domain they were chosen for.
package struct TickSet: Sendable, Equatable {
    /// The axis domain in data units, widened so it starts and ends on "nice" values.
    package var lower: Double
    /// The upper end of the domain (always greater than ``lower``).
    package var upper: Double
    /// Labelled ticks, ascending, all inside `lower...upper`.
    package var major: [Double]
    /// Unlabelled ticks (log axes only: 2…9 × 10^k, or skipped decades), ascending.
    package var minor: [Double]
}

/// The decades within which ticks are "nice" (1-2-5 steps, whole decades): there every power of
/// ten involved is a normal, finite `Double`. Data beyond (only hostile or broken input reaches
/// 10^±300) gets plain ticks at its own bounds instead.
let niceDecades = -300...300

/// Picks "nice" linear ticks (1, 2 or 5 × 10^k apart) covering `lower...upper`.
///
/// The domain is widened to the nearest multiples of the step, so both ends are ticks. About
/// `target` intervals result (between roughly `target/2` and `2 × target`; `target` is clamped
/// to 1...1000).
///
/// Edge cases (total: never traps or loops for any input, and the result always has
/// `lower < upper`, both finite, with at most about 2,000 ticks): the bounds may come in either
/// order; equal bounds are widened by half their magnitude each way (or to -1…1 around zero; by
/// one step of the floating-point grid for subnormals); non-finite bounds give `0...1`. Spans
/// beyond `Double`'s range (e.g. -1e308…1e308), steps outside 10^±300, or ticks that would
/// overflow give the two data bounds as the only ticks.
/// - Complexity: O(number of ticks).
package func linearTicks(_ lower: Double, _ upper: Double, target: Int = 5) -> TickSet {
    guard lower.isFinite, upper.isFinite else { return TickSet(lower: 0, upper: 1, major: [0, 0.2, 0.4, 0.6, 0.8, 1], minor: []) }
    let (lo, hi) = separated(lower, upper)
    let plain = TickSet(lower: lo, upper: hi, major: [lo, hi], minor: [])
    let intervals = Double(Swift.min(1000, Swift.max(1, target)))
    let span = hi - lo
    // hi - lo overflows only for spans beyond Double's range; halving each bound first cannot.
    let rough = span.isFinite ? span / intervals : hi / intervals - lo / intervals
    guard let exponent = decadeFloor(rough), niceDecades.contains(exponent) else { return plain }
    let fraction = rough / exp10(exponent)
    let multiple = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
    let step = Double(multiple) * exp10(exponent)
    let first = (lo / step).rounded(.down)
    let last = (hi / step).rounded(.up)
    // Tick indices stay far inside Int (and exact in a Double); the count stays small.
    guard Swift.abs(first) <= 1e15, Swift.abs(last) <= 1e15, last - first <= 2000 else { return plain }
    // value(i) = i × step, computed from integers so 3 × 0.1 prints as 0.3.
    func value(_ i: Int) -> Double {
        exponent < 0 ? Double(i * multiple) / exp10(-exponent) : Double(i * multiple) * exp10(exponent)
    }
    // Near ±Double.greatestFiniteMagnitude the outermost multiple of the step may overflow: such
    // ticks are dropped and the domain ends at the data bound instead.
    let major = (Int(first)...Int(last)).map(value).filter(\.isFinite)
    guard let low = major.first, let high = major.last else { return plain }
    let domain = (Swift.min(low, lo), Swift.max(high, hi))
    guard major.count >= 2, domain.0 < domain.1 else { return plain }
    return TickSet(lower: domain.0, upper: domain.1, major: major, minor: [])
}

/// `lower` and `upper` in ascending order and apart: equal bounds are widened by half their
/// magnitude each way (±1 around zero), clamped to the finite range, and by one step of the
/// floating-point grid when that is not enough (subnormals, whose half rounds to themselves).
/// Both inputs must be finite; both outputs are finite with `lo < hi`.
/// - Complexity: O(1).
func separated(_ lower: Double, _ upper: Double) -> (Double, Double) {
    var lo = Swift.min(lower, upper)
    var hi = Swift.max(lower, upper)
    guard lo == hi else { return (lo, hi) }
    let pad = lo == 0 ? 1 : Swift.abs(lo) / 2
    lo = Swift.max(-Double.greatestFiniteMagnitude, lo - pad)
    hi = Swift.min(Double.greatestFiniteMagnitude, hi + pad)
    if lo == hi {
        lo = lo.nextDown
        hi = hi.nextUp
    }
    return (lo, hi)
}

/// Picks ticks for a base-10 log axis covering `lower...upper` (both must be positive).
///
/// - Data spanning more than one decade: the domain is widened to whole decades; major ticks sit
///   on powers of ten, every decade when there are at most `maxMajor` (clamped to 2...100), else
///   every 2nd, 3rd, … decade; minor ticks are at 2…9 × 10^k (when every decade is labelled) or
///   at the unlabelled decades.
/// - Data within one decade: the domain is widened to the 1-2-5 sequence (e.g. 2…5 for 2.3…4.1),
///   and those values are the major ticks, so a narrow range still gets at least two labels.
///
/// Edge cases (total: never traps or loops for any input, and the result always has
/// `0 < lower < upper`, both finite): bounds in either order; equal bounds get the decade around
/// them; a non-positive or non-finite bound gives `1...10`. Data reaching beyond 10^±300
/// (subnormals, values near `Double.greatestFiniteMagnitude`) gets its own bounds as the only
/// ticks, widened ten-fold (or to the neighbouring representable value) when they are equal.
/// - Complexity: O(number of decades), at most about 600.
package func logTicks(_ lower: Double, _ upper: Double, maxMajor: Int = 7) -> TickSet {
    let lo = Swift.min(lower, upper)
    let hi = Swift.max(lower, upper)
    guard lo.isFinite, hi.isFinite, lo > 0, let a = decadeFloor(lo), let top = decadeFloor(hi) else {
        return TickSet(lower: 1, upper: 10, major: [1, 10], minor: [2, 3, 4, 5, 6, 7, 8, 9])
    }
    let b = exp10(top) == hi ? top : top + 1
    guard niceDecades.contains(a), niceDecades.contains(b) else { return plainLogTicks(lo, hi) }
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
    let labels = Swift.max(2, Swift.min(100, maxMajor)) - 1
    let step = Swift.max(1, (decades + labels - 1) / labels)
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

/// Log ticks for data beyond the nice decades: the data bounds themselves (both positive and
/// finite), spread apart when equal.
private func plainLogTicks(_ lo: Double, _ hi: Double) -> TickSet {
    var lower = lo
    var upper = hi
    // A positive finite value either has a positive tenth or a finite tenfold (a tenth that
    // rounds to 0 needs a value below 1e-322), and the tenth of a positive value is smaller.
    if lower == upper {
        if lower / 10 > 0 { lower /= 10 } else { upper *= 10 }
    }
    return TickSet(lower: lower, upper: upper, major: [lower, upper], minor: [])
}

/// Ticks for `kind` over the data bounds; see ``linearTicks(_:_:target:)`` and ``logTicks(_:_:maxMajor:)``.
package func ticks(_ kind: ScaleKind, _ lower: Double, _ upper: Double) -> TickSet {
    switch kind {
    case .linear: return linearTicks(lower, upper)
    case .log10: return logTicks(lower, upper)
    }
}
