import DiffLabCore

// `hashmap`'s diff, phase by phase: what the bench's phase table measures, so the next
// bottleneck is measured rather than guessed.

extension HashMapEngine {
    /// One step of a `hashmap` diff, in the order they run.
    public enum Phase: String, CaseIterable, Sendable, Hashable {
        /// The common prefix and suffix found by comparing identifiers in list order, and the
        /// walk along equal runs (a walk that gives up is charged to the next phase).
        case trim
        /// Both lists hashed and radix-partitioned (partitioned pairing), or the one table built
        /// over the old list (the single-table pairing), and the distinct-identifier sample.
        case partition
        /// Each partition's table built and probed (partitioned), or the new list probed (one
        /// table), or the walk's check.
        case join
        /// Each pair's identifiers compared and its update judged, partitions repaired, update
        /// flags merged per identifier.
        case verify
        /// The trimmed ends and the middle put together, the suffix checked and the flags merged
        /// across them.
        case assemble
        /// The result derived from the matching (``DiffResult/init(matching:moves:threads:)``).
        case derive
        /// The batch-safe form (``DiffResult/forBatchUpdates()``).
        case batch
    }

    /// Seconds spent in each ``Phase`` of one diff (0 for a phase that did not run).
    public struct PhaseTimes: Sendable, Hashable {
        /// Seconds by phase, in the order of `Phase.allCases`.
        public var seconds: [Double]

        /// All zero.
        public init() { seconds = Array(repeating: 0, count: Phase.allCases.count) }

        /// Seconds spent in `phase`.
        public subscript(phase: Phase) -> Double {
            get { seconds[Phase.allCases.firstIndex(of: phase)!] }
            set { seconds[Phase.allCases.firstIndex(of: phase)!] = newValue }
        }

        /// The sum over every phase.
        public var total: Double { seconds.reduce(0, +) }
    }

    /// One diff, its batch-safe form and the time spent in each phase: the same work as
    /// ``diff(from:to:comparison:moves:)`` followed by ``DiffResult/forBatchUpdates()``, with one
    /// clock reading between phases (a few tens of nanoseconds each; no reading inside a loop).
    ///
    /// - Complexity: as ``diff(from:to:comparison:moves:)`` plus the batch form's O(n).
    @inlinable
    public func timedDiff<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption = .equality, moves: MoveStrategy = .offsets
    ) -> (result: DiffResult, batch: DiffResult, phases: PhaseTimes) {
        var clock = _PhaseTimer()
        let matching: Matching
        if old.isEmpty || new.isEmpty {
            matching = Matching(oldCount: old.count, newCount: new.count)
            clock.lap(.assemble)
        } else {
            var scratch = _HashMapScratch()
            _pairAll(old, new, comparison, &clock, &scratch)
            matching = scratch.matching
        }
        let threads = derivationThreads(oldCount: old.count, newCount: new.count)
        let result = DiffResult(matching: matching, moves: moves, threads: threads)
        clock.lap(.derive)
        let batch = result.forBatchUpdates(threads: threads)
        clock.lap(.batch)
        return (result, batch, clock.times)
    }
}

/// What the pairing's steps report their end to: nothing (``_Untimed``, every diff) or a timer
/// (``_PhaseTimer``, ``HashMapEngine/timedDiff(from:to:comparison:moves:)``). Generic, so the
/// untimed calls compile to nothing.
@usableFromInline
protocol _PhaseClock {
    /// The phase that just ended: the time since the previous lap is charged to it.
    mutating func lap(_ phase: HashMapEngine.Phase)
}

/// No clock: every `lap` is empty.
///
/// It holds one byte it never uses: a value of an empty type has no storage, so every `_Untimed`
/// on every thread would share one placeholder address, and ThreadSanitizer reports the `inout`
/// accesses of concurrent diffs to it as races (it did, 1,057 times, in the policy lab's tests).
@usableFromInline
struct _Untimed: _PhaseClock {
    @usableFromInline var _storage: UInt8 = 0
    @inlinable init() {}
    @inlinable @inline(__always) mutating func lap(_ phase: HashMapEngine.Phase) {}
}

/// The monotonic clock, read at each lap.
@usableFromInline
struct _PhaseTimer: _PhaseClock {
    @usableFromInline var last: Double
    @usableFromInline var times = HashMapEngine.PhaseTimes()

    @usableFromInline init() { last = monotonicNow() }

    @usableFromInline mutating func lap(_ phase: HashMapEngine.Phase) {
        let now = monotonicNow()
        times[phase] += now - last
        last = now
    }
}
