#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// Registers `handler` to run when this process ends normally (`atexit`: after `main` returns or
/// ``exitProcess(_:)``, not after ``exitProcessImmediately(_:)`` or a signal), handlers in the
/// reverse order of registration; whether it was registered. `handler` captures nothing (a C
/// function pointer): it reaches what it needs through globals. The same call on Darwin.
///
/// - Complexity: O(1).
@discardableResult
package func runAtExit(_ handler: @escaping @convention(c) () -> Void) -> Bool {
    atexit(handler) == 0
}
