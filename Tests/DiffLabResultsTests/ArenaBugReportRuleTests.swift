import DiffLabCore
import DiffLabResults
import Testing

@Suite("Which arena failures get a bug report")
struct ArenaBugReportRuleTests {
    func failure(_ signature: String, kind: ArenaFailureKind = .failure, outside: Bool) -> ArenaFailure {
        ArenaFailure(
            signature: signature, property: String(signature.split(separator: "/").first ?? ""), scope: .flat, kind: kind,
            outsideContract: outside, duplicates: outside, old: "[0]", new: "[0:1, 0:1]", message: "m")
    }

    @Test func insideTheContractEveryFailureIsReported() {
        for signature in ["batch-valid/x/stale-content", "raw-sound/x/update-destination", "differential/x/heckel", "engine-failed/x/crashed"] {
            #expect(failure(signature, outside: false).deservesBugReport, "\(signature)")
        }
    }

    @Test func crashesAndHangsAreReportedEvenOutsideTheContract() {
        #expect(failure("batch-valid/x/crashed-SIGILL", kind: .crash, outside: true).deservesBugReport)
        #expect(failure("batch-valid/x/hung", kind: .hang, outside: true).deservesBugReport)
    }

    @Test func outsideTheContractOnlyInvalidUpdatesAreReported() {
        #expect(failure("batch-valid/x/stale-content", outside: true).deservesBugReport)
        #expect(failure("staged-valid/x/sections/stage/invalid", outside: true).deservesBugReport)
        // An update's destination among repeated identifiers, the sanitizer's view of the same
        // input, and a documented refusal of the input are not bugs to send upstream.
        #expect(!failure("raw-sound/x/update-destination", outside: true).deservesBugReport)
        #expect(!failure("sanitizer/x/batch-malformed", outside: true).deservesBugReport)
        #expect(!failure("engine-failed/x/crashed", outside: true).deservesBugReport)
    }
}

@Suite("Arena engine names")
struct ArenaEngineNameTests {
    /// The reader takes every name the command line can register (`_` and `.` included), so a file
    /// `difflab arena` writes always reads back.
    @Test func namesWithUnderscoresAndDotsReadBack() throws {
        let contestant = ArenaContestant(
            engine: "my_engine.v2", role: .library, about: EngineAbout(library: "Mine", version: "1"),
            promises: EnginePromises(supportsDuplicates: true, minimalMoves: false, reference: .none),
            sectioned: false, fuzz: ArenaFuzzCounts(seconds: 1, inputs: 1, cases: 1))
        let results = ArenaResults(
            options: ArenaOptions(fuzzSeconds: 1, seed: "1", workers: 1, baselines: ["my_engine.v2"]), contestants: [contestant])
        let again = try ArenaResults(json: results.json, source: "a.json")
        #expect(again.contestants.map(\.engine) == ["my_engine.v2"])
        for bad in ["_x", ".x", "-x", "X", "a b", String(repeating: "a", count: 65), ""] {
            var hostile = contestant
            hostile.engine = bad
            let file = ArenaResults(options: ArenaOptions(fuzzSeconds: 1, seed: "1", workers: 1, baselines: []), contestants: [hostile])
            #expect(throws: ResultsError.self, "\(bad)") { try ArenaResults(json: file.json, source: "a.json") }
        }
    }
}
