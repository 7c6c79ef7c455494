import DiffLabJSON
import DiffLabResults
import Testing

@Suite("difflab-trace/1 files")
struct TraceFileTests {
    static let header = #"{"schema": "difflab-trace/1", "source": "s", "tool": "t", "date": "d", "ids": "i", "contents": "c"}"#

    static func read(_ lines: [String]) throws(TraceFormatError) -> Trace {
        try Trace(jsonLines: Array(lines.joined(separator: "\n").utf8), source: "t.jsonl")
    }

    @Test func flatAndSectionedVersionsRoundTrip() throws {
        var trace = Trace(provenance: TraceProvenance(source: "a", tool: "b", date: "c", ids: "d", contents: "e"))
        trace.append([("x", "x"), ("y", "1"), ("x", "2")], timestampMs: 5)
        trace.append(sections: [(id: "s1", items: [("y", "1")]), (id: "s2", items: [("z", "z"), ("x", "x")])], timestampMs: 5)
        trace.append([], timestampMs: 9)
        let text = trace.jsonLines
        #expect(text.split(separator: "\n").count == 4)
        #expect(text.contains(#"["y","1"]"#) && text.contains(#""x","#), "an item that is its own content is written alone")
        let again = try Trace(jsonLines: Array(text.utf8), source: "t")
        #expect(again == trace)
        #expect(again.ids == ["x", "y", "z"])
        #expect(again.versions[1].sections == [TraceSection(id: 0, count: 1), TraceSection(id: 1, count: 2)])
        #expect(again.versions[0].items[0].id == again.versions[0].items[2].id, "a repeated identifier is one index")
        #expect(again.hasTimestamps && again.itemCount == 6)
    }

    @Test func crLineEndsAndAFinalNewlineAreAllowed() throws {
        let trace = try Trace(jsonLines: Array((Self.header + "\r\n" + #"{"items": ["a"]}"# + "\r\n").utf8), source: "t")
        #expect(trace.versions.count == 1)
        #expect(!trace.hasTimestamps)
    }

    @Test(arguments: [
        ([], "t.jsonl: is empty"),
        (["{"], "t.jsonl:1: is not JSON"),
        (["[1]"], "t.jsonl:1: should be a JSON object"),
        ([#"{"schema": "difflab-trace/2"}"#], #"t.jsonl:1: schema is "difflab-trace/2"; expected "difflab-trace/1""#),
        ([#"{"schema": "difflab-trace/1", "source": "s"}"#], "t.jsonl:1: tool is missing"),
        (
            [#"{"schema": "difflab-trace/1", "source": "", "tool": "t", "date": "d", "ids": "i", "contents": "c"}"#],
            "source should be a non-empty string"
        ),
        ([header, "{}"], "t.jsonl:2: has neither \"items\" nor \"sections\""),
        ([header, #"{"items": [1]}"#], "t.jsonl:2: items[0] should be a string or an [id, content] pair of strings, not 1"),
        ([header, #"{"items": [["a", "b", "c"]]}"#], "items[0] should be a string or an [id, content] pair"),
        ([header, #"{"items": [["a", 2]]}"#], "items[0][1] should be a string, not 2"),
        ([header, #"{"items": [""]}"#], "items[0] should be a non-empty string"),
        ([header, #"{"items": "a"}"#], "items should be an array of items"),
        ([header, #"{"items": [], "sections": []}"#], "has both \"items\" and \"sections\""),
        ([header, #"{"sections": [1]}"#], "sections[0] should be an object"),
        ([header, #"{"sections": [{"id": "s"}]}"#], "sections[0].items is missing"),
        ([header, #"{"items": [], "timestampMs": -1}"#], "timestampMs should be an integer from 0"),
        ([header, #"{"items": [], "timestampMs": 1.5}"#], "timestampMs should be an integer"),
        ([header, #"{"items": [], "timestampMs": 5}"#, #"{"items": [], "timestampMs": 4}"#], "t.jsonl:3: timestampMs is 4, earlier than"),
        ([header, #"{"items": [], "timestampMs": 5}"#, #"{"items": []}"#], "t.jsonl:3: timestampMs is missing, but earlier versions have one"),
        ([header, #"{"items": []}"#, #"{"items": [], "timestampMs": 5}"#], "t.jsonl:3: timestampMs is given, but earlier versions have none"),
        ([header, "", #"{"items": []}"#], "t.jsonl:2: is empty"),
        ([header, #"{"items": ["\#(String(repeating: "a", count: 4097))"]}"#], "is 4097 bytes long; at most 4096"),
    ])
    func malformedTracesNameTheLineAndField(lines: [String], expected: String) {
        #expect {
            _ = try Self.read(lines)
        } throws: { error in
            guard let error = error as? TraceFormatError else { return false }
            return error.description.contains(expected)
        }
    }

    @Test func theHashIsFNV1a64() {
        #expect(traceHash("") == "cbf29ce484222325")
        #expect(traceHash("a") == "af63dc4c8601ec8c")
        #expect(traceHash(bytes: [0xff, 0x00]) == traceHash(bytes: [0xff, 0x00]))
        #expect(traceHash(bytes: [0xff]) != traceHash(bytes: [0xfe]))
    }
}
