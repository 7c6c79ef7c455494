import DiffLabCore

/// A list of sections, each with an identifier and items: the model a collection view shows.
public struct SectionedList<SectionID: Hashable, Element: Diffable> {
    /// One section.
    public struct Section {
        /// The section's identifier.
        public var id: SectionID
        /// The section's items.
        public var items: [Element]

        /// A section `id` holding `items`.
        public init(id: SectionID, items: [Element]) {
            self.id = id
            self.items = items
        }
    }

    /// The sections, in order.
    public var sections: [Section]

    /// A list of `sections`.
    public init(_ sections: [Section]) { self.sections = sections }

    /// The item count of every section, in order: what a data source reports.
    @inlinable
    public var itemCounts: [Int] { sections.map { $0.items.count } }

    /// The item at `path`, or `nil` when there is none.
    @inlinable
    public subscript(path: ItemIndexPath) -> Element? {
        guard sections.indices.contains(path.section), sections[path.section].items.indices.contains(path.item)
        else { return nil }
        return sections[path.section].items[path.item]
    }
}

extension SectionedList {
    /// The same sections with every item mapped by `transform`: the same model presented as
    /// another element type.
    ///
    /// - Complexity: O(items).
    @inlinable
    public func mapElements<T: Diffable>(_ transform: (Element) throws -> T) rethrows -> SectionedList<SectionID, T> {
        SectionedList<SectionID, T>(try sections.map { .init(id: $0.id, items: try $0.items.map(transform)) })
    }
}

extension SectionedList.Section: Equatable where Element: Equatable {}
extension SectionedList.Section: Hashable where Element: Hashable {}
extension SectionedList.Section: Sendable where Element: Sendable, SectionID: Sendable {}
extension SectionedList: Equatable where Element: Equatable {}
extension SectionedList: Hashable where Element: Hashable {}
extension SectionedList: Sendable where Element: Sendable, SectionID: Sendable {}
