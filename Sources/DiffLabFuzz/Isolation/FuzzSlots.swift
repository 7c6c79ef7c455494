import DiffLabCore
import DiffLabPlatform
import DiffLabProcess

/// The memory a campaign process shares with its supervisor: one slot per worker, holding what
/// the worker is checking and what it has checked. Each worker writes only its own slot, so the
/// words need no lock; the supervisor reads them while the child runs (a hang) or after it died.
///
/// Slot layout, in 64-bit words: 0 state (1 while a check runs), 1 input index, 2 subject,
/// 3 property, 4 list size, 5 start of the check (monotonic nanoseconds), 6 choice count
/// (`UInt64.max`: too many to keep), 7 inputs done, 8 checks done, 9 large lists, 10 largest
/// input, 11 the highest input index started plus one, then the inputs per element kind (one
/// word per kind), then the choices (at most ``choiceCapacity``).
package final class FuzzSlots: FuzzWatcher, @unchecked Sendable {
    // @unchecked: the memory is written by one worker per slot and read by the supervisor, which
    // only acts on what it reads after confirming it (by replaying the check).
    private let base: UnsafeMutablePointer<UInt64>
    private let workers: Int
    /// The supervising process.
    private let supervisor: Int32
    private static let kinds = FuzzElementKind.allCases
    private static let header = 12 + kinds.count
    /// The most choices a slot keeps: more than a generated input can have (``DataSource`` draws at
    /// most 100,000).
    static let choiceCapacity = 1 << 17
    private static var words: Int { header + choiceCapacity }

    /// Maps the shared memory for `workers` slots (pages are only touched as they are used).
    /// - Throws: ``FuzzIsolationError/sharedMemory(bytes:)`` when the memory cannot be mapped.
    convenience init(workers: Int) throws(FuzzIsolationError) {
        try self.init(workers: workers, supervisor: currentProcessID()) { mapSharedAnonymousMemory($0) }
    }

    /// Maps the slots for `workers` in a new file at `path` (0600, in the supervisor's private
    /// folder), shared with a worker process that ``init(workers:attaching:)`` them.
    /// - Throws: ``FuzzIsolationError/sharedMemory(bytes:)`` when the file cannot be made or mapped.
    convenience init(workers: Int, file path: String) throws(FuzzIsolationError) {
        try self.init(workers: workers, supervisor: currentProcessID()) { mapSharedFile(path, bytes: $0, create: true) }
    }

    /// In a worker process its supervisor started: maps the slots file at `path`, which must be a
    /// regular file of exactly the size of `workers` slots (a hostile or stale path is refused).
    /// The supervisor is the parent process.
    /// - Throws: ``FuzzIsolationError/sharedMemory(bytes:)`` when it cannot be mapped.
    convenience init(workers: Int, attaching path: String) throws(FuzzIsolationError) {
        try self.init(workers: workers, supervisor: parentProcessID()) { mapSharedFile(path, bytes: $0, create: false) }
    }

    /// The slots of `workers` in the memory `map` gives for their size in bytes.
    private init(workers: Int, supervisor: Int32, map: (Int) -> UnsafeMutableRawPointer?) throws(FuzzIsolationError) {
        self.workers = workers
        self.supervisor = supervisor
        let bytes = Self.bytes(workers: workers)
        guard let memory = map(bytes) else { throw .sharedMemory(bytes: bytes) }
        base = memory.bindMemory(to: UInt64.self, capacity: workers * Self.words)
    }

    /// The bytes of `workers` slots.
    static func bytes(workers: Int) -> Int { workers * words * 8 }

    /// Where a campaign process writes each failure it finds, one JSON record per line (see
    /// ``FuzzSupervisor/record(_:)``); `nil` until ``openFindings(_:)``.
    private var findings: FileDescriptor?
    private let findingsLock = Locked(())

    deinit {
        findings?.closeIgnoringErrors()
        unmapSharedMemory(base, bytes: Self.bytes(workers: workers))
    }

    /// In the campaign process: creates the findings file at `path` (a new file in the run's
    /// private folder); `false` when it cannot, or when a findings file is open already (that one
    /// stays).
    func openFindings(_ path: String) -> Bool {
        guard findings == nil else { return false }
        let options: FileDescriptor.Options = [.create, .exclusive, .noFollow, .append]
        guard let descriptor = try? FileDescriptor.open(path, .writeOnly, options: options, permissions: 0o600) else { return false }
        findings = descriptor
        return true
    }

    package func found(worker: Int, failure: FuzzFailure) {
        guard let findings else { return }
        let line = Array((FuzzSupervisor.record(failure).json.serialized() + "\n").utf8)
        findingsLock.withLock { _ in try? findings.writeAll(line) }
    }

    private func slot(_ worker: Int) -> UnsafeMutablePointer<UInt64> { base + worker * Self.words }

    /// Clears every slot's state and counts, before a new campaign process starts.
    func reset() {
        for worker in 0..<workers { slot(worker).update(repeating: 0, count: Self.header) }
    }

    package func input(worker: Int, index: Int, choices: [UInt64], size: Int) {
        let s = slot(worker)
        s[0] = 0
        s[1] = UInt64(truncatingIfNeeded: index)
        s[4] = UInt64(truncatingIfNeeded: size)
        s[11] = max(s[11], UInt64(truncatingIfNeeded: index) &+ 1)
        if choices.count <= Self.choiceCapacity {
            choices.withUnsafeBufferPointer { (s + Self.header).update(from: $0.baseAddress!, count: $0.count) }
            s[6] = UInt64(choices.count)
        } else {
            s[6] = .max
        }
    }

    package func check(worker: Int, subject: Int, property: Int) {
        let s = slot(worker)
        s[2] = UInt64(truncatingIfNeeded: subject)
        s[3] = UInt64(truncatingIfNeeded: property)
        s[5] = UInt64(truncatingIfNeeded: Int64(monotonicNow() * 1e9))
        s[0] = 1
    }

    package func finished(worker: Int, input: FuzzCase, large: Bool, checks: Int) {
        let s = slot(worker)
        s[0] = 0
        s[7] &+= 1
        s[8] &+= UInt64(truncatingIfNeeded: checks)
        if large { s[9] &+= 1 }
        s[10] = max(s[10], UInt64(input.old.count + input.new.count))
        if let kind = Self.kinds.firstIndex(of: input.elements) { s[12 + kind] &+= 1 }
        // Orphaned (the supervisor was killed outright): nobody reads the findings; stop.
        if currentProcessID() != supervisor && parentProcessID() != supervisor { exitProcessImmediately(9) }
    }

    /// A check in progress when the campaign process died or hung.
    struct ActiveCheck: Equatable {
        var worker: Int
        var index: Int
        var subject: Int
        var property: Int
        var size: Int
        var choices: [UInt64]
    }

    /// The checks in progress, by worker; those whose choices were too many to keep are left out.
    func activeChecks() -> [ActiveCheck] {
        (0..<workers).compactMap { worker in
            let s = slot(worker)
            guard s[0] == 1, s[6] != .max, s[6] <= UInt64(Self.choiceCapacity) else { return nil }
            return ActiveCheck(
                worker: worker, index: Int(truncatingIfNeeded: s[1]), subject: Int(truncatingIfNeeded: s[2]),
                property: Int(truncatingIfNeeded: s[3]), size: Int(truncatingIfNeeded: s[4]),
                choices: Array(UnsafeBufferPointer(start: s + Self.header, count: Int(s[6]))))
        }
    }

    /// The worker whose check in progress has run longest, and for how many seconds (0 when none
    /// runs).
    ///
    /// Read while the workers write, without a barrier: the state word may be seen before the
    /// start time of the same check, so a start time of 0 (the slot was just reset) counts as
    /// not started. Any other start time seen is that check's or its predecessor's (a few
    /// microseconds earlier); a hang is confirmed by replaying the check anyway.
    func longestRunningCheck() -> (worker: Int, seconds: Double) {
        let now = monotonicNow()
        var longest = (worker: 0, seconds: 0.0)
        for worker in 0..<workers where slot(worker)[0] == 1 && slot(worker)[5] != 0 {
            let seconds = now - Double(Int64(truncatingIfNeeded: slot(worker)[5])) / 1e9
            if seconds > longest.seconds { longest = (worker, seconds) }
        }
        return longest
    }

    /// A mark that changes whenever a worker starts or ends an input or a check (the sum of the
    /// state, input index, check start time and inputs done of every slot): the supervisor's sign
    /// of life from the process.
    func progressMark() -> UInt64 {
        (0..<workers).reduce(0) { mark, worker in
            let s = slot(worker)
            return mark &+ s[0] &+ (s[1] &<< 1) &+ s[5] &+ (s[7] &<< 32)
        }
    }

    /// The largest list size a worker is on now (its slot's size word).
    func currentSize() -> Int {
        (0..<workers).map { Int(truncatingIfNeeded: slot($0)[4]) }.max() ?? 0
    }

    /// The highest input index any worker started on since ``reset()`` (-1 when none did).
    func lastInputIndex() -> Int {
        (0..<workers).map { Int(truncatingIfNeeded: slot($0)[11]) - 1 }.max() ?? -1
    }

    /// Inputs and checks counted by a campaign process.
    struct Counts {
        var inputs = 0
        var checks = 0
        var large = 0
        var largest = 0
        var byKind: [FuzzElementKind: Int] = [:]

        mutating func add(_ other: Counts) {
            checks += other.checks
            large += other.large
            inputs += other.inputs
            largest = max(largest, other.largest)
            for (kind, count) in other.byKind { byKind[kind, default: 0] += count }
        }
    }

    /// What the slots counted since ``reset()``.
    func counts() -> Counts {
        var counts = Counts()
        for worker in 0..<workers {
            let s = slot(worker)
            guard s[7] > 0 else { continue }
            counts.inputs += Int(truncatingIfNeeded: s[7])
            counts.checks += Int(truncatingIfNeeded: s[8])
            counts.large += Int(truncatingIfNeeded: s[9])
            counts.largest = max(counts.largest, Int(truncatingIfNeeded: s[10]))
            for (k, kind) in Self.kinds.enumerated() where s[12 + k] > 0 {
                counts.byKind[kind, default: 0] += Int(truncatingIfNeeded: s[12 + k])
            }
        }
        return counts
    }
}
