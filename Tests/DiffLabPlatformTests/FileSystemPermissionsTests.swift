import DiffLabPlatform
import Testing

/// The file-system piece tests use (FileSystem+Permissions.swift).
@Suite("DiffLabPlatform: permissions for tests")
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
}
