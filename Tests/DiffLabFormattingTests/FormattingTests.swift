import DiffLabFormatting
import Testing

/// DiffLab's one set of formatters (Formatting.swift): binary bytes, exact sizes and bounds, UTC.
@Suite struct FormattingTests {
    @Test func bytesAreBinaryWithThreeSignificantDigits() {
        #expect(formatBytes(0) == "0 B")
        #expect(formatBytes(1023) == "1023 B")
        #expect(formatBytes(1024) == "1 KiB")
        #expect(formatBytes(3000) == "2.93 KiB")
        #expect(formatBytes(300_000_000) == "286 MiB")
        #expect(formatBytes(1.5 * 1_073_741_824) == "1.5 GiB")
        #expect(formatBytes(-2048) == "-2 KiB")
        #expect(formatBytes(.nan) == "nan B")
        #expect(formatBytes(.infinity) == "inf GiB")
    }

    @Test func byteCountsAreExact() {
        #expect(formatByteCount(268_435_456) == "256 MiB")
        #expect(formatByteCount(64 << 30) == "64 GiB")
        #expect(formatByteCount(1024) == "1 KiB")
        #expect(formatByteCount(1000) == "1000 bytes")
        #expect(formatByteCount(1) == "1 byte")
        #expect(formatByteCount(0) == "0 bytes")
        #expect(formatByteCount(-5) == "-5 bytes")
        #expect(formatByteCount(.max) == "\(Int.max) bytes")
    }

    @Test func plainNumbersReadBackAsTheSameValue() {
        #expect(formatPlain(3600) == "3600")
        #expect(formatPlain(1e6) == "1000000")
        #expect(formatPlain(0.001) == "0.001")
        #expect(formatPlain(-2) == "-2")
        #expect(formatPlain(1e15) == "1000000000000000.0")
        #expect(formatPlain(1e16) == "1e+16")
        #expect(formatPlain(.nan) == "nan")
        #expect(formatPlain(-.infinity) == "-inf")
    }

    @Test func secondsAndCounts() {
        #expect(formatSeconds(0.0017) == "1.7 ms")
        #expect(formatSeconds(0) == "0 s")
        #expect(formatCount(1500) == "1.5k")
        #expect(formatGrouped(-1_234_567) == "-1,234,567")
    }

    @Test func utcDatesAndFileStamps() {
        #expect(utcDateTime(0) == "1970-01-01 00:00:00 UTC")
        #expect(utcFileStamp(0) == "19700101-000000")
        #expect(utcFileStamp(1_796_354_000) == "20261204-031320")
        #expect(UTCDateTime(unixSeconds: -86_401).text == "1969-12-30 23:59:59 UTC")
        let leap = UTCDateTime(unixSeconds: 951_782_400)  // 2000-02-29
        #expect((leap.year, leap.month, leap.day) == (2000, 2, 29))
        #expect(!utcFileStamp(.min).isEmpty && !utcFileStamp(.max).isEmpty)
    }
}

/// `decadeFloor` (the report's ticks, `formatSignificant`'s exponent) is exact with no C library
/// `log10`: at every power of ten `exp10` gives and beside it, at the subnormals and the extremes.
@Test func decadeFloorIsExactAtEveryDecade() {
    for k in -323...308 {
        let power = exp10(k)
        #expect(decadeFloor(power) == k, "10^\(k)")
        #expect(decadeFloor(power.nextUp) == k, "just above 10^\(k)")
        #expect(decadeFloor(power.nextDown) == k - 1, "just below 10^\(k)")
        if k < 308 { #expect(decadeFloor(power * 5) == k, "5 × 10^\(k)") }
    }
    #expect(decadeFloor(.leastNonzeroMagnitude) == -324)
    #expect(decadeFloor(.leastNormalMagnitude) == -308)
    #expect(decadeFloor(.greatestFiniteMagnitude) == 308)
    for invalid in [0, -0.0, -1, .nan, .infinity, -.infinity] { #expect(decadeFloor(invalid) == nil, "\(invalid)") }
}

/// The documented edge cases of ``NumberStyle``.
@Test func numberStylesAtTheirEdges() {
    #expect(NumberStyle.seconds.format(.nan) == "nan ns")
    #expect(NumberStyle.seconds.format(.infinity) == "inf s")
    #expect(NumberStyle.count.format(.infinity) == "infG")
    #expect(NumberStyle.count.format(.nan) == "nan")
    #expect(NumberStyle.bytes.format(1e308) == "9.31e298 GiB")
}
