#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// Seconds on `clock` (a `clock_gettime` clock id; Linux and Darwin both have the three below).
private func _seconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// This thread's CPU seconds (`CLOCK_THREAD_CPUTIME_ID`). - Complexity: O(1).
package func threadCPUNow() -> Double { _seconds(CLOCK_THREAD_CPUTIME_ID) }

/// This process's CPU seconds, all threads (`CLOCK_PROCESS_CPUTIME_ID`). - Complexity: O(1).
package func processCPUNow() -> Double { _seconds(CLOCK_PROCESS_CPUTIME_ID) }

/// This process's resource usage (`getrusage(RUSAGE_SELF)`: every thread's). Its `ru_maxrss`
/// is in kilobytes on Linux and in bytes on Darwin: read it through ``peakResidentBytes()``.
///
/// - Complexity: one system call.
package func processResourceUsage() -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}

/// The peak resident set size of this process in bytes (`ru_maxrss`, in the unit of each
/// platform: kilobytes on Linux, bytes on Darwin), saturating rather than overflowing.
///
/// - Complexity: one system call.
package func peakResidentBytes() -> Int {
    let peak = processResourceUsage().ru_maxrss
    #if canImport(Darwin)
    return max(0, peak)
    #else
    let (bytes, overflow) = peak.multipliedReportingOverflow(by: 1024)
    return overflow ? Int.max : max(0, bytes)
    #endif
}

/// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1. It counts the machine's,
/// not this process's: the CPUs a process may run on are `availableCores()` (DiffLabCore).
///
/// - Complexity: one system call.
package func onlineProcessors() -> Int {
    #if canImport(Darwin)
    return max(1, sysconf(_SC_NPROCESSORS_ONLN))
    #else
    return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #endif
}

/// The machine's physical memory in bytes (`_SC_PHYS_PAGES` × `_SC_PAGESIZE`); `nil` when
/// unknown.
///
/// - Complexity: two system calls.
package func physicalMemoryBytes() -> Int? {
    #if canImport(Darwin)
    let (pages, size) = (sysconf(_SC_PHYS_PAGES), sysconf(_SC_PAGESIZE))
    #else
    let (pages, size) = (sysconf(Int32(_SC_PHYS_PAGES)), sysconf(Int32(_SC_PAGESIZE)))
    #endif
    guard pages > 0, size > 0 else { return nil }
    let (bytes, overflow) = pages.multipliedReportingOverflow(by: size)
    return overflow ? nil : bytes
}

/// Maps `bytes` of anonymous memory shared with the children this process forks
/// (`MAP_SHARED | MAP_ANONYMOUS`; Darwin spells it `MAP_ANON`); `nil` when it cannot. Unmap it
/// with `munmap`.
///
/// - Complexity: one system call; pages are only touched as they are used.
package func mapSharedAnonymousMemory(_ bytes: Int) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
    let anonymous = MAP_ANON
    #else
    let anonymous = MAP_ANONYMOUS
    #endif
    guard bytes > 0, let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | anonymous, -1, 0), memory != _mapFailed
    else { return nil }
    return memory
}

/// The address of the symbol `name` in this process's global scope (`dlsym(RTLD_DEFAULT, name)`:
/// a null handle on Linux, -2 on Darwin), or `nil`.
///
/// - Complexity: one symbol lookup.
package func globalSymbol(_ name: String) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
    return dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)
    #else
    return dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)
    #endif
}

/// Maps the file at `path`, `bytes` long, shared with every process that maps it (`MAP_SHARED`):
/// memory a supervisor shares with a worker process it started, where no fork shares an anonymous
/// mapping. With `create`, makes a new file (it must not exist; mode 0600; sized with
/// `ftruncate`, so its pages cost nothing until touched); otherwise the file must already be a
/// regular file of exactly `bytes` (a worker attaching to its supervisor's). Symbolic links are
/// refused. `nil` when any step fails. Unmap it with `munmap`.
///
/// - Complexity: a few system calls.
package func mapSharedFile(_ path: String, bytes: Int, create: Bool) -> UnsafeMutableRawPointer? {
    guard bytes > 0 else { return nil }
    let flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0)
    let descriptor = open(path, flags, 0o600)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    if create {
        guard ftruncate(descriptor, off_t(bytes)) == 0 else { return nil }
    } else {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == bytes else { return nil }
    }
    guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), memory != _mapFailed else { return nil }
    return memory
}

/// `mmap`'s failure value, `(void *)-1`, which Swift cannot import from a C macro on every platform.
private var _mapFailed: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -1) }
