/// The gate's finding for one metric of one cell.
public enum GateVerdict: String, Sendable, Hashable {
    /// Within the thresholds (or, for time, not significant after correction).
    case pass
    /// Worse than the baseline beyond the thresholds.
    case regression
    /// Better than the baseline beyond the thresholds.
    case improvement
    /// Not gated: a value is missing on one side (the note says why).
    case notGated = "not-gated"
}

/// One metric of one cell, baseline against candidate.
public struct GateComparison: Sendable, Hashable {
    /// The cell name, `subject:profile:kind:size`.
    public var cell: String
    public var metric: GateMetric
    /// The baseline's value: the median for time, the exact value otherwise.
    public var base: Double?
    /// The candidate's value, like ``base``.
    public var head: Double?
    /// Candidate / baseline.
    public var ratio: Double? {
        guard let base, let head, base > 0 else { return nil }
        return head / base
    }
    /// For time: a 95% bootstrap confidence interval of the ratio of medians.
    public var interval: ClosedRange<Double>?
    /// For time: the Mann–Whitney U two-sided p-value, and Holm's adjustment of it.
    public var p: Double?
    public var pAdjusted: Double?
    /// For time: how many samples each side contributed.
    public var baseSampleCount: Int?
    public var headSampleCount: Int?
    public var verdict: GateVerdict
    /// Why a comparison is not gated, or other context.
    public var note: String

    /// A comparison; the verdict is decided by ``compareDeterministic(cell:metric:base:head:thresholds:)``
    /// or ``compareTimes(_:thresholds:)``.
    public init(cell: String, metric: GateMetric, base: Double?, head: Double?, verdict: GateVerdict, note: String = "") {
        self.cell = cell
        self.metric = metric
        self.base = base
        self.head = head
        self.verdict = verdict
        self.note = note
    }
}

/// The verdict for a change from `base` to `head` under `threshold`, when the change is
/// significant (always, for deterministic metrics).
func classify(base: Double, head: Double, _ threshold: MetricThreshold, significant: Bool) -> GateVerdict {
    guard significant else { return .pass }
    if head > base * (1 + threshold.regression) && head - base >= threshold.absolute { return .regression }
    if head * (1 + threshold.improvement) < base && base - head >= threshold.absolute { return .improvement }
    return .pass
}

/// Compares a deterministic metric (instructions, allocated bytes, allocation requests): two
/// runs of one build give the same value, so any change past the threshold is real.
///
/// - Returns: `notGated` when either value is missing, with `note` saying which.
/// - Complexity: O(1).
public func compareDeterministic(
    cell: String, metric: GateMetric, base: Double?, head: Double?, thresholds: GateThresholds, note: String = ""
) -> GateComparison {
    guard let base, let head else {
        let missing = base == nil && head == nil ? "both builds" : base == nil ? "the baseline" : "the candidate"
        return GateComparison(
            cell: cell, metric: metric, base: base, head: head, verdict: .notGated,
            note: note.isEmpty ? "no \(metric.rawValue) from \(missing)" : note)
    }
    let verdict = classify(base: base, head: head, thresholds[metric], significant: true)
    return GateComparison(cell: cell, metric: metric, base: base, head: head, verdict: verdict, note: note)
}

/// Compares wall-clock samples of every cell, taken interleaved from both builds in one job.
///
/// For each cell a two-sided Mann–Whitney U test asks whether one build's samples tend to be
/// larger; the p-values of all cells are adjusted together with Holm's method, so the chance of a
/// false alarm anywhere in the run stays below `thresholds.alpha`. A cell is a regression (or an
/// improvement) only when its adjusted p-value is below alpha *and* its ratio of medians is past
/// the time threshold (the noise floor: shifts smaller than this are not acted on, however
/// significant, because the machine is shared). A 95% bootstrap interval of the ratio is attached
/// for the reader.
///
/// - Complexity: O(c · r · s log s) for c cells of s samples and r bootstrap resamples.
public func compareTimes(_ cells: [(cell: String, base: [Double], head: [Double])], thresholds: GateThresholds) -> [GateComparison] {
    let tests = cells.map { mannWhitneyU($0.head, $0.base) }
    let adjusted = holmAdjusted(tests.map(\.p))
    return cells.indices.map { index in
        let (cell, baseSamples, headSamples) = cells[index]
        guard !baseSamples.isEmpty, !headSamples.isEmpty else {
            return GateComparison(
                cell: cell, metric: .time, base: nil, head: nil, verdict: .notGated, note: "no time samples from one build")
        }
        let base = median(baseSamples)
        let head = median(headSamples)
        let significant = adjusted[index] < thresholds.alpha
        var comparison = GateComparison(
            cell: cell, metric: .time, base: base, head: head,
            verdict: classify(base: base, head: head, thresholds[.time], significant: significant))
        comparison.p = tests[index].p
        comparison.pAdjusted = adjusted[index]
        comparison.baseSampleCount = baseSamples.count
        comparison.headSampleCount = headSamples.count
        if let interval = bootstrapRatioInterval(base: baseSamples, head: headSamples) {
            comparison.interval = interval.low...interval.high
        }
        return comparison
    }
}
