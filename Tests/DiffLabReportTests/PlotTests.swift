import DiffLabFormatting
import DiffLabReport
import DiffLabResults
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Whether `text` parses as XML; the parser's error otherwise.
func xmlError(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    if parser.parse() { return nil }
    return parser.parserError.map { "\($0)" } ?? "unknown XML error"
}

// MARK: - Ticks

struct LogTickCase: CustomTestStringConvertible, Sendable {
    var lower: Double
    var upper: Double
    var domain: (Double, Double)
    var major: [Double]
    var testDescription: String { "\(lower)…\(upper)" }
}

@Test(arguments: [
    // Several decades: widened to whole decades, a label per decade.
    LogTickCase(lower: 1.7e-5, upper: 0.37, domain: (1e-5, 1), major: [1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1]),
    LogTickCase(lower: 0.37, upper: 1.7e-5, domain: (1e-5, 1), major: [1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1]),
    LogTickCase(lower: 1000, upper: 1_000_000, domain: (1000, 1_000_000), major: [1000, 10000, 100_000, 1_000_000]),
    // Nine decades: a label every second decade.
    LogTickCase(lower: 1e-6, upper: 1e3, domain: (1e-6, 1e3), major: [1e-6, 1e-4, 1e-2, 1, 100]),
    // Inside one decade: the 1-2-5 sequence.
    LogTickCase(lower: 2.3, upper: 4.1, domain: (2, 5), major: [2, 5]),
    LogTickCase(lower: 1.2, upper: 9, domain: (1, 10), major: [1, 2, 5, 10]),
    LogTickCase(lower: 5, upper: 5, domain: (5, 10), major: [5, 10]),
    // Invalid input: a fallback, not a trap.
    LogTickCase(lower: -1, upper: 10, domain: (1, 10), major: [1, 10]),
    LogTickCase(lower: 0, upper: .nan, domain: (1, 10), major: [1, 10]),
])
func logTickSelection(_ c: LogTickCase) {
    let ticks = logTicks(c.lower, c.upper)
    #expect(ticks.lower == c.domain.0)
    #expect(ticks.upper == c.domain.1)
    #expect(ticks.major == c.major)
}

@Test func logMinorTicksFillDecadesAndNeverRepeatMajors() {
    let ticks = logTicks(1, 100)
    #expect(ticks.major == [1, 10, 100])
    #expect(ticks.minor == [2, 3, 4, 5, 6, 7, 8, 9, 20, 30, 40, 50, 60, 70, 80, 90])
    let wide = logTicks(1e-6, 1e3)
    #expect(wide.minor == [1e-5, 1e-3, 0.1, 10, 1e3])
    #expect(Set(wide.minor).isDisjoint(with: wide.major))
}

struct LinearTickCase: CustomTestStringConvertible, Sendable {
    var lower: Double
    var upper: Double
    var major: [Double]
    var testDescription: String { "\(lower)…\(upper)" }
}

@Test(arguments: [
    LinearTickCase(lower: 0, upper: 993.9, major: [0, 200, 400, 600, 800, 1000]),
    LinearTickCase(lower: 0.1, upper: 0.95, major: [0, 0.2, 0.4, 0.6, 0.8, 1]),
    LinearTickCase(lower: -3, upper: 7, major: [-4, -2, 0, 2, 4, 6, 8]),
    LinearTickCase(lower: 7, upper: -3, major: [-4, -2, 0, 2, 4, 6, 8]),
    LinearTickCase(lower: 5, upper: 5, major: [2, 3, 4, 5, 6, 7, 8]),
    LinearTickCase(lower: 0, upper: 0, major: [-1, -0.5, 0, 0.5, 1]),
    LinearTickCase(lower: .infinity, upper: 1, major: [0, 0.2, 0.4, 0.6, 0.8, 1]),
])
func linearTickSelection(_ c: LinearTickCase) {
    let ticks = linearTicks(c.lower, c.upper)
    #expect(ticks.major == c.major)
    #expect(ticks.lower == c.major.first)
    #expect(ticks.upper == c.major.last)
}

@Test(arguments: [(0.0, 1.0), (3.0, 17.0), (-250.0, 1e6), (1e-9, 3e-9), (12345.0, 12399.0)])
func linearTicksCoverTheDataEvenly(_ bounds: (Double, Double)) {
    let ticks = linearTicks(bounds.0, bounds.1)
    #expect(ticks.lower <= bounds.0 && ticks.upper >= bounds.1)
    #expect((3...12).contains(ticks.major.count))
    let steps = zip(ticks.major.dropFirst(), ticks.major).map { $0 - $1 }
    let step = steps[0]
    #expect(steps.allSatisfy { abs($0 - step) <= step * 1e-9 })
}

// MARK: - Coordinates

@Test func linearMappingIsAffineAndCanBeReversed() {
    let x = AxisMapping(kind: .linear, domain: 0, 10, pixels: 100, 200)
    #expect(x.position(0) == 100)
    #expect(x.position(5) == 150)
    #expect(x.position(10) == 200)
    #expect(x.position(20) == 300)  // no clamping
    let y = AxisMapping(kind: .linear, domain: 0, 10, pixels: 300, 100)
    #expect(y.position(0) == 300)
    #expect(y.position(10) == 100)
    #expect(y.position(.nan) == nil)
}

@Test func logMappingPutsEqualRatiosAtEqualDistances() throws {
    let x = AxisMapping(kind: .log10, domain: 1, 100, pixels: 0, 200)
    #expect(x.position(1) == 0)
    #expect(try abs(#require(x.position(10)) - 100) < 1e-9)
    #expect(x.position(100) == 200)
    #expect(x.position(0) == nil)
    #expect(x.position(-5) == nil)
    #expect(x.position(.infinity) == nil)
}

@Test(arguments: [ScaleKind.linear, .log10])
func degenerateDomainsFallBackInsteadOfTrapping(_ kind: ScaleKind) {
    // (-1, 0) is a valid linear domain but impossible on a log axis.
    let invalid: [(Double, Double)] = [(3, 3), (.nan, 1), (.infinity, 5)] + (kind == .log10 ? [(-1, 0)] : [])
    for (lower, upper) in invalid {
        let mapping = AxisMapping(kind: kind, domain: lower, upper, pixels: 0, 100)
        #expect(mapping.domainLower < mapping.domainUpper)
        #expect(mapping.position(kind == .log10 ? 1 : 0) == 0)
    }
}

// MARK: - Text

@Test func xmlEscapingCoversMarkupAndForbiddenCharacters() {
    #expect(xmlEscaped("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
    #expect(xmlEscaped("µs × 10\tok\n") == "µs × 10\tok\n")
    #expect(xmlEscaped("bell\u{07}nul\u{00}") == "bell\u{FFFD}nul\u{FFFD}")
    #expect(xmlEscaped("\u{FFFE}") == "\u{FFFD}")
    #expect(xmlEscaped("") == "")
}

@Test(arguments: [
    (2.5, 0, "3"), (-2.5, 0, "-3"), (-0.001, 2, "0.00"), (1234.5678, 2, "1234.57"), (0.07, 3, "0.070"), (1e300, 2, "1e+300"),
    (Double.nan, 2, "nan"), (-Double.infinity, 1, "-inf"),
])
func fixedFormatting(_ value: Double, _ decimals: Int, _ expected: String) {
    #expect(formatFixed(value, decimals: decimals) == expected)
}

@Test(arguments: [
    (0.0, "0"), (12.5, "12.5"), (-0.001, "0"), (3.14159, "3.14"), (Double.infinity, "0"), (Double.nan, "0"), (100.0, "100"),
])
func svgNumbersAreShortAndAlwaysValid(_ value: Double, _ expected: String) {
    #expect(svgNumber(value) == expected)
}

@Test(arguments: [
    (NumberStyle.seconds, 1.7365e-5, "17.4 µs"), (.seconds, 0.168, "168 ms"), (.seconds, 2.4029, "2.4 s"), (.seconds, 4.2e-9, "4.2 ns"),
    (.seconds, 0, "0 s"), (.bytes, 10240, "10 KiB"), (.bytes, 292_318_496, "279 MiB"), (.bytes, 12, "12 B"),
    (.bytes, 1536, "1.5 KiB"), (.bytes, -2048, "-2 KiB"), (.bytes, 3 * 1_073_741_824, "3 GiB"),
    (.count, 1_000_000, "1M"), (.count, 100_000, "100k"), (.count, 999, "999"), (.count, 0.1, "0.1"), (.plain, 707.223, "707"),
    (.plain, 0.012345, "0.0123"), (.plain, 1234.5, "1235"),
])
func numberStyles(_ style: NumberStyle, _ value: Double, _ expected: String) {
    #expect(style.format(value) == expected)
}

@Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1_234_567, "1,234,567"), (-1000, "-1,000")])
func groupedIntegers(_ n: Int, _ expected: String) {
    #expect(formatGrouped(n) == expected)
}

@Test(arguments: [
    (0, "1970-01-01 00:00:00 UTC"), (951_782_400, "2000-02-29 00:00:00 UTC"), (1_795_979_336, "2026-11-29 19:08:56 UTC"),
    (-1, "1969-12-31 23:59:59 UTC"),
])
func utcDates(_ seconds: Int, _ expected: String) {
    #expect(utcDateTime(seconds) == expected)
}

// MARK: - Statistics for box plots

@Test func boxSummaryInterpolatesQuartiles() throws {
    let summary = try #require(BoxSummary([4, 1, 3, 2]))
    #expect(summary.minimum == 1)
    #expect(summary.lowerQuartile == 1.75)
    #expect(summary.median == 2.5)
    #expect(summary.upperQuartile == 3.25)
    #expect(summary.maximum == 4)
    #expect(BoxSummary([]) == nil)
    #expect(BoxSummary([.nan]) == nil)
    #expect(BoxSummary([7])?.median == 7)
}

@Test func evenlyRankedKeepsExtremesAndLimit() {
    let values = (0..<200).map { Double(($0 * 37) % 200) }
    let picked = evenlyRanked(values, limit: 60)
    #expect(picked.count == 60)
    #expect(picked.first == 0)
    #expect(picked.last == 199)
    #expect(picked == picked.sorted())
    #expect(evenlyRanked([3, 1, 2], limit: 60) == [1, 2, 3])
    #expect(evenlyRanked([3, 1, 2], limit: 0) == [])
}

// MARK: - Figures

@Test func figuresAreWellFormedEvenWithHostileTextAndUndrawableData() {
    let nasty = "<title> & \"quotes\" 'apostrophes' \u{01} ]]> --"
    let style = SeriesStyle(color: "#123456", dash: "2 3")
    let figure = Figure(
        title: nasty,
        panels: [
            .line(
                LinePlot(
                    title: nasty, xLabel: nasty, yLabel: nasty,
                    series: [
                        LineSeries(nasty, style: style, points: [PlotPoint(1, 0), PlotPoint(-1, 5), PlotPoint(10, .nan), PlotPoint(100, 3)]),
                        LineSeries("empty", style: style, points: []),
                    ], referenceLines: [ReferenceLine(y: 1, label: nasty)])),
            .line(
                LinePlot(title: "nothing drawable", xLabel: "x", yLabel: "y", series: [LineSeries("zero", style: style, points: [PlotPoint(0, 0)])])),
            .bars(
                BarChart(
                    title: nasty, yLabel: "n", yScale: .log10, groups: [nasty, "b"], series: [BarSeries(nasty, style: style, values: [0, nil, 5])])),
            .bars(BarChart(title: "empty", yLabel: "n", groups: [], series: [])),
            .boxes(
                BoxPlot(
                    title: nasty, yLabel: "s",
                    boxes: [BoxSeries(nasty, style: style, values: [1, 2, 3]), BoxSeries("none", style: style, values: [])])),
        ], columns: 2, legend: [LegendEntry(nasty, style), LegendEntry("filled", style, filled: true)])
    let svg = figure.svg()
    #expect(xmlError(svg) == nil)
    #expect(!svg.contains("nan") && !svg.contains("inf"))
    #expect(svg.contains("no data"))
    #expect(svg == figure.svg())  // deterministic
}

@Test func linePlotPlacesPointsOnTheirTicks() {
    // One series on 1…100 × 1…100 log-log: the middle point must sit halfway along both axes.
    let plot = LinePlot(
        title: "t", xLabel: "x", yLabel: "y",
        series: [LineSeries("s", style: SeriesStyle(color: "#000000"), points: [PlotPoint(1, 1), PlotPoint(10, 10), PlotPoint(100, 100)])])
    var canvas = SVGCanvas()
    plot.render(&canvas, in: PlotRect(x: 0, y: 0, width: 366, height: 266))
    // Plot area: x 66…352, y 26…226 (see PlotAxes margins); midpoint (209, 126).
    #expect(canvas.elements.contains { $0.hasPrefix("<polyline points=\"66,226 209,126 352,26\"") })
}
