import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import Testing

@testable import DiffLabBench

/// The staged cell (issue 46): `<engine>-staged` times `StagedChangeset` on one section.
@Suite struct StagedSubjectTests {
    /// The subject is named after its engine and counts what the staged changeset it times holds:
    /// every operation of every stage, and the moves handed to UIKit.
    @Test(arguments: [DatasetProfile.smallEdit, .reorderHeavy, .allUpdated, .chatAppend])
    func countsAreTheStagedChangesetsOperations(profile: DatasetProfile) throws {
        let subject = BenchSubject(staged: HashMapEngine(), growthExponent: 1.2)
        #expect(subject.name == "hashmap-staged" && subject.isEngine && !subject.isSelfTimed)
        let dataset = AbstractDataset(profile, size: 400, seed: 7)
        let lists = dataset.models()
        let call = subject.prepare(.models(lists.old, lists.new))
        #expect(try call.run() == nil)
        let counts = try #require(try call.counts?())
        let staged = StagedChangeset(
            from: SectionedList([.init(id: 0, items: lists.old)]), to: SectionedList([.init(id: 0, items: lists.new)]),
            engine: HashMapEngine())
        let moves = staged.stages.reduce(0) { $0 + $1.changes.moveItems.count + $1.changes.moveSections.count }
        let operations = staged.stages.reduce(0) {
            let u = $1.changes
            return $0 + u.insertItems.count + u.deleteItems.count + u.reloadItems.count + u.moveItems.count + u.insertSections.count
                + u.deleteSections.count + u.reloadSections.count + u.moveSections.count
        }
        #expect(counts == BenchCounts(changeCount: operations, batchMoves: moves))
        #expect(operations > 0)
        // The stages it times are valid and reach the new list.
        var data = SectionedList([.init(id: 0, items: lists.old)])
        for stage in staged.stages {
            #expect(stage.changes.isValid)
            data = stage.data
        }
        #expect(data.sections.map(\.items) == [lists.new])
    }

    /// Equal lists stage nothing, on every element kind (objects compare by identity).
    @Test(arguments: ElementKind.allCases) func equalListsCountNothing(kind: ElementKind) throws {
        let dataset = AbstractDataset(.differencekit, size: 300, seed: 1)
        let lists: BenchLists =
            switch BenchLists(dataset, kind: kind) {
            case .ints(let old, _): .ints(old, old)
            case .models(let old, _): .models(old, old)
            case .objects(let old, _): .objects(old, old)
            }
        let counts = try #require(try BenchSubject(staged: MyersEngine()).prepare(lists).counts?())
        #expect(counts == BenchCounts(changeCount: 0, batchMoves: 0))
    }
}
