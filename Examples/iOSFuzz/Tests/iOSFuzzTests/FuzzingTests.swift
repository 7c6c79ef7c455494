import CustomEngine
import DiffLabBatch
import DiffLabCore
import DiffLabFuzz
import DiffLabJSON
import Testing

/// Records each failure as a test issue, with the JSON that `difflab replay` (or
/// `RegressionCase(json:)`) replays it from.
func record(_ failures: [FuzzFailure]) {
    for failure in failures { Issue.record("\(failure)\nTo replay, save as a .json file: \(failure.regressionJSON)") }
}

/// DiffLab's engines and CustomEngine's fuzzed in this process, as in an iOS test target: no
/// process can be started there, so `runFuzzer` checks every property in the test's own process
/// (an engine that traps would end the test run; one that may trap is fuzzed isolated on the Mac
/// or on Linux instead). Every run is bounded by inputs, not time, on one worker: the same inputs,
/// checks and findings on every machine, a few seconds each in a debug build.
@Suite struct InProcessFuzzing {
    /// Every shipped engine, every property, every element kind.
    @Test func builtInEnginesKeepEveryPromise() {
        let report = runFuzzer(FuzzOptions(inputs: 400, seed: 2026, workers: 1))
        print("built-in engines: \(report.inputs) inputs, \(report.checks) checks in \((report.seconds * 10).rounded() / 10) s")
        #expect(report.inputs == 400)
        #expect(Set(report.inputsByKind.keys) == Set(FuzzElementKind.allCases), "\(report.inputsByKind)")
        record(report.failures)
    }

    /// CustomEngine's result-level engine, every property.
    @Test func occurrenceEngineKeepsItsPromises() {
        let report = runFuzzer(FuzzOptions(inputs: 400, seed: 18, subjects: [FuzzSubject(OccurrenceEngine())], workers: 1))
        #expect(report.inputs == 400 && report.checks > 0)
        record(report.failures)
    }

    /// IGListKit's flat result keeps its promises (its batch form does not: the next test).
    @Test func igListKitFlatResultKeepsItsPromises() {
        let properties: [Property] = [.rawSound, .differential, .metamorphic, .deterministic]
        let report = runFuzzer(
            FuzzOptions(inputs: 400, seed: 7, subjects: [FuzzSubject(IGListKitBatchEngine())], properties: properties, workers: 1))
        record(report.failures)
    }

    /// The fuzzer has teeth here too: IGListKit's batch conversion is wrong on repeated
    /// identifiers, found and shrunk to a few posts; the saved case replays the same failure from
    /// its JSON (in memory: no file is written), and UIKit's model refuses or misapplies the
    /// engine's batch while DiffLab's own conversion of the same flat result is right.
    @Test func igListKitsDuplicateFlawIsFoundShrunkAndReplayed() throws {
        let subject = FuzzSubject(IGListKitBatchEngine())
        let report = runFuzzer(
            FuzzOptions(inputs: 1_000, seed: 1, subjects: [subject], properties: [.batchValid], workers: 1, shrinkBudget: 2_000))
        let flaw = try #require(report.contractFailures.first, "the fuzzer did not find the duplicate flaw in 1,000 inputs")
        #expect(flaw.property == .batchValid)
        #expect(!flaw.input.hasUniqueIdentifiers, "\(flaw)")
        #expect(flaw.shrunkItems <= 8, "shrunk to \(flaw.shrunkItems) items: \(flaw)")

        let saved = try RegressionCase(json: try JSONValue.parse(flaw.regressionJSON))
        #expect(try saved.replay(on: [subject]).map(\.signature) == [flaw.signature])

        let (old, new) = (flaw.input.old, flaw.input.new)
        let (before, after) = (SectionedList([.init(id: 0, items: old)]), SectionedList([.init(id: 0, items: new)]))
        let answer = try IGListKitBatchEngine().changes(from: old, to: new, comparison: .equality)
        let theirsIsWrong: Bool
        do {
            // Malformed (the checked conversion throws), refused by UIKit, or showing the wrong feed.
            let theirs = BatchUpdate(try answer.checkedBatch(oldCount: old.count, newCount: new.count))
            theirsIsWrong = try !theirs.violations().isEmpty || !theirs.apply(to: before, expecting: after).mismatches.isEmpty
        } catch {
            theirsIsWrong = true
        }
        #expect(theirsIsWrong, "IGListKit's batch on \(old) → \(new) is right")
        let ours = BatchUpdate(try answer.checkedResult(oldCount: old.count, newCount: new.count).forBatchUpdates())
        #expect(ours.violations().isEmpty)
        #expect(try ours.apply(to: before, expecting: after).mismatches.isEmpty)
    }

    /// The same seed gives the same run: inputs, checks, element kinds and findings.
    @Test func theSameSeedReplaysTheSameRun() {
        let options = FuzzOptions(inputs: 150, seed: 99, subjects: [FuzzSubject(IGListKitBatchEngine())], workers: 1, shrinkBudget: 500)
        let first = runFuzzer(options)
        let second = runFuzzer(options)
        #expect(first.checks == second.checks)
        #expect(first.inputsByKind == second.inputsByKind)
        #expect(first.failures.map(\.signature) == second.failures.map(\.signature))
        #expect(first.failures.map(\.input) == second.failures.map(\.input))
    }
}
