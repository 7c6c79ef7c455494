import DiffLabCLI

/// The verdict of `swift package diagnose-api-breaking-changes`, read from its output.
///
/// The tool prints, per module, either "No breaking changes detected in M" or "N breaking change(s)
/// detected in M:" followed by one "💔 API breakage: <kind> <name> <what changed>" line per change.
/// A product the baseline does not have is "Skipping M because it does not exist in the
/// baseline": a new module, with nothing to compare (``newModules``). Every other line (the two
/// builds' progress) is skipped.
struct APIBreakageReport: Sendable, Equatable {
    /// One breaking change.
    struct Breakage: Sendable, Equatable {
        /// The module it is in.
        var module: String
        /// The declaration's kind as the tool names it (`func`, `var`, `constructor`, `struct`, ...).
        var kind: String
        /// The declaration's qualified name (`DiffResult.forBatchUpdates()`).
        var name: String
        /// The whole description after "API breakage: ".
        var text: String
    }

    /// Every module the report names, in order, with or without changes.
    var modules: [String] = []
    /// Every breaking change, in order.
    var breakages: [Breakage] = []
    /// The modules the baseline does not have (new since it): nothing of theirs can break.
    var newModules: [String] = []

    /// The most lines a report may hold.
    static let maxLines = 1_000_000

    /// Parses the tool's output.
    ///
    /// - Throws: ``CommandError`` with status 65 when a breakage line comes before any module's
    ///   header, or a header's count disagrees with the lines that follow it.
    /// - Complexity: O(text).
    init(parsing text: Substring, name: String) throws(CommandError) {
        var expected: (module: String, count: Int)?
        func close(_ number: Int) throws(CommandError) {
            guard let open = expected else { return }
            let found = breakages.count(where: { $0.module == open.module })
            guard found == open.count else {
                throw .data("\(name):\(number): \(open.module) announces \(open.count) breaking changes but \(found) follow")
            }
            expected = nil
        }
        var number = 0
        for raw in textLines(text) {
            number += 1
            guard number <= Self.maxLines else { throw .data("\(name): more than \(Self.maxLines) lines") }
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("Skipping "), line.hasSuffix(" because it does not exist in the baseline") {
                try close(number)
                newModules.append(String(line.dropFirst("Skipping ".count).dropLast(" because it does not exist in the baseline".count)))
            } else if line.hasPrefix("No breaking changes detected in ") {
                try close(number)
                modules.append(String(line.dropFirst("No breaking changes detected in ".count)))
            } else if let range = line.firstRange(of: " detected in "), line.hasSuffix(":"),
                let count = Int(line.prefix(while: { $0.isNumber })), count > 0,
                line[..<range.lowerBound].hasSuffix("breaking changes") || line[..<range.lowerBound].hasSuffix("breaking change")
            {
                try close(number)
                let module = String(line[range.upperBound...].dropLast())
                modules.append(module)
                expected = (module, count)
            } else if let range = line.firstRange(of: "API breakage: ") {
                guard let module = expected?.module else {
                    throw .data("\(name):\(number): an API breakage line before any \"N breaking changes detected in MODULE:\" line")
                }
                let description = String(line[range.upperBound...])
                let words = description.split(separator: " ", maxSplits: 2)
                guard words.count >= 2 else { throw .data("\(name):\(number): expected \"API breakage: <kind> <name> ...\"") }
                breakages.append(Breakage(module: module, kind: String(words[0]), name: String(words[1]), text: description))
            }
        }
        try close(number)
    }
}

/// The breaking changes a changelog declares: the text of the `### Breaking` subsection (any
/// heading that starts so, such as "### Breaking changes") of its `## [Unreleased]` section.
///
/// - Returns: the subsection's text, or `nil` when there is no unreleased section or it has no
///   breaking subsection.
/// Its lines may end in LF or CRLF.
///
/// - Complexity: O(changelog).
func declaredBreakingChanges(in changelog: Substring) -> Substring? {
    var inUnreleased = false
    var start: Substring.Index?
    var end = changelog.endIndex
    var index = changelog.startIndex
    while index < changelog.endIndex {
        let lineEnd = changelog[index...].firstIndex(where: isLineBreak) ?? changelog.endIndex
        let line = changelog[index..<lineEnd]
        if line.hasPrefix("## ") {
            if start != nil {
                end = index
                break
            }
            inUnreleased = line.dropFirst(3).lowercased().hasPrefix("[unreleased]") || line.dropFirst(3).lowercased().hasPrefix("unreleased")
        } else if line.hasPrefix("### ") {
            if start != nil {
                end = index
                break
            }
            if inUnreleased, line.dropFirst(4).lowercased().hasPrefix("breaking") {
                start = lineEnd
            }
        }
        index = lineEnd < changelog.endIndex ? changelog.index(after: lineEnd) : lineEnd
    }
    guard let start else { return nil }
    return changelog[start..<end]
}

/// `difflab-dev api-check`: fails on a breaking change of the public API that the changelog does
/// not declare.
enum APICheckCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let report = Positionals("REPORT", count: 1...1) { _ in "api-check takes the output of swift package diagnose-api-breaking-changes" }
        let changelog = Option.text("changelog", "FILE", help: "the changelog whose unreleased section declares breaking changes").required()
        let modules = Option<[String]>(
            "modules", "LIST", help: "the modules the report must cover (each library product's module)",
            constraint: "a comma-separated list of module names"
        ) { text throws(CommandError) in try parseList(text, "--modules") { item throws(CommandError) in item } }.required()
        let baseline = Option.text("baseline", "TAG", help: "the release the report compares with (named in the output)")
        init() {}
    }

    static let name = "api-check"
    static let tool = "difflab-dev"
    static let abstract = "fail on a breaking API change that the changelog does not declare"
    static let discussion = """
        Reads the output of `swift package diagnose-api-breaking-changes TAG --products ...` and the
        changelog. Every module named by --modules must appear in the report (a report that checked
        nothing, such as a failed build's, fails), compared or, when the baseline does not have it,
        skipped as new. Each "API breakage: <kind> <name> ..." line must be
        declared: its <name> (e.g. `DiffResult.forBatchUpdates()`) must appear in the "### Breaking"
        subsection of the changelog's "## [Unreleased]" section. Scripts/api-check runs it against the
        last release tag.
        """
    static let epilogue = """
        EXIT STATUS
          0 no breaking change, or every one declared; 1 an undeclared breaking change, or a module
          the report does not cover; 64 bad command line; 65 malformed report; 66 unreadable file
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let reportPath = parsed[\.report][0]
        let changelogPath = parsed.required(\.changelog)
        let report = try APIBreakageReport(
            parsing: Substring(decoding: try readInputFile(reportPath), as: UTF8.self), name: reportPath)
        let changelog = Substring(decoding: try readInputFile(changelogPath), as: UTF8.self)
        let against = parsed[\.baseline].map { " against \($0)" } ?? ""
        let uncovered = parsed.required(\.modules).filter { !report.modules.contains($0) && !report.newModules.contains($0) }
        guard uncovered.isEmpty else {
            console.err(
                "api-check: \(reportPath) does not cover \(uncovered.joined(separator: ", ")): the API was not compared (did a build fail?)\n")
            return .failure
        }
        if !report.newModules.isEmpty {
            console.out("api-check: new since the baseline, nothing to compare: \(report.newModules.joined(separator: ", "))\n")
        }
        let declared = declaredBreakingChanges(in: changelog)
        let undeclared = report.breakages.filter { breakage in declared.map { !$0.contains(breakage.name) } ?? true }
        let modules = report.modules.count
        if report.breakages.isEmpty {
            console.out("api-check: no breaking change in \(modules) modules\(against)\n")
            return .success
        }
        if undeclared.isEmpty {
            console.out(
                "api-check: \(report.breakages.count) breaking changes in \(modules) modules\(against), each declared in \(changelogPath)\n")
            return .success
        }
        console.err(
            "api-check: \(undeclared.count) of \(report.breakages.count) breaking changes\(against) are not declared in the "
                + "\"### Breaking\" subsection of the \"## [Unreleased]\" section of \(changelogPath):\n")
        for breakage in undeclared { console.err("  \(breakage.module): \(breakage.text)\n") }
        console.err("Declare each by name (e.g. `\(undeclared[0].name)`) and bump the major version (minor before 1.0).\n")
        return .failure
    }
}
