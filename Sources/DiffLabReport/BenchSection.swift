import DiffLabEngines
import DiffLabFormatting
import DiffLabResults

private typealias Name = BuiltInEngines.Name

/// The benchmark sections of a report, from one `difflab-bench/1` file.
struct BenchSection {
    let results: BenchResults
    /// File name prefix for this file's plots, e.g. `bench-`.
    let prefix: String
    let options: ReportOptions

    /// A cell's identity.
    private struct Key: Hashable {
        var engine: String
        var profile: String
        var size: Int
        var kind: String
        var allocator: MemoryAllocator
    }

    private let cells: [Key: BenchMeasurement]
    /// Engines, profiles, kinds and allocators in order of first appearance; sizes ascending.
    private let engines: [String]
    private let profiles: [String]
    private let sizes: [Int]
    private let kinds: [String]
    private let allocatorNames: [MemoryAllocator]
    /// The view most plots show: `int` elements (else the first kind) under jemalloc (else the
    /// first allocator).
    private let kind: String
    private let allocator: MemoryAllocator

    init(results: BenchResults, prefix: String, options: ReportOptions) {
        self.results = results
        self.prefix = prefix
        self.options = options
        var cells: [Key: BenchMeasurement] = [:]
        for m in results.measurements {
            cells[Key(engine: m.engine, profile: m.profile, size: m.size, kind: m.kind, allocator: m.allocator)] = m
        }
        self.cells = cells
        func ordered<T: Hashable>(_ values: [T]) -> [T] {
            var seen: Set<T> = []
            return values.filter { seen.insert($0).inserted }
        }
        engines = ordered(results.measurements.map(\.engine))
        profiles = ordered(results.measurements.map(\.profile))
        sizes = Set(results.measurements.map(\.size)).sorted()
        kinds = ordered(results.measurements.map(\.kind))
        allocatorNames = ordered(results.measurements.map(\.allocator))
        kind = kinds.contains("int") ? "int" : kinds.first ?? "int"
        allocator = allocatorNames.contains(.jemalloc) ? .jemalloc : allocatorNames.first ?? .jemalloc
    }

    private func cell(_ engine: String, _ profile: String, _ size: Int, kind: String? = nil, allocator: MemoryAllocator? = nil) -> BenchMeasurement? {
        cells[Key(engine: engine, profile: profile, size: size, kind: kind ?? self.kind, allocator: allocator ?? self.allocator)]
    }

    /// Profiles that have at least one cell of `kind` under `allocator`.
    private func profiles(kind: String, allocator: MemoryAllocator) -> [String] {
        profiles.filter { p in results.measurements.contains { $0.profile == p && $0.kind == kind && $0.allocator == allocator } }
    }

    // MARK: Styles

    /// A fixed look per engine, so an engine is the same colour in every plot; references are grey/black
    /// and dashed/dotted.
    static func style(engine: String, index: Int) -> SeriesStyle {
        switch engine {
        case Name.hashFloor: SeriesStyle(color: "#000000", dash: "2 3", marker: .none)
        case Name.stdlib: SeriesStyle(color: "#7F7F7F", dash: "6 3", marker: .square)
        case Name.heckel: SeriesStyle(color: "#E69F00", marker: .triangle)
        case Name.hashmap: SeriesStyle(color: "#0072B2", marker: .circle)
        case Name.myers: SeriesStyle(color: "#009E73", marker: .diamond)
        default: SeriesStyle.automatic(3 + index)
        }
    }

    /// The look of reference lines at ratio 1.
    static let referenceStyle = SeriesStyle(color: "#444444", dash: "2 3", marker: .none, width: 1)

    private func style(_ engine: String) -> SeriesStyle {
        BenchSection.style(engine: engine, index: engines.firstIndex(of: engine) ?? 0)
    }

    private func legend(_ engines: [String], filled: Bool = false) -> [LegendEntry] {
        engines.map { LegendEntry($0, style($0), filled: filled) }
    }

    private var view: String { "`\(kind)` elements, \(allocator)" }

    // MARK: Writing

    func write(_ writer: inout ReportWriter) {
        writer.line("## Benchmark — " + Markdown.code(results.source))
        writer.line("")
        writeHeader(&writer)
        writeTargets(&writer)
        writeTime(&writer)
        writeRatios(&writer)
        writeParallel(&writer)
        writePhases(&writer)
        writeRepeated(&writer)
        writeAllocations(&writer)
        writeMemory(&writer)
        writeMoves(&writer)
        writeDistributions(&writer)
        writeSkipped(&writer)
    }

    private func writeHeader(_ writer: inout ReportWriter) {
        var rows = Markdown.provenanceRows(results.provenance)
        if !results.allocators.isEmpty { rows.append(["allocators", results.allocators.map(\.name.rawValue).joined(separator: ", ")]) }
        rows.append(contentsOf: results.options.displayFields.map { ["option: " + $0.name, $0.value] })
        rows.append(["measurements", "\(results.measurements.count) cells, \(results.measurements.filter { $0.skipped != nil }.count) skipped"])
        writer.line(Markdown.table(["run", "value"], rows))
        writer.line(
            "Unless a plot says otherwise it shows \(view): the primary configuration. "
                + otherViewsNote + " Every engine of a cell diffed the same generated lists.")
        writer.line("")
    }

    private var otherViewsNote: String {
        let otherKinds = kinds.filter { $0 != kind }
        let otherAllocators = allocatorNames.filter { $0 != allocator }
        var parts: [String] = []
        if !otherKinds.isEmpty {
            parts.append("Element kinds " + otherKinds.map(Markdown.code).joined(separator: ", ") + " are in *Other element kinds*")
        }
        if !otherAllocators.isEmpty {
            parts.append("the " + otherAllocators.map(\.rawValue).joined(separator: ", ") + " allocator runs are compared in *Allocator*")
        }
        return parts.isEmpty ? "" : parts.joined(separator: "; ") + "."
    }

    private func writeTargets(_ writer: inout ReportWriter) {
        guard !results.targets.isEmpty else { return }
        writer.line("### Targets")
        writer.line("")
        writer.line("The goals the bench run checked itself against, as recorded in the file.")
        writer.line("")
        let rows = results.targets.map { t in
            [t.name, t.goal, t.value.map { formatSignificant($0) } ?? "–", t.met.map { $0 ? "yes" : "**no**" } ?? "–", t.note]
        }
        writer.line(Markdown.table(["target", "goal", "value", "met", "note"], rows, rightAligned: [2]))
    }

    /// One panel per profile of `metric` against size for `engines` (in the primary view unless given).
    private func perProfilePanels(
        _ engines: [String], yLabel: String, yStyle: NumberStyle, kind: String? = nil, allocator: MemoryAllocator? = nil,
        profiles: [String]? = nil, reference: ReferenceLine? = nil, titleSuffix: String = "",
        _ metric: (BenchMeasurement) -> Double?
    ) -> [Panel] {
        (profiles ?? self.profiles(kind: kind ?? self.kind, allocator: allocator ?? self.allocator)).map { profile in
            let series = engines.map { engine in
                LineSeries(
                    engine, style: style(engine),
                    points: sizes.compactMap { size in
                        guard let m = cell(engine, profile, size, kind: kind, allocator: allocator), let y = metric(m) else { return nil }
                        return PlotPoint(Double(size), y)
                    })
            }
            return .line(
                LinePlot(
                    title: profile + titleSuffix, xLabel: "list size (items)", yLabel: yLabel, yStyle: yStyle, series: series,
                    referenceLines: reference.map { [$0] } ?? [], xCover: sizes.map(Double.init)))
        }
    }

    /// A table with a row per profile × engine and a column per size.
    private func sizeTable(
        _ engines: [String], kind: String? = nil, allocator: MemoryAllocator? = nil, _ text: (BenchMeasurement) -> String?
    ) -> String {
        var rows: [[String]] = []
        var selfTimed = false
        for profile in profiles(kind: kind ?? self.kind, allocator: allocator ?? self.allocator) {
            for engine in engines {
                let cellsText = sizes.map { size -> String in
                    guard let m = cell(engine, profile, size, kind: kind, allocator: allocator) else { return "" }
                    if m.skipped != nil { return "skipped" }
                    guard let figure = text(m) else { return "–" }
                    selfTimed = selfTimed || m.timing == .selfTimed
                    return figure + mark(m)
                }
                guard cellsText.contains(where: { !$0.isEmpty && $0 != "–" }) else { continue }
                rows.append([profile, engine] + cellsText)
            }
        }
        return Markdown.table(
            ["profile", "engine"] + sizes.map { NumberStyle.count.format(Double($0)) }, rows, rightAligned: Set(2..<(2 + sizes.count)))
            + (selfTimed ? "\n\n" + Self.selfTimedNote : "")
    }

    /// The footnote under every table or plot that shows a self-timed figure.
    static let selfTimedNote = BenchTiming.footnote

    /// ` †` after a self-timed figure, else nothing.
    private func mark(_ m: BenchMeasurement) -> String { m.timing == .selfTimed ? " †" : "" }

    /// The self-timed footnote as a caption's last paragraph when a plot of `engines` (in the
    /// primary view's kind, or any of `kinds`, under the primary allocator) shows a self-timed cell.
    private func selfTimedFootnote(_ engines: [String], kinds: Set<String>? = nil) -> String {
        let shown = results.measurements.contains { m in
            m.timing == .selfTimed && m.isMeasured && engines.contains(m.engine) && m.allocator == allocator
                && (kinds?.contains(m.kind) ?? (m.kind == kind))
        }
        return shown ? "\n\n" + Self.selfTimedNote : ""
    }

    private func writeTime(_ writer: inout ReportWriter) {
        let measured = engines.filter { e in results.measurements.contains { $0.engine == e && $0.median != nil } }
        guard !measured.isEmpty else { return }
        writer.line("### Time against size")
        writer.line("")
        let figure = Figure(
            title: "Median time per call against list size (\(kind), \(allocator))",
            panels: perProfilePanels(measured, yLabel: "median time per call", yStyle: .seconds) { $0.median }, legend: legend(measured))
        writer.figure(
            prefix + "time-vs-size.svg", figure,
            caption: """
                Median wall-clock time of one diff call against list size, one panel per dataset profile, \(view); both axes \
                are logarithmic, so a straight line is a power law and its slope the growth exponent (slope 1: ten times the \
                items, ten times the time). `stdlib` (grey, dashed) is Swift's `CollectionDifference`, the reference; \
                `hash-floor` (black, dotted) only hashes both lists, the least work any hashing diff does, so no hashing engine \
                can go below it. A line that stops early hit a skipped cell (see *Skipped cells*). Each panel has its own \
                y range: compare positions within a panel, read values off the axis.
                """ + selfTimedFootnote(measured))
        writer.line("Median time per call, \(view):")
        writer.line("")
        writer.line(sizeTable(measured) { $0.median.map(NumberStyle.seconds.format) })
        let exponents = results.scaling.filter { $0.kind == kind && $0.allocator == allocator }
        if !exponents.isEmpty {
            let rows = exponents.map { s in
                [
                    s.profile, s.engine, s.timeExponent.map { formatFixed($0, decimals: 2) } ?? "–",
                    s.bytesExponent.map { formatFixed($0, decimals: 2) } ?? "–",
                ]
            }
            writer.line(
                Markdown.details(
                    "Growth exponents (from the file's scaling fits, \(kind), \(allocator))",
                    "Time ∝ size^exponent fitted by the bench run across the sizes it measured; 1 is linear.\n\n"
                        + Markdown.table(["profile", "engine", "time exponent", "bytes exponent"], rows, rightAligned: [2, 3])))
        }
        writeOtherKinds(&writer, measured)
        writeAllocatorComparison(&writer, measured)
    }

    private func writeOtherKinds(_ writer: inout ReportWriter, _ measured: [String]) {
        let others = kinds.filter { $0 != kind }
        var panels: [Panel] = []
        for other in others {
            panels += perProfilePanels(measured, yLabel: "median time per call", yStyle: .seconds, kind: other, titleSuffix: " · \(other)") {
                $0.median
            }
        }
        guard !panels.isEmpty else { return }
        writer.line("#### Other element kinds")
        writer.line("")
        // A row per kind: as many columns as profiles that ran the other kinds (at most 3).
        let columns = min(3, Set(results.measurements.filter { $0.kind != kind }.map(\.profile)).count)
        let figure = Figure(
            title: "Median time per call, other element kinds (\(allocator))", panels: panels, columns: columns, legend: legend(measured))
        writer.figure(
            prefix + "time-vs-size-kinds.svg", figure,
            caption: """
                The same plot for the element kinds other than `\(kind)` (\(others.map(Markdown.code).joined(separator: ", "))), on \
                the profiles the bench ran them on, under \(allocator). Panel titles read *profile · kind*. Log-log axes as above.
                """ + selfTimedFootnote(measured, kinds: Set(others)))
        for other in others {
            writer.line(
                Markdown.details(
                    "Median time per call, `\(other)` elements, \(allocator)",
                    sizeTable(measured, kind: other) { $0.median.map(NumberStyle.seconds.format) }))
        }
    }

    private func writeAllocatorComparison(_ writer: inout ReportWriter, _ measured: [String]) {
        let others = allocatorNames.filter { $0 != allocator }
        guard !others.isEmpty else { return }
        writer.line("#### Allocator")
        writer.line("")
        for other in others {
            writer.line(
                "The bench also ran every cell under the \(other) allocator. The table divides the \(other) median by the "
                    + "\(allocator) median of the same cell (`\(kind)` elements): above 1 means slower under \(other).")
            writer.line("")
            writer.line(
                Markdown.details(
                    "\(other) ÷ \(allocator) median time, `\(kind)` elements",
                    sizeTable(measured) { m in
                        guard let base = m.median, base > 0, let o = cell(m.engine, m.profile, m.size, allocator: other) else { return nil }
                        if o.skipped != nil { return "skipped under \(other)" }
                        return o.median.map { formatFixed($0 / base, decimals: 2) }
                    }))
        }
    }

    private func writeRatios(_ writer: inout ReportWriter) {
        let speedup = engines.filter { e in
            e != BuiltInEngines.reference && results.measurements.contains { $0.engine == e && $0.speedupOverStdlib != nil }
        }
        let floor = engines.filter { e in e != Name.hashFloor && results.measurements.contains { $0.engine == e && $0.ratioToFloor != nil } }
        let partitioned = engines.filter { e in
            e != Name.partitionedFloor && e != Name.hashFloor && results.measurements.contains { $0.engine == e && $0.ratioToPartitionedFloor != nil }
        }
        let floorNames = Set(BuiltInEngines.floors)
        let trim = engines.filter { e in !floorNames.contains(e) && results.measurements.contains { $0.engine == e && $0.ratioToTrimFloor != nil } }
        guard !speedup.isEmpty || !floor.isEmpty else { return }
        writer.line("### Ratios to the references")
        writer.line("")
        if !speedup.isEmpty {
            let figure = Figure(
                title: "Speed-up over stdlib (\(kind), \(allocator))",
                panels: perProfilePanels(
                    speedup, yLabel: "× faster than stdlib", yStyle: .count, reference: ReferenceLine(y: 1, label: "")
                ) { $0.speedupOverStdlib },
                legend: legend(speedup) + [LegendEntry("1 = as fast as stdlib", BenchSection.referenceStyle)])
            writer.figure(
                prefix + "speedup-over-stdlib.svg", figure,
                caption: """
                    How many times faster than the `stdlib` reference each engine is (the file's `speedupOverStdlib`: stdlib \
                    median ÷ engine median) against list size, \(view), log-log. Above the dotted line at 1 the engine is \
                    faster than stdlib, below it slower; a rising line means the gap widens with size. Missing points are cells where stdlib or \
                    the engine was skipped.
                    """ + selfTimedFootnote(speedup))
            writer.line(
                Markdown.details(
                    "Speed-up over stdlib, \(kind), \(allocator)", sizeTable(speedup) { $0.speedupOverStdlib.map { formatSignificant($0) + "×" } }))
        }
        if !floor.isEmpty {
            let figure = Figure(
                title: "Ratio to the hash floor (\(kind), \(allocator))",
                panels: perProfilePanels(
                    floor, yLabel: "× the hash floor's time", yStyle: .count, reference: ReferenceLine(y: 1, label: "")
                ) { $0.ratioToFloor },
                legend: legend(floor) + [LegendEntry("1 = the hash floor", BenchSection.referenceStyle)])
            writer.figure(
                prefix + "ratio-to-floor.svg", figure,
                caption: """
                    Each engine's median divided by the `hash-floor` median of the same cell (the file's `ratioToFloor`) \
                    against list size, \(view), log-log. 1 (dotted) would be an engine doing no more than hashing both lists \
                    once; the height above it is the engine's own overhead, in multiples of that floor.
                    """ + selfTimedFootnote(floor))
            writer.line(
                Markdown.details("Ratio to the hash floor, \(kind), \(allocator)", sizeTable(floor) { $0.ratioToFloor.map { formatSignificant($0) } })
            )
        }
        if !partitioned.isEmpty {
            writer.line(
                Markdown.details(
                    "Ratio to the partitioned floor, \(kind), \(allocator): each median ÷ the `partitioned-floor` median of the same cell "
                        + "(both lists hashed, radix-partitioned and joined partition by partition on codes alone; the file's "
                        + "`ratioToPartitionedFloor`)",
                    sizeTable(partitioned) { $0.ratioToPartitionedFloor.map { formatSignificant($0) } }))
        }
        if !trim.isEmpty {
            writer.line(
                Markdown.details(
                    "Ratio to the trim floor, \(kind), \(allocator): each median ÷ the `trim-floor` median of the same cell "
                        + "(the common prefix and suffix compared in list order, their pairs' contents judged, and the floor of "
                        + "the engines' rule on what lies between; the file's `ratioToTrimFloor`)",
                    sizeTable(trim) { $0.ratioToTrimFloor.map { formatSignificant($0) } }))
        }
    }

    private func writeParallel(_ writer: inout ReportWriter) {
        let cores = results.provenance.machine.first { $0.name == "cores" }.flatMap { Int($0.value) } ?? 1
        let speedups = parallelSpeedups(results.measurements, cores: cores)
        guard !speedups.isEmpty else { return }
        writer.line("### Parallel pairing")
        writer.line("")
        writer.line(
            "`hashmap`'s partitioned pairing on several threads (`hashmap-parallel`: every core, \(cores) on the machine of this run; "
                + "`hashmap-<t>t`: t threads), against `hashmap` on one thread in the same process and cell. Speed-up = `hashmap` "
                + "median ÷ median; efficiency = speed-up ÷ threads. Only sizes from the parallel threshold "
                + "(\(formatGrouped(Double(hashmapParallelThreshold))) old elements) are shown: below it both run on the calling "
                + "thread alone, and a speed-up would measure only noise.")
        writer.line("")
        let rows = speedups.map { s in
            [
                s.engine, String(s.threads), s.profile, s.kind, s.allocator.rawValue, formatGrouped(Double(s.size)),
                formatSignificant(s.speedup) + "×",
                formatSignificant(s.efficiency * 100) + "%",
            ]
        }
        writer.line(
            Markdown.table(
                ["engine", "threads", "profile", "kind", "allocator", "size", "speed-up", "efficiency"], rows, rightAligned: [1, 5, 6, 7]))
        writer.line("")
    }

    private func writePhases(_ writer: inout ReportWriter) {
        let measured = results.measurements.filter { !$0.phases.isEmpty }
        guard !measured.isEmpty else { return }
        writer.line("### hashmap phase by phase")
        writer.line("")
        writer.line(
            "Each measured `hashmap` cell from 10,000 items also times its diff phase by phase (`HashMapEngine.timedDiff`: one clock "
                + "reading between phases, none inside a loop) on 1 thread and, where the machine has two cores, on 2 "
                + "(`hashmap-parallel`): the median of each phase over the calls shown, in milliseconds. `trim`: the common ends "
                + "compared; `partition`: both lists hashed and radix-partitioned (or the one table built); `join`: partitions "
                + "joined (or the table probed); `verify`: pairs checked, updates judged, flags merged; `assemble`: the ends and the "
                + "middle put together; `derive`: the result derived; `batch`: its batch-safe form. Each is measured with both move "
                + "strategies (`moves`): they differ in `derive` only, where `minimal` finds a longest increasing run. The largest "
                + "figure of a row is its bottleneck.")
        writer.line("")
        var rows: [[String]] = []
        for row in measured {
            for phases in row.phases {
                rows.append(
                    [
                        row.profile, row.kind, row.allocator.rawValue, formatGrouped(Double(row.size)), phases.moves.rawValue, String(phases.threads),
                        String(phases.calls),
                    ]
                        + (phases.seconds + [phases.total]).map { formatSignificant($0 * 1000) })
            }
        }
        let columns =
            ["profile", "kind", "allocator", "size", "moves", "threads", "calls"] + BenchPhases.phaseNames.map { $0 + " ms" } + ["total ms"]
        writer.line(Markdown.table(columns, rows, rightAligned: Set([3]).union(5..<columns.count)))
        writer.line("")
    }

    private func writeRepeated(_ writer: inout ReportWriter) {
        let measured = results.measurements.filter { !$0.repeated.isEmpty }
        guard !measured.isEmpty else { return }
        writer.line("### hashmap repeated: one reused workspace")
        writer.line("")
        writer.line(
            "Apps diff the same feed again and again. In the same cells, `hashmap` also diffs the cell's lists and the same "
                + "profile's lists from the next seeds in turn through one `HashMapEngine.Workspace`, which keeps its buffers "
                + "between calls, against one-off calls on the same lists, interleaved (after one warm-up call of each kind per "
                + "version). Medians per call: time, minor page faults, and allocation requests (counted by jemalloc only; the "
                + "count is the code's, the same under any allocator); `held MB` is what the workspace keeps between calls.")
        writer.line("")
        var rows: [[String]] = []
        for row in measured {
            for entry in row.repeated {
                rows.append([
                    row.profile, row.kind, row.allocator.rawValue, formatGrouped(Double(row.size)), String(entry.threads), String(entry.calls),
                    formatSignificant(entry.oneOffSeconds * 1000), formatSignificant(entry.reusedSeconds * 1000),
                    entry.ratio.map { formatSignificant($0) } ?? "–", String(entry.oneOffFaults), String(entry.reusedFaults),
                    entry.oneOffAllocations.map(String.init) ?? "–", entry.reusedAllocations.map(String.init) ?? "–",
                    formatSignificant(Double(entry.retainedBytes) / 1_000_000),
                ])
            }
        }
        let columns = [
            "profile", "kind", "allocator", "size", "threads", "calls", "one-off ms", "reused ms", "ratio", "one-off faults",
            "reused faults", "one-off allocations", "reused allocations", "held MB",
        ]
        writer.line(Markdown.table(columns, rows, rightAligned: Set(3..<columns.count)))
        writer.line("")
    }

    private func writeMemory(_ writer: inout ReportWriter) {
        let measured = engines.filter { e in results.measurements.contains { $0.engine == e && $0.kind == kind && $0.minorFaults != nil } }
        guard !measured.isEmpty else { return }
        writer.line("### Page faults and resident memory per call")
        writer.line("")
        writer.line(
            "From one extra call after each measurement's samples (so in the steady state the samples saw): minor page faults of the "
                + "whole process during the call (`minorFaults`, getrusage) and the resident set's peak during the call above its "
                + "size before it (`peakExtraRSSBytes`: VmHWM after a reset through clear_refs, Linux only). A fault maps one 4 KiB "
                + "page that the allocator took from the kernel (or gave back) since the previous call; memory the allocator "
                + "kept is reused without faults.")
        writer.line("")
        for name in allocatorNames {
            writer.line(
                Markdown.details(
                    "Minor page faults / peak extra resident memory per call, \(kind), \(name)",
                    sizeTable(measured, allocator: name) { m in
                        guard let faults = m.minorFaults else { return nil }
                        return formatGrouped(Double(faults)) + " / " + (m.peakExtraRSSBytes.map { NumberStyle.bytes.format($0) } ?? "–")
                    }))
        }
    }

    private func writeAllocations(_ writer: inout ReportWriter) {
        // Allocation figures exist only where measured (jemalloc); prefer the primary allocator.
        let withBytes = allocatorNames.filter { a in
            results.measurements.contains { $0.allocator == a && $0.kind == kind && $0.allocatedBytes != nil }
        }
        guard let source = withBytes.contains(allocator) ? allocator : withBytes.first else { return }
        let measured = engines.filter { e in results.measurements.contains { $0.engine == e && $0.allocator == source && $0.allocatedBytes != nil } }
        writer.line("### Allocations")
        writer.line("")
        let hasZero = results.measurements.contains { $0.allocator == source && ($0.allocatedBytes == 0 || $0.allocationRequests == 0) }
        let zeroNote = hasZero ? " Cells that allocated nothing (0) cannot be drawn on a log axis; the table shows them." : ""
        let bytes = Figure(
            title: "Bytes allocated per call (\(kind), \(source))",
            panels: perProfilePanels(measured, yLabel: "bytes allocated per call", yStyle: .bytes, allocator: source) { $0.allocatedBytes },
            legend: legend(measured))
        writer.figure(
            prefix + "allocated-bytes.svg", bytes,
            caption: """
                Bytes allocated by one diff call (the file's `allocatedBytes`, counted by jemalloc over one extra call) against \
                list size, `\(kind)` elements, \(source), log-log. This is the total allocated during the call, not the peak \
                held; a slope of 1 means bytes proportional to items.\(zeroNote)
                """)
        let requests = Figure(
            title: "Allocation requests per call (\(kind), \(source))",
            panels: perProfilePanels(measured, yLabel: "allocations per call", yStyle: .count, allocator: source) { $0.allocationRequests },
            legend: legend(measured))
        writer.figure(
            prefix + "allocation-requests.svg", requests,
            caption: """
                Allocation requests (malloc calls) of one diff call (the file's `allocationRequests`) against list size, \
                `\(kind)` elements, \(source), log-log. A flat line means a fixed number of buffers whatever the size; a \
                slope of 1 means an allocation per item.\(zeroNote)
                """)
        writer.line(
            Markdown.details(
                "Bytes and allocation requests per call, \(kind), \(source)",
                sizeTable(measured, allocator: source) { m in
                    guard let b = m.allocatedBytes else { return nil }
                    return NumberStyle.bytes.format(b) + " / " + (m.allocationRequests.map { formatGrouped($0) } ?? "–")
                }))
    }

    private func writeMoves(_ writer: inout ReportWriter) {
        let measured = engines.filter { e in results.measurements.contains { $0.engine == e && $0.kind == kind && $0.offsetsMoves != nil } }
        guard !measured.isEmpty else { return }
        let movesProfiles = profiles(kind: kind, allocator: allocator)
        // The largest size at which every engine has move counts on every profile, else the largest with any.
        func complete(_ size: Int) -> Bool {
            measured.allSatisfy { e in movesProfiles.allSatisfy { cell(e, $0, size)?.offsetsMoves != nil } }
        }
        func any(_ size: Int) -> Bool { measured.contains { e in movesProfiles.contains { cell(e, $0, size)?.offsetsMoves != nil } } }
        guard let size = sizes.last(where: complete) ?? sizes.last(where: any) else { return }
        writer.line("### Moves per strategy")
        writer.line("")
        let strategies: [(String, SeriesStyle, (BenchMeasurement) -> Int?)] = [
            ("offsets moves", SeriesStyle(color: "#0072B2", marker: .none), { $0.offsetsMoves }),
            ("minimal moves", SeriesStyle(color: "#E69F00", marker: .none), { $0.minimalMoves }),
        ]
        let panels = measured.map { engine in
            Panel.bars(
                BarChart(
                    title: engine, yLabel: "moves reported", yScale: .log10, yStyle: .count, groups: movesProfiles,
                    series: strategies.map { name, style, value in
                        BarSeries(name, style: style, values: movesProfiles.map { p in cell(engine, p, size).flatMap(value).map(Double.init) })
                    }))
        }
        let figure = Figure(
            title: "Moves reported per strategy at \(NumberStyle.count.format(Double(size))) items (\(kind))", panels: panels, columns: 2,
            panelWidth: 430, panelHeight: 290, legend: strategies.map { LegendEntry($0.0, $0.1, filled: true) })
        writer.figure(
            prefix + "moves.svg", figure,
            caption: """
                How many moves each engine's result reports under the two move strategies, per profile, at \
                \(formatGrouped(size)) items (the largest size where every engine was measured on every profile), \(view); \
                log scale. *offsets* is IGListKit's rule (an item moves when its offset, corrected for deletes and inserts \
                before it, changes); *minimal* keeps the longest increasing run of matched items in place and moves the rest. \
                A "0" at the baseline means no moves (not drawable on a log axis); "–" means no count.
                """)
        let rows = movesProfiles.map { p in
            [p]
                + measured.map { e -> String in
                    let m = cell(e, p, size)
                    guard let m, let offsets = m.offsetsMoves else { return m?.skipped != nil ? "skipped" : "–" }
                    let minimal = m.minimalMoves.map(formatGrouped) ?? "–"
                    let changes = m.changeCount.map(formatGrouped) ?? "–"
                    return "\(changes) / \(formatGrouped(offsets)) / \(minimal)"
                }
        }
        writer.line("Changes / offsets moves / minimal moves at \(formatGrouped(size)) items, \(view):")
        writer.line("")
        writer.line(Markdown.table(["profile"] + measured, rows, rightAligned: Set(1...measured.count)))
        writer.line(
            Markdown.details(
                "Offsets / minimal moves at every size, \(kind)",
                sizeTable(measured) { m in
                    guard let o = m.offsetsMoves else { return nil }
                    return formatGrouped(o) + " / " + (m.minimalMoves.map(formatGrouped) ?? "–")
                }))
    }

    private func writeDistributions(_ writer: inout ReportWriter) {
        let chosenProfiles = options.distributionProfiles.filter { p in profiles.contains(p) }
        guard !chosenProfiles.isEmpty else { return }
        func measured(_ size: Int) -> Bool {
            chosenProfiles.contains { p in engines.filter { cell($0, p, size).map { !$0.samples.isEmpty } ?? false }.count >= 2 }
        }
        guard let size = measured(options.distributionSize) ? options.distributionSize : sizes.last(where: measured) else { return }
        writer.line("### Sample distributions")
        writer.line("")
        var panels: [Panel] = []
        var rows: [[String]] = []
        var largest = 0
        var repeated = false
        var selfTimed = false
        for profile in chosenProfiles {
            let present = engines.filter { cell($0, profile, size).map { !$0.samples.isEmpty } ?? false }
            guard !present.isEmpty else { continue }
            let boxes = present.map { engine in BoxSeries(engine, style: style(engine), values: cell(engine, profile, size)?.samples ?? []) }
            panels.append(
                .boxes(
                    BoxPlot(
                        title: "\(profile) · \(NumberStyle.count.format(Double(size))) items", yLabel: "seconds per call", boxes: boxes,
                        stripLimit: options.stripLimit)))
            for engine in present {
                guard let m = cell(engine, profile, size) else { continue }
                largest = max(largest, m.samples.count)
                repeated = repeated || (m.callsPerSample ?? 1) > 1
                let seconds: (Double?) -> String = { $0.map(NumberStyle.seconds.format) ?? "–" }
                selfTimed = selfTimed || m.timing == .selfTimed
                rows.append([
                    profile, engine, String(m.samples.count), m.callsPerSample.map(String.init) ?? "–", seconds(m.min), seconds(m.median) + mark(m),
                    seconds(m.p90), seconds(m.p99), seconds(m.mad),
                ])
            }
        }
        let figure = Figure(
            title: "Sample distributions at \(NumberStyle.count.format(Double(size))) items (\(kind), \(allocator))", panels: panels, columns: 2,
            panelWidth: 430, panelHeight: 300, legend: [])
        let downsampled = largest > options.stripLimit
        writer.figure(
            prefix + "samples.svg", figure,
            caption: """
                The spread of the timing samples behind each median, \(formatGrouped(size)) items, \(view); log y axis. The box \
                spans the middle half of the samples (quartiles), the thick line is their median and the whiskers reach the \
                fastest and slowest sample; the dots beside each box are the samples themselves\
                \(downsampled ? " (at most \(options.stripLimit) per engine, picked at evenly spaced ranks; the boxes use all samples)" : ""). \
                \(repeated ? "A sample is the mean of `callsPerSample` back-to-back calls, so short calls look less noisy than they are." : "Every sample here is one call (`callsPerSample` 1).") \
                A tight box means a stable measurement; a long upper whisker means occasional slow calls.
                """)
        writer.line(
            Markdown.table(
                ["profile", "engine", "samples", "calls/sample", "min", "median", "p90", "p99", "MAD"], rows, rightAligned: Set(2...8))
                + (selfTimed ? "\n\n" + Self.selfTimedNote : ""))
    }

    private func writeSkipped(_ writer: inout ReportWriter) {
        let skipped = results.measurements.filter { $0.skipped != nil }
        writer.line("### Skipped cells")
        writer.line("")
        guard !skipped.isEmpty else {
            writer.line("No cell was skipped.")
            writer.line("")
            return
        }
        writer.line("Cells the bench did not time, with its reason (they are missing from the plots above).")
        writer.line("")
        let rows = skipped.map { [$0.engine, $0.profile, formatGrouped($0.size), $0.kind, $0.allocator.rawValue, $0.skipped ?? ""] }
        writer.line(Markdown.table(["engine", "profile", "size", "kind", "allocator", "reason"], rows, rightAligned: [2]))
    }
}
