import DiffLabPlatform
import Testing

/// The file-system and memory pieces tests use (FileSystem+tests.swift).
@Suite("DiffLabPlatform: permissions and unmapping for tests")
struct FileSystemForTestsTests {
    @Test func permissionsAreSetAndAMissingFileIsNamed() throws {
        let folder = try FileSystem.makeTemporaryDirectory("difflab-platform")
        defer { FileSystem.removeTree(folder) }
        let script = folder + "/script.sh"
        try FileDescriptor.open(script, .writeOnly, options: [.create, .exclusive], permissions: 0o600).close()
        #expect(!FileSystem.isAccessible(script, .execute))
        try FileSystem.setPermissions(script, 0o755)
        #expect(try FileSystem.facts(script).permissions == 0o755)
        #expect(FileSystem.isAccessible(script, .execute))
        try FileSystem.setPermissions(script, 0o640)
        #expect(try FileSystem.facts(script).permissions == 0o640)
        #expect(throws: PlatformError(.noSuchFile, operation: "chmod", path: folder + "/absent")) {
            try FileSystem.setPermissions(folder + "/absent", 0o644)
        }
    }

    @Test func mappedMemoryIsUnmappedOnlyAtItsStart() throws {
        let memory = try #require(mapSharedAnonymousMemory(1 << 16))
        memory.storeBytes(of: 7, as: UInt64.self)
        #expect(memory.load(as: UInt64.self) == 7)
        // An address that is not page-aligned is refused (EINVAL on Linux and Darwin).
        #expect(!unmapMemory(memory + 1, bytes: 1))
        #expect(unmapMemory(memory, bytes: 1 << 16))
    }
}
