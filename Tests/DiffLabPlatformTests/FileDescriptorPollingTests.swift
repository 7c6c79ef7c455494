import DiffLabPlatform
import Testing

/// Waiting for several events at once and duplicating a descriptor (wt-lower's additions).
@Suite("DiffLabPlatform: descriptor events")
struct DescriptorEventTests {
    @Test func aPipeReportsWhatIsReadyInTheOrderAsked() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.closeIgnoringErrors() }
        var requests: [(descriptor: FileDescriptor, events: PollEvents)] = [(pipe.read, .readable), (pipe.write, .writable)]
        var reported = try FileDescriptor.waitForEvents(requests, milliseconds: 0)
        #expect(reported.count == 2)
        #expect(reported[0].isEmpty)
        #expect(reported[1].contains(.writable))
        try pipe.write.writeAll([42])
        reported = try FileDescriptor.waitForEvents(requests, milliseconds: 0)
        #expect(reported[0].contains(.readable))
        pipe.write.closeIgnoringErrors()
        requests.removeLast()
        var byte: [UInt8] = [0]
        _ = try byte.withUnsafeMutableBytes { raw in Result { () throws(PlatformError) in try pipe.read.read(into: raw) } }.get()
        #expect(byte == [42])
        // The writer is gone: the reader reports a hang-up (Linux) or readable end of file.
        reported = try FileDescriptor.waitForEvents(requests, milliseconds: 0)
        #expect(!reported[0].intersection([.hangUp, .readable]).isEmpty)
    }

    @Test func aDuplicateWritesIntoTheSamePipe() throws {
        let first = try FileDescriptor.pipe()
        let second = try FileDescriptor.pipe()
        // The write ends are closed below, before reading (closing one twice could close a descriptor
        // another test has opened since).
        defer { for end in [first.read, second.read] { end.closeIgnoringErrors() } }
        try first.write.duplicate(as: second.write)
        try second.write.writeAll(Array("via the copy".utf8))
        first.write.closeIgnoringErrors()
        second.write.closeIgnoringErrors()
        #expect(try first.read.readAll(limit: 100) == Array("via the copy".utf8))
        #expect(try second.read.readAll(limit: 100).isEmpty)
    }

    /// An invalid source fails (`EBADF`) and leaves the target alone.
    @Test func duplicatingAnInvalidDescriptorFailsNamingTheCall() throws {
        do {
            try FileDescriptor(rawValue: -1).duplicate(as: .standardError)
            Issue.record("dup2 of -1 succeeded")
        } catch {
            #expect(error.operation == "dup2" && error.name == "EBADF")
        }
    }
}
