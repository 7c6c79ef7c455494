/// The median of `values`: the middle value of the sorted values, or the mean of the two middle
/// values for an even count (halved before adding, so two huge values cannot overflow to
/// infinity); NaNs are left out; `nil` when nothing is left.
///
/// This is DiffLab's one median: the bench's per-cell medians, the gate's per-round ratios and
/// the report's derived figures all use it (percentiles stay nearest-rank, see the bench's
/// `SampleStatistics`).
///
/// - Complexity: O(n log n).
package func median(_ values: [Double]) -> Double? {
    let sorted = values.filter { !$0.isNaN }.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : sorted[middle - 1] / 2 + sorted[middle] / 2
}
