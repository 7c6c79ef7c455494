import DiffLabCore
import DiffLabEngines
import DiffLabJSON
import Foundation
import Testing

@testable import DiffLabCLI

/// Correct on lists without a repeated identifier (heckel's answer); on others it answers no
/// change at all, and it does not promise them: every failure it has is outside its contract.
private struct DuplicateBlindEngine: ChangesetEngine {
    var name: String { "duplicate-blind" }
    var promises: EnginePromises { EnginePromises(supportsDuplicates: false) }
    func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let repeats = Set(old.map(\.diffIdentifier)).count < old.count || Set(new.map(\.diffIdentifier)).count < new.count
        return EngineChanges(result: repeats ? EngineResult() : EngineResult(HeckelEngine().diff(from: old, to: new, comparison: comparison)))
    }
}

@Suite("difflab fuzz and difflab replay")
struct FuzzCommandTests {
    @Test func jsonSummaryIsTheLastLine() throws {
        let files = Files([:])
        let r = run([
            "fuzz", "--cases", "40", "--seed", "3", "--engines", "heckel,myers", "--properties", "batch-valid,metamorphic", "--json", "--corpus",
            files.path("corpus"),
        ])
        #expect(r.status == 0, "\(r.out)")
        let last = try #require(r.out.split(separator: "\n").last)
        let summary = try JSONValue.parse(String(last))
        #expect(summary["cases"]?.intValue == 40 * 2 * 2)
        #expect(summary["failures"]?.arrayValue == [])
        #expect(summary["seconds"]?.doubleValue != nil)
    }

    @Test(arguments: [
        (["fuzz", "--engines", "fast"], "unknown engine 'fast'"), (["fuzz", "--properties", "pretty"], "unknown property 'pretty'"),
        (["fuzz", "--seconds", "-1"], "--seconds expects a number from 0.001 to 31536000 (got '-1')"),
        // 1e-300 seconds ran no case and passed (exit 0).
        (["fuzz", "--seconds", "1e-300"], "--seconds expects a number from 0.001 to 31536000 (got '1e-300')"),
        (["fuzz", "--seconds", "inf"], "--seconds expects a number from 0.001 to 31536000"),
        (["fuzz", "--seconds", "nan"], "--seconds expects a number from 0.001 to 31536000"),
        (["fuzz", "--seconds", "1e300"], "--seconds expects a number from 0.001 to 31536000"),
        (["fuzz", "--cases", "0"], "--cases expects an integer from 1 to 1000000000 (got '0')"),
        (["fuzz", "--cases", "1000000001"], "--cases expects an integer from 1 to 1000000000"),
        (["fuzz", "--cases", "99999999999999999999"], "--cases expects an integer from 1 to 1000000000"),
        (["fuzz", "--max-size", "0"], "--max-size expects an integer from 1 to 10000 (got '0')"),
        (["fuzz", "--max-size", "10001"], "--max-size expects an integer from 1 to 10000"),
        (["fuzz", "--workers", "0"], "--workers expects an integer from 1 to 256 (got '0')"),
        (["fuzz", "--workers", "100000"], "--workers expects an integer from 1 to 256"),
        (["fuzz", "--seed", "-3"], "--seed expects an integer from 0 to 18446744073709551615"),
        (["fuzz", "file.json"], "unexpected argument 'file.json' (this command takes no files)"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) {
        let r = run(arguments)
        #expect(r.status == 64)
        #expect(r.err.contains(message), "\(r.err)")
    }

    @Test func writeSeedsWritesByteFiles() {
        let files = Files([:])
        let r = run(["fuzz", "--write-seeds", files.path("seeds"), "--cases", "3"])
        #expect(r.status == 0)
        #expect(r.out == "wrote 3 seeds to \(files.path("seeds"))\n")
        #expect(run(["validate", files.path("seeds/seed-0.bin")]).status != 66)  // the file exists
    }

    static let regression =
        #"{"signature":"sanitizer/heckel/x","property":"sanitizer","subject":"heckel","message":"","profile":"mixed","old":[[0,0]],"new":[],"oldSections":[{"id":0,"items":[[0,0]]}],"newSections":[{"id":0,"items":[]}],"corruptions":[[1,1,0],[3,0]],"choices":["1"],"size":1,"seed":"7"}"#

    @Test func replayPassesFixedCasesAndReportsBadFiles() {
        let files = Files(["case.json": Self.regression, "broken.json": #"{"property":"nope"}"#])
        let pass = run(["replay", files.path("case.json")])
        #expect(pass.status == 0)
        #expect(pass.out.hasSuffix("replay: 1 passed, 0 failed\n"))
        let broken = run(["replay", files.path("broken.json")])
        #expect(broken.status == 65)
        #expect(run(["replay", files.path("missing.json")]).status == 66)
        #expect(run(["replay", files.directory]).status == 65)  // the directory holds the broken file too
    }

    /// Issue 11: a case saved by another runner's engine stopped the whole replay with exit 65 (as
    /// if the file were damaged). It is now a failed case, named, and the other cases still run.
    @Test func aCaseOfAnUnregisteredEngineFailsWithoutStoppingTheReplay() {
        let theirs = Self.regression.replacingOccurrences(of: #""subject":"heckel""#, with: #""subject":"theirs""#)
        let files = Files(["a-theirs.json": theirs, "b-case.json": Self.regression])
        let r = run(["replay", files.directory])
        #expect(r.status == 1)
        #expect(r.out.contains("FAIL \(files.path("a-theirs.json")): \"subject\" 'theirs' is not an engine under test"))
        #expect(r.out.contains("pass \(files.path("b-case.json"))"))
        #expect(r.out.hasSuffix("replay: 1 passed, 1 failed\n"))
    }

    /// A run that checked nothing must fail, not pass.
    @Test func aRunWithNoCaseFails() {
        #expect(throws: CommandError(.failure, "fuzz: no case ran (the run ended before the first input was checked)")) {
            try FuzzCommand.verdict(checks: 0, failures: 0)
        }
        #expect((try? FuzzCommand.verdict(checks: 5, failures: 0)) == .success)
        #expect((try? FuzzCommand.verdict(checks: 5, failures: 1)) == .failure)
    }

    /// The progress line is rewritten with "\r" only on a terminal: never in a log.
    @Test func progressIsPlainOffATerminal() {
        let files = Files([:])
        let r = run(["fuzz", "--seconds", "0.3", "--engines", "heckel", "--corpus", files.path("corpus")])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.err.contains("\r"))
        #expect(r.out.contains(" cases ("))
    }

    /// The progress line said "4 failures" where the summary said "0 failures, 4 more outside an
    /// engine's contract": both now count alike. (The run ends on a progress line with its totals.)
    @Test func progressCountsFailuresAsTheSummaryDoes() throws {
        let files = Files([:])
        let recorder = Recorder()
        let terminal = Console(out: recorder.console.out, err: recorder.console.err, errIsTerminal: true)
        let status = DiffLabRunner.run(
            ["fuzz", "--cases", "300", "--seed", "5", "--engines", "duplicate-blind", "--corpus", files.path("corpus")],
            engines: [RegisteredEngine(DuplicateBlindEngine())], console: terminal)
        #expect(status == 0, "\(recorder.out)\(recorder.err)")
        let summary = try #require(recorder.out.split(separator: "\n").last { $0.hasPrefix("fuzz: ") && $0.contains(" cases (") })
        let counts = try #require(summary.components(separatedBy: ": ").last)
        #expect(counts.hasPrefix("0 failures, ") && counts.hasSuffix(" more outside an engine's contract"), "\(summary)")
        let progress = recorder.err.components(separatedBy: "\r").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(progress.last?.contains(", \(counts), size ") == true, "\(progress)")
        #expect(progress.allSatisfy { $0.contains(" inputs, 0 failures") }, "\(progress)")
    }

    /// An empty folder compared nothing and passed (exit 0).
    @Test func replayOfNoCaseFileFails() {
        let files = Files(["notes.txt": "not a case"])
        let r = run(["replay", files.directory])
        #expect(r.status == 1)
        #expect(r.out == "")
        #expect(r.err.contains("replay: no case files (*.json) found in \(files.directory)"), "\(r.err)")
    }

    /// A damaged corruption list trapped in replay (a negative index as a remainder).
    @Test(arguments: [
        (#"[[0,0,-1]]"#, #""corruptions"[0][2] (index) must be an integer from 0 to 1000000, not -1"#),
        (#"[[2,0,0,9223372036854775807]]"#, #""corruptions"[0][3] (delta) must be an integer from -1000000 to 1000000"#),
        (#"[[6,0,-1]]"#, #""corruptions"[0][2] (section) must be an integer from 0 to 1000000, not -1"#),
        (#"[[1,1,1e300]]"#, #""corruptions"[0][2] (index) must be an integer from 0 to 1000000, not 1e+300"#),
        (#"[[5,"x"]]"#, #""corruptions"[0][1] (item) must be an integer from 0 to 1000000, not "x""#),
    ])
    func replayOfDamagedCorruptionsIsADataError(corruptions: String, message: String) {
        let text = Self.regression.replacing(#""corruptions":[[1,1,0],[3,0]]"#, with: #""corruptions":"# + corruptions)
        let files = Files(["damaged.json": text])
        let r = run(["replay", files.path("damaged.json")])
        #expect(r.status == 65)
        #expect(r.err.contains(files.path("damaged.json") + ": " + message), "\(r.err)")
    }
}
