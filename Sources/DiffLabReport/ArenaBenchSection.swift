import DiffLabEngines
import DiffLabFormatting
import DiffLabResults

// The arena section's views of its embedded benchmark: speed against the baselines, memory, and
// the moves the engines report.

extension ArenaSection {
    /// `1.23× (4)`: a ratio with the number of profiles it is over; `—` when there is none.
    static func ratioText(_ ratio: ProfileAggregate?) -> String {
        ratio.map { formatSignificant($0.value) + "× (\($0.profiles))" } ?? "—"
    }

    /// The view in words, e.g. "`int` elements under jemalloc".
    func viewText(_ view: ArenaBenchView) -> String { Markdown.literal(view.kind) + " elements under " + Markdown.text(view.allocator.rawValue) }

    /// A table with a row per engine and a column per size of the view; a self-timed engine's
    /// name is marked `†` (with `marked`), and the footnote follows the table when one is.
    private func sizeTable(_ view: ArenaBenchView, _ engines: [String], marked: Bool = true, _ text: (String, Int) -> String) -> String {
        let rows = engines.map { engine in
            [Markdown.code(engine) + (marked && view.isSelfTimed(engine) ? " †" : "")] + view.sizes.map { text(engine, $0) }
        }
        let table = Markdown.table(["engine"] + view.sizes.map { formatGrouped($0) }, rows, rightAligned: Set(1...max(1, view.sizes.count)))
        return table + (marked && engines.contains(where: view.isSelfTimed) ? "\n" + BenchTiming.footnote + "\n" : "")
    }

    func writeSpeed(_ writer: inout ReportWriter, _ view: ArenaBenchView) {
        writer.line("### Speed")
        writer.line("")
        guard !view.engines.isEmpty, !view.sizes.isEmpty else {
            writer.line("The embedded benchmark measured no contestant.")
            writer.line("")
            return
        }
        writer.line(
            "From the run's embedded benchmark, \(viewText(view)) (`int` elements when the bench has them, else its first kind; "
                + "jemalloc when it ran, else its first allocator). A ratio is the geometric mean, over the dataset profiles where both "
                + "engines have a measured (non-zero) median at that size, of the contestant's median time ÷ the baseline's; the number "
                + "of those profiles is in parentheses, and — means no profile had both. Below 1 is faster than the baseline.")
        writer.line("")
        for baseline in results.options.baselines {
            writer.line("Time ÷ " + Markdown.code(baseline) + "'s time:")
            writer.line("")
            writer.line(sizeTable(view, view.engines.filter { $0 != baseline }) { Self.ratioText(view.ratio($0, to: baseline, size: $1)) })
        }
        if results.options.baselines.isEmpty {
            writer.line("The run named no baseline, so no ratio is shown.")
            writer.line("")
        }
        for adapter in results.contestants where adapter.role == .identityAdapter && view.engines.contains(adapter.engine) {
            let costs = view.sizes.compactMap { size in
                view.ratio(adapter.engine, to: BuiltInEngines.Name.hashmap, size: size).map {
                    "\(Self.ratioText($0)) at \(formatGrouped(size)) items"
                }
            }
            writer.line(
                "Adapter cost: " + Markdown.code(adapter.engine) + " (the adapter layer, applying no library) against "
                    + Markdown.code(BuiltInEngines.Name.hashmap) + ": "
                    + (costs.isEmpty ? "— (no profile where both were measured)" : costs.joined(separator: ", "))
                    + " (time ratio, geometric mean over profiles): what every library's time includes for the adapter alone.")
            writer.line("")
        }
        let series = view.engines.enumerated().map { index, engine in
            LineSeries(
                engine, style: BenchSection.style(engine: engine, index: index),
                points: view.sizes.compactMap { size in view.time(engine, size: size).map { PlotPoint(Double(size), $0.value) } })
        }
        let figure = Figure(
            // The kind and allocator are named in the markdown, escaped, not in the figure's title (its alt text).
            title: "Median time per call against list size",
            panels: [
                .line(
                    LinePlot(
                        title: "geometric mean over profiles", xLabel: "list size (items)", yLabel: "median time per call", yStyle: .seconds,
                        series: series, xCover: view.sizes.map(Double.init)))
            ],
            columns: 1, panelWidth: 640, panelHeight: 380, legend: series.map { LegendEntry($0.name, $0.style) })
        writer.figure(
            prefix + "time-vs-size.svg", figure,
            caption: """
                Each contestant's median time per call against list size, \(viewText(view)), log-log: at each size the geometric \
                mean of its medians over the profiles it was measured on there (the count is in the table below; an engine measured on fewer \
                profiles is averaged over those only). A straight line is a power law, its slope the growth exponent.
                """)
        writer.line(
            Markdown.details(
                "Median time per call, geometric mean over profiles (profiles)",
                sizeTable(view, view.engines) { engine, size in
                    view.time(engine, size: size).map { NumberStyle.seconds.format($0.value) + " (\($0.profiles))" } ?? "—"
                }))
    }

    /// The fastest native library against DiffLab's exact and fast engines, per profile and size:
    /// which library (of the contestants whose adapter says `native`) had the smallest median, and
    /// `myers`'s and `hashmap`'s medians ÷ its own. Nothing when the run has no native library or
    /// neither engine.
    func writeNative(_ writer: inout ReportWriter, _ view: ArenaBenchView) {
        let natives = results.contestants.filter { $0.role == .library && $0.about.native == true }.map(\.engine).filter(view.engines.contains)
        let ours = [BuiltInEngines.Name.myers, BuiltInEngines.Name.hashmap].filter(view.engines.contains)
        guard !natives.isEmpty, !ours.isEmpty else { return }
        writer.line("### DiffLab against the fastest native library")
        writer.line("")
        writer.line(
            "Per profile and size, \(viewText(view)): the fastest of the \(formatGrouped(natives.count)) libraries whose adapter says "
                + "their diff runs as compiled code (`native`: " + natives.map(Markdown.code).joined(separator: ", ") + "), its median "
                + "time per call, and DiffLab's " + ours.map(Markdown.code).joined(separator: " and ") + " median ÷ that median: below 1 "
                + "DiffLab is faster. The libraries are self-timed (†), each by its adapter's clock (which may include the adapter's "
                + "own work: see the contestants' adapter column); DiffLab's engines are timed by the bench. "
                + "— where no native library, or not the engine, has a measured cell.")
        writer.line("")
        var rows: [[String]] = []
        var wins = [String: (faster: Int, compared: Int)]()
        for profile in view.profiles {
            for size in view.sizes {
                let best = view.fastest(of: natives, profile, size)
                var row = [Markdown.text(profile), formatGrouped(size)]
                row.append(best.map { Markdown.code($0.engine) + " †" } ?? "—")
                row.append(best.map { NumberStyle.seconds.format($0.median) } ?? "—")
                for engine in ours {
                    guard let best, let median = view.median(engine, profile, size) else {
                        row.append("—")
                        continue
                    }
                    let ratio = Double.exp(Double.log(median) - Double.log(best.median))
                    row.append(formatSignificant(ratio) + "×")
                    wins[engine, default: (0, 0)].compared += 1
                    if ratio < 1 { wins[engine, default: (0, 0)].faster += 1 }
                }
                rows.append(row)
            }
        }
        writer.line(
            Markdown.table(
                ["profile", "size", "fastest native", "its median"] + ours.map { Markdown.code($0) + " ÷ it" }, rows,
                rightAligned: Set(1...(3 + ours.count)).subtracting([2])))
        writer.line(
            ours.map { engine in
                let count = wins[engine] ?? (0, 0)
                return Markdown.code(engine) + " is faster in \(formatGrouped(count.faster)) of \(formatGrouped(count.compared)) cells"
            }.joined(separator: "; ") + ".")
        writer.line("")
        writer.line(BenchTiming.footnote)
        writer.line("")
    }

    func writeMemory(_ writer: inout ReportWriter, _ view: ArenaBenchView) {
        guard !view.engines.isEmpty, !view.sizes.isEmpty else { return }
        writer.line("### Memory")
        writer.line("")
        writer.line(
            "Per call, \(viewText(view)): bytes allocated (the bench's `allocatedBytes`, counted by jemalloc over one extra call; "
                + "absent under another allocator) / the resident set's peak above its size before the call (`peakExtraRSSBytes`). "
                + "Each is the median over the profiles that have it (their number in parentheses); — where no profile does. "
                + "`peakRSSBytes` is not shown: it is a worker process's peak, dataset included, not one engine's.")
        writer.line("")
        writer.line(
            sizeTable(view, view.engines, marked: false) { engine, size in
                let bytes = view.median(engine, size: size) { $0.allocatedBytes }
                let peak = view.median(engine, size: size) { $0.peakExtraRSSBytes }
                guard bytes != nil || peak != nil else { return "—" }
                func text(_ value: ProfileAggregate?) -> String { value.map { NumberStyle.bytes.format($0.value) + " (\($0.profiles))" } ?? "—" }
                return text(bytes) + " / " + text(peak)
            })
    }

    func writeMoves(_ writer: inout ReportWriter, _ view: ArenaBenchView) {
        let measured = view.engines.filter { engine in view.sizes.contains { view.measured(engine, size: $0) } }
        func everyone(_ size: Int) -> Bool { measured.allSatisfy { view.measured($0, size: size) } }
        let preferred = view.sizes.contains(10_000) && everyone(10_000) ? 10_000 : nil
        guard !measured.isEmpty, let size = preferred ?? view.sizes.last(where: everyone) ?? view.sizes.last else { return }
        writer.line("### Moves")
        writer.line("")
        writer.line(
            "What each engine's answer held at \(formatGrouped(size)) items (10,000 when every contestant the bench measured has a "
                + "measured cell there, else the largest size where each has one, else the largest size), per profile, \(viewText(view)): "
                + "changes / moves handed to UIKit. *changes* (`changeCount`) counts the inserts, deletes, updates and moves the "
                + "engine reported; for DiffLab's own pairing engines, with IGListKit's offsets moves. *moves handed to UIKit* "
                + "(`batchMoves`) are those of the batch updates the answer is applied as: a library's moves summed over its stages "
                + "when it stages its updates, else those of its one batch, else those of DiffLab's batch form of its result; for a "
                + "pairing engine, those of the batch form of its offsets result. A cell of a file written before `batchMoves` existed "
                + "shows —. Fewer moves is not better in "
                + "itself: a move can stand for a delete and an insert, and an engine that pairs fewer items reports fewer moves.")
        writer.line("")
        let rows = measured.map { engine in
            [Markdown.code(engine)]
                + view.profiles.map { profile -> String in
                    guard let m = view.cell(engine, profile, size) else { return "—" }
                    if m.skipped != nil { return "skipped" }
                    func count(_ value: Int?) -> String { value.map { formatGrouped($0) } ?? "—" }
                    return "\(count(m.changeCount)) / \(count(m.batchMoves))"
                }
        }
        writer.line(Markdown.table(["engine"] + view.profiles.map(Markdown.text), rows, rightAligned: Set(1...max(1, view.profiles.count))))
    }
}
