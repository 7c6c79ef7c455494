import DiffLabPlatform
import Testing

/// The bytes of a value, to compare two signal masks without the C library.
private func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

/// The signal-mask pieces tests use (Signals+tests.swift): a set, blocking and restoring a
/// thread's mask, a signal sent to this thread only, and a disposition set back to the default.
@Suite("DiffLabPlatform: signal masks for tests")
struct SignalMaskTests {
    @Test func aSignalBlockedInThisThreadIsPendingHereAndTheMaskIsRestored() {
        let previous = blockSignalsInThisThread(signalSet([.user2]))
        defer { setThreadSignalMask(previous) }
        // Blocking nothing more answers the mask as it is now: it holds SIGUSR2.
        let blocked = blockSignalsInThisThread(signalSet([]))
        sendSignalToThisThread(.user2)
        #expect(takePendingSignal(signalSet([.user1])) == nil, "a set without the signal takes nothing")
        #expect(takePendingSignal(blocked) == Signal.user2.rawValue)
        #expect(takePendingSignal(blocked) == nil)
        setThreadSignalMask(previous)
        #expect(bytes(blockSignalsInThisThread(signalSet([]))) == bytes(previous), "the mask is back as it was")
        #expect(bytes(signalSet([.user1, .user2])) != bytes(signalSet([.user2])))
        #expect(bytes(signalSet([.user2, .user1])) == bytes(signalSet([.user1, .user2])))
    }

    @Test func aDispositionIsSetBackToTheDefaultOnlyForASignal() {
        // SIGUSR1's default (ending the process) is what it has in a test run: setting it again
        // changes nothing, and it is never sent here.
        #expect(Signal.user1.setDefaultAction())
        #expect(!Signal(rawValue: 1000).setDefaultAction())
        #expect(!Signal(rawValue: 0).setDefaultAction())
    }
}
