import DiffLabCore
import DiffLabFormatting
import DiffLabResults

// The parts of a policy-lab section whose workload is a recorded trace (`difflab policy --trace`):
// the trace and its provenance, how its times became the simulated updates, and the measured cost
// of its pairs of versions.

extension PolicyGridSection {
    static let traceRunsNote = """
        Each run simulates one setting (a policy — `main`: diff on the main thread; `background`: diff off it, apply \
        on main; `adaptive`: main below a list size, else background; `coalescing`: IGListKit-style coalesced \
        background diffs — with a move strategy and an optional reload fallback) on the recorded trace in virtual \
        time: its versions arrive as updates at the times above, and each diff costs what the engine measured on the \
        two versions it diffs (the *Measured diff costs of the trace's pairs* below). Applying updates and other frame \
        work are modelled with the costs above. Each repeat uses one measuring round of every pair, so repeats show \
        how much the measurements vary. The hitch time ratio is milliseconds of frame time over budget per second of \
        the run (Apple's metric; 0 is perfectly smooth). The JSON has every run and every pair.
        """

    /// "workload: recorded trace FILE", its provenance, and its stream.
    func writeTraceWorkload(_ trace: TraceWorkload, _ writer: inout ReportWriter) {
        writer.line("**workload: recorded trace " + Markdown.code(trace.file) + "**")
        writer.line("")
        writer.line(
            "The workload is a recorded trace, not generated lists: \(formatGrouped(trace.versions)) versions of one list, "
                + "\(formatGrouped(trace.items)) items in all, \(formatGrouped(trace.distinctIds)) distinct identifiers"
                + "\(trace.timestamps ? ", with times" : ", without times")\(sizesText.map { ", " + $0 } ?? "").")
        writer.line("")
        TraceBenchSection.writeProvenance(trace, &writer)
        guard let stream = results.traceStream else { return }
        let timing: String
        switch stream.timing {
        case .recorded: timing = "the recorded gaps × " + formatSignificant(stream.timeScale ?? 1)
        case .medianInterval: timing = "the recorded gaps × " + formatSignificant(stream.timeScale ?? 1) + " (scaled to the median asked for)"
        case .interval: timing = "one every " + Self.seconds(stream.interval ?? 0) + " (the recorded times not used)"
        }
        let rows = [
            ["updates", formatGrouped(stream.requests) + " (every version after the first; the first arrives at 0 s)"],
            ["times", timing], ["median gap", Self.seconds(stream.medianGap)], ["stream length", Self.seconds(stream.seconds)],
            [
                "longest gap",
                Self.seconds(stream.maxGap)
                    + " (\(stream.shortenedGaps == 1 ? "1 longer gap" : formatGrouped(stream.shortenedGaps) + " longer gaps") shortened to it)",
            ],
        ]
        writer.line(Markdown.table(["stream", "value"], rows))
        writer.line(
            """
            A gap longer than the longest gap is shortened to it: in a quiet spell the app only draws idle frames within \
            budget, so a longer gap would add nothing but seconds to the run (lowering its hitch time ratio).
            """)
        writer.line("")
    }

    /// `from 89 to 238 items per version`, from the runs' recommendation bands; `nil` without one.
    private var sizesText: String? {
        guard let row = results.recommendations.first else { return nil }
        return "\(formatGrouped(row.bandLow)) to \(formatGrouped(row.bandHigh)) items per version"
    }

    /// Per engine and move strategy: the pairs measured and what they cost.
    func writeTracePairs(_ writer: inout ReportWriter) {
        guard Self.heading("Measured diff costs of the trace's pairs", none: "measured pairs", empty: results.tracePairs.isEmpty, &writer) else {
            return
        }
        struct Group: Hashable {
            var engine: String
            var moves: String
        }
        var order: [Group] = []
        var groups: [Group: [PolicyTracePairRow]] = [:]
        for row in results.tracePairs {
            let group = Group(engine: row.engine, moves: row.moves)
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(row)
        }
        let rows = order.map { group -> [String] in
            let pairs = groups[group] ?? []
            let times = pairs.map { Self.median($0.seconds) ?? 0 }
            let slowest = times.indices.max { times[$0] < times[$1] }
            let widest = pairs.map { $0.to - $0.from }.max() ?? 0
            return [
                Markdown.cell(group.engine), Markdown.cell(group.moves), formatGrouped(pairs.count),
                formatGrouped(pairs.count { $0.to - $0.from == 1 }), formatGrouped(widest),
                Self.median(pairs.map { Double($0.changes) }).map { formatSignificant($0) } ?? "–",
                Self.median(pairs.map { Double($0.batchChanges) }).map { formatSignificant($0) } ?? "–", Self.median(times).map(Self.seconds) ?? "–",
                slowest.map { "\(pairs[$0].from) → \(pairs[$0].to): " + Self.seconds(times[$0]) } ?? "–",
            ]
        }
        writer.line(
            Markdown.table(
                [
                    "engine", "moves", "pairs", "consecutive", "widest span", "changes (median)", "batch changes (median)", "diff time (median)",
                    "slowest pair",
                ],
                rows, rightAligned: [2, 3, 4, 5, 6, 7]))
        writer.line(
            """
            What the simulation's diff costs came from: the engine diffed each pair of the trace's versions the \
            simulation needed (every consecutive pair, and the wider pairs of updates that carried several versions), \
            once to count its changes (inserts, deletes, updates, moves: what the reload fallback counts) and batch \
            changes (what applying costs), then a few calls per measuring round. A pair's diff time here is the median \
            over its rounds (each round's the median of its calls); medians are over the pairs. The file has every pair.
            """)
        writer.line("")
    }
}
