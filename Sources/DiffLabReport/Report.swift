// DiffLabReport — markdown reports with SVG plots from DiffLab results files.
//
// Files in this module:
//   Plotting layer (knows nothing about DiffLab):
//     NumberFormatting.swift  deterministic number text (SVG coordinates, axis labels, tables)
//     XMLEscaping.swift       escaping for SVG text and attributes
//     Ticks.swift             nice tick selection for linear and log10 axes
//     AxisMapping.swift       data value → pixel position
//     SVGCanvas.swift         the SVG element writer and document wrapper
//     SeriesStyle.swift       colours, dashes, markers, legend entries
//     PlotAxes.swift          title, frame, axes and grid shared by all panels
//     LinePlot.swift, BarChart.swift, BoxPlot.swift  the panel kinds
//     Figure.swift            a standalone SVG: heading, legend, grid of panels
//   Report layer (the results files themselves are read by DiffLabResults, as typed records):
//     Markdown.swift          tables, figures, dates
//     MarkdownText.swift      hostile text in markdown (escaping, code blocks, cutting)
//     BenchSection.swift, PolicySection.swift  the report's sections
//     ArenaSection.swift      the arena's section; ArenaBenchView.swift and ArenaBenchSection.swift
//                             its views of the embedded bench; ArenaFinding.swift its bug reports
//     UpdatersSection.swift   an updaters findings file's section; SwimLaneFigure.swift the
//                             swim lanes of a finding's shrunk run
//     Report.swift            this file: the entry point
// No file I/O happens here: the caller reads the inputs and writes ``Report/files``.

import DiffLabResults

/// Why a report cannot be made: the results files' typed error (see ``ResultsError``).
public typealias ReportError = ResultsError

/// A file of a report other than the markdown itself (an SVG plot, or an arena bug report), named
/// relative to the report's directory.
public struct ReportFile: Sendable, Equatable {
    /// The file name relative to the report's directory: an SVG beside the report, e.g.
    /// `bench-time-vs-size.svg`, or a bug report in a folder of its own, e.g.
    /// `arena-findings/differencekit-1.md` (a folder made of lower-case letters, digits and `-`,
    /// then a file name of the same and a `.md` extension: never `..`, never absolute).
    public var name: String
    /// The file's text.
    public var contents: String

    /// A file named `name` (relative to the report's directory) holding `contents`.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// A finished report: `report.md` text plus the plots and bug reports it links to.
public struct Report: Sendable, Equatable {
    /// The markdown; it references every file of ``files`` by relative name, and nothing else.
    public var markdown: String
    /// The SVG plots and the arena's bug reports, in the order the markdown shows them.
    public var files: [ReportFile]
}

/// Choices that shape a report.
public struct ReportOptions: Sendable, Equatable {
    /// The command line that made the report, shown under "How this report was made" (`nil`: not shown).
    public var invocation: String?
    /// The most samples drawn per box in sample-distribution plots (the boxes use all samples).
    public var stripLimit: Int
    /// The list size whose sample distributions are plotted; if no cell has that size the largest
    /// size with measured cells is used.
    public var distributionSize: Int
    /// The profiles whose sample distributions are plotted (those present in the file).
    public var distributionProfiles: [String]

    /// Options; see the properties for each default.
    public init(
        invocation: String? = nil, stripLimit: Int = 60, distributionSize: Int = 100_000,
        distributionProfiles: [String] = ["differencekit", "small-edit"]
    ) {
        self.invocation = invocation
        self.stripLimit = stripLimit
        self.distributionSize = distributionSize
        self.distributionProfiles = distributionProfiles
    }
}

/// Builds a report from parsed results files.
///
/// Bench files get the benchmark sections (a trace bench file, `difflab-bench-trace/1`, its own
/// section naming the trace and its provenance), policy files the policy-lab section, arena files the
/// arena section (with a bug report file per failure of a library, in `arena-findings/`), updaters
/// findings files (`difflab-updaters/1`) a table of updaters × properties and each finding's shrunk
/// run as a swim-lane SVG (`updaters-finding-<n>-<property>.svg`), in the
/// order given; sections for a kind of input not given are omitted. An arena file's embedded
/// benchmark is shown through the arena section's speed, memory and moves views only, not as a
/// benchmark section of its own. When several files of one kind are given, each gets its own
/// sections and its files a numbered prefix (`bench-`, `bench2-`, …; `arena-findings/`,
/// `arena2-findings/`, …; `updaters-`, `updaters2-`, …), so names never collide. Every number shown comes from the files (ratios between two medians of
/// the same file are labelled as such); nothing is estimated or filled in.
///
/// - Throws: ``ResultsError/noInputs`` for an empty list.
/// - Complexity: O(total size of the inputs), plus O(n log n) sorting of sample arrays.
public func makeReport(_ inputs: [ResultsFile], options: ReportOptions = ReportOptions()) throws(ReportError) -> Report {
    guard !inputs.isEmpty else { throw .noInputs }
    var writer = ReportWriter()
    writer.line("# DiffLab report")
    writer.line("")
    writer.line("Made from " + inputs.map { Markdown.code($0.source) }.joined(separator: ", ") + ".")
    writer.line("")
    var benchCount = 0
    var policyCount = 0
    var arenaCount = 0
    var traceCount = 0
    var updatersCount = 0
    for input in inputs {
        switch input {
        case .bench(let results):
            benchCount += 1
            BenchSection(results: results, prefix: benchCount == 1 ? "bench-" : "bench\(benchCount)-", options: options).write(&writer)
        case .policy(let results):
            policyCount += 1
            PolicySection(results: results, prefix: policyCount == 1 ? "policy-" : "policy\(policyCount)-").write(&writer)
        case .policyGrid(let results):
            policyCount += 1
            PolicyGridSection(results: results, prefix: policyCount == 1 ? "policy-" : "policy\(policyCount)-").write(&writer)
        case .arena(let results):
            arenaCount += 1
            ArenaSection(results: results, prefix: arenaCount == 1 ? "arena-" : "arena\(arenaCount)-").write(&writer)
        case .traceBench(let results):
            traceCount += 1
            TraceBenchSection(results: results, prefix: traceCount == 1 ? "trace-" : "trace\(traceCount)-").write(&writer)
        case .updaters(let findings):
            updatersCount += 1
            UpdatersSection(findings: findings, prefix: updatersCount == 1 ? "updaters-" : "updaters\(updatersCount)-").write(&writer)
        }
    }
    writeMethod(&writer, inputs: inputs, options: options)
    return Report(markdown: writer.markdown, files: writer.files)
}

/// The closing "How this report was made" section.
private func writeMethod(_ writer: inout ReportWriter, inputs: [ResultsFile], options: ReportOptions) {
    writer.line("## How this report was made")
    writer.line("")
    if let invocation = options.invocation {
        writer.line("Command: " + Markdown.code(invocation))
        writer.line("")
    }
    for input in inputs {
        writer.line("- " + Markdown.code(input.source) + " (schema " + Markdown.code(input.schema) + ")")
    }
    writer.line("")
    writer.line(
        """
        `difflab report` read the results files above and wrote this markdown and its SVG plots (and, for an arena \
        file, a bug report per failure of a library; for an updaters findings file, the swim lanes of each shrunk run). \
        The plots are \
        drawn by DiffLab's own Swift code (the `DiffLabReport` module), not by matplotlib or another plotting \
        tool: the logic stays in Swift next to the code that wrote the results, no network, Python or virtual \
        environment is needed, the output is deterministic (the same inputs give byte-identical files, so \
        reports diff cleanly and are unit-tested), and GitHub renders SVG images linked from markdown.
        """)
    writer.line("")
    writer.line(
        """
        Every number comes from the results files; nothing is estimated. Values that are derived are said to \
        be: the system ÷ jemalloc ratios divide two medians from the same file, the arena's ratios and times are \
        geometric means over profiles of medians from the same file, and box plots compute quartiles \
        from the stored samples (linear interpolation). Points that cannot be drawn on a log axis (zero) and \
        skipped cells are missing from plots but listed in the tables. Sample strips in the distribution plots \
        show at most \(options.stripLimit) samples per engine, chosen at evenly spaced ranks of the sorted \
        samples (so the minimum and maximum are always shown); the boxes summarise all samples.
        """)
}

/// Collects markdown lines, SVG files and other files while sections are written.
struct ReportWriter {
    private(set) var lines: [String] = []
    private(set) var files: [ReportFile] = []
    /// The names of ``files``, for O(1) uniqueness checks.
    private var names: Set<String> = []

    /// The markdown so far.
    var markdown: String { lines.joined(separator: "\n") + "\n" }

    mutating func line(_ text: String) { lines.append(text) }

    /// Adds `figure` as file `name` (made unique if taken) and shows it with `caption` below.
    mutating func figure(_ name: String, _ figure: Figure, caption: String) {
        image(name, svg: figure.svg(), alt: figure.title, caption: caption)
    }

    /// Adds the SVG document `svg` as file `name` (made unique if taken) and shows it with `alt`
    /// text and `caption` below.
    mutating func image(_ name: String, svg: String, alt: String, caption: String) {
        var unique = name
        var counter = 2
        while names.contains(unique) {
            unique = name.hasSuffix(".svg") ? String(name.dropLast(4)) + "-\(counter).svg" : name + "-\(counter)"
            counter += 1
        }
        names.insert(unique)
        files.append(ReportFile(name: unique, contents: svg))
        lines.append(Markdown.figure(unique, alt: alt, caption: caption))
    }

    /// Adds a file that is not a figure (a bug report), named `name`; the caller links to it and
    /// keeps names unique (it is a programming error to add one twice).
    mutating func file(_ name: String, _ contents: String) {
        let inserted = names.insert(name).inserted
        assert(inserted, "two report files named \(name)")
        files.append(ReportFile(name: name, contents: contents))
    }
}
