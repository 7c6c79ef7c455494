import DiffLabReport
import DiffLabResults
import Testing

// The policy-lab section of a `difflab-policy/2` file whose workload is a recorded trace: the
// trace and its provenance, its stream and its measured pairs, in place of the grid's size plot,
// crossovers and profiles.

/// The synthetic grid's runs at 1,000 items, re-labelled as a trace run of versions of 3 to 1,000
/// items, with a stream and three measured pairs.
private func syntheticTraceRun() -> PolicyGridResults {
    var results = syntheticGrid()
    results.runs = results.runs.filter { $0.workload.listSize == 1_000 }
    results.profiles = []
    results.crossovers = []
    results.recommendations = results.recommendations.map { row in
        var row = row
        (row.listSize, row.bandLow, row.bandHigh) = (1_000, 3, 1_000)
        return row
    }
    var trace = Trace(
        provenance: TraceProvenance(
            source: "https://example.org/repo notes.md", tool: "difflab trace git", date: "2026-12-04", ids: "FNV-1a 64", contents: "the identifier"))
    trace.append([("a", "a"), ("b", "b"), ("c", "c")], timestampMs: 0)
    trace.append([("a", "a"), ("c", "c")], timestampMs: 3_600_000)
    trace.append([("c", "c"), ("a", "a"), ("d", "d")], timestampMs: 7_200_000)
    results.trace = TraceWorkload(trace, file: "Corpus/traces/notes.jsonl")
    results.traceStream = PolicyTraceStreamRecord(
        timing: .medianInterval, timeScale: 0.05 / 3600, maxGap: 10, requests: 2, shortenedGaps: 1, medianGap: 0.05, seconds: 0.05)
    results.tracePairs = [
        PolicyTracePairRow(engine: "hashmap", moves: .offsets, from: 0, to: 1, changes: 1, batchChanges: 1, seconds: [2e-6, 3e-6, 4e-6]),
        PolicyTracePairRow(engine: "hashmap", moves: .offsets, from: 1, to: 2, changes: 2, batchChanges: 2, seconds: [5e-6, 5e-6, 6e-6]),
        PolicyTracePairRow(engine: "hashmap", moves: .offsets, from: 0, to: 2, changes: 3, batchChanges: 3, seconds: [9e-6, 8e-6, 7e-6]),
    ]
    return results
}

@Test func aTraceRunShowsTheRecordedTraceAndItsProvenance() throws {
    let markdown = try makeReport([.policyGrid(syntheticTraceRun())]).markdown
    #expect(markdown.contains("## Policy lab (recorded trace) — `grid.json`"))
    #expect(markdown.contains("**workload: recorded trace `Corpus/traces/notes.jsonl`**"))
    #expect(markdown.contains("3 versions of one list, 8 items in all, 4 distinct identifiers, with times, 3 to 1,000 items per version."))
    #expect(markdown.contains("| source | https://example.org/repo notes.md |"))
    #expect(markdown.contains("| made by | difflab trace git, 2026-12-04 |"))
    #expect(markdown.contains("| updates | 2 (every version after the first; the first arrives at 0 s) |"))
    #expect(markdown.contains("| longest gap | 10 s (1 longer gap shortened to it) |"))
    #expect(markdown.contains("| option: grid | every setting on the trace (--quick) |"))
    #expect(!markdown.contains("option: virtual duration"))
}

@Test func aTraceRunSummarisesItsPairsInsteadOfCrossoversAndProfiles() throws {
    let markdown = try makeReport([.policyGrid(syntheticTraceRun())]).markdown
    #expect(markdown.contains("### Measured diff costs of the trace's pairs"))
    // 3 pairs, 2 consecutive, widest span 2; medians of 1, 2, 3 changes and of the pairs' medians (3, 5, 8 µs); the slowest 0 → 2.
    #expect(markdown.contains("| hashmap | offsets | 3 | 2 | 2 | 2 | 2 | 5 µs | 0 → 2: 8 µs |"), "\(markdown)")
    #expect(!markdown.contains("### Crossovers") && !markdown.contains("### Hitch time against list size"))
    #expect(!markdown.contains("### Measured diff costs\n"))
    #expect(markdown.contains("### Recommendations") && markdown.contains("| 3–1,000 | 1,000 |"))
}

/// A grid file's section is as it was: no trace parts.
@Test func aGridFileHasNoTraceParts() throws {
    let markdown = try makeReport([.policyGrid(syntheticGrid())]).markdown
    #expect(markdown.contains("## Policy lab (scenario grid)"))
    #expect(!markdown.contains("recorded trace") && !markdown.contains("trace's pairs"))
    #expect(markdown.contains("### Crossovers") && markdown.contains("### Hitch time against list size"))
}

/// Without a stream record or pairs (a hand-edited file), the section still renders.
@Test func aTraceRunWithoutStreamOrPairsRenders() throws {
    var results = syntheticTraceRun()
    (results.traceStream, results.tracePairs) = (nil, [])
    let markdown = try makeReport([.policyGrid(results)]).markdown
    #expect(markdown.contains("**workload: recorded trace") && markdown.contains("The file has no measured pairs."))
}
