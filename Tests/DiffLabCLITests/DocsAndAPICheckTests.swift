import DiffLabJSON
import DiffLabPlatform
import Testing

@testable import DiffLabCLI
@testable import DiffLabDev

@Suite("difflab-dev docs-check and api-check")
struct DocsAndAPICheckTests {
    /// A symbol graph of module M: two types, a global function, a member and an extension block.
    static let graph = """
        {"module": {"name": "M"}, "symbols": [
          {"kind": {"identifier": "swift.struct"}, "pathComponents": ["Alpha"]},
          {"kind": {"identifier": "swift.protocol"}, "pathComponents": ["Beta"]},
          {"kind": {"identifier": "swift.func"}, "pathComponents": ["run(_:options:)"]},
          {"kind": {"identifier": "swift.property"}, "pathComponents": ["Alpha", "value"]},
          {"kind": {"identifier": "swift.extension"}, "pathComponents": ["Array"]}
        ]}
        """

    @Test func readsTheTopLevelSymbols() throws {
        let names = try SymbolGraphNames(try JSONValue.parse(bytes: Array(Self.graph.utf8)), name: "g.json")
        #expect(names.module == "M")
        #expect(names.names == ["Alpha", "Beta", "run(_:options:)"])
    }

    @Test func curationCountsTopicLinksOnly() {
        var curation = CatalogCuration()
        curation.read(
            """
            # ``M``

            Mentions ``Beta`` in prose, which curates nothing.

            ## Topics

            ### Types
            - ``Alpha-swift.struct``
            - ``M/run(_:options:)``
            - ``Alpha/value``

            ## See Also
            - ``Beta``
            """)
        #expect(curation.modulePages == ["M"])
        let graph = SymbolGraphNames(module: "M", names: ["Alpha", "Beta", "run(_:options:)"])
        #expect(curation.uncurated(graph) == ["Beta"], "prose and See Also do not curate")
        curation.read("# An article\n\n## Topics\n\n### More\n- ``Beta``\n")
        #expect(curation.uncurated(graph).isEmpty, "an article's topic group curates too")
    }

    @Test func theCommandFailsOnAnUncuratedSymbolAMissingModulePageAndAnEmptyGraph() throws {
        let files = Files([
            "g.json": Self.graph,
            "empty.json": #"{"module": {"name": "M"}, "symbols": []}"#,
        ])
        let catalog = files.path("M.docc")
        try FileSystem.makeDirectory(catalog)
        try FileSystem.makeDirectory(catalog + "/Articles")
        func write(_ name: String, _ text: String) { writeTextFile(catalog + "/" + name, text) }
        write("M.md", "# ``M``\n\nThe module.\n\n## Topics\n\n### Types\n- ``Alpha``\n- ``Beta``\n")
        let partial = runDev(["docs-check", files.path("g.json"), "--catalog", catalog])
        #expect(partial.status == 1)
        #expect(partial.err.contains("1 of 3 top-level symbols"))
        #expect(partial.err.contains("``run(_:options:)``"))

        write("Articles/Guide.md", "# Guide\n\nText.\n\n## Topics\n\n### Functions\n- ``run(_:options:)``\n")
        let complete = runDev(["docs-check", files.path("g.json"), "--catalog", catalog])
        #expect(complete.status == 0, "\(complete.err)")
        #expect(complete.out.contains("all 3 top-level symbols are curated"))

        // docc's diagnostics of the module's own build: a link to another module's symbol in a
        // Swift comment is allowed; one in the catalog, or any other warning, is not.
        func diagnostics(_ entries: [(summary: String, source: String)]) -> String {
            let list = entries.map {
                #"{"severity": "warning", "summary": "\#($0.summary)", "source": "file:///r/\#($0.source)", "range": {"start": {"line": 3}}}"#
            }
            return #"{"version": {"major": 1}, "diagnostics": ["# + list.joined(separator: ",") + "]}"
        }
        let crossModule = ("'DiffEngine' doesn't exist at '/M/Alpha'", "Sources/M/Alpha.swift")
        write("cross.json", diagnostics([crossModule]))
        write("inCatalog.json", diagnostics([crossModule, ("'Gamma' doesn't exist at '/M'", "Sources/M/M.docc/M.md")]))
        write("params.json", diagnostics([("Parameter 'old' is missing documentation", "Sources/M/Alpha.swift")]))
        let allowed = runDev(["docs-check", files.path("g.json"), "--catalog", catalog, "--diagnostics", catalog + "/cross.json"])
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(allowed.out.contains("only diagnostics are 1 links to other modules' symbols"))
        let inCatalog = runDev(["docs-check", files.path("g.json"), "--catalog", catalog, "--diagnostics", catalog + "/inCatalog.json"])
        #expect(inCatalog.status == 1)
        #expect(inCatalog.err.contains("/r/Sources/M/M.docc/M.md:3: warning: 'Gamma' doesn't exist"))
        let params = runDev(["docs-check", files.path("g.json"), "--catalog", catalog, "--diagnostics", catalog + "/params.json"])
        #expect(params.status == 1)
        #expect(params.err.contains("1 problems"))
        let notDiagnostics = runDev(["docs-check", files.path("g.json"), "--catalog", catalog, "--diagnostics", files.path("g.json")])
        #expect(notDiagnostics.status == 65)

        let empty = runDev(["docs-check", files.path("empty.json"), "--catalog", catalog])
        #expect(empty.status == 1)
        #expect(empty.err.contains("nothing was checked"))

        write("M.md", "# The module\n\n## Topics\n\n### Types\n- ``Alpha``\n- ``Beta``\n")
        let noPage = runDev(["docs-check", files.path("g.json"), "--catalog", catalog])
        #expect(noPage.status == 1)
        #expect(noPage.err.contains("no page titled"))

        let missing = runDev(["docs-check", files.path("g.json"), "--catalog", files.path("nowhere")])
        #expect(missing.status == 66)
        let malformed = runDev(["docs-check", files.path("M.docc/M.md"), "--catalog", catalog])
        #expect(malformed.status == 65)
        let usage = runDev(["docs-check", files.path("g.json")])
        #expect(usage.status == 64)
    }

    /// The output of `swift package diagnose-api-breaking-changes` (Swift 6.3) on two modules.
    static let breakingReport = """
        Building for debugging...
        Build complete! (1.63s)

        No breaking changes detected in B

        2 breaking changes detected in A:
          💔 API breakage: constructor Foo.init() has been removed
          💔 API breakage: var Foo.value has been removed

        """

    @Test func parsesTheToolsReport() throws {
        let report = try APIBreakageReport(parsing: Substring(Self.breakingReport), name: "r.txt")
        #expect(report.modules == ["B", "A"])
        #expect(report.breakages.map(\.name) == ["Foo.init()", "Foo.value"])
        #expect(report.breakages.map(\.kind) == ["constructor", "var"])
        #expect(report.breakages.allSatisfy { $0.module == "A" })
    }

    @Test(arguments: [
        ("  💔 API breakage: func f() has been removed\n", "before any"),
        ("2 breaking changes detected in A:\n  💔 API breakage: func f() has been removed\n", "announces 2"),
        ("1 breaking change detected in A:\n  💔 API breakage: removed\n", "expected \"API breakage: <kind> <name>"),
    ])
    func malformedReportsNameTheLine(text: String, expected: String) {
        #expect {
            _ = try APIBreakageReport(parsing: Substring(text), name: "r.txt")
        } throws: { error in
            guard let error = error as? CommandError else { return false }
            return error.status == .dataError && error.message.contains(expected) && error.message.hasPrefix("r.txt")
        }
    }

    @Test func theChangelogsUnreleasedBreakingSubsectionDeclares() {
        let changelog = """
            # Changelog

            ## [Unreleased]

            ### Added
            - `Foo.value` is documented.

            ### Breaking changes
            - `Foo.init()` is removed: use `Foo(x:)`.

            ## [0.1.0] - 2026-12-04

            ### Breaking changes
            - `Foo.value` was removed long ago.
            """
        let declared = declaredBreakingChanges(in: Substring(changelog))
        #expect(declared?.contains("Foo.init()") == true)
        #expect(declared?.contains("Foo.value") == false, "neither Added nor a released section declares")
        #expect(declaredBreakingChanges(in: "# Changelog\n\n## [0.1.0]\n\n### Breaking\n- x\n") == nil)
    }

    @Test func theCommandFailsOnAnUndeclaredBreakageOrAnUncoveredModule() {
        let unreleased = "# Changelog\n\n## [Unreleased]\n\n### Breaking\n"
        let files = Files([
            "breaking.txt": Self.breakingReport,
            "clean.txt": "No breaking changes detected in A\nNo breaking changes detected in B\n",
            "new.txt": "No breaking changes detected in A\nSkipping C because it does not exist in the baseline\nNo breaking changes detected in B\n",
            "failed.txt": "error: fatalError\nBuild failed\n",
            "none.md": unreleased,
            "one.md": unreleased + "- `Foo.init()` is removed.\n",
            "both.md": unreleased + "- `Foo.init()` and `Foo.value` are removed.\n",
        ])
        func check(_ report: String, _ changelog: String, modules: String = "A,B") -> (status: Int32, out: String, err: String) {
            runDev(["api-check", files.path(report), "--changelog", files.path(changelog), "--modules", modules, "--baseline", "0.1.0"])
        }
        let clean = check("clean.txt", "none.md")
        #expect(clean.status == 0)
        #expect(clean.out.contains("no breaking change in 2 modules against 0.1.0"))

        let undeclared = check("breaking.txt", "none.md")
        #expect(undeclared.status == 1)
        #expect(undeclared.err.contains("2 of 2 breaking changes against 0.1.0 are not declared"))
        let half = check("breaking.txt", "one.md")
        #expect(half.status == 1)
        #expect(half.err.contains("A: var Foo.value has been removed"))
        #expect(!half.err.contains("constructor Foo.init()"))
        let declared = check("breaking.txt", "both.md")
        #expect(declared.status == 0, "\(declared.err)")
        #expect(declared.out.contains("2 breaking changes in 2 modules against 0.1.0, each declared"))

        let failedBuild = check("failed.txt", "none.md")
        #expect(failedBuild.status == 1)
        #expect(failedBuild.err.contains("does not cover A, B"))
        let uncovered = check("clean.txt", "none.md", modules: "A,B,C")
        #expect(uncovered.status == 1)
        #expect(uncovered.err.contains("does not cover C"))
        // A product the baseline does not have is new: the tool skips it, and so may the check.
        let new = check("new.txt", "none.md", modules: "A,B,C")
        #expect(new.status == 0, "\(new.err)")
        #expect(new.out.contains("new since the baseline, nothing to compare: C"))
        #expect(check("new.txt", "none.md", modules: "A,B,C,D").err.contains("does not cover D"))
    }

    static let commit = String(repeating: "0123456789", count: 4)

    @Test func theReleaseRecordIsReadLineByLine() throws {
        let record = try ReleaseRecord(parsing: "# comment\n\n0.1.0\t\(Self.commit)\r\n0.2.0\t\(String(Self.commit.reversed()))\n", name: "r.tsv")
        #expect(record.releases.map(\.name) == ["0.1.0", "0.2.0"])
        #expect(record.commit(of: "0.1.0") == Self.commit)
        #expect(record.commit(of: "0.3.0") == nil)
        #expect(try ReleaseRecord(parsing: "", name: "r.tsv").releases.isEmpty)
    }

    @Test(arguments: [
        ("0.1.0 \(commit)\n", "r.tsv:1: expected \"N.N.N<TAB>COMMIT\""),
        ("# c\nv0.1.0\t\(commit)\n", "r.tsv:2: expected"),
        ("0.1\t\(commit)\n", "expected"),
        ("0.1.0\t\(commit)\textra\n", "expected"),
        ("0.1.0\t06f0c03\n", "r.tsv:1: the commit of 0.1.0 must be 40 lowercase hexadecimal digits"),
        ("0.1.0\t\(commit.uppercased().replacing("0", with: "A"))\n", "40 lowercase"),
        ("0.1.0\t\(commit)\n0.1.0\t\(commit)\n", "r.tsv:2: release 0.1.0 is recorded twice"),
        ("1234567890.0.0\t\(commit)\n", "expected"),
    ])
    func aMalformedReleaseRecordNamesTheLine(_ text: String, _ expected: String) {
        #expect {
            _ = try ReleaseRecord(parsing: Substring(text), name: "r.tsv")
        } throws: { error in
            guard let error = error as? CommandError else { return false }
            return error.status == .dataError && error.message.contains(expected)
        }
    }

    @Test func theNewestReleaseIsTheFirstReleaseHeading() {
        #expect(newestRelease(in: "# C\n\n## [Unreleased]\n\n## [0.2.0] - 2027-01-01\n\n## [0.1.0]\n") == "0.2.0")
        #expect(newestRelease(in: "# C\n\n## [Unreleased]\n\n### [9.9.9]\n- [1.0.0]\n") == nil)
        #expect(newestRelease(in: "## [0.1]\n## [1.x.0]\n## [1.2.3\n") == nil)
        #expect(newestRelease(in: "# C\r\n\r\n## [Unreleased]\r\n\r\n## [0.2.0]\r\n") == "0.2.0", "a CRLF changelog")
    }

    /// Swift reads "\r\n" as one Character, so a CRLF file split on "\n" alone would be one line.
    @Test func crlfChangelogsAndReportsReadAsLF() throws {
        let changelog = "# Changelog\n\n## [Unreleased]\n\n### Breaking\n- `Foo.init()` is removed.\n\n### Added\n- `Foo.value`\n"
        let crlf = changelog.replacing("\n", with: "\r\n")
        #expect(declaredBreakingChanges(in: Substring(crlf))?.contains("Foo.init()") == true)
        #expect(declaredBreakingChanges(in: Substring(crlf))?.contains("Foo.value") == false)
        let report = try APIBreakageReport(parsing: Substring(Self.breakingReport.replacing("\n", with: "\r\n")), name: "r.txt")
        #expect(report == (try APIBreakageReport(parsing: Substring(Self.breakingReport), name: "r.txt")))
        #expect(report.breakages.count == 2)
    }

    @Test func theBaselineCommandPrintsTheNewestReleasesCommit() {
        let files = Files([
            "released.md": "# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2026-12-04\n",
            "unreleased.md": "# Changelog\n\n## [Unreleased]\n",
            "record.tsv": "0.1.0\t\(Self.commit)\n",
            "empty.tsv": "# nothing yet\n",
            "bad.tsv": "0.1.0 \(Self.commit)\n",
        ])
        func baseline(_ changelog: String, _ releases: String) -> (status: Int32, out: String, err: String) {
            runDev(["api-baseline", "--changelog", files.path(changelog), "--releases", files.path(releases)])
        }
        let found = baseline("released.md", "record.tsv")
        #expect(found.status == 0)
        #expect(found.out == "0.1.0 \(Self.commit)\n")
        let none = baseline("unreleased.md", "empty.tsv")
        #expect(none.status == 0)
        #expect(none.out.isEmpty, "no release yet: nothing to compare with, and the script says it skipped")
        let missing = baseline("released.md", "empty.tsv")
        #expect(missing.status == 1)
        #expect(missing.out.isEmpty)
        #expect(missing.err.contains("names release 0.1.0, but"))
        #expect(missing.err.contains("records no commit for it"))
        let malformed = baseline("released.md", "bad.tsv")
        #expect(malformed.status == 65)
        #expect(malformed.err.contains("bad.tsv:1: expected"))
        #expect(baseline("released.md", "absent.tsv").status == 66)
    }

    /// The repository's own record names the commit of the newest release its changelog names.
    @Test func theRepositoryRecordsItsNewestRelease() throws {
        let root = cliPackageRoot
        let result = runDev(["api-baseline", "--changelog", root + "/CHANGELOG.md", "--releases", root + "/Corpus/releases.tsv"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.split(separator: " ").count == 2)
    }
}
