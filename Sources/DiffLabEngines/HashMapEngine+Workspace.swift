import DiffLabCore

// `hashmap` for callers that diff again and again (an app re-diffing its feed every few hundred
// milliseconds): the buffers of one diff are kept for the next.

extension HashMapEngine {
    /// A `hashmap` diff that keeps its buffers between calls: the matching, the partitions, the
    /// join tables, the chains, and the result's own arrays.
    ///
    /// A one-off ``HashMapEngine/diff(from:to:comparison:moves:)`` allocates its buffers and
    /// frees them on return; an allocator that hands large blocks back to the kernel (jemalloc
    /// does) then faults every page in again on the next call. A workspace allocates only while
    /// its buffers grow, so in a steady state of similar sizes it allocates nothing for the pairing
    /// and faults no page.
    ///
    /// ```swift
    /// let workspace = HashMapEngine.Workspace()
    /// for snapshot in snapshots {
    ///     let changes = workspace.diff(from: shown, to: snapshot)
    ///     apply(changes)          // let go of `changes` before the next call
    ///     shown = snapshot
    /// }
    /// ```
    ///
    /// - **Output.** Exactly the engine's ``HashMapEngine/diff(from:to:comparison:moves:)``, on
    ///   every input (the fuzzer checks `hashmap-reused` against `heckel`).
    /// - **The result shares the workspace's arrays.** If the caller still holds the previous
    ///   result at the next call, the arrays it shares are copied (copy-on-write) or replaced, so
    ///   that result never changes; reuse pays only when the caller has let go of it.
    /// - **Memory.** A workspace holds about as much as its largest diff used (``retainedBytes``,
    ///   about 40 to 60 bytes per element); ``releaseMemory()`` gives it back.
    /// - **Threads.** A workspace is a class that is not `Sendable`: use one per thread (or per
    ///   actor), or guard one with a lock, as ``Reusing`` does. Its ``engine``'s own threads (a
    ///   parallel pairing) are used inside one call as with the engine alone.
    /// - **Not reused:** minimal moves' longest increasing run, and lists of more than
    ///   `Int32.max / 4` old elements (their wide single table).
    ///
    /// - Complexity: as the engine's diff; O(1) allocations per call in a steady state (none when
    ///   the caller lets go of each result and the engine runs on one thread).
    public final class Workspace {
        /// The engine whose diff the workspace runs.
        public let engine: HashMapEngine
        @usableFromInline var _scratch = _HashMapScratch()

        /// A workspace for `engine` (`hashmap` by default), holding nothing yet.
        public init(engine: HashMapEngine = HashMapEngine()) {
            self.engine = engine
        }

        /// The changes that turn `old` into `new`: ``HashMapEngine/diff(from:to:comparison:moves:)``
        /// in the workspace's buffers.
        ///
        /// - Complexity: as the engine's diff.
        @inlinable
        public func diff<Element: Diffable>(
            from old: [Element], to new: [Element], comparison: ComparisonOption = .equality, moves: MoveStrategy = .offsets
        ) -> DiffResult {
            var scratch = _take(&_scratch, leaving: _HashMapScratch())
            defer { _scratch = scratch }
            var clock = _Untimed()
            engine._pairAll(old, new, comparison, &clock, &scratch)
            let matching = scratch.matching
            return DiffResult(
                matching: matching, moves: moves,
                threads: engine.derivationThreads(oldCount: old.count, newCount: new.count), reusing: &scratch.derivation)
        }

        /// The engine's pairing of `old` and `new` in the workspace's buffers: its arrays are the
        /// workspace's until the next call (holding it then makes that call copy them).
        ///
        /// - Complexity: as the engine's matching.
        @inlinable
        public func matching<Element: Diffable>(
            from old: [Element], to new: [Element], comparison: ComparisonOption = .equality
        ) -> Matching {
            var scratch = _take(&_scratch, leaving: _HashMapScratch())
            defer { _scratch = scratch }
            var clock = _Untimed()
            engine._pairAll(old, new, comparison, &clock, &scratch)
            return scratch.matching
        }

        /// The result derived from `matching` in the workspace's result arrays (as
        /// ``DiffResult/init(matching:moves:threads:)``, on the engine's derivation threads).
        ///
        /// - Complexity: as ``DiffResult/init(matching:moves:threads:)``.
        @inlinable
        public func derive(_ matching: Matching, moves: MoveStrategy = .offsets) -> DiffResult {
            DiffResult(
                matching: matching, moves: moves,
                threads: engine.derivationThreads(oldCount: matching.oldToNew.count, newCount: matching.newToOld.count),
                reusing: &_scratch.derivation)
        }

        /// The bytes of buffer storage the workspace holds (capacities; shared with a result the
        /// caller still holds, when it does).
        ///
        /// - Complexity: O(threads).
        public var retainedBytes: Int { _scratch.retainedBytes }

        /// Frees every buffer; the next call allocates them again.
        ///
        /// - Complexity: O(threads).
        public func releaseMemory() {
            _scratch = _HashMapScratch()
        }
    }

    /// A ``DiffEngine`` that diffs through one ``Workspace`` behind a lock: `hashmap-reused`,
    /// the built-in variant that puts the workspace under the fuzzer.
    ///
    /// Every call reuses the buffers the previous call left, whatever the element type, so a
    /// fuzzer's sequence of inputs checks that nothing left over changes a result. The lock makes
    /// it safe to share; calls are serialized. Its pairing runs through the workspace
    /// (``matching(from:to:comparison:)``), and so does ``derive(_:moves:)``, which the fuzzer
    /// uses for its results.
    ///
    /// Not specialized for the element type (its calls are generic), so it is slower than the
    /// engine it wraps: it is for checking, not for speed. A caller that wants speed holds a
    /// ``Workspace`` per thread.
    public struct Reusing: DiffEngine {
        private let workspace: Serialized<Workspace>

        /// The engine the workspace runs.
        public let engine: HashMapEngine

        /// `engine`'s name.
        public var name: String { engine.name }

        /// `engine`'s promises.
        public var promises: EnginePromises { engine.promises }

        /// A variant of `engine` whose calls share one workspace.
        public init(engine: HashMapEngine) {
            self.engine = engine
            self.workspace = Serialized(Workspace(engine: engine))
        }

        /// The workspace's pairing; the result is copied out of its buffers, so the caller may
        /// keep it.
        ///
        /// - Complexity: as the engine's matching, plus O(n + m) to copy.
        public func matching<Element: Diffable>(
            from old: [Element], to new: [Element], comparison: ComparisonOption
        ) -> Matching {
            workspace.withLock { workspace in
                let shared = workspace.matching(from: old, to: new, comparison: comparison)
                // Copies (an `Array` of a buffer), so the workspace keeps the only reference.
                return Matching(
                    oldToNew: shared.oldToNew.withUnsafeBufferPointer { Array($0) },
                    newToOld: shared.newToOld.withUnsafeBufferPointer { Array($0) },
                    updated: shared.updated.withUnsafeBufferPointer { Array($0) })
            }
        }

        /// The result derived from `matching` in the workspace's result arrays.
        ///
        /// - Complexity: as ``DiffResult/init(matching:moves:threads:)``.
        public func derive(_ matching: Matching, moves: MoveStrategy) -> DiffResult {
            workspace.withLock { $0.derive(matching, moves: moves) }
        }

        /// The engine's derivation threads.
        public func derivationThreads(oldCount: Int, newCount: Int) -> Int {
            engine.derivationThreads(oldCount: oldCount, newCount: newCount)
        }
    }

    /// `hashmap-reused`: ``partitionedEverywhere``'s rules (every list partitioned into partitions
    /// of about 3, on 2 threads, the trimming cross-checks hashing) through one shared
    /// ``Workspace``, so that the fuzzer's inputs, one after another, reuse every buffer of both
    /// paths and of the parallel derivation.
    public static var reusedEverywhere: Reusing {
        Reusing(
            engine: HashMapEngine(partitioning: .fuzzing(threshold: 1), threads: 2, name: BuiltInEngines.Name.hashmapReused, trimming: .fuzzing))
    }
}
