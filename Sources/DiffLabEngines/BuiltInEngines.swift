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
/// sets it belongs to. Every list of built-in engines (the command line's registry, the fuzzer's
/// and the benchmark's defaults, the tests') is read from it.
///
/// | name                  | engine                                | growth       | uses                  |
/// |-----------------------|---------------------------------------|--------------|-----------------------|
/// | `heckel`              | ``HeckelEngine``                      | near-linear  | fuzzed, benchmarked   |
/// | `hashmap`             | ``HashMapEngine``                     | near-linear  | fuzzed, benchmarked   |
/// | `hashmap-parallel`    | ``HashMapEngine/parallel(threads:)``  | near-linear  | benchmarked           |
/// | `hashmap-partitioned` | ``HashMapEngine/partitionedEverywhere`` | near-linear | fuzzed               |
/// | `hashmap-untrimmed`   | ``HashMapEngine/untrimmed``           | near-linear  | by name only          |
/// | `hashmap-reused`      | ``HashMapEngine/reusedEverywhere``    | near-linear  | fuzzed                |
/// | `myers`               | ``MyersEngine``                       | quadratic    | fuzzed, benchmarked   |
/// | `stdlib`              | ``StdlibEngine``                      | quadratic    | fuzzed, benchmarked   |
///
/// `hashmap-parallel` is not fuzzed by default: below 262,144 old elements (every list a fuzzer
/// generates) it runs exactly `hashmap`'s code. `hashmap-partitioned` is not benchmarked by
/// default: it partitions every list on purpose to put that path under the fuzzer, and is slow.
/// Both stay selectable by name everywhere. `hashmap-untrimmed` (`hashmap` without its common-ends
/// fast path) is in no default set: it is there to be measured beside `hashmap` by name
/// (`difflab bench --engines hashmap,hashmap-untrimmed`), so what the fast path buys or costs on
/// each profile is a side-by-side figure. `hashmap-reused` is `hashmap-partitioned` through one
/// shared ``HashMapEngine/Workspace``: it puts the reuse of buffers under the fuzzer, and is slow
/// (generic, behind a lock), so it is not benchmarked.
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
        /// Both.
        public static let all: Uses = [.fuzzed, .benchmarked]
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

    /// Calls `visitor` with each built-in engine, in the table's order: `heckel`, `hashmap`,
    /// `hashmap-parallel`, `hashmap-partitioned`, `hashmap-untrimmed`, `hashmap-reused`, `myers`, `stdlib`.
    ///
    /// - Complexity: O(1) per engine (making `hashmap-parallel` asks how many cores the process
    ///   may use), plus what the visitor does.
    @inlinable
    public static func visitAll<Visitor: BuiltInEngineVisitor>(_ visitor: inout Visitor) {
        visitor.visit(HeckelEngine(), growth: .nearLinear, uses: .all)
        visitor.visit(HashMapEngine(), growth: .nearLinear, uses: .all)
        visitor.visit(HashMapEngine.parallel(), growth: .nearLinear, uses: .benchmarked)
        visitor.visit(HashMapEngine.partitionedEverywhere, growth: .nearLinear, uses: .fuzzed)
        visitor.visit(HashMapEngine.untrimmed, growth: .nearLinear, uses: [])
        visitor.visit(HashMapEngine.reusedEverywhere, growth: .nearLinear, uses: .fuzzed)
        visitor.visit(MyersEngine(), growth: .quadratic, uses: .all)
        visitor.visit(StdlibEngine(), growth: .quadratic, uses: .all)
    }

    /// The table's rows, in order.
    ///
    /// - Complexity: O(engines).
    public static var entries: [Entry] {
        var collector = _EntryCollector()
        visitAll(&collector)
        return collector.entries
    }
}

/// Collects ``BuiltInEngines/entries``.
private struct _EntryCollector: BuiltInEngineVisitor {
    var entries: [BuiltInEngines.Entry] = []

    mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
        entries.append(BuiltInEngines.Entry(name: engine.name, growth: growth, uses: uses))
    }
}
