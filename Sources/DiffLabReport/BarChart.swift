import DiffLabFormatting

/// One series of a grouped bar chart: a value per group, or `nil` where there is none.
package struct BarSeries: Sendable, Equatable {
    package var name: String
    package var style: SeriesStyle
    /// One entry per group of the chart, in group order; missing trailing entries count as `nil`.
    package var values: [Double?]

    package init(_ name: String, style: SeriesStyle, values: [Double?]) {
        self.name = name
        self.style = style
        self.values = values
    }
}

/// A grouped bar chart panel: one cluster per group (category), one bar per series in it.
///
/// Group labels are drawn rotated below the axis. On a log y axis a bar grows from the bottom of
/// the domain; a value of 0 (not drawable on a log axis) is marked with the text "0" at the
/// baseline, and a `nil` value with "–", so absence and zero stay distinguishable from tiny
/// values. Negative values on a log axis are also shown as "–".
package struct BarChart: Sendable, Equatable {
    package var title: String
    package var yLabel: String
    package var yScale: ScaleKind
    package var yStyle: NumberStyle
    package var groups: [String]
    package var series: [BarSeries]

    package init(title: String, yLabel: String, yScale: ScaleKind = .linear, yStyle: NumberStyle = .plain, groups: [String], series: [BarSeries]) {
        self.title = title
        self.yLabel = yLabel
        self.yScale = yScale
        self.yStyle = yStyle
        self.groups = groups
        self.series = series
    }

    /// The space below the plot needed for the rotated group labels.
    var bottomMargin: Double {
        let longest = groups.map { SVGCanvas.textWidth($0, size: 10) }.max() ?? 0
        return 16 + longest * 0.6
    }

    /// Draws the panel into `frame` on `canvas`.
    /// - Complexity: O(groups × series).
    package func render(_ canvas: inout SVGCanvas, in frame: PlotRect) {
        let probe = AxisMapping(kind: yScale, domain: 1, 10, pixels: 0, 1)
        let values = series.flatMap { $0.values.compactMap { $0 } }.filter { probe.accepts($0) }
        guard !groups.isEmpty, !series.isEmpty, !values.isEmpty || yScale == .linear else {
            PlotAxes.empty(&canvas, title: title, frame: frame)
            return
        }
        let plot = PlotAxes.plotArea(frame, bottom: bottomMargin)
        let yTicks = PlotAxes.ticks(yScale, over: yScale == .linear ? values + [0] : values)
        let y = AxisMapping(kind: yScale, domain: yTicks.lower, yTicks.upper, pixels: plot.maxY, plot.y)
        let baseline = yScale == .linear ? (y.position(0) ?? plot.maxY) : plot.maxY

        PlotAxes.title(title, &canvas, frame: frame, plot: plot)
        PlotAxes.yAxis(&canvas, y, yTicks, style: yStyle, label: yLabel, frame: frame, plot: plot)
        let groupWidth = plot.width / Double(groups.count)
        let barWidth = groupWidth * 0.8 / Double(series.count)
        for (g, group) in groups.enumerated() {
            let left = plot.x + Double(g) * groupWidth + groupWidth * 0.1
            for (s, bar) in series.enumerated() {
                let x = left + Double(s) * barWidth
                let value = g < bar.values.count ? bar.values[g] : nil
                guard let value, let top = y.position(value) else {
                    let mark = value == 0 ? "0" : "–"
                    canvas.text(mark, x + barWidth / 2, baseline - 3, anchor: .middle, size: 9, className: "small")
                    continue
                }
                let rect = PlotRect(x: x + 0.5, y: min(top, baseline), width: max(1, barWidth - 1), height: abs(baseline - top))
                canvas.rect(rect, fill: bar.style.color)
            }
            let center = plot.x + (Double(g) + 0.5) * groupWidth
            canvas.text(group, center + 3, plot.maxY + 12, anchor: .end, size: 10, rotate: -35, className: "small")
        }
        PlotAxes.frame(&canvas, plot: plot)
    }
}
