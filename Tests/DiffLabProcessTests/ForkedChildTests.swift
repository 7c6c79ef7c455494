import DiffLabCore
import DiffLabPlatform
import Testing

@testable import DiffLabProcess

/// Forked children (`forkChild`), as crash-isolated fuzzing makes them.
@Suite("Forked children", .enabled(if: platformCanFork, "fork is unavailable here (Darwin): crash isolation spawns workers"))
struct ForkedChildTests {
    /// A forked child that runs Swift code on two threads at once does not stall. Both threads
    /// first use the same lazily initialized statics, whose slow initializers make the second
    /// thread wait on `swift_once`'s lock; run on the child's main thread (which inherits the
    /// parent's cached thread id), about a third of such children spun forever.
    @Test func aForkedChildRunsSwiftOnTwoThreadsWithoutStalling() throws {
        for round in 0..<20 {
            let pid = try forkChild {
                guard let other = PlatformThread.start(detached: false, { _ = SlowStatics.sum }) else { exitProcessImmediately(2) }
                let mine = SlowStatics.sum
                other.join()
                exitProcessImmediately(mine == SlowStatics.sum ? 0 : 1)
            }
            let deadline = monotonicNow() + 20
            while !processHasEnded(pid) && monotonicNow() < deadline { sleep(seconds: 0.01) }
            let stalled = !processHasEnded(pid)
            if stalled { try? sendSignal(.kill, to: pid) }
            let status = waitProcessStatus(pid)
            Cleanup.shared.unregister(child: pid)
            #expect(!stalled, "child \(round) stalled")
            #expect(status == 0, "child \(round): \(describeWaitStatus(status))")
            if stalled { break }
        }
    }
}

/// Statics only forked children touch (so each child initializes them anew), each slow to
/// initialize.
private enum SlowStatics {
    static func slow(_ seed: Int) -> Int {
        var value = seed
        for i in 0..<2_000_000 { value = value &* 31 &+ i }
        return value
    }
    static let a = slow(1)
    static let b = slow(2)
    static let c = slow(3)
    static let d = slow(4)
    static var sum: Int { a &+ b &+ c &+ d }
}
