import DiffLabCore
import DiffLabJSON
import DiffLabReport
import DiffLabResults
import Testing

// The report section of a `difflab-policy/2` file (the policy lab's scenario grid), from a small
// synthetic grid: 2 sizes × 2 frame rates × 2 workloads, main and background × offsets and
// minimal (plus one setting with a reload fallback, which the overview must leave out), 3 repeats.

private let mainOffsets = PolicySetting(policy: .main, moves: .offsets)
private let mainMinimal = PolicySetting(policy: .main, moves: .minimal)
private let backgroundOffsets = PolicySetting(policy: .background, moves: .offsets)
private let backgroundMinimal = PolicySetting(policy: .background, moves: .minimal)
private let backgroundReload = PolicySetting(policy: .background, moves: .offsets, reloadThreshold: 100)

/// Hitch per repeat: `base + 2·workload + [0.5, 1, 0][repeat]`, so the median over the repeats is
/// `base + 2·workload + 0.5` and the mean of those over the two workloads `base + 1.5`.
/// `main`: base = size/1000 × rate/60 (× 1.5 for minimal); background 0.5 (1.0 with the fallback).
private func base(_ setting: PolicySetting, size: Int, rate: Double) -> Double {
    guard setting.policy == .main else { return setting.reloadThreshold == nil ? 0.5 : 1.0 }
    return Double(size / 1000) * (rate / 60) * (setting.moves == .minimal ? 1.5 : 1)
}

/// p99 latency per repeat: `start + 0.01·workload + 0.001·repeat` (main 0.02, +0.005 for minimal;
/// background 0.05), so the worst workload's median over the repeats is `start + 0.011`.
private func latencyStart(_ setting: PolicySetting) -> Double {
    setting.policy == .main ? (setting.moves == .minimal ? 0.025 : 0.02) : 0.05
}

private func candidate(
    _ setting: PolicySetting, _ hitch: Double, _ low: Double, _ high: Double, _ p99: Double, dropped: Int = 0
) -> PolicyCandidateRow {
    PolicyCandidateRow(setting: setting, hitchTimeRatio: hitch, hitchLow: low, hitchHigh: high, latencyP99: p99, dropped: dropped)
}

func syntheticGrid() -> PolicyGridResults {
    var results = PolicyGridResults(source: "grid.json")
    results.provenance.createdAt = 1_795_977_384
    results.provenance.machine = [DisplayField(name: "hostname", value: "grid-box")]
    results.provenance.toolchain = "Swift version 6.3.1"
    results.provenance.commit = "def456"
    results.options = PolicyGridOptions(duration: 3, drainSeconds: 1, repeats: 3, latencyBound: 0.1, engine: "hashmap", quick: true)
    var costs = PolicyCostsRecord()
    costs.applyBaseCost = 0.0005
    costs.batchCostPerChange = 0.000003
    costs.reloadCostPerItem = 0.0000002
    costs.frameWork = 0.004
    costs.device = "iPhone 12 (assumed)"
    costs.source = "defaults"
    results.costs = costs
    let settings = [mainOffsets, mainMinimal, backgroundOffsets, backgroundMinimal, backgroundReload]
    for size in [1_000, 10_000] {
        for rate in [60.0, 120.0] {
            for (w, interval) in [1 / rate, 0.25].enumerated() {
                let workload = PolicyWorkloadRecord(listSize: size, frameRate: rate, updateInterval: interval, editsPerUpdate: size / 100)
                for setting in settings {
                    var run = PolicyGridRun(workload: workload, setting: setting, requested: 12)
                    for (r, delta) in [0.5, 1, 0].enumerated() {
                        run.hitchTimeRatio.append(base(setting, size: size, rate: rate) + 2 * Double(w) + delta)
                        run.latencyMedian.append(0.01)
                        run.latencyP99.append(latencyStart(setting) + 0.01 * Double(w) + 0.001 * Double(r))
                        run.frames.append(Int(rate) * 4)
                        run.framesOverBudget.append(w + r)
                        run.applied.append(12)
                        run.coalesced.append(0)
                        run.reloads.append(0)
                        run.dropped.append(0)
                    }
                    results.runs.append(run)
                }
            }
        }
    }
    for moves in [MoveStrategy.offsets, .minimal] {
        for span in [1, 32] {
            results.profiles.append(
                PolicyProfileRow(
                    engine: "hashmap", listSize: 1_000, editsPerUpdate: 10, moves: moves, span: span, changes: 10 * span,
                    batchChanges: 8 * span + (moves == .minimal ? 0 : 1), seconds: [3e-5 * Double(span), 1e-5 * Double(span), 2e-5 * Double(span)]))
        }
    }
    func crossover(
        _ rate: Double, _ moves: MoveStrategy, _ reload: Int?, _ verdict: PolicyCrossoverRow.Verdict, _ sizes: (Int, Int, Int)?, found: Int
    ) -> PolicyCrossoverRow {
        PolicyCrossoverRow(
            frameRate: rate, moves: moves, reloadThreshold: reload, verdict: verdict, size: sizes?.0, low: sizes?.1, high: sizes?.2,
            repeatsWithCrossover: found, repeats: 3)
    }
    results.crossovers = [
        crossover(60, .offsets, nil, .clear, (10_000, 1_000, 100_000), found: 3),
        crossover(120, .offsets, nil, .belowSmallest, (1_000, 1_000, 1_000), found: 3),
        crossover(60, .minimal, 100, .noClearCrossover, nil, found: 1),
        crossover(120, .minimal, nil, .none, nil, found: 0),
    ]
    // Given out of order: the report sorts by frame rate, then size.
    results.recommendations = [
        PolicyRecommendationRow(
            listSize: 1_000, bandLow: 1_000, bandHigh: 3_162, frameRate: 120, latencyBound: 0.1, candidates: 5, feasible: 0, winner: nil,
            runnerUp: candidate(mainOffsets, 3.5, 3, 4, 0.031, dropped: 3)),
        PolicyRecommendationRow(
            listSize: 10_000, bandLow: 3_163, bandHigh: 1_000_000, frameRate: 60, latencyBound: 0.1, candidates: 5, feasible: 2,
            winner: candidate(backgroundOffsets, 2, 1.5, 2.5, 0.061), runnerUp: candidate(mainOffsets, 11.5, 11, 12, 0.031)),
    ]
    return results
}

private func gridReport(_ results: PolicyGridResults = syntheticGrid()) throws -> Report {
    try makeReport([.policyGrid(results)])
}

@Test func policyGridRecommendationRowsShowTheFilesLabelsAndNumbers() throws {
    let markdown = try gridReport().markdown
    let winnerRow =
        "| 3,163–1,000,000 | 10,000 | 60 Hz | background · offsets · no reload | 2 (1.5–2.5) | good | 61 ms "
        + "| main · offsets · no reload | 11.5 (11–12) | critical | 31 ms | 2 of 5 |"
    let noWinnerRow =
        "| 1,000–3,162 | 1,000 | 120 Hz | none within the bound | – | – | – "
        + "| lowest p99: main · offsets · no reload (dropped 3) | 3.5 (3–4) | good | 31 ms | 0 of 5 |"
    #expect(markdown.contains(winnerRow))
    #expect(markdown.contains(noWinnerRow))
    // Sorted by frame rate: the 60 Hz row comes first although the file lists it second.
    let first = try #require(markdown.range(of: winnerRow))
    let second = try #require(markdown.range(of: noWinnerRow))
    #expect(first.lowerBound < second.lowerBound)
}

@Test func policyGridHeaderShowsProvenanceOptionsAndCosts() throws {
    let markdown = try gridReport().markdown
    for expected in [
        "## Policy lab (scenario grid) — `grid.json`", "2026-11-29 18:36:24 UTC", "grid-box", "`def456`", "| engine | hashmap |",
        "| option: repeats | 3 |", "| option: latency bound | 100 ms (p99) |", "| option: virtual duration | 3 s of updates per run |",
        "| cost: apply (per update) | 500 µs |", "| costs: source | `defaults` |", "| costs: device | iPhone 12 (assumed) |",
        "| runs | 40 (8 workloads × 5 settings) |", "| list sizes | 1,000, 10,000 |", "| frame rates | 60 Hz, 120 Hz |",
        "virtual time", "The JSON has every run",
    ] {
        #expect(markdown.contains(expected), "missing: \(expected)")
    }
}

@Test func policyGridFrameRateTableHoldsTheMeansOfTheMediansWithoutFallbacks() throws {
    let markdown = try gridReport().markdown
    #expect(markdown.contains("### 60 Hz against 120 Hz"))
    for expected in [
        "| 10,000 | main | offsets | 11.5 | 21.5 |", "| 10,000 | main | minimal | 16.5 | 31.5 |", "| 1,000 | main | offsets | 2.5 | 3.5 |",
        "| 10,000 | background | offsets | 2 | 2 |", "| 1,000 | background | minimal | 2 | 2 |",
    ] {
        #expect(markdown.contains(expected), "missing: \(expected)")
    }
    // The fallback setting (background offsets, mean 2.5) is not in the overview.
    #expect(!markdown.contains("| background | offsets | 2.5 |"))
}

@Test func policyGridParetoFrontKeepsOnlyUndominatedSettings() throws {
    let markdown = try gridReport().markdown
    // At 10,000 items and 60 Hz: main offsets (31 ms, 11.5) and both background settings without
    // fallback (61 ms, 2) are on the front; main minimal (36 ms, 16.5) and the fallback setting
    // (61 ms, 2.5) are beaten.
    #expect(markdown.contains("| 10,000 | 60 Hz | main · offsets · no reload | 31 ms | 11.5 | yes |"))
    #expect(markdown.contains("| 10,000 | 60 Hz | background · offsets · no reload | 61 ms | 2 | yes |"))
    #expect(markdown.contains("| 10,000 | 60 Hz | background · minimal · no reload | 61 ms | 2 | yes |"))
    #expect(!markdown.contains("| 10,000 | 60 Hz | main · minimal · no reload |"))
    #expect(!markdown.contains("| 10,000 | 60 Hz | background · offsets · reload >100 |"))
}

@Test func policyGridCrossoverVerdictsAreWorded() throws {
    let markdown = try gridReport().markdown
    for expected in [
        "| 60 Hz | offsets | none | above 1,000 and at most 100,000 items (the sizes run; median of the 3 repeats' crossovers: 10,000) |",
        "| 120 Hz | offsets | none | at or below the smallest size run (1,000 items;",
        "| 60 Hz | minimal | reload > 100 | no clear crossover (1 of 3 repeats found one) |",
        "| 120 Hz | minimal | none | background never clearly won at the sizes run (3 repeats) |",
    ] {
        #expect(markdown.contains(expected), "missing: \(expected)")
    }
}

@Test func policyGridProfilesShowSpanOneAndTheLargestSpan() throws {
    let markdown = try gridReport().markdown
    #expect(markdown.contains("| hashmap | 1,000 | 10 | offsets | 10 | 9 | 20 µs | 32 | 320 | 257 | 640 µs |"))
    #expect(markdown.contains("| hashmap | 1,000 | 10 | minimal | 10 | 8 | 20 µs | 32 | 320 | 256 | 640 µs |"))
}

@Test func policyGridFiguresAreWellFormedSVGLinkedFromTheMarkdown() throws {
    let report = try gridReport()
    let names = report.files.map(\.name)
    #expect(names == ["policy-recommendations.svg", "policy-hitch-vs-size.svg", "policy-pareto.svg"])
    #expect(linkedFiles(report.markdown) == names)
    for file in report.files {
        #expect(file.contents.hasPrefix("<?xml"))
        #expect(file.contents.contains("\n<svg "), "\(file.name)")
        #expect(xmlError(file.contents) == nil, "\(file.name)")
        #expect(!file.contents.contains("nan") && !file.contents.contains("inf"), "\(file.name)")
    }
    // The Pareto panels mark the latency bound; the hitch plot labels Apple's bands its data reaches.
    let pareto = try #require(report.files.first { $0.name == "policy-pareto.svg" })
    #expect(pareto.contents.contains("bound 100 ms"))
    let hitch = try #require(report.files.first { $0.name == "policy-hitch-vs-size.svg" })
    #expect(hitch.contents.contains("10 ms/s: critical"))
    #expect(try gridReport() == report)
}

@Test func policyGridFilesShareTheCounterWithPolicyFiles() throws {
    let old = try parse(
        #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1000,"allowsReloadingOnTooManyUpdates":false,"hitchTimeRatio":1}]}"#,
        source: "p.json")
    let report = try makeReport([old, .policyGrid(syntheticGrid())])
    let names = report.files.map(\.name)
    #expect(names.contains("policy-hitch-time.svg") && names.contains("policy2-recommendations.svg"))
    #expect(Set(names).count == names.count)
}

@Test func policyGridWithoutRunsRendersAndSaysSo() throws {
    let report = try gridReport(PolicyGridResults(source: "empty.json"))
    for expected in [
        "The file has no runs.", "The file has no recommendations.", "The file has no crossovers.", "The file has no measured diff costs.",
    ] {
        #expect(report.markdown.contains(expected), "missing: \(expected)")
    }
    #expect(report.files.isEmpty)
}

@Test func policyGridWithOddValuesRendersWithoutTrapping() throws {
    var results = PolicyGridResults(source: "odd.json")
    // One size, frame rate 0, a run without repeats (of a setting with zero thresholds), a run with
    // unequal arrays, a recommendation with neither winner nor runner-up, a clear crossover missing
    // its sizes, a profile without rounds.
    let workload = PolicyWorkloadRecord(listSize: 0, frameRate: 0, updateInterval: 0, editsPerUpdate: 0)
    results.runs.append(
        PolicyGridRun(
            workload: workload, setting: PolicySetting(policy: .adaptive, moves: .minimal, maxItemCountToRunOnMain: 0, reloadThreshold: 0),
            requested: 0))
    var uneven = PolicyGridRun(workload: workload, setting: PolicySetting(policy: .main), requested: 1)
    uneven.hitchTimeRatio = [1000, 0]
    uneven.latencyP99 = [0]
    results.runs.append(uneven)
    results.recommendations.append(
        PolicyRecommendationRow(
            listSize: 0, bandLow: 0, bandHigh: 0, frameRate: 0, latencyBound: 0, candidates: 0, feasible: 0, winner: nil, runnerUp: nil))
    results.crossovers.append(
        PolicyCrossoverRow(
            frameRate: 0, moves: .minimal, reloadThreshold: 0, verdict: .clear, size: nil, low: nil, high: nil, repeatsWithCrossover: 0, repeats: 0))
    results.profiles.append(
        PolicyProfileRow(engine: "e", listSize: 0, editsPerUpdate: 0, moves: .minimal, span: 0, changes: 0, batchChanges: 0, seconds: []))
    let report = try gridReport(results)
    #expect(report.markdown.contains("| 0–0 | 0 | 0 Hz | none within the bound |"))
    #expect(report.markdown.contains("at most – items"))
    #expect(linkedFiles(report.markdown) == report.files.map(\.name))
    for file in report.files { #expect(xmlError(file.contents) == nil, "\(file.name)") }
}

@Test func policyGridResultsRoundTripThroughJSON() throws {
    let results = syntheticGrid()
    #expect(try PolicyGridResults(json: results.json, source: "grid.json") == results)
    let text = results.json.serialized()
    #expect(try PolicyGridResults(json: try JSONValue.parse(text), source: "grid.json") == results)
    #expect(try ResultsFile(try JSONValue.parse(text), source: "grid.json") == .policyGrid(results))
}

@Test func linePlotScatterVerticalLinesAndYCoverAreOptIn() {
    let style = SeriesStyle(color: "#000000")
    let points = [PlotPoint(1, 1), PlotPoint(10, 10), PlotPoint(100, 100)]
    func render(_ plot: LinePlot) -> [String] {
        var canvas = SVGCanvas()
        plot.render(&canvas, in: PlotRect(x: 0, y: 0, width: 366, height: 266))
        return canvas.elements
    }
    // Defaults: as before, a connected line and no vertical line.
    let plain = render(LinePlot(title: "t", xLabel: "x", yLabel: "y", series: [LineSeries("s", style: style, points: points)]))
    #expect(plain.contains { $0.hasPrefix("<polyline points=\"66,226 209,126 352,26\"") })
    // Unconnected: the same three markers, no line.
    let scatter = render(LinePlot(title: "t", xLabel: "x", yLabel: "y", series: [LineSeries("s", style: style, points: points, connected: false)]))
    #expect(!scatter.contains { $0.hasPrefix("<polyline") })
    #expect(scatter.filter { $0.hasPrefix("<circle") }.count == 3)
    // A vertical line at x = 1000 widens the x axis to 1…1000 and is drawn at its right edge, labelled.
    let bounded = render(
        LinePlot(
            title: "t", xLabel: "x", yLabel: "y", series: [LineSeries("s", style: style, points: points)],
            verticalLines: [VerticalReferenceLine(x: 1000, label: "bound"), VerticalReferenceLine(x: -1, label: "undrawable")]))
    #expect(bounded.contains { $0.hasPrefix("<line x1=\"352\" y1=\"26\" x2=\"352\" y2=\"226\"") })
    #expect(bounded.contains { $0.contains(">bound</text>") })
    #expect(!bounded.contains { $0.contains("undrawable") })
    // yCover: a linear axis over 2…4 data starts at 0 when asked to cover it.
    let covered = render(
        LinePlot(
            title: "t", xLabel: "x", yLabel: "y", yScale: .linear,
            series: [LineSeries("s", style: style, points: [PlotPoint(1, 2), PlotPoint(10, 4)])],
            yCover: [0]))
    #expect(covered.contains { $0.hasSuffix(">0</text>") })
}
