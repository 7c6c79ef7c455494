import DiffLabJSON

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
public struct PolicyTraceStreamRecord: Sendable, Equatable {
    enum Key: String { case timing, timeScale, interval, maxGap, requests, shortenedGaps, medianGap, seconds }

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

    /// The object (absent members omitted). O(1).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.timing, timing.rawValue)
        w.set(.timeScale, timeScale)
        w.set(.interval, interval)
        w.set(.maxGap, maxGap)
        w.set(.requests, requests)
        w.set(.shortenedGaps, shortenedGaps)
        w.set(.medianGap, medianGap)
        w.set(.seconds, seconds)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        let text = try row.requiredString(.timing)
        guard let timing = Timing(rawValue: text) else {
            throw .invalid(source: row.source, field: row.path(.timing), expected: "one of recorded, medianInterval, interval")
        }
        self.init(
            timing: timing, timeScale: try row.optionalDouble(.timeScale, in: .ratio), interval: try row.optionalDouble(.interval, in: .seconds),
            maxGap: try row.requiredDouble(.maxGap, in: .seconds), requests: try row.requiredInt(.requests, in: .count),
            shortenedGaps: try row.requiredInt(.shortenedGaps, in: .count), medianGap: try row.requiredDouble(.medianGap, in: .seconds),
            seconds: try row.requiredDouble(.seconds, in: .runSeconds))
    }
}

/// The measured cost of diffing one pair of a trace's versions with one engine and move strategy:
/// an element of the `tracePairs` member of a `difflab-policy/2` file.
public struct PolicyTracePairRow: Sendable, Equatable {
    enum Key: String { case engine, moves, from, to, changes, batchChanges, seconds }

    /// The engine.
    public var engine: String
    /// The move strategy.
    public var moves: String
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
    public init(engine: String, moves: String, from: Int, to: Int, changes: Int, batchChanges: Int, seconds: [Double]) {
        self.engine = engine
        self.moves = moves
        self.from = from
        self.to = to
        self.changes = changes
        self.batchChanges = batchChanges
        self.seconds = seconds
    }

    /// The object. O(rounds).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.engine, engine)
        w.set(.moves, moves)
        w.set(.from, from)
        w.set(.to, to)
        w.set(.changes, changes)
        w.set(.batchChanges, batchChanges)
        w.set(.seconds, numbers: seconds)
        return w.json
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            engine: try row.requiredString(.engine), moves: try row.requiredString(.moves), from: try row.requiredInt(.from, in: .count),
            to: try row.requiredInt(.to, in: .count), changes: try row.requiredInt(.changes, in: .count),
            batchChanges: try row.requiredInt(.batchChanges, in: .count), seconds: try row.numbers(.seconds, in: .seconds))
        guard from < to else { throw .invalid(source: row.source, field: row.path(.to), expected: "a version after from (\(from))") }
    }
}
