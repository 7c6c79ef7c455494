import DiffLabPlatform
import DiffLabResults

/// The verdict for a deterministic change from `base` to `head` under `threshold`.
func classify(base: Double, head: Double, _ threshold: MetricThreshold) -> GateVerdict {
    if head > base * (1 + threshold.regression) && head - base >= threshold.absolute { return .regression }
    if head * (1 + threshold.improvement) < base && base - head >= threshold.absolute { return .improvement }
    return .pass
}

/// Compares a deterministic metric (instructions, allocated bytes, allocation requests): two
/// runs of one build give the same value, so any change past the threshold is real.
///
/// - Returns: `notGated` when either value is missing, with `note` saying which, or when either
///   is not a finite number ≥ 0 (which a checked input never holds; such a value is not compared,
///   so a report of nothing else fails closed, see ``GateReport/failure``).
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
    guard base.isFinite, head.isFinite, base >= 0, head >= 0 else {
        return GateComparison(
            cell: cell, metric: metric, base: nil, head: nil, verdict: .notGated,
            note: "\(metric.rawValue) is not a finite count ≥ 0 (baseline \(base), candidate \(head))")
    }
    let verdict = classify(base: base, head: head, thresholds[metric])
    return GateComparison(cell: cell, metric: metric, base: base, head: head, verdict: verdict, note: note)
}

/// The wall-clock samples of one cell: for each interleaved round, the baseline's and the
/// candidate's samples (seconds per call). Round `r` of both sides ran back to back.
public struct TimeSamples: Sendable {
    /// The cell name, `subject:profile:kind:size`.
    public var cell: String
    /// The baseline's samples, one array per round.
    public var base: [[Double]]
    /// The candidate's samples, one array per round (as many rounds as ``base``).
    public var head: [[Double]]

    /// Samples of one cell; see the properties.
    public init(cell: String, base: [[Double]], head: [[Double]]) {
        self.cell = cell
        self.base = base
        self.head = head
    }

    /// median(candidate) / median(baseline) of every round both sides measured.
    public var roundRatios: [Double] {
        zip(base, head).compactMap { base, head in
            let b = medianOrNaN(base)
            let h = medianOrNaN(head)
            return b > 0 && h.isFinite ? h / b : nil
        }
    }
}

/// Compares wall-clock samples of every cell, taken in interleaved rounds of both builds in one job.
///
/// The unit of evidence is the *round*, not the sample: samples of one process share its memory
/// layout and the machine's state of that moment, so pooling them overstates the evidence (pooled
/// samples of two runs of one identical binary gave Mann–Whitney p ≈ 1e-18 here). Each round
/// gives one paired ratio, median(candidate) / median(baseline), from two processes started back
/// to back (ABBA order), so load that comes and goes hits both sides of a pair alike.
///
/// Per cell, the exact Wilcoxon signed-rank test asks whether the log-ratios are centred on zero;
/// the p-values of all cells are adjusted together with Holm's method, so the chance of even one
/// false alarm in the run stays below `thresholds.alpha`. A cell is a regression (or an
/// improvement) only when its adjusted p-value is below alpha *and* the median of its round
/// ratios is past the time threshold — the noise floor: shifts smaller than that are not acted on,
/// however consistent, because the machine is shared and two builds of identical code can differ
/// by a few percent in code and page placement. A 95% bootstrap interval of the median ratio
/// (rounds resampled) is attached for the reader. `base`/`head` of the result are the medians of
/// all samples.
///
/// - Complexity: O(c · (r · s log s + r² + B · r log r)) for c cells of r rounds of s samples and
///   B bootstrap resamples.
public func compareTimes(_ cells: [TimeSamples], thresholds: GateThresholds) -> [GateComparison] {
    let ratios = cells.map(\.roundRatios)
    let tests = ratios.map { wilcoxonSignedRank($0.map { Double.log($0) }) }
    let adjusted = holmAdjusted(tests.map(\.p))
    return cells.indices.map { index in
        let cell = cells[index]
        guard !ratios[index].isEmpty else {
            return GateComparison(
                cell: cell.cell, metric: .time, base: nil, head: nil, verdict: .notGated, note: "no paired time rounds")
        }
        let ratio = medianOrNaN(ratios[index])
        let significant = adjusted[index] < thresholds.alpha
        let threshold = thresholds[.time]
        var verdict = GateVerdict.pass
        let base = medianOrNaN(cell.base.flatMap { $0 })
        let head = medianOrNaN(cell.head.flatMap { $0 })
        if significant && abs(head - base) >= threshold.absolute {
            if ratio > 1 + threshold.regression { verdict = .regression }
            if ratio * (1 + threshold.improvement) < 1 { verdict = .improvement }
        }
        var comparison = GateComparison(cell: cell.cell, metric: .time, base: base, head: head, verdict: verdict)
        comparison.ratio = ratio
        comparison.p = tests[index].p
        comparison.pAdjusted = adjusted[index]
        comparison.rounds = ratios[index].count
        comparison.interval = bootstrapMedianInterval(ratios[index])
        return comparison
    }
}
