import DiffLabCore
import DiffLabPlatform

/// The median of `values` (DiffLabCore's one definition: the mean of the two middle values for
/// an even count); `nan` when empty.
///
/// - Complexity: O(n log n).
package func medianOrNaN(_ values: [Double]) -> Double { median(values) ?? .nan }

/// The result of a Wilcoxon signed-rank test.
package struct SignedRankResult: Sendable, Hashable {
    /// W+: the sum of the ranks of |d| over the positive differences (ties share mid-ranks).
    package var wPlus: Double
    /// How many non-zero differences were ranked.
    package var count: Int
    /// Two-sided p-value, from the exact null distribution (every sign pattern equally likely);
    /// 1 when there are no non-zero differences.
    package var p: Double
}

/// The Wilcoxon signed-rank test of paired differences `d` (candidate − baseline, one per
/// interleaved round): are they centred on zero? Non-parametric — it assumes only that, with no
/// change, each difference is as likely positive as negative — and exact: the p-value counts
/// sign patterns instead of approximating them, so it is right for 8 rounds as for 80.
///
/// Zero differences are dropped (Wilcoxon's convention); tied |d| share their mean rank.
///
/// - Complexity: O(n log n + n · S) time and O(S) memory, where S = n(n + 1) is the largest
///   doubled rank sum.
package func wilcoxonSignedRank(_ d: [Double]) -> SignedRankResult {
    let nonZero = d.filter { $0 != 0 && !$0.isNaN }
    let n = nonZero.count
    guard n > 0 else { return SignedRankResult(wPlus: 0, count: 0, p: 1) }
    let order = nonZero.indices.sorted { abs(nonZero[$0]) < abs(nonZero[$1]) }
    // Doubled mid-ranks are integers: (first + last + 2) for 0-based positions first...last.
    var doubledRanks = [Int](repeating: 0, count: n)
    var start = 0
    while start < n {
        var end = start
        while end + 1 < n && abs(nonZero[order[end + 1]]) == abs(nonZero[order[start]]) { end += 1 }
        for position in start...end { doubledRanks[order[position]] = start + end + 2 }
        start = end + 1
    }
    var observed = 0
    for i in 0..<n where nonZero[i] > 0 { observed += doubledRanks[i] }
    // ways[s]: sign patterns whose doubled positive rank sum is s, as fractions of 2^n.
    let total = doubledRanks.reduce(0, +)
    var ways = [Double](repeating: 0, count: total + 1)
    ways[0] = 1
    var reach = 0
    for rank in doubledRanks {
        reach += rank
        var s = reach
        while s >= rank {
            ways[s] = (ways[s] + ways[s - rank]) / 2
            s -= 1
        }
        while s >= 0 {
            ways[s] /= 2
            s -= 1
        }
    }
    var lower = 0.0
    var upper = 0.0
    for (s, weight) in ways.enumerated() {
        if s <= observed { lower += weight }
        if s >= observed { upper += weight }
    }
    return SignedRankResult(wPlus: Double(observed) / 2, count: n, p: min(1, 2 * min(lower, upper)))
}

/// Holm–Bonferroni adjusted p-values, in the order given: controls the family-wise error rate —
/// the chance of even one false alarm among all the comparisons — at the level the adjusted
/// values are compared with, without assuming the comparisons are independent.
///
/// The i-th smallest p-value (from 0) is multiplied by (count − i), made non-decreasing, and
/// capped at 1. An empty family gives an empty result.
///
/// - Complexity: O(k log k).
package func holmAdjusted(_ pValues: [Double]) -> [Double] {
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
    var adjusted = [Double](repeating: 1, count: pValues.count)
    var running = 0.0
    for (rank, index) in order.enumerated() {
        running = max(running, min(1, pValues[index] * Double(pValues.count - rank)))
        adjusted[index] = running
    }
    return adjusted
}

/// A percentile-bootstrap confidence interval of the median of `values` (e.g. per-round ratios).
///
/// Each of `resamples` rounds draws the values again with replacement and takes their median; the
/// interval is the central `level` of those medians. The generator is seeded, so the same values
/// always give the same interval.
///
/// - Returns: `nil` when `values` is empty.
/// - Complexity: O(resamples · n log n).
package func bootstrapMedianInterval(
    _ values: [Double], level: Double = 0.95, resamples: Int = 2_000, seed: UInt64 = 0x5eed
) -> ClosedRange<Double>? {
    guard !values.isEmpty, resamples > 0 else { return nil }
    var generator = SplitMix64(seed: seed)
    var medians: [Double] = []
    medians.reserveCapacity(resamples)
    var scratch = values
    for _ in 0..<resamples {
        for i in scratch.indices { scratch[i] = values[Int(generator.next(upTo: UInt64(values.count - 1)))] }
        medians.append(medianOrNaN(scratch))
    }
    medians.sort()
    let tail = (1 - level) / 2
    let low = medians[min(medians.count - 1, Int((tail * Double(medians.count)).rounded(.down)))]
    let high = medians[max(0, min(medians.count - 1, Int(((1 - tail) * Double(medians.count)).rounded(.up)) - 1))]
    return low...high
}
