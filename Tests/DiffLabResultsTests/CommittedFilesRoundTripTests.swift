import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Testing

// Issue 44, item 3: compatibility is proven, not hoped. Every JSON document committed under
// `results/`, `Corpus/` and `Examples/` that a DiffLab record reads is parsed, decoded by that
// record (chosen by its "schema" member, or by its folder for the kinds without one), written
// again by the same record, and the written value must equal the parsed file (`JSONValue ==`:
// object members compared by key whatever their order, numbers by value, strings literally).
//
// Nothing is skipped silently: a file is decoded, or named in `excluded` with its reason, or is
// not JSON at all (it parses neither whole, nor after a decode-fuzz selector byte, nor by its
// first line, as an object or an array); any other file fails the walk. A kind the walk finds
// fewer of than `minimumCounts` says fails, so a walk that compared nothing cannot pass.
//
// `knownDifferences` lists the files today's writers do not give back unchanged, each with the
// paths that differ (array indices as `*`) and why. The test fails when a file differs in any
// other way, and when a listed difference is gone, so the table cannot go stale: whoever fixes a
// writer empties its entry.

/// One kind of committed document, by the record that reads and writes it.
enum CommittedKind: String, CaseIterable, Sendable {
    /// `difflab-bench/1`, ``BenchResults`` (through ``ResultsFile``, as `difflab report` reads it).
    case bench
    /// `difflab-bench-trace/1`, ``TraceBenchResults``.
    case benchTrace
    /// `difflab-arena/1`, ``ArenaResults``.
    case arena
    /// `difflab-policy/1`, ``PolicyResults``.
    case policy
    /// `difflab-policy/2`, ``PolicyGridResults``.
    case policyGrid
    /// `difflab-updaters/1`, ``UpdaterFindingsFile``.
    case updaters
    /// `difflab-gate/1`, ``GateReportFile``.
    case gateReport
    /// `difflab-gate-baseline/1`, ``StoredBaseline``.
    case gateBaseline
    /// `difflab-mutation/1`, ``MutationFile``.
    case mutation
    /// `difflab-mutants/1`, ``MutantCatalogue``.
    case mutantCatalogue
    /// `difflab-policy-costs/1`, ``PolicyCostsRecord`` (`json(asFile: true)`).
    case policyCosts
    /// `difflab-trace/1` JSON lines, ``Trace``.
    case trace
    /// A saved counterexample (no schema), ``RegressionCaseFile``.
    case regressionCase
    /// A `difflab diff` input list (no schema), ``JSONElement``.
    case list
    /// A `difflab stages` input (no schema), ``JSONSections``.
    case sections
    /// A decode-fuzz pair of lists, `[old, new]`, each a ``JSONElement`` list.
    case listPair
    /// A decode-fuzz pair of sectioned lists, `[old, new]`, each ``JSONSections``.
    case sectionsPair
    /// A `difflab validate` input, ``BatchUpdateJSON``.
    case batchUpdate

    /// The kind of a document whose `"schema"` member is `schema`; `nil` for a schema no record
    /// here reads.
    init?(schema: String) {
        switch schema {
        case BenchResults.schema: self = .bench
        case TraceBenchResults.schema: self = .benchTrace
        case ArenaResults.schema: self = .arena
        case PolicyResults.schema: self = .policy
        case PolicyGridResults.schema: self = .policyGrid
        case UpdaterFindingsFile.schema: self = .updaters
        case GateReportFile.schema: self = .gateReport
        case StoredBaseline.schema: self = .gateBaseline
        case MutationFile.schema: self = .mutation
        case MutantCatalogue.schema: self = .mutantCatalogue
        case PolicyCostsRecord.schema: self = .policyCosts
        case Trace.schema: self = .trace
        default: return nil
        }
    }
}

/// Why a committed file does not round-trip today (the reasons of ``CommittedFiles/knownDifferences``).
enum KnownDifference {
    /// `BatchUpdateJSON` has no writer of a whole `difflab validate` input: its one writer,
    /// `encodeChanges` (the changes of each stage `difflab stages` prints), leaves out the item
    /// counts and writes every change key, empty ones included (absent reads as empty).
    static let batchUpdate =
        "BatchUpdateJSON's one writer, encodeChanges (difflab stages' output), leaves out before/after and writes every change key, empty ones included (absent reads as empty)"
}

/// What became of one file of the walk.
enum WalkOutcome: Sendable {
    /// Decoded as `kind` and written again; `differences` between the file and what was written.
    case decoded(CommittedKind, differences: [JSONDifference])
    /// Named in ``CommittedFiles/excluded``.
    case excluded(reason: String)
    /// Not a JSON document (a report, a plot, a patch, a libFuzzer byte seed…).
    case notJSON
    /// A JSON document the walk cannot place, or one its record refused: a failure.
    case failed(String)

    /// The kind decoded, `nil` when the file was not.
    var kind: CommittedKind? {
        if case .decoded(let kind, _) = self { return kind }
        return nil
    }
}

/// The walk over the committed files and what each one gave.
enum CommittedFiles {
    /// The folders walked, relative to the package root. Hidden folders (`.build`, `.git`,
    /// `.swiftpm`, a `.venv`) are not walked: they hold no committed file.
    static let roots = ["results", "Corpus", "Examples"]

    /// At least this many files of each kind are found (today's counts; lower one when such
    /// files are deleted on purpose). Decode-fuzz seeds count as the kind of the file they hold.
    static let minimumCounts: [CommittedKind: Int] = [
        .bench: 9, .benchTrace: 3, .arena: 4, .policy: 2, .policyGrid: 3, .updaters: 3, .gateReport: 4, .gateBaseline: 1,
        .mutation: 15, .mutantCatalogue: 1, .policyCosts: 1, .trace: 3, .regressionCase: 43, .list: 6, .sections: 2,
        .listPair: 3, .sectionsPair: 1, .batchUpdate: 5,
    ]

    /// JSON documents the walk does not round-trip, each with its reason. Every entry must name a
    /// file the walk finds.
    static let excluded: [String: String] = [
        "Corpus/gate/thresholds.json":
            "GateThresholds (DiffLabGate) reads it and has no writer, so there is nothing to re-encode; DiffLabGateTests decodes it (GateTests: the checked-in thresholds equal the defaults)",
        "Corpus/decode-fuzz-seeds/thresholds.bin":
            "the thresholds file behind decode-fuzz selector 5: GateThresholds (DiffLabGate) has no writer; DecoderFuzzingTests feeds it to the harness",
        "Corpus/coverage/exemptions.json":
            "difflab-coverage-exemptions/1 is read by DiffLabDev's CoverageCommand, not by a DiffLabResults record, and has no writer; CoverageCommandTests reads it",
    ]

    /// The files today's writers do not give back unchanged: file → the differing paths (array
    /// indices as `*`) → why. When a writer is fixed, its entries fail the test until removed.
    static let knownDifferences: [String: (paths: Set<String>, reason: String)] = [
        "Corpus/decode-fuzz-seeds/update-valid.bin": (
            ["after", "before", "deleteItems", "deleteSections", "insertItems", "insertSections", "moveSections", "reloadItems", "reloadSections"],
            KnownDifference.batchUpdate
        ),
        "Corpus/decode-fuzz-seeds/update-invalid.bin": (
            ["after", "before", "deleteSections", "moveItems", "reloadSections"],
            KnownDifference.batchUpdate
        ),
        "Corpus/decode-fuzz-regressions/sanitizer-balancing-budget.bin": (
            ["after", "before", "deleteSections", "insertItems", "moveItems", "reloadItems", "reloadSections"],
            KnownDifference.batchUpdate
        ),
        "Corpus/decode-fuzz-regressions/sanitizer-quadratic-slow.bin": (
            ["after", "before", "deleteSections", "insertItems", "moveItems", "reloadItems", "reloadSections"],
            KnownDifference.batchUpdate
        ),
        "Corpus/decode-fuzz-regressions/sanitizer-quadratic-timeout.bin": (
            ["after", "before", "deleteSections", "insertItems", "moveItems", "reloadItems", "reloadSections"],
            KnownDifference.batchUpdate
        ),
    ]

    /// Every file under ``roots``, as paths relative to the package root, sorted.
    static func walk() -> [String] {
        var found: [String] = []
        func visit(_ relative: String) {
            let full = packageRoot + "/" + relative
            guard let facts = FileSystem.factsIfPresent(full, followingLinks: false) else { return }
            if facts.kind == .directory {
                for name in (FileSystem.directoryEntries(full) ?? []).sorted() {
                    // Hidden folders hold build products and caches, never a committed document.
                    let child = relative + "/" + name
                    if name.hasPrefix("."), FileSystem.factsIfPresent(packageRoot + "/" + child, followingLinks: false)?.kind == .directory {
                        continue
                    }
                    visit(child)
                }
            } else {
                found.append(relative)
            }
        }
        for root in roots { visit(root) }
        return found.sorted()
    }

    /// The largest file read: the biggest committed document is under 6 MB.
    static let readLimit = 1 << 28

    /// Decodes `path` by its kind, writes it again and compares; see ``WalkOutcome``.
    static func outcome(_ path: String) -> WalkOutcome {
        if let reason = excluded[path] { return .excluded(reason: reason) }
        guard let bytes = FileSystem.contents(packageRoot + "/" + path, limit: readLimit) else { return .failed("cannot read it") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        do {
            if path.hasPrefix("Corpus/traces/"), name.hasSuffix(".jsonl") { return try traceOutcome(bytes, path) }
            if path.hasPrefix("Corpus/decode-fuzz-seeds/") || path.hasPrefix("Corpus/decode-fuzz-regressions/"), name.hasSuffix(".bin") {
                return try decodeFuzzOutcome(bytes, path)
            }
            if name.hasSuffix(".json") {
                let document = try JSONValue.parse(bytes: bytes)
                guard let kind = kind(of: document, at: path) else {
                    return .failed("a JSON document of no kind this walk knows (schema \(document["schema"]?.briefDescription ?? "absent"))")
                }
                return compared(document, try written(document, as: kind, path), as: kind)
            }
        } catch {
            return .failed("\(error)")
        }
        return looksLikeJSON(bytes) ? .failed("a JSON document the walk does not place: decode it or list it in `excluded`") : .notJSON
    }

    /// The most differences kept per file: enough to give every differing pattern of a committed
    /// file (a writer dropping a member of every measurement lists each).
    static let differenceLimit = 100_000

    /// The kind of a `.json` document: by its `"schema"` member, else by its folder.
    static func kind(of document: JSONValue, at path: String) -> CommittedKind? {
        if let schema = document["schema"]?.stringValue { return CommittedKind(schema: schema) }
        if path.hasPrefix("Corpus/regressions/") || path.hasPrefix("Examples/Arena/Regressions/") { return .regressionCase }
        // An arena run's working folder keeps the regression cases of each library it fuzzed.
        if path.hasPrefix("results/"), path.contains("-work/corpus-") { return .regressionCase }
        if path.hasPrefix("Corpus/examples/sections-") { return .sections }
        if path.hasPrefix("Corpus/examples/") { return .list }
        return nil
    }

    /// `document` decoded as `kind` and written again by the same record.
    static func written(_ document: JSONValue, as kind: CommittedKind, _ source: String) throws -> JSONValue {
        switch kind {
        case .bench, .benchTrace, .arena, .policy, .policyGrid, .updaters:
            let results = try ResultsFile(document, source: source)
            switch results {
            case .bench(let file): return file.json
            case .traceBench(let file): return file.json
            case .arena(let file): return file.json
            case .policy(let file): return file.json
            case .policyGrid(let file): return file.json
            case .updaters(let file): return file.json
            }
        case .gateReport: return try GateReportFile(json: document, source: source).json
        case .gateBaseline: return try StoredBaseline(json: document, source: source).json
        case .mutation: return try MutationFile(json: document, source: source).json
        case .mutantCatalogue: return try MutantCatalogue(json: document, source: source).json
        case .policyCosts: return try PolicyCostsRecord(costsFile: document, source: source).json(asFile: true)
        case .regressionCase: return try RegressionCaseFile(json: document).json
        case .list: return .array(try JSONElement.list(from: document, what: source).map(\.jsonValue))
        case .sections:
            var decoder = ElementDecoder(strings: .literal)
            return try JSONSections(json: document, what: source, decoder: &decoder).json
        case .listPair, .sectionsPair:
            guard let pair = document.arrayValue, pair.count == 2 else { throw WalkError("expected [old, new]") }
            var decoder = ElementDecoder(strings: .literal)
            if kind == .listPair {
                return .array([
                    .array(try decoder.list(from: pair[0], what: "old").map(\.jsonValue)),
                    .array(try decoder.list(from: pair[1], what: "new").map(\.jsonValue)),
                ])
            }
            return .array([
                try JSONSections(json: pair[0], what: "old", decoder: &decoder).json,
                try JSONSections(json: pair[1], what: "new", decoder: &decoder).json,
            ])
        case .batchUpdate:
            // `BatchUpdateJSON`'s one writer: the changes `difflab stages` prints.
            return BatchUpdateJSON.encodeChanges(try BatchUpdateJSON.decode(document, what: source))
        case .trace:
            throw WalkError("a trace is JSON lines, read by traceOutcome")
        }
    }

    /// A `difflab-trace/1` file, line by line: the differences of line N are under `line N`.
    static func traceOutcome(_ bytes: [UInt8], _ path: String) throws -> WalkOutcome {
        let trace = try Trace(jsonLines: bytes, source: path)
        let input = try lines(bytes)
        let output = try lines(Array(trace.jsonLines.utf8))
        var differences: [JSONDifference] = []
        for (index, line) in input.enumerated() {
            let other = index < output.count ? output[index] : .null
            guard case .decoded(_, let found) = compared(line, other, as: .trace) else { return compared(line, other, as: .trace) }
            for var difference in found {
                difference.path = "line \(index + 1)" + (difference.path == "the document" ? "" : ": " + difference.path)
                differences.append(difference)
            }
        }
        if output.count != input.count {
            differences.append(
                JSONDifference(path: "line \(min(input.count, output.count) + 1)", kind: .length, input: "\(input.count)", written: "\(output.count)")
            )
        }
        return .decoded(.trace, differences: differences)
    }

    /// The JSON values of the lines of a JSON-lines text (a final empty line allowed).
    static func lines(_ bytes: [UInt8]) throws -> [JSONValue] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return try lines.map { try JSONValue.parse(bytes: $0) }
    }

    /// The decoders of `difflab-decode-fuzz`, in the order its selector byte picks them
    /// (`DecoderFuzzing.Decoder` in DiffLabDecodeFuzzing, which this target does not link):
    /// batch update, list pair, sectioned model, regression case, results file, gate
    /// thresholds, policy costs, updaters findings. `nil`: the results file's own schema decides.
    static let decodeFuzzSelectors: [CommittedKind?] = [.batchUpdate, .listPair, .sectionsPair, .regressionCase, nil, nil, .policyCosts, .updaters]

    /// A decode-fuzz seed or regression: a selector byte, then a whole document of that decoder.
    static func decodeFuzzOutcome(_ bytes: [UInt8], _ path: String) throws -> WalkOutcome {
        guard let selector = bytes.first else { return .failed("empty: no selector byte") }
        let index = Int(selector & 0x7f) % decodeFuzzSelectors.count
        let document = try JSONValue.parse(bytes: bytes.dropFirst())
        // Selector 4 is a results file (its schema says which); 5, the thresholds, is in `excluded`.
        guard let kind = decodeFuzzSelectors[index] ?? (index == 4 ? document["schema"]?.stringValue.flatMap(CommittedKind.init(schema:)) : nil)
        else {
            return .failed("decoder \(index) of the decode-fuzz harness reads no record this walk writes")
        }
        return compared(document, try written(document, as: kind, path), as: kind)
    }

    /// `input` and what its record wrote of it, compared. The differences are none exactly when
    /// the values are equal (`==`), or the difference finder is wrong and the file fails.
    static func compared(_ input: JSONValue, _ written: JSONValue, as kind: CommittedKind) -> WalkOutcome {
        let differences = jsonDifferences(input, written, limit: differenceLimit)
        guard differences.isEmpty == (input == written) else {
            return .failed("the difference finder says \(differences.count) differences where == says \(input == written ? "equal" : "unequal")")
        }
        return .decoded(kind, differences: differences)
    }

    /// Whether `bytes` hold a JSON object or array: whole, after a selector byte, or on their
    /// first line (JSON lines).
    static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        func container(_ slice: some Collection<UInt8>) -> Bool {
            switch try? JSONValue.parse(bytes: slice) {
            case .object?, .array?: true
            default: false
            }
        }
        let firstLine = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        return container(bytes) || container(bytes.dropFirst()) || container(firstLine)
    }
}

/// A walk failure that is not a record's own error.
struct WalkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite struct CommittedFilesRoundTripTests {
    /// Every file of the walk, with its outcome: computed once (it reads about 20 MB).
    static let outcomes: [(path: String, outcome: WalkOutcome)] = CommittedFiles.walk().map { ($0, CommittedFiles.outcome($0)) }

    @Test func everyCommittedDocumentDecodesAndReencodesToTheSameValue() {
        for (path, outcome) in Self.outcomes {
            switch outcome {
            case .decoded(let kind, let differences):
                let patterns = Set(differences.map(\.pattern))
                if let known = CommittedFiles.knownDifferences[path] {
                    #expect(
                        patterns == known.paths,
                        "\(path) (\(kind.rawValue)): known differences \(known.paths.sorted()) (\(known.reason)), found \(patterns.sorted()); update knownDifferences"
                    )
                } else if let first = differences.first {
                    Issue.record("\(path) (\(kind.rawValue)) does not round-trip: first difference at \(first) (\(differences.count) in all)")
                }
            case .failed(let why):
                Issue.record("\(path): \(why)")
            case .excluded, .notJSON:
                break
            }
        }
    }

    @Test func everyKindIsFound() {
        var counts: [CommittedKind: Int] = [:]
        for case (_, .decoded(let kind, _)) in Self.outcomes { counts[kind, default: 0] += 1 }
        for kind in CommittedKind.allCases {
            let minimum = CommittedFiles.minimumCounts[kind] ?? 1
            #expect(minimum >= 1, "\(kind.rawValue): a minimum of 0 lets the walk compare nothing")
            #expect(counts[kind, default: 0] >= minimum, "\(kind.rawValue): found \(counts[kind, default: 0]) files, expected at least \(minimum)")
        }
        // Every root holds a decoded document.
        for root in CommittedFiles.roots {
            #expect(Self.outcomes.contains { $0.path.hasPrefix(root + "/") && $0.outcome.kind != nil }, "no document decoded under \(root)")
        }
    }

    /// The exclusion and known-difference tables name files the walk finds, with the outcome they
    /// claim: an entry for a file that is gone, or that no longer differs, fails.
    @Test func theTablesNameFilesOfTheWalk() {
        let byPath = Dictionary(Self.outcomes.map { ($0.path, $0.outcome) }, uniquingKeysWith: { a, _ in a })
        for (path, _) in CommittedFiles.excluded {
            #expect(byPath[path] != nil, "excluded \(path) is not a committed file any more")
        }
        for (path, known) in CommittedFiles.knownDifferences {
            guard case .decoded(_, let differences)? = byPath[path] else {
                Issue.record("knownDifferences names \(path), which the walk did not decode")
                continue
            }
            #expect(!differences.isEmpty && !known.paths.isEmpty, "\(path) round-trips now: remove it from knownDifferences")
        }
    }
}

/// The difference finder itself: a finder that never reports would let every file pass.
@Suite struct CommittedFilesRoundTripDifferenceTests {
    @Test func equalValuesHaveNoDifference() throws {
        let a = try JSONValue.parse(#"{"a":1,"b":[1.0,"x",{"c":null}]}"#)
        let b = try JSONValue.parse(#"{"b":[1,"x",{"c":null}],"a":1.0}"#)
        // Object equality ignores member order: `{"a":1,"b":…} == {"b":…,"a":1}`.
        #expect(a == b)
        #expect(jsonDifferences(a, b).isEmpty)
    }

    @Test func eachDifferenceIsNamedByItsPath() throws {
        let input = try JSONValue.parse(#"{"a":1,"m":[{"x":1,"y":2},{"x":1,"y":2}],"cells":{"h:p:int:1":{"n":3}},"list":[1,2,3]}"#)
        let written = try JSONValue.parse(#"{"a":"1","m":[{"x":1},{"x":1}],"cells":{"h:p:int:1":{"n":4}},"list":[1,2],"extra":null}"#)
        let differences = jsonDifferences(input, written)
        #expect(
            differences.map(\.path) == ["a", "m[0].y", "m[1].y", #"cells["h:p:int:1"].n"#, "list[2]", "extra"],
            "\(differences)")
        #expect(differences.map(\.kind) == [.changed, .missing, .missing, .changed, .length, .added])
        #expect(Set(differences.map(\.pattern)) == ["a", "m[*].y", #"cells["h:p:int:1"].n"#, "list[*]", "extra"])
        #expect(firstDifference(input, written)?.path == "a")
        #expect(firstDifference(input, input) == nil)
        #expect(firstDifference(1, "1")?.path == "the document")
        #expect(jsonDifferences(input, written, limit: 2).count == 2)
    }

    @Test func nonDocumentsAreNotTakenForJSON() {
        #expect(CommittedFiles.looksLikeJSON(Array(#"{"a":1}"#.utf8)))
        #expect(CommittedFiles.looksLikeJSON([0x04] + Array(#"{"a":1}"#.utf8)))
        #expect(CommittedFiles.looksLikeJSON(Array("{\"schema\":1}\n{\"items\":[]}\n".utf8)))
        #expect(!CommittedFiles.looksLikeJSON(Array("# A title\n\nSome text.\n".utf8)))
        #expect(!CommittedFiles.looksLikeJSON([0, 2, 3, 0, 3, 1]))
        #expect(!CommittedFiles.looksLikeJSON(Array("\"schema\"\n\"1e308\"\n".utf8)))
    }
}
