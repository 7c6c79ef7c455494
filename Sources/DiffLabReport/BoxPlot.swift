import DiffLabCore
import DiffLabFormatting

/// The five-number summary of a sample: minimum, quartiles, median, maximum.
///
/// Quartiles use linear interpolation between order statistics (the "type 7" definition used by
/// R and NumPy by default): the p-quantile of sorted values v₀…vₙ₋₁ is at rank p·(n−1).
package struct BoxSummary: Sendable, Equatable {
    package var minimum: Double
    package var lowerQuartile: Double
    package var median: Double
    package var upperQuartile: Double
    package var maximum: Double
    /// How many finite values were summarised.
    package var count: Int

    /// The summary of the finite values in `values`, or `nil` if there are none.
    /// - Complexity: O(n log n).
    package init?(_ values: [Double]) {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return nil }
        func quantile(_ p: Double) -> Double {
            let rank = p * Double(sorted.count - 1)
            let below = Int(rank.rounded(.down))
            let above = Swift.min(below + 1, sorted.count - 1)
            let fraction = rank - Double(below)
            let gap = sorted[above] - sorted[below]
            // A gap wider than Double's range (-1e308 to 1e308) overflows; weighting the two
            // values instead cannot (and gives the same quantile up to rounding).
            return gap.isFinite ? sorted[below] + gap * fraction : sorted[below] * (1 - fraction) + sorted[above] * fraction
        }
        minimum = sorted[0]
        lowerQuartile = quantile(0.25)
        // DiffLab's one median (the same value as the type-7 quantile at 0.5, up to rounding).
        median = DiffLabCore.median(sorted) ?? quantile(0.5)
        upperQuartile = quantile(0.75)
        maximum = sorted[sorted.count - 1]
        count = sorted.count
    }
}

/// At most `limit` values of `values`, chosen at evenly spaced ranks of the sorted sample, so the
/// minimum and maximum are always kept and the shape of the distribution is preserved. Returns
/// all values (sorted) when there are no more than `limit`; an empty array for `limit < 1`.
/// - Complexity: O(n log n).
package func evenlyRanked(_ values: [Double], limit: Int) -> [Double] {
    let sorted = values.filter(\.isFinite).sorted()
    guard limit >= 1 else { return [] }
    guard sorted.count > limit else { return sorted }
    guard limit > 1 else { return [sorted[sorted.count / 2]] }
    return (0..<limit).map { i in
        sorted[Int((Double(i) * Double(sorted.count - 1) / Double(limit - 1)).rounded())]
    }
}

/// One box of a box plot: a named sample.
package struct BoxSeries: Sendable, Equatable {
    package var name: String
    package var style: SeriesStyle
    /// The full sample (the box and whiskers summarise all of it).
    package var values: [Double]

    package init(_ name: String, style: SeriesStyle, values: [Double]) {
        self.name = name
        self.style = style
        self.values = values
    }
}

/// A box plot panel with a strip of the individual samples beside each box.
///
/// Boxes span the quartiles with a line at the median; whiskers reach the minimum and maximum
/// (no outlier rule: the strip shows every drawn point). The strip shows at most ``stripLimit``
/// points per box, picked by ``evenlyRanked(_:limit:)``, spread sideways by a fixed
/// (golden-ratio) sequence so the output is deterministic. Values that cannot be drawn on the y
/// scale are left out; a box with no drawable values shows "–".
package struct BoxPlot: Sendable, Equatable {
    package var title: String
    package var yLabel: String
    package var yScale: ScaleKind
    package var yStyle: NumberStyle
    package var boxes: [BoxSeries]
    /// The most strip points drawn per box.
    package var stripLimit: Int

    package init(title: String, yLabel: String, yScale: ScaleKind = .log10, yStyle: NumberStyle = .seconds, boxes: [BoxSeries], stripLimit: Int = 60)
    {
        self.title = title
        self.yLabel = yLabel
        self.yScale = yScale
        self.yStyle = yStyle
        self.boxes = boxes
        self.stripLimit = stripLimit
    }

    /// Draws the panel into `frame` on `canvas`.
    /// - Complexity: O(n log n) in the total number of samples.
    package func render(_ canvas: inout SVGCanvas, in frame: PlotRect) {
        let probe = AxisMapping(kind: yScale, domain: 1, 10, pixels: 0, 1)
        let drawable = boxes.map { $0.values.filter { probe.accepts($0) } }
        let all = drawable.flatMap { $0 }
        guard !all.isEmpty else {
            PlotAxes.empty(&canvas, title: title, frame: frame)
            return
        }
        let labels = boxes.map(\.name)
        let longest = labels.map { SVGCanvas.textWidth($0, size: 10) }.max() ?? 0
        let plot = PlotAxes.plotArea(frame, bottom: 16 + longest * 0.6)
        let yTicks = PlotAxes.ticks(yScale, over: all)
        let y = AxisMapping(kind: yScale, domain: yTicks.lower, yTicks.upper, pixels: plot.maxY, plot.y)

        PlotAxes.title(title, &canvas, frame: frame, plot: plot)
        PlotAxes.yAxis(&canvas, y, yTicks, style: yStyle, label: yLabel, frame: frame, plot: plot)
        let slot = plot.width / Double(boxes.count)
        for (index, box) in boxes.enumerated() {
            let center = plot.x + (Double(index) + 0.5) * slot
            canvas.text(box.name, center + 3, plot.maxY + 12, anchor: .end, size: 10, rotate: -35, className: "small")
            guard let summary = BoxSummary(drawable[index]),
                let low = y.position(summary.minimum), let q1 = y.position(summary.lowerQuartile),
                let median = y.position(summary.median), let q3 = y.position(summary.upperQuartile),
                let high = y.position(summary.maximum)
            else {
                canvas.text("–", center, plot.maxY - 4, anchor: .middle, className: "small")
                continue
            }
            let boxWidth = min(28, slot * 0.35)
            let boxLeft = center - boxWidth - 2
            let whiskerX = boxLeft + boxWidth / 2
            let color = box.style.color
            canvas.line(whiskerX, high, whiskerX, q3, stroke: color)
            canvas.line(whiskerX, q1, whiskerX, low, stroke: color)
            canvas.line(whiskerX - boxWidth / 4, high, whiskerX + boxWidth / 4, high, stroke: color)
            canvas.line(whiskerX - boxWidth / 4, low, whiskerX + boxWidth / 4, low, stroke: color)
            canvas.rect(PlotRect(x: boxLeft, y: q3, width: boxWidth, height: q1 - q3), fill: color, stroke: color, opacity: 0.25)
            canvas.line(boxLeft, median, boxLeft + boxWidth, median, stroke: color, width: 2)
            // The strip: right of the box, spread over a band of the slot.
            let band = min(30, slot * 0.4)
            for (i, value) in evenlyRanked(drawable[index], limit: stripLimit).enumerated() {
                guard let py = y.position(value) else { continue }
                let jitter = (Double(i) * 0.6180339887498949).truncatingRemainder(dividingBy: 1)
                canvas.marker(.circle, center + 4 + jitter * band, py, size: 1.8, color: color, opacity: 0.55)
            }
        }
        PlotAxes.frame(&canvas, plot: plot)
    }
}
