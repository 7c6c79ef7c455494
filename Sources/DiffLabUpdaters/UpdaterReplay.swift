extension UpdaterFuzzer {
    /// The number of runs a campaign may be asked for (`difflab updaters --runs`, and a findings
    /// file's `campaign.runs`): 1 to 10,000,000.
    public static let runsRange = 1...10_000_000

    /// Replays a recorded failing run — `script` under ``ScheduleStrategy/replay(_:)`` of
    /// `schedule` — and says whether it breaks `expected`'s property at `expected`'s step again
    /// (a finding read back from a file, to check it still fails, or that a fix holds).
    ///
    /// - Complexity: one run (at most ``UpdaterFuzzSettings/stepBudget`` steps).
    public func reproduce(script: UpdaterScript, schedule: [String], expecting expected: UpdaterFailure) -> UpdaterReproduction {
        UpdaterReproduction(run: run(script: script, strategy: .replay(schedule)), expected: expected)
    }
}

/// A recorded failure replayed (``UpdaterFuzzer/reproduce(script:schedule:expecting:)``): the
/// run it made, and the failure it was expected to repeat.
public struct UpdaterReproduction: Sendable {
    /// The replayed run.
    public var run: UpdaterRun
    /// The failure recorded.
    public var expected: UpdaterFailure

    /// Whether the replay broke the same property at the same step (the message may differ).
    public var reproduced: Bool { run.failure?.property == expected.property && run.failure?.step == expected.step }

    /// `reproduced: batch-valid at step 9`, or what happened instead (`passed`, another property,
    /// another step).
    public var summary: String {
        guard let failure = run.failure else { return "passed: no property broke (expected \(expected.property.rawValue) at \(place(expected)))" }
        if reproduced { return "reproduced: \(failure.property.rawValue) at \(place(failure))" }
        return "not reproduced: \(failure.property.rawValue) at \(place(failure)) (expected \(expected.property.rawValue) at \(place(expected)))"
    }

    private func place(_ failure: UpdaterFailure) -> String { failure.step > 0 ? "step \(failure.step)" : "the end" }
}
