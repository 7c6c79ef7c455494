import DiffLabPlatform
import Testing

@testable import DiffLabBench

/// The last line of the per-call limit: a warm-up call over the limit ends the measurement.
@Suite("Bench call limit")
struct CallLimitTests {
    @Test func aWarmUpCallOverTheLimitEndsTheMeasurement() {
        var calls = 0
        let (measurement, warmUp) = measureWithinLimit(budget: 1, minSamples: 5, maxSamples: 10, callLimit: 0.001) {
            calls += 1
            sleep(seconds: 0.003)
        }
        #expect(measurement == nil)
        #expect(warmUp > 0.001)
        #expect(calls == 1)
    }

    @Test func aWarmUpCallWithinTheLimitIsMeasured() {
        var calls = 0
        let (measurement, _) = measureWithinLimit(budget: 0, minSamples: 2, maxSamples: 2, callLimit: 60) { calls += 1 }
        #expect(measurement?.samples.count == 2)
        #expect(calls >= 3)
    }
}
