#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// A POSIX thread running a Swift closure: `pthread_t` is an integer on Linux and a pointer on
/// Darwin, and the start routine's argument is optional on one and not on the other; this type
/// hides both.
package struct PlatformThread: @unchecked Sendable {
    #if canImport(Darwin)
    private var handle: pthread_t?
    #else
    private var handle = pthread_t()
    #endif

    /// Starts `body` on a new thread; `nil` when no thread can be made (`pthread_create` failed).
    /// A detached thread's resources go back when it ends; a joinable one must be ``join()``ed.
    ///
    /// - Complexity: one thread creation and one allocation (the closure's box).
    package static func start(detached: Bool, _ body: @escaping () -> Void) -> PlatformThread? {
        var thread = PlatformThread()
        let box = Unmanaged.passRetained(_ThreadBody(body)).toOpaque()
        guard pthread_create(&thread.handle, nil, _threadEntry, box) == 0 else {
            Unmanaged<_ThreadBody>.fromOpaque(box).release()
            return nil
        }
        if detached { thread.detach() }
        return thread
    }

    private init() {}

    /// Waits for the thread to end. - Complexity: one system call.
    package func join() {
        #if canImport(Darwin)
        if let handle { pthread_join(handle, nil) }
        #else
        pthread_join(handle, nil)
        #endif
    }

    private func detach() {
        #if canImport(Darwin)
        if let handle { pthread_detach(handle) }
        #else
        pthread_detach(handle)
        #endif
    }
}

/// The closure a ``PlatformThread`` runs, retained across `pthread_create`.
private final class _ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

#if canImport(Darwin)
private func _threadEntry(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<_ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
    return nil
}
#else
private func _threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    Unmanaged<_ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
    return nil
}
#endif
