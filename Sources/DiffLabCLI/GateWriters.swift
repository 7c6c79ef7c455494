import DiffLabGate

/// The gate's verdict and its writers: the comparisons of every cell and metric, then the JSON
/// report, the markdown summary (printed, and appended to `$GITHUB_STEP_SUMMARY`), the JUnit XML
/// and the exit status.
enum GateWriters {
    /// Every cell's comparisons: time (only against a built baseline, `timed`), then each
    /// deterministic metric against the baseline build or the stored baseline.
    static func compare(_ plan: GatePlan, _ measured: GateMeasurements, timed: Bool, stored: StoredBaseline?) -> [GateComparison] {
        let timeComparisons: [GateComparison] =
            timed
            ? compareTimes(
                plan.cells.map { TimeSamples(cell: $0, base: measured.timeRounds["baseline"]?[$0] ?? [], head: measured.timeRounds["candidate"]?[$0] ?? []) },
                thresholds: plan.thresholds)
            : []
        let storedIsComparable = stored.map(GateBaselineStorage.sameMachine) ?? false
        var comparisons: [GateComparison] = []
        for (index, cell) in plan.cells.enumerated() {
            if timed { comparisons.append(timeComparisons[index]) }
            for metric in GateMetric.allCases where metric.isDeterministic {
                let (headValue, headProblem) = measured.deterministic("candidate", cell, metric)
                var baseValue: Double?
                var baseProblem: String?
                if let stored {
                    baseValue = stored.value(cell, metric)
                    if metric == .instructions && !storedIsComparable {
                        baseProblem = "the stored baseline comes from another machine or toolchain; instruction counts are not comparable"
                        baseValue = nil
                    }
                } else {
                    (baseValue, baseProblem) = measured.deterministic("baseline", cell, metric)
                }
                comparisons.append(
                    compareDeterministic(
                        cell: cell, metric: metric, base: baseValue, head: headValue, thresholds: plan.thresholds,
                        note: headProblem ?? baseProblem ?? ""))
            }
        }
        return comparisons
    }

    /// Writes `report` (JSON, summary, JUnit, step summary), prints the summary, and gives the
    /// exit status: 1 (an error) when the run compared nothing — the gate fails closed — else
    /// the report's (2 regression, 4 or 0 improvement only, 0 pass).
    static func write(_ report: GateReport, _ plan: GatePlan, console: Console) throws(CommandError) -> ExitStatus {
        let markdown = report.markdown
        try plan.outFile.write(report.json(improvementsPass: plan.improvementsPass).serialized() + "\n")
        try plan.summaryFile.write(markdown)
        try plan.junitFile?.write(report.junit(improvementsPass: plan.improvementsPass).xml)
        try plan.stepSummary?.append(markdown)
        console.out(markdown)
        if let failure = report.failure { throw CommandError(.failure, failure.description) }
        let code = report.exitCode(improvementsPass: plan.improvementsPass)
        return ExitStatus(rawValue: code) ?? .regression
    }
}
