import DiffLabBatch
import DiffLabCore
import Testing

/// Issue 10, "hostile input": counts and indices anywhere in `Int`'s range neither trap nor
/// allocate per item, and validation stays O(S + k log k) however many section moves there are.
@Suite("Batch updates on hostile input")
struct HostileInputTests {
    // MARK: Counts near Int.max

    /// `{"before":[Int.max],"after":[Int.max],"insertItems":[[0,0]]}` trapped with an arithmetic
    /// overflow in the item-count rule (before + inserted).
    @Test func itemCountNearIntMaxIsAViolationNotATrap() {
        let update = BatchUpdate(itemCountsBefore: [Int.max], itemCountsAfter: [Int.max], insertItems: [p(0, 0)])
        #expect(
            update.violations() == [
                .itemCountMismatch(section: 0, before: Int.max, after: Int.max, inserted: 1, deleted: 0, movedIn: 0, movedOut: 0)
            ])
    }

    @Test func validUpdateOfHugeSectionsIsValid() {
        let update = BatchUpdate(
            itemCountsBefore: [Int.max, Int.max - 1], itemCountsAfter: [Int.max - 1, Int.max],
            reloadItems: [p(0, Int.max - 1)], moveItems: [mv(p(0, 5), p(1, Int.max - 1))])
        #expect(update.violations() == [])
    }

    @Test(arguments: [
        ([Int.max], [1], [p(0, 0)]), ([Int.min], [Int.max], []), ([Int.max], [Int.min], []), ([0], [Int.max], [p(0, 0)]),
        ([-1], [Int.max], []),
    ])
    func extremeCountsAreReportedNotTrapped(before: [Int], after: [Int], inserts: [ItemIndexPath]) {
        let update = BatchUpdate(itemCountsBefore: before, itemCountsAfter: after, insertItems: inserts)
        let found = update.violations()
        #expect(found.contains { $0.rule == "item-count" }, "\(found)")
    }

    /// The sanitizer balanced such a section by listing one delete per surplus item: Int.max of
    /// them (a trap first, in its own count arithmetic).
    @Test func sanitizerLeavesAnUnrepairableImbalanceToTheValidator() {
        let update = BatchUpdate(itemCountsBefore: [Int.max], itemCountsAfter: [1], insertItems: [p(0, 0)])
        let repaired = update.sanitized()
        #expect(repaired == update)
        #expect(repaired.violations().map(\.rule) == ["item-count"])
        let opposite = BatchUpdate(itemCountsBefore: [0], itemCountsAfter: [Int.max])
        #expect(opposite.sanitized() == opposite)
        let negative = BatchUpdate(itemCountsBefore: [Int.min], itemCountsAfter: [Int.max])
        #expect(negative.sanitized() == negative)
    }

    @Test func sanitizerStillBalancesWithinItsLimit() {
        // One item too few after: the sanitizer inserts at the highest free position.
        let update = BatchUpdate(itemCountsBefore: [3], itemCountsAfter: [4])
        let repaired = update.sanitized()
        #expect(repaired.insertItems == [p(0, 3)])
        #expect(repaired.isValid)
        // Just over the limit: left alone, without listing a million operations.
        let tooFar = BatchUpdate(itemCountsBefore: [0], itemCountsAfter: [BatchUpdate.maxBalancingOperations + 1])
        #expect(tooFar.sanitized() == tooFar)
    }

    // MARK: Linear validation

    /// `count` sections of 4 items; sections `0..<moved` swapped pairwise by section moves; item 0
    /// reloaded in every section of `reloaded`.
    static func movesAndReloads(sections count: Int, moved: Int, reloaded: Range<Int>) -> BatchUpdate {
        var moves: [SectionMove] = []
        for s in stride(from: 0, to: moved, by: 2) {
            moves.append(SectionMove(from: s, to: s + 1))
            moves.append(SectionMove(from: s + 1, to: s))
        }
        let counts = [Int](repeating: 4, count: count)
        return BatchUpdate(
            itemCountsBefore: counts, itemCountsAfter: counts, moveSections: moves, reloadItems: reloaded.map { p($0, 0) })
    }

    /// 200,000 section moves and 200,000 item reloads elsewhere: valid. The validator used to scan
    /// every item operation once per section move (4·10^10 steps; 21 s in release); it finishes
    /// now because it groups the item operations by section once.
    @Test func manySectionMovesAndReloadsElsewhereValidate() {
        let update = Self.movesAndReloads(sections: 400_000, moved: 200_000, reloaded: 200_000..<400_000)
        #expect(update.moveSections.count == 200_000)
        #expect(update.reloadItems.count == 200_000)
        #expect(update.violations() == [])
    }

    /// The same, with every reload inside a moved section: one violation per reload, in the order
    /// the quadratic scan gave (by move, then by list and position).
    @Test func manySectionMovesWithReloadsInsideReportEachOnce() {
        let update = Self.movesAndReloads(sections: 200_000, moved: 200_000, reloaded: 0..<200_000)
        let found = update.violations()
        #expect(found.count == 200_000)
        #expect(found.allSatisfy { $0.rule == "section-move-with-item-changes" })
        #expect(found.first == .sectionMoveWithItemChanges(SectionMove(from: 0, to: 1), .reload, p(0, 0)))
        #expect(found.last == .sectionMoveWithItemChanges(SectionMove(from: 199_999, to: 199_998), .reload, p(199_999, 0)))
    }

    /// The order of the moved-section rule: by section move, then deletes, reloads and moves from
    /// at the source, then inserts and moves to at the destination, each in list order.
    @Test func sectionMoveWithItemChangesKeepsItsOrder() {
        let update = BatchUpdate(
            itemCountsBefore: [3, 3, 3], itemCountsAfter: [3, 3, 3],
            moveSections: [SectionMove(from: 2, to: 0), SectionMove(from: 0, to: 2)],
            insertItems: [p(2, 1), p(0, 2)], deleteItems: [p(0, 1), p(2, 0)], reloadItems: [p(2, 2), p(0, 0)],
            moveItems: [mv(p(0, 2), p(2, 0)), mv(p(2, 1), p(0, 1))])
        let moved = update.violations().filter { $0.rule == "section-move-with-item-changes" }
        let a = SectionMove(from: 2, to: 0)
        let b = SectionMove(from: 0, to: 2)
        #expect(
            moved == [
                .sectionMoveWithItemChanges(a, .delete, p(2, 0)), .sectionMoveWithItemChanges(a, .reload, p(2, 2)),
                .sectionMoveWithItemChanges(a, .moveFrom, p(2, 1)), .sectionMoveWithItemChanges(a, .insert, p(0, 2)),
                .sectionMoveWithItemChanges(a, .moveTo, p(0, 1)), .sectionMoveWithItemChanges(b, .delete, p(0, 1)),
                .sectionMoveWithItemChanges(b, .reload, p(0, 0)), .sectionMoveWithItemChanges(b, .moveFrom, p(0, 2)),
                .sectionMoveWithItemChanges(b, .insert, p(2, 1)), .sectionMoveWithItemChanges(b, .moveTo, p(2, 0)),
            ])
    }
}
