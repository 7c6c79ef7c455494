import DiffLabCore

/// How an engine's call time grows with the list size, as the benchmark projects it between
/// sizes (time ∝ size^``exponent``) to skip a size that would exceed its per-call limit.
public enum EngineGrowth: Sendable, Hashable, CaseIterable {
    /// Near-linear: hashing engines (exponent 1.2, a margin above linear for cache effects).
    case nearLinear
    /// Quadratic on heavy edits: LCS-based engines, and the safe assumption for an engine DiffLab
    /// does not know (exponent 2).
    case quadratic

    /// The projection exponent: 1.2 for ``nearLinear``, 2 for ``quadratic``.
    ///
    /// - Complexity: O(1).
    public var exponent: Double {
        switch self {
        case .nearLinear: 1.2
        case .quadratic: 2
        }
    }
}

/// What one consumer does with each built-in engine: build its own typed wrapper (a fuzz subject,
/// a benchmark subject, a registry entry) from the engine's concrete type.
///
/// ``BuiltInEngines/visitAll(_:)`` calls ``visit(_:growth:uses:)`` once per engine, generic over
/// the engine's type, so the wrapper a visitor builds is specialized for it: no existential
/// reaches a timed or fuzzed call.
public protocol BuiltInEngineVisitor {
    /// Called once for each built-in engine, in the table's order.
    ///
    /// - Parameters:
    ///   - engine: the engine, by its concrete type.
    ///   - growth: how its call time grows with the size.
    ///   - uses: the default sets it belongs to; a consumer skips an engine whose ``BuiltInEngines/Uses``
    ///     leave out its own (and says why in its documentation).
    mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses)
}

/// The one table of the engines DiffLab ships, each once, with its growth class and the default
/// sets it belongs to. Every list of built-in engines (the command line's registry, the fuzzer's,
/// the benchmark's, the gate's and the arena's defaults, the tests') is read from it, and every
/// module names an engine by ``Name``.
///
/// | name                  | engine                                  | growth      | uses                                 |
/// |-----------------------|-----------------------------------------|-------------|--------------------------------------|
/// | `heckel`              | ``HeckelEngine``                        | near-linear | fuzzed, benchmarked, gated, contested |
/// | `hashmap`             | ``HashMapEngine``                       | near-linear | fuzzed, benchmarked, gated, contested |
/// | `hashmap-parallel`    | ``HashMapEngine/parallel(threads:)``    | near-linear | benchmarked                          |
/// | `hashmap-partitioned` | ``HashMapEngine/partitionedEverywhere`` | near-linear | fuzzed                               |
/// | `hashmap-untrimmed`   | ``HashMapEngine/untrimmed``             | near-linear | by name only                         |
/// | `hashmap-reused`      | ``HashMapEngine/reusedEverywhere``      | near-linear | fuzzed                               |
/// | `myers`               | ``MyersEngine``                         | quadratic   | fuzzed, benchmarked, gated, contested |
/// | `stdlib`              | ``StdlibEngine``                        | quadratic   | fuzzed, benchmarked, contested       |
///
/// (`BuiltInEnginesTests` holds this table to ``entries``.)
///
/// `hashmap-parallel` is not fuzzed by default: below 262,144 old elements (every list a fuzzer
/// generates) it runs exactly `hashmap`'s code. `hashmap-partitioned` is not benchmarked by
/// default: it partitions every list on purpose to put that path under the fuzzer, and is slow.
/// Both stay selectable by name everywhere. `hashmap-untrimmed` (`hashmap` without its fast paths
/// in list order: the common ends and the walk) is in no default set: it is there to be measured beside `hashmap` by name
/// (`difflab bench --engines hashmap,hashmap-untrimmed`), so what the fast path buys or costs on
/// each profile is a side-by-side figure. `hashmap-reused` is `hashmap-partitioned` through one
/// shared ``HashMapEngine/Workspace``: it puts the reuse of buffers under the fuzzer, and is slow
/// (generic, behind a lock), so it is not benchmarked. The gate measures the three engines with an
/// algorithm of their own that DiffLab maintains (``Uses/gated``); the arena adds the `stdlib`
/// reference to them (``Uses/contested``).
public enum BuiltInEngines {
    /// The default sets an engine belongs to.
    public struct Uses: OptionSet, Sendable, Hashable {
        /// The uses' bits, one per default set.
        public let rawValue: Int

        /// Uses from their raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// In the fuzzer's default subjects (`FuzzSubject.builtIns`).
        public static let fuzzed = Uses(rawValue: 1 << 0)
        /// In the benchmark's default subjects (`BenchSubject.builtIns`).
        public static let benchmarked = Uses(rawValue: 1 << 1)
        /// In the regression gate's default matrix (`difflab gate` without `--engines`, in a
        /// program that registers no engine of its own).
        public static let gated = Uses(rawValue: 1 << 2)
        /// Among the arena's default contestants from DiffLab (`difflab arena` without `--engines`).
        public static let contested = Uses(rawValue: 1 << 3)
        /// Its staged form (`<engine>-staged`: `StagedChangeset` on one section, paired by the
        /// engine) is in the benchmark's default subjects and the regression gate's default
        /// matrix: `hashmap`'s, the staged changeset's default engine.
        public static let staged = Uses(rawValue: 1 << 4)
        /// Every default set of the flat engine: fuzzed, benchmarked, gated and contested (not
        /// ``staged``).
        public static let all: Uses = [.fuzzed, .benchmarked, .gated, .contested]
    }

    /// One row of the table, without the engine: what a consumer needs to know without
    /// specializing anything.
    public struct Entry: Sendable, Hashable {
        /// The engine's name (``DiffEngine/name``).
        public let name: String
        /// Its growth class.
        public let growth: EngineGrowth
        /// The default sets it belongs to.
        public let uses: Uses
    }

    /// Calls `visitor` with each built-in engine, in the table's order (``entries``).
    ///
    /// - Complexity: O(1) per engine (making `hashmap-parallel` asks how many cores the process
    ///   may use), plus what the visitor does.
    @inlinable
    public static func visitAll<Visitor: BuiltInEngineVisitor>(_ visitor: inout Visitor) {
        visitor.visit(HeckelEngine(), growth: .nearLinear, uses: .all)
        visitor.visit(HashMapEngine(), growth: .nearLinear, uses: [.all, .staged])
        visitor.visit(HashMapEngine.parallel(), growth: .nearLinear, uses: .benchmarked)
        visitor.visit(HashMapEngine.partitionedEverywhere, growth: .nearLinear, uses: .fuzzed)
        visitor.visit(HashMapEngine.untrimmed, growth: .nearLinear, uses: [])
        visitor.visit(HashMapEngine.reusedEverywhere, growth: .nearLinear, uses: .fuzzed)
        visitor.visit(MyersEngine(), growth: .quadratic, uses: .all)
        visitor.visit(StdlibEngine(), growth: .quadratic, uses: [.fuzzed, .benchmarked, .contested])
    }

    /// The table's rows, in order.
    ///
    /// - Complexity: O(engines).
    public static var entries: [Entry] {
        var collector = _EntryCollector()
        visitAll(&collector)
        return collector.entries
    }

    /// The names of the engines in every one of `uses`' default sets, in the table's order: for
    /// example `names(in: .gated)` is the gate's default engines, `heckel`, `hashmap`, `myers`.
    /// An empty `uses` gives every engine.
    ///
    /// - Complexity: O(engines).
    public static func names(in uses: Uses) -> [String] {
        entries.filter { $0.uses.isSuperset(of: uses) }.map(\.name)
    }
}

extension BuiltInEngines {
    /// The names DiffLab knows engines and the benchmark's references by, each written here once:
    /// the engines' own ``DiffEngine/name``, and every module that picks, styles or compares an
    /// engine by name, refers to these constants.
    public enum Name {
        /// ``HeckelEngine``.
        public static let heckel = "heckel"
        /// ``HashMapEngine``'s default engine.
        public static let hashmap = "hashmap"
        /// ``HashMapEngine/parallel(threads:)``.
        public static let hashmapParallel = "hashmap-parallel"
        /// ``HashMapEngine/partitionedEverywhere``.
        public static let hashmapPartitioned = "hashmap-partitioned"
        /// ``HashMapEngine/untrimmed``.
        public static let hashmapUntrimmed = "hashmap-untrimmed"
        /// ``HashMapEngine/reusedEverywhere``.
        public static let hashmapReused = "hashmap-reused"
        /// ``MyersEngine``.
        public static let myers = "myers"
        /// ``StdlibEngine``: also the benchmark's reference (``reference``).
        public static let stdlib = "stdlib"
        /// The benchmark's hash floor: one open-addressing table over the old identifiers, probed
        /// with the new ones (not an engine: a lower bound every run measures).
        public static let hashFloor = "hash-floor"
        /// The benchmark's partitioned floor: both lists hashed, radix-partitioned and joined
        /// partition by partition.
        public static let partitionedFloor = "partitioned-floor"
        /// The benchmark's trim floor: the common ends compared in place, then the hash floor of the
        /// rest.
        public static let trimFloor = "trim-floor"
        /// The benchmark's copy floor: one copy of the old list into a new array and its release,
        /// what a staged changeset's reload stage pays for its data (measured beside staged forms).
        public static let copyFloor = "copy-floor"

        /// What ``staged(_:)`` appends to an engine's name: `-staged`. Engine names may not end
        /// with it, so a staged subject's name never collides with an engine's.
        public static let stagedSuffix = "-staged"

        /// `<engine>-staged`: the benchmark subject that times `StagedChangeset` on one section
        /// with the pairing engine named `engine` (for example `hashmap-staged`).
        ///
        /// - Complexity: O(name's length).
        public static func staged(_ engine: String) -> String { engine + stagedSuffix }

        /// `hashmap-<threads>t`: the name of ``HashMapEngine`` on `threads` threads when it is given
        /// no name of its own; `hashmap` for one thread (or fewer).
        ///
        /// - Complexity: O(digits).
        public static func hashmap(threads: Int) -> String {
            threads <= 1 ? hashmap : "\(hashmap)-\(threads)t"
        }

        /// The threads the `hashmap` variant named `name` pairs on: 1 for `hashmap`, `cores`
        /// clamped to ``HashMapEngine/threadRange`` for `hashmap-parallel`, `t` for `hashmap-<t>t`
        /// (any `t` of at least 1, as a results file may name it); `nil` for every other name.
        ///
        /// - Complexity: O(name's length).
        public static func hashmapThreads(named name: String, cores: Int) -> Int? {
            if name == hashmap { return 1 }
            if name == hashmapParallel { return min(max(HashMapEngine.threadRange.lowerBound, cores), HashMapEngine.threadRange.upperBound) }
            let prefix = hashmap + "-"
            guard name.hasPrefix(prefix), name.hasSuffix("t") else { return nil }
            guard let threads = Int(name.dropFirst(prefix.count).dropLast()), threads >= 1 else { return nil }
            return threads
        }
    }

    /// The engine the benchmark's speed-ups divide by (`speedupOverStdlib`): `stdlib`.
    public static let reference = Name.stdlib

    /// The benchmark's floors: `hash-floor`, `partitioned-floor`, `trim-floor`, measured beside
    /// every engine and reported as ratios, and `copy-floor`, measured beside staged forms. None
    /// is an engine.
    public static let floors = [Name.hashFloor, Name.partitionedFloor, Name.trimFloor, Name.copyFloor]

    /// The engine the arena's speed ratios divide by when `--baselines` is not given (and it is a
    /// contestant): `hashmap`.
    public static let arenaBaseline = Name.hashmap
}

/// Collects ``BuiltInEngines/entries``.
private struct _EntryCollector: BuiltInEngineVisitor {
    var entries: [BuiltInEngines.Entry] = []

    mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
        entries.append(BuiltInEngines.Entry(name: engine.name, growth: growth, uses: uses))
    }
}
