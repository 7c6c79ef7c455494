import DiffLabPlatform

/// Forks a child that runs `body` (which must end the process), registered with ``Cleanup`` like
/// every child, so an interruption stops it. The child unblocks the signals this process blocks
/// for its cleanup thread, and runs `body` on a new thread (see ``runOnNewThread(_:)``). (A
/// campaign process also ends itself when this process is gone: see
/// `FuzzSlots.finished(worker:input:large:checks:)` in DiffLabFuzz.)
///
/// The child must run Swift code only (no Foundation, no locks another thread of this process
/// may hold) and end with ``endChild(_:)``.
///
/// - Throws: ``ProcessError/cannotFork(reason:)`` when `fork` fails, or where this platform has
///   no `fork` (``platformCanFork``: Darwin; start a worker process instead).
package func forkChild(_ body: () -> Never) throws(ProcessError) -> Int32 {
    guard platformCanFork else { throw .cannotFork(reason: "fork is unavailable on this platform (start a worker process instead)") }
    var pid: Int32 = -1
    let parent = currentProcessID()
    let started = Cleanup.shared.startChild { () -> Int32 in
        pid = forkProcess()
        return pid < 0 ? PlatformError.current("fork").code.rawValue : 0
    } registering: {
        pid
    }
    if pid == 0 {
        SignalMask([]).install()
        if parentProcessID() != parent { exitProcessImmediately(9) }
        runOnNewThread(body)
    }
    guard started == 0 else {
        throw .cannotFork(reason: PlatformError.Code(rawValue: started).message)
    }
    return pid
}

/// Runs `body` (which ends the process) on a new thread of this forked child, the main thread
/// only waiting for it.
///
/// The Swift runtime's locks on Linux (`ulock`, behind `swift_once` and the metadata caches)
/// store the owning thread's id, which each thread caches in thread-local storage. A forked
/// child's main thread inherits the parent main thread's cached id, so whenever it contends for
/// such a lock with another thread (a second fuzzing worker instantiating the same generic
/// metadata at the same moment), the kernel's priority-inheritance futex sees the wrong owner and
/// both threads spin forever. That was the campaign child's rare stall (about one run in twenty
/// of `difflab fuzz --seconds 0.2` under load; both workers found spinning in `once_slow` by
/// `gdb`). A new thread starts with no cached id.
private func runOnNewThread(_ body: () -> Never) -> Never {
    withoutActuallyEscaping(body) { body in
        guard let thread = PlatformThread.start(detached: false, { body() }) else { exitProcessImmediately(9) }
        thread.join()
        exitProcessImmediately(9)
    }
}

/// Ends a forked child with `status`: with `_exit` (no exit handler of the parent's runs twice),
/// except under coverage instrumentation (`LLVM_PROFILE_FILE` set, as Scripts/fuzz-coverage does),
/// where `exit` lets the profile runtime write this process's coverage from its exit handler.
/// (With `exit` always, one clean-clone CI run saw a mutant's fuzzer never end; not reproduced
/// since, so plain runs keep `_exit`.)
package func endChild(_ status: Int32) -> Never {
    if environmentValue("LLVM_PROFILE_FILE") != nil { exitProcess(status) }
    exitProcessImmediately(status)
}

/// In a forked child: restores the default action of the signals a crash raises (SIGILL, SIGTRAP,
/// SIGABRT, SIGBUS, SIGFPE, SIGSEGV), so a trap ends the child at once by its signal. The Swift
/// runtime's crash handler (on by default on Linux, `SWIFT_BACKTRACE`) would first start
/// `swift-backtrace` and symbolicate for seconds — time a supervisor would take for a hang — and
/// leave that process behind when the child is stopped meanwhile.
package func restoreDefaultCrashHandling() {
    for signal: Signal in [.illegalInstruction, .trap, .abort, .bus, .floatingPoint, .segmentationFault] { signal.restoreDefaultAction() }
}
