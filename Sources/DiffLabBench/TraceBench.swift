import DiffLabCore
import DiffLabFormatting
import DiffLabPlatform
import DiffLabResults

/// What a trace-driven benchmark measures (`difflab bench --trace`).
public struct TraceBenchOptions: Sendable {
    /// Engines to measure (the floors and the `stdlib` reference are always measured too); by
    /// default ``BenchSubject/builtIns``, `hashmap-staged` among them: a recorded app's updates
    /// are what its staged changesets are applied to.
    public var engines: [BenchSubject] = BenchSubject.builtIns
    /// The element kind the versions are built as: identifiers and contents become the kind's
    /// identifiers and revisions (``IntElement`` by default).
    public var kind: ElementKind = .int
    /// Seconds of samples per subject and pair, in ``BenchOptions/budgetRange``.
    public var budget = 0.02
    /// Fewest samples per subject and pair, in ``BenchOptions/sampleRange``.
    public var minSamples = 3
    /// Most samples per subject and pair, in ``BenchOptions/sampleRange``.
    public var maxSamples = 50
    /// The per-call limit in seconds, in ``BenchOptions/maxCallSecondsRange``: a subject whose
    /// call on some pair takes longer is skipped from then on, with the reason.
    public var maxCallSeconds = 6.0
    /// The bound on one call of an edit-distance engine (``EditDistanceGuard/bounds(_:)``),
    /// checked before the call: such a subject is skipped from the first pair it could not diff
    /// within it, whatever ``maxCallSeconds`` says (no projection from probes sees a pair's edit
    /// distance coming).
    public var editDistanceGuard = EditDistanceGuard()

    /// The defaults; see the properties.
    public init() {}

    /// Checks every setting against its range.
    ///
    /// - Throws: ``ConfigurationError`` naming the first setting out of range.
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.check(budget, in: BenchOptions.budgetRange, "budget")
        try ConfigurationError.check(maxCallSeconds, in: BenchOptions.maxCallSecondsRange, "maxCallSeconds")
        try ConfigurationError.check(minSamples, in: BenchOptions.sampleRange, "minSamples")
        try ConfigurationError.check(maxSamples, in: BenchOptions.sampleRange, "maxSamples")
    }
}

extension AbstractDataset {
    /// The lists of versions `old` and `new` of `trace` (every section's items in order): each
    /// item's identifier index as the id and its content index as the revision, so equal
    /// identifiers stay equal and a changed content is an update.
    ///
    /// - Complexity: O(items of both versions).
    public init(_ trace: Trace, from old: Int, to new: Int) {
        self.init(
            old: trace.versions[old].items.map { (id: $0.id, revision: $0.content) },
            new: trace.versions[new].items.map { (id: $0.id, revision: $0.content) })
    }
}

/// Runs every subject on every consecutive pair of `trace`'s versions, side by side: for each pair
/// the lists are built once, then the hash floor, the partitioned floor, `stdlib` and each engine
/// are timed on them in turn (each pair's median of at least ``TraceBenchOptions/minSamples``
/// calls). A subject that fails, or whose call exceeds the per-call limit, on some pair is skipped
/// from that pair on, with the reason; its totals are then not comparable and are not reported.
/// No call runs much past the limit: before each pair larger than any measured so far, the
/// subject's time is projected from its largest earlier pair (or, for a first pair above
/// ``BenchOptions/probeFloor`` items, from probes on its first items), and a projection past the
/// limit skips the subject. Before that, an edit-distance subject (``EditDistanceGuard``) is
/// skipped from the first pair whose call could pass the guard's bound.
///
/// - Parameters:
///   - trace: the recorded trace whose consecutive versions are diffed.
///   - file: the trace's path, for the results' workload.
///   - options: the engines, element kind, time budget, sample counts and per-call limit.
///   - allocator: the allocator this process runs on (`system` or `jemalloc`), for the results.
///   - progress: called after each pair with (done, total).
/// - Returns: the results (without the run's provenance, which the caller sets).
/// - Precondition: `options` valid; the trace has at least two versions.
/// - Complexity: per pair and subject about `budget` seconds, at least `minSamples` calls.
public func runTraceBench(
    _ trace: Trace, file: String, _ options: TraceBenchOptions, allocator: MemoryAllocator, progress: (Int, Int) -> Void = { _, _ in }
) -> TraceBenchResults {
    do throws(ConfigurationError) { try options.validate() } catch { preconditionFailure("runTraceBench: \(error)") }
    precondition(trace.versions.count >= 2, "runTraceBench: a trace of \(trace.versions.count) versions has no pair")
    var subjects = BenchSubject.floors
    if !options.engines.contains(where: { $0.name == BenchSubject.stdlib.name }) { subjects.append(.stdlib) }
    for engine in options.engines where !subjects.contains(where: { $0.name == engine.name }) { subjects.append(engine) }
    var rows = subjects.map { TraceBenchSubject(engine: $0.name, isEngine: $0.isEngine, changes: $0.isEngine ? 0 : nil) }
    var pairs: [TraceBenchPair] = []
    var largest: [Int: (size: Int, seconds: Double)] = [:]
    let total = trace.versions.count - 1
    for index in 0..<total {
        let dataset = AbstractDataset(trace, from: index, to: index + 1)
        pairs.append(TraceBenchPair(old: dataset.old.count, new: dataset.new.count))
        let lists = BenchLists(dataset, kind: options.kind)
        let size = max(dataset.old.count, dataset.new.count)
        // Bounded once per pair, and only when an edit-distance subject is still running.
        var distance: Int?
        for (s, subject) in subjects.enumerated() where rows[s].skipped == nil {
            if EditDistanceGuard.bounds(subject) {
                let bound = distance ?? EditDistanceGuard.distanceBound(dataset)
                distance = bound
                let work = EditDistanceGuard.callWork(items: dataset.old.count + dataset.new.count, distance: bound)
                if options.editDistanceGuard.refuses(work) {
                    rows[s].skipped = "on pair \(index) (\(size) items) a call \(options.editDistanceGuard.reason(work: work))"
                    rows[s].pairSeconds = []
                    rows[s].changes = nil
                    continue
                }
            }
            // No call runs much past the limit: projected from the subject's largest pair so far,
            // or, for a first large pair, from probes on the pair's first items.
            if let reason = projectedOverLimit(subject, dataset, size: size, earlier: largest[s], options: options, pair: index) {
                rows[s].skipped = reason
                rows[s].pairSeconds = []
                rows[s].changes = nil
                continue
            }
            let call = subject.prepare(lists)
            switch measureCall(
                call, selfTimed: subject.isSelfTimed, budget: options.budget, minSamples: options.minSamples,
                maxSamples: options.maxSamples, callLimit: options.maxCallSeconds)
            {
            case .failed(let failure):
                rows[s].skipped = BenchMeasurement.engineFailedPrefix + "\(failure) (pair \(index))"
            case .overLimit(let seconds):
                rows[s].skipped = "a call took \(formatSeconds(seconds)) on pair \(index) (limit \(formatSeconds(options.maxCallSeconds)))"
            case .measured(let measurement):
                let median = measurement.statistics.median
                rows[s].pairSeconds.append(median)
                if size >= largest[s]?.size ?? 0 { largest[s] = (size, median) }
                guard let counts = call.counts else { continue }
                do throws(EngineFailure) {
                    rows[s].changes? += try counts().changeCount
                } catch {
                    rows[s].skipped = BenchMeasurement.engineFailedPrefix + "\(error) (pair \(index))"
                }
            }
            if rows[s].skipped != nil {
                rows[s].pairSeconds = []
                rows[s].changes = nil
            }
        }
        progress(index + 1, total)
    }
    return TraceBenchResults(
        trace: TraceWorkload(trace, file: file), allocator: allocator, kind: options.kind.rawValue, budgetSeconds: options.budget,
        pairs: pairs, subjects: rows)
}

/// Why `subject` is not run on a pair of `size` items (the larger list): its call is projected
/// (time ∝ size^``BenchSubject/growthExponent``) past the per-call limit, from its largest pair
/// measured so far or, with none and above ``BenchOptions/probeFloor`` items, from probes on the
/// first items of each list; `nil` to run it.
func projectedOverLimit(
    _ subject: BenchSubject, _ dataset: AbstractDataset, size: Int, earlier: (size: Int, seconds: Double)?, options: TraceBenchOptions,
    pair: Int
) -> String? {
    let limit = options.maxCallSeconds
    let projection: Double
    let basis: String
    if let earlier, earlier.size > 0 {
        guard size > earlier.size else { return nil }
        projection = earlier.seconds * Double.pow(Double(size) / Double(earlier.size), subject.growthExponent)
        basis = "from its time at \(earlier.size) items"
    } else {
        guard size > BenchOptions.probeFloor else { return nil }
        let probed = probeProjection(subject, size: size, limit: limit) { n in
            BenchLists(AbstractDataset(old: Array(dataset.old.prefix(n)), new: Array(dataset.new.prefix(n))), kind: options.kind)
        }
        projection = probed.seconds
        basis = "from a probe at \(probed.probe) items"
    }
    guard projection > limit else { return nil }
    return "projected \(formatSeconds(projection)) per call on pair \(pair) (\(size) items) \(basis) (limit \(formatSeconds(limit)))"
}

/// The command line's table of a trace-driven run: per subject the total over all pairs, the
/// median and p99 per pair, the worst pair, and the ratios to the floors and `stdlib`.
///
/// - Complexity: O(subjects × pairs log pairs).
public func traceBenchTable(_ results: TraceBenchResults) -> String {
    let pad = padded
    let nameWidth = max(18, (results.subjects.map(\.engine.count).max() ?? 0) + 1)
    let w = results.trace
    var lines = [
        "trace \(w.file): \(w.provenance.source)",
        "  \(w.versions) versions, \(results.pairs.count) pairs, \(formatGrouped(w.items)) items, \(results.kind) elements, \(results.allocator) allocator",
        "  " + pad("subject", nameWidth) + pad("total", 11) + pad("median/pair", 13) + pad("p99/pair", 11) + pad("worst pair", 26)
            + pad("× hash floor", 14) + pad("× part. floor", 15) + "vs stdlib",
    ]
    for row in results.summaries {
        guard let total = row.total else {
            lines.append("  " + pad(row.engine, nameWidth) + "skipped: \(row.skipped ?? "")")
            continue
        }
        let worst = row.worstPair.map { "#\($0.index) \($0.pair.old)→\($0.pair.new) \(formatSeconds($0.seconds))" } ?? "–"
        lines.append(
            "  " + pad(row.engine, nameWidth) + pad(formatSeconds(total), 11) + pad(row.medianPerPair.map(formatSeconds) ?? "–", 13)
                + pad(row.p99PerPair.map(formatSeconds) ?? "–", 11) + pad(worst, 26)
                + pad(row.ratioToHashFloor.map { "\(round2($0))×" } ?? "–", 14) + pad(row.ratioToPartitionedFloor.map { "\(round2($0))×" } ?? "–", 15)
                + (row.speedupOverStdlib.map { "×\(round2($0))" } ?? "–"))
    }
    return lines.joined(separator: "\n")
}
