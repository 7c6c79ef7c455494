import DiffLabCore
import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabReport
import Foundation
import Testing

@testable import DiffLabCLI

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `difflab export` (github-action-benchmark, Bencher, CSV) and the JUnit XML of `difflab fuzz`
/// and `difflab gate`, each checked against its format's documented shape: the JSON by its
/// fields, the CSV by an RFC 4180 reader, the XML by Foundation's XML parser.
@Suite("difflab export and JUnit XML")
struct ExportAndJUnitTests {
    /// A bench file: a measured cell, a skipped one, and one whose names a spreadsheet would take
    /// for a formula and whose profile holds a comma and a quote.
    static let bench = #"""
        {"schema":"difflab-bench/1","measurements":[
         {"engine":"hashmap","profile":"differencekit","size":1000,"kind":"int","allocator":"jemalloc","median":2.5e-5,"min":2e-5,
          "p90":3e-5,"p99":4e-5,"mad":1e-6,"callsPerSample":40,"allocatedBytes":20480,"allocationRequests":12,"samples":[2.5e-5,2e-5,3e-5]},
         {"engine":"stdlib","profile":"differencekit","size":1000000,"kind":"int","allocator":"system","skipped":"projected 900 s, over the limit"},
         {"engine":"=cmd","profile":"a,\"b\"","size":10,"kind":"int","allocator":"system","median":1e-6,"samples":[1e-6]}]}
        """#

    static func export(_ format: String, _ text: String = bench) throws -> (status: Int32, out: String, err: String) {
        let files = Files(["bench.json": text])
        return run(["export", files.path("bench.json"), "--format", format])
    }

    /// github-action-benchmark's customSmallerIsBetter: an array of entries with exactly its
    /// documented fields; measured cells only.
    @Test func githubActionBenchmarkHasItsDocumentedFields() throws {
        let r = try Self.export("github-action-benchmark")
        #expect(r.status == 0, "\(r.err)")
        let entries = try #require(try JSONValue.parse(r.out).arrayValue)
        #expect(entries.count == 2)
        for entry in entries {
            let object = try #require(entry.objectValue)
            #expect(Set(object.keys).isSubset(of: ["name", "unit", "value", "range", "extra"]))
            #expect(entry["name"]?.stringValue != nil && entry["unit"]?.stringValue == "ns" && entry["value"]?.doubleValue != nil)
        }
        #expect(entries[0]["name"]?.stringValue == "hashmap/differencekit/int/1000/jemalloc")
        #expect(entries[0]["value"]?.doubleValue == 25_000)
        #expect(entries[0]["range"]?.stringValue == "± 1000")
        #expect(entries[0]["extra"]?.stringValue?.contains("p99 40000 ns") == true)
    }

    /// The Bencher Metric Format: benchmark → measure → {value, lower_value?, upper_value?}.
    @Test func bencherMetricFormatHasItsDocumentedShape() throws {
        let r = try Self.export("bencher")
        #expect(r.status == 0, "\(r.err)")
        let root = try #require(try JSONValue.parse(r.out).objectValue)
        #expect(root.keys == ["hashmap/differencekit/int/1000/jemalloc", "=cmd/a,\"b\"/int/10/system"])
        for (_, benchmark) in root {
            for (_, measure) in try #require(benchmark.objectValue) {
                let metric = try #require(measure.objectValue)
                #expect(Set(metric.keys).isSubset(of: ["value", "lower_value", "upper_value"]))
                #expect(measure["value"]?.doubleValue != nil)
            }
        }
        let hashmap = root["hashmap/differencekit/int/1000/jemalloc"]
        #expect(hashmap?["latency"]?["value"]?.doubleValue == 25_000)
        #expect(hashmap?["latency"]?["lower_value"]?.doubleValue == 20_000)
        #expect(hashmap?["latency"]?["upper_value"]?.doubleValue == 30_000)
        #expect(hashmap?["allocated-bytes"]?["value"]?.doubleValue == 20_480)
        #expect(hashmap?["allocation-requests"]?["value"]?.doubleValue == 12)
    }

    /// RFC 4180: every row has the header's width once quoted fields are read back; names that
    /// would be formulas are defused; skipped cells stay with their reason.
    @Test func csvReadsBackWithEveryColumn() throws {
        let r = try Self.export("csv")
        #expect(r.status == 0, "\(r.err)")
        let rows = try Self.readCSV(r.out)
        #expect(rows.count == 4)
        #expect(rows.allSatisfy { $0.count == rows[0].count })
        #expect(rows[0].prefix(8) == ["engine", "profile", "kind", "size", "allocator", "timing", "skipped", "median_s"])
        #expect(rows[1][7] == "2.5e-05" && rows[1][13] == "3")
        #expect(rows[2][6] == "projected 900 s, over the limit" && rows[2][7] == "")
        #expect(rows[3][0] == "'=cmd" && rows[3][1] == "a,\"b\"")
    }

    /// Bad input: a cell named twice (65, naming it), not a bench file (65), no or an unknown
    /// format (64), an output path that is not a regular file (73, left as it was).
    @Test func exportRefusesBadInput() throws {
        let cell = #"{"engine":"hashmap","profile":"differencekit","size":1000,"kind":"int","allocator":"jemalloc","median":1e-6}"#
        let twice = try Self.export("csv", #"{"schema":"difflab-bench/1","measurements":["# + cell + "," + cell + "]}")
        #expect(twice.status == 65 && twice.err.contains("hashmap/differencekit/int/1000/jemalloc is there twice"), "\(twice.err)")
        #expect(try Self.export("csv", #"{"schema":"difflab-policy/2"}"#).status == 65)
        #expect(try Self.export("csv", #"{"schema":"difflab-bench/1","measurements":[{"engine":"x"}]}"#).status == 65)
        #expect(try Self.export("xml").status == 64)
        let files = Files(["bench.json": Self.bench])
        #expect(run(["export", files.path("bench.json")]).status == 64)
        #expect(run(["export", files.path("absent.json"), "--format", "csv"]).status == 66)
        let fifo = files.path("fifo")
        try FileSystem.makeFIFO(fifo, permissions: 0o600)
        #expect(run(["export", files.path("bench.json"), "--format", "csv", "--out", fifo]).status == 73)
        let out = files.path("out.csv")
        #expect(run(["export", files.path("bench.json"), "--format", "csv", "--out", out]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Self.export("csv")).out)
    }

    /// A passing fuzz run: one test case per property × engine, none failed.
    @Test func fuzzJUnitHasACasePerPropertyAndEngine() throws {
        let files = Files([:])
        let junit = files.path("fuzz.xml")
        let r = run(["fuzz", "--cases", "30", "--engines", "hashmap,heckel", "--corpus", files.path("corpus"), "--junit", junit])
        #expect(r.status == 0, "\(r.err)")
        let xml = try Self.parseXML(try String(contentsOfFile: junit, encoding: .utf8))
        let suites = xml.children.filter { $0.name == "testsuite" }
        #expect(xml.name == "testsuites" && suites.count == 1)
        let cases = suites[0].children.filter { $0.name == "testcase" }
        #expect(cases.count == 2 * FuzzOptions().properties.count)
        #expect(Set(cases.map { $0.attributes["classname"] ?? "" }) == ["difflab.fuzz.hashmap", "difflab.fuzz.heckel"])
        #expect(xml.attributes["tests"] == String(cases.count) && xml.attributes["failures"] == "0" && xml.attributes["errors"] == "0")
        #expect(cases.allSatisfy { $0.children.isEmpty })
    }

    /// A failing engine: its property's case fails with the shrunk counterexample.
    @Test func fuzzJUnitFailuresCarryTheShrunkCounterexample() throws {
        let files = Files([:])
        let junit = files.path("fuzz.xml")
        let registry = try EngineRegistry(EngineRegistry.builtIns.engines + [RegisteredEngine(ForgetfulEngine())])
        let recorder = Recorder()
        let status = DiffLabCommand.run(
            ["fuzz", "--cases", "200", "--engines", "forgetful", "--corpus", files.path("corpus"), "--junit", junit], console: recorder.console,
            registry: registry)
        #expect(status == 1, "\(recorder.err)")
        let xml = try Self.parseXML(try String(contentsOfFile: junit, encoding: .utf8))
        let failed = xml.children.flatMap(\.children).filter { $0.children.contains { $0.name == "failure" } }
        #expect(!failed.isEmpty)
        #expect(Int(xml.attributes["failures"] ?? "") == failed.count)
        let failure = try #require(failed.first?.children.first { $0.name == "failure" })
        #expect(failure.attributes["message"]?.contains("forgetful") == true)
        #expect(failure.text.contains("shrunk from") && failure.text.contains("old: ") && failure.text.contains("replay"))
    }

    /// A run that checked nothing is an error case, never a green report.
    @Test func aFuzzRunThatCheckedNothingIsAnErrorCase() throws {
        let files = Files([:])
        let junit = files.path("fuzz.xml")
        let r = run(["fuzz", "--seconds", "0.001", "--engines", "hashmap", "--corpus", files.path("corpus"), "--junit", junit])
        if r.status == 1, r.err.contains("no case ran") {
            let xml = try Self.parseXML(try String(contentsOfFile: junit, encoding: .utf8))
            #expect(xml.attributes["errors"] == "1")
        } else {
            // The machine was fast enough to check a case: then the report is green and complete.
            #expect(r.status == 0)
        }
        // A JUnit path that is not a regular file fails before the run.
        let fifo = files.path("fifo")
        try FileSystem.makeFIFO(fifo, permissions: 0o600)
        #expect(run(["fuzz", "--cases", "5", "--corpus", files.path("corpus"), "--junit", fifo]).status == 73)
    }

    /// Every character a spreadsheet starts a formula with is defused, and every line break is
    /// quoted (CRLF is one Swift `Character`: a review found it written unquoted, so a hostile
    /// name could start a new row with a formula).
    @Test(arguments: ["+1", "-1", "@SUM(A1)", "\tx", "\rx", "\nx", "\u{FF1D}1", "a\r\n=1+1", "a\rb", "a\nb", "a\u{2028}b"])
    func csvDefusesFormulasAndQuotesLineBreaks(name: String) throws {
        let json = try #require(String(data: try JSONSerialization.data(withJSONObject: name, options: .fragmentsAllowed), encoding: .utf8))
        let bench =
            #"{"schema":"difflab-bench/1","measurements":[{"engine":"hashmap","profile":"#
            + json + #","size":10,"kind":"int","allocator":"system","median":1e-6}]}"#
        let r = try Self.export("csv", bench)
        #expect(r.status == 0, "\(r.err)")
        let rows = try Self.readCSV(r.out)
        #expect(rows.count == 2 && rows[1].count == rows[0].count, "\(rows)")
        let field = rows[1][1]
        #expect(field.hasSuffix(name) && field.count <= name.count + 1)
        if let first = name.unicodeScalars.first, "+-@\t\r\n\u{FF1D}".unicodeScalars.contains(first) { #expect(field == "'" + name) }
    }

    /// Names and messages full of markup and control characters still give well-formed XML that
    /// reads back to the same text.
    @Test func junitEscapesHostileText() throws {
        let hostile = "a<b>&\"c\" 'd' ]]> \u{1}\u{7}\ttab\nline\rreturn"
        let report = JUnitReport(
            name: hostile,
            suites: [
                JUnitReport.Suite(
                    name: hostile, properties: [JUnitReport.DisplayPair(hostile, hostile)],
                    cases: [
                        JUnitReport.TestCase(
                            className: hostile, name: hostile, outcome: .failure(message: hostile, type: hostile, details: hostile), output: hostile)
                    ])
            ])
        let xml = try Self.parseXML(report.xml)
        let testCase = try #require(xml.children.first?.children.first { $0.name == "testcase" })
        // Control characters XML forbids become U+FFFD; tab, line feed and carriage return survive.
        let expected = "a<b>&\"c\" 'd' ]]> \u{FFFD}\u{FFFD}\ttab\nline\rreturn"
        #expect(testCase.attributes["name"] == expected && testCase.attributes["classname"] == expected)
        #expect(testCase.children.first?.attributes["message"] == expected)
        #expect(xml.attributes["failures"] == "1")
    }

    /// A run that checked no case: an error case `run`, whatever the engines.
    @Test func aFuzzReportWithoutCasesHasAnErrorCase() throws {
        var options = FuzzOptions()
        options.subjects = Array(FuzzSubject.builtIns.prefix(1))
        let report = FuzzReport(inputs: 0, checks: 0, seconds: 0, failures: [])
        let junit = FuzzJUnit.report(report, options: options, crashes: [], files: [:])
        let xml = try Self.parseXML(junit.xml)
        #expect(xml.attributes["errors"] == "1")
        #expect(junit.suites[0].cases.last?.name == "run")
    }

    // MARK: Readers

    /// An RFC 4180 reader: quoted fields with doubled quotes, CRLF rows.
    static func readCSV(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\r\n" || c == "\n" {
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            } else {
                field.append(c)
            }
        }
        try #require(!quoted && row.isEmpty && field.isEmpty, "the CSV ends inside a row")
        return rows
    }

    /// An XML element, as Foundation's parser read it.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    /// Parses `text` with Foundation's `XMLParser` (libxml2): a real XML parser, so a malformed
    /// document fails the test.
    static func parseXML(_ text: String) throws -> Element {
        final class Delegate: NSObject, XMLParserDelegate {
            var stack: [Element] = []
            var root: Element?
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]
            ) {
                let element = Element(name: name, attributes: attributes)
                stack.last?.children.append(element)
                stack.append(element)
            }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                root = stack.popLast()
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let delegate = Delegate()
        parser.delegate = delegate
        try #require(parser.parse(), "malformed XML: \(String(describing: parser.parserError))")
        return try #require(delegate.root)
    }
}

/// An engine that forgets every insert: a contract the fuzzer refutes at once.
struct ForgetfulEngine: ChangesetEngine {
    /// Its name (another one lets a test register it under a reserved name).
    var name = "forgetful"
    var promises: EnginePromises { EnginePromises() }
    func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        var result = EngineResult()
        result.deletes = Array(old.indices)
        result.inserts = Array(new.indices.dropLast(new.isEmpty ? 0 : 1))
        return EngineChanges(result: result)
    }
}
