import DiffLabPlatform

/// Maps data values on one axis to pixel positions.
///
/// `pixelStart` is where ``domainLower`` lands and `pixelEnd` where ``domainUpper`` lands; for a
/// y axis pass the bottom edge as start and the top edge as end (SVG's y grows downwards).
package struct AxisMapping: Sendable, Equatable {
    /// Linear or log.
    package var kind: ScaleKind
    /// The data value drawn at ``pixelStart``.
    package var domainLower: Double
    /// The data value drawn at ``pixelEnd``.
    package var domainUpper: Double
    /// Pixel position of ``domainLower``.
    package var pixelStart: Double
    /// Pixel position of ``domainUpper``.
    package var pixelEnd: Double

    /// A mapping. A degenerate or invalid domain (equal bounds, non-finite, or non-positive on a
    /// log axis) is replaced by `0...1` (linear) or `1...10` (log) rather than trapping.
    package init(kind: ScaleKind, domain lower: Double, _ upper: Double, pixels start: Double, _ end: Double) {
        self.kind = kind
        var lower = lower
        var upper = upper
        let invalid = !lower.isFinite || !upper.isFinite || lower == upper || (kind == .log10 && (lower <= 0 || upper <= 0))
        if invalid {
            lower = kind == .log10 ? 1 : 0
            upper = kind == .log10 ? 10 : 1
        }
        self.domainLower = lower
        self.domainUpper = upper
        self.pixelStart = start
        self.pixelEnd = end
    }

    /// The pixel position of `value`, or `nil` when it cannot be drawn (non-finite, not positive
    /// on a log axis, or so far outside the domain that its position overflows). Values outside
    /// the domain map outside the pixel range (no clamping). Total: never traps, never returns a
    /// non-finite position, for any domain and value.
    /// - Complexity: O(1).
    package func position(_ value: Double) -> Double? {
        guard value.isFinite else { return nil }
        let t: Double
        switch kind {
        case .linear:
            let span = domainUpper - domainLower
            // A domain wider than Double's range (-1e308…1e308) overflows `span`; halving every
            // term first cannot, and keeps the ratio.
            t = span.isFinite ? (value - domainLower) / span : (value / 2 - domainLower / 2) / (domainUpper / 2 - domainLower / 2)
        case .log10:
            guard value > 0 else { return nil }
            t = (Double.log10(value) - Double.log10(domainLower)) / (Double.log10(domainUpper) - Double.log10(domainLower))
        }
        let position = pixelStart + t * (pixelEnd - pixelStart)
        return position.isFinite ? position : nil
    }

    /// Whether `value` can be placed on this axis (finite, and positive on a log axis).
    package func accepts(_ value: Double) -> Bool { position(value) != nil }
}
