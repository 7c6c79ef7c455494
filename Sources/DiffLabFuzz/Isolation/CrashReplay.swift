import DiffLabCore
import DiffLabFormatting
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

// Finding and shrinking the check that crashed or hung a campaign process: each candidate is
// replayed in an isolated process of its own (forked, or a spawned worker).

extension FuzzSupervisor {
    /// Replays numbered in this process, for their job files' names.
    private static let replays = Locked(0)

    /// Replays `choices` at `size` for one subject × property in an isolated process: how it ended,
    /// and the input and consumed choices (decoded here; decoding runs no engine).
    func replay(
        _ choices: [UInt64], size: Int, subject: Int, property: Int, seconds: Double, folder: String
    ) -> (ending: Ending, input: FuzzCase, consumed: [UInt64]) {
        var source = DataSource(replaying: choices)
        let input = options.input(&source, size: size)
        let check = (options.subjects[subject], options.properties[property])
        var job = FuzzWorkerJobRecord(kind: .replay)
        (job.choices, job.size, job.subject, job.property) = (choices, size, subject, property)
        let number = Self.replays.withLock { count in
            count += 1
            return count
        }
        // The replay's own trap message and stack trace would repeat once per candidate: silenced.
        let started = try? startIsolated(job, name: "replay-\(number).json", folder: folder, quiet: true, backtraces: false) {
            endChild(check.1.check(input, check.0) == nil ? 0 : 1)
        }
        defer { if let jobPath = started?.jobPath { try? FileSystem.removeFile(jobPath) } }
        guard let pid = started?.pid else {
            return (.failed, input, source.choices)
        }
        let deadline = monotonicNow() + seconds
        while !processHasEnded(pid) {
            if monotonicNow() > deadline {
                try? sendSignal(.kill, to: pid)
                _ = waitProcessStatus(pid)
                return (.hung(worker: 0), input, source.choices)
            }
            sleep(seconds: 0.000_2)
        }
        return (ending(waitProcessStatus(pid)), input, source.choices)
    }

    /// Finds which of the checks in progress crashed (or hung) the campaign process, shrinks its
    /// input, and makes the failure.
    ///
    /// - A crash that no check repeats on its own (one that needs two checks at once, or a flaky
    ///   one) is reported on the first check, unshrunk, saying so.
    /// - A hang that its check does not repeat on its own is `nil`: the machine stalled.
    func culprit(
        _ active: [FuzzSlots.ActiveCheck], ending: Ending, secondsToFind: Double, folder: String
    ) -> (failure: FuzzFailure, subject: Int, property: Int)? {
        var chosen = active[0]
        var confirmed = false
        var decoded = replay(
            chosen.choices, size: chosen.size, subject: chosen.subject, property: chosen.property, seconds: checkSeconds, folder: folder)
        for check in active {
            let again =
                check == chosen
                ? decoded
                : replay(check.choices, size: check.size, subject: check.subject, property: check.property, seconds: checkSeconds, folder: folder)
            if again.ending.sameKind(as: ending) {
                chosen = check
                decoded = again
                confirmed = true
                break
            }
        }
        if ending.isHang && !confirmed { return nil }
        let subject = options.subjects[chosen.subject]
        let property = options.properties[chosen.property]
        let outside = subject.isOutsideContract(decoded.input, for: property)
        var shrunk = (choices: chosen.choices, attempts: 0)
        var input = decoded.input
        if confirmed {
            var deadline = monotonicNow() + options.shrinkSeconds
            if let seconds = options.seconds { deadline = min(deadline, monotonicNow() + max(0, seconds - secondsToFind)) }
            // A hang is judged with a shorter limit while shrinking: candidates are smaller.
            let limit = ending.isHang ? min(checkSeconds, max(0.2, checkSeconds / 5)) : checkSeconds
            shrunk = shrink(chosen.choices, budget: options.shrinkBudget) { candidate in
                guard monotonicNow() < deadline else { return nil }
                let again = replay(candidate, size: chosen.size, subject: chosen.subject, property: chosen.property, seconds: limit, folder: folder)
                guard again.ending.sameKind(as: ending), subject.isOutsideContract(again.input, for: property) == outside else { return nil }
                return again.consumed
            }
            var source = DataSource(replaying: shrunk.choices)
            input = options.input(&source, size: chosen.size)
        }
        let what =
            ending.isHang
            ? "the check ran past the limit of \(formatPlain(checkSeconds)) s (--check-seconds) and was stopped"
            : "the check ended the process by \(signalName(ending)) (a trap is a failed precondition, a range check or a force-unwrap)"
        let failure = PropertyFailure(
            signature: "\(property.rawValue)/\(subject.name)/\(ending.isHang ? "hung" : "crashed-\(signalName(ending))")",
            message: what + (confirmed ? "" : "; it did not do so again on its own, so this input is the one being checked, unshrunk"),
            outsideContract: outside)
        let found = FuzzFailure(
            property: property, subject: subject.name, failure: failure, input: input, choices: shrunk.choices,
            size: chosen.size, seed: options.seed(ofInput: chosen.index),
            originalItems: decoded.input.old.count + decoded.input.new.count, inputsToFind: chosen.index + 1,
            shrinkAttempts: shrunk.attempts, secondsToFind: secondsToFind)
        return (found, chosen.subject, chosen.property)
    }

    /// The name of the signal that ended the process (``signalName(_:)``), or `a hang`.
    func signalName(_ ending: Ending) -> String {
        guard case let .crashed(signal) = ending else { return "a hang" }
        return DiffLabProcess.signalName(signal)
    }
}
