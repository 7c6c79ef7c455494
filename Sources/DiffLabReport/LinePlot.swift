import DiffLabFormatting

/// One (x, y) data point.
package struct PlotPoint: Sendable, Equatable {
    package var x: Double
    package var y: Double

    package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// A named series of points drawn as a line with markers (or, unconnected, as a scatter of markers).
package struct LineSeries: Sendable, Equatable {
    /// The legend label.
    package var name: String
    /// The appearance.
    package var style: SeriesStyle
    /// The points; drawn in ascending x order, joined by straight segments when ``connected``.
    package var points: [PlotPoint]
    /// Whether the points are joined by a line; `false` draws only the markers (a scatter plot).
    package var connected: Bool

    package init(_ name: String, style: SeriesStyle, points: [PlotPoint], connected: Bool = true) {
        self.name = name
        self.style = style
        self.points = points
        self.connected = connected
    }
}

/// A horizontal reference line at a fixed y value (e.g. "ratio 1"), dotted, labelled at its right
/// end unless the label is empty (then explain it in the legend or caption instead).
package struct ReferenceLine: Sendable, Equatable {
    package var y: Double
    package var label: String

    package init(y: Double, label: String) {
        self.y = y
        self.label = label
    }
}

/// A vertical reference line at a fixed x value (e.g. a bound), dotted, labelled at its top end
/// unless the label is empty.
package struct VerticalReferenceLine: Sendable, Equatable {
    package var x: Double
    package var label: String

    package init(x: Double, label: String) {
        self.x = x
        self.label = label
    }
}

/// A line/scatter plot panel with linear or log10 axes.
///
/// Axis domains come from the data (and reference lines, ``xCover`` and ``yCover``) through ``ticks(_:_:_:)``, so every point
/// is inside the frame. Points that cannot be drawn — non-finite values, or values ≤ 0 on a log
/// axis — are left out silently (callers that need to say so must say so in their captions);
/// a series with one drawable point shows just its marker; a panel with no drawable point shows
/// "no data".
package struct LinePlot: Sendable, Equatable {
    package var title: String
    package var xLabel: String
    package var yLabel: String
    package var xScale: ScaleKind
    package var yScale: ScaleKind
    package var xStyle: NumberStyle
    package var yStyle: NumberStyle
    package var series: [LineSeries]
    package var referenceLines: [ReferenceLine]
    /// x values the axis must cover even without data there (e.g. every size measured, so the
    /// panels of a figure share one x range); values not drawable on the x scale are ignored.
    package var xCover: [Double]
    /// Vertical reference lines; the x axis is widened to include them (those not drawable on
    /// the x scale are left out).
    package var verticalLines: [VerticalReferenceLine]
    /// y values the axis must cover even without data there (e.g. 0, so a linear axis starts at
    /// zero); values not drawable on the y scale are ignored.
    package var yCover: [Double]

    package init(
        title: String, xLabel: String, yLabel: String, xScale: ScaleKind = .log10, yScale: ScaleKind = .log10,
        xStyle: NumberStyle = .count, yStyle: NumberStyle = .plain, series: [LineSeries], referenceLines: [ReferenceLine] = [],
        xCover: [Double] = [], verticalLines: [VerticalReferenceLine] = [], yCover: [Double] = []
    ) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xScale = xScale
        self.yScale = yScale
        self.xStyle = xStyle
        self.yStyle = yStyle
        self.series = series
        self.referenceLines = referenceLines
        self.xCover = xCover
        self.verticalLines = verticalLines
        self.yCover = yCover
    }

    /// Draws the panel into `frame` on `canvas`.
    /// - Complexity: O(points + ticks).
    package func render(_ canvas: inout SVGCanvas, in frame: PlotRect) {
        let probeX = AxisMapping(kind: xScale, domain: 1, 10, pixels: 0, 1)
        let probeY = AxisMapping(kind: yScale, domain: 1, 10, pixels: 0, 1)
        let drawable = series.map { s in
            s.points.filter { probeX.accepts($0.x) && probeY.accepts($0.y) }.sorted { $0.x < $1.x }
        }
        let all = drawable.flatMap { $0 }
        guard !all.isEmpty else {
            PlotAxes.empty(&canvas, title: title, frame: frame)
            return
        }
        let references = referenceLines.filter { probeY.accepts($0.y) }
        let verticals = verticalLines.filter { probeX.accepts($0.x) }
        let plot = PlotAxes.plotArea(frame)
        let xTicks = PlotAxes.ticks(xScale, over: all.map(\.x) + xCover.filter { probeX.accepts($0) } + verticals.map(\.x))
        let yTicks = PlotAxes.ticks(yScale, over: all.map(\.y) + references.map(\.y) + yCover.filter { probeY.accepts($0) })
        let x = AxisMapping(kind: xScale, domain: xTicks.lower, xTicks.upper, pixels: plot.x, plot.maxX)
        let y = AxisMapping(kind: yScale, domain: yTicks.lower, yTicks.upper, pixels: plot.maxY, plot.y)

        PlotAxes.title(title, &canvas, frame: frame, plot: plot)
        PlotAxes.yAxis(&canvas, y, yTicks, style: yStyle, label: yLabel, frame: frame, plot: plot)
        PlotAxes.xAxis(&canvas, x, xTicks, style: xStyle, label: xLabel, plot: plot)
        for reference in references {
            guard let position = y.position(reference.y) else { continue }
            canvas.line(plot.x, position, plot.maxX, position, stroke: "#444444", width: 1, dash: "2 3")
            if !reference.label.isEmpty {
                canvas.text(reference.label, plot.maxX - 3, position - 3, anchor: .end, className: "small")
            }
        }
        for vertical in verticals {
            guard let position = x.position(vertical.x) else { continue }
            canvas.line(position, plot.y, position, plot.maxY, stroke: "#444444", width: 1, dash: "2 3")
            if !vertical.label.isEmpty {
                // Beside the line, on the side with more room, so the label stays inside the plot.
                let right = position < plot.x + plot.width / 2
                canvas.text(vertical.label, right ? position + 3 : position - 3, plot.y + 11, anchor: right ? .start : .end, className: "small")
            }
        }
        for (index, points) in drawable.enumerated() {
            let style = series[index].style
            let coordinates = points.compactMap { p -> (Double, Double)? in
                guard let px = x.position(p.x), let py = y.position(p.y) else { return nil }
                return (px, py)
            }
            if series[index].connected { canvas.polyline(coordinates, stroke: style.color, width: style.width, dash: style.dash) }
            for (px, py) in coordinates { canvas.marker(style.marker, px, py, color: style.color) }
        }
        PlotAxes.frame(&canvas, plot: plot)
    }
}
