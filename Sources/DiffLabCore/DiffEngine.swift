/// A diff engine: decides how the elements of an old and a new list pair up.
///
/// An engine implements one method, ``matching(from:to:comparison:)``. Everything a caller sees —
/// inserts, deletes, updates, moves under either ``MoveStrategy``, index paths, the batch-safe form
/// — is derived from that pairing by shared code, so engines differ only where they should: which
/// occurrences they pair and how fast.
///
/// Conforming types document their pairing contract, complexity and duplicate handling.
public protocol DiffEngine: Sendable {
    /// The engine's name on the command line and in reports (`heckel`, `hashmap`, ...).
    var name: String { get }

    /// What the engine promises beyond a sound pairing; see ``EnginePromises``. The default
    /// promises nothing but duplicate support. (Moves are derived by DiffLab under a
    /// ``MoveStrategy``, so ``EnginePromises/minimalMoves`` is not used for pairing engines.)
    var promises: EnginePromises { get }

    /// Pairs the elements of `old` with those of `new` and flags updated pairs under `comparison`.
    ///
    /// The result must satisfy ``Matching``'s invariants and pair only elements with equal
    /// identifiers.
    func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) -> Matching

    /// How many threads the shared derivation of a result (``DiffResult/init(matching:moves:threads:)``)
    /// may use for lists of these lengths. The default is 1; the result is the same for any count.
    func derivationThreads(oldCount: Int, newCount: Int) -> Int
}

extension DiffEngine {
    /// No promise beyond a sound pairing; duplicates supported.
    public var promises: EnginePromises { EnginePromises() }

    /// 1: results are derived on the calling thread.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func derivationThreads(oldCount: Int, newCount: Int) -> Int { 1 }

    /// The changes that turn `old` into `new`.
    ///
    /// - Parameters:
    ///   - old: the elements before the change.
    ///   - new: the elements after the change.
    ///   - comparison: how a matched pair is judged updated (default ``ComparisonOption/equality``).
    ///   - moves: how moves are chosen (default ``MoveStrategy/offsets``, IGListKit's rule).
    /// - Complexity: the engine's matching cost plus O(n) (`offsets`) or O(n log n) (`minimal`).
    @inlinable
    public func diff<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption = .equality,
        moves: MoveStrategy = .offsets
    ) -> DiffResult {
        DiffResult(
            matching: matching(from: old, to: new, comparison: comparison), moves: moves,
            threads: derivationThreads(oldCount: old.count, newCount: new.count))
    }

    /// The changes that turn `old` into `new`, addressed as index paths of one section that is
    /// `fromSection` in the old state and `toSection` in the new state.
    ///
    /// - Complexity: as ``diff(from:to:comparison:moves:)``.
    @inlinable
    public func diff<Element: Diffable>(
        from old: [Element], to new: [Element], fromSection: Int, toSection: Int,
        comparison: ComparisonOption = .equality, moves: MoveStrategy = .offsets
    ) -> IndexPathDiffResult {
        IndexPathDiffResult(
            base: diff(from: old, to: new, comparison: comparison, moves: moves),
            fromSection: fromSection, toSection: toSection)
    }

    /// The changes together with both lists, for looking indices up by identifier.
    ///
    /// - Complexity: as ``diff(from:to:comparison:moves:)`` plus O(n) to build the lookups.
    @inlinable
    public func diffLookup<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption = .equality,
        moves: MoveStrategy = .offsets
    ) -> DiffLookup<Element> {
        DiffLookup(old: old, new: new, result: diff(from: old, to: new, comparison: comparison, moves: moves))
    }
}
