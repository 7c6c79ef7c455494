import DiffLabJSON
import DiffLabResults

/// `difflab export`: a `difflab-bench/1` file in a standard format for the dashboards teams
/// already use.
enum ExportCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let file = Positionals("RESULTS.json", count: 1...1) { _ in "export takes one results file (see 'difflab help export')" }
        let format = Option<ExportFormat>.choice("format", "FORMAT", help: "the format (see above)").required()
        let out = Option.output(
            help: "where to write: absent or a regular file (exit 73 otherwise), written atomically", defaultText: "standard output")
        init() {}
    }

    static let name = "export"
    static let abstract = "a bench results file as github-action-benchmark, Bencher or CSV"
    static var discussion: String {
        """
        Writes a difflab bench results file (schema \(BenchResults.schema), a merged one
        included) as:
          github-action-benchmark  its customSmallerIsBetter JSON: one entry per measured cell,
                                   "name" engine/profile/kind/size/allocator, "unit" ns, "value"
                                   the median, "range" ± the median absolute deviation, "extra"
                                   min, p90, p99, samples and allocations
          bencher                  Bencher Metric Format JSON: one benchmark per measured cell with
                                   the "latency" measure (ns: the median, lower_value the fastest
                                   sample, upper_value the 90th percentile) and "allocated-bytes"
                                   and "allocation-requests" where measured
          csv                      one row per cell (skipped ones with their reason) with every
                                   statistic (RFC 4180; times in seconds)
        Skipped cells have no value and are left out of the JSON formats.
        """
    }
    static let epilogue = """
        Exit status: 0 written, 64 bad command line, 65 not a bench results file (or a number
        outside its range, or a cell named twice), 66 unreadable, 73 bad output path.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let path = parsed[\.file][0]
        let format = parsed.required(\.format)
        let out = try parsed[\.out].map { file throws(CommandError) in
            try asCantCreate { () throws(OutputFileError) in try OutputFile(file, option: "--out") }
        }
        let document = try readJSON(path)
        let text: String
        do throws(ResultsError) {
            text = try BenchResults(json: document, source: path).export(format)
        } catch {
            throw .data(error.description)
        }
        if let out {
            try asCantCreate { () throws(OutputFileError) in try out.write(text) }
        } else {
            console.out(text)
        }
        return .success
    }
}
