#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

extension FileSystem {
    /// Sets the permission bits of `path` (`chmod`, following a symbolic link), e.g. `0o755` to
    /// make a script executable. The same call on Darwin (`mode_t` is 16 bits there, 32 on Linux).
    ///
    /// - Throws: ``PlatformError`` naming `chmod` and `path`.
    /// - Complexity: one system call.
    package static func setPermissions(_ path: String, _ permissions: UInt16) throws(PlatformError) {
        guard chmod(path, mode_t(permissions)) == 0 else { throw .current("chmod", path: path) }
    }
}
