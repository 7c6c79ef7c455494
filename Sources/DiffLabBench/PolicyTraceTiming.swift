import DiffLabCore
import DiffLabFormatting
import DiffLabResults

/// How a recorded trace's versions are timed as a stream of update requests
/// (``traceStream(_:timing:maxGap:)``).
public enum PolicyTraceTiming: Sendable, Hashable {
    /// The recorded gaps between versions (`timestampMs`), multiplied by the factor: 1 replays
    /// them as recorded, 0.001 a thousand times faster.
    case recorded(timeScale: Double)
    /// The recorded gaps, scaled by the one factor that makes their median this many seconds:
    /// "what if these updates came every 50 ms", keeping their rhythm.
    case medianInterval(Double)
    /// One request every so many seconds, the recorded times ignored (or absent).
    case interval(Double)
}

/// Why a trace cannot be timed as asked: no times to scale, a median gap of 0, or a stream too
/// long or too large to simulate.
public struct PolicyTraceTimingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words, e.g. `the trace has no times (timestampMs)`.
    public var description: String

    /// An error; see the property.
    public init(_ description: String) { self.description = description }
}

/// The longest stream a trace may make: 10,000,000 seconds (about 116 days) from its first
/// request to its last, after scaling and shortening (the results file's run range).
public let policyTraceMaxSeconds = 10_000_000.0

/// The stream of `trace`'s versions as update requests, timed by `timing`, with the record that
/// says how.
///
/// Version 0 is on screen when the run starts and every later version is one request: the first
/// at 0 s, each next one after the gap between its version's time and the previous one's
/// (`recorded`: the recorded gap × the time scale; `medianInterval`: the recorded gap × the
/// factor that makes the median of all the trace's gaps the interval asked for; `interval`: the
/// interval). A gap longer than `maxGap` seconds is shortened to it: in a quiet spell the app
/// only draws idle frames within budget, so a longer gap would add frames to simulate, seconds to
/// the run and nothing else (it lowers the hitch time ratio, which is per second of the run).
/// Requests with equal times arrive together. Each version's size is its item count (sections
/// flattened).
///
/// - Throws: ``PolicyTraceTimingError`` for `recorded` or `medianInterval` timing of a trace
///   without times, `medianInterval` on a trace whose median gap is 0 ms, more than
///   ``PolicyStream/maxRequests`` requests, or a stream longer than ``policyTraceMaxSeconds``.
/// - Precondition: at least two versions; the timing's number and `maxGap` positive and finite.
/// - Complexity: O(versions log versions).
public func traceStream(
    _ trace: Trace, timing: PolicyTraceTiming, maxGap: Double
) throws(PolicyTraceTimingError) -> (stream: PolicyStream, record: PolicyTraceStreamRecord) {
    let versions = trace.versions
    precondition(versions.count >= 2, "traceStream: a trace of \(versions.count) versions has no request")
    precondition(maxGap.isFinite && maxGap > 0, "traceStream: maxGap must be positive")
    let requests = versions.count - 1
    guard requests <= PolicyStream.maxRequests else {
        throw PolicyTraceTimingError("the trace has \(requests) versions after the first; at most \(PolicyStream.maxRequests) can be simulated")
    }
    // The recorded gaps in seconds, between each version and the next (exact: both times are
    // integers from 0 to 2^53 and ascend).
    func recordedGaps() throws(PolicyTraceTimingError) -> [Double] {
        guard trace.hasTimestamps else { throw PolicyTraceTimingError("the trace has no times (timestampMs) to scale") }
        return zip(versions, versions.dropFirst()).map { Double(($1.timestampMs ?? 0) - ($0.timestampMs ?? 0)) / 1000 }
    }
    var record = PolicyTraceStreamRecord(timing: .interval, maxGap: maxGap, requests: requests, shortenedGaps: 0, medianGap: 0, seconds: 0)
    // The gap before each request but the first: between versions 1 and 2, 2 and 3, ...
    var gaps: [Double]
    switch timing {
    case .recorded(let scale):
        precondition(scale.isFinite && scale > 0, "traceStream: the time scale must be positive")
        (record.timing, record.timeScale) = (.recorded, scale)
        gaps = try recordedGaps().dropFirst().map { $0 * scale }
    case .medianInterval(let target):
        precondition(target.isFinite && target > 0, "traceStream: the median interval must be positive")
        let recorded = try recordedGaps()
        let middle = median(recorded) ?? 0
        guard middle > 0 else {
            throw PolicyTraceTimingError("the trace's median gap between versions is 0 ms: no scale gives it another median")
        }
        let scale = target / middle
        (record.timing, record.timeScale) = (.medianInterval, scale)
        gaps = recorded.dropFirst().map { $0 * scale }
    case .interval(let interval):
        precondition(interval.isFinite && interval > 0, "traceStream: the interval must be positive")
        record.interval = interval
        gaps = Array(repeating: interval, count: requests - 1)
    }
    for index in gaps.indices where !(gaps[index] <= maxGap) {
        gaps[index] = maxGap
        record.shortenedGaps += 1
    }
    var times = [0.0]
    times.reserveCapacity(requests)
    for gap in gaps { times.append(times[times.count - 1] + gap) }
    record.seconds = times[times.count - 1]
    guard record.seconds <= policyTraceMaxSeconds else {
        throw PolicyTraceTimingError(
            "the stream would last \(formatPlain(record.seconds.rounded())) s; at most \(formatPlain(policyTraceMaxSeconds)) (a smaller time scale or maximum gap)"
        )
    }
    record.medianGap = median(gaps) ?? 0
    return (PolicyStream(times: times, versionSizes: versions.map(\.items.count)), record)
}
