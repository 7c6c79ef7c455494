import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabPlatform
import DiffLabResults

/// A benchmark or policy-lab setting outside its documented range.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting, by its property name (e.g. `budget`, `frameRate`).
    public var field: String
    /// What it must be (e.g. `a number from 0.001 to 600`).
    public var expected: String
    /// The value given, as text.
    public var value: String

    /// An error for `field`, which must be `expected` and was `value`.
    public init(field: String, expected: String, value: String) {
        self.field = field
        self.expected = expected
        self.value = value
    }

    /// `budget must be a number from 0.001 to 600 (got inf)`.
    public var description: String { "\(field) must be \(expected) (got \(value))" }

    /// Checks that `value` lies in `range` (so it is finite and not NaN when the bounds are finite).
    static func check(_ value: Double, in range: ClosedRange<Double>, _ field: String) throws(ConfigurationError) {
        guard range.contains(value) else {
            throw ConfigurationError(field: field, expected: "a number from \(range.lowerBound) to \(range.upperBound)", value: "\(value)")
        }
    }

    /// Checks that `value` lies in `range`.
    static func check(_ value: Int, in range: ClosedRange<Int>, _ field: String) throws(ConfigurationError) {
        guard range.contains(value) else {
            throw ConfigurationError(field: field, expected: "an integer from \(range.lowerBound) to \(range.upperBound)", value: "\(value)")
        }
    }
}

/// What a benchmark run measures.
///
/// Every number has a documented range (the `…Range` constants, which `difflab bench` also
/// parses its flags against). ``init(engines:profiles:sizes:kinds:budget:maxCallSeconds:seed:maxSamples:)``
/// traps on a value outside them; ``validate()`` reports one as a ``ConfigurationError``, for
/// options assembled field by field; ``runBench(_:allocator:progress:)`` traps on invalid options.
public struct BenchOptions: Sendable {
    /// Engines to measure, built-in or not (the `stdlib` reference and the hash floor are always
    /// measured too). Names must be distinct.
    public var engines: [BenchSubject]
    /// Dataset profiles.
    public var profiles: [DatasetProfile]
    /// List sizes, each in ``sizeRange`` (measured in ascending order, each once).
    public var sizes: [Int]
    /// Element kinds.
    public var kinds: [ElementKind]
    /// Seconds of samples per measurement, in ``budgetRange``.
    public var budget: Double
    /// The per-call time limit, in ``maxCallSecondsRange``: a measurement whose single call is
    /// projected to take longer than this many seconds is skipped, with the reason recorded. The
    /// projection is from the previous size measured, or, for the first size of a subject, from
    /// probe calls at smaller sizes (see ``probeFloor``); a warm-up call that exceeds the limit all
    /// the same ends the measurement too.
    public var maxCallSeconds: Double
    /// Seed of the datasets.
    public var seed: UInt64
    /// Most samples per measurement, in ``sampleRange``; it wins over ``minSamples`` when smaller.
    public var maxSamples: Int
    /// Fewest samples per measurement, in ``sampleRange``.
    public var minSamples = 5
    /// When set, sizes above ``largeSizeThreshold`` are measured only for these profiles (quick runs).
    public var largeSizeProfiles: [DatasetProfile]?
    /// Only this part of the matrix (``BenchShard``), or all of it.
    public var shard: BenchShard?

    /// List sizes: 1 to ``AbstractDataset/maxSize`` (10,000,000).
    public static let sizeRange = 1...AbstractDataset.maxSize
    /// Seconds of samples per measurement: 0.001 to 600.
    public static let budgetRange: ClosedRange<Double> = 0.001...600
    /// The per-call time limit in seconds: 0.001 to 3600.
    public static let maxCallSecondsRange: ClosedRange<Double> = 0.001...3600
    /// Samples per measurement: 1 to 10,000.
    public static let sampleRange = 1...10_000
    /// The smallest probe size, and the size up to which a subject's first size is measured without
    /// probing: at 1,000 items every subject's call takes milliseconds at most.
    public static let probeFloor = 1_000
    /// The smallest size at which `hashmap`'s phases are measured (``measurePhases(_:threads:calls:moves:)``):
    /// below it a diff takes tens of microseconds and a phase's time is mostly the clock's.
    public static let phaseFloor = 10_000
    /// The move strategy of the change counts a cell reports (`changeCount`): offsets moves.
    public static let reportedMoves = MoveStrategy.offsets

    /// Options; see ``quick`` and ``full``.
    ///
    /// - Precondition: every value in its range (see ``validate()``).
    public init(
        engines: [BenchSubject] = BenchSubject.builtIns, profiles: [DatasetProfile] = DatasetProfile.allCases,
        sizes: [Int] = [1_000, 10_000, 100_000, 1_000_000], kinds: [ElementKind] = [.int], budget: Double = 1.0,
        maxCallSeconds: Double = 20, seed: UInt64 = 42, maxSamples: Int = 200
    ) {
        self.engines = engines
        self.profiles = profiles
        self.sizes = sizes.sorted()
        self.kinds = kinds
        self.budget = budget
        self.maxCallSeconds = maxCallSeconds
        self.seed = seed
        self.maxSamples = maxSamples
        do throws(ConfigurationError) { try validate() } catch { preconditionFailure("BenchOptions: \(error)") }
    }

    /// Checks every setting against its range.
    ///
    /// - Throws: ``ConfigurationError`` naming the first setting out of range and what it must be.
    /// - Complexity: O(sizes).
    public func validate() throws(ConfigurationError) {
        for size in sizes { try ConfigurationError.check(size, in: Self.sizeRange, "sizes") }
        try ConfigurationError.check(budget, in: Self.budgetRange, "budget")
        try ConfigurationError.check(maxCallSeconds, in: Self.maxCallSecondsRange, "maxCallSeconds")
        try ConfigurationError.check(minSamples, in: Self.sampleRange, "minSamples")
        try ConfigurationError.check(maxSamples, in: Self.sampleRange, "maxSamples")
    }

    /// A few minutes: every profile at 1k and 10k, `differencekit` also at 100k (where the stdlib
    /// reference takes a few seconds a call), int elements.
    public static let quick: BenchOptions = {
        var options = BenchOptions(sizes: [1_000, 10_000, 100_000], budget: 0.15, maxCallSeconds: 6, maxSamples: 60)
        options.largeSizeProfiles = [.differencekit]
        options.minSamples = 3
        return options
    }()

    /// Every profile at 1k → 10M; model and object elements on ``nonIntProfiles``,
    /// up to 1M (see ``includes(_:_:_:)``). At 10M the engines whose projected call passes the
    /// limit (`myers` and `stdlib` on most profiles) are skipped with the projection as the reason.
    public static let full = BenchOptions(
        sizes: [1_000, 10_000, 100_000, 1_000_000, 10_000_000], kinds: [.int, .model, .object], budget: 1.0, maxCallSeconds: 12)

    /// The largest size measured for model and object elements: lists of ten million of them take
    /// several gigabytes each (a `ModelElement` holds a UUID and two strings, an `ObjectElement`
    /// is a class instance).
    public static let largestNonIntSize = 1_000_000

    /// The profiles model and object elements are measured on: `differencekit`, `small-edit`, and
    /// the profiles that change almost nothing (`unchanged`, `append-one`, `update-one`), where the
    /// staged form's cost over the flat engine is mostly what an element copy costs.
    public static let nonIntProfiles: [DatasetProfile] = [.differencekit, .smallEdit, .unchanged, .appendOne, .updateOne]

    /// The largest size measured on every profile when ``largeSizeProfiles`` is set: 10,000.
    public static let largeSizeThreshold = 10_000

    /// What every dataset is measured with, in order: the floors (``BenchSubject/floors``), the
    /// copy floor when an engine is a staged form (named `<engine>-staged`), then each engine not
    /// named like one before it, then the `stdlib` reference unless an engine is it. O(engines²).
    public var subjects: [BenchSubject] {
        var subjects = BenchSubject.floors
        if engines.contains(where: { $0.name.hasSuffix(BuiltInEngines.Name.stagedSuffix) }) { subjects.append(.copyFloor) }
        for engine in engines where !subjects.contains(where: { $0.name == engine.name }) { subjects.append(engine) }
        if !subjects.contains(where: { $0.name == BenchSubject.stdlib.name }) { subjects.append(.stdlib) }
        return subjects
    }

    /// Whether `profile` × `kind` × `size` is in the matrix: model and object elements run on
    /// ``nonIntProfiles`` only, up to ``largestNonIntSize``; see ``largeSizeProfiles``.
    public func includes(_ profile: DatasetProfile, _ kind: ElementKind, _ size: Int) -> Bool {
        if kind != .int && size > Self.largestNonIntSize { return false }
        if kind != .int && !Self.nonIntProfiles.contains(profile) { return false }
        if size > Self.largeSizeThreshold, let large = largeSizeProfiles, !large.contains(profile) { return false }
        return true
    }
}

extension BenchMeasurement {
    /// A cell of `subject` on `cell`'s dataset, with no figures yet, timed as the subject is.
    package init(_ subject: BenchSubject, _ cell: BenchCell, allocator: MemoryAllocator) {
        self.init(engine: subject.name, profile: cell.profile.rawValue, size: cell.size, kind: cell.kind.rawValue, allocator: allocator)
        timing = subject.isSelfTimed ? .selfTimed : .harness
    }

    /// Takes `measurement`'s figures: its statistics, every sample, CPU time, allocation figures,
    /// page faults and resident memory.
    mutating func take(_ measurement: SampledMeasurement) {
        let s = measurement.statistics
        median = s.median
        min = s.min
        p90 = s.p90
        p99 = s.p99
        mad = s.mad
        cpuMedian = measurement.cpuSamples.isEmpty ? nil : SampleStatistics(measurement.cpuSamples).median
        callsPerSample = measurement.callsPerSample
        // `map(Double.init)` would pick `Double(bitPattern:)` for a UInt64 (a byte count of
        // 10,240 became 5.06e-320): convert the value explicitly.
        allocatedBytes = measurement.allocatedBytes.map { Double($0) }
        allocationRequests = measurement.allocationRequests.map { Double($0) }
        peakRSSBytes = measurement.peakRSSBytes.map { Double($0) }
        minorFaults = measurement.footprint.minorFaults
        majorFaults = measurement.footprint.majorFaults
        peakExtraRSSBytes = measurement.footprint.peakExtraRSSBytes.map { Double($0) }
        samples = measurement.samples
        cpuSamples = measurement.cpuSamples
    }
}

/// The name of the floor measurement.
package let hashFloorName = BuiltInEngines.Name.hashFloor
/// The name of the partitioned floor measurement.
package let partitionedFloorName = BuiltInEngines.Name.partitionedFloor
/// The name of the trim floor measurement.
package let trimFloorName = BuiltInEngines.Name.trimFloor
/// The name of the copy floor measurement.
package let copyFloorName = BuiltInEngines.Name.copyFloor

/// Runs the benchmark matrix in this process (under whichever allocator it runs on), every
/// measurement in this one process (``BenchIsolation/shared``: a figure may depend on the cells
/// measured before it; `difflab bench` measures each in a fresh worker instead).
///
/// For every element kind, profile and size the dataset is generated once; then the hash floor,
/// the `stdlib` reference and every engine are measured side by side on it. With a
/// ``BenchOptions/shard``, only the series of that part (``BenchOptions/series(in:)``).
///
/// ## The per-call time limit
/// No call runs much past ``BenchOptions/maxCallSeconds``, whatever the sizes:
/// - a subject's call at a size is projected from its median at the previous (smaller) size
///   measured, as time ∝ size^2 for `myers` and `stdlib` and size^1.2 for the others;
/// - a subject's first size above ``BenchOptions/probeFloor`` has no previous size, so it is
///   projected from *probes*: calls on datasets of the same profile and kind at 1,000, 10,000, …
///   items (below that size), timed outside any measurement and not reported; the ladder climbs
///   while the next probe is projected to take at most a tenth of the limit (and 1 s), and the
///   largest probe is projected from;
/// - a cell projected past the limit, or after a skipped size, is skipped with the reason in
///   its `skipped`;
/// - and if the warm-up call of a measurement takes longer than the limit all the same, the
///   measurement stops there and is recorded as skipped.
///
/// - Parameters:
///   - options: the engines, profiles, sizes, element kinds, time budget and per-call limit.
///   - allocator: the allocator this process runs on (`system` or `jemalloc`), for the results.
///   - progress: called after each measurement with (done, total, label).
/// - Returns: one measurement per subject and dataset, in matrix order, without ratios.
/// - Precondition: `options` is valid (see ``BenchOptions/validate()``).
/// - Complexity: per cell and subject, about `budget` seconds, at most `minSamples` + 3 calls of
///   at most about `maxCallSeconds` each; probes add at most about 1 s per subject's first size.
public func runBench(
    _ options: BenchOptions, allocator: MemoryAllocator, progress: (Int, Int, String) -> Void = { _, _, _ in }
) -> [BenchMeasurement] {
    runBench(options, allocator: allocator, measuringEachIn: nil as ((BenchCell) throws(Never) -> BenchMeasurement)?, progress: progress)
}

/// ``runBench(_:allocator:progress:)``, with each measurement that is not skipped made by
/// `measure` when given (`difflab bench`: in a fresh worker process, ``BenchIsolation/process``)
/// instead of in this process. The per-call limit, its probes and the memory guard stay here.
///
/// - Throws: what `measure` throws (the run stops there).
package func runBench<Failure: Error>(
    _ options: BenchOptions, allocator: MemoryAllocator, measuringEachIn measure: ((BenchCell) throws(Failure) -> BenchMeasurement)?,
    progress: (Int, Int, String) -> Void = { _, _, _ in }
) throws(Failure) -> [BenchMeasurement] {
    do throws(ConfigurationError) { try options.validate() } catch { preconditionFailure("runBench: \(error)") }
    let subjects = options.subjects
    let sizes = Set(options.sizes).sorted()
    var cells: [(ElementKind, DatasetProfile, Int)] = []
    let part = options.shard.map { Set(options.series(in: $0)) }
    for kind in options.kinds {
        for profile in options.profiles where part?.contains(BenchSeries(kind: kind, profile: profile)) ?? true {
            for size in sizes where options.includes(profile, kind, size) { cells.append((kind, profile, size)) }
        }
    }
    let total = cells.count * subjects.count
    var done = 0
    var records: [BenchMeasurement] = []
    for (kind, profile, size) in cells {
        // The memory guard: a cell whose lists (and the repeated mode's versions) and the
        // engines' working memory would not fit in what the kernel says is available is skipped
        // whole, before anything is generated.
        let memorySkip = memorySkipReason(kind: kind, size: size, available: availableMemoryBytes())
        // In this process the lists are generated once for every subject; a worker makes its own.
        var lists: BenchLists?
        for subject in subjects {
            let cell = BenchCell(subject: subject.name, profile: profile, kind: kind, size: size)
            var record = BenchMeasurement(subject, cell, allocator: allocator)
            let earlier = records.filter { $0.engine == subject.name && $0.profile == profile.rawValue && $0.kind == kind.rawValue }
            if let reason = memorySkip ?? skipReason(cell, subject, earlier: earlier, options) {
                record.skipped = reason
            } else if let measure {
                record = try measure(cell)
            } else {
                let made = lists ?? BenchLists(AbstractDataset(profile, size: size, seed: options.seed), kind: kind)
                lists = made
                record = measureSubject(subject, on: made, cell, options, allocator: allocator)
            }
            records.append(record)
            done += 1
            progress(done, total, "\(subject.name) \(profile.rawValue) \(kind.rawValue) \(size)")
        }
    }
    return records
}

/// One cell measured from nothing, as a fresh worker process measures it: its dataset generated,
/// then its subject measured on it (``BenchIsolation/process``). `nil` when `cell` names no
/// subject of `options` (``BenchOptions/subjects``).
///
/// - Complexity: the dataset's generation, then one measurement (see ``runBench(_:allocator:progress:)``).
package func measureCell(_ cell: BenchCell, _ options: BenchOptions, allocator: MemoryAllocator) -> BenchMeasurement? {
    guard let subject = options.subjects.first(where: { $0.name == cell.subject }) else { return nil }
    let lists = BenchLists(AbstractDataset(cell.profile, size: cell.size, seed: options.seed), kind: cell.kind)
    return measureSubject(subject, on: lists, cell, options, allocator: allocator)
}

/// `subject` measured on `lists` in this process: its samples and move counts, and in the built-in
/// `hashmap`'s cells from ``BenchOptions/phaseFloor`` items its phases and repeated mode.
private func measureSubject(
    _ subject: BenchSubject, on lists: BenchLists, _ cell: BenchCell, _ options: BenchOptions, allocator: MemoryAllocator
) -> BenchMeasurement {
    var record = BenchMeasurement(subject, cell, allocator: allocator)
    fill(&record, subject.prepare(lists), subject, options)
    if subject.name == BuiltInEngines.Name.hashmap && subject.isEngine && record.isMeasured && cell.size >= BenchOptions.phaseFloor {
        let threads = availableCores() >= 2 ? [1, 2] : [1]
        let calls = cell.size >= 5_000_000 ? 3 : 5
        record.phases = measurePhases(lists, threads: threads, calls: calls, moves: MoveStrategy.allCases)
        record.repeated = measureRepeated(
            repeatedVersions(lists, profile: cell.profile, kind: cell.kind, size: cell.size, seed: options.seed), threads: threads,
            calls: cell.size >= 5_000_000 ? 3 : 9)
    }
    return record
}

/// About how many bytes a cell needs at its peak: the abstract dataset (16 bytes per item and
/// list), the lists as `kind` for the cell and the repeated mode's extra versions
/// (``repeatedVersions(_:profile:kind:size:seed:)``), and 512 bytes per item for the most
/// demanding engine's working memory (`heckel`'s dictionaries; `hashmap` takes about 40 to 60).
///
/// - Complexity: O(1).
package func estimatedCellBytes(kind: ElementKind, size: Int) -> Int {
    let perElement =
        switch kind {
        case .int: MemoryLayout<IntElement>.stride
        case .model: 160
        case .object: 160
        }
    let versions = size >= 5_000_000 ? 2 : 3
    let perItem = 16 &* 2 &+ perElement &* 2 &* versions &+ 512
    return size.multipliedReportingOverflow(by: perItem).overflow ? Int.max : size &* perItem
}

/// Why a cell of `size` `kind` items is skipped for memory, or `nil` to measure it: when
/// ``estimatedCellBytes(kind:size:)`` is more than `available` bytes (`nil`: unknown, measured).
///
/// - Complexity: O(1).
package func memorySkipReason(kind: ElementKind, size: Int, available: Int?) -> String? {
    guard let available else { return nil }
    let needed = estimatedCellBytes(kind: kind, size: size)
    guard needed > available else { return nil }
    return "needs about \(formatBytes(Double(needed))) of memory, \(formatBytes(Double(available))) available"
}

/// Why `cell` is skipped under the per-call limit, or `nil` to measure it. `earlier` holds the
/// same subject's records at smaller sizes of the same profile and kind. See
/// ``runBench(_:allocator:progress:)``.
func skipReason(_ cell: BenchCell, _ subject: BenchSubject, earlier: [BenchMeasurement], _ options: BenchOptions) -> String? {
    let limit = options.maxCallSeconds
    func projected(_ seconds: Double, from size: Int) -> Double {
        seconds * Double.pow(Double(cell.size) / Double(size), subject.growthExponent)
    }
    // A smaller size was skipped: so is every larger one.
    if let skipped = earlier.last?.skipped { return skipped }
    if let previous = earlier.last, let median = previous.median {
        let time = projected(median, from: previous.size)
        return time > limit ? "projected \(formatSeconds(time)) per call from \(previous.size) items (limit \(formatSeconds(limit)))" : nil
    }
    // The subject's first size: probe below it, from the floor up by tens while the next probe is
    // cheap (projected to a tenth of the limit, at most 1 s), and project from the largest probe.
    guard cell.size > BenchOptions.probeFloor else { return nil }
    let (projection, probe) = probeProjection(subject, size: cell.size, limit: limit) { size in
        BenchLists(AbstractDataset(cell.profile, size: size, seed: options.seed), kind: cell.kind)
    }
    guard projection > limit else { return nil }
    return "projected \(formatSeconds(projection)) per call from a probe at \(probe) items (limit \(formatSeconds(limit)))"
}

/// `subject`'s call time at `size` items, projected (time ∝ size^``BenchSubject/growthExponent``)
/// from probes on `lists(n)` at n = ``BenchOptions/probeFloor``, then ten times more while the
/// next probe is projected to take at most a tenth of `limit` (and 1 s), from the largest probe.
///
/// - Returns: the projected seconds and the largest probe's size.
func probeProjection(_ subject: BenchSubject, size: Int, limit: Double, lists: (Int) -> BenchLists) -> (seconds: Double, probe: Int) {
    var probe = BenchOptions.probeFloor
    var time = probeSeconds(subject.prepare(lists(probe)))
    while probe * 10 < size, time * Double.pow(10, subject.growthExponent) <= min(limit / 10, 1) {
        probe *= 10
        time = probeSeconds(subject.prepare(lists(probe)))
    }
    return (time * Double.pow(Double(size) / Double(probe), subject.growthExponent), probe)
}

/// A probe: the least time of up to three calls of `call` (fewer calls once 20 ms are spent),
/// timed outside any measurement.
func probeSeconds(_ call: BenchCall) -> Double {
    var best = Double.infinity
    var spent = 0.0
    for _ in 0..<3 where spent < 0.02 {
        let start = monotonicNow()
        // A failing engine is probed as taking no time: its measurement reports the failure.
        _ = try? call.run()
        let time = monotonicNow() - start
        best = min(best, time)
        spent += time
    }
    return best
}

private func fill(_ record: inout BenchMeasurement, _ call: BenchCall, _ subject: BenchSubject, _ options: BenchOptions) {
    let measured = measureCall(
        call, selfTimed: subject.isSelfTimed, budget: options.budget, minSamples: options.minSamples,
        maxSamples: options.maxSamples, callLimit: options.maxCallSeconds)
    switch measured {
    case .failed(let failure):
        record.skipped = BenchMeasurement.engineFailedPrefix + "\(failure)"
        return
    case .overLimit(let warmUp):
        record.skipped = "the first call took \(formatSeconds(warmUp)) (limit \(formatSeconds(options.maxCallSeconds)))"
        return
    case .measured(var measurement):
        if let enginePeak = subject.engineProcessPeakRSS {
            // This process's figures (its allocations, page faults, CPU time and memory) say
            // nothing of an engine in another process: left out, and the engine process's peak
            // taken instead, for a self-timed cell (marked so in the results).
            measurement.allocatedBytes = nil
            measurement.allocationRequests = nil
            measurement.cpuSamples = []
            measurement.footprint = CallFootprint()
            measurement.peakRSSBytes = subject.isSelfTimed ? enginePeak() : nil
        }
        // Move counts per strategy from one more call (not timed); a failure there fails the cell.
        if let counts = call.counts {
            do throws(EngineFailure) {
                let c = try counts()
                record.changeCount = c.changeCount
                record.offsetsMoves = c.offsetsMoves
                record.minimalMoves = c.minimalMoves
                record.batchMoves = c.batchMoves
            } catch {
                record.skipped = BenchMeasurement.engineFailedPrefix + "\(error)"
                return
            }
        }
        record.take(measurement)
    }
}

/// The hash floor: the least work any hashing diff does — build one open-addressing table over the
/// old identifiers and probe it with the new ones (each hashed once). The table is the engines'
/// own (``_IdentifierTable``), so the floor is their table's cost and nothing else. Returns the
/// hits.
///
/// - Complexity: O(n + m).
@inline(never)
@usableFromInline package func hashFloor<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int {
    old.withUnsafeBufferPointer { old in new.withUnsafeBufferPointer { new in _hashFloor(old, new) } }
}

/// ``hashFloor(_:_:)`` on buffers.
@inlinable
func _hashFloor<Element: Diffable>(_ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>) -> Int {
    typealias Table = _IdentifierTable<Int32, Void>
    var table = Table(capacityFor: old.count, empty: ())
    let mask = table.mask
    var hits = 0
    table.slots.withUnsafeMutableBufferPointer { slots in
        for o in 0..<old.count {
            let id = old[o].diffIdentifier
            let (hash, tag) = Table.hashAndTag(id)
            let (s, found) = Table.find(slots, mask: mask, hash: hash, tag: tag) { old[Int($0)].diffIdentifier == id }
            if !found { slots[s] = .init(tag: tag, key: Int32(truncatingIfNeeded: o), payload: ()) }
        }
        for n in 0..<new.count {
            let id = new[n].diffIdentifier
            let (hash, tag) = Table.hashAndTag(id)
            if Table.find(slots, mask: mask, hash: hash, tag: tag, matches: { old[Int($0)].diffIdentifier == id }).found {
                hits &+= 1
            }
        }
    }
    return hits
}

/// The partitioned floor: the least work a partitioned hashing diff does. Both lists are hashed
/// once and radix-partitioned (``_RadixPartitions``, into as many partitions as ``HashMapEngine``
/// uses at this size: ``HashMapEngine/Partitioning/measured``); then each partition's old codes go
/// into a cache-sized table (``_IdentifierTable``) that the partition's new codes probe. It reads no
/// element after hashing and compares codes only, so it is a lower bound, not a diff. Returns the
/// hits.
///
/// - Complexity: O(n + m); 8 bytes per element of each list, plus a table for the largest partition.
@inline(never)
@usableFromInline package func partitionedFloor<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int {
    old.withUnsafeBufferPointer { old in new.withUnsafeBufferPointer { new in _partitionedFloor(old, new) } }
}

/// ``partitionedFloor(_:_:)`` on buffers.
@inlinable
func _partitionedFloor<Element: Diffable>(_ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>) -> Int {
    typealias Table = _IdentifierTable<Int32, Void>
    let bits = HashMapEngine.Partitioning.measured.partitionBits(for: old.count)
    // Scratch for the hashes between the partitioning's passes, uninitialized as the engine's is
    // (each pass writes every slot before reading it, and leaves -1 there).
    var oldParts: _RadixPartitions?
    var newParts: _RadixPartitions?
    let scratch = [Int](unsafeUninitializedCapacity: max(old.count, new.count)) { scratch, initialized in
        oldParts = _RadixPartitions(count: old.count, bits: bits, threads: 1, scratch: scratch) { old[$0].diffIdentifier.hashValue }
        newParts = _RadixPartitions(count: new.count, bits: bits, threads: 1, scratch: scratch) { new[$0].diffIdentifier.hashValue }
        initialized = max(old.count, new.count)
    }
    blackHole(scratch.count)
    guard let oldParts, let newParts else { return 0 }
    var largest = 0
    for p in 0..<oldParts.partitionCount { largest = max(largest, oldParts.bounds[p + 1] - oldParts.bounds[p]) }
    var table = Table(capacityFor: largest, empty: ())
    let empty = Table.Slot(tag: 0, key: -1, payload: ())
    var hits = 0
    table.slots.withUnsafeMutableBufferPointer { allSlots in
        oldParts.entries.withUnsafeBufferPointer { olds in
            newParts.entries.withUnsafeBufferPointer { news in
                for p in 0..<oldParts.partitionCount {
                    let oldRange = oldParts.bounds[p]..<oldParts.bounds[p + 1]
                    let newRange = newParts.bounds[p]..<newParts.bounds[p + 1]
                    if oldRange.isEmpty || newRange.isEmpty { continue }
                    var capacity = 16
                    while capacity < oldRange.count &* 2 { capacity &<<= 1 }
                    let slots = UnsafeMutableBufferPointer(rebasing: allSlots[0..<capacity])
                    slots.initialize(repeating: empty)
                    for i in oldRange {
                        let code = olds[i].code
                        let (s, found) = Table.find(slots, mask: capacity &- 1, hash: Int(code), tag: code) { _ in true }
                        if !found { slots[s] = .init(tag: code, key: olds[i].index, payload: ()) }
                    }
                    for j in newRange {
                        let code = news[j].code
                        if Table.find(slots, mask: capacity &- 1, hash: Int(code), tag: code, matches: { _ in true }).found { hits &+= 1 }
                    }
                }
            }
        }
    }
    return hits
}

/// The copy floor: `old` copied into a new array (every element copied, a reference counted one
/// retained) and the copy released, as a staged changeset's reload stage copies a section for
/// its data. `new` is not read. Returns the copy's count.
///
/// - Complexity: O(n).
@inline(never)
@usableFromInline package func copyFloor<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int {
    var copy = old
    // Writing through the buffer makes the shared storage unique: the copy is made here.
    return copy.withUnsafeMutableBufferPointer { $0.count }
}

/// The trim floor: the least work a diff that first sets aside the lists' common ends does. It
/// compares identifiers in list order from the front and then from the back until they differ,
/// judges each such pair's content (as any diff must), and runs the cheaper floor for the
/// engines' rule on what lies between: the partitioned floor from
/// ``HashMapEngine/Partitioning/measured``'s threshold, the hash floor below it, nothing when
/// either middle is empty. It writes no output. Returns the trimmed pairs updated plus the
/// middle's hits.
///
/// - Complexity: O(n + m).
@inline(never)
@usableFromInline package func trimFloor<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int {
    old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
            let n = old.count
            let m = new.count
            let shorter = min(n, m)
            var hits = 0
            var p = 0
            while p < shorter && old[p].diffIdentifier == new[p].diffIdentifier {
                if new[p]._isUpdated(from: old[p], comparison: .equality) { hits &+= 1 }
                p &+= 1
            }
            var s = 0
            while s < shorter &- p && old[n &- 1 &- s].diffIdentifier == new[m &- 1 &- s].diffIdentifier {
                if new[m &- 1 &- s]._isUpdated(from: old[n &- 1 &- s], comparison: .equality) { hits &+= 1 }
                s &+= 1
            }
            let oldMiddle = UnsafeBufferPointer(rebasing: old[p..<(n &- s)])
            let newMiddle = UnsafeBufferPointer(rebasing: new[p..<(m &- s)])
            if oldMiddle.isEmpty || newMiddle.isEmpty { return hits }
            if oldMiddle.count >= HashMapEngine.Partitioning.measured.threshold {
                return hits &+ _partitionedFloor(oldMiddle, newMiddle)
            }
            return hits &+ _hashFloor(oldMiddle, newMiddle)
        }
    }
}

/// The versions the repeated mode diffs in turn for a cell: its own lists, then the datasets of
/// the same profile, kind and size from the next seeds (one more below 5,000,000 items, where
/// three versions of the largest lists would crowd memory; two more below that).
///
/// - Complexity: O(size) per extra version.
package func repeatedVersions(_ lists: BenchLists, profile: DatasetProfile, kind: ElementKind, size: Int, seed: UInt64) -> [BenchLists] {
    let extra = size >= 5_000_000 ? 1 : 2
    return [lists] + (1...extra).map { BenchLists(AbstractDataset(profile, size: size, seed: seed &+ UInt64($0)), kind: kind) }
}

/// `hashmap`'s diff phase by phase on `lists`: for each move strategy and each thread count
/// (`hashmap` on 1, ``HashMapEngine/parallel(threads:)`` on more), one untimed warm-up and
/// `calls` timed diffs (``HashMapEngine/timedDiff(from:to:comparison:moves:)``), and each
/// phase's median. The strategies differ only in the `derive` phase: ``MoveStrategy/minimal``
/// finds a longest increasing run there.
///
/// - Complexity: (`calls` + 1) diffs and batch forms per strategy and thread count.
public func measurePhases(_ lists: BenchLists, threads: [Int], calls: Int, moves: [MoveStrategy] = [.offsets]) -> [BenchPhases] {
    moves.flatMap { strategy in
        threads.map { t in
            let engine = t == 1 ? HashMapEngine() : HashMapEngine.parallel(threads: t)
            let runs: [HashMapEngine.PhaseTimes] =
                switch lists {
                case .ints(let old, let new): _timedDiffs(engine, old, new, .equality, strategy, calls: calls)
                case .models(let old, let new): _timedDiffs(engine, old, new, .equality, strategy, calls: calls)
                case .objects(let old, let new): _timedDiffs(engine, old, new, .identity, strategy, calls: calls)
                }
            let medians = HashMapEngine.Phase.allCases.map { phase in median(runs.map { $0[phase] }) ?? 0 }
            return BenchPhases(threads: engine.threads, moves: strategy, calls: runs.count, seconds: medians)
        }
    }
}

/// A warm-up diff, then `calls` timed ones (at least 1).
func _timedDiffs<Element: Diffable>(
    _ engine: HashMapEngine, _ old: [Element], _ new: [Element], _ comparison: ComparisonOption, _ moves: MoveStrategy, calls: Int
) -> [HashMapEngine.PhaseTimes] {
    blackHole(engine.timedDiff(from: old, to: new, comparison: comparison, moves: moves).result.changeCount)
    return (0..<max(1, calls)).map { _ in
        let timed = engine.timedDiff(from: old, to: new, comparison: comparison, moves: moves)
        blackHole(timed.batch.changeCount)
        return timed.phases
    }
}
