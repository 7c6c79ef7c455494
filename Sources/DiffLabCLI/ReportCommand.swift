import DiffLabJSON
import DiffLabReport
import DiffLabResults

/// `difflab report`: a markdown report with SVG plots from `difflab bench`, `difflab policy`,
/// arena and `difflab updaters` results files (an arena file also gives a bug report per failure
/// of a library; an updaters findings file a swim-lane SVG per finding).
///
/// The plots are SVG drawn by DiffLab's own Swift code (``DiffLabReport``), not matplotlib: the
/// logic stays in Swift beside the code that writes the results, nothing needs a network, Python or
/// a virtual environment, the output is deterministic (same inputs, byte-identical files) and so
/// testable, and GitHub renders SVG images linked from markdown.
enum ReportCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let files = Positionals("RESULTS.json...", count: 1...Int.max) { _ in "report needs at least one results file (see 'difflab help report')" }
        let out = Option.text("out", "DIR", help: "where to write; created if missing", defaultText: "results/reports/report-<time>") {
            text throws(CommandError) in
            guard !text.isEmpty else { throw .usage("--out expects a directory") }
        }
        init() {}
    }

    static let name = "report"
    static let abstract = "a markdown report with SVG plots from bench, policy, arena and updaters results"
    static let discussion = """
        Writes DIR/report.md and the SVG plots it shows, from results files of `difflab bench`
        (schema difflab-bench/1), `difflab policy` (its scenario grid, schema difflab-policy/2),
        `difflab policy real-time` (schema difflab-policy/1), the arena (schema
        difflab-arena/1) and `difflab updaters --out` (schema difflab-updaters/1), given in any
        order and recognised by their "schema" field. Sections for a kind of file not given are
        left out; several files of one kind get a section each.

        Bench files: run header and targets; median time against size per engine (log-log, one
        panel per profile, int elements under jemalloc, with stdlib and the hash floor as
        references; other element kinds and the system allocator summarised); speed-up over stdlib
        and ratio to the hash floor; bytes and allocation requests per call; moves per strategy;
        sample distributions at 100k items; skipped cells with their reasons.
        Policy grid files: the recommendations (table and plot), hitch time against list size
        per policy and move strategy, 60 against 120 Hz, latency against hitches (Pareto plots),
        the crossovers with their intervals, and the measured diff costs.
        Real-time policy files: hitch time ratio and update latency (median, p99) against list
        size per policy, with and without the reload fallback, and every run in a table (with the
        simulation's prediction beside it).
        Arena files (third-party diff libraries fuzzed and benchmarked): the run (provenance,
        fuzzing seconds per contestant, seed, baselines); the contestants with their versions,
        builds, adapters, declared promises and the documentation quoted for them; the verdict
        per contestant (valid on unique identifiers, valid with duplicates, sectioned, promises
        kept, the shortest counterexample), with its rules under the table; from the embedded
        bench (int elements, jemalloc when present), each contestant's time ratio to each
        baseline per size (geometric mean over profiles) with a log-log plot, the identity
        adapter's cost, allocated bytes and peak extra resident memory per call, and the
        changes and moves reported; every failure. Each failure of a library also gets a bug
        report ready to send upstream, DIR/arena-findings/<engine>-<n>.md, linked from the
        report. The embedded bench gets no benchmark section of its own (report the bench file
        for that).

        Updaters findings files (list updaters checked under every interleaving of their
        queues): the campaign (engine, seed, runs, limits); a table of updaters × properties,
        each cell "held" (checked in every run, never broken), "✗ n runs" (broken in n runs,
        linked to its finding), "—" (not held to it: drops-superseded binds only an updater
        that promises it) or "not run" (the updater's campaign crashed or hung, with its
        message); then per finding the property, what happened (UIKit's message for
        batch-valid), the shrunk run's requests, items and steps, the replay command, and the
        shrunk schedule as a swim-lane SVG, DIR/updaters-finding-<n>-<property>.svg: one lane
        per queue (app, main, layout, timers, each serial queue, global), one column per step,
        the failing step marked, each step's notes under its label (all of them in its
        tooltip); at most 120 steps (around the failing one) and 16 lanes are drawn.

        The plots are SVG drawn by DiffLab's own Swift code, not matplotlib: no Python or network
        needed, deterministic output, and GitHub renders SVG linked from markdown.
        """
    static let epilogue = """
        Every number is checked against its field's documented range (times and samples 0 to
        86,400 s, sizes 0 to 10^9 items, counts 0 to 2^53, ratios 0 to 10^9, createdAt 1970 to
        9999, hitchTimeRatio 0 to 1,000 ms/s, cpuUtilisation 0 to 1,024; in an arena file, text
        lengths, 1 to 64 contestants with distinct names, at most 1,000 failures each, baselines
        that are contestants; in an updaters findings file, 1 to 1,024 updaters, each limit in
        its difflab updaters range, text lengths and step counts): a value outside is a data
        error naming the file, the field and the range.

        Exit status: 0 written, 64 bad command line, 65 a file is not a DiffLab results file (or
        holds a number outside its range), 66 a file cannot be read.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let path = parsed[\.out] ?? "results/reports/report-\(timestamp())"
        // Checked before reading anything: a folder that cannot take the report fails at once.
        let directory = try asCantCreate { () throws(OutputFileError) in try OutputDirectory(path, option: "--out") }

        var inputs: [ResultsFile] = []
        for path in parsed[\.files] {
            let document = try readJSON(path)
            do {
                inputs.append(try ResultsFile(document, source: path))
            } catch {
                throw .data(error.description)
            }
        }
        let report: Report
        do {
            report = try makeReport(inputs, options: ReportOptions(invocation: (["difflab", "report"] + parsed.arguments).joined(separator: " ")))
        } catch {
            throw .data(error.description)
        }

        // Every file is checked before the first is written, so a bad entry leaves no half report.
        let files = try report.files.map { file throws(CommandError) in
            (try asCantCreate { () throws(OutputFileError) in try directory.file(file.name) }, file.contents)
        }
        let markdown = try asCantCreate { () throws(OutputFileError) in try directory.file("report.md") }
        for (output, contents) in files { try asCantCreate { () throws(OutputFileError) in try output.write(contents) } }
        try asCantCreate { () throws(OutputFileError) in try markdown.write(report.markdown) }
        console.out("report: \(markdown.path)\n")
        return .success
    }
}
