import DiffLabJSON
@_spi(Records) import DiffLabResults
import Testing

/// A small record exercising every kind of field declaration.
private struct Sample: ResultsRecord, Equatable {
    enum Colour: String, CaseIterable, Sendable { case red, blue }
    var name = ""
    var count = 0
    var colour: Colour = .red
    var weight: Double?
    var note: String?
    var flag: Bool?
    var tags: [String] = []
    var nested: [BenchAllocator] = []
    var provenance = RunProvenance()
    var source = ""

    static let blank = Sample()
    static var documentSchema: String? { "sample/1" }
    static let fields: [RecordField<Sample>] =
        [
            .required("name", \.name, .text(atMost: FieldRange(1...8, "1 to 8")), "a name"),
            .required("count", \.count, .int(FieldRange(0...10, "0 to 10")), column: "count", "a count"),
            .defaulted("colour", \.colour, .cases(), default: .red, "a colour"),
            .optional("weight", \.weight, .double(FieldRange(0...1, "0 to 1")), absent: .null, "a weight"),
            .optional("note", \.note, .string, absent: .nullWhen { $0.count > 5 }, "a note"),
            .optional("flag", \.flag, .bool, "a flag"),
            .list("tags", \.tags, .string, count: FieldRange(0...2, "at most 2"), "tags"),
            .list("nested", \.nested, .record(), written: .always, "allocators"),
        ] + RecordField.inline(\.provenance, RunProvenance.stamp)

    mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        guard count >= tags.count else { throw .invalid(source: position.source, field: "count", expected: "at least one per tag") }
    }
}

@Suite struct RecordFieldTests {
    private func decode(_ text: String) throws(ResultsError) -> Sample {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch {
            Issue.record("bad test JSON \(text)")
            return Sample()
        }
        return try Sample(json: json, source: "s.json")
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch { return error.description }
    }

    @Test func writesInTableOrderWithEachAbsencePolicy() {
        var sample = Sample()
        sample.name = "a"
        sample.count = 7
        #expect(
            sample.json.serialized()
                == #"{"schema":"sample/1","name":"a","count":7,"weight":null,"note":null,"nested":[],"machine":{},"commit":null}"#)
        sample.count = 1
        sample.colour = .blue
        sample.tags = ["x"]
        sample.flag = false
        #expect(
            sample.json.serialized()
                == #"{"schema":"sample/1","name":"a","count":1,"colour":"blue","weight":null,"flag":false,"tags":["x"],"nested":[],"machine":{},"commit":null}"#
        )
    }

    @Test func readsWhatItWrites() throws {
        var sample = Sample()
        sample.name = "abc"
        sample.count = 2
        sample.colour = .blue
        sample.weight = 0.5
        sample.note = "n"
        sample.tags = ["p", "q"]
        sample.nested = [BenchAllocator(name: .jemalloc, library: "/x")]
        sample.provenance.createdAt = 5
        sample.provenance.commit = "c"
        sample.source = "s.json"
        #expect(try decode(sample.json.serialized()) == sample)
    }

    @Test func absentAndNullReadAsDefaults() throws {
        let sample = try decode(#"{"schema":"sample/1","name":"a","count":0,"colour":null,"weight":null,"tags":null}"#)
        #expect(sample.colour == .red && sample.weight == nil && sample.tags.isEmpty && sample.source == "s.json")
    }

    @Test(arguments: [
        (#"{"schema":"sample/1","count":1}"#, "s.json: missing field name"),
        (#"{"schema":"sample/1","name":"","count":1}"#, "s.json: name should be 1 to 8, not 0"),
        (#"{"schema":"sample/1","name":"a","count":11}"#, "s.json: count is 11, outside its allowed range 0 to 10"),
        (#"{"schema":"sample/1","name":"a","count":1.5}"#, "s.json: count should be an integer, not a number"),
        (#"{"schema":"sample/1","name":"a","count":1,"colour":"green"}"#, #"s.json: colour should be "red" or "blue", not "green""#),
        (#"{"schema":"sample/1","name":"a","count":1,"weight":2}"#, "s.json: weight is 2.0, outside its allowed range 0 to 1"),
        (#"{"schema":"sample/1","name":"a","count":3,"tags":["a","b","c"]}"#, "s.json: tags is 3 elements, outside its allowed range at most 2"),
        (#"{"schema":"sample/1","name":"a","count":1,"tags":[1]}"#, "s.json: tags[0] should be a string, not a number"),
        (#"{"schema":"sample/1","name":"a","count":1,"nested":[{"library":"x"}]}"#, "s.json: missing field nested[0].name"),
        (
            #"{"schema":"sample/1","name":"a","count":1,"createdAt":-1}"#,
            "s.json: createdAt is -1, outside its allowed range 0 to 253,402,300,799 (1970 to 9999, Unix seconds)"
        ),
        (#"{"schema":"sample/1","name":"a","count":0,"tags":["a"]}"#, "s.json: count should be at least one per tag"),
        (#"{"name":"a","count":0}"#, #"s.json: no "schema" string; expected one of "# + ResultsError.knownSchemas.joined(separator: ", ")),
        (#"[1]"#, #"s.json: expected a JSON object with a "schema" field, not an array"#),
    ])
    func refusalsNameTheField(text: String, expected: String) {
        let found = message(text)
        #expect(found != nil, "accepted \(text)")
        #expect(found == expected)
    }

    @Test func formatTablesComeFromTheDeclarations() {
        let tables = Sample.recordSchema.all
        #expect(tables.map(\.name) == ["Sample", "BenchAllocator"])
        let keys = tables[0].fields.map(\.key)
        #expect(keys == ["name", "count", "colour", "weight", "note", "flag", "tags", "nested", "createdAt", "machine", "toolchain", "commit"])
        #expect(tables[0].fields[1].column == "count")
        #expect(tables[0].fields[2].expected == #""red" or "blue""#)
        #expect(tables[0].fields[2].presence == #"optional (absent: `"red"`)"#)
    }

    /// `docs/results-formats.md` is the generated format tables, so a field's documentation
    /// cannot drift from its decoder.
    @Test func committedFormatTablesAreCurrent() throws {
        let committed = try #require(readText(packageRoot + "/docs/results-formats.md"), "docs/results-formats.md is missing")
        #expect(
            committed == ResultsFormats.markdown,
            "docs/results-formats.md differs from the declarations: run swift run difflab-dev formats > docs/results-formats.md")
        #expect(committed.contains("| `ratioToPartitionedFloor` |"))
    }

    /// The CSV export's columns are the measurement fields that name one, in table order.
    @Test func csvColumnsComeFromTheDeclarations() {
        let declared = BenchMeasurement.fields.compactMap(\.description.column)
        #expect(BenchResults.csvColumns == declared)
        #expect(declared.contains("ratio_to_partitioned_floor") && declared.count == 29)
    }
}

/// Every schema a report reads is named when a file has none (the updaters findings file was
/// missing from the list).
@Test func reportSchemasAreAllNamed() {
    for schema in [
        BenchResults.schema, PolicyResults.schema, PolicyGridResults.schema, ArenaResults.schema, TraceBenchResults.schema,
        UpdaterFindingsFile.schema,
    ] {
        #expect(ResultsError.missingSchema(source: "x").description.contains(schema))
    }
}

/// Review of issue 44: refusals quote a hostile member name by at most 40 characters, and a
/// document's schema is checked wherever it is read.
@Suite struct RecordFieldHostileTests {
    private func refusal(_ text: String, _ read: (JSONValue) throws(ResultsError) -> Void) -> String? {
        guard let json = try? JSONValue.parse(text) else {
            Issue.record("bad test JSON")
            return nil
        }
        do throws(ResultsError) {
            try read(json)
            return nil
        } catch { return error.description }
    }

    @Test func aHostileMetricNameIsQuotedBriefly() {
        let name = String(repeating: "x", count: 5_000) + String(repeating: "\u{301}", count: 20)
        let text = #"{"alpha":0.05,"improvementExitCode":4,"metrics":{"\#(name)":{}}}"#
        let message = refusal(text) { json throws(ResultsError) in _ = try GateThresholds(json: json, source: "t.json", path: "thresholds") }
        #expect(message != nil)
        #expect((message?.count ?? 0) < 300, "\(message?.prefix(400) ?? "")")
    }

    @Test func aHostileCellMemberIsQuotedBriefly() {
        let name = String(repeating: "y", count: 5_000)
        let text = #"{"schema":"difflab-gate-baseline/1","cells":{"c":{"\#(name)":1}}}"#
        let message = refusal(text) { json throws(ResultsError) in _ = try StoredBaseline(json: json, source: "b.json") }
        #expect(message?.contains("should be absent") == true, "\(message?.prefix(400) ?? "")")
        #expect((message?.count ?? 0) < 300)
    }

    @Test func aDocumentsSchemaIsCheckedAtAnyPath() {
        let message = refusal(#"{"schema":"difflab-policy/1"}"#) { json throws(ResultsError) in
            _ = try BenchResults(json: json, source: "x.json", path: "bench")
        }
        #expect(message?.contains("unknown schema") == true, "\(message ?? "accepted")")
    }
}
