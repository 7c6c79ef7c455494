import DiffLabCore

/// The error thrown by ``BatchUpdate/validate()``: every violation found, in rule order.
public struct InvalidBatchUpdate: Error, Hashable, Sendable, CustomStringConvertible {
    /// The violations, never empty.
    public var violations: [BatchUpdateViolation]
    /// One line per violation.
    public var description: String { violations.map(\.message).joined(separator: "\n") }
}

extension BatchUpdate {
    /// Throws when UIKit would reject this update.
    ///
    /// - Throws: ``InvalidBatchUpdate`` listing every violation (see ``violations()``).
    /// - Complexity: O(S + k log k) for S sections and k operations.
    public func validate() throws(InvalidBatchUpdate) {
        let found = violations()
        if !found.isEmpty { throw InvalidBatchUpdate(violations: found) }
    }

    /// Whether UIKit would accept this update.
    public var isValid: Bool { violations().isEmpty }

    /// Every way this update breaks UIKit's `performBatchUpdates` rules.
    ///
    /// Rules and where each comes from (each case of ``BatchUpdateViolation`` names its source;
    /// texts and links: `Corpus/uikit-messages.md`):
    /// 1. Bounds. Deletes, reloads and move sources address the state before the update, inserts
    ///    and move destinations the state after it; sections and items must exist there (UIKit
    ///    logs and UXKit's `_endItemAnimations`; Texture's `_ASHierarchyChangeSet` asserts the
    ///    same). A reload is checked as the delete it becomes.
    /// 2. Duplicates: no section or index path twice in one list; no two moves sharing a source or a
    ///    destination (UXKit "to both" / "move both"). UIKit has no message for a repeated delete
    ///    and crashes later (radar 31786176); IGListKit dedupes deletes in `IGListBatchUpdateData`.
    /// 3. Section collisions: no delete and reload of one section (Texture); no move from a deleted
    ///    or reloaded section, or to an inserted one (UXKit; IGListKit drops such moves).
    /// 4. Section count: after == before + inserted − deleted.
    /// 5. Item collisions: delete + reload, delete + move from, reload + move from (a reload is a
    ///    delete plus an insert), insert + move to, of one index path (UIKit logs).
    /// 6. Sections and items: no item moved out of a deleted or reloaded section, or into an
    ///    inserted one (UXKit, UITableView logs); no item inserted, deleted or reloaded inside an
    ///    inserted, deleted or reloaded section (UIKit drops these silently); no item change inside
    ///    a moved section (radar 27041784; IGListKit turns such section moves into delete + insert).
    /// 7. Item count of every surviving section: after == before + inserted − deleted + moved in
    ///    − moved out (UIKit logs). Checked only when the section structure is itself valid, as
    ///    UIKit checks sections first.
    ///
    /// Hostile input: every count and index may be any `Int`, `Int.max` and negative values
    /// included. The validator never materialises items — it looks only at the listed operations
    /// and the per-section counts — and does no arithmetic that can overflow (the item-count rule
    /// compares after − before, checked, with the operations' net change), so it neither traps nor
    /// allocates in proportion to an item count. A negative count makes every index in its section
    /// out of bounds.
    ///
    /// - Complexity: O(S + k log k) time and O(S + k) memory for S sections and k listed
    ///   operations, whatever the item counts; no pass over moves per item.
    public func violations() -> [BatchUpdateViolation] {
        var found: [BatchUpdateViolation] = []
        let sectionsBefore = itemCountsBefore.count
        let sectionsAfter = itemCountsAfter.count

        // 1–2. Section bounds and duplicates.
        func sections(_ list: [Int], _ operation: BatchOperation, bound: Int) -> Set<Int> {
            var seen = Set<Int>()
            for s in list {
                if s < 0 || s >= bound {
                    found.append(.sectionOutOfBounds(operation, section: s, sectionCount: bound))
                } else if !seen.insert(s).inserted {
                    found.append(.duplicateSection(operation, section: s))
                }
            }
            return seen
        }
        let deletedSections = sections(deleteSections, .delete, bound: sectionsBefore)
        let reloadedSections = sections(reloadSections, .reload, bound: sectionsBefore)
        let insertedSections = sections(insertSections, .insert, bound: sectionsAfter)
        var movesBySource: [Int: SectionMove] = [:]
        var movesByDestination: [Int: SectionMove] = [:]
        var soundMoves: [SectionMove] = []
        for move in moveSections {
            var sound = true
            if move.from < 0 || move.from >= sectionsBefore {
                found.append(.sectionMoveOutOfBounds(move, .moveFrom, sectionCount: sectionsBefore))
                sound = false
            } else if move.to < 0 || move.to >= sectionsAfter {
                found.append(.sectionMoveOutOfBounds(move, .moveTo, sectionCount: sectionsAfter))
                sound = false
            }
            guard sound else { continue }
            if let other = movesBySource[move.from] {
                found.append(.conflictingSectionMoves(other, move, .moveFrom))
            } else if let other = movesByDestination[move.to] {
                found.append(.conflictingSectionMoves(other, move, .moveTo))
            } else {
                movesBySource[move.from] = move
                movesByDestination[move.to] = move
                soundMoves.append(move)
            }
        }
        let movedFromSections = Set(movesBySource.keys)
        let movedToSections = Set(movesByDestination.keys)

        // 3. Section collisions.
        for s in deletedSections.intersection(reloadedSections).sorted() {
            found.append(.deleteAndReloadSection(section: s))
        }
        for move in soundMoves {
            if deletedSections.contains(move.from) || reloadedSections.contains(move.from) {
                found.append(.sectionMoveFromRemovedSection(move))
            }
            if insertedSections.contains(move.to) { found.append(.sectionMoveToInsertedSection(move)) }
        }

        // 4. Section count.
        if sectionsAfter != sectionsBefore + insertSections.count - deleteSections.count {
            found.append(
                .sectionCountMismatch(
                    before: sectionsBefore, after: sectionsAfter, inserted: insertSections.count,
                    deleted: deleteSections.count))
        }
        let sectionsAreSound = found.isEmpty

        // 1–2. Item bounds and duplicates.
        func items(_ list: [ItemIndexPath], _ operation: BatchOperation, counts: [Int]) -> Set<ItemIndexPath> {
            var seen = Set<ItemIndexPath>()
            for path in list {
                if path.section < 0 || path.section >= counts.count {
                    found.append(.itemSectionOutOfBounds(operation, path, sectionCount: counts.count))
                } else if path.item < 0 || path.item >= counts[path.section] {
                    found.append(.itemOutOfBounds(operation, path, itemCount: counts[path.section]))
                } else if !seen.insert(path).inserted {
                    found.append(.duplicateItem(operation, path))
                }
            }
            return seen
        }
        let deletedItems = items(deleteItems, .delete, counts: itemCountsBefore)
        let reloadedItems = items(reloadItems, .reload, counts: itemCountsBefore)
        let insertedItems = items(insertItems, .insert, counts: itemCountsAfter)
        var itemMovesBySource: [ItemIndexPath: IndexPathMove] = [:]
        var itemMovesByDestination: [ItemIndexPath: IndexPathMove] = [:]
        var soundItemMoves: [IndexPathMove] = []
        func inBounds(_ move: IndexPathMove, _ path: ItemIndexPath, _ end: BatchOperation, counts: [Int]) -> Bool {
            if path.section < 0 || path.section >= counts.count {
                found.append(.itemMoveSectionOutOfBounds(move, end, sectionCount: counts.count))
                return false
            }
            if path.item < 0 || path.item >= counts[path.section] {
                found.append(.itemMoveOutOfBounds(move, end, itemCount: counts[path.section]))
                return false
            }
            return true
        }
        for move in moveItems {
            guard inBounds(move, move.from, .moveFrom, counts: itemCountsBefore),
                inBounds(move, move.to, .moveTo, counts: itemCountsAfter)
            else { continue }
            if let other = itemMovesBySource[move.from] {
                found.append(.conflictingItemMoves(other, move, .moveFrom))
            } else if let other = itemMovesByDestination[move.to] {
                found.append(.conflictingItemMoves(other, move, .moveTo))
            } else {
                itemMovesBySource[move.from] = move
                itemMovesByDestination[move.to] = move
                soundItemMoves.append(move)
            }
        }
        let movedFromItems = Set(itemMovesBySource.keys)
        let movedToItems = Set(itemMovesByDestination.keys)

        // 5. Item collisions.
        for path in deletedItems.intersection(reloadedItems).sorted() { found.append(.deleteAndReloadItem(path)) }
        for path in deletedItems.intersection(movedFromItems).sorted() { found.append(.deleteAndMoveItem(path)) }
        for path in reloadedItems.intersection(movedFromItems).sorted() { found.append(.reloadAndMoveItem(path)) }
        for path in insertedItems.intersection(movedToItems).sorted() { found.append(.insertAndMoveItem(path)) }

        // Where each section before the update ends up (reloaded sections stay in place).
        var newSection = [Int](repeating: -1, count: sectionsBefore)
        if sectionsAreSound {
            newSection = _survivorPositions(
                oldCount: sectionsBefore, newCount: sectionsAfter,
                removed: _flags(deletedSections.union(movedFromSections), count: sectionsBefore),
                taken: _flags(insertedSections.union(movedToSections), count: sectionsAfter))
            for move in soundMoves { newSection[move.from] = move.to }
        }
        let reloadedSectionsAfter = Set(reloadedSections.map { newSection[$0] }.filter { $0 >= 0 })

        // 6. Sections and items together.
        for move in soundItemMoves {
            if deletedSections.contains(move.from.section) || reloadedSections.contains(move.from.section) {
                found.append(.itemMoveOutOfRemovedSection(move))
            }
            if insertedSections.contains(move.to.section) || reloadedSectionsAfter.contains(move.to.section) {
                found.append(.itemMoveIntoInsertedSection(move))
            }
        }
        for (list, operation) in [(deleteItems, BatchOperation.delete), (reloadItems, .reload)] {
            for path in list {
                if deletedSections.contains(path.section) {
                    found.append(.itemOperationInChangedSection(operation, path, section: .delete))
                }
                if reloadedSections.contains(path.section) {
                    found.append(.itemOperationInChangedSection(operation, path, section: .reload))
                }
            }
        }
        for path in insertItems {
            if insertedSections.contains(path.section) {
                found.append(.itemOperationInChangedSection(.insert, path, section: .insert))
            }
            if reloadedSectionsAfter.contains(path.section) {
                found.append(.itemOperationInChangedSection(.insert, path, section: .reload))
            }
        }
        // A moved section with item changes inside it: group the item operations by section once,
        // then visit each sound move's source and destination group. Each section is the source
        // of at most one sound move and the destination of at most one, so this is O(k), not
        // O(moves × items). Order: by move, then deletes, reloads, moves from (at the source),
        // then inserts, moves to (at the destination), each in list order.
        if !soundMoves.isEmpty {
            var changesAtSource: [Int: [(BatchOperation, ItemIndexPath)]] = [:]
            var changesAtDestination: [Int: [(BatchOperation, ItemIndexPath)]] = [:]
            for path in deleteItems where movesBySource[path.section] != nil {
                changesAtSource[path.section, default: []].append((.delete, path))
            }
            for path in reloadItems where movesBySource[path.section] != nil {
                changesAtSource[path.section, default: []].append((.reload, path))
            }
            for move in soundItemMoves where movesBySource[move.from.section] != nil {
                changesAtSource[move.from.section, default: []].append((.moveFrom, move.from))
            }
            for path in insertItems where movesByDestination[path.section] != nil {
                changesAtDestination[path.section, default: []].append((.insert, path))
            }
            for move in soundItemMoves where movesByDestination[move.to.section] != nil {
                changesAtDestination[move.to.section, default: []].append((.moveTo, move.to))
            }
            for move in soundMoves {
                for (operation, path) in changesAtSource[move.from] ?? [] {
                    found.append(.sectionMoveWithItemChanges(move, operation, path))
                }
                for (operation, path) in changesAtDestination[move.to] ?? [] {
                    found.append(.sectionMoveWithItemChanges(move, operation, path))
                }
            }
        }

        // 7. Item counts of surviving sections.
        guard sectionsAreSound else { return found }
        var inserted = [Int](repeating: 0, count: sectionsAfter)
        var deleted = [Int](repeating: 0, count: sectionsBefore)
        var movedIn = [Int](repeating: 0, count: sectionsAfter)
        var movedOut = [Int](repeating: 0, count: sectionsBefore)
        for path in insertedItems { inserted[path.section] += 1 }
        for path in deletedItems { deleted[path.section] += 1 }
        for move in soundItemMoves {
            if newSection[move.from.section] != move.to.section {
                movedOut[move.from.section] += 1
                movedIn[move.to.section] += 1
            }
        }
        for s in 0..<sectionsBefore {
            let t = newSection[s]
            if t < 0 || reloadedSections.contains(s) { continue }
            // Compared as differences so that no count, however large, overflows: the operations'
            // net change is bounded by the number of operations; after − before is checked.
            let change = inserted[t] - deleted[s] + movedIn[t] - movedOut[s]
            let (difference, overflow) = itemCountsAfter[t].subtractingReportingOverflow(itemCountsBefore[s])
            if overflow || difference != change {
                found.append(
                    .itemCountMismatch(
                        section: t, before: itemCountsBefore[s], after: itemCountsAfter[t], inserted: inserted[t],
                        deleted: deleted[s], movedIn: movedIn[t], movedOut: movedOut[s]))
            }
        }
        return found
    }
}
