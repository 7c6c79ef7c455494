import DiffLabCore
import DiffLabJSON
import DiffLabReport
import DiffLabResults
import Foundation
import Testing

// The report's arena section: the verdict rules as rendered, the speed ratios, escaping of hostile
// text, and the bug report files.

/// A bench cell of the arena's synthetic bench (`int`, jemalloc unless said).
private func cell(
    _ engine: String, _ profile: String, _ size: Int, _ median: Double?, allocator: MemoryAllocator = .jemalloc, bytes: Double? = nil,
    changes: Int? = nil,
    offsets: Int? = nil, minimal: Int? = nil, batchMoves: Int? = nil, skipped: String? = nil
) -> BenchMeasurement {
    var m = BenchMeasurement(engine: engine, profile: profile, size: size, kind: "int", allocator: allocator)
    m.median = median
    m.samples = median.map { [$0] } ?? []
    m.allocatedBytes = bytes
    m.changeCount = changes
    m.offsetsMoves = offsets
    m.minimalMoves = minimal
    m.batchMoves = batchMoves
    m.skipped = skipped
    return m
}

private func failure(
    _ property: String, scope: ArenaScope = .flat, duplicates: Bool = false, outsideContract: Bool = false, old: String = "[0:1]",
    new: String = "[0, 0:1]", message: String = "1 old − 1 deletes + 1 inserts ≠ 2 new"
) -> ArenaFailure {
    ArenaFailure(
        signature: "\(property)/x/detail", property: property, scope: scope, kind: .failure, outsideContract: outsideContract, duplicates: duplicates,
        old: old, new: new, message: message, elementKind: "int", batch: "deletes [0] inserts [1]", validBatch: "deletes [0] inserts [0, 1]",
        replay: "difflab replay arena-findings/x.json")
}

private func contestant(
    _ engine: String, _ role: ArenaRole = .library, library: String? = nil, duplicates: Bool = true, sectioned: Bool = true,
    failures: [ArenaFailure] = []
) -> ArenaContestant {
    ArenaContestant(
        engine: engine, role: role,
        about: EngineAbout(
            library: library ?? "Lib-" + engine, version: "1.0 (abc), mechanical build", promiseSources: ["\"Elements must be unique\" — README.md"]),
        promises: EnginePromises(supportsDuplicates: duplicates, minimalMoves: false, reference: .none),
        sectioned: sectioned, fuzz: ArenaFuzzCounts(seconds: 60, inputs: 100, cases: 700),
        failures: failures)
}

/// The hostile library name and message of the `evil` contestant.
let hostileName = "Evil | Lib\n<script>alert(1)</script> [x](y.md) *b* $m$"
let hostileMessage = "bad | row\nnext line <img src=x onerror=alert(1)> ](evil.md) ``` fence"

private func syntheticArena(bench: Bool = true) -> ArenaResults {
    var benchResults = BenchResults(source: "arena.json")
    benchResults.measurements = [
        cell("hashmap", "p1", 100, 1e-5, bytes: 1_000, changes: 10, offsets: 4, minimal: 3),
        cell("hashmap", "p2", 100, 2e-5, bytes: 3_000),
        cell("differencekit", "p1", 100, 4e-5, bytes: 2_000, changes: 12),
        cell("differencekit", "p2", 100, 2e-5, bytes: 4_000),
        cell("identity", "p1", 100, 1.1e-5),
        cell("identity", "p2", 100, 2.2e-5),
        cell("hashmap", "p1", 10_000, 1e-3, changes: 1_000, offsets: 400, minimal: 300, batchMoves: 380),
        cell("differencekit", "p1", 10_000, 8e-3, changes: 1_200, batchMoves: 450),
        cell("differencekit", "p2", 10_000, nil, skipped: "too slow"),
        cell("identity", "p1", 10_000, 1.1e-3),
        // Another allocator: not the view shown (jemalloc is).
        cell("differencekit", "p1", 100, 9, allocator: .system),
        // Not a contestant: allowed, not shown.
        cell("stdlib", "p1", 100, 1e-4),
    ]
    var results = ArenaResults(
        source: "arena.json", options: ArenaOptions(fuzzSeconds: 60, seed: "4242", workers: 2, baselines: ["hashmap"]),
        contestants: [
            contestant(
                "differencekit", duplicates: false,
                failures: [
                    failure("batch-valid", duplicates: true, outsideContract: true, old: "[0, 0]", new: "[0]"),
                    failure("metamorphic", old: "[1, 2, 3]", new: "[3, 2, 1]"),
                ]),
            contestant("listdiff", sectioned: false, failures: [failure("batch-valid")]),
            contestant("hashmap", .difflab, failures: [failure("deterministic", scope: .sectioned)]),
            contestant("identity", .identityAdapter),
            contestant("quiet", duplicates: false),
            contestant(
                "dupes", duplicates: false,
                failures: [failure("staged-valid", scope: .sectioned, duplicates: true, outsideContract: true)]),
            contestant("evil", library: hostileName, failures: [failure("batch-valid", message: hostileMessage)]),
        ], bench: bench ? benchResults : nil)
    results.provenance.createdAt = 1_795_979_336
    results.provenance.machine = [DisplayField(name: "cpu", value: "Xeon <b>")]
    results.provenance.toolchain = "Swift 6.3.1"
    results.provenance.commit = "abc123"
    results.provenance.dirty = false
    return results
}

private func arenaReport(_ results: [ArenaResults] = [syntheticArena()]) throws -> Report {
    try makeReport(results.map { .arena($0) })
}

/// The cells of the first table row that starts with `| first |` after the line `heading`.
private func row(_ markdown: String, after heading: String, _ first: String) throws -> [String] {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex { $0.contains(heading) }, "no \(heading)")
    let line = try #require(lines[start...].first { $0.hasPrefix("| \(first) |") }, "no row \(first) after \(heading)")
    return cells(line)
}

/// A table line's cells, split at pipes that are not escaped.
private func cells(_ line: String) -> [String] {
    var cells: [String] = []
    var current = ""
    var previous: Character = " "
    for character in line.dropFirst().dropLast() {
        if character == "|" && previous != "\\" {
            cells.append(current.trimmingCharacters(in: .whitespaces))
            current = ""
        } else {
            current.append(character)
        }
        previous = character
    }
    cells.append(current.trimmingCharacters(in: .whitespaces))
    return cells
}

@Suite struct ArenaReportTests {
    @Test func theVerdictTableFollowsTheRules() throws {
        let markdown = try arenaReport().markdown
        func verdict(_ engine: String) throws -> [String] { Array(try row(markdown, after: "### Verdict", "`\(engine)`").dropFirst(2)) }
        // unique ids, duplicates, sectioned, promises kept, shortest counterexample
        #expect(try verdict("differencekit").prefix(4) == ["✓", "✗ 1 (not promised)", "✓", "✗ 1"])
        #expect(try verdict("differencekit")[4] == "`[0, 0]` → `[0]` (`batch-valid/x/detail`)")
        #expect(try verdict("listdiff") == ["✗ 1", "✓", "—", "✓", "`[0:1]` → `[0, 0:1]` (`batch-valid/x/detail`)"])
        // A sectioned failure of another property breaks the promises, not validity.
        #expect(try verdict("hashmap").prefix(4) == ["✓", "✓", "✓", "✗ 1"])
        #expect(try verdict("identity") == ["✓", "✓", "✓", "✓", "—"])
        // Duplicates not promised and no failure there: a plain ✓.
        #expect(try verdict("quiet").prefix(4) == ["✓", "✓", "✓", "✓"])
        // Every sectioned failure outside the contract.
        #expect(try verdict("dupes").prefix(4) == ["✓", "✓", "✗ 1 (outside contract)", "✓"])
        #expect(try row(markdown, after: "### Verdict", "`listdiff`")[1] == "100 inputs, 700 cases, 60 s")
        #expect(markdown.contains("- *valid on unique ids*: ✓ when no failure of a validity property"))
    }

    @Test func speedRatiosAreGeometricMeansOverProfiles() throws {
        let markdown = try arenaReport().markdown
        // 100 items: 4e-5 / 1e-5 = 4 and 2e-5 / 2e-5 = 1 → √4 = 2, over 2 profiles; 10,000: one profile (p2 skipped).
        #expect(try row(markdown, after: "Time ÷ `hashmap`'s time:", "`differencekit`") == ["`differencekit`", "2× (2)", "8× (1)"])
        #expect(try row(markdown, after: "Time ÷ `hashmap`'s time:", "`identity`") == ["`identity`", "1.1× (2)", "1.1× (1)"])
        #expect(!markdown.contains("| `hashmap` | 1× "))  // no row for the baseline itself
        #expect(
            markdown.contains(
                "Adapter cost: `identity` (the adapter layer, applying no library) against `hashmap`: 1.1× (2) at 100 items, 1.1× (1) at 10,000 items"
            ))
        // The plotted times: geometric means of the medians (√(4e-5 · 2e-5) = 28.3 µs).
        #expect(
            try row(markdown, after: "Median time per call, geometric mean over profiles (profiles)", "`differencekit`")
                == ["`differencekit`", "28.3 µs (2)", "8 ms (1)"])
        // Memory: DiffLab's median over profiles (2,000 and 4,000 bytes → 3,000 bytes, 2.93 KiB).
        #expect(try row(markdown, after: "### Memory", "`differencekit`") == ["`differencekit`", "2.93 KiB (2) / —", "—"])
        // Moves at 10,000 (every measured contestant has a cell there): changes and the moves handed to UIKit.
        #expect(try row(markdown, after: "### Moves", "`differencekit`") == ["`differencekit`", "1,200 / 450", "skipped"])
        #expect(try row(markdown, after: "### Moves", "`hashmap`") == ["`hashmap`", "1,000 / 380", "—"])
        #expect(markdown.contains("`int` elements under jemalloc"))
    }

    /// A contestant timed by its own clock is marked † in the speed tables, with the footnote
    /// (as the bench section does); one the harness timed is not, and the memory table never is.
    @Test func selfTimedContestantsAreMarked() throws {
        var arena = syntheticArena()
        var bench = try #require(arena.bench)
        for index in bench.measurements.indices where bench.measurements[index].engine == "differencekit" {
            bench.measurements[index].timing = .selfTimed
        }
        arena.bench = bench
        let markdown = try arenaReport([arena]).markdown
        #expect(try row(markdown, after: "Time ÷ `hashmap`'s time:", "`differencekit` †").first == "`differencekit` †")
        #expect(try row(markdown, after: "Time ÷ `hashmap`'s time:", "`identity`").first == "`identity`")
        #expect(markdown.contains(BenchTiming.footnote))
        #expect(try row(markdown, after: "### Memory", "`differencekit`").first == "`differencekit`")
        #expect(!(try arenaReport().markdown.contains(BenchTiming.footnote)))
    }

    /// The fastest native library per profile and size, against `myers` and `hashmap`: only
    /// libraries whose adapter says `native` compete, and DiffLab's medians are divided by the
    /// fastest one's.
    @Test func difflabIsComparedWithTheFastestNativeLibrary() throws {
        var arena = syntheticArena()
        var bench = try #require(arena.bench)
        bench.measurements += [
            cell("quiet", "p1", 100, 5e-6), cell("quiet", "p2", 100, 4e-5),
            cell("dupes", "p1", 100, 2e-6),  // fastest on p1, but not native: it does not compete
            cell("myers", "p1", 100, 2e-5), cell("myers", "p2", 100, 1e-5),
        ]
        arena.bench = bench
        arena.contestants.append(contestant("myers", .difflab))
        for index in arena.contestants.indices where ["differencekit", "quiet"].contains(arena.contestants[index].engine) {
            arena.contestants[index].about.native = true
        }
        arena.contestants[arena.contestants.firstIndex { $0.engine == "dupes" }!].about.native = false
        let markdown = try arenaReport([arena]).markdown
        let heading = "### DiffLab against the fastest native library"
        // p1 at 100: quiet (5 µs) beats differencekit (40 µs); myers 20 µs → 4×, hashmap 10 µs → 2×.
        #expect(try row(markdown, after: heading, "p1") == ["p1", "100", "`quiet` †", "5 µs", "4×", "2×"])
        // p2 at 100: differencekit (20 µs) beats quiet (40 µs); myers 10 µs → 0.5×, hashmap 20 µs → 1×.
        #expect(try row(markdown, after: heading, "p2") == ["p2", "100", "`differencekit` †", "20 µs", "0.5×", "1×"])
        // p1 at 10,000: only differencekit (8 ms) and hashmap (1 ms); no myers cell.
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| p1 | 10,000 |") }.map { cells(String($0)) }
        #expect(rows == [["p1", "10,000", "`differencekit` †", "8 ms", "—", "0.125×"]])
        #expect(markdown.contains("`myers` is faster in 1 of 2 cells; `hashmap` is faster in 1 of 3 cells."))
        // Without a native library the table is left out.
        #expect(!(try arenaReport().markdown.contains(heading)))
    }

    @Test func geometricMeanIsTotal() throws {
        #expect(abs(try #require(geometricMean([4, 1])) - 2) < 1e-12)
        #expect(abs(try #require(geometricMean([1e-5, 1e-3])) - 1e-4) < 1e-16)
        #expect(geometricMean([]) == nil && geometricMean([0, 1]) == nil && geometricMean([.infinity]) == nil)
        // Ratios as logarithms: 86,400 s ÷ the smallest subnormal overflows; the mean of logarithms does not trap.
        #expect(geometricMean(logarithms: [log(86_400) - log(Double.leastNonzeroMagnitude)]) == nil)
        #expect(geometricMean(logarithms: [log(8.0), -log(2.0)]).map { abs($0 - 2) < 1e-12 } == true)
    }

    @Test func hostileNamesAndMessagesAreEscaped() throws {
        let report = try arenaReport()
        let markdown = report.markdown
        #expect(!markdown.contains("<script>") && !markdown.contains("<img") && !markdown.contains("<b>"))
        #expect(markdown.contains("Evil \\| Lib &lt;script&gt;alert\\(1\\)&lt;/script&gt; \\[x\\]\\(y.md\\) \\*b\\* \\$m\\$"))
        #expect(markdown.contains("bad \\| row next line &lt;img src=x onerror=alert\\(1\\)&gt; \\]\\(evil.md\\) \\`\\`\\` fence"))
        #expect(markdown.contains("Xeon &lt;b&gt;"))
        // Every row of the contestants and failures tables has as many cells as its header.
        for heading in ["### Contestants", "### Failures"] {
            let block = markdown.split(separator: "\n").map(String.init).drop { $0 != heading }.dropFirst().prefix { !$0.hasPrefix("### ") }
            let rows = block.filter { $0.hasPrefix("| ") }
            #expect(rows.count == (heading == "### Contestants" ? 8 : 7))  // the header and a row per contestant, or per failure
            for line in rows { #expect(cells(line).count == cells(rows[rows.startIndex]).count, "\(line)") }
        }
        // The only links are to the report's own files.
        #expect(linkedFiles(markdown) == report.files.map(\.name))
        // In the bug report the message is in a code block whose fence is longer than any run of backticks in it.
        let finding = try #require(report.files.first { $0.name == "arena-findings/evil-1.md" }).contents
        #expect(finding.contains("````text\n" + hostileMessage + "\n````\n"))
        #expect(finding.hasPrefix("# Evil | Lib &lt;script&gt;alert\\(1\\)"))
    }

    @Test func bugReportsAreWrittenForLibraryFailuresOnly() throws {
        let report = try arenaReport()
        let findings = report.files.map(\.name).filter { $0.hasSuffix(".md") }
        #expect(
            findings == [
                "arena-findings/differencekit-1.md", "arena-findings/differencekit-2.md", "arena-findings/listdiff-1.md",
                "arena-findings/dupes-1.md", "arena-findings/evil-1.md",
            ])
        for name in findings { #expect(report.markdown.contains("[bug report](\(name))")) }
        let text = try #require(report.files.first { $0.name == "arena-findings/differencekit-1.md" }).contents
        for expected in [
            "# Lib-differencekit 1.0 \\(abc\\), mechanical build produces an invalid batch update on a list that repeats an identifier",
            "```text\n[0, 0]\n```", "```text\n[0]\n```", "`0:1` is identifier 0 with content 1",
            "```text\ndeletes [0] inserts [1]\n```", "```text\n1 old − 1 deletes + 1 inserts ≠ 2 new\n```",
            "```text\ndeletes [0] inserts [0, 1]\n```", "**No.** The input is outside what the library promises (it repeats an identifier",
            "`\"Elements must be unique\" — README.md`", "seed `4242`", "```text\ndifflab replay arena-findings/x.json\n```",
            "elements handed to the library as `int`", "DiffLab commit `abc123`",
        ] {
            #expect(text.contains(expected), "missing: \(expected)")
        }
        let inside = try #require(report.files.first { $0.name == "arena-findings/listdiff-1.md" }).contents
        #expect(inside.contains("**Yes.** The input is within what the library promises (every identifier is unique)"))
    }

    @Test func twoArenaFilesGetTheirOwnFilesAndTheReportIsDeterministic() throws {
        var second = syntheticArena(bench: false)
        second.source = "b.json"
        let report = try arenaReport([syntheticArena(), second])
        let names = report.files.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.contains("arena-findings/evil-1.md") && names.contains("arena2-findings/evil-1.md"))
        #expect(names.contains("arena-time-vs-size.svg") && !names.contains("arena2-time-vs-size.svg"))
        #expect(report.markdown.contains("The run has no benchmark"))
        #expect(linkedFiles(report.markdown) == names)
        #expect(try arenaReport([syntheticArena(), second]) == report)
        for file in report.files where file.name.hasSuffix(".svg") { #expect(xmlError(file.contents) == nil) }
        // No benchmark section of its own for the embedded bench.
        #expect(!report.markdown.contains("## Benchmark"))
    }

    @Test func anArenaDocumentMakesAReportThroughResultsFile() throws {
        let document = try JSONValue.parse(syntheticArena().json.serialized())
        let report = try makeReport([try ResultsFile(document, source: "arena.json")])
        #expect(report == (try arenaReport()))
        #expect(report.markdown.contains("## Arena — `arena.json`"))
    }
}
