import DiffLabCLI
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess

/// The top-level public symbols of one module's symbol graph (`swift-symbolgraph-extract`'s
/// `<Module>.symbols.json`): the names a DocC catalog must curate into topic groups.
///
/// A top-level symbol is one whose `pathComponents` has one element (a type, a protocol, a global
/// function, a global constant); members are documented on their type's page, where DocC groups
/// them itself. Extension blocks (`swift.extension`) are not symbols of their own.
struct SymbolGraphNames: Sendable, Equatable {
    /// The module the graph documents (its `module.name`).
    var module: String
    /// Each top-level symbol's path component (e.g. `DiffResult`, `runBench(_:options:)`), sorted.
    var names: [String]

    /// A graph's names, as given.
    init(module: String, names: [String]) {
        self.module = module
        self.names = names
    }

    /// The most symbols a graph may hold (DiffLab's whole surface is a few thousand).
    static let maxSymbols = 1_000_000

    /// Reads a symbol graph.
    ///
    /// - Throws: ``CommandError`` with status 65 naming the field that is missing or malformed.
    /// - Complexity: O(symbols).
    init(_ json: JSONValue, name: String) throws(CommandError) {
        guard let module = json["module"]?["name"]?.stringValue, !module.isEmpty else {
            throw .data("\(name): module.name must be a non-empty string (expected a symbol graph from swift-symbolgraph-extract)")
        }
        guard let symbols = json["symbols"]?.arrayValue else { throw .data("\(name): \"symbols\" must be an array") }
        guard symbols.count <= Self.maxSymbols else { throw .data("\(name): \"symbols\" holds more than \(Self.maxSymbols) entries") }
        var names = Set<String>()
        for (i, symbol) in symbols.enumerated() {
            guard let path = symbol["pathComponents"]?.arrayValue, let kind = symbol["kind"]?["identifier"]?.stringValue else {
                throw .data("\(name): symbols[\(i)] must have pathComponents (an array) and kind.identifier (a string)")
            }
            guard path.count == 1, kind != "swift.extension" else { continue }
            guard let first = path[0].stringValue, !first.isEmpty else {
                throw .data("\(name): symbols[\(i)].pathComponents[0] must be a non-empty string")
            }
            names.insert(first)
        }
        self.module = module
        self.names = names.sorted()
    }
}

/// What a DocC catalog curates: its module page, and the symbol links listed in the topic groups
/// (`## Topics`, then `### Group` headings and `- ``Symbol``` items) of every page and article.
struct CatalogCuration: Sendable, Equatable {
    /// The module named by a page whose title is "# ``Module``", if any.
    var modulePages: [String] = []
    /// Every symbol link listed under a `## Topics` heading, as written (e.g. `DiffResult`,
    /// `runBench(_:options:)`, `Move-swift.struct`, `DiffLabCore/DiffResult`).
    var curated: [String] = []

    /// Adds one markdown file's module page title and topic links.
    ///
    /// - Complexity: O(text).
    mutating func read(_ text: Substring) {
        var inTopics = false
        var sawTitle = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if !sawTitle, !line.isEmpty {
                sawTitle = true
                if line.hasPrefix("# ``"), line.hasSuffix("``"), line.count > 6 {
                    modulePages.append(String(line.dropFirst(4).dropLast(2)))
                }
            }
            if line.hasPrefix("## ") {
                inTopics = line.dropFirst(3).split(separator: " ") == ["Topics"]
            } else if line.hasPrefix("# ") {
                inTopics = false
            } else if inTopics, line.hasPrefix("- ``") {
                let rest = line.dropFirst(4)
                if let end = rest.firstRange(of: "``") { curated.append(String(rest[..<end.lowerBound])) }
            }
        }
    }

    /// The symbols of `graph` no topic group lists. A link names a symbol when it is the symbol's
    /// name, optionally after `Module/` and before a DocC disambiguation suffix (`-swift.struct`,
    /// `-1a2b3`).
    ///
    /// - Complexity: O(symbols + links).
    func uncurated(_ graph: SymbolGraphNames) -> [String] {
        var listed = Set<String>()
        for link in curated {
            var name = Substring(link)
            if name.hasPrefix(graph.module + "/") { name = name.dropFirst(graph.module.count + 1) }
            if name.contains("/") { continue }  // a member, curated on its type's page
            listed.insert(String(name))
            // A disambiguated link: `Name-swift.struct`, `run(_:)-1a2b3` (a name never holds "-").
            if let dash = name.lastIndex(of: "-") { listed.insert(String(name[..<dash])) }
        }
        return graph.names.filter { !listed.contains($0) }
    }
}

/// One diagnostic of `docc convert --diagnostics-file` (format version 1).
struct DocCDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// `warning`, `error`, `note` or `information`.
    var severity: String
    /// The message.
    var summary: String
    /// The file it is in (a `file://` URL), if any.
    var source: String?
    /// The line, if any.
    var line: Int?

    /// The most diagnostics a file may hold.
    static let maxCount = 1_000_000

    /// A link that a module built alone cannot resolve, in a Swift source's documentation
    /// comment: "'DiffEngine' doesn't exist at '/DiffLabFuzz/FuzzSubject'". A link in a catalog's
    /// own page is not one: a catalog links its own module's symbols only.
    var isCrossModuleLink: Bool {
        severity == "warning" && summary.hasPrefix("'") && summary.contains("' doesn't exist at '")
            && (source?.hasSuffix(".swift") ?? false)
    }

    var description: String {
        let place = source.map { ($0.hasPrefix("file://") ? String($0.dropFirst(7)) : $0) + (line.map { ":\($0)" } ?? "") + ": " } ?? ""
        return "\(place)\(severity): \(summary)"
    }

    /// Reads a diagnostics file: `{"version": {...}, "diagnostics": [{"severity", "summary",
    /// "source", "range": {"start": {"line"}}}, ...]}`.
    ///
    /// - Throws: ``CommandError`` with status 65 naming the field.
    static func list(_ json: JSONValue, name: String) throws(CommandError) -> [DocCDiagnostic] {
        guard let entries = json["diagnostics"]?.arrayValue else {
            throw .data("\(name): \"diagnostics\" must be an array (expected docc's --diagnostics-file)")
        }
        guard entries.count <= maxCount else { throw .data("\(name): \"diagnostics\" holds more than \(maxCount) entries") }
        return try entries.enumerated().map { (i, entry) throws(CommandError) in
            guard let severity = entry["severity"]?.stringValue, let summary = entry["summary"]?.stringValue else {
                throw .data("\(name): \"diagnostics\"[\(i)] must have a severity and a summary (strings)")
            }
            let line = entry["range"]?["start"]?["line"]?.intValue
            return DocCDiagnostic(severity: severity, summary: summary, source: entry["source"]?.stringValue, line: line)
        }
    }
}

/// `difflab-dev docs-check`: every top-level public symbol of a module is curated in its DocC
/// catalog's topic groups.
enum DocsCheckCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let graph = Positionals("SYMBOLGRAPH", count: 1...1) { _ in "docs-check takes one symbol graph file" }
        let catalog = Option.text("catalog", "DIR", help: "the DocC catalog (a .docc folder) that documents the graph's module").required()
        let diagnostics = Option.text(
            "diagnostics", "FILE",
            help: "docc convert's --diagnostics-file of the module's own build: only links to other modules' symbols may be unresolved")
        init() {}
    }

    static let name = "docs-check"
    static let tool = "difflab-dev"
    static let abstract = "check that a DocC catalog curates every top-level public symbol"
    static let discussion = """
        Reads a module's symbol graph (swift-symbolgraph-extract's <Module>.symbols.json) and every
        markdown file of the catalog, and checks that the catalog has the module's page ("# ``Module``")
        and that each top-level symbol (type, protocol, global function or constant) is listed as a
        ``Symbol`` link under a "## Topics" heading of some page or article. DocC files the symbols
        no group lists under generic headings ("Structures"); this check makes curation complete.
        With --diagnostics, it also reads the diagnostics file of `docc convert` on the module's own
        graph (built without --warnings-as-errors): a module built alone cannot resolve a link to
        another module's symbol, which the umbrella build (every module re-exported, warnings as
        errors) has checked. Such a warning ("'X' doesn't exist at ...", in a Swift source's
        documentation comment) is allowed and counted; any other diagnostic, or any in the catalog's
        own pages, fails. Scripts/docs runs it on each catalog.
        """
    static let epilogue = """
        EXIT STATUS
          0 every symbol curated, 1 some are not (or the graph has no symbol, or the catalog no
          module page), 64 bad command line, 65 malformed symbol graph, 66 unreadable file
        """

    /// The most markdown files a catalog may hold.
    static let maxFiles = 10_000

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let graphPath = parsed[\.graph][0]
        let catalogPath = parsed.required(\.catalog)
        let graph = try SymbolGraphNames(try readJSON(graphPath), name: graphPath)
        var curation = CatalogCuration()
        for file in try markdownFiles(in: catalogPath) {
            curation.read(Substring(decoding: try readInputFile(file), as: UTF8.self))
        }
        guard !graph.names.isEmpty else {
            console.err("docs-check: \(graphPath) has no top-level public symbol: nothing was checked\n")
            return .failure
        }
        guard curation.modulePages.contains(graph.module) else {
            console.err("docs-check: \(catalogPath) has no page titled \"# ``\(graph.module)``\" (the module's landing page)\n")
            return .failure
        }
        var status = ExitStatus.success
        let missing = curation.uncurated(graph)
        if missing.isEmpty {
            console.out("docs-check: \(graph.module): all \(graph.names.count) top-level symbols are curated in \(catalogPath)\n")
        } else {
            console.err(
                "docs-check: \(graph.module): \(missing.count) of \(graph.names.count) top-level symbols are in no topic group of \(catalogPath):\n")
            for name in missing { console.err("  ``\(name)``\n") }
            status = .failure
        }
        if let path = parsed[\.diagnostics] {
            let found = try DocCDiagnostic.list(try readJSON(path), name: path)
            let refused = found.filter { !$0.isCrossModuleLink }
            if refused.isEmpty {
                console.out(
                    "docs-check: \(graph.module): docc's only diagnostics are \(found.count) links to other modules' symbols "
                        + "(resolved in the umbrella build)\n")
            } else {
                console.err("docs-check: \(graph.module): docc reported \(refused.count) problems:\n")
                for diagnostic in refused { console.err("  \(diagnostic)\n") }
                status = .failure
            }
        }
        return status
    }

    /// The `.md` files under `directory`, recursively, sorted.
    ///
    /// - Throws: ``CommandError`` with status 66 when `directory` cannot be listed; 65 past
    ///   ``maxFiles``.
    static func markdownFiles(in directory: String) throws(CommandError) -> [String] {
        guard FileSystem.directoryEntries(directory) != nil else { throw CommandError(.noInput, "\(directory): not a readable directory") }
        var found: [String] = []
        var pending = [directory]
        while let folder = pending.popLast() {
            for name in (FileSystem.directoryEntries(folder) ?? []).sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                guard let facts = FileSystem.factsIfPresent(path, followingLinks: false) else { continue }
                if facts.kind == .directory {
                    pending.append(path)
                } else if facts.kind == .regular, name.hasSuffix(".md") {
                    found.append(path)
                }
                guard found.count + pending.count <= maxFiles else {
                    throw .data("\(directory): more than \(maxFiles) files and folders (expected a DocC catalog)")
                }
            }
        }
        return found.sorted()
    }
}
