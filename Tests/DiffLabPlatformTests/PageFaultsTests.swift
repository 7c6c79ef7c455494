import DiffLabPlatform
import Testing

/// Page-fault counts (wt-lower's addition).
@Suite("DiffLabPlatform: page faults")
struct PageFaultTests {
    /// Touching fresh pages faults them in: the minor count grows, and neither count goes down.
    @Test func touchingNewMemoryCountsMinorFaults() {
        let before = processPageFaults()
        let bytes = 32 << 20
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 1 << 12)
        defer { memory.deallocate() }
        for offset in stride(from: 0, to: bytes, by: 1 << 12) { memory.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let after = processPageFaults()
        #expect(after.minor > before.minor)
        #expect(after.major >= before.major && before.minor >= 0 && before.major >= 0)
    }
}
