import DiffLabPlatform
import Testing

/// The typed signal masks, the null signal and a signal's default action (wt-lower's additions).
/// Signals are raised in the calling thread only, while blocked there, so no other thread of the
/// test process is ever hit.
@Suite("DiffLabPlatform: signal masks")
struct SignalMaskTests {
    @Test func aMaskHoldsExactlyItsSignals() {
        let mask = SignalMask([.brokenPipe, .user1])
        #expect(mask.contains(.brokenPipe) && mask.contains(.user1))
        #expect(!mask.contains(.terminate) && !mask.contains(.user2))
        #expect(!SignalMask([]).contains(.brokenPipe))
    }

    @Test func aBlockedRaisedSignalIsPendingUntilTaken() {
        let mask = SignalMask([.user2])
        let previous = mask.block()
        defer { previous.install() }
        #expect(takePendingSignal(mask) == nil)
        Signal.user2.raiseInThisThread()
        #expect(SignalMask.pending().contains(.user2))
        #expect(takePendingSignal(mask) == .user2)
        #expect(!SignalMask.pending().contains(.user2))
        // Blocked again by `block()` while already blocked: the previous mask says so.
        let again = mask.block()
        #expect(again.contains(.user2))
        again.install()
    }

    @Test func waitingForAPendingSignalReturnsIt() {
        let mask = SignalMask([.user1])
        let previous = mask.block()
        defer { previous.install() }
        Signal.user1.raiseInThisThread()
        #expect(waitForSignal(mask) == .user1)
        #expect(!SignalMask.pending().contains(.user1))
    }

    @Test func theNullSignalOnlyChecksThatTheProcessExists() throws {
        try sendSignal(.null, to: currentProcessID())
        let child = try spawnProcess(SpawnRequest("/bin/sh", ["-c", "exit 0"], environment: processEnvironment()))
        #expect(reapChild(child)?.exitStatus == 0)
        #expect(throws: PlatformError.self) { try sendSignal(.null, to: child) }
    }

    /// A forked child restores a signal's default action, unblocks it and raises it: it ends by
    /// that signal (an exit status would mean the raise or the unblocking did nothing).
    @Test(.enabled(if: platformCanFork, "fork is Linux's only (Darwin starts worker processes)"))
    func aRaisedUnblockedSignalWithItsDefaultActionEndsTheProcess() throws {
        let mask = SignalMask([.user1])
        let previous = mask.block()
        defer { previous.install() }
        let pid = forkProcess()
        if pid == 0 {
            Signal.user1.restoreDefaultAction()
            Signal.user1.raiseInThisThread()  // pending: still blocked here
            mask.unblock()
            exitProcessImmediately(3)
        }
        #expect(pid > 0)
        #expect(reapChild(pid)?.signal == .user1)
    }

    /// A forked child suspended until a signal comes is ended by SIGTERM, not by its own exit.
    @Test(.enabled(if: platformCanFork, "fork is Linux's only (Darwin starts worker processes)"))
    func suspendingWaitsForASignal() throws {
        let pid = forkProcess()
        if pid == 0 {
            SignalMask([]).install()
            suspendUntilSignal()
            exitProcessImmediately(3)
        }
        #expect(pid > 0)
        sleep(seconds: 0.05)
        try sendSignal(.terminate, to: pid)
        #expect(reapChild(pid)?.signal == .terminate)
    }
}
