import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabTestSupport
import Testing

typealias Model = SectionedList<String, Item>

func model(_ sections: [(String, [Item])]) -> Model {
    Model(sections.map { Model.Section(id: $0.0, items: $0.1) })
}

@Suite("Batch-update applier")
struct ApplierTests {
    let old = model([("A", [Item(1), Item(2), Item(3)]), ("B", [Item(4), Item(5)])])

    @Test func roundTripWithEveryKindOfOperation() throws {
        // A: delete 1, reload 2, move 3 → B; B: move 4 → A, keep 5, insert 6. New section C inserted.
        let new = model([
            ("C", [Item(9)]), ("A", [Item(2, 1), Item(4)]), ("B", [Item(5), Item(6), Item(3)]),
        ])
        let update = BatchUpdate(
            itemCountsBefore: [3, 2], itemCountsAfter: [1, 2, 3], insertSections: [0],
            insertItems: [p(2, 1)], deleteItems: [p(0, 0)], reloadItems: [p(0, 1)],
            moveItems: [mv(p(0, 2), p(2, 2)), mv(p(1, 0), p(1, 1))])
        let application = try update.apply(to: old, expecting: new)
        #expect(application.mismatches == [])
        #expect(application.outcome == new)
    }

    @Test func forgottenReloadShowsStaleContent() throws {
        let new = model([("A", [Item(1), Item(2, 7), Item(3)]), ("B", [Item(4), Item(5)])])
        let update = BatchUpdate(itemCountsBefore: [3, 2], itemCountsAfter: [3, 2])
        let application = try update.apply(to: old, expecting: new)
        #expect(application.mismatches == [.staleContent(p(0, 1))])
        let fixed = BatchUpdate(itemCountsBefore: [3, 2], itemCountsAfter: [3, 2], reloadItems: [p(0, 1)])
        #expect(try fixed.apply(to: old, expecting: new).mismatches == [])
    }

    @Test func wrongMoveShowsWrongIdentity() throws {
        let new = model([("A", [Item(2), Item(1), Item(3)]), ("B", [Item(4), Item(5)])])
        let wrong = BatchUpdate(itemCountsBefore: [3, 2], itemCountsAfter: [3, 2], moveItems: [mv(p(0, 2), p(0, 0))])
        let mismatches = try wrong.apply(to: old, expecting: new).mismatches
        #expect(mismatches.contains(.wrongItem(p(0, 0), found: "3", expected: "2")))
        let right = BatchUpdate(itemCountsBefore: [3, 2], itemCountsAfter: [3, 2], moveItems: [mv(p(0, 1), p(0, 0))])
        #expect(try right.apply(to: old, expecting: new).mismatches == [])
    }

    @Test func sectionMovesCarryTheirItems() throws {
        let new = model([("B", [Item(4), Item(5)]), ("A", [Item(1), Item(2), Item(3)])])
        let update = BatchUpdate(itemCountsBefore: [3, 2], itemCountsAfter: [2, 3], moveSections: [SectionMove(from: 1, to: 0)])
        #expect(try update.apply(to: old, expecting: new).mismatches == [])
        let swapped = model([("B", [Item(4), Item(5)]), ("X", [Item(1), Item(2), Item(3)])])
        #expect(try update.apply(to: old, expecting: swapped).mismatches == [.wrongSection(section: 1, found: "A", expected: "X")])
    }

    @Test func invalidUpdateIsRejectedAndCountsMustMatchTheModel() throws {
        let invalid = BatchUpdate(itemCountsBefore: [3, 2], itemCountsAfter: [3, 2], deleteItems: [p(0, 0)])
        #expect(throws: InvalidBatchUpdate.self) { try invalid.apply(to: old, expecting: old) }
        let lying = BatchUpdate(itemCountsBefore: [3, 3], itemCountsAfter: [3, 3])
        #expect(try lying.apply(to: old, expecting: old).mismatches.count == 2)
    }

    /// Every engine's flat batch result, as a one-section update, round-trips.
    @Test(arguments: builtInEngines)
    func flatResultsRoundTrip(engine: any DiffEngine) throws {
        var rng = SplitMix64(seed: 23)
        for _ in 0..<200 {
            let (a, b) = randomLists(&rng, maxCount: 10, distinct: Int.random(in: 1...8, using: &rng))
            let update = BatchUpdate(engine.diff(from: a, to: b).forBatchUpdates())
            let application = try update.apply(to: model([("S", a)]), expecting: model([("S", b)]))
            #expect(application.mismatches == [], "\(a) → \(b)")
        }
    }
}

@Suite("Batch-update sanitizer")
struct SanitizerTests {
    /// Found by difflab-decode-fuzz (Corpus/decode-fuzz-regressions/sanitizer-balancing-budget.bin):
    /// balancing a moved section's large surplus added dozens of operations, the repairs they then
    /// needed ran past a budget computed from the original update, and the result still held
    /// repairable violations (item changes inside a deleted section) and was not a fixed point.
    @Test func balancingThatAddsManyOperationsIsRepairedToTheEnd() {
        let update = BatchUpdate(
            itemCountsBefore: [71, 3], itemCountsAfter: [28, 4], moveSections: [SectionMove(from: 0, to: 1)], deleteItems: [p(1, 0)])
        let sanitized = update.sanitized()
        #expect(sanitized.violations().isEmpty, "\(sanitized.violations().map(\.message))")
        #expect(sanitized.sanitized() == sanitized)
        #expect(sanitized.insertItems.count + sanitized.deleteItems.count > 20, "the case needs balancing to add many operations")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: BatchUpdate
        var expected: BatchUpdate
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "duplicate deletes removed, inserts balanced",
            input: BatchUpdate(
                itemCountsBefore: [4], itemCountsAfter: [3], insertItems: [p(0, 0), p(0, 2)], deleteItems: [p(0, 1), p(0, 1), p(0, 3)]),
            expected: BatchUpdate(itemCountsBefore: [4], itemCountsAfter: [3], insertItems: [p(0, 0)], deleteItems: [p(0, 1), p(0, 3)])),
        Case(
            name: "section move conflicting with a delete dropped",
            input: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2], deleteSections: [0], moveSections: [SectionMove(from: 0, to: 0)]),
            expected: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2], deleteSections: [0])),
        Case(
            name: "section move with item changes becomes delete + insert",
            input: BatchUpdate(
                itemCountsBefore: [1, 2], itemCountsAfter: [2, 1], moveSections: [SectionMove(from: 1, to: 0)], reloadItems: [p(1, 0)]),
            expected: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2, 1], insertSections: [0], deleteSections: [1])),
        Case(
            name: "item move out of a deleted section becomes an insert",
            input: BatchUpdate(itemCountsBefore: [1, 1], itemCountsAfter: [2], deleteSections: [1], moveItems: [mv(p(1, 0), p(0, 0))]),
            expected: BatchUpdate(itemCountsBefore: [1, 1], itemCountsAfter: [2], deleteSections: [1], insertItems: [p(0, 0)])),
        Case(
            name: "updated move becomes delete + insert",
            input: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], reloadItems: [p(0, 0)], moveItems: [mv(p(0, 0), p(0, 1))]),
            expected: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], insertItems: [p(0, 1)], deleteItems: [p(0, 0)])),
        Case(
            name: "delete and reload keeps the delete",
            input: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [1], deleteItems: [p(0, 0)], reloadItems: [p(0, 0)]),
            expected: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [1], deleteItems: [p(0, 0)])),
        Case(
            name: "out-of-bounds insert dropped and count rebalanced",
            input: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [2], insertItems: [p(0, 5)]),
            expected: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [2], insertItems: [p(0, 1)])),
    ]

    @Test(arguments: cases)
    func repairs(c: Case) {
        let output = c.input.sanitized()
        #expect(output.normalized() == c.expected.normalized())
        #expect(output.violations() == [])
    }

    @Test func validUpdatesPassUnchanged() {
        for c in ruleCases {
            #expect(c.valid.sanitized() == c.valid)
        }
    }

    @Test func everyRuleCaseIsRepairedExceptSectionCounts() {
        for c in ruleCases {
            let output = c.invalid.sanitized()
            // A section count that does not add up cannot be fixed (documented); dropping an
            // out-of-bounds section insert or delete leaves exactly that.
            #expect(output.violations().allSatisfy { $0.rule == "section-count" }, "\(c.rule): \(output.violations().map(\.message))")
            if c.rule != "section-count" && c.rule != "section-bounds" { #expect(output.violations() == []) }
        }
    }
}
