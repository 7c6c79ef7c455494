import DeepDiff
import DiffLabCore

extension Boxed: DeepDiff.DiffAware {
    public var diffId: Element.DiffIdentifier { id }
    public static func compareContent(_ a: Boxed, _ b: Boxed) -> Bool { a.sameContent(as: b) }
}

/// DeepDiff's `diff(old:new:)`, applied as its `UICollectionView.reload(changes:section:updateData:)`
/// does (`Sources/iOS/UICollectionView+Extensions.swift`): one `performBatchUpdates` with the
/// deletes, inserts and moves of `IndexPathConverter`'s index-path form, then — "reloadRows needs
/// to be called outside the batch" — `reloadItems(at:)` of the replaces, after it.
///
/// So its answer is two stages: the batch, during which the data source already holds the new
/// list but the replaced items' cells still show their old content (what the first stage's data
/// says, so the check asks the second stage to bring them up to date), then the reloads at the
/// replaces' new indices. `IndexPathConverter` is compiled for iOS and tvOS only; its mapping
/// (each change's index as `IndexPath(item: index, section: section)`) is repeated here.
///
/// - Complexity: DeepDiff's (Heckel's algorithm, O(n)), plus O(n) to wrap and convert.
public struct DeepDiffEngine: ChangesetEngine {
    public init() {}
    public var name: String { "deepdiff" }
    public var promises: EnginePromises {
        // "diffId: Each object must be uniquely identified by id." (Sources/Shared/DiffAware.swift)
        EnginePromises(supportsDuplicates: false, minimalMoves: false, reference: .none)
    }
    public var about: EngineAbout? {
        EngineAbout(
            library: "DeepDiff", version: "2.3.3", revision: "2639b3a11054d666a4c5ec1b7dd2808e437f3289",
            source: "https://github.com/onmyway133/DeepDiff", build: ArenaBuild.swiftPM("2.3.3"),
            adapter:
                "diff(old:new:) in IndexPathConverter's index-path form: deletes, inserts and moves in one performBatchUpdates, then reloadItems of the replaces outside it, as UICollectionView.reload(changes:section:updateData:) does",
            promiseSources: [
                "\"diffId: Each object must be uniquely identified by id. This is to tell if there is deletion or insertion\" — Sources/Shared/DiffAware.swift",
                "\"An model needs to be uniquely identified via `diffId` to tell if there have been any insertions or deletions.\" — README.md",
            ])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let changes = DeepDiff.diff(old: Boxed.wrap(old, comparison), new: Boxed.wrap(new, comparison))
        var batch = EngineResult()
        var replaces: [Int] = []
        for change in changes {
            switch change {
            case .insert(let insert): batch.inserts.append(insert.index)
            case .delete(let delete): batch.deletes.append(delete.index)
            case .replace(let replace): replaces.append(replace.index)
            case .move(let move): batch.moves.append(Move(from: move.fromIndex, to: move.toIndex))
            }
        }
        // During the batch the replaced items' cells show their old versions.
        var shown = new
        for change in changes {
            if case .replace(let replace) = change, shown.indices.contains(replace.index) {
                shown[replace.index] = replace.oldItem.element
            }
        }
        var stages = [EngineStage(data: shown, changes: batch)]
        if !replaces.isEmpty {
            stages.append(EngineStage(data: new, changes: EngineResult(updates: replaces.map { Update(from: $0, to: $0) })))
        }
        return .staged(stages, oldCount: old.count)
    }
}
