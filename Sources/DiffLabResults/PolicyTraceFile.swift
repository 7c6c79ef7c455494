import DiffLabCore

// The members a `difflab-policy/2` file has when its workload is a recorded trace
// (`difflab policy --trace`): how the trace's times became the simulated requests, and the measured
// cost of every pair of versions the simulation diffed. The trace itself (file and provenance) is a
// ``TraceWorkload``, as in a trace bench file.

/// How a policy run on a recorded trace timed its requests: the `traceStream` member of a
/// `difflab-policy/2` file.
///
/// The trace's version 0 is on screen when the run starts; each later version is one request. The
/// first request arrives at 0 s, each next one after the gap between the two versions' times
/// (`recorded`: multiplied by ``timeScale``; `medianInterval`: scaled so that the median gap is
/// the one asked for, ``timeScale`` being the factor that took; `interval`: every ``interval``
/// seconds, the recorded times ignored or absent), a gap longer than ``maxGap`` shortened to it.
public struct PolicyTraceStreamRecord: ResultsRecord, Equatable {
    /// Where the request times came from.
    public enum Timing: String, Sendable, CaseIterable {
        /// The recorded gaps, multiplied by ``PolicyTraceStreamRecord/timeScale``.
        case recorded
        /// The recorded gaps, scaled so that their median is the interval asked for.
        case medianInterval
        /// One request every ``PolicyTraceStreamRecord/interval`` seconds.
        case interval
    }

    /// Where the request times came from.
    public var timing: Timing
    /// `recorded` and `medianInterval`: the factor the recorded gaps were multiplied by, in
    /// ``FieldRange/ratio``.
    public var timeScale: Double?
    /// `interval`: seconds between requests, in ``FieldRange/seconds``.
    public var interval: Double?
    /// Gaps longer than this many seconds were shortened to it, in ``FieldRange/seconds``.
    public var maxGap: Double
    /// Requests simulated (the trace's versions but the first), in ``FieldRange/count``.
    public var requests: Int
    /// Gaps that were shortened to ``maxGap``, in ``FieldRange/count``.
    public var shortenedGaps: Int
    /// The median gap between two requests as simulated (after scaling and shortening), seconds,
    /// in ``FieldRange/seconds``; 0 for a single request.
    public var medianGap: Double
    /// When the last request arrives: the stream's length, in ``FieldRange/runSeconds``.
    public var seconds: Double

    /// A stream record; see the properties.
    public init(
        timing: Timing, timeScale: Double? = nil, interval: Double? = nil, maxGap: Double, requests: Int, shortenedGaps: Int, medianGap: Double,
        seconds: Double
    ) {
        self.timing = timing
        self.timeScale = timeScale
        self.interval = interval
        self.maxGap = maxGap
        self.requests = requests
        self.shortenedGaps = shortenedGaps
        self.medianGap = medianGap
        self.seconds = seconds
    }

    @_spi(Records) public static let blank = PolicyTraceStreamRecord(
        timing: .recorded, maxGap: 0, requests: 0, shortenedGaps: 0, medianGap: 0, seconds: 0)

    /// The declaration table (absent members omitted).
    @_spi(Records) public static let fields: [RecordField<PolicyTraceStreamRecord>] = [
        .required("timing", \.timing, .cases(), "where the request times came from"),
        .optional("timeScale", \.timeScale, .ratio, "recorded and medianInterval: the factor the gaps were multiplied by"),
        .optional("interval", \.interval, .seconds, "interval: seconds between requests"),
        .required("maxGap", \.maxGap, .seconds, "longer gaps were shortened to this many seconds"),
        .required("requests", \.requests, .int(.count), "requests simulated"),
        .required("shortenedGaps", \.shortenedGaps, .int(.count), "gaps shortened to maxGap"),
        .required("medianGap", \.medianGap, .seconds, "the median gap between two requests as simulated"),
        .required("seconds", \.seconds, .double(.runSeconds), "when the last request arrives"),
    ]
}

/// The measured cost of diffing one pair of a trace's versions with one engine and move strategy:
/// an element of the `tracePairs` member of a `difflab-policy/2` file.
public struct PolicyTracePairRow: ResultsRecord, Equatable {
    /// The engine.
    public var engine: String
    /// The move strategy.
    public var moves: MoveStrategy
    /// The version diffed from (0 is the trace's first), in ``FieldRange/count``.
    public var from: Int
    /// The version diffed to, after ``from``, in ``FieldRange/count``.
    public var to: Int
    /// Changes of the diff (inserts, deletes, updates, moves: what IGListKit's fallback counts),
    /// in ``FieldRange/count``.
    public var changes: Int
    /// Changes of its batch form (inserts, deletes, moves: what applying costs), in
    /// ``FieldRange/count``.
    public var batchChanges: Int
    /// Seconds of one diff, one per measuring round (each the median of the round's calls), in
    /// ``FieldRange/seconds``.
    public var seconds: [Double]

    /// A pair row; see the properties.
    public init(engine: String, moves: MoveStrategy, from: Int, to: Int, changes: Int, batchChanges: Int, seconds: [Double]) {
        self.engine = engine
        self.moves = moves
        self.from = from
        self.to = to
        self.changes = changes
        self.batchChanges = batchChanges
        self.seconds = seconds
    }

    @_spi(Records) public static let blank = PolicyTracePairRow(engine: "", moves: .offsets, from: 0, to: 1, changes: 0, batchChanges: 0, seconds: [])

    /// The declaration table (`seconds` always written).
    @_spi(Records) public static let fields: [RecordField<PolicyTracePairRow>] = [
        .required("engine", \.engine, .string, "the engine"),
        .required("moves", \.moves, .cases(), "the move strategy"),
        .required("from", \.from, .int(.count), "the version diffed from (0: the trace's first)"),
        .required("to", \.to, .int(.count), "the version diffed to, after from"),
        .required("changes", \.changes, .int(.count), "changes of the diff (what the reload fallback counts)"),
        .required("batchChanges", \.batchChanges, .int(.count), "changes of its batch form (what applying costs)"),
        .list("seconds", \.seconds, .seconds, written: .always, "seconds of one diff, one per measuring round"),
    ]

    /// Refuses a pair whose `to` is not after `from`.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        guard from < to else {
            throw .invalid(source: position.source, field: position.member("to").named, expected: "a version after from (\(from))")
        }
    }
}
