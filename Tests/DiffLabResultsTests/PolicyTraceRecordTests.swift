import DiffLabCore
import DiffLabJSON
import DiffLabResults
import Testing

/// A `difflab-policy/2` file whose workload is a recorded trace: the `trace`, `traceStream` and
/// `tracePairs` members, written and read by the same record.
@Suite("Policy files of a recorded trace")
struct PolicyTraceRecordTests {
    static func results() -> PolicyGridResults {
        var trace = Trace(
            provenance: TraceProvenance(source: "git repo README.md", tool: "difflab trace git", date: "2026-12-04", ids: "FNV", contents: "FNV"))
        trace.append([("a", "a"), ("b", "b")], timestampMs: 0)
        trace.append([("a", "a"), ("c", "c")], timestampMs: 60_000)
        var results = PolicyGridResults(source: "p.json")
        results.provenance.createdAt = 1_795_977_384
        results.provenance.toolchain = "Swift 6.3"
        results.options = PolicyGridOptions(duration: 0, drainSeconds: 2, repeats: 1, latencyBound: 0.25, engine: "hashmap", quick: true)
        results.trace = TraceWorkload(trace, file: "Corpus/traces/t.jsonl")
        results.traceStream = PolicyTraceStreamRecord(
            timing: .medianInterval, timeScale: 0.05 / 60, maxGap: 10, requests: 1, shortenedGaps: 0, medianGap: 0, seconds: 0)
        results.tracePairs = [PolicyTracePairRow(engine: "hashmap", moves: .offsets, from: 0, to: 1, changes: 2, batchChanges: 2, seconds: [1.5e-6])]
        var run = PolicyGridRun(
            workload: PolicyWorkloadRecord(listSize: 2, frameRate: 60, updateInterval: 0, editsPerUpdate: 2),
            setting: PolicySetting(policy: .main), requested: 1)
        run.hitchTimeRatio = [0]
        (run.latencyMedian, run.latencyP99) = ([0.005], [0.005])
        (run.frames, run.framesOverBudget, run.applied, run.coalesced, run.reloads, run.dropped) = ([1], [0], [1], [0], [0], [0])
        results.runs = [run]
        return results
    }

    @Test func theTraceMembersReadBackEqual() throws {
        let results = Self.results()
        let document = results.json
        #expect(document["trace"]?["file"]?.stringValue == "Corpus/traces/t.jsonl")
        #expect(document["trace"]?["source"]?.stringValue == "git repo README.md")
        #expect(document["traceStream"]?["timing"]?.stringValue == "medianInterval")
        #expect(document["tracePairs"]?.arrayValue?.count == 1)
        let again = try PolicyGridResults(json: document, source: "p.json")
        #expect(again == results)
        #expect(try PolicyGridResults(json: try JSONValue.parse(document.serialized()), source: "p.json") == results)
    }

    /// A grid file has none of them, and writes none: its document is as before.
    @Test func aGridFileHasNoTraceMembers() throws {
        var results = Self.results()
        (results.trace, results.traceStream, results.tracePairs) = (nil, nil, [])
        let document = results.json
        #expect(document["trace"] == nil && document["traceStream"] == nil && document["tracePairs"] == nil)
        #expect(try PolicyGridResults(json: document, source: "p").trace == nil)
    }

    @Test(arguments: [
        ("traceStream", #"{"timing":"sometimes","maxGap":1,"requests":1,"shortenedGaps":0,"medianGap":0,"seconds":0}"#, "traceStream.timing"),
        ("traceStream", #"{"timing":"recorded","maxGap":1e9,"requests":1,"shortenedGaps":0,"medianGap":0,"seconds":0}"#, "traceStream.maxGap"),
        ("tracePairs", #"[{"engine":"e","moves":"offsets","from":3,"to":3,"changes":0,"batchChanges":0,"seconds":[]}]"#, "tracePairs[0].to"),
        ("trace", #"{"file":"t"}"#, "trace.source"),
    ])
    func malformedTraceMembersNameTheField(member: String, json: String, field: String) throws {
        guard case .object(var object) = Self.results().json else { throw ResultsError.missingField(source: "", path: "") }
        object[member] = try JSONValue.parse(json)
        #expect {
            _ = try PolicyGridResults(json: .object(object), source: "p.json")
        } throws: { error in
            "\(error)".contains(field)
        }
    }
}
