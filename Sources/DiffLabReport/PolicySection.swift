import DiffLabFormatting
import DiffLabResults

/// The policy-lab section of a report, from one `difflab-policy/1` file.
struct PolicySection {
    let results: PolicyResults
    /// File name prefix for this file's plots, e.g. `policy-`.
    let prefix: String

    /// Policies in order of first appearance.
    private var policies: [String] {
        var seen: Set<String> = []
        return results.runs.map(\.policy).filter { seen.insert($0).inserted }
    }

    /// Every list size run, so both panels share one x range.
    private var sizes: [Double] { results.runs.map { Double($0.listSize) } }

    /// A fixed look per policy.
    static func style(policy: String, index: Int) -> SeriesStyle {
        switch policy {
        case "main": SeriesStyle(color: "#D55E00", marker: .square)
        // background and adaptive often coincide: a wide line under a narrow one keeps both visible.
        case "background": SeriesStyle(color: "#0072B2", marker: .circle, width: 4)
        case "adaptive": SeriesStyle(color: "#009E73", marker: .diamond, width: 1.5)
        case "coalescing": SeriesStyle(color: "#CC79A7", marker: .triangle)
        default: SeriesStyle.automatic(index)
        }
    }

    private func style(_ policy: String) -> SeriesStyle {
        PolicySection.style(policy: policy, index: policies.firstIndex(of: policy) ?? 0)
    }

    /// The two fallback settings as (value, panel title), those present only.
    private var modes: [(Bool, String)] {
        [(false, "batch updates"), (true, "with reload fallback")].filter { mode in results.runs.contains { $0.reloadFallback == mode.0 } }
    }

    private func points(_ policy: String, fallback: Bool, _ metric: (PolicyRun) -> Double?) -> [PlotPoint] {
        results.runs.filter { $0.policy == policy && $0.reloadFallback == fallback }
            .compactMap { run in metric(run).map { PlotPoint(Double(run.listSize), $0) } }
    }

    func write(_ writer: inout ReportWriter) {
        writer.line("## Policy lab — " + Markdown.code(results.source))
        writer.line("")
        writeHeader(&writer)
        guard !results.runs.isEmpty else {
            writer.line("The file has no runs.")
            writer.line("")
            return
        }
        writeHitches(&writer)
        writeLatency(&writer)
        writeTable(&writer)
    }

    private func writeHeader(_ writer: inout ReportWriter) {
        var rows = Markdown.provenanceRows(results.provenance)
        var seen: Set<String> = []
        let engines = results.runs.compactMap(\.engine).filter { seen.insert($0).inserted }
        if !engines.isEmpty { rows.append(["engine", engines.joined(separator: ", ")]) }
        rows.append(contentsOf: results.settings.map { ["setting: " + $0.name, $0.value] })
        for field in results.crossover?.displayFields ?? [] {
            rows.append(["crossover: " + field.name, field.value == "null" ? "none found at the sizes run" : field.value + " items"])
        }
        writer.line(Markdown.table(["run", "value"], rows))
        writer.line(
            """
            The policy lab simulates a main thread drawing frames while list updates are diffed under each policy \
            (`main`: diff on the main thread; `background`: diff off it, apply on main; `adaptive`: main below a size \
            threshold, else background; `coalescing`: IGListKit-style coalesced background diffs), each with and without \
            IGListKit's fallback of reloading the whole list when an update has more than 100 changes. The crossover is the \
            smallest list size at which the run found background diffing hitching clearly less than main-thread diffing.
            """)
        writer.line("")
    }

    private func writeHitches(_ writer: inout ReportWriter) {
        let panels = modes.map { mode, title in
            Panel.line(
                LinePlot(
                    title: title, xLabel: "list size (items)", yLabel: "hitch time (ms per s)", yScale: .linear, yStyle: .plain,
                    series: policies.map { LineSeries($0, style: style($0), points: points($0, fallback: mode) { $0.hitchTimeRatio }) },
                    xCover: sizes))
        }
        let figure = Figure(
            title: "Hitch time ratio against list size", panels: panels, columns: 2, panelWidth: 430, panelHeight: 290,
            legend: policies.map { LegendEntry($0, style($0)) })
        writer.figure(
            prefix + "hitch-time.svg", figure,
            caption: """
                Hitch time ratio (milliseconds of frame time over budget per second of running; 0 is perfectly smooth) \
                against list size, one line per policy; left without and right with the reload fallback. The x axis is \
                logarithmic, the y axis linear. Lower is better; where lines part, the policy matters at that size. Where \
                policies coincide (often `background` and `adaptive`) the later one is drawn on top, narrower.
                """)
    }

    private func writeLatency(_ writer: inout ReportWriter) {
        let panels = modes.map { mode, title in
            var series: [LineSeries] = []
            for policy in policies {
                let base = style(policy)
                series.append(LineSeries(policy + " median", style: base, points: points(policy, fallback: mode) { $0.latencyMedian }))
                var p99 = base
                p99.dash = "5 3"
                p99.marker = .none
                series.append(LineSeries(policy + " p99", style: p99, points: points(policy, fallback: mode) { $0.latencyP99 }))
            }
            return Panel.line(
                LinePlot(title: title, xLabel: "list size (items)", yLabel: "update latency", yStyle: .seconds, series: series, xCover: sizes))
        }
        var legend = policies.map { LegendEntry($0, style($0)) }
        legend.append(LegendEntry("solid: median", SeriesStyle(color: "#444444", marker: .none)))
        legend.append(LegendEntry("dashed: p99", SeriesStyle(color: "#444444", dash: "5 3", marker: .none)))
        let figure = Figure(
            title: "Update latency against list size", panels: panels, columns: 2, panelWidth: 430, panelHeight: 290, legend: legend)
        writer.figure(
            prefix + "latency.svg", figure,
            caption: """
                Update latency (from an update's request to its being applied on the main thread) against list size, per \
                policy: median (solid, with markers) and 99th percentile (dashed, same colour); left without and right with \
                the reload fallback. Both axes are logarithmic. The gap between a policy's two lines is its tail.
                """)
    }

    private func writeTable(_ writer: inout ReportWriter) {
        let seconds: (Double?) -> String = { $0.map(NumberStyle.seconds.format) ?? "–" }
        let int: (Int?) -> String = { $0.map(String.init) ?? "–" }
        // Runs from `difflab policy real-time` carry the simulation's prediction beside them.
        let simulated = results.runs.contains { $0.simulatedHitchTimeRatio != nil || $0.simulatedLatencyP99 != nil }
        let rows = results.runs.map { r in
            [
                r.policy, r.reloadFallback ? "reload" : "–", formatGrouped(r.listSize), int(r.frames), int(r.framesOverBudget),
                r.hitchTimeRatio.map { formatFixed($0, decimals: 1) } ?? "–", seconds(r.latencyMedian), seconds(r.latencyP99),
                "\(int(r.applied))/\(int(r.requested))", int(r.coalesced), int(r.reloads), int(r.dropped),
                r.cpuUtilisation.map { formatFixed($0 * 100, decimals: 0) + "%" } ?? "–",
            ] + (simulated ? [r.simulatedHitchTimeRatio.map { formatFixed($0, decimals: 1) } ?? "–", seconds(r.simulatedLatencyP99)] : [])
        }
        writer.line("Every run, as recorded (hitch in ms over budget per second; latency request → applied):")
        writer.line("")
        writer.line(
            Markdown.table(
                [
                    "policy", "fallback", "size", "frames", "over budget", "hitch ms/s", "latency p50", "latency p99", "applied/requested",
                    "coalesced", "reloads", "dropped", "CPU",
                ] + (simulated ? ["simulated hitch ms/s", "simulated p99"] : []), rows, rightAligned: Set(2...(simulated ? 14 : 12))))
        if simulated {
            writer.line(
                """
                The last two columns are what the scenario grid's virtual-time simulation predicts for the same run, from \
                diff costs measured on the same lists: the check on the simulation.
                """)
            writer.line("")
        }
    }
}
