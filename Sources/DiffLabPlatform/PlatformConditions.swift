#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

// Named conditions for tests that cannot hold on every platform: a test is disabled by one of
// these (or by ``platformHasProcFileSystem`` or ``platformCanFork``), with its reason, rather than
// by an `#if` around it, so the test still compiles everywhere and the condition says why.

/// Whether this platform tells DiffLab another process's peak resident set size (`VmHWM:` of
/// `/proc/PID/status`, read by ``procStatusBytes(_:pid:)``): Linux yes. Darwin has no `/proc`, and
/// DiffLab asks it for no other figure, so an engine process's peak is recorded as absent there
/// (``procStatusBytes(_:pid:)`` answers `nil`).
package let platformReadsAnotherProcessPeakMemory: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()

/// Whether a test that needs jemalloc must fail when it is missing (Linux: CI installs
/// `libjemalloc2`, so a missing library is a broken setup to report) rather than be skipped
/// (Darwin: jemalloc comes from Homebrew, which a Mac need not have; see ``JemallocLibrary``).
/// Tests use it as `.enabled(if: JemallocLibrary.installedPath() != nil || platformRequiresJemalloc)`.
package let platformRequiresJemalloc: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()
