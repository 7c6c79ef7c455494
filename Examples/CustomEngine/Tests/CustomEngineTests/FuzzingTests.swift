import CustomEngine
import DiffLab
import Testing

/// Both engines fuzzed through DiffLab's public API, as any package would fuzz its own.
@Suite struct Fuzzing {
    /// Every property on the correct engine for a few seconds. A counterexample is recorded as a
    /// test issue carrying everything needed to replay it.
    @Test func occurrenceEngineKeepsItsPromises() {
        let report = runFuzzer(FuzzOptions(seconds: 3, seed: 2024, subjects: [FuzzSubject(OccurrenceEngine())]))
        print(
            "occurrence: \(report.inputs) inputs, \(report.checks) checks in \((report.seconds * 10).rounded() / 10) s, \(report.failures.count) failures"
        )
        #expect(report.inputs > 0)
        for failure in report.failures {
            Issue.record(
                """
                \(failure)
                To replay: save the JSON below as a file and run `swift run custom-difflab replay FILE`.
                \(failure.regressionJSON)
                """)
        }
    }

    /// IGListKit's conversion is wrong on duplicate identifiers: the fuzzer must find it, as
    /// batch-valid failures, each shrunk to a handful of items on a repeated identifier. The run
    /// is bounded by inputs, not time, and has one worker, so it finds and shrinks the same
    /// failures on every machine.
    @Test func fuzzerFindsIGListKitsDuplicateFlaw() throws {
        let subject = FuzzSubject(IGListKitBatchEngine())
        let report = runFuzzer(
            FuzzOptions(inputs: 3_000, seed: 1, subjects: [subject], properties: [.batchValid], workers: 1))
        #expect(!report.contractFailures.isEmpty, "the fuzzer did not find the duplicate flaw")

        for flaw in report.contractFailures {
            print("IGListKit's resultForBatchUpdates, found after \(flaw.inputsToFind) inputs:\n\(flaw)\n\(flaw.regressionJSON)")
            #expect(flaw.property == .batchValid)
            #expect(!flaw.input.hasUniqueIdentifiers, "the flaw needs a repeated identifier: \(flaw)")
            #expect(flaw.shrunkItems <= 8, "shrunk to \(flaw.shrunkItems) items: \(flaw)")
            // The saved case (what `difflab replay` reads) replays the same failure.
            let saved = try RegressionCase(json: try JSONValue.parse(flaw.regressionJSON))
            #expect(try saved.replay(on: [subject]).map(\.signature) == [flaw.signature])
            // DiffLab's own conversion of the same flat result passes on the same input: UIKit's
            // rules hold, and applied to the old list it gives the new one.
            let (old, new) = (flaw.input.old, flaw.input.new)
            let answer = try IGListKitBatchEngine().changes(from: old, to: new, comparison: .equality)
            let ours = BatchUpdate(try answer.checkedResult(oldCount: old.count, newCount: new.count).forBatchUpdates())
            #expect(ours.violations().isEmpty)
            let applied = try ours.apply(
                to: SectionedList([.init(id: 0, items: old)]), expecting: SectionedList([.init(id: 0, items: new)]))
            #expect(applied.mismatches.isEmpty)
        }
    }

    /// Everything but the batch form is IGListKit's `IGListDiff`, which keeps its promises. (The
    /// sanitizer property is left out too: it sanitizes the batch form, and a malformed one fails.)
    @Test func igListKitFlatResultKeepsItsPromises() {
        let properties: [Property] = [.rawSound, .differential, .metamorphic, .deterministic]
        let report = runFuzzer(
            FuzzOptions(inputs: 3_000, seed: 7, subjects: [FuzzSubject(IGListKitBatchEngine())], properties: properties))
        for failure in report.failures { Issue.record("\(failure)\n\(failure.regressionJSON)") }
    }
}
