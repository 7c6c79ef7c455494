/// A ``DiffResult`` together with the lists it was computed from, answering "where is the item
/// with this identifier?" in either list.
///
/// Index lookups follow IGListKit's `oldIndexForIdentifier:` / `newIndexForIdentifier:`: with
/// duplicate identifiers the **last** occurrence wins.
public struct DiffLookup<Element: Diffable> {
    /// The old list.
    public let old: [Element]
    /// The new list.
    public let new: [Element]
    /// The changes from ``old`` to ``new``.
    public let result: DiffResult
    @usableFromInline let oldIndexByID: [Element.DiffIdentifier: Int]
    @usableFromInline let newIndexByID: [Element.DiffIdentifier: Int]

    /// Wraps `result`, the diff of `old` into `new`, and builds both identifier lookups.
    ///
    /// - Complexity: O(old.count + new.count).
    @inlinable
    public init(old: [Element], new: [Element], result: DiffResult) {
        self.old = old
        self.new = new
        self.result = result
        var oldIndexByID: [Element.DiffIdentifier: Int] = [:]
        oldIndexByID.reserveCapacity(old.count)
        for (i, e) in old.enumerated() { oldIndexByID[e.diffIdentifier] = i }
        var newIndexByID: [Element.DiffIdentifier: Int] = [:]
        newIndexByID.reserveCapacity(new.count)
        for (i, e) in new.enumerated() { newIndexByID[e.diffIdentifier] = i }
        self.oldIndexByID = oldIndexByID
        self.newIndexByID = newIndexByID
    }

    /// Index in ``old`` of the last element with identifier `id`, or `nil` if there is none.
    ///
    /// - Complexity: O(1) on average.
    @inlinable
    public func oldIndex(for id: Element.DiffIdentifier) -> Int? { oldIndexByID[id] }

    /// Index in ``new`` of the last element with identifier `id`, or `nil` if there is none.
    ///
    /// - Complexity: O(1) on average.
    @inlinable
    public func newIndex(for id: Element.DiffIdentifier) -> Int? { newIndexByID[id] }

    /// Index path of the last old element with identifier `id` in `section`, or `nil`.
    @inlinable
    public func oldIndexPath(for id: Element.DiffIdentifier, section: Int) -> ItemIndexPath? {
        oldIndex(for: id).map { ItemIndexPath(section: section, item: $0) }
    }

    /// Index path of the last new element with identifier `id` in `section`, or `nil`.
    @inlinable
    public func newIndexPath(for id: Element.DiffIdentifier, section: Int) -> ItemIndexPath? {
        newIndex(for: id).map { ItemIndexPath(section: section, item: $0) }
    }
}

extension DiffLookup: Sendable where Element: Sendable, Element.DiffIdentifier: Sendable {}
