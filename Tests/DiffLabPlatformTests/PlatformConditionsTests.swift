import DiffLabPlatform
import Testing

/// The named conditions that disable a test where it cannot hold (PlatformConditions.swift) say what
/// this machine does.
@Suite("DiffLabPlatform: conditions for tests")
struct TestConditionTests {
    @Test func anotherProcessPeakMemoryIsClaimedOnlyWhereItIsRead() {
        // Asked for this process by its id, as for another process.
        let peak = procStatusBytes("VmHWM:", pid: currentProcessID())
        #expect(platformReadsAnotherProcessPeakMemory == (peak != nil))
        #expect(platformReadsAnotherProcessPeakMemory == (PlatformKind.current == .linux))
        if let peak { #expect(peak > 1 << 20) }
    }

    @Test func jemallocIsRequiredWhereCIInstallsIt() {
        #expect(platformRequiresJemalloc == (PlatformKind.current == .linux))
        // Where it is required, the finder looks where that system's package puts it.
        if platformRequiresJemalloc {
            #expect(JemallocLibrary.candidatePaths(.current, homebrewPrefix: nil).allSatisfy { $0.hasSuffix(".so.2") })
        }
    }
}
