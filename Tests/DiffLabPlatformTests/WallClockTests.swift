import DiffLabPlatform
import Testing

/// The calendar clock of the platform layer (`secondsSince1970()`), checked against the clock the
/// file system stamps a new file with, not against a duration.
@Suite("DiffLabPlatform: calendar clock")
struct WallClockCLITests {
    @Test func theCalendarClockIsTheOneAFileIsStampedWith() throws {
        let folder = try FileSystem.makeTemporaryDirectory("difflab-wallclock")
        defer { FileSystem.removeTree(folder) }
        let path = folder + "/stamped"
        try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive]).close()
        let stamped = try FileSystem.facts(path).modified.seconds
        let now = secondsSince1970()
        // A process's uptime or a zero would fail here: the file was stamped in calendar seconds.
        #expect(now >= stamped, "the clock read after the file was made is not before its stamp")
        #expect(stamped > 1_600_000_000 && now > 1_600_000_000, "seconds since 1970, not since boot")
    }
}
