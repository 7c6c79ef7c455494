import DiffLabFormatting

// SVG coordinates. The numbers of axis labels and markdown tables are DiffLabResults' formatters
// (Formatting.swift), shared with the gate, the benchmark and the command line.

/// A coordinate or length for SVG markup: at most two decimals, trailing zeros dropped
/// (`12.5`, `3`, `-0.25`); non-finite values become `0` so the markup stays valid.
/// - Complexity: O(1).
package func svgNumber(_ x: Double) -> String {
    guard x.isFinite else { return "0" }
    return trimmingZeros(formatFixed(x, decimals: 2))
}
