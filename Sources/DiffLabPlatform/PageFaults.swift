#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// The page faults of this process so far, every thread's: `ru_minflt` (served without reading
/// a disk) and `ru_majflt` (needing one) of ``processResourceUsage()``. Both fields are counts,
/// of the C type `long`, on Linux and Darwin alike (unlike `ru_maxrss`, whose unit differs).
///
/// - Complexity: one system call.
package func processPageFaults() -> (minor: Int, major: Int) {
    let usage = processResourceUsage()
    return (Int(usage.ru_minflt), Int(usage.ru_majflt))
}
