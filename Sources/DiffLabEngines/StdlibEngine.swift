import DiffLabCore

/// Swift's own `CollectionDifference`, adapted to DiffLab's contract: the reference every
/// benchmark compares against.
///
/// ## Pairing contract
/// The identifier arrays are diffed with `newIDs.difference(from: oldIDs)` (the standard
/// library's Myers-based longest-common-subsequence diff) and `inferringMoves()` associates each
/// removal with an insertion of an equal identifier. Elements the standard library leaves in
/// place pair in order; associated removal/insertion pairs are paired too (they become moves or
/// not under the chosen ``MoveStrategy``). Everything else is a delete or an insert.
/// A matched pair is updated when its own content differs (one flag per pair).
///
/// ## Duplicates
/// Whatever the standard library does: its LCS keeps some occurrences in place, and
/// `inferringMoves()` associates a removal with an insertion only when that identifier is removed
/// exactly once and inserted exactly once. So, unlike the other engines, it may leave a removed
/// and an inserted occurrence of one identifier unpaired (a delete plus an insert where the others
/// report a move). Every pair is between equal identifiers.
///
/// - Complexity: that of `difference(from:)`, O((n + m) · D) time for D differences and, as the
///   standard library keeps its search trace, O(D²) space in the worst case; plus O(n + m).
public struct StdlibEngine: DiffEngine {
    /// `"stdlib"`, the name on the command line and in reports.
    public var name: String { BuiltInEngines.Name.stdlib }

    /// Duplicates supported; the pairing's reference is ``EngineReference/uniqueIdentifiers``.
    public var promises: EnginePromises { EnginePromises(reference: .uniqueIdentifiers) }

    /// Creates the engine. It has no state.
    public init() {}

    /// Pairs through `CollectionDifference`; see the type's documentation.
    @inlinable
    public func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) -> Matching {
        var matching = Matching(oldCount: old.count, newCount: new.count)
        let oldIDs = old.map { $0.diffIdentifier }
        let newIDs = new.map { $0.diffIdentifier }
        let difference = newIDs.difference(from: oldIDs).inferringMoves()
        var removed = [Bool](repeating: false, count: old.count)
        var inserted = [Bool](repeating: false, count: new.count)
        for change in difference {
            switch change {
            case let .remove(offset, _, associatedWith):
                removed[offset] = true
                if let n = associatedWith { matching.pair(old: offset, new: n) }
            case let .insert(offset, _, _):
                inserted[offset] = true
            }
        }
        // What the difference leaves alone pairs up in order.
        var o = 0
        for n in new.indices where !inserted[n] {
            while removed[o] { o += 1 }
            matching.pair(old: o, new: n)
            o += 1
        }
        for n in new.indices {
            let o = matching.newToOld[n]
            if o >= 0 && new[n]._isUpdated(from: old[o], comparison: comparison) {
                matching.updated[n] = true
            }
        }
        return matching
    }
}
