import DiffLabCore
import Differ
import Foundation

/// Differ's `extendedDiff(_:)`, applied as its `UICollectionView.animateItemChanges(oldData:newData:updateData:)`
/// does (`Sources/Differ/Diff+UIKit.swift`): one `performBatchUpdates` with the deletions,
/// insertions and moves of `BatchUpdate(diff:)`, Differ's own index-path form.
///
/// Differ compares whole elements with `==`: an item whose content changed is a deletion and an
/// insertion, never an update (Differ has no notion of identity apart from equality).
///
/// - Complexity: Differ's (Myers' algorithm, O((N+M)·D), plus its move detection), plus O(n) to
///   wrap and convert.
public struct DifferEngine: ChangesetEngine {
    public init() {}
    public var name: String { "differ" }
    public var promises: EnginePromises {
        // Any `Collection` of `Equatable` elements: repeated elements are ordinary input.
        EnginePromises(supportsDuplicates: true, minimalMoves: false, reference: .none)
    }
    public var about: EngineAbout? {
        EngineAbout(
            library: "Differ", version: "1.4.5", revision: "4c3eb4d76ad5c14075829397a5741b0badb08dce",
            source: "https://github.com/tonyarnold/Differ", build: ArenaBuild.swiftPM("1.4.5"),
            adapter:
                "extendedDiff(_:) by == on whole elements, in BatchUpdate(diff:)'s index-path form: deletions, insertions and moves in one performBatchUpdates, as UICollectionView.animateItemChanges(oldData:newData:updateData:) does",
            promiseSources: [
                "\"Differ generates the differences between `Collection` instances (this includes Strings!).\" — README.md",
                "\"It uses a fast algorithm `(O((N+M)*D))` to do this.\" — README.md",
            ])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let update = Differ.BatchUpdate(diff: Boxed.wrap(old, comparison).extendedDiff(Boxed.wrap(new, comparison)))
        // Differ builds each IndexPath as [0, index] (section, item); `item` is UIKit's accessor.
        func item(_ path: IndexPath) -> Int { path.count == 2 ? path[1] : -1 }
        let batch = EngineResult(
            inserts: update.insertions.map(item), deletes: update.deletions.map(item),
            moves: update.moves.map { Move(from: item($0.from), to: item($0.to)) })
        return EngineChanges(result: batch, batch: batch)
    }
}
