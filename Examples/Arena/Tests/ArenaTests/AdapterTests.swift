import ArenaEngines
import DiffLab
import Testing

/// Every adapter answers a hand-made case with a result DiffLab accepts, and its batch form (or
/// its stages) turns the old list into the new one. The fuzzing campaign (`difflab-arena arena`)
/// does the rest.
@Suite("Arena adapters")
struct AdapterTests {
    static let engines: [any ChangesetEngine] = [
        DifferenceKitEngine(), DifferentiatorEngine(), DeepDiffEngine(), DifferEngine(), ListDiffEngine(),
        CollectionDifferenceEngine(), IdentityAdapterEngine(),
    ]

    @Test(arguments: 0..<engines.count)
    func handMadeCaseIsValid(index: Int) throws {
        let engine = Self.engines[index]
        // The Heckel paper's example, identifiers unique.
        let old = Array("MUCHWRITINGISLIKESNOW".enumerated().map { $0.offset * 100 + Int($0.element.asciiValue!) })
        var new = old
        new.swapAt(0, 5)
        new.remove(at: 9)
        new.insert(7, at: 3)
        let answer = try engine.changes(from: old, to: new, comparison: .equality)
        let flat = try answer.checkedResult(oldCount: old.count, newCount: new.count)
        #expect(flat.changeCount > 0, "\(engine.name)")
        if let stages = answer.stages {
            var previous = old
            for stage in stages {
                let step = try DiffResult(checking: stage.changes, oldCount: previous.count, newCount: stage.data.count)
                let problems = try BatchUpdate(step).apply(
                    to: SectionedList([.init(id: 0, items: previous)]), expecting: SectionedList([.init(id: 0, items: stage.data)]))
                #expect(problems.mismatches.isEmpty, "\(engine.name): \(problems.mismatches)")
                previous = stage.data
            }
            #expect(previous == new, "\(engine.name)")
        } else {
            let batch = try answer.checkedBatch(oldCount: old.count, newCount: new.count)
            let problems = try BatchUpdate(batch).apply(
                to: SectionedList([.init(id: 0, items: old)]), expecting: SectionedList([.init(id: 0, items: new)]))
            #expect(problems.mismatches.isEmpty, "\(engine.name): \(problems.mismatches)")
        }
    }

    @Test func everyLibraryAdapterSaysWhereItComesFromAndQuotesItsPromises() {
        for engine in Self.engines {
            let about = engine.about
            #expect(about != nil, "\(engine.name)")
            #expect(!(about?.promiseSources.isEmpty ?? true), "\(engine.name)")
            #expect(!(about?.version.isEmpty ?? true), "\(engine.name)")
        }
    }

    @Test func namesAreDistinctAndValid() {
        let names = ArenaContestants.names
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy(EngineRegistry.isValidName))
    }
}
