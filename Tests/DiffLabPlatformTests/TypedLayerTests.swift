import DiffLabPlatform
import Testing

/// A private folder under the temporary folder for one test.
private func scratchFolder() throws -> String { try FileSystem.makeTemporaryDirectory("difflab-platform") }

/// Starts `/bin/sleep 5`: a child that is still running when read.
private func startSleeper() throws -> Int32 {
    try spawnProcess(SpawnRequest("/bin/sleep", ["5"], environment: processEnvironment()))
}

/// The typed pieces of the platform layer: errors that carry errno, descriptors, paths, signals,
/// processes. Each test is checked against what the system itself does, here, on every run.
@Suite("DiffLabPlatform: typed layer")
struct TypedLayerTests {
    @Test func anErrorNamesItsErrnoOperationAndPath() throws {
        let folder = try scratchFolder()
        defer { FileSystem.removeTree(folder) }
        let missing = folder + "/absent"
        do {
            _ = try FileDescriptor.open(missing, .readOnly)
            Issue.record("opened a file that does not exist")
        } catch {
            #expect(error.code == .noSuchFile)
            #expect(error.name == "ENOENT")
            #expect(error.operation == "open" && error.path == missing)
            #expect(error.description.hasPrefix("open '\(missing)': ") && error.description.hasSuffix("(ENOENT)"), "\(error)")
            #expect(!error.message.isEmpty && error.message != error.name)
        }
        #expect(PlatformError.Code(rawValue: 100_000).name == "errno 100000")
    }

    @Test func noFollowRefusesASymbolicLinkThatAPlainOpenFollows() throws {
        let folder = try scratchFolder()
        defer { FileSystem.removeTree(folder) }
        let target = folder + "/target"
        let link = folder + "/link"
        let made = try FileDescriptor.open(target, .writeOnly, options: [.create, .exclusive])
        try made.writeAll(Array("hello".utf8))
        try made.close()
        try FileSystem.makeSymbolicLink(at: link, to: target)
        #expect(try FileSystem.symbolicLinkTarget(link) == target)
        #expect(try FileSystem.facts(link, followingLinks: false).kind == .symbolicLink)
        #expect(try FileSystem.facts(link).kind == .regular)
        let followed = try FileDescriptor.open(link, .readOnly)
        #expect(try followed.readAll(limit: 100) == Array("hello".utf8))
        followed.closeIgnoringErrors()
        #expect(throws: PlatformError(.symbolicLinkLoop, operation: "open", path: link)) {
            try FileDescriptor.open(link, .readOnly, options: .noFollow)
        }
        #expect(throws: PlatformError(.exists, operation: "open", path: target)) {
            try FileDescriptor.open(target, .writeOnly, options: [.create, .exclusive])
        }
    }

    @Test func aFIFOIsSeenAsOneAndNeverWaitsWhenOpenedWithoutBlocking() throws {
        let folder = try scratchFolder()
        defer { FileSystem.removeTree(folder) }
        let fifo = folder + "/fifo"
        try FileSystem.makeFIFO(fifo)
        #expect(try FileSystem.facts(fifo).kind == .fifo)
        // No reader: a non-blocking open for writing fails at once (ENXIO) instead of waiting.
        #expect(throws: PlatformError(.noDevice, operation: "open", path: fifo)) {
            try FileDescriptor.open(fifo, .writeOnly, options: .nonBlocking)
        }
        let reader = try FileDescriptor.open(fifo, .readOnly, options: .nonBlocking)
        #expect(try reader.facts().kind == .fifo)
        reader.closeIgnoringErrors()
    }

    @Test func foldersAreMadeListedAndRemoved() throws {
        let folder = try scratchFolder()
        defer { FileSystem.removeTree(folder) }
        #expect(folder.hasPrefix(FileSystem.temporaryDirectoryBase() + "/difflab-platform-"))
        #expect(try FileSystem.facts(folder).permissions == 0o700)
        try FileSystem.makeDirectory(folder + "/a")
        try FileDescriptor.open(folder + "/a/f", .writeOnly, options: .create).close()
        try FileSystem.makeSymbolicLink(at: folder + "/l", to: "/")
        #expect(Set(FileSystem.directoryEntries(folder) ?? []) == ["a", "l"])
        #expect(throws: PlatformError(.notEmpty, operation: "rmdir", path: folder + "/a")) { try FileSystem.removeDirectory(folder + "/a") }
        try FileSystem.rename(folder + "/a/f", to: folder + "/g")
        #expect(Set(FileSystem.directoryEntries(folder) ?? []) == ["a", "g", "l"])
        FileSystem.removeTree(folder)
        #expect(FileSystem.factsIfPresent(folder) == nil)
        // The link's target was not followed.
        #expect(FileSystem.factsIfPresent("/")?.kind == .directory)
    }

    @Test func aPipeCarriesBytesAndReportsTheEnd() throws {
        let (read, write) = try FileDescriptor.pipe()
        try write.writeAll([1, 2, 3])
        #expect(FileDescriptor.waitReadable([read], milliseconds: 1000) == [read])
        try write.close()
        #expect(try read.readAll(limit: 10) == [1, 2, 3])
        read.closeIgnoringErrors()
    }

    @Test func signalsHaveStableNames() {
        #expect(Signal.kill.name == "SIGKILL")
        #expect(Signal.segmentationFault.name == "SIGSEGV")
        #expect(Signal.interrupt.description == "SIGINT")
        #expect(Signal(rawValue: 1000).name == "signal 1000")
        #expect(
            Set(
                [
                    Signal.hangup, .interrupt, .quit, .illegalInstruction, .trap, .abort, .bus, .floatingPoint, .kill, .user1,
                    .segmentationFault, .user2, .brokenPipe, .alarm, .terminate, .child, .stop, .continue, .cpuLimit, .badSystemCall,
                ].map(\.name)
            ).count == 20)
    }

    @Test func thisProcessIsAliveAndAReapedChildIsNot() throws {
        #expect(processIsAlive(currentProcessID()))
        let pid = try startSleeper()
        #expect(processIsAlive(pid))
        try sendSignal(.kill, to: pid)
        // Ended but not reaped: a zombie still holds the id.
        waitForChildEnd(pid)
        #expect(processIsAlive(pid))
        #expect(processIsZombie(pid))
        let status = try #require(reapChild(pid))
        #expect(status.signal == .kill && status.exitStatus == nil && status.shellStatus == 128 + Signal.kill.rawValue)
        #expect(!processIsAlive(pid))
        #expect(reapChild(pid) == nil)
        #expect(!processIsAlive(0) && !processIsAlive(-1))
        #expect(throws: PlatformError.self) { try sendSignal(.terminate, to: pid) }
    }

    @Test func aProcessIdThatDoesNotExistIsNotAlive() throws {
        // The largest id either kernel hands out is below 2^22 (Linux's pid_max limit; Darwin's
        // is 99999).
        let unused = try #require((1 << 22..<(1 << 22) + 1000).map { Int32($0) }.first { !allProcessIDs().contains($0) })
        #expect(!processIsAlive(unused))
        #expect(processCommandLine(unused) == nil)
    }

    @Test func aChildsCommandLineIsReadBack() throws {
        let pid = try startSleeper()
        defer {
            try? sendSignal(.kill, to: pid)
            _ = reapChild(pid)
        }
        // Just spawned, the child may still be inside exec (Linux releases the parent before the
        // new program's arguments are in place, and reads them back empty until then).
        var commandLine = processCommandLine(pid)
        for _ in 0..<200 where commandLine == [] {
            sleep(seconds: 0.01)
            commandLine = processCommandLine(pid)
        }
        #expect(commandLine == ["/bin/sleep", "5"])
        #expect(allProcessIDs().contains(pid) && allProcessIDs().contains(currentProcessID()))
        #expect(!processIsZombie(pid))
        #expect(processCommandLine(currentProcessID())?.first.map { !$0.isEmpty } == true)
    }

    @Test func aChildStartsInTheGivenFolderWithItsOwnStreams() throws {
        let folder = try scratchFolder()
        defer { FileSystem.removeTree(folder) }
        let resolved = try FileSystem.resolvedPath(folder)
        var request = SpawnRequest("/bin/sh", ["-c", "pwd; echo oops >&2; exit 3"], environment: ["PATH=/bin:/usr/bin"])
        request.workingDirectory = folder
        request.fileActions = [
            .open(target: .standardOutput, path: "out", access: .writeOnly, options: [.create, .truncate], permissions: 0o644),
            .open(target: .standardError, path: folder + "/err", access: .writeOnly, options: [.create, .truncate], permissions: 0o644),
        ]
        let pid = try spawnProcess(request)
        let status = try #require(reapChild(pid))
        #expect(status.exitStatus == 3 && status.description == "exited with status 3")
        // Relative paths of the file actions are opened after the change of folder.
        #expect(FileSystem.contents(folder + "/out", limit: 4096).map { String(decoding: $0, as: UTF8.self) } == resolved + "\n")
        #expect(FileSystem.contents(folder + "/err", limit: 4096) == Array("oops\n".utf8))
        request.workingDirectory = folder + "/absent"
        #expect(throws: PlatformError.self) { _ = try spawnProcess(request).self }
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: PlatformError(.noSuchFile, operation: "posix_spawn", path: "/nonexistent/difflab-program")) {
            try spawnProcess(SpawnRequest("/nonexistent/difflab-program", [], environment: []))
        }
    }

    @Test func darwinProcessArgumentsAreDecodedFromTheirDocumentedLayout() {
        func buffer(_ argc: Int32, _ text: String) -> [UInt8] {
            withUnsafeBytes(of: argc) { Array($0) } + Array(text.utf8)
        }
        // argc, the executable's path, padding, argv, then the environment.
        #expect(decodeProcessArguments(buffer(2, "/bin/sleep\0\0\0\0/bin/sleep\05\0PATH=/bin\0")) == ["/bin/sleep", "5"])
        #expect(decodeProcessArguments(buffer(1, "/x\0a b\0")) == ["a b"])
        #expect(decodeProcessArguments(buffer(0, "/x\0")) == [])
        // Truncated, negative or impossible counts are refused, never read past the end.
        #expect(decodeProcessArguments(buffer(3, "/x\0a\0b\0")) == nil)
        #expect(decodeProcessArguments(buffer(1, "/x\0abc")) == nil)
        #expect(decodeProcessArguments(buffer(-1, "/x\0")) == nil)
        #expect(decodeProcessArguments(buffer(Int32.max, "/x\0")) == nil)
        #expect(decodeProcessArguments([1, 0]) == nil)
    }

    @Test func theProcessorModelIsReadFromCPUInfo() {
        #expect(cpuModel(fromCPUInfo: "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags: x\nmodel name\t: other\n") == "AMD EPYC 7B13")
        #expect(cpuModel(fromCPUInfo: "processor\t: 0\nBogoMIPS\t: 50.00\n") == nil)
        #expect(cpuModel(fromCPUInfo: "model name\t:   \n") == nil)
        let machine = MachineFacts.current()
        #expect(!machine.hostname.isEmpty)
        #expect(machine.kernel.hasPrefix(PlatformKind.current == .darwin ? "Darwin " : "Linux "))
    }

    @Test func jemallocIsLookedForWhereEachPlatformInstallsIt() {
        #expect(JemallocLibrary.insertionVariable(.linux) == "LD_PRELOAD")
        #expect(JemallocLibrary.insertionVariable(.darwin) == "DYLD_INSERT_LIBRARIES")
        #expect(JemallocLibrary.installHint(.darwin).contains("brew install jemalloc"))
        #expect(JemallocLibrary.installHint(.linux).contains("apt-get install -y libjemalloc2"))
        // Darwin: Homebrew's two prefixes, $HOMEBREW_PREFIX first when set (once).
        #expect(
            JemallocLibrary.candidatePaths(.darwin, homebrewPrefix: nil) == [
                "/opt/homebrew/lib/libjemalloc.dylib", "/usr/local/lib/libjemalloc.dylib",
            ])
        #expect(
            JemallocLibrary.candidatePaths(.darwin, homebrewPrefix: "/usr/local/") == [
                "/usr/local/lib/libjemalloc.dylib", "/opt/homebrew/lib/libjemalloc.dylib",
            ])
        #expect(JemallocLibrary.candidatePaths(.darwin, homebrewPrefix: "/Users/me/brew").first == "/Users/me/brew/lib/libjemalloc.dylib")
        #expect(JemallocLibrary.candidatePaths(.darwin, homebrewPrefix: "relative").count == 2)
        // The first readable candidate wins; none readable is none.
        let intel = JemallocLibrary.path(.darwin, homebrewPrefix: nil) { $0.hasPrefix("/usr/local/") }
        #expect(intel == "/usr/local/lib/libjemalloc.dylib")
        #expect(JemallocLibrary.path(.darwin, homebrewPrefix: nil) { _ in true } == "/opt/homebrew/lib/libjemalloc.dylib")
        #expect(JemallocLibrary.path(.darwin, homebrewPrefix: nil) { _ in false } == nil)
        #expect(JemallocLibrary.candidatePaths(.linux, homebrewPrefix: "/opt/homebrew").allSatisfy { $0.hasSuffix("/libjemalloc.so.2") })
        let debian = JemallocLibrary.path(.linux, homebrewPrefix: nil) { $0 == "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2" }
        #expect(debian == "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2")
    }

    @Test func procFileSystemIsClaimedOnlyWhereItExists() {
        // The file itself is the witness: this is the platform layer's own test of its /proc claim.
        let status = FileSystem.factsIfPresent("/proc/self/status")  // portable: the layer's own test of platformHasProcFileSystem
        #expect(platformHasProcFileSystem == (status?.kind == .regular))
        #expect(platformHasProcFileSystem == (PlatformKind.current == .linux))
        #expect(resetPeakResidentSize() == platformHasProcFileSystem)
    }
}
