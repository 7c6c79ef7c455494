import DiffLabBatch
import DiffLabCore
import DifferenceKit

extension Boxed: DifferenceKit.Differentiable {
    public var differenceIdentifier: Element.DiffIdentifier { id }
    public func isContentEqual(to source: Boxed) -> Bool { sameContent(as: source) }
}

extension SectionKey: DifferenceKit.Differentiable {
    public var differenceIdentifier: ID { id }
    // A section's model is its identifier: the same identifier, the same model.
    public func isContentEqual(to source: SectionKey) -> Bool { true }
}

/// DifferenceKit's `StagedChangeset`, applied as its `UICollectionView.reload(using:setData:)`
/// does: each changeset is one `performBatchUpdates` with `setData(changeset.data)` inside it,
/// deleting, inserting, reloading and moving sections, then deleting, inserting, reloading and
/// moving elements (`Sources/Extensions/UIKitExtension.swift`).
///
/// Flat lists are one section (`StagedChangeset(source:target:)` of the wrapped elements);
/// sectioned lists are `ArraySection`s whose model is the section identifier.
///
/// - Complexity: DifferenceKit's (Heckel's algorithm, O(n)), plus O(n) to wrap and convert.
public struct DifferenceKitEngine: SectionedChangesetEngine {
    public init() {}
    public var name: String { "differencekit" }
    public var promises: EnginePromises {
        // "Supports both linear and sectioned collection even if contains duplicates" (README.md).
        EnginePromises(supportsDuplicates: true, minimalMoves: false, reference: .none)
    }
    public var about: EngineAbout? {
        EngineAbout(
            library: "DifferenceKit", version: "1.3.0", revision: "073b9671ce2b9b5b96398611427a1f929927e428",
            source: "https://github.com/ra1028/DifferenceKit", build: ArenaBuild.swiftPM("1.3.0"),
            adapter:
                "StagedChangeset(source:target:), each changeset one performBatchUpdates on its data, as UICollectionView.reload(using:setData:) does; sectioned lists as ArraySection",
            promiseSources: [
                "\"💡 Supports both linear and sectioned collection even if contains duplicates\" — README.md",
                "\"If the elements with the same identifier duplicated, the algorithm calculates the moves at best effort, and rest of the duplicates as insertion or deletion.\" — Sources/Algorithm.swift",
            ])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let staged = DifferenceKit.StagedChangeset(source: Boxed.wrap(old, comparison), target: Boxed.wrap(new, comparison))
        var count = old.count
        let stages = staged.map { changeset in
            defer { count = changeset.data.count }
            return EngineStage(
                data: changeset.data.map(\.element),
                changes: Self.batch(changeset).flatChanges(oldCount: count, newCount: changeset.data.count))
        }
        return .staged(stages, oldCount: old.count)
    }

    public func stagedChanges<SectionID: Hashable, Element: Diffable>(
        from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption
    ) throws(EngineFailure) -> DiffLabBatch.StagedChangeset<SectionID, Element> {
        func sections(_ list: SectionedList<SectionID, Element>) -> [ArraySection<SectionKey<SectionID>, Boxed<Element>>] {
            list.sections.map { ArraySection(model: SectionKey(id: $0.id), elements: Boxed.wrap($0.items, comparison)) }
        }
        let staged = DifferenceKit.StagedChangeset(source: sections(old), target: sections(new))
        var previous = old
        var stages: [ChangesetStage<SectionID, Element>] = []
        for changeset in staged {
            let data = SectionedList<SectionID, Element>(
                changeset.data.map { .init(id: $0.model.id, items: $0.elements.map(\.element)) })
            stages.append(Self.batch(changeset).stage(after: previous, data: data))
            previous = data
        }
        return DiffLabBatch.StagedChangeset(stages: stages)
    }

    /// One changeset as `reload(using:)` hands it to UIKit.
    static func batch<C>(_ changeset: Changeset<C>) -> LibraryBatch {
        func path(_ p: ElementPath) -> ItemIndexPath { ItemIndexPath(section: p.section, item: p.element) }
        return LibraryBatch(
            deleteSections: changeset.sectionDeleted, insertSections: changeset.sectionInserted,
            reloadSections: changeset.sectionUpdated, moveSections: changeset.sectionMoved.map { ($0.source, $0.target) },
            deleteItems: changeset.elementDeleted.map(path), insertItems: changeset.elementInserted.map(path),
            reloadItems: changeset.elementUpdated.map(path),
            moveItems: changeset.elementMoved.map { (path($0.source), path($0.target)) })
    }
}
