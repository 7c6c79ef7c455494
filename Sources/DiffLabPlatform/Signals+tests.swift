#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// A set of signals, as ``takePendingSignal(_:)``, ``waitForSignal(_:)`` and the signal mask take
/// it (`sigemptyset` then `sigaddset` for each; the same calls on Linux and Darwin, whose
/// `sigset_t` is a bit mask of 32 bits where Linux's holds 1024).
///
/// - Complexity: O(`signals.count`).
package func signalSet(_ signals: [Signal]) -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal.rawValue) }
    return set
}

/// Adds `set` to the signals blocked in the calling thread (`pthread_sigmask(SIG_BLOCK)`) and
/// returns the mask it had before, for ``setThreadSignalMask(_:)``. The same call on Darwin.
///
/// - Complexity: one system call.
package func blockSignalsInThisThread(_ set: sigset_t) -> sigset_t {
    var set = set
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &set, &previous)
    return previous
}

/// Sets the calling thread's signal mask to `mask` (`pthread_sigmask(SIG_SETMASK)`), e.g. the one
/// ``blockSignalsInThisThread(_:)`` returned. The same call on Darwin.
///
/// - Complexity: one system call.
package func setThreadSignalMask(_ mask: sigset_t) {
    var mask = mask
    pthread_sigmask(SIG_SETMASK, &mask, nil)
}

/// Sends `signal` to the calling thread only (`pthread_kill(pthread_self(), ...)`), so it is
/// pending for this thread whatever other threads block. The same call on Darwin.
///
/// - Complexity: one system call.
package func sendSignalToThisThread(_ signal: Signal) {
    pthread_kill(pthread_self(), signal.rawValue)
}

extension Signal {
    /// Sets this signal's disposition in this process back to the system's default
    /// (`signal(number, SIG_DFL)`): for `SIGPIPE`, ending the process, as it is at the start of
    /// the `difflab` executable. Whether it did: `false` (`SIG_ERR`) for a number that is no
    /// signal. The same call on Darwin.
    ///
    /// - Complexity: one system call.
    @discardableResult
    package func setDefaultAction() -> Bool {
        // C function pointers are not Equatable in Swift: `SIG_ERR` (-1) is compared by its bits.
        let previous = signal(rawValue, SIG_DFL)
        return unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_ERR, to: Int.self)
    }
}
