import DiffLabBench
import DiffLabJSON
import DiffLabResults

/// `difflab merge`: the parts of a sharded `difflab bench` run joined into one results file.
enum MergeCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let files = Positionals("PART.json...", count: 1...BenchShard.countRange.upperBound) { count in
            count == 0
                ? "merge needs the parts' results files (see 'difflab help merge')"
                : "merge takes at most \(BenchShard.countRange.upperBound) files (the most parts a run has; got \(count))"
        }
        let out = Option.output(help: "the merged file: absent or a regular file (exit 73 otherwise), written atomically").required()
        let force = Flag("force", help: "merge parts that differ (the differences are printed)")
        init() {}
    }

    static let name = "merge"
    static let abstract = "join the parts of a sharded bench run (bench --shard K/N)"
    static var discussion: String {
        """
        Joins the results files of `difflab bench --shard K/N` (K = 1 … N, schema
        \(BenchResults.schema)) into one, equal to what `difflab bench` without --shard would have
        written: the same cells, options and schema. Ratios are recomputed from the same references,
        growth fits and targets over every size; "seconds" is the sum of the parts' (machine time).
        `difflab report`, `difflab export` and `difflab gate --baseline` read the result.

        The parts must come from one run: the same commit, toolchain, machine (CPU model, cores
        and memory; host names and kernels may differ), allocators, options (but the shard) and
        shard count, each part once and none missing. At most 64 files, each named once.
        Otherwise merge refuses, naming each file and field that differs (exit 65), unless
        --force; the merged options then list the parts it holds. A cell found in two files is
        always refused.
        """
    }
    static let epilogue = """
        Exit status: 0 merged, 64 bad command line, 65 a file is not a bench results file or the
        parts do not belong together, 66 a file cannot be read, 73 bad output path.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let files = parsed[\.files]
        let path = parsed.required(\.out)
        var named: Set<String> = []
        if let repeated = files.first(where: { !named.insert($0).inserted }) { throw .usage("merge: \(repeated) is given twice") }
        let out = try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "--out") }
        var parts: [BenchResults] = []
        for file in files {
            let document = try readJSON(file)
            do throws(ResultsError) { parts.append(try BenchResults(json: document, source: file)) } catch { throw .data(error.description) }
        }
        let merged: BenchResults
        do throws(BenchMergeError) {
            merged = try mergeBenchResults(parts, force: false)
        } catch  where parsed[\.force] && error.forcible {
            console.err("merge: merging anyway (--force): " + error.reasons.joined(separator: "; ") + "\n")
            do throws(BenchMergeError) { merged = try mergeBenchResults(parts, force: true) } catch { throw .data(error.description) }
        } catch {
            throw .data(error.description)
        }
        try asCantCreate { () throws(OutputFileError) in try out.write(merged.json.serialized() + "\n") }
        let measured = merged.measurements.filter(\.isMeasured).count
        console.out("merged \(parts.count) files: \(merged.measurements.count) cells (\(measured) measured) → \(out.path)\n")
        return .success
    }
}
