import DiffLabCore

/// Apple's `CollectionDifference`, as its documentation sets it out for batch updates:
/// `new.difference(from: old).inferringMoves()` on whole elements (`==`), each removal without an
/// association a deleted item (its offset in the old list), each insertion without one an
/// inserted item (its offset in the new list), and each removal associated with an insertion a
/// move from the removal's offset to the insertion's. One `performBatchUpdates`.
///
/// Like Differ, it compares whole elements: an item whose content changed is removed and
/// inserted, never updated.
///
/// - Complexity: the standard library's (Myers' algorithm, O((N+M)·D)), plus `inferringMoves()`'s
///   O(N+M) and O(n) to wrap and convert.
public struct CollectionDifferenceEngine: ChangesetEngine {
    public init() {}
    public var name: String { "collectiondifference" }
    public var promises: EnginePromises {
        // Any `BidirectionalCollection` of `Equatable` elements: repeated elements are ordinary input.
        EnginePromises(supportsDuplicates: true, minimalMoves: false, reference: .none)
    }
    public var about: EngineAbout? {
        EngineAbout(
            library: "Swift CollectionDifference", version: "Swift 6.3.1 standard library",
            source: "https://developer.apple.com/documentation/swift/collectiondifference",
            build: "the toolchain's standard library",
            adapter:
                "new.difference(from: old).inferringMoves(): unassociated removals deleted, unassociated insertions inserted, associated pairs moved, in one performBatchUpdates",
            promiseSources: [
                "\"Returns the difference needed to produce this collection's ordered elements from the given collection.\" — BidirectionalCollection.difference(from:), Apple's documentation",
                "\"Returns a new collection difference with associations between individual elements that have been removed and inserted only once.\" — CollectionDifference.inferringMoves(), Apple's documentation",
            ])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let difference = Boxed.wrap(new, comparison).difference(from: Boxed.wrap(old, comparison)).inferringMoves()
        var result = EngineResult()
        for removal in difference.removals {
            guard case let .remove(offset, _, associatedWith) = removal else { continue }
            if let to = associatedWith { result.moves.append(Move(from: offset, to: to)) } else { result.deletes.append(offset) }
        }
        for insertion in difference.insertions {
            guard case let .insert(offset, _, associatedWith) = insertion else { continue }
            if associatedWith == nil { result.inserts.append(offset) }
        }
        return EngineChanges(result: result, batch: result)
    }
}
