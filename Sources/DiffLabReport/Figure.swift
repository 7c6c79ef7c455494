/// One panel of a figure.
package enum Panel: Sendable, Equatable {
    case line(LinePlot)
    case bars(BarChart)
    case boxes(BoxPlot)

    /// Draws the panel into `frame`.
    func render(_ canvas: inout SVGCanvas, in frame: PlotRect) {
        switch self {
        case .line(let plot): plot.render(&canvas, in: frame)
        case .bars(let chart): chart.render(&canvas, in: frame)
        case .boxes(let plot): plot.render(&canvas, in: frame)
        }
    }
}

/// A standalone SVG figure: a heading, a shared legend, and panels laid out in a grid
/// (small multiples), left to right then top to bottom.
///
/// The legend is laid out above the panels, wrapping into as many rows as needed, so it can never
/// cover data. An empty panel list gives a figure with just the heading and legend.
package struct Figure: Sendable, Equatable {
    package var title: String
    package var panels: [Panel]
    /// Panels per row (at least 1).
    package var columns: Int
    package var panelWidth: Double
    package var panelHeight: Double
    package var legend: [LegendEntry]

    package init(title: String, panels: [Panel], columns: Int = 3, panelWidth: Double = 340, panelHeight: Double = 250, legend: [LegendEntry] = []) {
        self.title = title
        self.panels = panels
        self.columns = columns
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.legend = legend
    }

    private static let padding = 10.0

    /// The SVG document.
    /// - Complexity: linear in the size of the drawn data.
    package func svg() -> String {
        let columns = max(1, min(self.columns, max(1, panels.count)))
        let rows = (panels.count + columns - 1) / columns
        let width = Double(columns) * panelWidth + 2 * Figure.padding
        var canvas = SVGCanvas()
        canvas.text(PlotAxes.fitted(title, width: width - 20, size: 15), Figure.padding, 24, className: "heading")

        // Legend rows.
        var x = Figure.padding
        var y = 46.0
        if !legend.isEmpty {
            for entry in legend {
                let entryWidth = 30 + SVGCanvas.textWidth(entry.label, size: 11) + 16
                if x + entryWidth > width - Figure.padding && x > Figure.padding {
                    x = Figure.padding
                    y += 18
                }
                let style = entry.style
                if entry.filled {
                    canvas.rect(PlotRect(x: x + 6, y: y - 9, width: 14, height: 10), fill: style.color)
                } else {
                    canvas.line(x, y - 4, x + 26, y - 4, stroke: style.color, width: style.width, dash: style.dash)
                    canvas.marker(style.marker, x + 13, y - 4, color: style.color)
                }
                canvas.text(entry.label, x + 30, y)
                x += entryWidth
            }
            y += 10
        } else {
            y = 34
        }

        for (index, panel) in panels.enumerated() {
            let frame = PlotRect(
                x: Figure.padding + Double(index % columns) * panelWidth, y: y + Double(index / columns) * panelHeight,
                width: panelWidth, height: panelHeight)
            panel.render(&canvas, in: frame)
        }
        let height = y + Double(rows) * panelHeight + Figure.padding
        return canvas.document(width: width, height: height, title: title)
    }
}
