import DiffLabResults

/// The update requests a simulated run receives: when each arrives, and how many items the list
/// has at each version.
///
/// Request `i` brings version `i + 1`; version 0 is on screen when the run starts. An update
/// carrying requests `a..<b` diffs version `a` (what is on screen) into version `b` (its last
/// request's), so its span is `b - a`.
///
/// Two streams exist: the scenario grid's ``regular(interval:duration:listSize:)`` (a request
/// every interval, every version the same size) and a recorded trace's
/// ``init(times:versionSizes:)`` (requests at recorded times, each version its own size).
public struct PolicyStream: Sendable, Hashable {
    enum Times: Sendable, Hashable {
        /// Request `i` at `i × interval`.
        case regular(interval: Double)
        /// Request `i` at `times[i]`.
        case recorded([Double])
    }

    enum Sizes: Sendable, Hashable {
        case constant(Int)
        /// Version `v` has `sizes[v]` items.
        case perVersion([Int])
    }

    let times: Times
    let sizes: Sizes
    /// Requests in the stream: at least 1.
    public let count: Int
    /// When the stream ends, in seconds from the run's start: the grid's duration, or a recorded
    /// stream's last request. The run goes on for its drain after that.
    public let end: Double

    /// The most requests a stream may hold: 10,000,000 (the simulator's bound).
    public static let maxRequests = 10_000_000

    /// The scenario grid's stream: a request every `interval` seconds from 0 for `duration`
    /// seconds (⌈`duration` / `interval`⌉ requests, at least one, the `i`-th at exactly
    /// `Double(i) * interval`), every version of `listSize` items. The stream ends at `duration`.
    ///
    /// - Precondition: `interval` positive and finite; `duration` finite and ≥ 0; at most
    ///   ``maxRequests`` requests; `listSize` ≥ 0.
    /// - Complexity: O(1).
    public static func regular(interval: Double, duration: Double, listSize: Int) -> PolicyStream {
        precondition(duration.isFinite && duration >= 0, "PolicyStream: the duration must be finite")
        precondition(interval.isFinite && interval > 0, "PolicyStream: the update interval must be positive")
        precondition(listSize >= 0, "PolicyStream: a list has at least 0 items")
        let requests = (duration / interval).rounded(.up)
        precondition(requests <= Double(maxRequests), "PolicyStream: at most 10,000,000 updates")
        return PolicyStream(times: .regular(interval: interval), sizes: .constant(listSize), count: max(1, Int(requests)), end: duration)
    }

    /// A recorded stream: request `i` at `times[i]` seconds from the run's start, version `v` of
    /// `versionSizes[v]` items (version 0 is on screen at the start, so there is one more size
    /// than times). The stream ends at its last request.
    ///
    /// - Precondition: 1 to ``maxRequests`` times, finite, ≥ 0 and ascending (equal times are
    ///   requests arriving together); `versionSizes.count == times.count + 1`, each ≥ 0.
    /// - Complexity: O(times) to check them.
    public init(times: [Double], versionSizes: [Int]) {
        precondition(!times.isEmpty && times.count <= Self.maxRequests, "PolicyStream: 1 to 10,000,000 requests")
        precondition(times.allSatisfy { $0.isFinite && $0 >= 0 }, "PolicyStream: request times must be finite and ≥ 0")
        precondition(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "PolicyStream: request times must ascend")
        precondition(versionSizes.count == times.count + 1 && versionSizes.allSatisfy { $0 >= 0 }, "PolicyStream: one size per version")
        self.init(times: .recorded(times), sizes: .perVersion(versionSizes), count: times.count, end: times[times.count - 1])
    }

    private init(times: Times, sizes: Sizes, count: Int, end: Double) {
        self.times = times
        self.sizes = sizes
        self.count = count
        self.end = end
    }

    /// When request `index` (0 ..< ``count``) arrives, seconds from the run's start. O(1).
    public func time(_ index: Int) -> Double {
        switch times {
        case .regular(let interval): Double(index) * interval
        case .recorded(let times): times[index]
        }
    }

    /// Items in version `version` (0 ... ``count``). O(1).
    public func listSize(_ version: Int) -> Int {
        switch sizes {
        case .constant(let size): size
        case .perVersion(let sizes): sizes[version]
        }
    }
}

/// Simulates one run of `setting` on `stream` in virtual time: a main thread drawing frames at
/// `frameRate` (``PolicyCosts/frameWork`` each, then the tasks posted to it), a serial background
/// queue, and the stream's requests, each at its time.
///
/// The model is ``simulatePolicy(_:on:costs:duration:drain:mainDiff:backgroundDiff:)``'s (one
/// update under way at a time; requests arriving meanwhile join it or wait for the next; IGListKit's
/// coalescer under `coalescing`), with two generalizations: requests arrive at the stream's times,
/// and a diff's cost is a function of the two versions it diffs, `(from, to)` (an update carrying
/// requests `a..<b` diffs version `a` into `b`). Whether an update is diffed on main is decided
/// when it starts, from the larger of those two versions (`PolicySetting.diffsOnMain(listSize:)`);
/// applying it costs ``PolicyCosts/applyCost(batchChanges:listSize:reload:)`` for the size of the
/// version it shows. The run ends when every update is applied, or `drain` seconds after the
/// stream's ``PolicyStream/end``.
///
/// - Parameters:
///   - setting: the update policy simulated.
///   - stream: the requests and their times.
///   - frameRate: frames drawn per second on the main thread.
///   - costs: the modelled costs of a frame and of applying an update.
///   - drain: how long after the stream's end the run may go on (default ``PolicyConfig/drainSeconds``).
///   - mainDiff: the cost of diffing `(from, to)` on the main thread.
///   - backgroundDiff: the cost of diffing `(from, to)` off it.
/// - Precondition: `drain` finite and ≥ 0; `frameRate` positive and finite; at most 10,000,000
///   frames (`(stream.end + drain) × frameRate`).
/// - Complexity: O(frames + requests) time and O(requests) memory, plus the cost functions'
///   calls (one per update); deterministic when they are.
public func simulatePolicy(
    _ setting: PolicySetting, stream: PolicyStream, frameRate: Double, costs: PolicyCosts, drain: Double = PolicyConfig.drainSeconds,
    mainDiff: (_ from: Int, _ to: Int) -> SimulatedDiff, backgroundDiff: (_ from: Int, _ to: Int) -> SimulatedDiff
) -> PolicyOutcome {
    withoutActuallyEscaping(mainDiff) { mainDiff in
        withoutActuallyEscaping(backgroundDiff) { backgroundDiff in
            var simulator = _PolicySimulator(
                setting: setting, stream: stream, frameRate: frameRate, costs: costs, drain: drain, mainDiff: mainDiff,
                backgroundDiff: backgroundDiff)
            return simulator.run()
        }
    }
}
