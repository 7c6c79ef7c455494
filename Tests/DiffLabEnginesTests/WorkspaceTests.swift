import DiffLabCore
import DiffLabFuzz
import DiffLabPlatform
import DiffLabTestSupport
import Dispatch
import Testing

@testable import DiffLabEngines

/// ``HashMapEngine/Workspace``: a sequence of diffs through one workspace gives, call after call,
/// exactly the engine's one-off results, whatever the previous call left in its buffers; a
/// result the caller keeps never changes; the buffers are reused once the caller lets go.
@Suite("Reusable workspace")
struct WorkspaceTests {
    /// The engines a workspace runs in these tests: the measured rule, every path forced on
    /// small lists (partitioned, parallel, trimmed with hashing cross-checks), and no trimming.
    static let engines: [HashMapEngine] = [
        HashMapEngine(),
        HashMapEngine(partitioning: .fuzzing(threshold: 1), threads: 2, name: "p", trimming: .fuzzing),
        HashMapEngine(partitioning: .fuzzing(threshold: 8), threads: 3, name: "q", trimming: .fuzzing),
        HashMapEngine.untrimmed,
    ]

    /// Random lists of random sizes (so buffers grow, shrink and grow again), with duplicates and
    /// updates, one after another through one workspace: each result equals a fresh diff's.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aSequenceEqualsOneOffDiffs(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for engine in Self.engines {
            let workspace = HashMapEngine.Workspace(engine: engine)
            for step in 0..<300 {
                let maxCount = [0, 1, 5, 40, 3, 24][step % 6]
                let (old, new) = randomLists(&rng, maxCount: maxCount, distinct: Int.random(in: 1...30, using: &rng))
                let moves: MoveStrategy = step % 5 == 4 ? .minimal : .offsets
                let expected = engine.diff(from: old, to: new, moves: moves)
                #expect(workspace.diff(from: old, to: new, moves: moves) == expected, "\(engine.name) step \(step): \(old) → \(new)")
                #expect(expected == HeckelEngine().diff(from: old, to: new, moves: moves))
            }
        }
    }

    /// Results the caller keeps are never changed by later calls: their arrays are shared with
    /// the workspace, which then copies or replaces them.
    @Test func keptResultsNeverChange() {
        var rng = SplitMix64(seed: 7)
        for engine in Self.engines {
            let workspace = HashMapEngine.Workspace(engine: engine)
            var kept: [(DiffResult, DiffResult)] = []
            var keptMatchings: [(Matching, Matching)] = []
            for _ in 0..<100 {
                let (old, new) = randomLists(&rng, maxCount: 30, distinct: 12)
                let result = workspace.diff(from: old, to: new)
                kept.append((result, engine.diff(from: old, to: new)))
                let matching = workspace.matching(from: old, to: new)
                keptMatchings.append((matching, engine.matching(from: old, to: new, comparison: .equality)))
            }
            for (result, expected) in kept { #expect(result == expected) }
            for (matching, expected) in keptMatchings { #expect(matching == expected) }
        }
    }

    /// Lists past the measured partitioning threshold, versions of one feed as an app diffs
    /// them: appended, edited near the ends, reversed, every item updated.
    @Test func largeVersionsOfOneFeed() {
        var rng = SplitMix64(seed: 11)
        let workspace = HashMapEngine.Workspace()
        let parallel = HashMapEngine.Workspace(
            engine: HashMapEngine(
                partitioning: HashMapEngine.Partitioning(
                    threshold: 16_384, partitionSize: 4_096, minimumPartitions: 16, parallelThreshold: 16_384),
                threads: 2))
        var current = (0..<20_000).map { Item($0, 0) }
        for version in 0..<8 {
            var next = current
            switch version % 4 {
            case 0: next.append(contentsOf: (0..<500).map { Item(100_000 + version * 1_000 + $0, 0) })
            case 1: next = next.map { Item($0.id, $0.content + 1) }
            case 2: next.reverse()
            default:
                for _ in 0..<200 { next.swapAt(Int.random(in: 0..<next.count, using: &rng), Int.random(in: 0..<next.count, using: &rng)) }
                next.removeLast(300)
            }
            let expected = HeckelEngine().diff(from: current, to: next)
            #expect(workspace.diff(from: current, to: next) == expected, "version \(version)")
            #expect(parallel.diff(from: current, to: next) == expected, "version \(version), 2 threads")
            current = next
        }
    }

    /// Once the buffers are large enough and the caller lets go of each result, a call writes
    /// into the same storage as the last: the result's arrays start where the previous one's did,
    /// and the workspace holds no more memory than after the first call.
    @Test func aSteadyStateReusesTheSameStorage() {
        let old = (0..<30_000).map { Item($0, 0) }
        let new = (0..<30_000).map { Item($0 % 3 == 0 ? $0 + 50_000 : $0, $0 % 7 == 0 ? 1 : 0) }.reversed() as [Item]
        let workspace = HashMapEngine.Workspace()
        func addresses(_ result: DiffResult) -> [UnsafeRawPointer?] {
            [
                result.inserts.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                result.deletes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                result.updates.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                result.moves.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
            ]
        }
        var first = addresses(workspace.diff(from: old, to: new))
        let held = workspace.retainedBytes
        #expect(held > 30_000 * 8)
        for _ in 0..<3 {
            let again = addresses(workspace.diff(from: old, to: new))
            #expect(again == first)
            #expect(workspace.retainedBytes == held)
            first = again
        }
        // Minimal moves find their longest increasing run in buffers the workspace keeps too.
        var minimal = addresses(workspace.diff(from: old, to: new, moves: .minimal))
        let heldMinimal = workspace.retainedBytes
        #expect(heldMinimal > held, "the run's buffers are kept")
        for _ in 0..<3 {
            let again = addresses(workspace.diff(from: old, to: new, moves: .minimal))
            #expect(again == minimal)
            #expect(workspace.retainedBytes == heldMinimal)
            minimal = again
        }
        workspace.releaseMemory()
        #expect(workspace.retainedBytes == 0)
        #expect(workspace.diff(from: old, to: new) == HeckelEngine().diff(from: old, to: new))
        #expect(workspace.diff(from: old, to: new, moves: .minimal) == HeckelEngine().diff(from: old, to: new, moves: .minimal))
    }

    /// One workspace, element types one after another: its buffers hold indices only.
    @Test func elementTypesMayChangeBetweenCalls() {
        let workspace = HashMapEngine.Workspace(
            engine: HashMapEngine(partitioning: .fuzzing(threshold: 1), threads: 2, name: "p", trimming: .fuzzing))
        var rng = SplitMix64(seed: 13)
        for round in 0..<20 {
            let ints = (0..<(round * 3)).map { ($0 * 7) % 11 }
            let strings = ints.reversed().map { "s\($0)" }
            #expect(workspace.diff(from: ints, to: ints.reversed()) == HeckelEngine().diff(from: ints, to: ints.reversed()))
            let shuffled = strings.shuffled(using: &rng)
            #expect(workspace.diff(from: strings, to: shuffled) == HeckelEngine().diff(from: strings, to: shuffled))
            let boxes = ints.map { Box($0, $0 % 2) }
            let newBoxes = boxes.reversed().map { Box($0.id, $0.content + round % 2) }
            #expect(workspace.diff(from: boxes, to: newBoxes) == HeckelEngine().diff(from: boxes, to: newBoxes))
        }
    }

    /// The derivation into reused arrays equals the fresh one on 1, 2 and 3 threads, both move
    /// strategies, whether the caller keeps the previous result or not.
    @Test func derivationIntoReusedArraysEqualsAFreshOne() {
        var rng = SplitMix64(seed: 5)
        for threads in [1, 2, 3] {
            var buffers = _DerivationBuffers()
            var kept: [(DiffResult, DiffResult)] = []
            for step in 0..<300 {
                let (old, new) = randomLists(&rng, maxCount: [0, 30, 4, 17][step % 4], distinct: 10)
                let matching = HeckelEngine().matching(from: old, to: new, comparison: .equality)
                let moves: MoveStrategy = step % 3 == 2 ? .minimal : .offsets
                let fresh = DiffResult(matching: matching, moves: moves, threads: threads)
                let reused = DiffResult(matching: matching, moves: moves, threads: threads, reusing: &buffers)
                #expect(reused == fresh, "\(threads) threads, step \(step)")
                if step % 2 == 0 { kept.append((reused, fresh)) }
            }
            for (reused, fresh) in kept { #expect(reused == fresh) }
        }
    }

    /// `hashmap-reused` is shared by threads: its lock serializes the calls, and every answer is
    /// still `heckel`'s (ThreadSanitizer runs this test).
    @Test func theReusingEngineIsSafeToShare() {
        let engine = HashMapEngine.reusedEverywhere
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            var rng = SplitMix64(seed: UInt64(t))
            for _ in 0..<100 {
                let (old, new) = randomLists(&rng, maxCount: 30, distinct: 15)
                let matching = engine.matching(from: old, to: new, comparison: .equality)
                let result = engine.derive(matching, moves: .offsets)
                if matching != HeckelEngine().matching(from: old, to: new, comparison: .equality)
                    || result != HeckelEngine().diff(from: old, to: new)
                {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(engine.name == "hashmap-reused")
    }

    /// One workspace per thread, used at once: each thread's results are its own.
    @Test func workspacesOnSeveralThreads() {
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { t in
            let workspace = HashMapEngine.Workspace(engine: Self.engines[t % Self.engines.count])
            var rng = SplitMix64(seed: UInt64(100 + t))
            for _ in 0..<100 {
                let (old, new) = randomLists(&rng, maxCount: 40, distinct: 20)
                if workspace.diff(from: old, to: new) != HeckelEngine().diff(from: old, to: new) { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
