import DiffLabCore
import DiffLabPlatform

/// Busy-waits `seconds` (nothing for 0 or less): modelled main-thread work.
///
/// - Precondition: `seconds` is finite (callers clamp it to the time left in the run).
func spin(_ seconds: Double) {
    precondition(seconds.isFinite, "spin: seconds must be finite (got \(seconds))")
    guard seconds > 0 else { return }
    let end = monotonicNow() + seconds
    while monotonicNow() < end {}
}

/// Sleeps until `deadline` on the monotonic clock (returns at once when it has passed). With a
/// `wake` condition, sleeps in slices of at most 50 ms (one slice for a frame at 60 Hz or more)
/// and returns as soon as `wake()` is true.
///
/// - Complexity: one `wake()` call per 50 ms slept.
func sleep(until deadline: Double, wakingWhen wake: (() -> Bool)? = nil) {
    while true {
        let left = deadline - monotonicNow()
        guard left > 0 else { return }
        if let wake, wake() { return }
        sleep(seconds: min(left, wake == nil ? 1 : 0.05))
    }
}

/// Runs a closure on a new POSIX thread (the simulated app's main thread).
final class PosixThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private let finished = Locked(false)

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    var isFinished: Bool { finished.withLock { $0 } }

    /// Starts the thread. - Precondition: a thread can be made (`pthread_create` succeeds).
    func start() {
        let started = PlatformThread.start(detached: true) {
            self.body()
            self.finished.withLock { $0 = true }
        }
        precondition(started != nil, "PosixThread: cannot start a thread")
    }
}
