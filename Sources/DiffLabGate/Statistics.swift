import DiffLabCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The median of `values` (the mean of the two middle values for an even count); `nan` when empty.
///
/// - Complexity: O(n log n).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The result of a Mann–Whitney U test of two independent samples.
public struct MannWhitneyResult: Sendable, Hashable {
    /// U of the first sample: the number of (a, b) pairs with a > b, ties counting one half.
    public var u: Double
    /// The standardised statistic (tie-corrected variance, continuity correction); positive when
    /// the first sample tends to be larger.
    public var z: Double
    /// Two-sided p-value from the normal approximation; 1 when either sample is empty or every
    /// value is tied.
    public var p: Double
}

/// The Mann–Whitney U test (Wilcoxon rank-sum) of `a` against `b`: do values of one sample tend
/// to be larger than values of the other? Non-parametric — it assumes no distribution, only that
/// the samples are independent — so a few slow outliers (a noisy neighbour) cannot dominate it as
/// they would a t-test.
///
/// Uses the normal approximation with the tie correction of the variance and a continuity
/// correction, which is accurate for the sample sizes the gate uses (≥ 8 per side).
///
/// - Complexity: O((n + m) log(n + m)).
public func mannWhitneyU(_ a: [Double], _ b: [Double]) -> MannWhitneyResult {
    let n1 = Double(a.count)
    let n2 = Double(b.count)
    guard !a.isEmpty, !b.isEmpty else { return MannWhitneyResult(u: 0, z: 0, p: 1) }
    // Rank the pooled values; ties get the mean of the ranks they span.
    var pooled = a.map { ($0, true) } + b.map { ($0, false) }
    pooled.sort { $0.0 < $1.0 }
    var rankSumA = 0.0
    var tieTerm = 0.0
    var start = 0
    while start < pooled.count {
        var end = start
        while end + 1 < pooled.count && pooled[end + 1].0 == pooled[start].0 { end += 1 }
        let rank = Double(start + end + 2) / 2
        let ties = Double(end - start + 1)
        tieTerm += ties * ties * ties - ties
        for i in start...end where pooled[i].1 { rankSumA += rank }
        start = end + 1
    }
    let u = rankSumA - n1 * (n1 + 1) / 2
    let mean = n1 * n2 / 2
    let n = n1 + n2
    let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
    guard variance > 0 else { return MannWhitneyResult(u: u, z: 0, p: 1) }
    let difference = u - mean
    let corrected = difference > 0 ? max(0, difference - 0.5) : min(0, difference + 0.5)
    let z = corrected / variance.squareRoot()
    return MannWhitneyResult(u: u, z: z, p: min(1, erfc(abs(z) / 2.0.squareRoot())))
}

/// Holm–Bonferroni adjusted p-values, in the order given: controls the family-wise error rate —
/// the chance of even one false alarm among all the comparisons — at the level the adjusted
/// values are compared with, without assuming the comparisons are independent.
///
/// The i-th smallest p-value (from 0) is multiplied by (count − i), made non-decreasing, and
/// capped at 1. An empty family gives an empty result.
///
/// - Complexity: O(k log k).
public func holmAdjusted(_ pValues: [Double]) -> [Double] {
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
    var adjusted = [Double](repeating: 1, count: pValues.count)
    var running = 0.0
    for (rank, index) in order.enumerated() {
        running = max(running, min(1, pValues[index] * Double(pValues.count - rank)))
        adjusted[index] = running
    }
    return adjusted
}

/// A percentile-bootstrap confidence interval of median(`head`) / median(`base`).
///
/// Each of `resamples` rounds draws both samples again with replacement and takes the ratio of
/// their medians; the interval is the central `level` of those ratios. The generator is seeded, so
/// the same samples always give the same interval.
///
/// - Returns: `nil` when either sample is empty or a resampled base median is not positive.
/// - Complexity: O(resamples · (n log n + m log m)).
public func bootstrapRatioInterval(
    base: [Double], head: [Double], level: Double = 0.95, resamples: Int = 2_000, seed: UInt64 = 0x5eed
) -> (low: Double, high: Double)? {
    guard !base.isEmpty, !head.isEmpty, resamples > 0 else { return nil }
    var generator = SplitMix64(seed: seed)
    var ratios: [Double] = []
    ratios.reserveCapacity(resamples)
    var scratchBase = base
    var scratchHead = head
    for _ in 0..<resamples {
        for i in scratchBase.indices { scratchBase[i] = base[Int(generator.next(upTo: UInt64(base.count - 1)))] }
        for i in scratchHead.indices { scratchHead[i] = head[Int(generator.next(upTo: UInt64(head.count - 1)))] }
        let denominator = median(scratchBase)
        guard denominator > 0 else { return nil }
        ratios.append(median(scratchHead) / denominator)
    }
    ratios.sort()
    let tail = (1 - level) / 2
    let low = ratios[min(ratios.count - 1, Int((tail * Double(ratios.count)).rounded(.down)))]
    let high = ratios[min(ratios.count - 1, Int(((1 - tail) * Double(ratios.count)).rounded(.up)) - 1)]
    return (low, high)
}
