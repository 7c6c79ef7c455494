import DiffLabPlatform
import Testing

/// The C library's elementary functions as `Double` members (wt-lower's additions): exact values
/// C99 and IEEE 754 fix, and their special cases.
@Suite("DiffLabPlatform: elementary functions")
struct ElementaryFunctionTests {
    @Test func exactValues() {
        #expect(Double.log(1) == 0)
        #expect(Double.log10(1000) == 3 && Double.log10(1e-3) == -3)
        #expect(Double.exp(0) == 1)
        #expect(Double.pow(2, 10) == 1024 && Double.pow(10, -1) == 0.1)
    }

    @Test func specialCases() {
        #expect(Double.log(0) == -.infinity && Double.log10(0) == -.infinity)
        #expect(Double.log(-1).isNaN && Double.log10(-1).isNaN)
        #expect(Double.exp(1000) == .infinity && Double.exp(-1000) == 0)
        #expect(Double.pow(.nan, 0) == 1)
    }

    @Test func logarithmAndExponentialAreInverses() {
        for x in [0.001, 0.5, 2, 123.456, 1e300] {
            let back = Double.exp(Double.log(x))
            #expect(abs(back - x) <= x * 1e-12, "\(x) -> \(back)")
        }
        #expect(abs(Double.log(Double.exp(1)) - 1) < 1e-15)
    }
}
