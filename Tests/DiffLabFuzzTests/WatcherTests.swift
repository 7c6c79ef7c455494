import DiffLabCore
import DiffLabEngines
import DiffLabPlatform
import Testing

@testable import DiffLabFuzz

/// What a supervising process learns through ``FuzzWatcher``: each check it is told of is one
/// check, so its clock measures one check and never a whole shrink.
@Suite("fuzz: watcher")
struct WatcherTests {
    /// Counts the engine calls between two `check` announcements, and the failures announced.
    final class CountingWatcher: FuzzWatcher, @unchecked Sendable {
        let calls = Locked((current: 0, longest: 0, checks: 0, found: [FuzzFailure]()))
        func engineCalled() {
            calls.withLock {
                $0.current += 1
                $0.longest = max($0.longest, $0.current)
            }
        }
        func input(worker: Int, index: Int, choices: [UInt64], size: Int) {}
        func check(worker: Int, subject: Int, property: Int) {
            calls.withLock {
                $0.current = 0
                $0.checks += 1
            }
        }
        func finished(worker: Int, input: FuzzCase, large: Bool, checks: Int) {}
        func found(worker: Int, failure: FuzzFailure) { calls.withLock { $0.found.append(failure) } }
    }

    /// An engine that loses the update flag of its last updated pair (unless `honest`), counting
    /// its calls.
    func lossy(_ watcher: CountingWatcher, honest: Bool = false) -> FuzzSubject {
        let heckel = HeckelEngine()
        return FuzzSubject(
            name: "lossy", promises: EnginePromises(reference: .heckel),
            matching: { old, new in
                watcher.engineCalled()
                var matching = heckel.matching(from: old, to: new, comparison: .equality)
                if !honest, let last = matching.updated.lastIndex(of: true) { matching.updated[last] = false }
                return matching
            })
    }

    @Test func shrinkingAnnouncesEveryCandidateAsACheckAndEveryFailureIsAnnounced() throws {
        // The engine calls of one check, on the same inputs, without a failure.
        let plain = CountingWatcher()
        var options = FuzzOptions(inputs: 3_000, seed: 5, subjects: [lossy(plain, honest: true)], properties: [.differential], workers: 1)
        options.watcher = plain
        #expect(runFuzzer(options).failures.isEmpty)
        let perCheck = plain.calls.withLock { $0.longest }
        #expect(perCheck >= 1)
        let watcher = CountingWatcher()
        options.subjects = [lossy(watcher)]
        options.watcher = watcher
        let report = runFuzzer(options)
        let failure = try #require(report.failures.first, "the lost flag is found")
        let calls = watcher.calls.withLock { $0 }
        // Shrinking ran many candidates (choice sequences, then lists cut from the input)...
        #expect(failure.shrinkAttempts > 20)
        #expect(calls.checks > report.checks + 20)
        // ...and the watcher saw each as a check of its own: no more engine calls within one
        // announced check than a check without a failure makes.
        #expect(calls.longest <= perCheck, "engine calls within one announced check: \(calls.longest), one check: \(perCheck)")
        // Each failure is announced twice: unshrunk when found, then shrunk.
        #expect(calls.found.map(\.key) == report.failures.flatMap { [$0.key, $0.key] })
        for (k, failure) in report.failures.enumerated() {
            #expect(calls.found[2 * k].input.old.count + calls.found[2 * k].input.new.count == failure.originalItems)
            #expect(calls.found[2 * k].shrinkAttempts == 0)
            #expect(calls.found[2 * k + 1].input == failure.input)
        }
    }

    @Test func knownFailuresAreNeitherReportedNorShrunkAgain() {
        let watcher = CountingWatcher()
        var options = FuzzOptions(inputs: 3_000, seed: 5, subjects: [lossy(watcher)], properties: [.differential], workers: 1)
        let first = runFuzzer(options)
        #expect(!first.failures.isEmpty)
        options.known = Set(first.failures.map(\.key))
        options.watcher = watcher
        let again = runFuzzer(options)
        #expect(again.failures.isEmpty)
        #expect(watcher.calls.withLock { $0.found }.isEmpty)
        #expect(again.checks == first.checks, "the same inputs were checked")
        #expect(watcher.calls.withLock { $0.checks } == again.checks, "and nothing was shrunk")
    }
}
