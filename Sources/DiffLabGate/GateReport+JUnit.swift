import DiffLabResults

extension GateReport {
    /// The report as JUnit XML: one test case per gated cell (class `difflab.gate`, named after the
    /// cell), failed when any of its metrics regressed, the message naming each regression with its
    /// evidence; a cell with no metric compared is an error; improvements and metrics not gated
    /// are noted in the case's output. A run that cannot be trusted (``failure``) adds an error
    /// case `difflab.gate` / `run` with the reason, so a gate that compared nothing never shows
    /// as green.
    ///
    /// - Complexity: O(comparisons).
    public func junit(improvementsPass: Bool = false) -> JUnitReport {
        var order: [String] = []
        var byCell: [String: [GateComparison]] = [:]
        for comparison in comparisons {
            if byCell[comparison.cell] == nil { order.append(comparison.cell) }
            byCell[comparison.cell, default: []].append(comparison)
        }
        var cases = order.map { cell in testCase(cell, byCell[cell] ?? []) }
        if let failure {
            cases.append(
                JUnitReport.TestCase(
                    className: "difflab.gate", name: "run", outcome: .error(message: failure.description, type: "error", details: failure.description)
                ))
        }
        let properties =
            context.map { JUnitReport.DisplayPair($0.0, $0.1) } + [
                JUnitReport.DisplayPair("verdict", runVerdict.rawValue),
                JUnitReport.DisplayPair("exitCode", String(exitCode(improvementsPass: improvementsPass))),
            ]
        return JUnitReport(name: "difflab gate", suites: [JUnitReport.Suite(name: "difflab gate", properties: properties, cases: cases)])
    }

    /// One cell's test case.
    func testCase(_ cell: String, _ comparisons: [GateComparison]) -> JUnitReport.TestCase {
        let regressions = comparisons.filter { $0.verdict == .regression }
        let output = comparisons.map(line).joined(separator: "\n")
        if !regressions.isEmpty {
            let message = "regression: " + regressions.map(line).joined(separator: "; ")
            return JUnitReport.TestCase(
                className: "difflab.gate", name: cell, outcome: .failure(message: message, type: "regression", details: output))
        }
        guard comparisons.contains(where: { $0.verdict != .notGated }) else {
            return JUnitReport.TestCase(
                className: "difflab.gate", name: cell, outcome: .error(message: "no metric compared", type: "not-gated", details: output))
        }
        return JUnitReport.TestCase(className: "difflab.gate", name: cell, outcome: .passed, output: output)
    }

    /// `time: regression, 1.2 ms → 1.34 ms, …` (the markdown summary's evidence), or the reason a
    /// metric was not gated.
    func line(_ c: GateComparison) -> String {
        c.verdict == .notGated
            ? "\(c.metric.rawValue): \(c.verdict.rawValue)" + (c.note.isEmpty ? "" : ": \(c.note)")
            : "\(c.metric.rawValue): \(c.verdict.rawValue), \(evidence(c))"
    }
}
