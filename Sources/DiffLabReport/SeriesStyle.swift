/// A point marker shape.
package enum MarkerShape: Sendable, Equatable {
    case none, circle, square, triangle, diamond
}

/// How one data series is drawn: colour, dash pattern and marker. Shared by line plots, bars,
/// boxes and legends so a series looks the same everywhere.
package struct SeriesStyle: Sendable, Equatable {
    /// A CSS colour, e.g. `#0072B2`.
    package var color: String
    /// An SVG `stroke-dasharray` such as `"6 3"`, or `nil` for a solid line.
    package var dash: String?
    /// The point marker.
    package var marker: MarkerShape
    /// Line width in pixels.
    package var width: Double

    package init(color: String, dash: String? = nil, marker: MarkerShape = .circle, width: Double = 1.8) {
        self.color = color
        self.dash = dash
        self.marker = marker
        self.width = width
    }

    /// The Okabe–Ito colour-blind-safe palette (black omitted), for series without a fixed colour.
    package static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442"]

    /// Markers cycled alongside ``palette``, so series stay distinguishable in greyscale.
    package static let markers: [MarkerShape] = [.circle, .square, .triangle, .diamond]

    /// The `index`-th automatic style (cycles; negative indices are treated as 0).
    package static func automatic(_ index: Int) -> SeriesStyle {
        let i = Swift.max(0, index)
        return SeriesStyle(color: palette[i % palette.count], marker: markers[i % markers.count])
    }
}

/// One entry in a figure's legend.
package struct LegendEntry: Sendable, Equatable {
    /// The label.
    package var label: String
    /// The appearance shown beside it.
    package var style: SeriesStyle
    /// Draw a filled swatch (bars, boxes) instead of a line sample.
    package var filled: Bool

    package init(_ label: String, _ style: SeriesStyle, filled: Bool = false) {
        self.label = label
        self.style = style
        self.filled = filled
    }
}
