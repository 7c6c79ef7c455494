import DiffLabCore
import DiffLabFormatting
import DiffLabResults

/// The policy-lab section of a report, from one `difflab-policy/2` file: the scenario grid, its
/// recommendations and crossovers, summarised (the file holds every run; the report does not
/// list them).
///
/// Numbers in tables come from the file as written (recommendations, crossovers, costs, options)
/// or are derived from its per-repeat arrays in ways the captions state (medians over repeats,
/// means over the workloads of one list size); nothing is estimated. Every part is total: empty
/// arrays, a file without runs or recommendations, a single size or frame rate all render.
struct PolicyGridSection {
    let results: PolicyGridResults
    /// File name prefix for this file's plots, e.g. `policy-`.
    let prefix: String

    /// The runs of one setting at one list size and frame rate (one per update interval × edits).
    struct Cell: Hashable {
        var size: Int
        var frameRate: Double
        var setting: PolicySettingRecord
    }

    /// A list size and a frame rate.
    struct SizeRate: Hashable {
        var size: Int
        var frameRate: Double
    }

    /// A setting at a frame rate.
    struct SettingRate: Hashable {
        var setting: PolicySettingRecord
        var frameRate: Double
    }

    let cells: [Cell: [PolicyGridRun]]
    /// The settings run at each list size and frame rate, in first-appearance order.
    let settingsAt: [SizeRate: [PolicySettingRecord]]
    /// Every list size and frame rate run, ascending by size, then rate.
    let sizeRates: [SizeRate]
    /// The sizes each setting ran at a frame rate, ascending.
    let sizesOf: [SettingRate: [Int]]
    /// The most frame rates the per-rate plots and tables show, and the most panels of the
    /// Pareto figure: a file with more (a hostile one, say) is summarised, not drawn in full, so
    /// the report stays linear in the file.
    static let maxFrameRates = 8
    static let maxParetoPanels = 32
    /// List sizes run, ascending.
    let sizes: [Int]
    /// Frame rates run, ascending.
    let frameRates: [Double]
    /// Settings in order of first appearance.
    let settings: [PolicySettingRecord]
    /// Policies in order of first appearance (runs first, then recommendations).
    let policies: [String]

    init(results: PolicyGridResults, prefix: String) {
        self.results = results
        self.prefix = prefix
        var cells: [Cell: [PolicyGridRun]] = [:]
        var settings: [PolicySettingRecord] = []
        var seenSettings: Set<PolicySettingRecord> = []
        var settingsAt: [SizeRate: [PolicySettingRecord]] = [:]
        var sizesOf: [SettingRate: [Int]] = [:]
        for run in results.runs {
            let cell = Cell(size: run.workload.listSize, frameRate: run.workload.frameRate, setting: run.setting)
            if cells[cell] == nil {
                settingsAt[SizeRate(size: cell.size, frameRate: cell.frameRate), default: []].append(run.setting)
                sizesOf[SettingRate(setting: run.setting, frameRate: cell.frameRate), default: []].append(cell.size)
            }
            cells[cell, default: []].append(run)
            if seenSettings.insert(run.setting).inserted { settings.append(run.setting) }
        }
        self.cells = cells
        self.settingsAt = settingsAt
        sizeRates = settingsAt.keys.filter { $0.frameRate.isFinite }.sorted { ($0.size, $0.frameRate) < ($1.size, $1.frameRate) }
        self.sizesOf = sizesOf.mapValues { $0.sorted() }
        self.settings = settings
        sizes = Set(results.runs.map(\.workload.listSize)).sorted()
        frameRates = Self.ascending(results.runs.map(\.workload.frameRate))
        var seen: Set<String> = []
        let recommended = results.recommendations.flatMap { [$0.winner, $0.runnerUp].compactMap { $0?.setting.policy } }
        policies = (settings.map(\.policy) + recommended).filter { seen.insert($0).inserted }
    }

    /// The frame rates the per-rate plots and tables show: the first ``maxFrameRates``.
    var plottedRates: [Double] { Array(frameRates.prefix(Self.maxFrameRates)) }

    /// Distinct finite values, ascending.
    static func ascending(_ values: [Double]) -> [Double] {
        Set(values.filter(\.isFinite)).sorted()
    }

    // MARK: Derived figures

    /// The median of the finite `values` (DiffLabCore's one definition); `nil` when there is none.
    static func median(_ values: [Double]) -> Double? { DiffLabCore.median(values.filter(\.isFinite)) }

    /// The mean over `runs` of each run's median hitch time ratio over its repeats (runs without
    /// repeats are left out); `nil` when no run has a repeat.
    static func meanOfMedianHitch(_ runs: [PolicyGridRun]) -> Double? {
        let medians = runs.compactMap { median($0.hitchTimeRatio) }
        guard !medians.isEmpty else { return nil }
        return medians.reduce(0) { $0 + $1 / Double(medians.count) }
    }

    /// How a setting did over the workloads of one size and frame rate, as the recommendations
    /// measure it: per repeat the mean hitch time ratio over the workloads and the worst
    /// workload's p99 latency, then the median of each over the repeats. Only repeats every run
    /// has are used; `nil` when there is none.
    static func candidate(_ runs: [PolicyGridRun]) -> (hitch: Double, p99: Double)? {
        let repeats = runs.map { min($0.hitchTimeRatio.count, $0.latencyP99.count) }.min() ?? 0
        guard repeats > 0 else { return nil }
        var hitches: [Double] = []
        var p99s: [Double] = []
        for r in 0..<repeats {
            hitches.append(runs.reduce(0) { $0 + $1.hitchTimeRatio[r] / Double(runs.count) })
            p99s.append(runs.map { $0.latencyP99[r] }.max() ?? 0)
        }
        guard let hitch = median(hitches), let p99 = median(p99s) else { return nil }
        return (hitch, p99)
    }

    /// The settings the overview plots and tables show, per policy and move strategy: no reload
    /// fallback, and the default adaptive threshold (10,000 items) and coalescing intervals
    /// (50 + 25 … 250 ms) when the file has them, else the first variant it has.
    var overviewSettings: [(policy: String, moves: String, setting: PolicySettingRecord)] {
        let defaultIntervals = [0.05, 0.025, 0.25]
        func isDefault(_ s: PolicySettingRecord) -> Bool {
            (s.maxItemCountToRunOnMain ?? 10_000) == 10_000 && (s.coalescing ?? defaultIntervals) == defaultIntervals
        }
        let plain = settings.filter { $0.reloadThreshold == nil }
        var result: [(String, String, PolicySettingRecord)] = []
        for policy in policies {
            let candidates = plain.filter { $0.policy == policy }
            guard let variant = candidates.first(where: isDefault) ?? candidates.first else { continue }
            var seenMoves: Set<String> = []
            for setting in candidates
            where setting.maxItemCountToRunOnMain == variant.maxItemCountToRunOnMain && setting.coalescing == variant.coalescing
                && seenMoves.insert(setting.moves).inserted
            {
                result.append((policy, setting.moves, setting))
            }
        }
        return result
    }

    // MARK: Text and styles

    static func hz(_ rate: Double) -> String { formatSignificant(rate) + " Hz" }

    /// A hitch time ratio in ms per second, three significant digits.
    static func hitch(_ value: Double) -> String { formatSignificant(value) }

    static func seconds(_ value: Double) -> String { NumberStyle.seconds.format(value) }

    /// Apple's WWDC20 rating of a hitch time ratio.
    static func rating(_ hitch: Double) -> String {
        hitch < 5 ? "good" : hitch < 10 ? "warning" : "critical"
    }

    static func fallback(_ threshold: Int?) -> String {
        threshold.map { "reload > " + formatGrouped($0) } ?? "none"
    }

    func style(_ policy: String) -> SeriesStyle {
        PolicySection.style(policy: policy, index: policies.firstIndex(of: policy) ?? 0)
    }

    /// Dash per move strategy: offsets solid, minimal dashed, any other dotted.
    static func dash(_ moves: String) -> String? {
        switch moves {
        case "offsets": nil
        case "minimal": "6 3"
        default: "2 3"
        }
    }

    /// Marker per move strategy (scatter plots, where colour shows the policy).
    static func marker(_ moves: String) -> MarkerShape {
        switch moves {
        case "offsets": .circle
        case "minimal": .triangle
        default: .square
        }
    }

    /// Apple's bands as reference lines: 5 ms/s always (so a panel whose hitches are all zero gets
    /// a 0–5 axis rather than one centred on zero), 10 ms/s only when the data stays at or below
    /// 50 ms/s (higher, the two lines and their labels would sit on top of each other).
    static func appleLines(dataMaximum: Double) -> [ReferenceLine] {
        var lines = [ReferenceLine(y: 5, label: "5 ms/s: warning")]
        if dataMaximum <= 50 { lines.append(ReferenceLine(y: 10, label: "10 ms/s: critical")) }
        return lines
    }

    static let appleLinesNote = """
        Dotted lines mark Apple's bands: 5 ms/s (warning from there) and, where the panel's data stays at or below 50 ms/s, \
        10 ms/s (critical).
        """

    static let appleNote = """
        Apple's WWDC20 bands for the hitch time ratio: good below 5 ms/s, warning from 5 to 10, critical from 10.
        """

    // MARK: Writing

    /// Writes the heading `### title`; when the file has nothing for it (`empty`), says so
    /// (`The file has no NONE.`) and returns false.
    static func heading(_ title: String, none: String, empty: Bool, _ writer: inout ReportWriter) -> Bool {
        writer.line("### " + title)
        writer.line("")
        guard empty else { return true }
        writer.line("The file has no \(none).")
        writer.line("")
        return false
    }

    /// The section: for a recorded trace (``PolicyGridResults/trace``) the trace and its
    /// provenance, its stream and its measured pairs replace the grid's size plot, crossovers and
    /// profiles (a trace is one workload per frame rate: no sizes to compare).
    func write(_ writer: inout ReportWriter) {
        let trace = results.trace
        writer.line("## Policy lab (\(trace == nil ? "scenario grid" : "recorded trace")) — " + Markdown.code(results.source))
        writer.line("")
        if let trace { writeTraceWorkload(trace, &writer) }
        writeHeader(&writer)
        writeRecommendations(&writer)
        if results.runs.isEmpty {
            writer.line("The file has no runs.")
            writer.line("")
        } else {
            if trace == nil { writeHitchAgainstSize(&writer) }
            writeFrameRates(&writer)
            writePareto(&writer)
        }
        if trace == nil {
            writeCrossovers(&writer)
            writeProfiles(&writer)
        } else {
            writeTracePairs(&writer)
        }
    }

    func writeHeader(_ writer: inout ReportWriter) {
        var rows = Markdown.provenanceRows(results.provenance)
        if let o = results.options {
            rows.append(["engine", o.engine])
            if let background = o.backgroundEngine { rows.append(["background engine", background]) }
            // A trace's stream has its own table (its length is the duration).
            if results.trace == nil { rows.append(["option: virtual duration", Self.seconds(o.duration) + " of updates per run"]) }
            rows.append(["option: drain", Self.seconds(o.drainSeconds) + " after the stream"])
            rows.append(["option: repeats", "\(o.repeats)"])
            rows.append(["option: latency bound", Self.seconds(o.latencyBound) + " (p99)"])
            rows.append([
                "option: grid",
                results.trace != nil ? "every setting on the trace" + (o.quick ? " (--quick)" : "") : o.quick ? "quick slice" : "full",
            ])
        } else {
            var seen: Set<String> = []
            let engines = results.profiles.map(\.engine).filter { seen.insert($0).inserted }
            if !engines.isEmpty { rows.append(["engine", engines.joined(separator: ", ")]) }
        }
        if let c = results.costs {
            let cost: (Double?) -> String = { $0.map(Self.seconds) ?? "–" }
            rows.append(["cost: apply (per update)", cost(c.applyBaseCost)])
            rows.append(["cost: layout (per item, every update)", cost(c.layoutCostPerItem)])
            rows.append(["cost: batch (per change)", cost(c.batchCostPerChange)])
            rows.append(["cost: reload (per item, beyond the layout)", cost(c.reloadCostPerItem)])
            rows.append(["cost: other frame work (per frame)", cost(c.frameWork)])
            rows.append(["costs: source", c.source.map(Markdown.code) ?? "–"])
            if let device = c.device { rows.append(["costs: device", device]) }
        }
        var workloads: Set<PolicyWorkloadRecord> = []
        for run in results.runs { workloads.insert(run.workload) }
        rows.append(["runs", "\(formatGrouped(results.runs.count)) (\(workloads.count) workloads × \(settings.count) settings)"])
        if !sizes.isEmpty { rows.append(["list sizes", sizes.map(formatGrouped).joined(separator: ", ")]) }
        if !frameRates.isEmpty { rows.append(["frame rates", frameRates.map(Self.hz).joined(separator: ", ")]) }
        writer.line(Markdown.table(["run", "value"], rows))
        if results.trace != nil {
            writer.line(Self.traceRunsNote)
            writer.line("")
            return
        }
        writer.line(
            """
            Each run simulates one setting (a policy — `main`: diff on the main thread; `background`: diff off it, apply \
            on main; `adaptive`: main below a list size, else background; `coalescing`: IGListKit-style coalesced \
            background diffs — with a move strategy and an optional reload fallback) on one workload (list size, frame \
            rate, update interval, edits per update) in virtual time. Diff costs are measured: the real engine diffed \
            lists of each shape (the *Measured diff costs* below); applying updates and other frame work are modelled \
            with the costs above. Each repeat uses one measuring round of the diff costs, so repeats show how much the \
            measurements vary. The hitch time ratio is milliseconds of frame time over budget per second of running \
            (Apple's metric; 0 is perfectly smooth). The JSON has every run; this section summarises them.
            """)
        writer.line("")
    }

    // MARK: Recommendations

    func writeRecommendations(_ writer: inout ReportWriter) {
        writer.line("### Recommendations")
        writer.line("")
        let recommendations = results.recommendations.enumerated().sorted { a, b in
            (a.element.frameRate, a.element.listSize, a.offset) < (b.element.frameRate, b.element.listSize, b.offset)
        }.map(\.element)
        guard !recommendations.isEmpty else {
            writer.line("The file has no recommendations.")
            writer.line("")
            return
        }
        var seenBounds: Set<Double> = []
        let bounds = recommendations.map(\.latencyBound).filter { seenBounds.insert($0).inserted }
        func evidence(_ c: PolicyCandidateRow?) -> [String] {
            guard let c else { return ["–", "–", "–"] }
            return [
                Self.hitch(c.hitchTimeRatio) + " (" + Self.hitch(c.hitchLow) + "–" + Self.hitch(c.hitchHigh) + ")", Self.rating(c.hitchTimeRatio),
                Self.seconds(c.latencyP99),
            ]
        }
        func label(_ c: PolicyCandidateRow) -> String {
            c.setting.label + (c.dropped > 0 ? " (dropped " + formatGrouped(c.dropped) + ")" : "")
        }
        let rows = recommendations.map { r -> [String] in
            let runnerUp = r.runnerUp.map { r.winner == nil ? "lowest p99: " + label($0) : label($0) } ?? "–"
            return [formatGrouped(r.bandLow) + "–" + formatGrouped(r.bandHigh), formatGrouped(r.listSize), Self.hz(r.frameRate)]
                + [r.winner.map(label) ?? "none within the bound"] + evidence(r.winner)
                + [runnerUp] + evidence(r.runnerUp) + ["\(r.feasible) of \(r.candidates)"]
        }
        writer.line(
            Markdown.table(
                [
                    "list sizes", "run at", "display", "winner", "hitch ms/s (range)", "rating", "p99 latency", "runner-up",
                    "hitch ms/s (range)", "rating", "p99 latency", "feasible",
                ], rows, rightAligned: [1, 4, 6, 8, 10, 11]))
        writer.line(
            """
            One row per list-size band and frame rate, as the file recommends. A setting is feasible when its p99 update \
            latency (the worst workload's, median over the repeats) stayed within the bound \
            (\(bounds.map(Self.seconds).joined(separator: ", "))) and it dropped no update; the winner is the feasible \
            setting with the least hitch time (the mean over the band's workloads, median over the repeats, with the \
            range over the repeats in brackets). Settings within 0.1 ms/s of the least hitch tie, and a tie goes to fewer \
            full reloads (a reload loses the batch animation), then to the lower p99 latency (within 1 ms: a tie), then to \
            the simpler setting (`main` before `background`, `adaptive` and `coalescing`; offsets before minimal moves; no \
            fallback first; smaller thresholds first). \
            The runner-up is the best feasible setting that behaves as another policy at that size (`adaptive` is `main` \
            below its threshold, `background` above it). Where no setting is feasible, the runner-up column shows the \
            setting with the lowest p99 latency instead. \
            \(Self.appleNote)
            """)
        writer.line("")
        writeRecommendationPlot(&writer, recommendations)
    }

    // MARK: Crossovers

    /// A crossover's verdict in words.
    static func verdict(_ c: PolicyCrossoverRow) -> String {
        let size: (Int?) -> String = { $0.map(formatGrouped) ?? "–" }
        let repeats = c.repeats == 1 ? "1 repeat" : "\(c.repeats) repeats"
        switch c.verdict {
        case .clear:
            let above = c.low.map { "above \(size($0)) and " } ?? ""
            return above + "at most \(size(c.high)) items (the sizes run; median of the \(repeats)' crossovers: \(size(c.size)))"
        case .belowSmallest:
            return "at or below the smallest size run (\(size(c.size)) items; background clearly won at every size in all \(repeats))"
        case .noClearCrossover:
            return "no clear crossover (\(c.repeatsWithCrossover) of \(repeats) found one)"
        case .none:
            return "background never clearly won at the sizes run (\(repeats))"
        }
    }

    func writeCrossovers(_ writer: inout ReportWriter) {
        guard Self.heading("Crossovers", none: "crossovers", empty: results.crossovers.isEmpty, &writer) else { return }
        let rows = results.crossovers.map { c in [Self.hz(c.frameRate), c.moves, Self.fallback(c.reloadThreshold), Self.verdict(c)] }
        writer.line(Markdown.table(["display", "moves", "reload fallback", "background diffing clearly beats main"], rows))
        writer.line(
            """
            The crossover is the smallest list size at which background diffing hitched clearly less than main-thread \
            diffing (by at least 1 ms/s and 20% of main's, averaged over the size's workloads, at that size and every \
            larger one), found separately in each repeat. It lies above the largest size run where some repeat did not \
            find that win and at most the largest repeat's crossover; the median of the repeats' crossovers is given too. \
            No size between the sizes run is interpolated. Where only some repeats found one, the difference is within \
            the noise and no size is given.
            """)
        writer.line("")
    }

    // MARK: Measured diff costs

    struct Shape: Hashable {
        var engine: String
        var size: Int
        var edits: Int
        var moves: String
    }

    func writeProfiles(_ writer: inout ReportWriter) {
        guard Self.heading("Measured diff costs", none: "measured diff costs", empty: results.profiles.isEmpty, &writer) else { return }
        var order: [Shape] = []
        var byShape: [Shape: [PolicyProfileRow]] = [:]
        for row in results.profiles {
            let shape = Shape(engine: row.engine, size: row.listSize, edits: row.editsPerUpdate, moves: row.moves)
            if byShape[shape] == nil { order.append(shape) }
            byShape[shape, default: []].append(row)
        }
        var rounds: Set<Int> = []
        let rows = order.map { shape -> [String] in
            let rows = byShape[shape] ?? []
            func figures(_ row: PolicyProfileRow?) -> [String] {
                guard let row else { return ["–", "–", "–"] }
                rounds.insert(row.seconds.count)
                return [formatGrouped(row.changes), formatGrouped(row.batchChanges), Self.median(row.seconds).map(Self.seconds) ?? "–"]
            }
            let first = rows.first { $0.span == 1 }
            let last = rows.max { $0.span < $1.span }
            let none = ["–", "–", "–", "–"]
            let lastFigures = last.map { $0.span == 1 ? none : [formatGrouped($0.span)] + figures($0) } ?? none
            return [shape.engine, formatGrouped(shape.size), formatGrouped(shape.edits), shape.moves] + figures(first) + lastFigures
        }
        writer.line(
            Markdown.table(
                [
                    "engine", "list size", "edits per update", "moves", "changes (span 1)", "batch changes (span 1)", "diff time (span 1)",
                    "largest span", "changes", "batch changes", "diff time",
                ], rows, rightAligned: [1, 2, 4, 5, 6, 7, 8, 9, 10]))
        let roundsText = rounds.count == 1 ? "the \(rounds.first ?? 0) measuring rounds" : "the measuring rounds"
        writer.line(
            """
            What the simulation's diff costs come from: the engine diffed versions of each list shape one update apart \
            (span 1) and up to the largest span apart (what a coalesced or delayed diff catches up on). Changes are the \
            diff's (inserts, deletes, updates, moves: what the reload fallback counts), batch changes its batch form's \
            (what applying costs); the diff time is the median over \(roundsText) (derived from the file's per-round \
            seconds). The file has every span.
            """)
        writer.line("")
    }
}
