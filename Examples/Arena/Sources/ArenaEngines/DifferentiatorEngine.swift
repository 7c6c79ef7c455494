import DiffLabBatch
import DiffLabCore
import Differentiator

extension Boxed: Differentiator.IdentifiableType {
    public var identity: Element.DiffIdentifier { id }
}

extension SectionKey: Differentiator.IdentifiableType {
    public var identity: ID { id }
}

/// RxDataSources' Differentiator, applied as `RxCollectionViewSectionedAnimatedDataSource` does:
/// `Diff.differencesForSectionedView(initialSections:finalSections:)`, then for each changeset one
/// `performBatchUpdates` with `setSections(changeset.finalSections)` inside it and
/// `batchUpdates(_:animationConfiguration:)`'s calls: delete, insert and move sections, then
/// delete, insert, reload and move items (`Sources/RxDataSources/UI+SectionedViewType.swift`;
/// `updatedSections` is not applied there, so not here either).
///
/// Flat lists are one section. When Differentiator throws (`Diff.Error.duplicateItem`,
/// `duplicateSection`), the engine gives no answer: the app's data source logs the error and
/// calls `reloadData()`.
///
/// - Complexity: Differentiator's, plus O(n) to wrap and convert.
public struct DifferentiatorEngine: SectionedChangesetEngine {
    public init() {}
    public var name: String { "differentiator" }
    public var promises: EnginePromises {
        // "the algorithm has the assumption that all sections and items are unique so there is no
        // ambiguity" (README.md).
        EnginePromises(supportsDuplicates: false, minimalMoves: false, reference: .none)
    }
    public var about: EngineAbout? {
        EngineAbout(
            library: "Differentiator (RxDataSources)", version: "5.0.2", revision: "90c29b48b628479097fe775ed1966d75ac374518",
            source: "https://github.com/RxSwiftCommunity/RxDataSources", build: ArenaBuild.swiftPM("5.0.2"),
            adapter:
                "Diff.differencesForSectionedView(initialSections:finalSections:) on AnimatableSectionModels, each changeset one performBatchUpdates as RxCollectionViewSectionedAnimatedDataSource does; flat lists as one section",
            promiseSources: [
                "\"the algorithm has the assumption that all sections and items are unique so there is no ambiguity\" — README.md",
                "\"each difference must be run in a separate 'performBatchUpdates', otherwise it crashes.\" — Sources/RxDataSources/RxCollectionViewSectionedAnimatedDataSource.swift",
            ])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let staged = try stagedChanges(
            from: SectionedList([.init(id: 0, items: old)]), to: SectionedList([.init(id: 0, items: new)]),
            comparison: comparison)
        let stages = staged.stages.map { stage in
            let batch = LibraryBatch(
                deleteItems: stage.changes.deleteItems, insertItems: stage.changes.insertItems, reloadItems: stage.changes.reloadItems,
                moveItems: stage.changes.moveItems.map { ($0.from, $0.to) })
            return EngineStage(
                data: stage.data.sections.first?.items ?? [],
                changes: batch.flatChanges(
                    oldCount: stage.changes.itemCountsBefore.first ?? 0, newCount: stage.changes.itemCountsAfter.first ?? 0))
        }
        return .staged(stages, oldCount: old.count)
    }

    public func stagedChanges<SectionID: Hashable, Element: Diffable>(
        from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption
    ) throws(EngineFailure) -> DiffLabBatch.StagedChangeset<SectionID, Element> {
        typealias Model = AnimatableSectionModel<SectionKey<SectionID>, Boxed<Element>>
        func sections(_ list: SectionedList<SectionID, Element>) -> [Model] {
            list.sections.map { Model(model: SectionKey(id: $0.id), items: Boxed.wrap($0.items, comparison)) }
        }
        let differences: [Differentiator.Changeset<Model>]
        do {
            differences = try Diff.differencesForSectionedView(initialSections: sections(old), finalSections: sections(new))
        } catch {
            throw EngineFailure(.crashed, "Diff.differencesForSectionedView threw: \(error)")
        }
        var previous = old
        var stages: [ChangesetStage<SectionID, Element>] = []
        for changeset in differences {
            func path(_ p: ItemPath) -> ItemIndexPath { ItemIndexPath(section: p.sectionIndex, item: p.itemIndex) }
            let data = SectionedList<SectionID, Element>(
                changeset.finalSections.map { .init(id: $0.model.id, items: $0.items.map(\.element)) })
            let batch = LibraryBatch(
                deleteSections: changeset.deletedSections, insertSections: changeset.insertedSections,
                moveSections: changeset.movedSections, deleteItems: changeset.deletedItems.map(path),
                insertItems: changeset.insertedItems.map(path), reloadItems: changeset.updatedItems.map(path),
                moveItems: changeset.movedItems.map { (path($0.from), path($0.to)) })
            stages.append(batch.stage(after: previous, data: data))
            previous = data
        }
        return DiffLabBatch.StagedChangeset(stages: stages)
    }
}
