#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// Takes one of `set`'s signals if one is pending for this thread, without waiting: its number,
/// or `nil` when none is. The signals must be blocked in this thread.
///
/// Linux: `sigtimedwait` with a zero timeout. Darwin has no `sigtimedwait`: `sigpending`, then
/// `sigwait`, which returns at once for a pending signal.
///
/// - Complexity: one or two system calls.
package func takePendingSignal(_ set: sigset_t) -> Int32? {
    var set = set
    #if canImport(Darwin)
    var pending = sigset_t()
    sigpending(&pending)
    var number: Int32 = 1
    var found = false
    while number < 32 {  // Darwin has 31 signals (NSIG is 32)
        if sigismember(&set, number) == 1 && sigismember(&pending, number) == 1 {
            found = true
            break
        }
        number += 1
    }
    guard found else { return nil }
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, number)
    var taken: Int32 = 0
    return sigwait(&only, &taken) == 0 ? taken : nil
    #else
    var zero = timespec(tv_sec: 0, tv_nsec: 0)
    let number = sigtimedwait(&set, nil, &zero)
    return number > 0 ? number : nil
    #endif
}

/// Waits, as long as it takes, for one of `set`'s signals (which must be blocked in every thread)
/// and returns its number.
///
/// - Complexity: blocks in the kernel; no CPU while waiting.
package func waitForSignal(_ set: sigset_t) -> Int32 {
    var set = set
    while true {
        #if canImport(Darwin)
        var number: Int32 = 0
        if sigwait(&set, &number) == 0 && number > 0 { return number }
        #else
        let number = sigtimedwait(&set, nil, nil)
        if number > 0 { return number }
        #endif
    }
}
