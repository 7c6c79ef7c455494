/// How a matched pair of elements is judged changed.
///
/// Mirrors IGListKit's `IGListDiffOption`.
public enum ComparisonOption: String, Sendable, Hashable, CaseIterable {
    /// The elements' ``Diffable/isContentEqual(to:)`` decides: a matched pair whose content differs
    /// is an update. (`IGListDiffEquality`.)
    case equality
    /// A matched pair that is not the same class instance is an update, whatever its content.
    /// (`IGListDiffPointerPersonality`.) Value types have no identity and are compared by content.
    case identity
}

/// How moves are chosen once an engine has paired old and new elements.
///
/// Both strategies give a valid batch update; they differ in how many moves they report.
public enum MoveStrategy: String, Sendable, Hashable, CaseIterable {
    /// IGListKit's rule: a matched item moves when
    /// `oldIndex − (deletes before oldIndex) + (inserts before newIndex) ≠ newIndex`.
    /// O(n). Simple and what IGListKit users expect, but one item moved far can make every item in
    /// between a move.
    case offsets
    /// The fewest moves that still give a valid update: the longest increasing subsequence of
    /// matched old indices (taken in new order) stays in place, every other matched item moves.
    /// O(n log n).
    case minimal
}
