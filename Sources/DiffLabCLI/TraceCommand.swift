import DiffLabCore
import DiffLabFormatting
import DiffLabPlatform
import DiffLabResults
import DiffLabTraces

/// `difflab trace FILE`: what a recorded trace holds, after reading it as every command does.
enum TraceCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let file = Positionals("TRACE.jsonl", count: 1...1) { _ in "trace takes one trace file (or an import command: folder, lines, git)" }
        let oracle = Flag(
            "oracle",
            help: "also check, on every pair, that myers with minimal moves keeps a longest common subsequence in place (against "
                + "an exact LCS), and compare git diff --minimal --numstat on the same versions where git is installed")
        init() {}
    }

    static let name = "trace"
    static let abstract = "recorded traces of a list's versions: import one, or summarize one"
    static let discussion = """
        A trace (difflab-trace/1) is a recorded history of one list: JSON lines, a header with
        its provenance (source, tool, date, how identifiers and contents were derived), then one
        version per line, oldest first: {"items": [["id", "content"], "id", ...], "timestampMs":
        N} or {"sections": [{"id": "s", "items": [...]}], ...}. An item that is a string alone is
        its own content. Identifiers and contents are strings, often hashes, so a trace can be
        shared without its data.

        `difflab trace FILE` reads a trace (as bench --trace, policy --trace and fuzz
        --seeds-from-trace do) and prints its provenance and shape: versions, sizes, distinct
        identifiers, versions with repeated identifiers, times. The import commands make one:
          trace folder DIR   a folder of JSON snapshots, ordered by name
          trace lines FILE   JSON lines an app logged, one snapshot per line
          trace git          one file's lines across a git repository's first-parent history
        Corpus/traces/README.md documents the format, the committed traces and how to log one
        from an app.
        """
    static let epilogue = """
        Exit status: 0 read (with --oracle: and myers kept an LCS in place on every pair checked),
        1 with --oracle: myers missed on some pair, or no pair was checked; 64 bad command line,
        65 not a difflab-trace/1 file (the line and field are named), 66 the file cannot be read.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let path = parsed[\.file][0]
        let trace = try readTrace(path)
        console.out(TraceSummary(trace).text(path: path))
        guard parsed[\.oracle] else { return .success }
        let report = TraceOracle.check(trace, git: true)
        console.out(oracleText(report))
        return report.myersMisses.isEmpty && !report.pairs.isEmpty ? .success : .failure
    }

    /// What `--oracle` prints: pairs checked, myers' misses, git's comparison and its misses.
    static func oracleText(_ report: TraceOracle.Report) -> String {
        var lines = ["oracle (myers --moves minimal against an exact LCS; git diff --minimal --numstat):"]
        lines.append(
            "  pairs     \(report.pairs.count) checked"
                + (report.skipped > 0 ? ", \(report.skipped) too large (over \(formatGrouped(TraceOracle.maxCells)) LCS cells)" : ""))
        if report.pairs.isEmpty { lines.append("  nothing was checked: the trace has no pair small enough") }
        let misses = report.myersMisses
        lines.append("  myers     " + (misses.isEmpty ? "kept an LCS in place on every pair" : "NOT minimal on \(misses.count) pairs"))
        for pair in misses.prefix(10) {
            lines.append(
                "    pair \(pair.index): old \(pair.old), new \(pair.new), LCS \(pair.lcs): myers deletes \(pair.myersDeletes), inserts \(pair.myersInserts), moves \(pair.myersMoves)"
            )
        }
        if let reason = report.gitUnavailable {
            lines.append("  git       not compared: \(reason)")
        } else {
            let gitMisses = report.gitMisses
            lines.append(
                "  git       compared on \(report.gitCompared) pairs; "
                    + (gitMisses.isEmpty ? "minimal on every one (its counts equal the LCS's)" : "not minimal on \(gitMisses.count)"))
            for pair in gitMisses.prefix(10) {
                let lcsLines = (pair.old - pair.lcs) + (pair.new - pair.lcs)
                lines.append(
                    "    pair \(pair.index): git -\(pair.gitDeleted ?? 0) +\(pair.gitAdded ?? 0), LCS -\(pair.old - pair.lcs) +\(pair.new - pair.lcs): "
                        + "the LCS's \(lcsLines) changed lines are minimal, git's \((pair.gitDeleted ?? 0) + (pair.gitAdded ?? 0)) are not")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Reads a trace file under the input limit: exit 66 when it cannot be read, 65 when it is not a trace.
package func readTrace(_ path: String) throws(CommandError) -> Trace {
    let bytes = try readInputFile(path)
    do throws(TraceFormatError) { return try Trace(jsonLines: bytes, source: path) } catch { throw .data(error.description) }
}

extension Option where Value == String {
    /// An importer's `--out FILE` (required).
    static func traceOut() -> Self {
        .output(help: "the trace file: absent or a regular file (exit 73 otherwise), written atomically")
    }

    /// An importer's `--source TEXT`.
    static func traceSource() -> Self {
        .text("source", "TEXT", help: "the provenance's source: where the data came from", defaultText: "the input's path")
    }
}

/// The importers' common end: write the trace and say what it holds.
private func writeImported(_ trace: Trace, to out: OutputFile, console: Console) throws(CommandError) {
    try asCantCreate { () throws(OutputFileError) in try out.write(trace.jsonLines) }
    console.out(
        "wrote \(out.path): \(trace.versions.count) versions, \(formatGrouped(trace.itemCount)) items, \(formatGrouped(trace.ids.count)) distinct identifiers\n"
    )
}

private func importing(_ body: () throws(TraceImportError) -> Trace) throws(CommandError) -> Trace {
    do throws(TraceImportError) { return try body() } catch { throw CommandError(error.isMissingInput ? .noInput : .dataError, error.description) }
}

private func importDate() -> String { utcDateTime(secondsSince1970()) }

/// `difflab trace folder DIR`: a trace from a folder of JSON snapshots.
enum TraceFolderCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let folder = Positionals("DIR", count: 1...1) { _ in "trace folder takes one folder of *.json snapshots" }
        let out = Option.traceOut().required()
        let source = Option.traceSource()
        let timeField = Option.text("time-field", "NAME", help: "each snapshot is an object whose member NAME is its time in milliseconds")
        let timeFromNames = Flag("time-from-names", help: "each file name's first run of digits is its time in milliseconds")
        let text = Flag("text", help: "keep each identifier's and content's canonical JSON text instead of its hash")
        init() {}
    }

    static let name = "trace folder"
    static let abstract = "a trace from a folder of JSON snapshots, ordered by name"
    static let discussion = """
        Reads every *.json file of DIR in name order (byte order: name them so it is time order,
        e.g. with zero-padded numbers), one version each. A snapshot is a list as `difflab diff`
        reads it (an array of elements: a scalar is its own identifier and content, or {"id":
        scalar, "content": any}), sectioned lists as `difflab stages` reads them (an array of
        {"id": scalar, "items": [...]}), or an object with the list under "items" or the sections
        under "sections" (and, with --time-field, its time beside them). Identifiers and contents
        are kept as the hash of their canonical JSON text (keys sorted), or the text itself with
        --text. Times, when given, must not decrease in name order.
        """
    static let epilogue = """
        Exit status: 0 written, 64 bad command line, 65 a snapshot is not JSON or not a list (the
        file is named), 66 the folder or a file cannot be read, 73 bad output path.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let folder = parsed[\.folder][0]
        let out = try asCantCreate { () throws(OutputFileError) in try OutputFile(parsed.required(\.out), option: "--out") }
        let times: SnapshotTimes
        switch (parsed[\.timeField], parsed[\.timeFromNames]) {
        case (let field?, false): times = .field(field)
        case (nil, true): times = .fileNames
        case (nil, false): times = .none
        case (.some, true): throw .usage("trace folder: --time-field and --time-from-names are alternatives; give one")
        }
        let provenance = TraceProvenance(
            source: parsed[\.source] ?? "snapshots in \(folder)", tool: "difflab trace folder", date: importDate(), ids: "-", contents: "-")
        let strings: SnapshotStrings = parsed[\.text] ? .text : .hashed
        let trace = try importing { () throws(TraceImportError) in
            try SnapshotImport.folder(folder, times: times, strings: strings, maxBytes: InputLimit.bytes, provenance: provenance)
        }
        try writeImported(trace, to: out, console: console)
        return .success
    }
}

/// `difflab trace lines FILE`: a trace from JSON lines an app logged.
enum TraceLinesCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let file = Positionals("LOG.jsonl", count: 1...1) { _ in "trace lines takes one file of JSON lines (or - for standard input)" }
        let out = Option.traceOut().required()
        let source = Option.traceSource()
        let text = Flag("text", help: "keep each identifier's and content's canonical JSON text instead of its hash")
        init() {}
    }

    static let name = "trace lines"
    static let abstract = "a trace from JSON lines an app logged, one snapshot per line"
    static let discussion = """
        Reads one snapshot per line, oldest first: a list (a JSON array of elements, as `difflab
        diff` reads them), sectioned lists, or an object {"timestampMs": N, "items": [...]} (or
        "sections") with the time in milliseconds. Either every line has a time or none has; times
        must not decrease. Identifiers and contents are kept as the hash of their canonical JSON
        text, or the text itself with --text. Corpus/traces/README.md has the ten lines of Swift
        that log such a file from a debug build.
        """
    static let epilogue = """
        Exit status: 0 written, 64 bad command line, 65 a line is not a snapshot (the line is
        named), 66 the file cannot be read, 73 bad output path.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let path = parsed[\.file][0]
        let out = try asCantCreate { () throws(OutputFileError) in try OutputFile(parsed.required(\.out), option: "--out") }
        let bytes = try readInputFile(path)
        let provenance = TraceProvenance(
            source: parsed[\.source] ?? "an app's log \(path)", tool: "difflab trace lines", date: importDate(), ids: "-", contents: "-")
        let strings: SnapshotStrings = parsed[\.text] ? .text : .hashed
        let trace = try importing { () throws(TraceImportError) in
            try SnapshotImport.appLog(bytes, source: path, strings: strings, provenance: provenance)
        }
        try writeImported(trace, to: out, console: console)
        return .success
    }
}

/// `difflab trace git`: a trace of one file's lines across a repository's history.
enum TraceGitCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let repo = Option.text("repo", "DIR", help: "the git repository (a work tree or a bare repository)").required()
        let path = Option.text("path", "FILE", help: "the file, relative to the repository's root").required()
        let out = Option.traceOut().required()
        let source = Option.traceSource()
        let maxVersions = Option.integer(
            "max-versions", in: GitImport.maxVersionsRange, default: GitImport.defaultMaxVersions,
            help: "keep the newest N commits that touch the file")
        init() {}
    }

    static let name = "trace git"
    static let abstract = "a trace of one file's lines across a git repository's first-parent history"
    static let discussion = """
        Runs git (which must be on PATH) on the repository: the first-parent commits of HEAD that
        touch FILE, oldest first, each commit's committer time as the version's time (a time
        earlier than the previous one keeps the previous). Each line becomes an item whose
        identifier and content are the hash (FNV-1a 64) of its bytes: equal lines are equal
        items, so repeated lines are duplicate identifiers, and the file's text is not kept. A
        commit that deletes the file is an empty version. A binary file (one with a NUL byte) is
        refused. Every git answer is bounded by --max-input-bytes and 300 seconds.
        """
    static let epilogue = """
        Exit status: 0 written, 64 bad command line, 65 git refused (the commit is named) or the
        file is binary, 66 git or the repository cannot be found, 73 bad output path.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let out = try asCantCreate { () throws(OutputFileError) in try OutputFile(parsed.required(\.out), option: "--out") }
        let repository = parsed.required(\.repo)
        let path = parsed.required(\.path)
        let trace = try importing { () throws(TraceImportError) in
            try GitImport.history(
                repository: repository, path: path, maxVersions: parsed.required(\.maxVersions), maxBytes: InputLimit.bytes,
                source: parsed[\.source], date: importDate())
        }
        try writeImported(trace, to: out, console: console)
        return .success
    }
}

/// What `difflab trace FILE` prints: the provenance and the trace's shape.
struct TraceSummary {
    let trace: Trace

    init(_ trace: Trace) { self.trace = trace }

    func text(path: String) -> String {
        let p = trace.provenance
        var lines = [
            "\(path): \(Trace.schema)",
            "  source    \(p.source)",
            "  tool      \(p.tool), \(p.date)",
            "  ids       \(p.ids)",
            "  contents  \(p.contents)",
        ]
        let sizes = trace.versions.map(\.items.count).sorted()
        let repeated = trace.versions.filter { version in Set(version.items.map(\.id)).count != version.items.count }.count
        let sectioned = trace.versions.filter { $0.sections != nil }.count
        lines.append(
            "  versions  \(trace.versions.count) (\(max(trace.versions.count - 1, 0)) consecutive pairs)"
                + (sectioned > 0 ? ", \(sectioned) sectioned" : ""))
        if let first = sizes.first, let last = sizes.last {
            let middle = median(sizes.map(Double.init)) ?? 0
            lines.append(
                "  sizes     \(formatGrouped(first)) to \(formatGrouped(last)) items, median \(formatPlain(middle)); \(formatGrouped(trace.itemCount)) in all"
            )
        }
        lines.append("  ids       \(formatGrouped(trace.ids.count)) distinct; \(repeated) of \(trace.versions.count) versions repeat an identifier")
        let times = trace.versions.compactMap(\.timestampMs)
        if trace.hasTimestamps, let first = times.first, let last = times.last {
            let gaps = zip(times.dropFirst(), times).map { Double($0 - $1) / 1000 }
            let gap = median(gaps).map { ", median interval \(formatSeconds($0))" } ?? ""
            lines.append("  times     \(formatSeconds(Double(last - first) / 1000)) from first to last\(gap)")
        } else {
            lines.append("  times     none")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
