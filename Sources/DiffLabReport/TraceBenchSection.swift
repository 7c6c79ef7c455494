import DiffLabFormatting
import DiffLabResults

/// The report section of a `difflab-bench-trace/1` file: the trace and its provenance, each
/// subject's figures over the trace's pairs, and a plot of time per pair against the pair's size.
struct TraceBenchSection {
    let results: TraceBenchResults
    /// The prefix of this section's files (`trace-`, `trace2-`, …).
    let prefix: String

    /// The provenance table of a trace workload (source, maker and date, how identifiers and
    /// contents were derived), then a blank line: every section of a trace-driven file shows it.
    static func writeProvenance(_ w: TraceWorkload, _ writer: inout ReportWriter) {
        writer.line("| provenance | |")
        writer.line("|---|---|")
        for (name, value) in [
            ("source", w.provenance.source), ("made by", w.provenance.tool + ", " + w.provenance.date), ("identifiers", w.provenance.ids),
            ("contents", w.provenance.contents),
        ] {
            writer.line("| \(name) | \(Markdown.cell(value)) |")
        }
        writer.line("")
    }

    func write(_ writer: inout ReportWriter) {
        let w = results.trace
        writer.line("## Benchmark on a recorded trace: " + Markdown.code(w.file))
        writer.line("")
        writer.line(
            "The workload is a recorded trace, not a generated profile: \(w.versions) versions of one list, \(results.pairs.count) "
                + "consecutive pairs, \(NumberStyle.count.format(Double(w.items))) items in all, "
                + "\(NumberStyle.count.format(Double(w.distinctIds))) distinct identifiers\(w.timestamps ? ", with times" : "").")
        writer.line("")
        Self.writeProvenance(w, &writer)
        let time = formatSeconds
        let rows = results.summaries.map { row -> [String] in
            guard let total = row.total else {
                return [Markdown.cell(row.engine), "skipped: " + Markdown.cell(row.skipped ?? ""), "", "", "", "", "", ""]
            }
            return [
                Markdown.cell(row.engine), time(total), row.medianPerPair.map(time) ?? "–", row.p99PerPair.map(time) ?? "–",
                row.worstPair.map { "#\($0.index) (\($0.pair.old) → \($0.pair.new)): \(time($0.seconds))" } ?? "–",
                row.ratioToHashFloor.map { formatSignificant($0) + "×" } ?? "–",
                row.ratioToPartitionedFloor.map { formatSignificant($0) + "×" } ?? "–",
                row.speedupOverStdlib.map { "×" + formatSignificant($0) } ?? "–",
            ]
        }
        writer.line(
            Markdown.table(
                ["subject", "total", "median / pair", "p99 / pair", "worst pair", "÷ hash floor", "÷ partitioned floor", "speed-up over stdlib"],
                rows, rightAligned: [1, 2, 3, 5, 6, 7]))
        writer.line("")
        writer.line(
            "Each pair's time is the median of at least three calls (\(time(results.budgetSeconds)) of samples per subject and pair), "
                + "every subject timed on the same lists in turn, in one process under the \(results.allocator) allocator, as "
                + "\(results.kind) elements. Totals add the pairs' medians; ratios divide two totals from this file.")
        writer.line("")

        let measured = results.subjects.filter { $0.isMeasured(pairs: results.pairs.count) }
        let series = measured.enumerated().map { index, subject in
            LineSeries(
                subject.engine, style: .automatic(index),
                points: zip(results.pairs, subject.pairSeconds).map { PlotPoint(Double(max($0.old, $0.new)), $1) }, connected: false)
        }
        let plot = LinePlot(
            title: "time per pair", xLabel: "larger list of the pair (items)", yLabel: "seconds per call", yStyle: .seconds, series: series)
        writer.figure(
            prefix + "pairs.svg",
            Figure(
                title: "Time per pair of \(w.file)", panels: [.line(plot)], columns: 1, panelWidth: 640, panelHeight: 360,
                legend: series.map { LegendEntry($0.name, $0.style) }),
            caption: "Each point is one consecutive pair of the trace's versions: its median time against the larger list's size (log axes).")
    }
}
