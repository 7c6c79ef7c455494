import DiffLabCore

/// A move of a whole section: from its index before the update to its index after it.
public struct SectionMove: Hashable, Sendable, CustomStringConvertible {
    /// Section index before the update.
    public var from: Int
    /// Section index after the update.
    public var to: Int

    /// A move of section `from` (before) to `to` (after).
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// `from→to`.
    public var description: String { "\(from)→\(to)" }
}

/// One `UICollectionView.performBatchUpdates` call: the section and item operations it performs,
/// plus the item count of every section before and after it (what the data source reports).
///
/// Index spaces, as UIKit defines them: deletes, reloads and move sources address the state
/// **before** the update; inserts and move destinations the state **after** it. The order of the
/// calls inside the block does not matter: UIKit applies deletes (descending) before inserts
/// (ascending). A reload is a delete plus an insert of the same item.
///
/// ``validate()`` (or ``isValid``, ``violations()``) says whether UIKit would accept it;
/// ``apply(to:expecting:comparison:)`` applies it to a model; ``sanitized()`` repairs what it can.
public struct BatchUpdate: Hashable, Sendable {
    /// Item count of each section before the update; its length is the section count.
    public var itemCountsBefore: [Int]
    /// Item count of each section after the update; its length is the section count.
    public var itemCountsAfter: [Int]
    /// `insertSections(_:)`: indices after the update.
    public var insertSections: [Int]
    /// `deleteSections(_:)`: indices before the update.
    public var deleteSections: [Int]
    /// `reloadSections(_:)`: indices before the update.
    public var reloadSections: [Int]
    /// `moveSection(_:toSection:)`.
    public var moveSections: [SectionMove]
    /// `insertItems(at:)`: index paths after the update.
    public var insertItems: [ItemIndexPath]
    /// `deleteItems(at:)`: index paths before the update.
    public var deleteItems: [ItemIndexPath]
    /// `reloadItems(at:)`: index paths before the update.
    public var reloadItems: [ItemIndexPath]
    /// `moveItem(at:to:)`: from before, to after.
    public var moveItems: [IndexPathMove]

    /// An update; every list defaults to empty.
    public init(
        itemCountsBefore: [Int], itemCountsAfter: [Int], insertSections: [Int] = [], deleteSections: [Int] = [],
        reloadSections: [Int] = [], moveSections: [SectionMove] = [], insertItems: [ItemIndexPath] = [],
        deleteItems: [ItemIndexPath] = [], reloadItems: [ItemIndexPath] = [], moveItems: [IndexPathMove] = []
    ) {
        self.itemCountsBefore = itemCountsBefore
        self.itemCountsAfter = itemCountsAfter
        self.insertSections = insertSections
        self.deleteSections = deleteSections
        self.reloadSections = reloadSections
        self.moveSections = moveSections
        self.insertItems = insertItems
        self.deleteItems = deleteItems
        self.reloadItems = reloadItems
        self.moveItems = moveItems
    }

    /// Whether the update performs no operation at all.
    public var isEmpty: Bool {
        insertSections.isEmpty && deleteSections.isEmpty && reloadSections.isEmpty && moveSections.isEmpty
            && insertItems.isEmpty && deleteItems.isEmpty && reloadItems.isEmpty && moveItems.isEmpty
    }

    /// The same operations with every list sorted, for stable output and comparison: sections and
    /// index paths ascending, moves by destination.
    ///
    /// - Complexity: O(n) for lists already in order (each is checked first, and neither copied
    ///   nor sorted then), else O(n log n).
    public func normalized() -> BatchUpdate {
        var copy = self
        Self._sort(&copy.insertSections, by: <)
        Self._sort(&copy.deleteSections, by: <)
        Self._sort(&copy.reloadSections, by: <)
        Self._sort(&copy.moveSections) { ($0.to, $0.from) < ($1.to, $1.from) }
        Self._sort(&copy.insertItems, by: <)
        Self._sort(&copy.deleteItems, by: <)
        Self._sort(&copy.reloadItems, by: <)
        Self._sort(&copy.moveItems) { ($0.to, $0.from) < ($1.to, $1.from) }
        return copy
    }

    /// Sorts `list` by `less` unless it is in order already (then it is left alone: not copied).
    ///
    /// - Complexity: O(n) when in order, else O(n log n).
    private static func _sort<T>(_ list: inout [T], by less: (T, T) -> Bool) {
        var i = 1
        while i < list.count {
            if less(list[i], list[i - 1]) {
                list.sort(by: less)
                return
            }
            i += 1
        }
    }
}

extension BatchUpdate {
    /// The one-section batch update of a flat diff: `result` (usually
    /// ``DiffResult/forBatchUpdates()``) applied to section `section` of a single-section list.
    ///
    /// Updates become reloads. Sections before `section` are empty, so `section` costs O(section)
    /// memory; it must not be negative.
    ///
    /// - Complexity: O(section + changes).
    public init(_ result: DiffResult, section: Int = 0) {
        precondition(section >= 0, "BatchUpdate(_:section:): section must not be negative (got \(section))")
        let s = section
        self.init(
            itemCountsBefore: [Int](repeating: 0, count: s) + [result.oldCount],
            itemCountsAfter: [Int](repeating: 0, count: s) + [result.newCount],
            insertItems: result.inserts.map { ItemIndexPath(section: s, item: $0) },
            deleteItems: result.deletes.map { ItemIndexPath(section: s, item: $0) },
            reloadItems: result.updates.map { ItemIndexPath(section: s, item: $0) },
            moveItems: result.moves.map {
                IndexPathMove(from: ItemIndexPath(section: s, item: $0.from), to: ItemIndexPath(section: s, item: $0.to))
            })
    }
}
