#if canImport(Glibc)
import Glibc
#endif

// The clocks every layer times with (the fuzzer's run and check limits, the bench's samples, the
// policy lab's threads): one definition, so two layers never disagree on what a second is.

/// Seconds on `clock` (a `clock_gettime` clock id).
private func seconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Seconds on the monotonic clock: wall time that never jumps. - Complexity: O(1).
package func monotonicNow() -> Double { seconds(CLOCK_MONOTONIC) }

/// This thread's CPU seconds. - Complexity: O(1).
package func threadCPUNow() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

/// This process's CPU seconds (all threads). - Complexity: O(1).
package func processCPUNow() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }
