#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// Whether this system has Linux's `/proc` file system, where DiffLab reads a process's memory
/// (`/proc/PID/status`), the kernel's page-reference reset (`/proc/self/clear_refs`) and more.
/// Darwin has none: what DiffLab needs there is asked through `sysctl` (see each function), and
/// the few measurements only `/proc` gives are recorded as absent. Tests that need `/proc` itself
/// are disabled by this condition, each with its reason.
package let platformHasProcFileSystem: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()

/// This process's id (`getpid`). - Complexity: O(1).
package func currentProcessID() -> pid_t { getpid() }

/// Sends `signal` to the process `pid` (`kill`); a negative `pid` names a process group.
///
/// - Throws: ``PlatformError`` (``PlatformError/Code/noSuchProcess`` when there is none).
/// - Complexity: one system call.
package func sendSignal(_ signal: Signal, to pid: pid_t) throws(PlatformError) {
    guard kill(pid, signal.rawValue) == 0 else { throw .current("kill(\(pid), \(signal.name))") }
}

/// Whether the id `pid` names a process, one that has ended but was not reaped yet (a zombie)
/// included: `kill(pid, 0)` succeeds, or fails with `EPERM` (it exists, owned by someone else);
/// `ESRCH` means none. Linux's `kill` answers for a zombie too. Darwin's does not (XNU's `kill`
/// looks a process up among live ones only and returns `ESRCH` for a zombie), so its branch then
/// asks `sysctl(CTL_KERN, KERN_PROC, KERN_PROC_PID)`, which finds zombies.
///
/// - Complexity: one or two system calls.
package func processIsAlive(_ pid: pid_t) -> Bool {
    guard pid > 0 else { return false }
    if kill(pid, 0) == 0 || errno == EPERM { return true }
    #if canImport(Darwin)
    return _darwinProcessInfo(pid) != nil
    #else
    return false
    #endif
}

/// The command line (`argv`) of the process `pid`, or `nil` when it cannot be read (no such
/// process, not ours to read). Empty for a zombie, and on Linux for a child still inside `exec`
/// (its parent resumes before the new program's arguments are in place).
///
/// Linux reads `/proc/PID/cmdline` (the arguments, each ended by a NUL). Darwin asks
/// `sysctl(CTL_KERN, KERN_PROCARGS2, pid)` into a buffer of `KERN_ARGMAX` bytes and decodes it
/// with ``decodeProcessArguments(_:)``.
///
/// - Complexity: one read of at most `KERN_ARGMAX` (Darwin) or 1 MiB (Linux) bytes.
package func processCommandLine(_ pid: pid_t) -> [String]? {
    guard pid > 0 else { return nil }
    #if canImport(Darwin)
    var argumentMax: Int32 = 0
    var size = MemoryLayout<Int32>.size
    var mib: [Int32] = [CTL_KERN, KERN_ARGMAX]
    guard sysctl(&mib, 2, &argumentMax, &size, nil, 0) == 0, argumentMax > 0 else { return nil }
    // Not zeroed first: a listing asks every process, and KERN_ARGMAX is about 1 MiB.
    size = Int(argumentMax)
    mib = [CTL_KERN, KERN_PROCARGS2, pid]
    var answered = false
    let buffer = [UInt8](unsafeUninitializedCapacity: size) { storage, initialized in
        answered = sysctl(&mib, 3, storage.baseAddress, &size, nil, 0) == 0
        initialized = answered ? min(size, storage.count) : 0
    }
    guard answered else { return nil }
    return decodeProcessArguments(buffer)
    #else
    guard let bytes = FileSystem.contents("/proc/\(pid)/cmdline", limit: 1 << 20) else { return nil }
    guard !bytes.isEmpty else { return [] }
    var arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    if bytes.last == 0 { arguments.removeLast() }
    return arguments
    #endif
}

/// The arguments in a `KERN_PROCARGS2` buffer of Darwin's `sysctl`, or `nil` when it is not one.
///
/// The layout (XNU's `sysctl_procargsx`, read by `ps` in adv_cmds' `print.c`): `argc` as a
/// 32-bit integer in the machine's byte order, the executable's path ending in a NUL, zero or
/// more NULs of padding, then `argc` strings each ending in a NUL (`argv`), then the
/// environment, which is not read. Pure (no system call), so it is tested on every platform.
///
/// - Complexity: O(buffer).
package func decodeProcessArguments(_ buffer: [UInt8]) -> [String]? {
    guard buffer.count >= 4 else { return nil }
    let count = buffer.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
    guard count >= 0, Int(count) <= buffer.count else { return nil }
    var index = 4
    // The executable's path, then its padding.
    while index < buffer.count && buffer[index] != 0 { index += 1 }
    while index < buffer.count && buffer[index] == 0 { index += 1 }
    var arguments: [String] = []
    while arguments.count < Int(count) {
        guard index < buffer.count else { return nil }
        let start = index
        while index < buffer.count && buffer[index] != 0 { index += 1 }
        guard index < buffer.count else { return nil }
        arguments.append(String(decoding: buffer[start..<index], as: UTF8.self))
        index += 1
    }
    return arguments
}

/// The ids of every process on the system, in no set order; empty when they cannot be listed.
///
/// Linux lists the numeric entries of `/proc`. Darwin asks `sysctl(CTL_KERN, KERN_PROC,
/// KERN_PROC_ALL)` for the `kinfo_proc` records of all processes (sized by a first call, with room
/// for processes started in between) and takes each `kp_proc.p_pid`.
///
/// - Complexity: O(processes).
package func allProcessIDs() -> [pid_t] {
    #if canImport(Darwin)
    var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0]
    var size = 0
    guard sysctl(&mib, 4, nil, &size, nil, 0) == 0, size > 0 else { return [] }
    let stride = MemoryLayout<kinfo_proc>.stride
    var records = [kinfo_proc](repeating: kinfo_proc(), count: size / stride + 32)
    size = records.count * stride
    guard sysctl(&mib, 4, &records, &size, nil, 0) == 0 else { return [] }
    return records.prefix(size / stride).map(\.kp_proc.p_pid).filter { $0 > 0 }
    #else
    return (FileSystem.directoryEntries("/proc") ?? []).compactMap { Int32($0) }
    #endif
}

#if canImport(Darwin)
/// The `kinfo_proc` record of `pid` (`sysctl(CTL_KERN, KERN_PROC, KERN_PROC_PID, pid)`), zombies
/// included; `nil` when there is no such process.
func _darwinProcessInfo(_ pid: pid_t) -> kinfo_proc? {
    var record = kinfo_proc()
    var size = MemoryLayout<kinfo_proc>.stride
    var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
    guard sysctl(&mib, 4, &record, &size, nil, 0) == 0, size >= MemoryLayout<kinfo_proc>.stride else { return nil }
    return record
}

/// `SZOMB` of Darwin's `<sys/proc.h>`: `kp_proc.p_stat` of a process that has ended and not been
/// reaped.
let _darwinZombieState: CChar = 5
#else
// Linux reads /proc instead.
#endif

/// How a waited-for child ended: the raw status `waitpid` gives (the same encoding on Linux and
/// Darwin: the low 7 bits are the signal that ended it, else bits 8 to 15 are the exit status).
package struct WaitStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw `waitpid` status.
    package var rawValue: Int32
    /// A status from `waitpid`'s raw value. - Complexity: O(1).
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The exit status, or `nil` when a signal ended it.
    package var exitStatus: Int32? { rawValue & 0x7f == 0 ? (rawValue >> 8) & 0xff : nil }
    /// The signal that ended it, or `nil` when it exited.
    package var signal: Signal? { rawValue & 0x7f == 0 ? nil : Signal(rawValue: rawValue & 0x7f) }
    /// The exit status, or 128 + the signal's number, as a shell reports it.
    package var shellStatus: Int32 { exitStatus ?? 128 + (rawValue & 0x7f) }

    /// `exited with status 3`, `was killed by signal 9 (SIGKILL: Killed)`.
    package var description: String {
        guard let signal else { return "exited with status \(exitStatus ?? 0)" }
        return "was killed by signal \(signal.rawValue) (\(signal.name): \(signal.message))"
    }
}

/// Waits until the child `pid` has ended, without reaping it (`waitid(WEXITED | WNOWAIT)`,
/// repeated past interruptions and, on Darwin, past a stopped child: see ``waitedChildEnded(_:)``).
/// Returns at once when `pid` is not a child of this process.
///
/// - Complexity: blocks in the kernel until the child ends.
package func waitForChildEnd(_ pid: pid_t) {
    while true {
        var info = siginfo_t()
        let waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        if waited < 0 && errno != EINTR { return }
        if waited == 0 && waitedChildEnded(info) { return }
        // Darwin may report a stopped child, and with WNOWAIT the report stays: wait a little
        // before asking again rather than spinning until the child is continued.
        if waited == 0 { sleep(seconds: 0.01) }
    }
}

/// Reaps the child `pid`, waiting for it to end (`waitpid`, repeated past interruptions); `nil`
/// when it is not a child of this process.
///
/// - Complexity: blocks in the kernel until the child ends.
package func reapChild(_ pid: pid_t) -> WaitStatus? {
    var status: Int32 = 0
    while true {
        if waitpid(pid, &status, 0) == pid { return WaitStatus(rawValue: status) }
        if errno != EINTR { return nil }
    }
}

/// Reaps the child `pid` if it has ended (`waitpid(WNOHANG)`): its status, or `nil` while it runs
/// (or when it is not a child of this process).
///
/// - Complexity: one system call.
package func reapChildIfEnded(_ pid: pid_t) -> WaitStatus? {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid ? WaitStatus(rawValue: status) : nil
}

/// Sleeps this thread for `seconds` (`nanosleep`, resumed after an interruption for the time
/// left). Never a way to wait for an event; for pauses and polling intervals.
///
/// - Complexity: blocks for about `seconds`.
package func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    let whole = min(seconds, 1e9).rounded(.down)
    var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    var left = timespec()
    while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
}

/// Ends this process with `status` after flushing the C library's buffers (`exit`).
package func exitProcess(_ status: Int32) -> Never { exit(status) }

/// Ends this process with `status` at once (`_exit`): no atexit handlers, no buffers flushed; for
/// a forked child and for the cleanup thread after an interruption.
package func exitProcessImmediately(_ status: Int32) -> Never { _exit(status) }
