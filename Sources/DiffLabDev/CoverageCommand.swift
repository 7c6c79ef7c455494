import DiffLabCLI
import DiffLabJSON

/// Line and branch coverage read from an LCOV tracefile (`llvm-cov export -format=lcov`).
///
/// Only the records a coverage run needs are read: `SF:` (a source file), `DA:line,count` (a
/// line's execution count), `BRDA:line,block,branch,taken` (a branch, `-` for never evaluated)
/// and `end_of_record`; every other record is skipped. A malformed record is a typed error naming
/// its line of the tracefile.
struct LCOVReport: Sendable, Equatable {
    /// One source file's counts.
    struct File: Sendable, Equatable {
        /// The path as the tracefile names it.
        var path: String
        /// Execution count of each instrumented line, by line number.
        var lines: [Int: UInt64] = [:]
        /// Branches: (line, taken at least once).
        var branches: [(line: Int, taken: Bool)] = []

        static func == (a: File, b: File) -> Bool {
            a.path == b.path && a.lines == b.lines && a.branches.elementsEqual(b.branches, by: { $0 == $1 })
        }
    }

    /// The files, in the tracefile's order.
    var files: [File]

    /// The most source files a tracefile may name (a far larger one is not a coverage run of
    /// this package).
    static let maxFiles = 100_000

    /// Parses `text`.
    ///
    /// - Throws: ``CommandError`` with status 65 naming the tracefile line and what was expected.
    /// - Complexity: O(text).
    init(parsing text: Substring, name: String) throws(CommandError) {
        files = []
        var current: File?
        var number = 0
        func bad(_ what: String) -> CommandError { .data("\(name):\(number): \(what)") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let record = line.hasSuffix("\r") ? line.dropLast() : line
            if record.hasPrefix("SF:") {
                guard current == nil else { throw bad("SF: before the previous file's end_of_record") }
                guard files.count < Self.maxFiles else { throw bad("more than \(Self.maxFiles) source files") }
                current = File(path: String(record.dropFirst(3)))
            } else if record == "end_of_record" {
                guard let file = current else { throw bad("end_of_record without SF:") }
                files.append(file)
                current = nil
            } else if record.hasPrefix("DA:") {
                guard current != nil else { throw bad("DA: outside a file record") }
                let fields = record.dropFirst(3).split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count >= 2, let lineNumber = Int(fields[0]), lineNumber > 0, let count = UInt64(fields[1])
                else { throw bad("DA: must be 'DA:<line>,<count>' with a positive line and a count ≥ 0") }
                let (sum, overflow) = (current!.lines[lineNumber] ?? 0).addingReportingOverflow(count)
                current!.lines[lineNumber] = overflow ? .max : sum
            } else if record.hasPrefix("BRDA:") {
                guard current != nil else { throw bad("BRDA: outside a file record") }
                let fields = record.dropFirst(5).split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count == 4, let lineNumber = Int(fields[0]), lineNumber > 0,
                    fields[3] == "-" || UInt64(fields[3]) != nil
                else { throw bad("BRDA: must be 'BRDA:<line>,<block>,<branch>,<taken or ->'") }
                current!.branches.append((lineNumber, fields[3] != "-" && fields[3] != "0"))
            }
        }
        guard current == nil else { throw CommandError(.dataError, "\(name): the last file record has no end_of_record") }
        guard !files.isEmpty else {
            throw CommandError(.dataError, "\(name): no SF: record (expected an LCOV tracefile, as llvm-cov export -format=lcov writes)")
        }
    }
}

/// A line that may stay unreached, with the reason: read from the exemptions file.
struct CoverageExemption: Sendable, Equatable {
    /// The end of the source file's path (e.g. `Sources/DiffLabEngines/MyersEngine.swift`).
    var file: String
    /// Text the line must contain.
    var lineContains: String
    /// Why no input can reach it.
    var reason: String

    /// The most exemptions a file may list.
    static let maxCount = 10_000

    /// Reads `{"schema": "difflab-coverage-exemptions/1", "exemptions": [{"file", "lineContains",
    /// "reason"}, ...]}`; every string non-empty.
    ///
    /// - Throws: ``CommandError`` with status 65 naming the field.
    static func list(_ json: JSONValue, name: String) throws(CommandError) -> [CoverageExemption] {
        guard json["schema"]?.stringValue == "difflab-coverage-exemptions/1" else {
            throw .data("\(name): \"schema\" must be \"difflab-coverage-exemptions/1\"")
        }
        guard let entries = json["exemptions"]?.arrayValue else { throw .data("\(name): \"exemptions\" must be an array") }
        guard entries.count <= maxCount else { throw .data("\(name): \"exemptions\" holds more than \(maxCount) entries") }
        return try entries.enumerated().map { (i, entry) throws(CommandError) in
            func field(_ key: String) throws(CommandError) -> String {
                guard let text = entry[key]?.stringValue, !text.isEmpty else {
                    throw .data("\(name): \"exemptions\"[\(i)].\(key) must be a non-empty string")
                }
                return text
            }
            return CoverageExemption(file: try field("file"), lineContains: try field("lineContains"), reason: try field("reason"))
        }
    }
}

/// `difflab-dev coverage`: what a coverage run reached, and every line it did not.
enum CoverageCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let file = Positionals("TRACEFILE", count: 1...1) { _ in "coverage takes one tracefile" }
        let root = Option.text(
            "root", "DIR", help: "paths are shown relative to DIR",
            defaultText: "the working directory's path as the tracefile spells it, when it starts with it")
        let require = Option<[String]>(
            "require", "LIST", default: CoverageCommand.defaultRequired,
            help: "paths (ends of file paths, or folders) whose every line must be reached or exempted", constraint: "a comma-separated list",
            defaultText: CoverageCommand.defaultRequired.joined(separator: ",")
        ) { text throws(CommandError) in try parseList(text, "--require") { item throws(CommandError) in item } }
        let exemptions = Option.text(
            "exemptions", "FILE", help: "the exemptions file", defaultText: "\(CoverageCommand.defaultExemptions) when it exists")
        init() {}
    }

    static let name = "coverage"
    static let tool = "difflab-dev"
    static let abstract = "line coverage of a fuzzing run, every line not reached"
    static let discussion = """
        Reads an LCOV tracefile (llvm-cov export -format=lcov; Scripts/fuzz-coverage makes one from
        a run of difflab fuzz) and prints line and branch coverage per folder and per file, then
        every line not reached, with its source text, grouped into ranges. A line may be exempted
        with a reason (an overflow guard no list of this machine's memory can reach, say): the
        exemptions file lists {"file", "lineContains", "reason"} entries, matched by the end of the
        path and the line's text, so they survive edits elsewhere in the file. An exemption covers
        the declaration that starts on the line it matches, to the brace that closes it (a whole
        unreached accessor or function, say). An exemption that matches no unreached line is
        reported as stale.
        """
    static let epilogue = """
        EXIT STATUS
          0 every required line reached or exempted, 1 some are not (or the tracefile covers
          no required file), 64 bad command line, 65 malformed tracefile or exemptions,
          66 unreadable file
        """

    static let defaultRequired = ["Sources/DiffLabEngines", "Sources/DiffLabCore/DiffResult.swift"]
    static let defaultExemptions = "Corpus/coverage/exemptions.json"

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let tracePath = parsed[\.file][0]
        let required = parsed.required(\.require)
        var exemptions: [CoverageExemption] = []
        if let path = parsed[\.exemptions] ?? (pathExists(defaultExemptions) ? defaultExemptions : nil) {
            exemptions = try CoverageExemption.list(try readJSON(path), name: path)
        }
        let report = try LCOVReport(parsing: Substring(decoding: try readInputFile(tracePath), as: UTF8.self), name: tracePath)
        let base = parsed[\.root] ?? currentDirectory()
        let root = base.hasSuffix("/") ? base : base + "/"
        func shown(_ path: String) -> String {
            if path.hasPrefix(root) { return String(path.dropFirst(root.count)) }
            return path
        }
        return try summarize(report, shown: shown, required: required, exemptions: exemptions, console: console)
    }

    /// Prints the tables and the unreached lines; the verdict on the required files.
    static func summarize(
        _ report: LCOVReport, shown: (String) -> String, required: [String], exemptions: [CoverageExemption],
        source: (String) -> [Substring]? = sourceLines, console: Console
    ) throws(CommandError) -> ExitStatus {
        struct Tally {
            var lines = 0, reached = 0, branches = 0, taken = 0
            mutating func add(_ file: LCOVReport.File) {
                lines += file.lines.count
                reached += file.lines.values.count(where: { $0 > 0 })
                branches += file.branches.count
                taken += file.branches.count(where: \.taken)
            }
            var cells: String {
                let branchCell = branches == 0 ? "n/a | n/a" : "\(taken)/\(branches) | \(percent(taken, branches))"
                return "\(reached)/\(lines) | \(percent(reached, lines)) | \(branchCell)"
            }
        }
        func percent(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "n/a" : "\(Double(part * 1000 / whole) / 10)%"
        }
        func folder(_ path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return String(path[..<slash])
        }
        func isRequired(_ path: String) -> Bool {
            required.contains { path == $0 || path.hasSuffix("/" + $0) || path.hasPrefix($0 + "/") || path.contains("/" + $0 + "/") }
        }
        var folders: [String: Tally] = [:]
        var order: [String] = []
        for file in report.files {
            let name = folder(shown(file.path))
            if folders[name] == nil { order.append(name) }
            folders[name, default: Tally()].add(file)
        }
        console.out("| folder | lines reached | % | branches taken | % |\n|---|---:|---:|---:|---:|\n")
        var total = Tally()
        for name in order {
            console.out("| \(name) | \(folders[name]!.cells) |\n")
        }
        for file in report.files { total.add(file) }
        console.out("| all | \(total.cells) |\n\n")

        var usedExemptions = Set<Int>()
        var unjustified = 0
        var requiredFiles = 0
        var unreachedLines = 0
        console.out("Lines not reached:\n")
        for file in report.files {
            let path = shown(file.path)
            let mandatory = isRequired(path)
            if mandatory { requiredFiles += 1 }
            let missed = file.lines.filter { $0.value == 0 }.keys.sorted()
            guard !missed.isEmpty else { continue }
            let text = source(file.path)
            func code(_ line: Int) -> Substring { text.flatMap { line <= $0.count ? $0[line - 1] : nil } ?? "" }
            // An exemption names a line; it covers that line's declaration, to the brace that closes it.
            var justifiedBy: [Int: Int] = [:]
            for line in missed where justifiedBy[line] == nil {
                let code = code(line)
                guard
                    let i = exemptions.indices.first(where: { i in
                        (path == exemptions[i].file || path.hasSuffix("/" + exemptions[i].file)) && code.contains(exemptions[i].lineContains)
                    })
                else { continue }
                let end = text.map { Self.declarationEnd($0, from: line) } ?? line
                for covered in line...end { justifiedBy[covered] = i }
            }
            func exemptionIndex(_ line: Int) -> Int? { justifiedBy[line] }
            // Group runs of consecutive unreached lines that share a verdict.
            var k = 0
            while k < missed.count {
                let line = missed[k]
                let exemption = exemptionIndex(line)
                if let exemption { usedExemptions.insert(exemption) }
                var end = k
                while end + 1 < missed.count && missed[end + 1] == missed[end] + 1 && exemptionIndex(missed[end + 1]) == exemption {
                    end += 1
                }
                let count = end - k + 1
                unreachedLines += count
                let range = count == 1 ? "\(line)" : "\(line)-\(missed[end])"
                let verdict: String
                if let exemption {
                    verdict = "justified: \(exemptions[exemption].reason)"
                } else if mandatory {
                    verdict = "NOT JUSTIFIED"
                    unjustified += count
                } else {
                    verdict = "not required"
                }
                console.out("  \(path):\(range)  \(code(line).trimmingPrefix(while: { $0 == " " }).prefix(100))  [\(verdict)]\n")
                k = end + 1
            }
        }
        if unreachedLines == 0 { console.out("  none\n") }
        for i in exemptions.indices where !usedExemptions.contains(i) {
            console.out("stale exemption (no unreached line matches it): \(exemptions[i].file): \"\(exemptions[i].lineContains)\"\n")
        }
        guard requiredFiles > 0 else {
            console.out("coverage: the tracefile covers no required file (\(required.joined(separator: ", "))): nothing was checked\n")
            return .failure
        }
        console.out(
            "coverage: \(unjustified == 0 ? "every" : "not every") line of \(required.joined(separator: ", ")) reached or justified (\(requiredFiles) files, \(unjustified) lines not justified)\n"
        )
        return unjustified == 0 ? .success : .failure
    }

    /// The lines of the source file at `path`, or `nil` when it cannot be read.
    /// The last line of the declaration that starts on `line` (1-based): the line where the braces
    /// opened from `line` on are closed again, `line` itself when it opens none or they never close.
    /// Braces inside string literals on one line are not counted.
    ///
    /// - Complexity: O(characters from `line` to the declaration's end).
    static func declarationEnd(_ lines: [Substring], from line: Int) -> Int {
        guard line >= 1, line <= lines.count else { return line }
        var depth = 0
        for index in (line - 1)..<lines.count {
            var inString = false
            var escaped = false
            for character in lines[index] {
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                }
            }
            if depth <= 0 { return index + 1 }
        }
        return line
    }

    static func sourceLines(_ path: String) -> [Substring]? {
        guard let bytes = try? readInputFile(path) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { $0 }
    }
}
