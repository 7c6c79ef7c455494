import DiffLabCore
import DiffLabEngines

#if canImport(Glibc)
import Glibc
#endif

/// What a benchmark run measures.
public struct BenchOptions: Sendable {
    /// Engines to measure (the `stdlib` reference and the hash floor are always measured too).
    public var engines: [EngineKind]
    /// Dataset profiles.
    public var profiles: [DatasetProfile]
    /// List sizes, ascending.
    public var sizes: [Int]
    /// Element kinds.
    public var kinds: [ElementKind]
    /// Seconds of samples per measurement.
    public var budget: Double
    /// A measurement whose single call is projected (from the previous size) to take longer than
    /// this many seconds is skipped, with the reason recorded.
    public var maxCallSeconds: Double
    /// Seed of the datasets.
    public var seed: UInt64
    /// Most samples per measurement.
    public var maxSamples: Int
    /// Fewest samples per measurement.
    public var minSamples = 5
    /// When set, sizes above 10,000 are measured only for these profiles (quick runs).
    public var largeSizeProfiles: [DatasetProfile]?

    /// Options; see ``quick`` and ``full``.
    public init(
        engines: [EngineKind] = EngineKind.allCases, profiles: [DatasetProfile] = DatasetProfile.allCases,
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
    }

    /// A few minutes: every profile at 1k and 10k, `differencekit` also at 100k (where the stdlib
    /// reference takes a few seconds a call), int elements.
    public static let quick: BenchOptions = {
        var options = BenchOptions(sizes: [1_000, 10_000, 100_000], budget: 0.15, maxCallSeconds: 6, maxSamples: 60)
        options.largeSizeProfiles = [.differencekit]
        options.minSamples = 3
        return options
    }()

    /// Every profile at 1k → 1M; model and object elements on `differencekit` and `small-edit`.
    public static let full = BenchOptions(kinds: [.int, .model, .object], budget: 1.0, maxCallSeconds: 12)

    /// Whether `profile` × `kind` × `size` is in the matrix: model and object elements run on
    /// `differencekit` and `small-edit` only; see ``largeSizeProfiles``.
    public func includes(_ profile: DatasetProfile, _ kind: ElementKind, _ size: Int) -> Bool {
        if kind != .int && profile != .differencekit && profile != .smallEdit { return false }
        if size > 10_000, let large = largeSizeProfiles, !large.contains(profile) { return false }
        return true
    }
}

/// What was measured: an engine (or `stdlib` reference, or the `hash-floor`) on one dataset.
public struct BenchRecord: Sendable {
    /// `heckel`, `hashmap`, `myers`, `stdlib` or `hash-floor`.
    public var engine: String
    public var profile: DatasetProfile
    public var size: Int
    public var kind: ElementKind
    /// `system` or `jemalloc`.
    public var allocator: String
    /// The measurement, or `nil` when skipped.
    public var measurement: Measurement?
    /// Why it was skipped.
    public var skipped: String?
    /// Changes reported (offsets moves), and moves under each strategy, from one extra call.
    public var changeCount: Int?
    public var offsetsMoves: Int?
    public var minimalMoves: Int?
}

/// The name of the floor measurement.
public let hashFloorName = "hash-floor"

/// Runs the benchmark matrix in this process (under whichever allocator it runs on).
///
/// For every element kind, profile and size the dataset is generated once; then the hash floor,
/// the `stdlib` reference and every engine are measured side by side on it.
///
/// - Parameter progress: called after each measurement with (done, total, label).
public func runBench(
    _ options: BenchOptions, allocator: String, progress: (Int, Int, String) -> Void = { _, _, _ in }
) -> [BenchRecord] {
    var subjects = [hashFloorName] + options.engines.map(\.rawValue)
    if !subjects.contains("stdlib") { subjects.append("stdlib") }
    var cells: [(ElementKind, DatasetProfile, Int)] = []
    for kind in options.kinds {
        for profile in options.profiles {
            for size in options.sizes where options.includes(profile, kind, size) { cells.append((kind, profile, size)) }
        }
    }
    let total = cells.count * subjects.count
    var done = 0
    var records: [BenchRecord] = []
    for (kind, profile, size) in cells {
        let dataset = AbstractDataset(profile, size: size, seed: options.seed)
        for subject in subjects {
            // Project this call's time from the previous size; skip what would run too long.
            let previous = records.last { $0.engine == subject && $0.profile == profile && $0.kind == kind && $0.measurement != nil }
            var skipped: String?
            if let previous, let median = previous.measurement?.statistics.median {
                let exponent = subject == "myers" || subject == "stdlib" ? 2.0 : 1.2
                let projected = median * pow(Double(size) / Double(previous.size), exponent)
                if projected > options.maxCallSeconds {
                    skipped = "projected \(Int(projected.rounded())) s per call from \(previous.size) items (limit \(Int(options.maxCallSeconds)) s)"
                }
            } else if let earlier = records.last(where: { $0.engine == subject && $0.profile == profile && $0.kind == kind }),
                earlier.skipped != nil
            {
                skipped = earlier.skipped
            }
            var record = BenchRecord(engine: subject, profile: profile, size: size, kind: kind, allocator: allocator)
            if let skipped {
                record.skipped = skipped
            } else {
                switch kind {
                case .int:
                    let lists = dataset.ints()
                    fill(&record, subject, lists.old, lists.new, .equality, options)
                case .model:
                    let lists = dataset.models()
                    fill(&record, subject, lists.old, lists.new, .equality, options)
                case .object:
                    let lists = dataset.objects()
                    fill(&record, subject, lists.old, lists.new, .identity, options)
                }
            }
            records.append(record)
            done += 1
            progress(done, total, "\(subject) \(profile.rawValue) \(kind.rawValue) \(size)")
        }
    }
    return records
}

private func fill<Element: Diffable>(
    _ record: inout BenchRecord, _ subject: String, _ old: [Element], _ new: [Element], _ comparison: ComparisonOption,
    _ options: BenchOptions
) {
    let call = benchCall(subject, old, new, comparison)
    record.measurement = measure(budget: options.budget, minSamples: options.minSamples, maxSamples: options.maxSamples, call)
    guard let engine = EngineKind(rawValue: subject) else { return }
    // Move counts per strategy from one matching (not timed).
    let matching = engine.matching(from: old, to: new, comparison: comparison)
    let offsets = DiffResult(matching: matching, moves: .offsets)
    record.changeCount = offsets.changeCount
    record.offsetsMoves = offsets.moves.count
    record.minimalMoves = DiffResult(matching: matching, moves: .minimal).moves.count
}

/// The hash floor: the least work any hashing diff does — build one open-addressing table over the
/// old identifiers and probe it with the new ones (each hashed once). Returns the hits.
///
/// - Complexity: O(n + m).
@inline(never)
public func hashFloor<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int {
    var capacity = 16
    while capacity < old.count * 2 { capacity <<= 1 }
    let mask = capacity - 1
    var slots = [Int32](repeating: -1, count: capacity)
    var hits = 0
    old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
            slots.withUnsafeMutableBufferPointer { slots in
                for o in 0..<old.count {
                    let id = old[o].diffIdentifier
                    var s = id.hashValue & mask
                    while slots[s] >= 0 {
                        if old[Int(slots[s])].diffIdentifier == id { break }
                        s = (s + 1) & mask
                    }
                    if slots[s] < 0 { slots[s] = Int32(o) }
                }
                for n in 0..<new.count {
                    let id = new[n].diffIdentifier
                    var s = id.hashValue & mask
                    while slots[s] >= 0 {
                        if old[Int(slots[s])].diffIdentifier == id {
                            hits += 1
                            break
                        }
                        s = (s + 1) & mask
                    }
                }
            }
        }
    }
    return hits
}
