#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// Where jemalloc's shared library is found and how a child process is started on it: DiffLab
/// does not link jemalloc, it inserts the library into a worker process of its own binary.
///
/// Linux: `libjemalloc.so.2` (Debian's `libjemalloc2`) in the multiarch folders, inserted with
/// `LD_PRELOAD`. Darwin: Homebrew's `libjemalloc.dylib` under `$HOMEBREW_PREFIX/lib`,
/// `/opt/homebrew/lib` (Apple silicon) or `/usr/local/lib` (Intel), inserted with
/// `DYLD_INSERT_LIBRARIES` (dyld(1)). System Integrity Protection removes `DYLD_*` variables when a
/// protected binary (one under /usr/bin, /bin, /System...) starts, see
/// https://developer.apple.com/library/archive/documentation/Security/Conceptual/System_Integrity_Protection_Guide/RuntimeProtections/RuntimeProtections.html;
/// DiffLab's worker is its own binary, so it normally works, and the worker reports the allocator
/// it really runs on (`mallctl` found or not), so a removed variable is seen, never assumed.
package enum JemallocLibrary {
    /// The environment variable that inserts a library into a starting process.
    ///
    /// - Complexity: O(1).
    package static func insertionVariable(_ platform: PlatformKind = .current) -> String {
        platform == .darwin ? "DYLD_INSERT_LIBRARIES" : "LD_PRELOAD"
    }

    /// The paths to try, in order, for `platform`; `homebrewPrefix` is `$HOMEBREW_PREFIX` when set.
    ///
    /// - Complexity: O(1).
    package static func candidatePaths(_ platform: PlatformKind, homebrewPrefix: String?) -> [String] {
        switch platform {
        case .linux:
            return [
                "/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
                "/lib/aarch64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
                "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2",
            ]
        case .darwin:
            var prefixes = ["/opt/homebrew", "/usr/local"]
            if let homebrewPrefix, homebrewPrefix.hasPrefix("/") {
                var trimmed = Substring(homebrewPrefix)
                while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
                prefixes.removeAll { $0 == trimmed }
                prefixes.insert(String(trimmed), at: 0)
            }
            return prefixes.map { $0 + "/lib/libjemalloc.dylib" }
        }
    }

    /// The first of ``candidatePaths(_:homebrewPrefix:)`` that `isReadable` accepts, or `nil`.
    ///
    /// - Complexity: at most one `isReadable` call per candidate.
    package static func path(
        _ platform: PlatformKind, homebrewPrefix: String?, isReadable: (String) -> Bool
    ) -> String? {
        candidatePaths(platform, homebrewPrefix: homebrewPrefix).first(where: isReadable)
    }

    /// This machine's jemalloc library, or `nil` when it is not installed.
    ///
    /// - Complexity: a few `access` calls.
    package static func installedPath() -> String? {
        path(.current, homebrewPrefix: getenv("HOMEBREW_PREFIX").map { String(cString: $0) }) { FileSystem.isAccessible($0, .read) }
    }

    /// What to install, in words for a message: `brew install jemalloc` on Darwin,
    /// `apt-get install libjemalloc2` on Linux.
    ///
    /// - Complexity: O(1).
    package static func installHint(_ platform: PlatformKind = .current) -> String {
        platform == .darwin
            ? "libjemalloc.dylib not found (brew install jemalloc)"
            : "libjemalloc.so.2 not found (apt-get install -y libjemalloc2, or libjemalloc-dev)"
    }
}
