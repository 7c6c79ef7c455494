import DiffLabBatch
import DiffLabFuzz
import Testing

@Suite("Structural shrinking")
struct StructuralShrinkerTests {
    /// A case whose failure needs a corruption aimed at one particular old item: the choice
    /// passes lose that aim when they delete an item before it; the structural pass renumbers.
    @Test func removesItemsAndRenumbersTheCorruptionsThatNameThem() throws {
        var source = DataSource(seed: 1)
        var c = FuzzCase.generator(maxSize: 4).generate(&source)
        c.old = (0..<12).map { FuzzItem($0) }
        c.new = Array(c.old.reversed())
        c.oldSections = SectionedList([.init(id: 0, items: Array(c.old[..<5])), .init(id: 1, items: Array(c.old[5...]))])
        c.newSections = SectionedList([.init(id: 0, items: c.new)])
        c.corruptions = [.delete(item: 9), .reload(item: 3), .insert(item: 2)]
        // "Fails" while a delete corruption still names the old item with identifier 9.
        func aimsAtNine(_ c: FuzzCase) -> Bool {
            c.corruptions.contains { if case let .delete(i) = $0 { i >= 0 && i < c.old.count && c.old[i].id == 9 } else { false } }
        }
        #expect(aimsAtNine(c))
        let (shrunk, attempts) = shrinkStructurally(c, budget: 10_000, stillFails: aimsAtNine)
        #expect(shrunk.old == [FuzzItem(9)])
        #expect(shrunk.new == [])
        #expect(shrunk.corruptions == [.delete(item: 0)])
        // The sections still hold the lists' items in order; an emptied section is gone.
        #expect(shrunk.oldSections.sections.flatMap(\.items) == shrunk.old)
        #expect(shrunk.oldSections.sections.count == 1)
        #expect(shrunk.newSections.sections.flatMap(\.items) == shrunk.new)
        #expect(attempts > 0 && attempts < 10_000)
    }

    @Test func theBudgetBoundsTheCandidatesTried() {
        var source = DataSource(seed: 2)
        var c = FuzzCase.generator(maxSize: 4).generate(&source)
        c.old = (0..<30).map { FuzzItem($0) }
        c.oldSections = SectionedList([.init(id: 0, items: c.old)])
        var calls = 0
        let (_, attempts) = shrinkStructurally(c, budget: 7) { _ in
            calls += 1
            return true
        }
        #expect(attempts == 7)
        #expect(calls == 7)
    }
}
