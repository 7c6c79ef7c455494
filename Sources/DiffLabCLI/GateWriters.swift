import DiffLabGate

/// The gate's verdict and its writers: the comparisons of every cell and metric, then the JSON
/// report, the markdown summary (printed, and appended to `$GITHUB_STEP_SUMMARY`), the JUnit XML
/// and the exit status.
enum GateWriters {
    /// Every cell's comparisons (``compareCells(_:time:candidate:baseline:thresholds:)``):
    /// time only against a built baseline (`timed`), then each deterministic metric against the
    /// baseline build or the stored baseline.
    static func compare(_ plan: GatePlan, _ measured: GateMeasurements, timed: Bool, stored: StoredBaseline?) -> [GateComparison] {
        let baseline: GateBaselineValues =
            if let stored {
                .stored(stored, comparable: GateBaselineStorage.sameMachine(stored))
            } else {
                .built { cell, metric in measured.deterministic("baseline", cell, metric) }
            }
        return compareCells(
            plan.cells, time: timed ? (measured.timeRounds["baseline"] ?? [:], measured.timeRounds["candidate"] ?? [:]) : nil,
            candidate: { cell, metric in measured.deterministic("candidate", cell, metric) }, baseline: baseline, thresholds: plan.thresholds)
    }

    /// Writes `report` (JSON, summary, JUnit, step summary), prints the summary, and gives the
    /// exit status: 1 (an error) when the run compared nothing — the gate fails closed — else
    /// the report's (2 regression, 4 or 0 improvement only, 0 pass).
    static func write(_ report: GateReport, _ plan: GatePlan, console: Console) throws(CommandError) -> ExitStatus {
        let markdown = report.markdown
        try asCantCreate { () throws(OutputFileError) in
            try plan.outFile.write(report.json(improvementsPass: plan.improvementsPass).serialized() + "\n")
        }
        try asCantCreate { () throws(OutputFileError) in try plan.summaryFile.write(markdown) }
        try asCantCreate { () throws(OutputFileError) in try plan.junitFile?.write(report.junit(improvementsPass: plan.improvementsPass).xml) }
        try asCantCreate { () throws(OutputFileError) in try plan.stepSummary?.append(markdown) }
        console.out(markdown)
        if let failure = report.failure { throw CommandError(.failure, failure.description) }
        let code = report.exitCode(improvementsPass: plan.improvementsPass)
        return ExitStatus(rawValue: code) ?? .regression
    }
}
