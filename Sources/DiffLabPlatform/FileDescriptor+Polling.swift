#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// What `poll` waits for on a descriptor, and what it reports (`POLLIN`, `POLLOUT`, `POLLERR`,
/// `POLLHUP`, `POLLNVAL`: the same names on Linux and Darwin, whose values differ only for bits
/// DiffLab does not ask for).
package struct PollEvents: OptionSet, Sendable {
    package let rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }
    /// `POLLIN`: something to read, or the end of the file.
    package static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// `POLLOUT`: a write would not block.
    package static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// `POLLERR` (reported only).
    package static let error = PollEvents(rawValue: Int16(POLLERR))
    /// `POLLHUP`: the other end is gone (reported only).
    package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
}

extension FileDescriptor {
    /// Waits until one of `requests` has one of its events, at most `milliseconds` (-1: as long as
    /// it takes; 0: not at all): what each descriptor reported, in the order of `requests` (empty
    /// events for one that is not ready; any reported bit, `POLLHUP` and `POLLERR` included, is
    /// kept). `poll`, the same on Linux and Darwin for pipes and files. Not retried: an
    /// interruption throws ``PlatformError/Code/interrupted``, for the caller to recompute its
    /// timeout.
    ///
    /// - Throws: ``PlatformError`` naming `poll`.
    /// - Complexity: one system call; O(requests).
    package static func waitForEvents(
        _ requests: [(descriptor: FileDescriptor, events: PollEvents)], milliseconds: Int32
    ) throws(PlatformError) -> [PollEvents] {
        var entries = requests.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0) }
        guard _systemPoll(&entries, nfds_t(entries.count), milliseconds) >= 0 else { throw .current("poll") }
        return entries.map { PollEvents(rawValue: $0.revents) }
    }

    /// Makes `target` a copy of this descriptor (`dup2`; the same on Darwin), closing what
    /// `target` was; the copy is not close-on-exec. For a forked child's standard streams.
    ///
    /// - Throws: ``PlatformError`` naming `dup2`.
    /// - Complexity: one system call.
    package func duplicate(as target: FileDescriptor) throws(PlatformError) {
        _ = try retryingInterrupted("dup2") { dup2(rawValue, target.rawValue) }
    }
}

/// `poll(2)`, under a name the method above does not shadow.
private func _systemPoll(_ entries: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ milliseconds: Int32) -> Int32 {
    poll(entries, count, milliseconds)
}
