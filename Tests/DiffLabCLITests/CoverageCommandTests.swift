import Testing

@testable import DiffLabCLI
@testable import DiffLabDev

@Suite("difflab coverage")
struct CoverageCommandTests {
    /// A tracefile over two files under `root`: an engine with lines 3 and 4–5 unreached and a
    /// batch file with line 2 unreached.
    static func tracefile(root: String) -> String {
        """
        TN:
        SF:\(root)/Sources/DiffLabEngines/Toy.swift
        DA:1,5
        DA:2,5
        DA:3,0
        DA:4,0
        DA:5,0
        DA:6,2
        BRDA:2,0,0,3
        BRDA:2,0,1,-
        end_of_record
        SF:\(root)/Sources/DiffLabBatch/Other.swift
        DA:1,1
        DA:2,0
        end_of_record

        """
    }

    static let toySource = """
        func toy() {
            let a = 1
            guard a.addingReportingOverflow(1).overflow == false else { preconditionFailure("overflow") }
            var b = a
            b += 1
        }
        """

    @Test func parsesLinesAndBranches() throws {
        let report = try LCOVReport(parsing: Substring(Self.tracefile(root: "/r")), name: "t.lcov")
        #expect(report.files.map(\.path) == ["/r/Sources/DiffLabEngines/Toy.swift", "/r/Sources/DiffLabBatch/Other.swift"])
        #expect(report.files[0].lines.count == 6)
        #expect(report.files[0].lines.values.count(where: { $0 == 0 }) == 3)
        #expect(report.files[0].branches.map(\.taken) == [true, false])
    }

    @Test(arguments: [
        ("DA:1,1\n", "DA: outside a file record"), ("SF:a\nDA:x,1\nend_of_record\n", "DA: must be"),
        ("SF:a\nDA:0,1\nend_of_record\n", "positive line"), ("SF:a\nSF:b\n", "before the previous"),
        ("end_of_record\n", "without SF:"), ("SF:a\nDA:1,1\n", "no end_of_record"),
        ("SF:a\nBRDA:1,0,0\nend_of_record\n", "BRDA: must be"), ("", "no SF: record"), ("{\"a\": 1}\n", "no SF: record"),
    ])
    func malformedTracefilesNameTheLine(text: String, expected: String) {
        #expect {
            _ = try LCOVReport(parsing: Substring(text), name: "t.lcov")
        } throws: { error in
            guard let error = error as? CommandError else { return false }
            return error.status == .dataError && error.message.contains(expected) && error.message.hasPrefix("t.lcov")
        }
    }

    @Test func unreachedRequiredLinesFailUnlessJustified() throws {
        let report = try LCOVReport(parsing: Substring(Self.tracefile(root: "/r")), name: "t.lcov")
        let source: (String) -> [Substring]? = { path in
            path.hasSuffix("Toy.swift") ? Self.toySource.split(separator: "\n", omittingEmptySubsequences: false) : nil
        }
        let shown: (String) -> String = { String($0.dropFirst("/r/".count)) }
        func summarize(_ exemptions: [CoverageExemption]) throws -> (status: DiffLabCLI.ExitStatus, out: String) {
            let recorder = Recorder()
            let status = try CoverageCommand.summarize(
                report, shown: shown, required: CoverageCommand.defaultRequired, exemptions: exemptions, source: source,
                console: recorder.console)
            return (status, recorder.out)
        }

        let plain = try summarize([])
        #expect(plain.status == .failure)
        #expect(plain.out.contains("Sources/DiffLabEngines/Toy.swift:3-5"))
        #expect(plain.out.contains("NOT JUSTIFIED"))
        #expect(plain.out.contains("Sources/DiffLabBatch/Other.swift:2"), "lines outside the required set are listed too")
        #expect(plain.out.contains("not required"))
        #expect(plain.out.contains("| Sources/DiffLabEngines | 3/6 | 50.0% | 1/2 | 50.0% |"))
        #expect(plain.out.contains("3 lines not justified"))

        // Justifying line 3 alone leaves lines 4-5: still a failure, and they stay listed.
        let guardOnly = [
            CoverageExemption(
                file: "Sources/DiffLabEngines/Toy.swift", lineContains: "preconditionFailure(\"overflow\")", reason: "no Int overflows here")
        ]
        let partial = try summarize(guardOnly)
        #expect(partial.status == .failure)
        #expect(partial.out.contains("Toy.swift:3  guard"))
        #expect(partial.out.contains("justified: no Int overflows here"))
        #expect(partial.out.contains("Toy.swift:4-5"))

        // Every unreached required line justified: success; an exemption matching nothing is stale.
        let justified = try summarize(
            guardOnly + [
                CoverageExemption(file: "Toy.swift", lineContains: "var b = a", reason: "r1"),
                CoverageExemption(file: "Toy.swift", lineContains: "b += 1", reason: "r2"),
                CoverageExemption(file: "Toy.swift", lineContains: "never there", reason: "r3"),
            ])
        #expect(justified.status == .success)
        #expect(justified.out.contains("stale exemption"))
        #expect(justified.out.contains("every line of"))
    }

    /// An exemption covers the declaration that starts on its line, to the closing brace (braces in
    /// strings not counted), and no further: the next unreached function stays unjustified.
    @Test func anExemptionCoversItsDeclaration() throws {
        let source = """
            struct S {
                var x: Int { 1 }
                func f() {
                    let s = "{"
                    print(s)
                }
                func g() { print(0) }
            }
            """
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(CoverageCommand.declarationEnd(lines, from: 3) == 6)
        #expect(CoverageCommand.declarationEnd(lines, from: 2) == 2)
        #expect(CoverageCommand.declarationEnd(lines, from: 4) == 4, "a brace in a string opens nothing")
        #expect(CoverageCommand.declarationEnd(lines, from: 99) == 99)
        #expect(CoverageCommand.declarationEnd(["func h() {", "  x"], from: 1) == 1, "a declaration never closed covers its line")

        let trace = "SF:/r/Sources/DiffLabEngines/S.swift\nDA:1,1\n" + (3...7).map { "DA:\($0),0\n" }.joined() + "end_of_record\n"
        let report = try LCOVReport(parsing: Substring(trace), name: "t.lcov")
        let recorder = Recorder()
        let status = try CoverageCommand.summarize(
            report, shown: { String($0.dropFirst("/r/".count)) }, required: CoverageCommand.defaultRequired,
            exemptions: [CoverageExemption(file: "S.swift", lineContains: "func f()", reason: "why")], source: { _ in lines },
            console: recorder.console)
        #expect(status == .failure)
        #expect(recorder.out.contains("S.swift:3-6  func f() {  [justified: why]"))
        #expect(recorder.out.contains("S.swift:7  func g() { print(0) }  [NOT JUSTIFIED]"))
        #expect(recorder.out.contains("1 lines not justified"))
    }

    @Test func aTracefileWithNoRequiredFileChecksNothingAndFails() throws {
        let report = try LCOVReport(parsing: "SF:/r/Sources/Else/A.swift\nDA:1,1\nend_of_record\n", name: "t.lcov")
        let recorder = Recorder()
        #expect(
            try CoverageCommand.summarize(
                report, shown: { $0 }, required: CoverageCommand.defaultRequired, exemptions: [], source: { _ in nil },
                console: recorder.console) == .failure)
        #expect(recorder.out.contains("nothing was checked"))
    }

    @Test func theCommandReadsFilesAndExemptions() {
        let files = Files([
            "t.lcov": Self.tracefile(root: "/r"),
            "bad.json": #"{"schema": "difflab-coverage-exemptions/1", "exemptions": [{"file": "x"}]}"#,
            "ok.json": #"{"schema": "difflab-coverage-exemptions/1", "exemptions": []}"#,
        ])
        let r = runDev(["coverage", files.path("t.lcov"), "--root", "/r", "--exemptions", files.path("ok.json")])
        #expect(r.status == 1)
        #expect(r.out.contains("Sources/DiffLabEngines/Toy.swift:3-5"))
        let bad = runDev(["coverage", files.path("t.lcov"), "--exemptions", files.path("bad.json")])
        #expect(bad.status == 65)
        #expect(bad.err.contains("\"exemptions\"[0].lineContains"))
        #expect(runDev(["coverage"]).status == 64)
        #expect(runDev(["coverage", files.path("missing.lcov")]).status == 66)
    }

    /// The committed exemptions file parses.
    @Test func theCommittedExemptionsParse() throws {
        _ = try CoverageExemption.list(try readJSON(CoverageCommand.defaultExemptions), name: CoverageCommand.defaultExemptions)
    }
}
