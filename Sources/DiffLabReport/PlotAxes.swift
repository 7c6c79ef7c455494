import DiffLabFormatting

/// The parts of a panel every plot kind shares: title, frame, numeric axes with grid lines and
/// tick labels, axis labels, and the "no data" placeholder.
struct PlotAxes {
    /// Space left of the plot area for y tick labels and the y axis label.
    static let left = 66.0
    /// Space right of the plot area.
    static let right = 14.0
    /// Space above the plot area for the title.
    static let top = 26.0
    /// Space below the plot area for x tick labels and the x axis label (numeric x axes).
    static let bottom = 40.0

    /// The plot area inside `frame` for a bottom margin of `bottom`.
    static func plotArea(_ frame: PlotRect, bottom: Double = PlotAxes.bottom) -> PlotRect {
        PlotRect(
            x: frame.x + left, y: frame.y + top, width: max(10, frame.width - left - right),
            height: max(10, frame.height - top - bottom))
    }

    /// The title centred above `plot`, shortened with "…" if it would not fit in `frame`.
    static func title(_ text: String, _ canvas: inout SVGCanvas, frame: PlotRect, plot: PlotRect) {
        canvas.text(fitted(text, width: frame.width - 8, size: 13), plot.x + plot.width / 2, frame.y + 16, anchor: .middle, className: "title")
    }

    /// `text`, cut and ended with "…" so it is at most `width` pixels wide at `size`.
    static func fitted(_ text: String, width: Double, size: Double) -> String {
        let glyphs = width / (size * 0.6)
        guard glyphs.isFinite, glyphs > 1 else { return text }
        let limit = Int(Swift.min(glyphs, 100_000))
        guard text.count > limit, limit > 1 else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// A y axis: horizontal grid lines at the ticks, labels left of the plot, the rotated axis label.
    static func yAxis(
        _ canvas: inout SVGCanvas, _ mapping: AxisMapping, _ ticks: TickSet, style: NumberStyle, label: String, frame: PlotRect, plot: PlotRect
    ) {
        for value in ticks.minor {
            guard let y = mapping.position(value) else { continue }
            canvas.line(plot.x, y, plot.maxX, y, stroke: "", className: "minor")
        }
        for value in ticks.major {
            guard let y = mapping.position(value) else { continue }
            canvas.line(plot.x, y, plot.maxX, y, stroke: "", className: "grid")
            canvas.text(style.format(value), plot.x - 5, y + 3.5, anchor: .end, className: "small")
        }
        let middle = plot.y + plot.height / 2
        canvas.text(fitted(label, width: plot.height, size: 11), frame.x + 13, middle, anchor: .middle, rotate: -90)
    }

    /// A numeric x axis: vertical grid lines at the ticks, labels below the plot, the axis label.
    static func xAxis(
        _ canvas: inout SVGCanvas, _ mapping: AxisMapping, _ ticks: TickSet, style: NumberStyle, label: String, plot: PlotRect
    ) {
        for value in ticks.minor {
            guard let x = mapping.position(value) else { continue }
            canvas.line(x, plot.y, x, plot.maxY, stroke: "", className: "minor")
        }
        for value in ticks.major {
            guard let x = mapping.position(value) else { continue }
            canvas.line(x, plot.y, x, plot.maxY, stroke: "", className: "grid")
            canvas.text(style.format(value), x, plot.maxY + 14, anchor: .middle, className: "small")
        }
        canvas.text(fitted(label, width: plot.width, size: 11), plot.x + plot.width / 2, plot.maxY + 32, anchor: .middle)
    }

    /// The plot area's outline (drawn last so it sits above grid lines).
    static func frame(_ canvas: inout SVGCanvas, plot: PlotRect) {
        canvas.rect(plot, fill: "none", className: "frame")
    }

    /// An empty panel: title, outline and "no data" in the middle.
    static func empty(_ canvas: inout SVGCanvas, title: String, frame: PlotRect) {
        let plot = plotArea(frame)
        self.title(title, &canvas, frame: frame, plot: plot)
        self.frame(&canvas, plot: plot)
        canvas.text("no data", plot.x + plot.width / 2, plot.y + plot.height / 2, anchor: .middle, className: "note")
    }

    /// Ticks for `kind` over `values` (which must be non-empty and drawable on that scale).
    static func ticks(_ kind: ScaleKind, over values: [Double]) -> TickSet {
        DiffLabReport.ticks(kind, values.min() ?? 1, values.max() ?? 10)
    }
}
