import DiffLabFormatting
import DiffLabJSON
import DiffLabResults

/// Everything one gate run found, with its verdict, exit status, and the markdown and JSON forms.
public struct GateReport: Sendable {
    /// The schema name of ``json(improvementsPass:)``.
    public static let schema = GateReportFile.schema

    /// Every comparison, in cell order, metrics in ``GateMetric`` order.
    public var comparisons: [GateComparison]
    /// The thresholds the comparisons were judged with.
    public var thresholds: GateThresholds
    /// Labelled facts for the reader (baseline, candidate, rounds, machine…), in order.
    public var context: [(String, String)]
    /// Remarks, e.g. a metric that could not be measured and why.
    public var notes: [String]

    /// A report; see the properties. The verdict and exit code are derived from ``comparisons``.
    public init(comparisons: [GateComparison], thresholds: GateThresholds, context: [(String, String)], notes: [String]) {
        self.comparisons = comparisons
        self.thresholds = thresholds
        self.context = context
        self.notes = notes
    }

    /// The comparisons found worse than the baseline.
    public var regressions: [GateComparison] { comparisons.filter { $0.verdict == .regression } }
    /// The comparisons found better than the baseline.
    public var improvements: [GateComparison] { comparisons.filter { $0.verdict == .improvement } }

    /// `regression`, `improvement` or `pass`.
    public var verdict: GateVerdict {
        if !regressions.isEmpty { return .regression }
        if !improvements.isEmpty { return .improvement }
        return .pass
    }

    /// The run's verdict as the report states it: ``GateRunVerdict/error`` when ``failure`` is
    /// set, else ``verdict``'s.
    public var runVerdict: GateRunVerdict {
        guard failure == nil else { return .error }
        return switch verdict {
        case .regression: .regression
        case .improvement: .improvement
        case .pass, .notGated: .pass
        }
    }

    /// Why this report cannot be trusted as a pass, or `nil` when it can: the gate fails closed.
    ///
    /// A comparison *compared* when its verdict is not ``GateVerdict/notGated``
    /// (``compareDeterministic(cell:metric:base:head:thresholds:note:)`` and
    /// ``compareTimes(_:thresholds:)`` give `notGated` exactly when a side has no usable value).
    /// - ``GateError/nothingCompared(reasons:)`` when no comparison compared (no cells, or every
    ///   metric missing on a side): a gate that checked nothing must not print PASS.
    /// - ``GateError/cellsNotCompared(_:)`` when some cell had no metric compared (e.g. a cell
    ///   whose stored values are all missing): that cell was not gated at all.
    ///
    /// - Complexity: O(comparisons).
    public var failure: GateError? {
        var order: [String] = []
        var compared: [String: Bool] = [:]
        var reasons: [String: [String]] = [:]
        for comparison in comparisons {
            if compared[comparison.cell] == nil { order.append(comparison.cell) }
            let didCompare = comparison.verdict != .notGated
            compared[comparison.cell] = (compared[comparison.cell] ?? false) || didCompare
            if !didCompare && !comparison.note.isEmpty && !(reasons[comparison.cell] ?? []).contains(comparison.note) {
                reasons[comparison.cell, default: []].append(comparison.note)
            }
        }
        let uncompared = order.filter { compared[$0] != true }
        if uncompared.count == order.count {
            var all = notes
            for cell in order { all += (reasons[cell] ?? []).filter { !all.contains($0) } }
            if order.isEmpty { all.insert("no cells", at: 0) }
            return .nothingCompared(reasons: all)
        }
        guard uncompared.isEmpty else {
            return .cellsNotCompared(uncompared.map { cell in "`\(cell)` (" + (reasons[cell] ?? ["no metric"]).joined(separator: "; ") + ")" })
        }
        return nil
    }

    /// 1 when the report cannot be trusted (see ``failure``); else 2 when anything regressed;
    /// else, when something improved, the thresholds' ``GateThresholds/improvementExitCode``
    /// (4, or 0), or 0 when `improvementsPass`; else 0.
    public func exitCode(improvementsPass: Bool = false) -> Int32 {
        if failure != nil { return 1 }
        return switch verdict {
        case .regression: 2
        case .improvement: improvementsPass ? 0 : thresholds.improvementExitCode
        case .pass, .notGated: 0
        }
    }

    /// A markdown summary for a CI step summary: the verdict, what was compared, every finding
    /// with its evidence, and one table row per cell.
    ///
    /// - Complexity: O(comparisons).
    public var markdown: String {
        var lines: [String] = []
        let failure = self.failure
        let title: String =
            switch verdict {
            case _ where failure != nil: "ERROR"
            case .regression: "REGRESSION"
            case .improvement: "IMPROVEMENT ONLY"
            case .pass, .notGated: "PASS"
            }
        lines.append("## DiffLab regression gate: \(title)")
        lines.append("")
        if let failure {
            lines.append("**\(failure)** (exit 1)")
            lines.append("")
        }
        for (label, value) in context { lines.append("- **\(label)**: \(value)") }
        let time = thresholds[.time]
        lines.append(
            "- **rules**: time is gated when the Holm-adjusted Wilcoxon signed-rank p (paired rounds) < \(formatSignificant(thresholds.alpha)) and the median round ratio moves "
                + "more than \(percent(time.regression)) (noise floor); instructions > \(percent(thresholds[.instructions].regression)), "
                + "allocated bytes > \(percent(thresholds[.allocatedBytes].regression)), allocation requests > "
                + "\(percent(thresholds[.allocationRequests].regression)) (deterministic)")
        lines.append("")
        for (heading, findings) in [("Regressions", regressions), ("Improvements", improvements)] where !findings.isEmpty {
            lines.append("### \(heading) (\(findings.count))")
            lines.append("")
            for finding in findings { lines.append("- `\(finding.cell)` **\(finding.metric.rawValue)**: \(evidence(finding))") }
            lines.append("")
        }
        let notGated = comparisons.filter { $0.verdict == .notGated }
        if !notes.isEmpty || !notGated.isEmpty {
            lines.append("### Not gated")
            lines.append("")
            for note in notes { lines.append("- \(note)") }
            for comparison in notGated where !notes.contains(comparison.note) {
                lines.append("- `\(comparison.cell)` \(comparison.metric.rawValue): \(comparison.note)")
            }
            lines.append("")
        }
        lines.append("### All cells")
        lines.append("")
        lines.append(
            "| cell | time base | time candidate | ratio [95% CI] | p (Holm) | instructions | allocated bytes | allocation requests | verdict |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        var cells: [String] = []
        for comparison in comparisons where !cells.contains(comparison.cell) { cells.append(comparison.cell) }
        for cell in cells {
            let row = comparisons.filter { $0.cell == cell }
            func find(_ metric: GateMetric) -> GateComparison? { row.first { $0.metric == metric } }
            let timing = find(.time)
            let verdicts = Set(row.map(\.verdict))
            let cellVerdict = verdicts.contains(.regression) ? "**regression**" : verdicts.contains(.improvement) ? "improvement" : "pass"
            var columns = ["`\(cell)`"]
            columns.append(timing?.base.map(formatSeconds) ?? "–")
            columns.append(timing?.head.map(formatSeconds) ?? "–")
            columns.append(timing.map(ratioText) ?? "–")
            columns.append(timing?.pAdjusted.map(formatP) ?? "–")
            columns.append(find(.instructions).map { change($0, formatCount) } ?? "–")
            columns.append(find(.allocatedBytes).map { change($0, formatBytes) } ?? "–")
            columns.append(find(.allocationRequests).map { change($0, formatCount) } ?? "–")
            columns.append(cellVerdict)
            lines.append("| " + columns.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON (schema `difflab-gate/1`): verdict (`error` when ``failure`` is set,
    /// whose text is then `error`), exit code, context, notes, thresholds and every comparison.
    public func json(improvementsPass: Bool = false) -> JSONValue { record(improvementsPass: improvementsPass).json }

    /// The report as a `difflab-gate/1` record; see ``json(improvementsPass:)``. Every metric's
    /// thresholds are written (zero for a metric the thresholds lack). O(comparisons).
    public func record(improvementsPass: Bool = false) -> GateReportFile {
        var written = thresholds
        for metric in GateMetric.allCases { written.metrics[metric] = thresholds[metric] }
        return GateReportFile(
            verdict: runVerdict, error: failure?.description, exitCode: Int(exitCode(improvementsPass: improvementsPass)),
            context: context.map { DisplayField(name: $0.0, value: $0.1) }, notes: notes, thresholds: written, comparisons: comparisons)
    }

    func evidence(_ c: GateComparison) -> String {
        let threshold = thresholds[c.metric]
        let limit = c.verdict == .regression ? "+" + percent(threshold.regression) : "−" + percent(threshold.improvement)
        switch c.metric {
        case .time:
            return "\(c.base.map(formatSeconds) ?? "–") → \(c.head.map(formatSeconds) ?? "–"), \(ratioText(c)), "
                + "Holm-adjusted p = \(c.pAdjusted.map(formatP) ?? "–") (threshold \(limit), α = \(formatSignificant(thresholds.alpha)))"
        case .instructions, .allocationRequests:
            return change(c, formatCount) + " (threshold \(limit))"
        case .allocatedBytes:
            return change(c, formatBytes) + " (threshold \(limit))"
        }
    }

    private func ratioText(_ c: GateComparison) -> String {
        guard let ratio = c.ratio else { return "–" }
        guard let interval = c.interval else { return formatRatio(ratio) }
        return "\(formatRatio(ratio)) [\(formatRatio(interval.lowerBound))–\(formatRatio(interval.upperBound))]"
    }

    private func change(_ c: GateComparison, _ format: (Double) -> String) -> String {
        guard let base = c.base, let head = c.head else { return "n/a" }
        if base == head { return "\(format(head)) (=)" }
        return "\(format(base)) → \(format(head)) (\(c.ratio.map(formatRatio) ?? "–"))"
    }
}

/// `0.05` → `5%`, `0.005` → `0.5%`.
func percent(_ fraction: Double) -> String { formatSignificant(fraction * 100) + "%" }

func formatRatio(_ ratio: Double) -> String { formatFixed(ratio, decimals: 3) + "×" }

/// A p-value: three decimals down to 0.001, then one significant digit and an exponent (`2.7e-4`).
func formatP(_ p: Double) -> String {
    if p >= 0.001 || p <= 0 { return formatFixed(p, decimals: 3) }
    var exponent = 0
    var mantissa = p
    while mantissa < 1 {
        mantissa *= 10
        exponent -= 1
    }
    return "\(formatFixed(mantissa, decimals: 1))e\(exponent)"
}
