import DiffLabCore

/// What one run has seen so far, checked as it happens: the timeline, the requests and their
/// completions, the highest version handed to the data source, and the first broken property.
///
/// Thread-safe (the stress mode calls it from real queues); the first failure wins and stops the
/// run (under the scheduler, after the step that broke it). Notes and failures go to the step the
/// calling thread runs (``withStep(time:lane:onMain:label:_:)``), or to the latest step when it
/// runs none: under the scheduler they are the same; in the stress mode steps overlap.
package final class UpdaterMonitor: Sendable {
    struct State {
        var events: [UpdaterEvent] = []
        var failure: UpdaterFailure?
        /// Completion calls, by request number (index 0 unused).
        var completions: [Int] = [0]
        /// The highest version number requested so far.
        var requested = 0
        /// The highest version number handed to the data source.
        var highestSet = 0
        var steps = 0
        /// Steps not kept in ``events`` (past ``UpdaterMonitor/eventLimit``).
        var untracked = 0
    }

    let state = Serialized(State())
    let promises: UpdaterPromises
    /// Notes kept per event, at most (a runaway updater must not grow a timeline without bound).
    static let notesPerEvent = 64
    /// Events kept per run, at most: a run that goes on longer (an endless updater, up to its step
    /// budget) keeps its first events and counts the rest.
    package static let eventLimit = 100_000

    /// The step the calling thread runs, bound by ``withStep(time:lane:onMain:label:_:)`` (a task
    /// local: outside a task Swift keeps it per thread).
    @TaskLocal package static var currentStep: Int?

    package init(promises: UpdaterPromises) { self.promises = promises }

    package var failure: UpdaterFailure? { state.withLock { $0.failure } }
    package var failed: Bool { state.withLock { $0.failure != nil } }
    package var events: [UpdaterEvent] { state.withLock { $0.events } }
    package var completions: [Int] { state.withLock { $0.completions } }

    /// Starts a step; returns its number.
    @discardableResult
    package func begin(time: Double, lane: String, onMain: Bool, label: String) -> Int {
        state.withLock {
            $0.steps += 1
            if $0.events.count < Self.eventLimit {
                $0.events.append(
                    UpdaterEvent(
                        step: $0.steps, time: time, lane: lane._cut(UpdaterEvent.maxLaneLength), onMain: onMain,
                        label: label._cut(UpdaterEvent.maxLabelLength)))
            } else {
                $0.untracked += 1
            }
            return $0.steps
        }
    }

    /// Starts a step and runs `body` as that step: its notes and failures go to it.
    package func withStep<R>(time: Double, lane: String, onMain: Bool, label: String, _ body: () -> R) -> R {
        let step = begin(time: time, lane: lane, onMain: onMain, label: label)
        return Self.$currentStep.withValue(step, operation: body)
    }

    /// Adds a note to the current step.
    package func note(_ text: String) {
        let current = Self.currentStep
        state.withLock {
            guard current != nil || $0.untracked == 0 else { return }
            let index = current.map { $0 - 1 } ?? $0.events.count - 1
            guard $0.events.indices.contains(index), $0.events[index].notes.count < Self.notesPerEvent else { return }
            $0.events[index].notes.append(text._cut(UpdaterEvent.maxTextLength))
        }
    }

    /// Records `property` broken (the first failure is kept; later ones are noted only).
    package func fail(_ property: UpdaterProperty, _ message: String, atEnd: Bool = false) {
        let current = Self.currentStep
        state.withLock {
            guard $0.failure == nil else { return }
            $0.failure = UpdaterFailure(
                property: property, message: message._cut(UpdaterEvent.maxTextLength), step: atEnd ? 0 : current ?? $0.steps)
        }
        note("✗ \(property.rawValue): \(message)")
    }

    /// The app asked for version `number` (1, 2, …).
    package func requested(_ number: Int) {
        state.withLock {
            $0.requested = max($0.requested, number)
            while $0.completions.count <= number { $0.completions.append(0) }
        }
    }

    /// Request `number`'s completion ran.
    package func completed(_ number: Int, finished: Bool) {
        let calls = state.withLock {
            while $0.completions.count <= number { $0.completions.append(0) }
            $0.completions[number] += 1
            return $0.completions[number]
        }
        note("completion v\(number) (\(finished ? "finished" : "not finished"))")
        if calls > 1 { fail(.completionOnce, "the completion of v\(number) ran \(calls) times") }
    }

    /// A version reached the data source: checks order and, when promised, supersession.
    package func dataSet(_ number: Int) {
        let (highest, requested) = state.withLock { s -> (Int, Int) in
            defer { s.highestSet = max(s.highestSet, number) }
            return (s.highestSet, s.requested)
        }
        if number < highest {
            fail(.versionsInOrder, "v\(number) reached the data source after v\(highest)")
        } else if promises.dropsSupersededDiffs && number < requested {
            fail(.dropsSuperseded, "v\(number) reached the data source after v\(requested) was requested")
        }
    }
}
