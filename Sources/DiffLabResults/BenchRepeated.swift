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
public struct BenchRepeated: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = BenchRepeated(
        threads: 1, versions: 1, calls: 1, oneOffSeconds: 0, reusedSeconds: 0, oneOffFaults: 0, reusedFaults: 0, oneOffAllocations: nil,
        reusedAllocations: nil, retainedBytes: 0)

    /// The declaration table (allocation counts only under jemalloc).
    @_spi(Records) public static let fields: [RecordField<BenchRepeated>] = [
        .required("threads", \.threads, .int(.threads), "threads the engine used"),
        .required("versions", \.versions, .int(.callsPerSample), "list versions diffed in a row"),
        .required("calls", \.calls, .int(.callsPerSample), "timed rounds the medians are taken over"),
        .required("oneOffSeconds", \.oneOffSeconds, .seconds, "median seconds per diff, one-off calls"),
        .required("reusedSeconds", \.reusedSeconds, .seconds, "median seconds per diff, one reused workspace"),
        .required("oneOffFaults", \.oneOffFaults, .int(.count), "minor page faults per diff, one-off calls"),
        .required("reusedFaults", \.reusedFaults, .int(.count), "minor page faults per diff, reused workspace"),
        .optional("oneOffAllocations", \.oneOffAllocations, .int(.count), "allocations per diff, one-off calls (jemalloc)"),
        .optional("reusedAllocations", \.reusedAllocations, .int(.count), "allocations per diff, reused workspace (jemalloc)"),
        .required("retainedBytes", \.retainedBytes, .int(.count), "bytes the workspace keeps between calls"),
    ]
}
