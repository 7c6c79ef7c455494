import DiffLabCore

/// An element as every adapter hands it to its library: DiffLab's element with the run's
/// comparison, so the library's identity and content checks ask DiffLab's (``Diffable``).
///
/// Each adapter wraps its input the same way (one `Boxed` per element, O(n)), and the identity
/// adapter (``IdentityAdapterEngine``) does exactly that around DiffLab's own `hashmap`, so the
/// arena measures what wrapping and converting cost instead of charging it to a library.
public struct Boxed<Element: Diffable> {
    /// DiffLab's element.
    public let element: Element
    /// How a pair of versions is judged updated.
    public let comparison: ComparisonOption

    /// The element's identifier.
    public var id: Element.DiffIdentifier { element.diffIdentifier }

    /// Whether `other`, another version of the same item, looks the same (not updated).
    public func sameContent(as other: Boxed) -> Bool { !element._isUpdated(from: other.element, comparison: comparison) }

    /// `element`, judged with `comparison`.
    public init(element: Element, comparison: ComparisonOption) {
        self.element = element
        self.comparison = comparison
    }

    /// `list`, each element wrapped.
    ///
    /// - Complexity: O(n).
    public static func wrap(_ list: [Element], _ comparison: ComparisonOption) -> [Boxed] {
        list.map { Boxed(element: $0, comparison: comparison) }
    }
}

/// Equal when the identifiers are equal and the contents are the same: what libraries that diff
/// by `==` (Differ, `CollectionDifference`) and those that find updates with `==` among equal
/// identities (Differentiator, ListDiff) need.
extension Boxed: Hashable {
    public static func == (a: Boxed, b: Boxed) -> Bool { a.id == b.id && a.sameContent(as: b) }
    /// The identifier's hash: equal boxes have equal identifiers. (`inferringMoves()` needs it.)
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A section identifier for libraries whose section models must conform to their protocols.
public struct SectionKey<ID: Hashable>: Hashable {
    /// DiffLab's section identifier.
    public let id: ID
}

extension Boxed: Sendable where Element: Sendable {}
extension SectionKey: Sendable where ID: Sendable {}
