import DiffLabCore
import DiffLabPlatform

/// Summary statistics of a sample set (seconds).
public struct SampleStatistics: Sendable, Hashable {
    /// The median sample (DiffLabCore's one definition: the mean of the two middle samples for an
    /// even count); `nan` for no samples, like the others.
    public var median: Double
    /// The smallest sample.
    public var min: Double
    /// The 90th percentile (nearest rank).
    public var p90: Double
    /// The 99th percentile (nearest rank).
    public var p99: Double
    /// Median absolute deviation from the median.
    public var mad: Double

    /// Statistics of `samples` (nearest-rank percentiles). - Complexity: O(n log n).
    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
        }
        median = DiffLabCore.median(sorted) ?? .nan
        min = sorted.first ?? .nan
        p90 = percentile(0.9)
        p99 = percentile(0.99)
        let m = median
        let deviations = sorted.map { abs($0 - m) }.sorted()
        mad = DiffLabCore.median(deviations) ?? .nan
    }
}

/// One measured operation: every sample kept, with CPU time, allocation and memory figures.
public struct SampledMeasurement: Sendable {
    /// Wall-clock seconds per call, one entry per sample.
    public var samples: [Double]
    /// Thread CPU seconds per call, one entry per sample.
    public var cpuSamples: [Double]
    /// Calls per sample (short calls are repeated so a sample lasts long enough to time).
    public var callsPerSample: Int
    /// Bytes allocated by one call (jemalloc `thread.allocatedp`), when running on jemalloc.
    public var allocatedBytes: UInt64?
    /// Allocation requests of one call (jemalloc arena statistics), when running on jemalloc.
    public var allocationRequests: UInt64?
    /// Peak resident set size, in bytes, of the process the engine ran in, over its life up to the
    /// end of the measurement: this process's for an engine in it; for an engine in a process of
    /// its own (``OutOfProcessEngine``) that process's, and only when the cell is self-timed (so
    /// its results say which process it was); `nil` otherwise, or where Linux does not say.
    public var peakRSSBytes: Int?
    /// Page faults and resident memory of one call (the extra, untimed call after the samples).
    public var footprint: CallFootprint = CallFootprint()
    /// ``samples`` summarised.
    public var statistics: SampleStatistics { SampleStatistics(samples) }
}

/// Keeps a value alive so the optimiser cannot drop the call that made it.
@inline(never)
@usableFromInline package func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Times `body`: one warm-up call, then samples until `budget` seconds are spent (at least
/// `minSamples`, at most `maxSamples`); a call shorter than 1 ms is repeated inside a sample.
/// One extra call gives the ``CallFootprint`` and, under jemalloc, the allocation figures (of
/// this thread).
///
/// - Precondition: `budget` is finite and not negative; `maxSamples` ≥ 1 (`minSamples` above
///   `maxSamples` means `maxSamples`).
/// - Complexity: `body` is called 1 + samples × calls per sample + 1 times; the
///   time is about `budget`, or `minSamples` calls when a call takes longer than that.
package func measure(budget: Double, minSamples: Int = 5, maxSamples: Int = 200, _ body: () -> Void) -> SampledMeasurement {
    // A finite warm-up never exceeds an infinite limit, so this always measures.
    guard let measurement = measureWithinLimit(budget: budget, minSamples: minSamples, maxSamples: maxSamples, callLimit: .infinity, body).measurement
    else { preconditionFailure("a call cannot take longer than an infinite limit") }
    return measurement
}

/// ``measure(budget:minSamples:maxSamples:_:)``, giving up after the warm-up call when that call
/// took longer than `callLimit` seconds, so a projection that let a too-slow call through costs
/// one call, not a whole sample set. Nothing is added inside the timed samples.
///
/// - Returns: the measurement (`nil` past `callLimit`) and the warm-up call's seconds.
/// - Precondition: as for ``measure(budget:minSamples:maxSamples:_:)``, and `callLimit` > 0.
func measureWithinLimit(
    budget: Double, minSamples: Int, maxSamples: Int, callLimit: Double, _ body: () -> Void
) -> (measurement: SampledMeasurement?, warmUp: Double) {
    precondition(budget.isFinite && budget >= 0, "measure: budget must be a finite number of seconds ≥ 0 (got \(budget))")
    precondition(maxSamples >= 1, "measure: maxSamples must be at least 1 (got \(maxSamples))")
    precondition(callLimit > 0, "measure: callLimit must be > 0 seconds (got \(callLimit))")
    let warmStart = monotonicNow()
    body()
    let warmUp = monotonicNow() - warmStart
    guard warmUp <= callLimit else { return (nil, warmUp) }
    let estimate = Swift.max(warmUp, 1e-7)
    // At most 10,000 calls per sample (a call of at least 0.1 µs, samples of 1 ms).
    let callsPerSample = estimate < 1e-3 ? Int((1e-3 / estimate).rounded(.up)) : 1
    // In floating point first: a large budget over a tiny call must not overflow `Int`.
    let wanted = (budget / (estimate * Double(callsPerSample))).rounded(.down)
    let sampleCount = Swift.max(1, Swift.min(maxSamples, Swift.max(minSamples, wanted < Double(maxSamples) ? Int(wanted) : maxSamples)))
    var samples: [Double] = []
    var cpuSamples: [Double] = []
    samples.reserveCapacity(Swift.min(sampleCount, 1 << 16))
    cpuSamples.reserveCapacity(Swift.min(sampleCount, 1 << 16))
    for _ in 0..<sampleCount {
        let cpu = threadCPUNow()
        let start = monotonicNow()
        for _ in 0..<callsPerSample { body() }
        samples.append((monotonicNow() - start) / Double(callsPerSample))
        cpuSamples.append((threadCPUNow() - cpu) / Double(callsPerSample))
    }
    var allocated: UInt64?
    var requests: UInt64?
    // The allocation counters are read right around the call, inside the footprint's window, so
    // the footprint's own reads of /proc are not counted as the call's allocations.
    let footprint = CallFootprint.measure {
        guard let jemalloc = JemallocStats.current else { return body() }
        let requestsBefore = jemalloc.allocationRequests()
        let bytesBefore = jemalloc.threadAllocatedBytes
        body()
        allocated = jemalloc.threadAllocatedBytes - bytesBefore
        requests = jemalloc.allocationRequests() - requestsBefore
    }
    var measurement = SampledMeasurement(
        samples: samples, cpuSamples: cpuSamples, callsPerSample: callsPerSample, allocatedBytes: allocated,
        allocationRequests: requests, peakRSSBytes: peakRSS())
    measurement.footprint = footprint
    return (measurement, warmUp)
}

/// The outcome of ``measureCall(_:selfTimed:budget:minSamples:maxSamples:callLimit:)``.
enum MeasuredCall {
    /// Measured.
    case measured(SampledMeasurement)
    /// The warm-up call took this many seconds, over the limit: not measured.
    case overLimit(Double)
    /// The engine gave no answer (or, self-timed, reported no usable time).
    case failed(EngineFailure)
}

/// Measures a prepared subject call.
///
/// A harness-timed call is timed like any body (``measureWithinLimit(budget:minSamples:maxSamples:callLimit:_:)``);
/// if any of its calls fails, the measurement is discarded and the failure returned, so a failing
/// engine is never reported with a time. A self-timed call contributes, per sample, the seconds the
/// engine reported for one call (one call per sample; samples until `budget` seconds of wall
/// time are spent, within the sample bounds). Allocation figures are not taken for it (the work happens in
/// another process), and its CPU samples are empty.
///
/// - Precondition: as for ``measure(budget:minSamples:maxSamples:_:)``, and `callLimit` > 0.
func measureCall(
    _ call: BenchCall, selfTimed: Bool, budget: Double, minSamples: Int, maxSamples: Int, callLimit: Double
) -> MeasuredCall {
    guard selfTimed else {
        var failure: EngineFailure?
        let (measurement, warmUp) = measureWithinLimit(
            budget: budget, minSamples: minSamples, maxSamples: maxSamples, callLimit: callLimit
        ) {
            guard failure == nil else { return }
            do throws(EngineFailure) { _ = try call.run() } catch { failure = error }
        }
        if let failure { return .failed(failure) }
        guard let measurement else { return .overLimit(warmUp) }
        return .measured(measurement)
    }
    precondition(budget.isFinite && budget >= 0, "measure: budget must be a finite number of seconds ≥ 0 (got \(budget))")
    precondition(maxSamples >= 1, "measure: maxSamples must be at least 1 (got \(maxSamples))")
    func reported() -> Result<Double, EngineFailure> {
        do throws(EngineFailure) {
            guard let seconds = try call.run() else {
                return .failure(EngineFailure(.badAnswer, "the engine is self-timed but reported no time"))
            }
            guard seconds.isFinite, seconds >= 0 else {
                return .failure(EngineFailure(.badAnswer, "the engine reported \(seconds) seconds"))
            }
            return .success(seconds)
        } catch {
            return .failure(error)
        }
    }
    let warmStart = monotonicNow()
    let warm = reported()
    let warmUp = monotonicNow() - warmStart
    if case .failure(let failure) = warm { return .failed(failure) }
    guard warmUp <= callLimit else { return .overLimit(warmUp) }
    var samples: [Double] = []
    var spent = 0.0
    let wanted = Swift.min(minSamples, maxSamples)
    while samples.count < maxSamples && (samples.count < wanted || spent < budget) {
        let start = monotonicNow()
        switch reported() {
        case .failure(let failure): return .failed(failure)
        case .success(let seconds): samples.append(seconds)
        }
        spent += monotonicNow() - start
    }
    return .measured(
        SampledMeasurement(
            samples: samples, cpuSamples: [], callsPerSample: 1, allocatedBytes: nil, allocationRequests: nil,
            peakRSSBytes: peakRSS()))
}

/// What one call costs the process in memory: page faults and resident memory, from one call
/// made after the timed samples (so in the steady state the samples saw: memory the allocator kept
/// from earlier calls is reused without faults, as it was while timing).
public struct CallFootprint: Sendable, Hashable {
    /// Minor page faults during the call (`getrusage`, whole process: a parallel engine's
    /// threads count too): pages the kernel had to map, each zero-filled or found in its cache.
    public var minorFaults: Int?
    /// Major page faults during the call (pages read from disk; 0 unless memory is short).
    public var majorFaults: Int?
    /// The resident set's peak during the call above its size before it (`VmHWM` after resetting
    /// it through `/proc/self/clear_refs`, minus `VmRSS` before), in bytes; `nil` where Linux does
    /// not offer the reset.
    public var peakExtraRSSBytes: Int?

    /// No figures.
    public init(minorFaults: Int? = nil, majorFaults: Int? = nil, peakExtraRSSBytes: Int? = nil) {
        self.minorFaults = minorFaults
        self.majorFaults = majorFaults
        self.peakExtraRSSBytes = peakExtraRSSBytes
    }

    /// Calls `body` once and measures it.
    ///
    /// - Complexity: one call of `body`, plus reading `/proc/self/status` twice.
    package static func measure(_ body: () -> Void) -> CallFootprint {
        // One at a time: another measurement's reset in the middle of this one would lower the peak.
        measuring.withLock { _ in _measure(body) }
    }

    private static let measuring = Locked(())

    private static func _measure(_ body: () -> Void) -> CallFootprint {
        // The reset also clears getrusage's peak: keep the process's peak so far first.
        if let peak = procStatusBytes("VmHWM:") { lifetimePeak.withLock { $0 = max($0, peak) } }
        let reset = resetPeakRSS()
        let residentBefore = reset ? procStatusBytes("VmRSS:") : nil
        let before = processFaults()
        body()
        let after = processFaults()
        var footprint = CallFootprint(minorFaults: max(0, after.minor - before.minor), majorFaults: max(0, after.major - before.major))
        if let residentBefore, let peak = procStatusBytes("VmHWM:") { footprint.peakExtraRSSBytes = max(0, peak - residentBefore) }
        return footprint
    }

    /// The process's peak resident set size before the last reset (see ``peakRSS()``).
    static let lifetimePeak = Locked(0)

    /// Resets the process's peak resident set size to its current size
    /// (``resetPeakResidentSize()``: Linux only). Returns whether it did.
    static func resetPeakRSS() -> Bool { resetPeakResidentSize() }
}

/// The page faults of this process so far (`getrusage`: every thread's), minor and major: the
/// one reading behind ``CallFootprint`` and the repeated mode's per-call counts.
///
/// - Complexity: one system call.
func processFaults() -> (minor: Int, major: Int) {
    processPageFaults()
}

/// Peak resident set size of this process in bytes: the larger of `getrusage`'s (the peak since
/// the last ``CallFootprint`` reset it) and the peak before that reset.
package func peakRSS() -> Int {
    max(peakResidentBytes(), CallFootprint.lifetimePeak.withLock { $0 })
}

/// Least-squares slope of log(y) against log(x): the growth exponent. `nil` with fewer than two
/// points.
package func growthExponent(_ points: [(x: Double, y: Double)]) -> Double? {
    let logs = points.filter { $0.x > 0 && $0.y > 0 }.map { (Double.log($0.x), Double.log($0.y)) }
    guard logs.count >= 2 else { return nil }
    let meanX = logs.map(\.0).reduce(0, +) / Double(logs.count)
    let meanY = logs.map(\.1).reduce(0, +) / Double(logs.count)
    let sxx = logs.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
    let sxy = logs.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
    return sxx > 0 ? sxy / sxx : nil
}
