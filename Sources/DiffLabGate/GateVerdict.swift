import DiffLabResults

/// Where the baseline's deterministic values of a gate run come from.
public enum GateBaselineValues {
    /// A baseline build measured in this run: its value of a cell and metric, or `nil` with the
    /// reason when it has none (runs that disagreed, say).
    case built((_ cell: String, _ metric: GateMetric) -> (value: Double?, problem: String?))
    /// A stored baseline; `comparable` says whether its instruction counts were measured on this
    /// machine's CPU model with this toolchain (``StoredBaseline/isComparable(cpu:toolchain:)``):
    /// when not, instructions are not gated.
    case stored(StoredBaseline, comparable: Bool)
}

extension StoredBaseline {
    /// Whether this baseline's instruction counts can be compared with a build measured on `cpu`
    /// with `toolchain` (`swift --version`'s text): only when both are the same.
    ///
    /// - Complexity: O(the strings' lengths).
    public func isComparable(cpu: String, toolchain: String) -> Bool {
        self.cpu == cpu && self.toolchain == toolchain
    }
}

/// The regression gate's comparisons of every cell, in the order of `cells`: first its time
/// (when `time` is given: the rounds of a baseline build and of the candidate, measured side by
/// side), then each deterministic metric (``GateMetric/isDeterministic``) of the candidate
/// (`candidate`) against `baseline`.
///
/// A cell or metric with no value on one side is ``GateVerdict/notGated`` with the reason
/// (``compareDeterministic(cell:metric:base:head:thresholds:note:)``); the caller decides what a
/// run that compared nothing means (the gate fails closed: ``GateReport/failure``).
///
/// - Parameters:
///   - cells: the cells compared, in the order of the result.
///   - time: per cell, the baseline's and the candidate's samples, one array per round; cells
///     missing from either side have no rounds (and are not gated on time).
///   - candidate: the candidate's value of a cell's metric, or the problem that left it without one.
///   - baseline: where the baseline's deterministic values come from (a built or a stored baseline).
///   - thresholds: the thresholds each comparison is judged by.
/// - Complexity: O(cells × metrics) plus ``compareTimes(_:thresholds:)``'s cost.
public func compareCells(
    _ cells: [String], time: (base: [String: [[Double]]], head: [String: [[Double]]])?,
    candidate: (_ cell: String, _ metric: GateMetric) -> (value: Double?, problem: String?), baseline: GateBaselineValues,
    thresholds: GateThresholds
) -> [GateComparison] {
    let timeComparisons = time.map { time in
        compareTimes(cells.map { TimeSamples(cell: $0, base: time.base[$0] ?? [], head: time.head[$0] ?? []) }, thresholds: thresholds)
    }
    var comparisons: [GateComparison] = []
    for (index, cell) in cells.enumerated() {
        if let timeComparisons { comparisons.append(timeComparisons[index]) }
        for metric in GateMetric.allCases where metric.isDeterministic {
            let head = candidate(cell, metric)
            var base: (value: Double?, problem: String?)
            switch baseline {
            case .built(let values):
                base = values(cell, metric)
            case .stored(let stored, let comparable):
                base = (stored.value(cell, metric), nil)
                if metric == .instructions && !comparable {
                    base = (nil, "the stored baseline comes from another machine or toolchain; instruction counts are not comparable")
                }
            }
            comparisons.append(
                compareDeterministic(
                    cell: cell, metric: metric, base: base.value, head: head.value, thresholds: thresholds,
                    note: head.problem ?? base.problem ?? ""))
        }
    }
    return comparisons
}
