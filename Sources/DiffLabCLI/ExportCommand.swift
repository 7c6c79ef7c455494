import DiffLabJSON
import DiffLabResults

/// `difflab export`: a `difflab-bench/1` file in a standard format for the dashboards teams
/// already use.
enum ExportCommand {
    static var help: String {
        """
        USAGE: difflab export RESULTS.json --format FORMAT [--out FILE]

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

        OPTIONS
          --format FORMAT   \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))
          --out FILE        where to write (default: standard output); absent or a regular file
                            (exit 73 otherwise), written atomically
          -h, --help        show this help

        Exit status: 0 written, 64 bad command line, 65 not a bench results file (or a number
        outside its range, or a cell named twice), 66 unreadable, 73 bad output path.
        """
    }

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        let parsed = try OptionSpec(valued: ["format", "out"]).parse(arguments)
        if parsed.flag("help") {
            console.out(help + "\n")
            return .success
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw .usage("export takes one results file (see 'difflab help export')")
        }
        guard let name = parsed.value("format") else { throw .usage("export needs --format (\(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")))") }
        guard let format = ExportFormat(rawValue: name) else {
            throw .usage("unknown format '\(name)' for --format (expected one of: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let out = try parsed.value("out").map { file throws(CommandError) in try OutputFile(file, option: "--out") }
        let document = try readJSON(path)
        let text: String
        do throws(ResultsError) {
            text = try BenchResults(json: document, source: path).export(format)
        } catch {
            throw .data(error.description)
        }
        if let out {
            try out.write(text)
        } else {
            console.out(text)
        }
        return .success
    }
}
