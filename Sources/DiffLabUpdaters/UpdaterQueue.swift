/// What runs an updater's work: the deterministic scheduler (``UpdaterScheduler``) or real
/// Dispatch queues (the stress mode). Internal to DiffLab; updaters see ``UpdaterQueue`` only.
package protocol _UpdaterRuntime: AnyObject, Sendable {
    /// Queues `work` on queue `queue`, after `seconds` (0: as soon as the queue gets to it).
    func _enqueue(_ queue: _QueueID, after seconds: Double, label: String, work: @escaping @Sendable () -> Void)
    /// A new serial queue named `label`.
    func _makeSerialQueue(label: String) -> _QueueID
    /// Seconds since the run started (virtual in the scheduler, real in the stress mode).
    func _now() -> Double
    /// Whether the calling code runs on the main queue.
    func _isOnMain() -> Bool
}

/// A queue's identity inside a runtime.
package struct _QueueID: Hashable, Sendable {
    /// 0: main; 1: the global concurrent queue; 2 and up: serial queues, in the order made.
    package var raw: Int
    package static let main = _QueueID(raw: 0)
    package static let global = _QueueID(raw: 1)
}

/// A queue an updater runs work on: the main queue, a serial queue it made
/// (``UpdaterContext/makeSerialQueue(label:)``), or the global concurrent queue.
///
/// Under the deterministic scheduler, work runs when the scheduler picks its queue, so every
/// interleaving the queues allow can be explored and replayed; in the stress mode it runs on a
/// real `DispatchQueue`. The label of each piece of work is what a finding's timeline prints.
public struct UpdaterQueue: Sendable, CustomStringConvertible {
    let runtime: any _UpdaterRuntime
    let id: _QueueID
    /// The queue's name in timelines: `main`, `global`, or the label it was made with.
    public let label: String

    package init(runtime: any _UpdaterRuntime, id: _QueueID, label: String) {
        self.runtime = runtime
        self.id = id
        self.label = label
    }

    /// Runs `work` on this queue later, after the work already queued on it (a serial queue runs
    /// one piece at a time, in order; the global queue runs them in any order, at once).
    ///
    /// - Parameters:
    ///   - label: what the work does, for timelines (`diff v1→v3`).
    ///   - work: the work.
    public func async(_ label: String, _ work: @escaping @Sendable () -> Void) {
        runtime._enqueue(id, after: 0, label: label, work: work)
    }

    /// Runs `work` on this queue once `seconds` have passed (`DispatchQueue.asyncAfter`): a
    /// timer, which fires no earlier than its deadline and, under the scheduler, possibly later.
    /// A negative or non-finite delay counts as 0.
    public func asyncAfter(seconds: Double, _ label: String, _ work: @escaping @Sendable () -> Void) {
        runtime._enqueue(id, after: seconds.isFinite ? max(0, seconds) : 0, label: label, work: work)
    }

    /// `main`, `global` or the serial queue's label.
    public var description: String { label }
}
