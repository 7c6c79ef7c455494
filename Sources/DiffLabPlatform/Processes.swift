#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

#if canImport(Darwin)
// `_NSGetExecutablePath` (mach-o/dyld.h), for `executablePath()`: a plain import reaches this
// file only, and Darwin does not bring MachO in.
import MachO
#else
// Linux reads the link /proc/self/exe instead.
#endif

/// This process's environment, as `NAME=value` strings in their order: `environ`, which the
/// Swift overlay provides on both platforms (on Darwin through the runtime's own getter, since
/// the C `environ` is not visible to a dynamic library there).
///
/// - Complexity: O(size of the environment).
package func processEnvironment() -> [String] {
    guard var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = Optional(environ) else { return [] }
    var entries: [String] = []
    while let pointer = entry.pointee {
        entries.append(String(cString: pointer))
        entry += 1
    }
    return entries
}

#if canImport(Darwin)
/// `posix_spawn_file_actions_t` as `posix_spawn_file_actions_init` takes it: an optional pointer
/// on Darwin, a structure on Linux. Start from ``emptySpawnFileActions()``.
package typealias SpawnFileActions = posix_spawn_file_actions_t?
/// `posix_spawnattr_t` as `posix_spawnattr_init` takes it (see ``SpawnFileActions``).
package typealias SpawnAttributes = posix_spawnattr_t?
/// A value to pass to `posix_spawn_file_actions_init`.
package func emptySpawnFileActions() -> SpawnFileActions { nil }
/// A value to pass to `posix_spawnattr_init`.
package func emptySpawnAttributes() -> SpawnAttributes { nil }
#else
/// `posix_spawn_file_actions_t` as `posix_spawn_file_actions_init` takes it: an optional pointer
/// on Darwin, a structure on Linux. Start from ``emptySpawnFileActions()``.
package typealias SpawnFileActions = posix_spawn_file_actions_t
/// `posix_spawnattr_t` as `posix_spawnattr_init` takes it (see ``SpawnFileActions``).
package typealias SpawnAttributes = posix_spawnattr_t
/// A value to pass to `posix_spawn_file_actions_init`.
package func emptySpawnFileActions() -> SpawnFileActions { posix_spawn_file_actions_t() }
/// A value to pass to `posix_spawnattr_init`.
package func emptySpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }
#endif

/// Whether the `waitid(P_PID, pid, &info, WEXITED ...)` call that filled `info` (zeroed before
/// the call) saw that child end: an exit, a kill or a core dump (`si_code` `CLD_EXITED`,
/// `CLD_KILLED`, `CLD_DUMPED`, with `si_signo` `SIGCHLD`). A stopped or continued child is not
/// an ended one: Darwin's `waitid` may report a stopped child even without `WSTOPPED`
/// (swiftlang/swift-subprocess issue 371); with `WNOHANG` and no change, nothing is filled in.
///
/// It reads only `si_signo` and `si_code`, which are plain members of `siginfo_t` in glibc and
/// Darwin alike (`si_pid` is a macro over a union in glibc, which Swift cannot import, and the
/// union is named differently by each C library), so the caller's `P_PID` says whose end it is.
///
/// - Complexity: O(1).
package func waitedChildEnded(_ info: siginfo_t) -> Bool {
    let code = Int(info.si_code)
    return info.si_signo == SIGCHLD && (code == Int(CLD_EXITED) || code == Int(CLD_KILLED) || code == Int(CLD_DUMPED))
}

/// The path to start this very executable again with, for a worker process: on Linux
/// `/proc/self/exe`, which names this process's executable even if the file was replaced or
/// removed since; elsewhere the executable's absolute path (Darwin: `_NSGetExecutablePath`,
/// resolved with `realpath`). `nil` when it cannot be found.
///
/// - Complexity: at most two system calls.
package func executablePathForSpawning() -> String? {
    #if os(Linux)
    return "/proc/self/exe"
    #else
    return executablePath()
    #endif
}

/// The absolute path of this process's executable file, symbolic links resolved: Linux reads the
/// link `/proc/self/exe`; Darwin asks `_NSGetExecutablePath` and resolves it with `realpath`.
/// `nil` when it cannot be found.
///
/// - Complexity: at most two system calls.
package func executablePath() -> String? {
    #if canImport(Darwin)
    var size: UInt32 = 0
    _ = _NSGetExecutablePath(nil, &size)
    guard size > 0, size < 1 << 20 else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(size) + 1)
    guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
    guard let resolved = realpath(buffer, nil) else {
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    defer { free(resolved) }
    return String(cString: resolved)
    #else
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
}

/// Whether the process `pid` has exited but not been waited for (it then still answers
/// `kill(pid, 0)`); `true` too when it cannot be told (no such process).
///
/// Linux reads the state letter of `/proc/PID/stat`. Darwin has no `/proc`: `sysctl(CTL_KERN,
/// KERN_PROC, KERN_PROC_PID)` gives the process's `kinfo_proc`, whose `kp_proc.p_stat` is `SZOMB`
/// for a zombie (any process, not only a child of this one).
///
/// - Complexity: one read of a small file, or one system call.
package func processIsZombie(_ pid: pid_t) -> Bool {
    #if os(Linux)
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return true }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 512)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return true }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let close = text.lastIndex(of: ")") else { return false }
    return text[text.index(after: close)...].dropFirst().first == "Z"
    #else
    guard let record = _darwinProcessInfo(pid) else { return true }
    return record.kp_proc.p_stat == _darwinZombieState
    #endif
}

/// Whether the child `pid` has ended (without reaping it: `waitid(WNOHANG | WNOWAIT)`), or is not
/// a child of this process.
///
/// - Complexity: one system call (more only when interrupted).
package func processHasEnded(_ pid: pid_t) -> Bool {
    while true {
        // Zeroed on every call: with WNOHANG and no change, waitid may leave it as it was.
        var info = siginfo_t()
        let polled = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        if polled < 0 && errno == EINTR { continue }
        return polled < 0 || waitedChildEnded(info)
    }
}

/// Whether this platform lets DiffLab `fork()`: Linux yes; Darwin no (Swift marks `fork`
/// unavailable there, and forking a process with libdispatch or XCTest threads is unsafe), so
/// crash isolation starts a worker process instead.
package let platformCanFork: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()

/// `fork()` where ``platformCanFork``; elsewhere -1 with `errno` set to `ENOSYS`.
///
/// - Complexity: one system call (the child's pages are copied on write).
package func forkProcess() -> pid_t {
    #if os(Linux)
    return fork()
    #else
    errno = ENOSYS
    return -1
    #endif
}
