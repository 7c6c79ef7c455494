import DiffLabPlatform
import Testing

/// The parent's id, environment variables and unmapping shared memory (wt-lower's additions).
@Suite("DiffLabPlatform: process queries")
struct ProcessQueryTests {
    @Test func theParentIsAnotherProcess() {
        let parent = parentProcessID()
        #expect(parent > 0 && parent != currentProcessID())
    }

    /// A forked child's parent is this process.
    @Test(.enabled(if: platformCanFork, "fork is Linux's only (Darwin starts worker processes)"))
    func aForkedChildSeesThisProcessAsItsParent() {
        let me = currentProcessID()
        let pid = forkProcess()
        if pid == 0 { exitProcessImmediately(parentProcessID() == me ? 0 : 1) }
        #expect(pid > 0)
        #expect(reapChild(pid)?.exitStatus == 0)
    }

    @Test func anEnvironmentValueIsTheEnvironmentsEntry() throws {
        let entry = try #require(processEnvironment().first { $0.hasPrefix("PATH=") })
        #expect(environmentValue("PATH") == String(entry.dropFirst(5)))
        var absent = "DIFFLAB_UNSET"
        while processEnvironment().contains(where: { $0.hasPrefix(absent + "=") }) { absent += "_" }
        #expect(environmentValue(absent) == nil)
    }

    @Test func sharedMemoryUnmapsOnceAndRefusesAnUnalignedAddress() throws {
        let memory = try #require(mapSharedAnonymousMemory(1 << 16))
        memory.storeBytes(of: 7, as: UInt64.self)
        #expect(memory.load(as: UInt64.self) == 7)
        #expect(unmapSharedMemory(memory, bytes: 1 << 16))
        // munmap needs a page-aligned address (EINVAL otherwise).
        #expect(!unmapSharedMemory(try #require(UnsafeMutableRawPointer(bitPattern: 1)), bytes: 1 << 16))
    }
}
