import DiffLabCore
import DiffLabFormatting
import DiffLabResults

// The policy-lab section's figures: recommendations, hitches against size, frame rates and the
// Pareto fronts of p99 latency against hitch time. The section's index, tables and styles are in
// PolicyGridSection.swift.

extension PolicyGridSection {
    // MARK: Figures

    func writeRecommendationPlot(_ writer: inout ReportWriter, _ recommendations: [PolicyRecommendationRow]) {
        let rates = Self.ascending(recommendations.map(\.frameRate))
        let lineWinner = SeriesStyle(color: "#222222", marker: .none, width: 1.5)
        let lineRunnerUp = SeriesStyle(color: "#777777", dash: "6 3", marker: .none, width: 1.5)
        var shownPolicies: Set<String> = []
        let panels = rates.map { rate -> Panel in
            let rows = recommendations.filter { $0.frameRate == rate }
            let x: (PolicyRecommendationRow) -> Double = { Double($0.listSize) }
            var series: [LineSeries] = []
            let winners = rows.compactMap { r in r.winner.map { (x(r), $0) } }
            // The runner-up only where there is a winner: otherwise it is the lowest-latency setting.
            let runnerUps = rows.compactMap { r in r.winner == nil ? nil : r.runnerUp.map { (x(r), $0) } }
            series.append(LineSeries("winner", style: lineWinner, points: winners.map { PlotPoint($0.0, $0.1.hitchTimeRatio) }))
            series.append(LineSeries("runner-up", style: lineRunnerUp, points: runnerUps.map { PlotPoint($0.0, $0.1.hitchTimeRatio) }))
            for (size, c) in winners {
                series.append(
                    LineSeries(
                        "winner range", style: SeriesStyle(color: "#222222", marker: .none, width: 1),
                        points: [PlotPoint(size, c.hitchLow), PlotPoint(size, c.hitchHigh)]))
            }
            for (size, c) in runnerUps {
                series.append(
                    LineSeries(
                        "runner-up range", style: SeriesStyle(color: "#777777", dash: "2 2", marker: .none, width: 1),
                        points: [PlotPoint(size, c.hitchLow), PlotPoint(size, c.hitchHigh)]))
            }
            for (size, c) in winners + runnerUps {
                shownPolicies.insert(c.setting.policy)
                var look = style(c.setting.policy)
                look.width = 1
                series.append(LineSeries(c.setting.policy, style: look, points: [PlotPoint(size, c.hitchTimeRatio)], connected: false))
            }
            let highest = (winners + runnerUps).map(\.1.hitchHigh).max() ?? 0
            return Panel.line(
                LinePlot(
                    title: Self.hz(rate), xLabel: "list size (items)", yLabel: "hitch time (ms per s)", yScale: .linear,
                    series: series, referenceLines: Self.appleLines(dataMaximum: highest), xCover: recommendations.map(x), yCover: [0]))
        }
        var legend = policies.filter(shownPolicies.contains).map { LegendEntry($0, style($0)) }
        legend.append(LegendEntry("solid: winner", lineWinner))
        legend.append(LegendEntry("dashed: runner-up", lineRunnerUp))
        let figure = Figure(
            title: "Recommended settings: hitch time per list-size band", panels: panels, columns: 2, panelWidth: 430, panelHeight: 290,
            legend: legend)
        writer.figure(
            prefix + "recommendations.svg", figure,
            caption: """
                The recommendations' hitch time ratio against the list size each band was run at, one panel per frame \
                rate: the winner (solid line) and the runner-up (dashed), each point coloured by its policy, with a \
                vertical bar from the lowest to the highest value over the repeats. The values are the file's (the mean \
                over the band's workloads, median over the repeats). Which setting won is in the table above. Bands \
                where no setting was feasible have no points. The x axis is logarithmic, the y axis linear. \
                \(Self.appleLinesNote)
                """)
    }

    // MARK: Hitch time against list size

    func writeHitchAgainstSize(_ writer: inout ReportWriter) {
        let overview = overviewSettings
        guard !overview.isEmpty else { return }
        writer.line("### Hitch time against list size")
        writer.line("")
        let panels = plottedRates.map { rate -> Panel in
            let series = overview.map { entry -> LineSeries in
                var look = style(entry.policy)
                look.dash = Self.dash(entry.moves)
                let points = (sizesOf[SettingRate(setting: entry.setting, frameRate: rate)] ?? []).compactMap { size -> PlotPoint? in
                    guard let runs = cells[Cell(size: size, frameRate: rate, setting: entry.setting)], let y = Self.meanOfMedianHitch(runs) else {
                        return nil
                    }
                    return PlotPoint(Double(size), y)
                }
                return LineSeries(entry.policy + " " + entry.moves, style: look, points: points)
            }
            let highest = series.flatMap(\.points).map(\.y).max() ?? 0
            return Panel.line(
                LinePlot(
                    title: Self.hz(rate), xLabel: "list size (items)", yLabel: "hitch time (ms per s)", yScale: .linear, series: series,
                    referenceLines: Self.appleLines(dataMaximum: highest), xCover: sizes.map(Double.init), yCover: [0]))
        }
        var seen: Set<String> = []
        let shown = overview.map(\.policy).filter { seen.insert($0).inserted }
        var legend = shown.map { LegendEntry($0, style($0)) }
        var seenMoves: Set<String> = []
        for moves in overview.map(\.moves) where seenMoves.insert(moves).inserted {
            let word = Self.dash(moves) == nil ? "solid" : moves == "minimal" ? "dashed" : "dotted"
            legend.append(LegendEntry(word + ": " + moves, SeriesStyle(color: "#444444", dash: Self.dash(moves), marker: .none)))
        }
        let figure = Figure(
            title: "Hitch time ratio against list size, per policy and move strategy", panels: panels, columns: 2, panelWidth: 430,
            panelHeight: 290, legend: legend)
        writer.figure(
            prefix + "hitch-vs-size.svg", figure,
            caption: """
                Hitch time ratio against list size, one panel per frame rate, one line per policy and move strategy \
                (offsets solid, minimal dashed, one colour per policy), all without the reload fallback; `adaptive` with \
                its 10,000-item threshold and `coalescing` with 50 + 25 … 250 ms intervals where the file has them, \
                else the first variant it has (shown: \(overview.map { Markdown.code($0.setting.label) }.joined(separator: ", "))). \
                Each point is derived: the mean over that size's workloads (update intervals × edits per update) of \
                each run's median over its repeats. The x axis is logarithmic, the y axis linear; lower is better; \
                where two lines coincide (often `background` and `adaptive`) the later one is drawn on top, narrower. \
                \(Self.appleLinesNote)
                """)
    }

    func writeFrameRates(_ writer: inout ReportWriter) {
        let overview = overviewSettings
        guard !overview.isEmpty else { return }
        let both = frameRates == [60, 120]
        writer.line(both ? "### 60 Hz against 120 Hz" : "### Hitch time per frame rate")
        writer.line("")
        // Each overview setting at the sizes it ran (from the index: linear in the runs).
        var keyed: [(size: Int, entry: Int, row: [String])] = []
        for (index, entry) in overview.enumerated() {
            let entrySizes = Set(plottedRates.flatMap { sizesOf[SettingRate(setting: entry.setting, frameRate: $0)] ?? [] }).sorted()
            for size in entrySizes {
                let values = plottedRates.map { rate -> String in
                    cells[Cell(size: size, frameRate: rate, setting: entry.setting)].flatMap(Self.meanOfMedianHitch).map(Self.hitch) ?? "–"
                }
                guard values.contains(where: { $0 != "–" }) else { continue }
                keyed.append((size, index, [formatGrouped(size), entry.policy, entry.moves] + values))
            }
        }
        let rows = keyed.sorted { ($0.size, $0.entry) < ($1.size, $1.entry) }.map(\.row)
        let rateColumns = plottedRates.map { "hitch ms/s at " + Self.hz($0) }
        writer.line(Markdown.table(["list size", "policy", "moves"] + rateColumns, rows, rightAligned: Set([0] + (3..<(3 + plottedRates.count)))))
        writer.line(
            """
            The values plotted above: per list size and setting (no reload fallback), the mean over the size's \
            workloads of each run's median hitch time ratio over its repeats\(both ? ", at 60 and at 120 Hz" : ""). \
            A frame at 120 Hz has half the budget of one at 60 Hz (8.3 ms against 16.7 ms), so the same main-thread \
            work overruns more often. \(Self.appleNote)
            """)
        writer.line("")
    }

    // MARK: Latency against hitches

    private struct ParetoPoint {
        var setting: PolicySettingRecord
        var p99: Double
        var hitch: Double
    }

    /// The points no other point beats on both p99 latency and hitch time (lower is better on
    /// both; equal points are all kept), in ascending latency. O(n log n).
    static func paretoFront<T>(_ points: [T], x: (T) -> Double, y: (T) -> Double) -> [T] {
        let sorted = points.enumerated().filter { x($0.element).isFinite && y($0.element).isFinite }.sorted { a, b in
            (x(a.element), y(a.element), a.offset) < (x(b.element), y(b.element), b.offset)
        }.map(\.element)
        var front: [T] = []
        var best: (x: Double, y: Double)?
        for point in sorted {
            if let b = best {
                if y(point) < b.y {
                    best = (x(point), y(point))
                    front.append(point)
                } else if y(point) == b.y && x(point) == b.x {
                    front.append(point)
                }
            } else {
                best = (x(point), y(point))
                front.append(point)
            }
        }
        return front
    }

    /// One size and frame rate of the Pareto figure: its panel, the rows of its front, and the
    /// policies and move strategies it shows; `nil` when no setting there has a repeat.
    func paretoPanel(
        _ key: SizeRate, bound: Double?
    ) -> (panel: Panel, frontRows: [[String]], policies: Set<String>, moves: [String])? {
        let (size, rate) = (key.size, key.frameRate)
        let points = (settingsAt[key] ?? []).compactMap { setting -> ParetoPoint? in
            guard let runs = cells[Cell(size: size, frameRate: rate, setting: setting)], let c = Self.candidate(runs) else { return nil }
            return ParetoPoint(setting: setting, p99: c.p99, hitch: c.hitch)
        }
        guard !points.isEmpty else { return nil }
        let front = Self.paretoFront(points, x: \.p99, y: \.hitch)
        var series = [
            LineSeries(
                "Pareto front", style: SeriesStyle(color: "#000000", marker: .none, width: 1.2), points: front.map { PlotPoint($0.p99, $0.hitch) })
        ]
        var groups: [String: Int] = [:]
        var policies: Set<String> = []
        var moves: [String] = []
        for point in points {
            let group = point.setting.policy + " " + point.setting.moves
            if let index = groups[group] {
                series[index].points.append(PlotPoint(point.p99, point.hitch))
                continue
            }
            groups[group] = series.count
            var look = style(point.setting.policy)
            look.marker = Self.marker(point.setting.moves)
            series.append(LineSeries(group, style: look, points: [PlotPoint(point.p99, point.hitch)], connected: false))
            policies.insert(point.setting.policy)
            if !moves.contains(point.setting.moves) { moves.append(point.setting.moves) }
        }
        let verticals = bound.map { [VerticalReferenceLine(x: $0, label: "bound " + Self.seconds($0))] } ?? []
        let panel = Panel.line(
            LinePlot(
                title: NumberStyle.count.format(Double(size)) + " items · " + Self.hz(rate), xLabel: "p99 latency (worst workload)",
                yLabel: "hitch time (ms per s)", xScale: .log10, yScale: .linear, xStyle: .seconds, series: series,
                referenceLines: Self.appleLines(dataMaximum: points.map(\.hitch).max() ?? 0), verticalLines: verticals, yCover: [0]))
        let rows = front.map { point in
            [
                formatGrouped(size), Self.hz(rate), point.setting.label, Self.seconds(point.p99), Self.hitch(point.hitch),
                bound.map { point.p99 <= $0 ? "yes" : "no" } ?? "–",
            ]
        }
        return (panel, rows, policies, moves)
    }

    func writePareto(_ writer: inout ReportWriter) {
        writer.line("### Latency against hitches")
        writer.line("")
        let bound = results.options?.latencyBound ?? results.recommendations.first?.latencyBound
        var panels: [Panel] = []
        var frontRows: [[String]] = []
        var shownPolicies: Set<String> = []
        var shownMoves: [String] = []
        let drawn = sizeRates.filter { plottedRates.contains($0.frameRate) }
        for key in drawn.prefix(Self.maxParetoPanels) {
            guard let panel = paretoPanel(key, bound: bound) else { continue }
            panels.append(panel.panel)
            frontRows += panel.frontRows
            shownPolicies.formUnion(panel.policies)
            for moves in panel.moves where !shownMoves.contains(moves) { shownMoves.append(moves) }
        }
        guard !panels.isEmpty else {
            writer.line("No setting has a repeat to plot.")
            writer.line("")
            return
        }
        if drawn.count > Self.maxParetoPanels {
            writer.line("The file has \(drawn.count) list sizes × frame rates; the figure shows the first \(Self.maxParetoPanels).")
            writer.line("")
        }
        var legend = policies.filter(shownPolicies.contains).map { LegendEntry($0, style($0), filled: true) }
        for moves in shownMoves {
            legend.append(LegendEntry(moves, SeriesStyle(color: "#444444", marker: Self.marker(moves), width: 0)))
        }
        legend.append(LegendEntry("Pareto front", SeriesStyle(color: "#000000", marker: .none, width: 1.2)))
        let figure = Figure(
            title: "Update latency against hitch time, per setting", panels: panels, columns: max(1, min(2, frameRates.count)), panelWidth: 430,
            panelHeight: 290, legend: legend)
        writer.figure(
            prefix + "pareto.svg", figure,
            caption: """
                Every setting as one point per list size and frame rate: x is its p99 update latency (the worst \
                workload's at that size, median over the repeats; logarithmic), y its hitch time ratio (the mean over \
                the size's workloads, median over the repeats; linear) — the figures the recommendations compare. \
                Colour shows the policy, the marker the move strategy; thresholds and reload fallbacks are not told \
                apart (the table below names the settings on the front). The black line joins the Pareto front: the \
                settings no other setting beats on both latency and hitches. \
                \(bound.map { "The dotted vertical line is the latency bound (\(Self.seconds($0))); settings right of it are infeasible. " } ?? "")\
                Settings with equal figures share one point (often `background` and `adaptive`); points with zero \
                latency cannot be drawn on the log axis and are left out. \(Self.appleLinesNote)
                """)
        writer.line(
            Markdown.details(
                "Settings on the Pareto front (\(frontRows.count))",
                Markdown.table(["list size", "display", "setting", "p99 latency", "hitch ms/s", "within bound"], frontRows, rightAligned: [0, 3, 4])))
    }
}
