import DiffLabCore
import DiffLabEngines
import DiffLabPlatform
import DiffLabResults

// The repeated mode: `hashmap` as an app uses it, diffing again and again through one reused
// workspace, against one-off calls on the same lists, interleaved in one run.

/// `hashmap` diffing `versions` in turn through one ``HashMapEngine/Workspace``, against one-off
/// calls (`engine.diff`) on the same versions: for each thread count (`hashmap` on 1,
/// ``HashMapEngine/parallel(threads:)`` on more), every version is first diffed once both ways
/// (the warm-up that sizes the workspace), then `calls` calls of each kind alternate, which one
/// goes first alternating too; the medians of each kind's time, page faults and (under jemalloc)
/// allocation requests per call.
///
/// Each call's result is dropped before the next call, as an app that applies a diff and moves on
/// does; a result kept would make the workspace copy instead of reuse (see
/// ``HashMapEngine/Workspace``).
///
/// - Precondition: `versions` is not empty and all its lists are of one element kind.
/// - Complexity: (`versions.count` + `calls`) diffs of each kind per thread count.
public func measureRepeated(_ versions: [BenchLists], threads: [Int], calls: Int) -> [BenchRepeated] {
    precondition(!versions.isEmpty, "measureRepeated: at least one version")
    return threads.map { t in
        let engine = t == 1 ? HashMapEngine() : HashMapEngine.parallel(threads: t)
        switch versions[0] {
        case .ints:
            let pairs = versions.map { lists -> ([IntElement], [IntElement]) in
                guard case .ints(let old, let new) = lists else { preconditionFailure("measureRepeated: one element kind") }
                return (old, new)
            }
            return _repeated(engine, pairs, .equality, calls: calls)
        case .models:
            let pairs = versions.map { lists -> ([ModelElement], [ModelElement]) in
                guard case .models(let old, let new) = lists else { preconditionFailure("measureRepeated: one element kind") }
                return (old, new)
            }
            return _repeated(engine, pairs, .equality, calls: calls)
        case .objects:
            let pairs = versions.map { lists -> ([ObjectElement], [ObjectElement]) in
                guard case .objects(let old, let new) = lists else { preconditionFailure("measureRepeated: one element kind") }
                return (old, new)
            }
            return _repeated(engine, pairs, .identity, calls: calls)
        }
    }
}

/// One thread count of ``measureRepeated(_:threads:calls:)``.
func _repeated<Element: Diffable>(
    _ engine: HashMapEngine, _ pairs: [([Element], [Element])], _ comparison: ComparisonOption, calls: Int
) -> BenchRepeated {
    let workspace = HashMapEngine.Workspace(engine: engine)
    let jemalloc = JemallocStats.current
    // What reading the counters itself costs (a few requests of jemalloc's own), taken off
    // every call's count: the least of a few empty calls.
    let overhead = (0..<5).compactMap { _ in _CallCost(jemalloc, overhead: 0) { 0 }.allocations }.min() ?? 0
    for (old, new) in pairs {
        blackHole(engine.diff(from: old, to: new, comparison: comparison).changeCount)
        blackHole(workspace.diff(from: old, to: new, comparison: comparison).changeCount)
    }
    var oneOff: [_CallCost] = []
    var reused: [_CallCost] = []
    for i in 0..<max(1, calls) {
        let (old, new) = pairs[i % pairs.count]
        let measureOneOff = {
            oneOff.append(_CallCost(jemalloc, overhead: overhead) { engine.diff(from: old, to: new, comparison: comparison).changeCount })
        }
        let measureReused = {
            reused.append(_CallCost(jemalloc, overhead: overhead) { workspace.diff(from: old, to: new, comparison: comparison).changeCount })
        }
        if i % 2 == 0 {
            measureOneOff()
            measureReused()
        } else {
            measureReused()
            measureOneOff()
        }
    }
    func medianInt(_ values: [Int]) -> Int { Int((median(values.map(Double.init)) ?? 0).rounded()) }
    func medianAllocations(_ costs: [_CallCost]) -> Int? {
        let counts = costs.compactMap(\.allocations)
        return counts.count == costs.count ? medianInt(counts) : nil
    }
    return BenchRepeated(
        threads: engine.threads, versions: pairs.count, calls: oneOff.count,
        oneOffSeconds: median(oneOff.map(\.seconds)) ?? 0, reusedSeconds: median(reused.map(\.seconds)) ?? 0,
        oneOffFaults: medianInt(oneOff.map(\.faults)), reusedFaults: medianInt(reused.map(\.faults)),
        oneOffAllocations: medianAllocations(oneOff), reusedAllocations: medianAllocations(reused),
        retainedBytes: workspace.retainedBytes)
}

/// What one call cost: wall-clock seconds, the process's minor page faults, and (under jemalloc)
/// allocation requests, the counters read outside the timed part.
struct _CallCost {
    var seconds: Double
    var faults: Int
    var allocations: Int?

    /// Calls `body` once and measures it; `overhead` allocation requests (the counters' own) are
    /// taken off the count.
    init(_ jemalloc: JemallocStats?, overhead: Int, _ body: () -> Int) {
        let requestsBefore = jemalloc?.allocationRequests()
        let before = processFaults().minor
        let start = monotonicNow()
        blackHole(body())
        seconds = monotonicNow() - start
        faults = max(0, processFaults().minor - before)
        if let requestsBefore, let requestsAfter = jemalloc?.allocationRequests() {
            allocations = max(0, Int(clamping: requestsAfter &- requestsBefore) &- overhead)
        }
    }
}
