/// A point marker shape.
public enum MarkerShape: Sendable, Equatable {
    case none, circle, square, triangle, diamond
}

/// How one data series is drawn: colour, dash pattern and marker. Shared by line plots, bars,
/// boxes and legends so a series looks the same everywhere.
public struct SeriesStyle: Sendable, Equatable {
    /// A CSS colour, e.g. `#0072B2`.
    public var color: String
    /// An SVG `stroke-dasharray` such as `"6 3"`, or `nil` for a solid line.
    public var dash: String?
    /// The point marker.
    public var marker: MarkerShape
    /// Line width in pixels.
    public var width: Double

    public init(color: String, dash: String? = nil, marker: MarkerShape = .circle, width: Double = 1.8) {
        self.color = color
        self.dash = dash
        self.marker = marker
        self.width = width
    }

    /// The Okabe–Ito colour-blind-safe palette (black omitted), for series without a fixed colour.
    public static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442"]

    /// Markers cycled alongside ``palette``, so series stay distinguishable in greyscale.
    public static let markers: [MarkerShape] = [.circle, .square, .triangle, .diamond]

    /// The `index`-th automatic style (cycles; negative indices are treated as 0).
    public static func automatic(_ index: Int) -> SeriesStyle {
        let i = Swift.max(0, index)
        return SeriesStyle(color: palette[i % palette.count], marker: markers[i % markers.count])
    }
}

/// One entry in a figure's legend.
public struct LegendEntry: Sendable, Equatable {
    /// The label.
    public var label: String
    /// The appearance shown beside it.
    public var style: SeriesStyle
    /// Draw a filled swatch (bars, boxes) instead of a line sample.
    public var filled: Bool

    public init(_ label: String, _ style: SeriesStyle, filled: Bool = false) {
        self.label = label
        self.style = style
        self.filled = filled
    }
}
