#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An element that a diff engine can pair across two versions of a list.
///
/// Modelled on IGListKit's `ListDiffable`. Two parts decide what a diff reports:
///
/// - ``diffIdentifier`` says *which* item an element is. An element keeps its identifier for its
///   whole life: an element whose identifier changed is a different item (a delete and an insert).
///   Identifiers need not be unique inside one list; every engine documents how it pairs duplicates.
/// - ``isContentEqual(to:)`` says whether two versions of the *same* item (equal identifiers) look
///   the same. A matched pair whose content differs is reported as an update.
///
/// Types whose identifier is their whole value (strings, integers, UUIDs) conform with no code:
/// their identifier is `self` and content equality is `==`. Any `Equatable` type gets `==` as its
/// default content check; override ``isContentEqual(to:)`` to compare less (or more).
public protocol Diffable {
    /// The identifier type; hashed and compared by every engine.
    associatedtype DiffIdentifier: Hashable

    /// The identity of this item. Must not change while the item lives.
    ///
    /// - Complexity: engines call this once or a few times per element; keep it O(1).
    var diffIdentifier: DiffIdentifier { get }

    /// Whether `other`, a version of the same item (equal ``diffIdentifier``), has the same content.
    ///
    /// Engines call this only on pairs whose identifiers are equal. It should be reflexive and
    /// symmetric; `false` marks the pair updated.
    func isContentEqual(to other: Self) -> Bool

    /// Whether the pair (`old`, `self`) must be reported as updated under `comparison`: what every
    /// engine asks of a matched pair. Not for conformers to implement: the two default
    /// implementations below (one for value types, one for classes) are the contract, and being a
    /// requirement lets a class's conformance pick the class one once, so engines specialized for
    /// the element type compare identities directly instead of casting each pair to `AnyObject`.
    func _isUpdated(from old: Self, comparison: ComparisonOption) -> Bool
}

extension Diffable where Self: Equatable {
    /// Content equality defaults to `==`.
    @inlinable
    public func isContentEqual(to other: Self) -> Bool { self == other }
}

extension Diffable where Self: Hashable, DiffIdentifier == Self {
    /// The value is its own identifier.
    @inlinable
    public var diffIdentifier: Self { self }
}

extension String: Diffable {}
extension Substring: Diffable {}
extension Character: Diffable {}
extension Int: Diffable {}
extension Int8: Diffable {}
extension Int16: Diffable {}
extension Int32: Diffable {}
extension Int64: Diffable {}
extension UInt: Diffable {}
extension UInt8: Diffable {}
extension UInt16: Diffable {}
extension UInt32: Diffable {}
extension UInt64: Diffable {}
extension UUID: Diffable {}

extension Diffable {
    /// Whether the pair (`old`, `self`) — two versions of one item — must be reported as updated
    /// under `comparison`, for a value type: when ``isContentEqual(to:)`` is `false`. Value types
    /// have no identity, so ``ComparisonOption/identity`` falls back to
    /// ``ComparisonOption/equality``.
    ///
    /// - Complexity: one content comparison.
    @inlinable
    @inline(__always)
    public func _isUpdated(from old: Self, comparison: ComparisonOption) -> Bool {
        !isContentEqual(to: old)
    }
}

extension Diffable where Self: AnyObject {
    /// Whether the pair (`old`, `self`) — two versions of one item — must be reported as updated
    /// under `comparison`, for a class:
    ///
    /// - ``ComparisonOption/equality``: updated when ``isContentEqual(to:)`` is `false`; when both
    ///   are the same instance the content check is skipped (IGListKit does the same).
    /// - ``ComparisonOption/identity``: updated when they are not the same instance (IGListKit's
    ///   pointer personality).
    ///
    /// - Complexity: one identity comparison, and at most one content comparison.
    @inlinable
    @inline(__always)
    public func _isUpdated(from old: Self, comparison: ComparisonOption) -> Bool {
        if self === old { return false }
        return comparison == .identity || !isContentEqual(to: old)
    }
}
