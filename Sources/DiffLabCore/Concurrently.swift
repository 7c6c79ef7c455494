import Dispatch

// Work shared out over threads: one helper for every layer that runs a loop on several threads
// (the engines' partitioned pairing, the derivation of a result).

/// Runs `body(t)` for every `t` in `0..<threads`: on the calling thread when `threads` is 1,
/// otherwise concurrently on Dispatch's worker threads, returning when all have finished.
///
/// `body` must be safe to run concurrently with itself: callers give each `t` its own part of
/// the output and read shared input only. That is the caller's promise, not the compiler's (the
/// body captures buffer pointers), hence the unchecked box; ThreadSanitizer checks it in the tests.
@inlinable
package func _concurrently(_ threads: Int, _ body: (Int) -> Void) {
    if threads <= 1 {
        body(0)
        return
    }
    withoutActuallyEscaping(body) { body in
        let box = _UncheckedSendable(body)
        DispatchQueue.concurrentPerform(iterations: threads) { box.value($0) }
    }
}

/// A value handed to other threads on the caller's promise that they use it safely.
@usableFromInline
package struct _UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline package let value: Value
    @inlinable package init(_ value: Value) { self.value = value }
}
