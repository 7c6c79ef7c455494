import DiffLabCore
import ListDiff

/// An element as ListDiff takes it: its identifier as `AnyHashable` (ListDiff's `Diffable`), and
/// `==` for content. A box of its own, because DiffLab's ``Diffable`` (which ``Boxed`` also
/// conforms to, for the identity adapter) names its identifier `diffIdentifier` too.
struct ListDiffBox<Element: DiffLabCore.Diffable>: ListDiff.Diffable, Equatable {
    let boxed: Boxed<Element>
    var diffIdentifier: AnyHashable { AnyHashable(boxed.id) }
    static func == (a: ListDiffBox, b: ListDiffBox) -> Bool { a.boxed == b.boxed }

    static func wrap(_ list: [Element], _ comparison: ComparisonOption) -> [ListDiffBox] {
        list.map { ListDiffBox(boxed: Boxed(element: $0, comparison: comparison)) }
    }
}

/// ListDiff's `List.diffing(oldArray:newArray:)`, a Swift port of IGListKit's `IGListDiff`, with
/// its `forBatchUpdates()` as the batch form (the port of `-[IGListIndexSetResult resultForBatchUpdates]`).
/// ListDiff has no index paths ("No support for index paths. Decided that this is out of the
/// scope.", README.md): one section, item indices as they are.
///
/// The flat result's updates are old indices (an `IndexSet`); each update's destination is the
/// library's own `newIndexFor(identifier:)` of the updated element's identifier.
///
/// - Complexity: ListDiff's (Heckel's algorithm, O(n) expected), plus O(n) to wrap and convert.
public struct ListDiffEngine: ChangesetEngine {
    public init() {}
    public var name: String { "listdiff" }
    public var promises: EnginePromises {
        // A port of IGListDiff: Heckel's pairing is its documented algorithm; nothing is said
        // about repeated identifiers.
        EnginePromises(supportsDuplicates: false, minimalMoves: false, reference: .heckel)
    }
    public var about: EngineAbout? {
        EngineAbout(
            library: "ListDiff", version: "0.2.0", revision: "2667f8da9df3978e45841fee11d2f00934612a7f",
            source: "https://github.com/lxcid/ListDiff",
            build:
                "its one source file (Sources/ListDiff.swift at 0.2.0) as a target of the arena: the 0.2.0 manifest has no swift-tools-version line and SwiftPM 6 refuses it",
            adapter: "List.diffing(oldArray:newArray:), its forBatchUpdates() handed to one performBatchUpdates (item indices of one section)",
            promiseSources: [
                "\"ListDiff is a Swift port of IGListKit's IGListDiff.\" — README.md",
                "\"It is an implementation of an algorithm by Paul Heckel that calculates the diff between 2 arrays.\" — README.md",
            ])
    }

    public func changes<Element: DiffLabCore.Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let oldBoxes = ListDiffBox.wrap(old, comparison)
        let result = List.diffing(oldArray: oldBoxes, newArray: ListDiffBox.wrap(new, comparison))
        let flat = EngineResult(
            inserts: Array(result.inserts), deletes: Array(result.deletes),
            updates: result.updates.map { Update(from: $0, to: result.newIndexFor(identifier: oldBoxes[$0].diffIdentifier) ?? -1) },
            moves: result.moves.map { Move(from: $0.from, to: $0.to) })
        let forBatch = result.forBatchUpdates()
        let batch = EngineResult(
            inserts: Array(forBatch.inserts), deletes: Array(forBatch.deletes),
            updates: forBatch.updates.map { Update(from: $0, to: $0) },
            moves: forBatch.moves.map { Move(from: $0.from, to: $0.to) })
        return EngineChanges(result: flat, batch: batch)
    }
}
