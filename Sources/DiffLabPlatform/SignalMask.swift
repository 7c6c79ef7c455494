#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// A set of signals as the signal-mask calls take it: a `sigset_t` filled with `sigemptyset` and
/// `sigaddset`. Darwin's `sigset_t` is a 32-bit mask (signals 1 to 31), Linux's holds 1024; the
/// calls are the same on both, so the type hides the difference.
package struct SignalMask: Sendable {
    /// The C set, for the calls of this layer that take one (``takePendingSignal(_:)``,
    /// ``waitForSignal(_:)``).
    package let set: sigset_t

    /// The set of `signals` (empty for none). - Complexity: O(`signals.count`).
    package init(_ signals: [Signal]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.rawValue) }
        self.set = set
    }

    private init(set: sigset_t) { self.set = set }

    /// Whether `signal` is in the set (`sigismember`). - Complexity: O(1).
    package func contains(_ signal: Signal) -> Bool {
        var set = set
        return sigismember(&set, signal.rawValue) == 1
    }

    /// Adds the set to the signals blocked in the calling thread (`pthread_sigmask(SIG_BLOCK)`, the
    /// same call on Darwin) and returns the thread's mask before, for ``SignalMask/install()``.
    ///
    /// - Complexity: one system call.
    package func block() -> SignalMask {
        var set = set
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        return SignalMask(set: previous)
    }

    /// Removes the set from the signals blocked in the calling thread
    /// (`pthread_sigmask(SIG_UNBLOCK)`; the same on Darwin). - Complexity: one system call.
    package func unblock() {
        var set = set
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Makes the set the calling thread's whole signal mask (`pthread_sigmask(SIG_SETMASK)`; the
    /// same on Darwin): `SignalMask([]).install()` unblocks every signal. - Complexity: one system call.
    package func install() {
        var set = set
        pthread_sigmask(SIG_SETMASK, &set, nil)
    }

    /// The signals pending for the calling thread or the process (`sigpending`; the same on
    /// Darwin). - Complexity: one system call.
    package static func pending() -> SignalMask {
        var set = sigset_t()
        sigpending(&set)
        return SignalMask(set: set)
    }
}

/// ``takePendingSignal(_:)`` for a ``SignalMask``: one of its signals if one is pending for this
/// thread (the signals must be blocked), without waiting. - Complexity: one or two system calls.
package func takePendingSignal(_ mask: SignalMask) -> Signal? {
    takePendingSignal(mask.set).map { Signal(rawValue: $0) }
}

/// ``waitForSignal(_:)`` for a ``SignalMask``: waits, as long as it takes, for one of its signals
/// (blocked in every thread). - Complexity: blocks in the kernel; no CPU while waiting.
package func waitForSignal(_ mask: SignalMask) -> Signal {
    Signal(rawValue: waitForSignal(mask.set))
}

/// Suspends the calling thread until a signal is delivered to it (`pause`; the same on Darwin).
/// A thread that blocks every signal it could get stays there for good, which is what a thread
/// parked for the end of the process wants. - Complexity: blocks in the kernel.
package func suspendUntilSignal() {
    pause()
}

extension Signal {
    /// The null signal (0): ``sendSignal(_:to:)`` with it sends nothing and only checks that the
    /// process exists and may be signalled (`kill(pid, 0)`, kill(2); the same on Darwin, where a
    /// zombie answers `ESRCH`: see ``processIsAlive(_:)``).
    /// (Not `none`: in a `Signal?` context `.none` would read as `nil`.)
    package static let null = Signal(rawValue: 0)

    /// Sets this signal's action in this process back to the system's default
    /// (`signal(number, SIG_DFL)`; the same call on Darwin). - Complexity: one system call.
    package func restoreDefaultAction() {
        _ = signal(rawValue, SIG_DFL)
    }

    /// Sends this signal to the calling thread (`raise`; the same on Darwin): with the default
    /// action and the signal unblocked, the process ends by it before this returns.
    ///
    /// - Complexity: one system call.
    package func raiseInThisThread() {
        _ = raise(rawValue)
    }
}
