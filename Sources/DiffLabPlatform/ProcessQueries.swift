#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// The id of this process's parent (`getppid`; the same on Darwin). When the parent has ended,
/// the process is re-parented (to `launchd`, 1, on Darwin; to init or a subreaper on Linux), so
/// a change of this value tells a worker it was orphaned. - Complexity: O(1).
package func parentProcessID() -> pid_t { getppid() }

/// The value of the environment variable `name` (`getenv`; the same on Darwin), or `nil` when it
/// is not set. An empty value is returned as `""`.
///
/// - Complexity: O(size of the environment).
package func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Unmaps `bytes` of memory at `memory` (`munmap`; the same on Darwin): a mapping
/// ``mapSharedAnonymousMemory(_:)`` or ``mapSharedFile(_:bytes:create:)`` made, with the size it
/// was made with. Returns whether it succeeded.
///
/// - Complexity: one system call.
@discardableResult
package func unmapSharedMemory(_ memory: UnsafeMutableRawPointer, bytes: Int) -> Bool {
    munmap(memory, bytes) == 0
}
