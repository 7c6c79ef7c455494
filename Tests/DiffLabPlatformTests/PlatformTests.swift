import DiffLabPlatform
import Foundation
import Testing

/// The platform layer's wrappers answer on this machine what the system calls they wrap answer
/// (the Darwin branches are compiled and run by the macOS job of `.github/workflows/ci.yml`).
@Suite("DiffLabPlatform")
struct PlatformTests {
    @Test func theEnvironmentIsReadInFull() {
        let environment = processEnvironment()
        #expect(!environment.isEmpty)
        let path = environment.first { $0.hasPrefix("PATH=") }
        // Foundation's reading of the environment is the independent witness.
        #expect(path.map { String($0.dropFirst(5)) } == ProcessInfo.processInfo.environment["PATH"])
        #expect(environment.allSatisfy { $0.contains("=") })
    }

    @Test func theExecutableIsFoundAndCanBeStartedAgain() throws {
        let path = try #require(executablePath())
        #expect(path.hasPrefix("/"))
        #expect(FileSystem.isAccessible(path, .execute))
        let spawnable = try #require(executablePathForSpawning())
        #expect(FileSystem.isAccessible(spawnable, .execute))
    }

    @Test func resourceCountsAreInTheirOwnUnits() throws {
        let peak = peakResidentBytes()
        // A Swift test process holds more than 1 MiB and less than the machine's memory: a
        // kilobyte figure taken for bytes (or the reverse) falls outside.
        let memory = try #require(physicalMemoryBytes())
        #expect(peak > 1 << 20 && peak < memory)
        #expect(onlineProcessors() >= 1)
        let before = processCPUNow()
        var x = 0.0
        for i in 0..<2_000_000 { x += Double(i).squareRoot() }
        #expect(x > 0)
        #expect(processCPUNow() > before)
        #expect(threadCPUNow() > 0)
    }

    @Test func aThreadRunsAndIsJoined() throws {
        let box = Locked(0)
        var threads: [PlatformThread] = []
        for _ in 0..<4 {
            threads.append(try #require(PlatformThread.start(detached: false) { box.withLock { $0 += 1 } }))
        }
        for thread in threads { thread.join() }
        #expect(box.withLock { $0 } == 4)
    }

    @Test func aPendingSignalIsTakenAndNoneIsInvented() {
        let set = SignalMask([.user2])
        let previous = set.block()
        defer { previous.install() }
        #expect(takePendingSignal(set) == nil)
        Signal.user2.raiseInThisThread()
        #expect(takePendingSignal(set) == .user2)
        #expect(takePendingSignal(set) == nil)
        Signal.user2.raiseInThisThread()
        #expect(waitForSignal(set) == .user2)
    }

    @Test func sharedMemoryIsMappedAndRefusedWhenEmpty() throws {
        let memory = try #require(mapSharedAnonymousMemory(1 << 16))
        memory.storeBytes(of: 42, as: UInt64.self)
        #expect(memory.load(as: UInt64.self) == 42)
        #expect(unmapSharedMemory(memory, bytes: 1 << 16))
        #expect(mapSharedAnonymousMemory(0) == nil)
    }

    @Test func symbolsAreLookedUpInTheGlobalScope() {
        #expect(globalSymbol("malloc") != nil)
        #expect(globalSymbol("difflab_no_such_symbol_anywhere") == nil)
    }

    @Test func forkIsOfferedOnlyWhereItExists() {
        #if os(Linux)
        #expect(platformCanFork)
        #else
        #expect(!platformCanFork)
        #expect(forkProcess() == -1 && PlatformError.current("fork").code == .notImplemented)
        #endif
    }

    /// A file's modification time is the one `futimens` set, to the nanosecond where the file
    /// system keeps them (`st_mtim` on Linux, `st_mtimespec` on Darwin).
    @Test func theModificationTimeIsReadFromItsField() throws {
        let folder = try FileSystem.makeTemporaryDirectory("difflab-platform")
        defer { FileSystem.removeTree(folder) }
        let descriptor = try FileDescriptor.open(folder + "/file", .writeOnly, options: [.create, .exclusive, .noFollow], permissions: 0o600)
        defer { descriptor.closeIgnoringErrors() }
        try descriptor.setModificationTime(seconds: 1_234_567_890)
        let facts = try descriptor.facts()
        #expect(facts.modified.seconds == 1_234_567_890)
        #expect(facts.modified.nanoseconds == 0)
        #expect(facts.kind == .regular && facts.permissions == 0o600)
    }

    @Test func aRunningProcessIsNoZombie() {
        #expect(!processIsZombie(currentProcessID()))
    }
}
