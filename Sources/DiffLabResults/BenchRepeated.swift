import DiffLabJSON

/// `hashmap` diffing one version after another through one reused workspace
/// (`HashMapEngine.Workspace`), against one-off calls on the same versions, interleaved in one
/// run: an element of a measurement's `repeated` array in a `difflab-bench/1` file.
///
/// Each figure is a median over ``calls`` calls of each kind, taken after every version has been
/// diffed once both ways (the steady state an app that re-diffs its feed reaches). Time is
/// wall-clock per call; page faults are the process's minor faults during a call (`getrusage`);
/// allocations are allocation requests during a call, counted by jemalloc (`nil` under another
/// allocator: the count is the code's, the same under any allocator, but only jemalloc reports it),
/// less the few requests reading the counters itself makes (measured on empty calls).
public struct BenchRepeated: Sendable, Equatable {
    /// The member names, each written once.
    enum Key: String {
        case threads, versions, calls, oneOffSeconds, reusedSeconds, oneOffFaults, reusedFaults
        case oneOffAllocations, reusedAllocations, retainedBytes
    }

    /// Threads the engine used (1 to 64).
    public var threads: Int
    /// Versions diffed in turn (each a dataset of the cell's profile and size, from consecutive
    /// seeds), in ``FieldRange/callsPerSample``.
    public var versions: Int
    /// Calls of each kind the medians are taken over, in ``FieldRange/callsPerSample``.
    public var calls: Int
    /// Median seconds of a one-off call (a fresh `engine.diff`), in ``FieldRange/seconds``.
    public var oneOffSeconds: Double
    /// Median seconds of a call through the workspace, in ``FieldRange/seconds``.
    public var reusedSeconds: Double
    /// Median minor page faults of a one-off call, in ``FieldRange/count``.
    public var oneOffFaults: Int
    /// Median minor page faults of a call through the workspace, in ``FieldRange/count``.
    public var reusedFaults: Int
    /// Median allocation requests of a one-off call (jemalloc only), in ``FieldRange/count``.
    public var oneOffAllocations: Int?
    /// Median allocation requests of a call through the workspace (jemalloc only), in ``FieldRange/count``.
    public var reusedAllocations: Int?
    /// Bytes of buffers the workspace held after the calls, in ``FieldRange/count``.
    public var retainedBytes: Int

    /// A measurement of the repeated mode.
    public init(
        threads: Int, versions: Int, calls: Int, oneOffSeconds: Double, reusedSeconds: Double, oneOffFaults: Int,
        reusedFaults: Int, oneOffAllocations: Int?, reusedAllocations: Int?, retainedBytes: Int
    ) {
        self.threads = threads
        self.versions = versions
        self.calls = calls
        self.oneOffSeconds = oneOffSeconds
        self.reusedSeconds = reusedSeconds
        self.oneOffFaults = oneOffFaults
        self.reusedFaults = reusedFaults
        self.oneOffAllocations = oneOffAllocations
        self.reusedAllocations = reusedAllocations
        self.retainedBytes = retainedBytes
    }

    /// A reused call's time over a one-off call's, or `nil` when the one-off took no time.
    public var ratio: Double? { oneOffSeconds > 0 ? reusedSeconds / oneOffSeconds : nil }

    /// The object, one member per field (the allocation counts only when known). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.threads, threads)
        w.set(.versions, versions)
        w.set(.calls, calls)
        w.set(.oneOffSeconds, oneOffSeconds)
        w.set(.reusedSeconds, reusedSeconds)
        w.set(.oneOffFaults, oneOffFaults)
        w.set(.reusedFaults, reusedFaults)
        if let oneOffAllocations { w.set(.oneOffAllocations, oneOffAllocations) }
        if let reusedAllocations { w.set(.reusedAllocations, reusedAllocations) }
        w.set(.retainedBytes, retainedBytes)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            threads: try row.requiredInt(.threads, in: .threads),
            versions: try row.requiredInt(.versions, in: .callsPerSample),
            calls: try row.requiredInt(.calls, in: .callsPerSample),
            oneOffSeconds: try row.requiredDouble(.oneOffSeconds, in: .seconds),
            reusedSeconds: try row.requiredDouble(.reusedSeconds, in: .seconds),
            oneOffFaults: try row.requiredInt(.oneOffFaults, in: .count),
            reusedFaults: try row.requiredInt(.reusedFaults, in: .count),
            oneOffAllocations: try row.optionalInt(.oneOffAllocations, in: .count),
            reusedAllocations: try row.optionalInt(.reusedAllocations, in: .count),
            retainedBytes: try row.requiredInt(.retainedBytes, in: .count))
    }
}
