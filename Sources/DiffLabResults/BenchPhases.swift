import DiffLabJSON

/// `hashmap`'s diff phase by phase in one bench cell, on some number of threads: the median
/// seconds of each phase over ``calls`` timed diffs (`HashMapEngine.timedDiff`), an element of a
/// measurement's `phases` array in a `difflab-bench/1` file.
public struct BenchPhases: Sendable, Equatable {
    /// The member names, each written once; the phases' are ``phaseNames``.
    enum Key: String {
        case threads, calls, trim, partition, join, verify, assemble, derive, batch
    }

    /// The phases in the order they run: `trim`, `partition`, `join`, `verify`, `assemble`,
    /// `derive`, `batch` (`HashMapEngine.Phase`'s cases, which a test keeps equal).
    public static let phaseNames = ["trim", "partition", "join", "verify", "assemble", "derive", "batch"]

    /// Threads the engine used (1 to 64).
    public var threads: Int
    /// Timed diffs the medians are taken over, in ``FieldRange/callsPerSample``.
    public var calls: Int
    /// The median seconds of each phase, in ``phaseNames`` order, each in ``FieldRange/seconds``.
    public var seconds: [Double]

    /// Phases measured on `threads` threads over `calls` diffs.
    ///
    /// - Precondition: `seconds` has one value per phase name.
    public init(threads: Int, calls: Int, seconds: [Double]) {
        precondition(seconds.count == Self.phaseNames.count, "BenchPhases: one value per phase")
        self.threads = threads
        self.calls = calls
        self.seconds = seconds
    }

    /// The median seconds of the phase named `name`, or `nil` for a name that is not a phase.
    public subscript(name: String) -> Double? { Self.phaseNames.firstIndex(of: name).map { seconds[$0] } }

    /// The sum of the phases' medians.
    public var total: Double { seconds.reduce(0, +) }

    /// The object: `threads`, `calls`, then one member per phase. O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.threads, threads)
        w.set(.calls, calls)
        for (name, value) in zip(Self.phaseNames, seconds) { w.set(Key(rawValue: name)!, value) }
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        let threads = try row.requiredInt(.threads, in: .threads)
        let calls = try row.requiredInt(.calls, in: .callsPerSample)
        var seconds: [Double] = []
        for name in Self.phaseNames { seconds.append(try row.requiredDouble(Key(rawValue: name)!, in: .seconds)) }
        self.init(threads: threads, calls: calls, seconds: seconds)
    }
}
