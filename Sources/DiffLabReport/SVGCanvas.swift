import DiffLabResults

/// A rectangle in SVG user units (pixels).
package struct PlotRect: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge.
    package var maxX: Double { x + width }
    /// The bottom edge.
    package var maxY: Double { y + height }
}

/// How a text anchors horizontally at its x coordinate.
package enum TextAnchor: String, Sendable {
    case start, middle, end
}

/// Accumulates SVG elements as text; ``document(width:height:)`` wraps them in an `<svg>` root.
///
/// Every string that reaches the markup goes through ``xmlEscaped(_:)`` and every number through
/// ``svgNumber(_:)``, so the output is well-formed and byte-for-byte deterministic. Appearance is
/// shared through a small stylesheet (classes `frame`, `grid`, `axis`, `t`, `title`, …) to keep
/// files small.
package struct SVGCanvas: Sendable {
    /// The elements so far, one per line.
    package private(set) var elements: [String] = []

    package init() {}

    /// An average glyph width for `size`-pixel sans-serif text, used to lay out legends and labels
    /// without font metrics (deliberately generous so text does not overlap).
    package static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }

    /// Appends raw, already well-formed markup (for internal use by plots).
    mutating func raw(_ markup: String) { elements.append(markup) }

    /// A straight line.
    package mutating func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1, dash: String? = nil,
        className: String? = nil
    ) {
        var markup = "<line x1=\"\(svgNumber(x1))\" y1=\"\(svgNumber(y1))\" x2=\"\(svgNumber(x2))\" y2=\"\(svgNumber(y2))\""
        markup += attributes(className: className, stroke: stroke, width: width, dash: dash)
        elements.append(markup + "/>")
    }

    /// A line through `points` (nothing is drawn for fewer than two points).
    package mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 1.5, dash: String? = nil) {
        guard points.count >= 2 else { return }
        let coordinates = points.map { "\(svgNumber($0.0)),\(svgNumber($0.1))" }.joined(separator: " ")
        elements.append(
            "<polyline points=\"\(coordinates)\" fill=\"none\"" + attributes(className: nil, stroke: stroke, width: width, dash: dash)
                + "/>")
    }

    /// A rectangle.
    package mutating func rect(_ r: PlotRect, fill: String, stroke: String? = nil, opacity: Double? = nil, className: String? = nil) {
        var markup = "<rect x=\"\(svgNumber(r.x))\" y=\"\(svgNumber(r.y))\" width=\"\(svgNumber(max(0, r.width)))\""
        markup += " height=\"\(svgNumber(max(0, r.height)))\" fill=\"\(xmlEscaped(fill))\""
        if let stroke { markup += " stroke=\"\(xmlEscaped(stroke))\"" }
        if let opacity { markup += " fill-opacity=\"\(svgNumber(opacity))\"" }
        if let className { markup += " class=\"\(xmlEscaped(className))\"" }
        elements.append(markup + "/>")
    }

    /// A point marker of `shape` centred on (`x`, `y`).
    package mutating func marker(_ shape: MarkerShape, _ x: Double, _ y: Double, size: Double = 3.2, color: String, opacity: Double? = nil) {
        let fill = "fill=\"\(xmlEscaped(color))\"" + (opacity.map { " fill-opacity=\"\(svgNumber($0))\"" } ?? "")
        switch shape {
        case .none:
            return
        case .circle:
            elements.append("<circle cx=\"\(svgNumber(x))\" cy=\"\(svgNumber(y))\" r=\"\(svgNumber(size))\" \(fill)/>")
        case .square:
            let s = size * 1.8
            elements.append(
                "<rect x=\"\(svgNumber(x - s / 2))\" y=\"\(svgNumber(y - s / 2))\" width=\"\(svgNumber(s))\" height=\"\(svgNumber(s))\" \(fill)/>"
            )
        case .triangle:
            let h = size * 1.2
            let points = [(x, y - h), (x + h, y + h * 0.8), (x - h, y + h * 0.8)]
            elements.append("<polygon points=\"\(pointList(points))\" \(fill)/>")
        case .diamond:
            let h = size * 1.3
            let points = [(x, y - h), (x + h, y), (x, y + h), (x - h, y)]
            elements.append("<polygon points=\"\(pointList(points))\" \(fill)/>")
        }
    }

    /// Text at (`x`, `y`) (the baseline), optionally rotated by `rotate` degrees about that point.
    package mutating func text(
        _ string: String, _ x: Double, _ y: Double, anchor: TextAnchor = .start, size: Double? = nil, rotate: Double? = nil,
        className: String = "t", color: String? = nil
    ) {
        var markup = "<text x=\"\(svgNumber(x))\" y=\"\(svgNumber(y))\" class=\"\(xmlEscaped(className))\""
        if anchor != .start { markup += " text-anchor=\"\(anchor.rawValue)\"" }
        if let size { markup += " font-size=\"\(svgNumber(size))\"" }
        if let color { markup += " fill=\"\(xmlEscaped(color))\"" }
        if let rotate { markup += " transform=\"rotate(\(svgNumber(rotate)) \(svgNumber(x)) \(svgNumber(y)))\"" }
        elements.append(markup + ">\(xmlEscaped(string))</text>")
    }

    /// Opens a group translated by (`dx`, `dy`); close it with ``endGroup()``.
    package mutating func beginGroup(dx: Double, dy: Double) {
        elements.append("<g transform=\"translate(\(svgNumber(dx)),\(svgNumber(dy)))\">")
    }

    /// Opens a group whose `<title>` is `title` (a tooltip for everything drawn in it, and its
    /// accessible name); close it with ``endGroup()``. The caller bounds the title's length.
    package mutating func beginGroup(title: String) {
        elements.append("<g><title>\(xmlEscaped(title))</title>")
    }

    /// Closes the innermost group.
    package mutating func endGroup() { elements.append("</g>") }

    /// A complete standalone SVG document of `width` × `height` with a white background, an
    /// accessible `<title>` and the shared stylesheet.
    package func document(width: Double, height: Double, title: String) -> String {
        let w = svgNumber(width)
        let h = svgNumber(height)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" role=\"img\">",
            "<title>\(xmlEscaped(title))</title>",
            "<style>" + SVGCanvas.stylesheet + "</style>",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
        ]
        lines.append(contentsOf: elements)
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Shared appearance; plain CSS that browsers, GitHub and librsvg all understand.
    static let stylesheet =
        "text{font-family:Helvetica,Arial,sans-serif;fill:#222222}"
        + ".t{font-size:11px}.small{font-size:10px;fill:#444444}.title{font-size:13px;font-weight:bold}"
        + ".heading{font-size:15px;font-weight:bold}.note{font-size:11px;fill:#666666;font-style:italic}"
        + ".frame{fill:none;stroke:#888888}.grid{stroke:#e4e4e4}.minor{stroke:#f2f2f2}.axis{stroke:#888888}"

    private func attributes(className: String?, stroke: String, width: Double, dash: String?) -> String {
        var markup = ""
        if let className { markup += " class=\"\(xmlEscaped(className))\"" }
        // An empty stroke leaves the colour to the class's stylesheet rule.
        if !stroke.isEmpty { markup += " stroke=\"\(xmlEscaped(stroke))\"" }
        if width != 1 { markup += " stroke-width=\"\(svgNumber(width))\"" }
        if let dash { markup += " stroke-dasharray=\"\(xmlEscaped(dash))\"" }
        return markup
    }

    private func pointList(_ points: [(Double, Double)]) -> String {
        points.map { "\(svgNumber($0.0)),\(svgNumber($0.1))" }.joined(separator: " ")
    }
}
