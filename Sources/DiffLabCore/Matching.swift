/// The pairing of old and new elements an engine decided: the only thing engines differ in.
///
/// Everything else — inserts, deletes, updates, moves and the batch conversion — is derived from a
/// matching by ``DiffResult/init(matching:moves:)``, once, for every engine.
///
/// Invariants (checked by ``validate()``):
/// - `oldToNew.count` is the old list's length and `newToOld.count` the new list's;
/// - `oldToNew[o] == n` if and only if `newToOld[n] == o` (a one-to-one pairing); `-1` means
///   unpaired (deleted from old, or inserted into new);
/// - `updated.count == newToOld.count`, and `updated[n]` is `true` only for a paired `n`.
public struct Matching: Sendable, Hashable {
    /// For each old index, the new index it is paired with, or `-1` when the element is deleted.
    public var oldToNew: [Int]
    /// For each new index, the old index it is paired with, or `-1` when the element is inserted.
    public var newToOld: [Int]
    /// For each new index, whether the paired element is reported updated.
    public var updated: [Bool]

    /// Creates a matching from its three arrays without checking them; see ``validate()``.
    @inlinable
    public init(oldToNew: [Int], newToOld: [Int], updated: [Bool]) {
        self.oldToNew = oldToNew
        self.newToOld = newToOld
        self.updated = updated
    }

    /// A matching of `oldCount` old and `newCount` new elements with nothing paired yet.
    ///
    /// - Complexity: O(oldCount + newCount).
    @inlinable
    public init(oldCount: Int, newCount: Int) {
        self.oldToNew = Array(repeating: -1, count: oldCount)
        self.newToOld = Array(repeating: -1, count: newCount)
        self.updated = Array(repeating: false, count: newCount)
    }

    /// Pairs old index `old` with new index `new`.
    @inlinable
    @inline(__always)
    public mutating func pair(old: Int, new: Int, updated isUpdated: Bool = false) {
        oldToNew[old] = new
        newToOld[new] = old
        updated[new] = isUpdated
    }

    /// Checks the invariants listed on the type.
    ///
    /// - Throws: ``MatchingError`` naming the first broken invariant.
    /// - Complexity: O(oldCount + newCount).
    public func validate() throws(MatchingError) {
        guard updated.count == newToOld.count else {
            throw .init("updated has \(updated.count) flags for \(newToOld.count) new elements")
        }
        for (o, n) in oldToNew.enumerated() where n != -1 {
            guard n >= 0, n < newToOld.count else {
                throw .init("old index \(o) is paired with new index \(n), outside 0..<\(newToOld.count)")
            }
            guard newToOld[n] == o else {
                throw .init("old index \(o) is paired with new index \(n), but new index \(n) is paired with \(newToOld[n])")
            }
        }
        for (n, o) in newToOld.enumerated() {
            if o == -1 {
                guard !updated[n] else { throw .init("new index \(n) is unpaired but flagged updated") }
                continue
            }
            guard o >= 0, o < oldToNew.count else {
                throw .init("new index \(n) is paired with old index \(o), outside 0..<\(oldToNew.count)")
            }
            guard oldToNew[o] == n else {
                throw .init("new index \(n) is paired with old index \(o), but old index \(o) is paired with \(oldToNew[o])")
            }
        }
    }
}

/// A broken ``Matching`` invariant.
public struct MatchingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public var description: String
    init(_ description: String) { self.description = description }
}
