import DiffLabBatch
import DiffLabCore
import Testing

func p(_ section: Int, _ item: Int) -> ItemIndexPath { ItemIndexPath(section: section, item: item) }
func mv(_ from: ItemIndexPath, _ to: ItemIndexPath) -> IndexPathMove { IndexPathMove(from: from, to: to) }

/// One rule: an update that breaks it and a neighbour, as close as possible, that is valid.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var invalid: BatchUpdate
    var valid: BatchUpdate
    /// A fragment of UIKit's message for the violation.
    var message: String
    var testDescription: String { "\(rule): \(message)" }
}

let ruleCases: [RuleCase] = [
    RuleCase(
        rule: "section-count",
        invalid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [1, 0]),
        valid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [1, 0], insertSections: [1]),
        message:
            "Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."
    ),
    RuleCase(
        rule: "section-bounds",
        invalid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [1, 0], insertSections: [2]),
        valid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [1, 0], insertSections: [1]),
        message: "attempt to insert section 2 but there are only 2 sections after the update"),
    RuleCase(
        rule: "section-bounds",
        invalid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [1], deleteSections: [2]),
        valid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [1], deleteSections: [1]),
        message: "attempt to delete section 2, but there are only 2 sections before the update"),
    RuleCase(
        rule: "section-move-bounds",
        invalid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2, 1], moveSections: [SectionMove(from: 1, to: 2)]),
        valid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2, 1], moveSections: [SectionMove(from: 1, to: 0)]),
        message: "attempt to to move section 1 to section 2, but there are only 2 sections after the update"),
    RuleCase(
        rule: "duplicate-section",
        invalid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [1, 2], reloadSections: [1, 1]),
        valid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [1, 2], reloadSections: [1]),
        message: "attempt to reload section 1 twice"),
    RuleCase(
        rule: "conflicting-section-moves",
        invalid: BatchUpdate(
            itemCountsBefore: [1, 2, 3], itemCountsAfter: [2, 1, 3],
            moveSections: [SectionMove(from: 0, to: 1), SectionMove(from: 0, to: 2)]),
        valid: BatchUpdate(
            itemCountsBefore: [1, 2, 3], itemCountsAfter: [2, 1, 3], moveSections: [SectionMove(from: 0, to: 1)]),
        message: "attempt to move section 0 to both section 1 and section 2"),
    RuleCase(
        rule: "delete-reload-section",
        invalid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2], deleteSections: [0], reloadSections: [0]),
        valid: BatchUpdate(itemCountsBefore: [1, 2], itemCountsAfter: [2], deleteSections: [0], reloadSections: [1]),
        message: "Request to reload and delete same section 0"),
    RuleCase(
        rule: "section-move-from-removed",
        invalid: BatchUpdate(
            itemCountsBefore: [1, 2, 3], itemCountsAfter: [3, 2], deleteSections: [0],
            moveSections: [SectionMove(from: 0, to: 1)]),
        valid: BatchUpdate(
            itemCountsBefore: [1, 2, 3], itemCountsAfter: [3, 2], deleteSections: [0],
            moveSections: [SectionMove(from: 2, to: 0)]),
        message: "attempt to perform a delete and a move from the same section (0)"),
    RuleCase(
        rule: "section-move-to-inserted",
        invalid: BatchUpdate(
            itemCountsBefore: [1, 2], itemCountsAfter: [0, 2, 1], insertSections: [0],
            moveSections: [SectionMove(from: 0, to: 0)]),
        valid: BatchUpdate(
            itemCountsBefore: [1, 2], itemCountsAfter: [0, 2, 1], insertSections: [0],
            moveSections: [SectionMove(from: 0, to: 2)]),
        message: "attempt to perform an insert and a move to the same section (0)"),
    RuleCase(
        rule: "item-count",
        invalid: BatchUpdate(itemCountsBefore: [40], itemCountsAfter: [40], deleteItems: [p(0, 3)]),
        valid: BatchUpdate(itemCountsBefore: [40], itemCountsAfter: [39], deleteItems: [p(0, 3)]),
        message:
            "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (40) must be equal to the number of items contained in that section before the update (40), plus or minus the number of items inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."
    ),
    RuleCase(
        rule: "item-count",
        invalid: BatchUpdate(itemCountsBefore: [2, 1], itemCountsAfter: [2, 1], moveItems: [mv(p(0, 0), p(1, 0))]),
        valid: BatchUpdate(itemCountsBefore: [2, 1], itemCountsAfter: [1, 2], moveItems: [mv(p(0, 0), p(1, 0))]),
        message: "(0 moved in, 1 moved out)"),
    RuleCase(
        rule: "item-section-bounds",
        invalid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [2], insertItems: [p(1, 0)]),
        valid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [2], insertItems: [p(0, 1)]),
        message: "attempt to insert item 0 into section 1, but there are only 1 sections after the update"),
    RuleCase(
        rule: "item-bounds",
        invalid: BatchUpdate(itemCountsBefore: [0], itemCountsAfter: [1], insertItems: [p(0, 1)]),
        valid: BatchUpdate(itemCountsBefore: [0], itemCountsAfter: [1], insertItems: [p(0, 0)]),
        message: "attempt to insert item 1 into section 0, but there are only 1 items in section 0 after the update"),
    RuleCase(
        rule: "item-bounds",
        invalid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [0], deleteItems: [p(0, 1)]),
        valid: BatchUpdate(itemCountsBefore: [1], itemCountsAfter: [0], deleteItems: [p(0, 0)]),
        message: "attempt to delete item 1 from section 0 which only contains 1 items before the update"),
    RuleCase(
        rule: "item-move-bounds",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], moveItems: [mv(p(0, 0), p(0, 2))]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], moveItems: [mv(p(0, 0), p(0, 1))]),
        message:
            "attempt to move index path (<NSIndexPath> {length = 2, path = 0 - 0}) to index path (<NSIndexPath> {length = 2, path = 0 - 2}) that does not exist - there are only 2 items in section 0 after the update"
    ),
    RuleCase(
        rule: "item-move-section-bounds",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], moveItems: [mv(p(3, 0), p(0, 1))]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], moveItems: [mv(p(0, 0), p(0, 1))]),
        message:
            "attempt to move index path (<NSIndexPath> {length = 2, path = 3 - 0}) from a section that does not exist - there are only 1 sections before the update"
    ),
    RuleCase(
        rule: "duplicate-item",
        invalid: BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [1], deleteItems: [p(0, 1), p(0, 1)]),
        valid: BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [1], deleteItems: [p(0, 1), p(0, 2)]),
        message: "attempt to delete the same index path twice (<NSIndexPath> {length = 2, path = 0 - 1})"),
    RuleCase(
        rule: "conflicting-item-moves",
        invalid: BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [3], moveItems: [mv(p(0, 0), p(0, 2)), mv(p(0, 1), p(0, 2))]),
        valid: BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [3], moveItems: [mv(p(0, 0), p(0, 2)), mv(p(0, 2), p(0, 0))]),
        message:
            "attempt to move both item at index path <NSIndexPath> {length = 2, path = 0 - 0} and <NSIndexPath> {length = 2, path = 0 - 1} to <NSIndexPath> {length = 2, path = 0 - 2}"
    ),
    RuleCase(
        rule: "delete-reload-item",
        invalid: BatchUpdate(itemCountsBefore: [4], itemCountsAfter: [3], deleteItems: [p(0, 3)], reloadItems: [p(0, 3)]),
        valid: BatchUpdate(itemCountsBefore: [4], itemCountsAfter: [3], deleteItems: [p(0, 3)], reloadItems: [p(0, 2)]),
        message: "attempt to delete and reload the same index path (<NSIndexPath> {length = 2, path = 0 - 3})"),
    RuleCase(
        rule: "delete-move-item",
        invalid: BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [2], deleteItems: [p(0, 1)], moveItems: [mv(p(0, 1), p(0, 0))]),
        valid: BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [2], deleteItems: [p(0, 1)], moveItems: [mv(p(0, 2), p(0, 0))]),
        message: "attempt to perform a delete and a move from the same index path (<NSIndexPath> {length = 2, path = 0 - 1})"),
    RuleCase(
        rule: "reload-move-item",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], reloadItems: [p(0, 0)], moveItems: [mv(p(0, 0), p(0, 1))]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], reloadItems: [p(0, 1)], moveItems: [mv(p(0, 0), p(0, 1))]),
        message: "attempt to delete and reload the same index path (<NSIndexPath> {length = 2, path = 0 - 0})"),
    RuleCase(
        rule: "insert-move-item",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [3], insertItems: [p(0, 1)], moveItems: [mv(p(0, 0), p(0, 1))]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [3], insertItems: [p(0, 0)], moveItems: [mv(p(0, 0), p(0, 1))]),
        message: "attempt to perform an insert and a move to the same index path (<NSIndexPath> {length = 2, path = 0 - 1})"),
    RuleCase(
        rule: "item-move-out-of-removed-section",
        invalid: BatchUpdate(itemCountsBefore: [2, 1], itemCountsAfter: [2], deleteSections: [1], moveItems: [mv(p(1, 0), p(0, 0))]),
        valid: BatchUpdate(itemCountsBefore: [2, 1], itemCountsAfter: [2], deleteSections: [1], moveItems: [mv(p(0, 1), p(0, 0))]),
        message: "cannot move an item from a deleted section (1)"),
    RuleCase(
        rule: "item-move-into-inserted-section",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [1, 1], insertSections: [1], moveItems: [mv(p(0, 0), p(1, 0))]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2, 1], insertSections: [1], moveItems: [mv(p(0, 0), p(0, 1))]),
        message: "cannot move an item into a newly inserted section (1)"),
    RuleCase(
        rule: "item-in-changed-section",
        invalid: BatchUpdate(itemCountsBefore: [2, 2], itemCountsAfter: [2], deleteSections: [1], deleteItems: [p(1, 0)]),
        valid: BatchUpdate(itemCountsBefore: [2, 2], itemCountsAfter: [2], deleteSections: [1]),
        message: "inside section 1, which is being deleted"),
    RuleCase(
        rule: "item-in-changed-section",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2, 3], insertSections: [1], insertItems: [p(1, 0)]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [3, 3], insertSections: [1], insertItems: [p(0, 0)]),
        message: "inside section 1, which is being inserted"),
    RuleCase(
        rule: "item-in-changed-section",
        invalid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], reloadSections: [0], reloadItems: [p(0, 1)]),
        valid: BatchUpdate(itemCountsBefore: [2], itemCountsAfter: [2], reloadSections: [0]),
        message: "inside section 0, which is being reloaded"),
    RuleCase(
        rule: "section-move-with-item-changes",
        invalid: BatchUpdate(
            itemCountsBefore: [1, 2], itemCountsAfter: [2, 1], moveSections: [SectionMove(from: 1, to: 0)],
            reloadItems: [p(1, 0)]),
        valid: BatchUpdate(
            itemCountsBefore: [1, 2], itemCountsAfter: [2, 1], moveSections: [SectionMove(from: 1, to: 0)],
            reloadItems: [p(0, 0)]),
        message: "attempt to move section 1 to section 0 while also performing an item reload"),
]

@Suite("Batch-update validator")
struct ValidatorTests {
    @Test(arguments: ruleCases)
    func ruleFailsAndNeighbourPasses(c: RuleCase) {
        let found = c.invalid.violations()
        #expect(found.contains { $0.rule == c.rule }, "expected \(c.rule), got \(found.map(\.rule))")
        #expect(found.contains { $0.message.contains(c.message) }, "messages: \(found.map(\.message))")
        #expect(c.valid.violations() == [], "neighbour: \(c.valid.violations().map(\.message))")
        #expect(throws: InvalidBatchUpdate.self) { try c.invalid.validate() }
    }

    @Test func orderOfCallsIsIrrelevant() {
        // Deletes are applied (descending) before inserts (ascending): deleting 0 and inserting 0
        // in one update is fine.
        let update = BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [3], insertItems: [p(0, 0)], deleteItems: [p(0, 0)])
        #expect(update.isValid)
    }

    @Test func movesWithinASectionAreNeitherInNorOut() {
        let update = BatchUpdate(
            itemCountsBefore: [3, 1], itemCountsAfter: [2, 2],
            moveItems: [mv(p(0, 0), p(0, 1)), mv(p(0, 2), p(1, 0))])
        #expect(update.isValid)
    }

    @Test func itemCountsFollowMovedSections() {
        // Section 0 moves to 1; section 1 (now 0) loses an item.
        let update = BatchUpdate(
            itemCountsBefore: [2, 3], itemCountsAfter: [2, 2], moveSections: [SectionMove(from: 0, to: 1)],
            deleteItems: [p(1, 0)])
        #expect(update.isValid)
        var wrong = update
        wrong.itemCountsAfter = [3, 1]
        #expect(wrong.violations().map(\.rule) == ["item-count", "item-count"])
    }

    @Test func reloadedSectionsMayChangeTheirCount() {
        let update = BatchUpdate(itemCountsBefore: [2, 5], itemCountsAfter: [2, 1], reloadSections: [1])
        #expect(update.isValid)
    }
}
