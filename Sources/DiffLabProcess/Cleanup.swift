import DiffLabCore
import DiffLabPlatform

/// What a run must undo when it is interrupted: temporary files and folders it made, and worker
/// processes it started.
///
/// ## Interruption (SIGINT, SIGTERM, SIGHUP)
/// ``installSignalHandling()`` (called once by the `difflab` executable before any thread starts)
/// blocks those signals in every thread and waits for them on a thread of its own. When one
/// arrives, that thread:
/// 1. marks the run interrupted, so no output file is renamed into place from then on (see
///    the command line's `OutputFile`) and a thread waiting for a worker parks instead of
///    reporting the worker's death;
/// 2. sends SIGTERM to every registered child process, and SIGKILL to those still alive after two
///    seconds;
/// 3. removes every registered temporary file and folder;
/// 4. ends the process by the same signal, so the shell sees `128 + signal`.
///
/// Child processes start with the signals unblocked and at their default action (see
/// ``spawnProcess(_:_:environment:stdout:stderr:argumentZero:)``). A DiffLab worker also calls
/// ``exitWhenOrphaned()``, so it stops even when its parent was killed with SIGKILL.
///
/// On the normal path each command removes what it made itself (with `defer`); the registry only
/// matters for interruption. In-process callers (the tests) never install signal handling, and
/// registering is harmless there.
package final class Cleanup: Sendable {
    /// The process-wide registry.
    package static let shared = Cleanup()

    private struct State {
        var files: Set<String> = []
        var directories: Set<String> = []
        var children: Set<Int32> = []
        var interrupted = false
    }

    private let state = Locked(State())

    /// Whether a signal has started the cleanup.
    package var isInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Registers a temporary file to remove on interruption. - Complexity: O(1).
    package func register(file path: String) { state.withLock { _ = $0.files.insert(path) } }
    /// Forgets a temporary file (it was renamed or removed). - Complexity: O(1).
    package func unregister(file path: String) { state.withLock { _ = $0.files.remove(path) } }
    /// Starts a child process with `start` (returning 0 on success, like `posix_spawn`) and
    /// registers the id `pid()` then gives, both under the registry's lock, so an interruption sees
    /// the child or prevents it: once interrupted, nothing new starts (the calling thread parks).
    ///
    /// - Returns: what `start` returned.
    package func startChild(_ start: () -> Int32, registering pid: () -> Int32) -> Int32 {
        let result: Int32? = state.withLock { state in
            guard !state.interrupted else { return nil }
            let status = start()
            if status == 0 { state.children.insert(pid()) }
            return status
        }
        guard let result else {
            parkIfInterrupted()
            return -1
        }
        return result
    }
    /// Forgets a child process (it was waited for). - Complexity: O(1).
    package func unregister(child pid: Int32) { state.withLock { _ = $0.children.remove(pid) } }

    /// Makes a new private folder `<TMPDIR or /tmp>/<prefix>-XXXXXX`, registered for removal on
    /// interruption. The caller removes it with ``removeTemporaryDirectory(_:)`` when done.
    ///
    /// - Throws: ``ProcessError/cannotCreateTemporaryFolder(base:reason:)`` with the system's reason.
    package func makeTemporaryDirectory(_ prefix: String) throws(ProcessError) -> String {
        var base = environmentValue("TMPDIR") ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        let path: String
        do throws(PlatformError) {
            path = try FileSystem.makeTemporaryDirectory(prefix, in: base)
        } catch {
            throw .cannotCreateTemporaryFolder(base: base, reason: error.message)
        }
        state.withLock { _ = $0.directories.insert(path) }
        return path
    }

    /// Removes a folder made by ``makeTemporaryDirectory(_:)`` with everything in it, and forgets it.
    package func removeTemporaryDirectory(_ path: String) {
        FileSystem.removeTree(path)
        state.withLock { _ = $0.directories.remove(path) }
    }

    /// Parks the calling thread for good when the run is interrupted (the cleanup thread is about
    /// to end the process); returns at once otherwise.
    package func parkIfInterrupted() {
        guard isInterrupted else { return }
        while true { suspendUntilSignal() }
    }

    /// The signals that interrupt a run: SIGINT, SIGTERM, SIGHUP.
    package static let signals: [Signal] = [.interrupt, .terminate, .hangup]

    /// ``signals`` as a set for the signal calls.
    package static func signalSet() -> SignalMask { SignalMask(signals) }

    private static let installed = Locked(false)
    /// Whether ``installSignalHandling()`` ran: this is the `difflab` executable, not an
    /// in-process caller such as the tests.
    package static var isSignalHandlingInstalled: Bool { installed.withLock { $0 } }

    /// Whether the signal thread has done all its Swift work and is about to wait in `sigwait`.
    private static let waiting = Locked(false)

    /// Blocks the interrupting signals and starts the thread that waits for them; see the type's
    /// documentation. Call once, first thing in `main`, before any other thread exists.
    ///
    /// Returns only once that thread is about to wait: `difflab fuzz` forks, and a fork copies
    /// whatever locks another thread holds at that moment. A thread still starting up may hold
    /// one of the Swift runtime's (its first array allocation instantiates type metadata under
    /// the metadata cache's lock); the forked child would then block forever on its first use of
    /// that lock. Waiting, the thread runs no Swift code until a signal comes.
    package static func installSignalHandling() {
        installed.withLock { $0 = true }
        _ = signalSet().block()
        _ = PlatformThread.start(detached: true) {
            let set = Cleanup.signalSet()
            // A first call that returns at once binds the symbols (lazy binding runs in the
            // dynamic loader), so after `waiting` the thread only blocks in the kernel.
            let pending: Signal? = takePendingSignal(set)
            Cleanup.waiting.withLock { $0 = true }
            Cleanup.shared.interrupt(by: pending ?? waitForSignal(set))
        }
        while !waiting.withLock({ $0 }) { sleep(seconds: 0.000_05) }
    }

    /// For a worker process: ends this process (after cleaning up) when its parent dies, polling
    /// the parent's id every 200 ms.
    package static func exitWhenOrphaned() {
        _ = PlatformThread.start(detached: true) {
            let parent = parentProcessID()
            while parentProcessID() == parent { sleep(seconds: 0.2) }
            Cleanup.shared.interrupt(by: .terminate)
        }
    }

    /// Runs the cleanup and ends the process by `signal`.
    private func interrupt(by signal: Signal) {
        let (files, directories, children) = state.withLock { state in
            state.interrupted = true
            return (state.files, state.directories, state.children)
        }
        for child in children { try? sendSignal(.terminate, to: child) }
        // Signal 0 (kill(pid, 0)) succeeds while the id names a process, a zombie included.
        func exists(_ child: Int32) -> Bool { (try? sendSignal(.null, to: child)) != nil }
        var waited = 0
        while waited < 20 && children.contains(where: { exists($0) && !processIsZombie($0) }) {
            sleep(seconds: 0.1)
            waited += 1
        }
        for child in children where exists(child) { try? sendSignal(.kill, to: child) }
        for file in files { try? FileSystem.removeFile(file) }
        for directory in directories { FileSystem.removeTree(directory) }
        signal.restoreDefaultAction()
        SignalMask([signal]).unblock()
        signal.raiseInThisThread()
        exitProcessImmediately(128 + signal.rawValue)
    }

}
