/// The position of an item in a sectioned list: a section index and an item index inside it.
///
/// The Linux-friendly stand-in for the two-element `IndexPath` UIKit uses for collection view
/// items. Ordered by section, then item.
public struct ItemIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The item index inside the section.
    public var item: Int

    /// Creates the index path of `item` in `section`.
    @inlinable
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Whether `a` comes before `b`: by section, then by item.
    @inlinable
    public static func < (a: ItemIndexPath, b: ItemIndexPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    /// `[section, item]`.
    public var description: String { "[\(section), \(item)]" }
}

/// A move of one item between index paths.
public struct IndexPathMove: Hashable, Sendable, CustomStringConvertible {
    /// Index path in the old state.
    public var from: ItemIndexPath
    /// Index path in the new state.
    public var to: ItemIndexPath

    /// Creates a move from `from` (old state) to `to` (new state).
    @inlinable
    public init(from: ItemIndexPath, to: ItemIndexPath) {
        self.from = from
        self.to = to
    }

    /// `[s, i]→[s, i]`.
    public var description: String { "\(from)→\(to)" }
}

/// A diff of one section's items, addressed by index path: IGListKit's `IGListIndexPathResult`.
///
/// Old-state indices (deletes, updates, move sources) carry ``fromSection``; new-state indices
/// (inserts, move destinations) carry ``toSection``, so a section can be diffed while it also
/// changes position. Every list keeps the order of the flat ``base`` result.
public struct IndexPathDiffResult: Hashable, Sendable {
    /// Section of the items in the old state.
    public let fromSection: Int
    /// Section of the items in the new state.
    public let toSection: Int
    /// The same diff as flat indices.
    public let base: DiffResult

    /// Wraps the flat result `base` of one section that moves from `fromSection` to `toSection`.
    @inlinable
    public init(base: DiffResult, fromSection: Int, toSection: Int) {
        self.base = base
        self.fromSection = fromSection
        self.toSection = toSection
    }

    /// Inserted items, in ``toSection``. O(k) to build.
    public var inserts: [ItemIndexPath] { base.inserts.map { ItemIndexPath(section: toSection, item: $0) } }
    /// Deleted items, in ``fromSection``. O(k) to build.
    public var deletes: [ItemIndexPath] { base.deletes.map { ItemIndexPath(section: fromSection, item: $0) } }
    /// Updated items, in ``fromSection``. O(k) to build.
    public var updates: [ItemIndexPath] { base.updates.map { ItemIndexPath(section: fromSection, item: $0) } }
    /// Moved items, ``fromSection`` → ``toSection``, ascending by destination. O(k) to build.
    public var moves: [IndexPathMove] {
        base.moves.map {
            IndexPathMove(
                from: ItemIndexPath(section: fromSection, item: $0.from),
                to: ItemIndexPath(section: toSection, item: $0.to))
        }
    }
    /// See ``DiffResult/changeCount``.
    @inlinable public var changeCount: Int { base.changeCount }
    /// See ``DiffResult/hasChanges``.
    @inlinable public var hasChanges: Bool { base.hasChanges }

    /// The batch-safe form; see ``DiffResult/forBatchUpdates()``. Equals IGListKit's
    /// `-[IGListIndexPathResult resultForBatchUpdates]` for unique identifiers.
    ///
    /// - Complexity: O(n).
    public func forBatchUpdates() -> IndexPathDiffResult {
        IndexPathDiffResult(base: base.forBatchUpdates(), fromSection: fromSection, toSection: toSection)
    }
}
