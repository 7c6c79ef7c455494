import DiffLabCore

extension BatchUpdate {
    /// A repaired copy that UIKit accepts, in the manner of IGListKit's `IGListBatchUpdateData`,
    /// which cleans up an update before handing it to `performBatchUpdates`.
    ///
    /// The sanitizer is driven by the validator: it repairs the first violation found and looks
    /// again, so every rule is repaired by exactly one local change:
    /// - out-of-bounds or repeated operations, and moves sharing a source or destination, are
    ///   dropped (UIKit would crash; IGListKit dedupes deletes the same way);
    /// - a section both deleted and reloaded keeps only the delete;
    /// - a section move from a deleted or reloaded section, or to an inserted one, is dropped
    ///   (IGListKit: "count-changing operations must match with data source changes");
    /// - a section move with item changes inside it becomes delete(from) + insert(to), as IGListKit
    ///   does; the item changes inside are then dropped by the next rule;
    /// - item operations inside inserted, deleted or reloaded sections are dropped; an item move
    ///   out of such a section becomes an insert at its destination, one into such a section a
    ///   delete at its source;
    /// - delete + reload of one index path keeps the delete; delete + move from keeps the delete
    ///   and inserts at the move's destination; reload + move becomes delete + insert (IGListKit's
    ///   rule for updated moves); insert + move to keeps the move;
    /// - finally, a surviving section whose item count does not add up is balanced: surplus
    ///   inserts are dropped (highest index first), then untouched items deleted; a shortfall adds
    ///   inserts at the highest free positions. This is how repeated deletes, once removed, keep
    ///   the counts the data source reports.
    ///
    /// What it cannot fix, and leaves for the validator to report: a section count that does not
    /// add up (sections before + inserted − deleted ≠ sections after), negative item counts, a
    /// surplus larger than the section's untouched items, and an imbalance of more than
    /// 1,048,576 (`maxBalancingOperations`) items in one section (repairing it would list that many
    /// operations; counts up to `Int.max` are accepted and never materialised). It makes an update *valid*, not *right*:
    /// a dropped operation can leave wrong or stale items on screen, which
    /// ``apply(to:expecting:comparison:)`` reports.
    ///
    /// - Complexity: O(p · (S + k log k)) for S sections, k operations and p validation passes;
    ///   a pass repairs one violation, or drops every item operation out of bounds or inside a
    ///   changed section at once, so the operations balancing adds cost one pass, not one each.
    public func sanitized() -> BatchUpdate {
        var update = self
        // Each repair removes an operation or turns a move into simpler operations, so the loop
        // ends; the bound is a guard, not a limit reached in practice. Balancing adds operations,
        // and each may need a repair of its own, so it extends the budget by as many (a fixed
        // budget once left repairable violations behind: Corpus/decode-fuzz-regressions).
        var budget = 4 * (operationCount + itemCountsBefore.count + itemCountsAfter.count) + 16
        // Balancing again is needed only after a repair turned a section move into a delete and an
        // insert, which never comes back: at most one round per section move, plus one.
        var balancingRounds = moveSections.count + 2
        // The violations of `update` as it stands, when known: the last pass found no repair.
        var current: [BatchUpdateViolation]?
        while budget > 0 && balancingRounds > 0 {
            current = nil
            repairing: while budget > 0 {
                budget -= 1
                let found = update.violations()
                // A pass that finds only item operations to drop (and item counts) drops them all
                // at once: each is dropped alone, whatever the others, so this is what repairing
                // them one by one gives, without re-validating once per operation (balancing can
                // add a million of them).
                if found.count > 1, let drops = Self.itemDrops(found) {
                    update.dropItems(drops)
                    continue repairing
                }
                // Repair the first violation that has a local repair; stop when none has.
                for violation in found where update.repair(violation) { continue repairing }
                // No repair applied, and one that gives up changes nothing: `found` still holds.
                current = found
                break
            }
            // Balancing can add an insert inside a moved section; then repair again.
            let repaired = update
            let found = current ?? update.violations()
            if found.allSatisfy({ $0.rule == "item-count" }) { update.balanceItemCounts(found) }
            if update == repaired { break }
            balancingRounds -= 1
            budget += 4 * max(0, update.operationCount - repaired.operationCount) + 16
        }
        return update
    }

    /// The largest item-count imbalance of one section the sanitizer repairs: 1,048,576. Balancing
    /// adds or removes one operation per missing or surplus item, so this bounds its work and
    /// memory whatever the item counts.
    package static let maxBalancingOperations = 1 << 20

    /// The number of operations listed.
    var operationCount: Int {
        insertSections.count + deleteSections.count + reloadSections.count + moveSections.count + insertItems.count
            + deleteItems.count + reloadItems.count + moveItems.count
    }

    /// Applies the one local repair for `violation`; `false`, with nothing changed, when there is
    /// none.
    private mutating func repair(_ violation: BatchUpdateViolation) -> Bool {
        switch violation {
        case .sectionCountMismatch, .itemCountMismatch:
            return false
        case let .sectionOutOfBounds(operation, section, _), let .duplicateSection(operation, section):
            return removeSection(section, operation)
        case let .sectionMoveOutOfBounds(move, _, _), let .sectionMoveFromRemovedSection(move),
            let .sectionMoveToInsertedSection(move):
            return removeFirst(move, from: &moveSections)
        case let .conflictingSectionMoves(_, later, _):
            return removeFirst(later, from: &moveSections)
        case let .deleteAndReloadSection(section):
            return removeFirst(section, from: &reloadSections)
        case let .sectionMoveWithItemChanges(move, _, _):
            guard removeFirst(move, from: &moveSections) else { return false }
            deleteSections.append(move.from)
            insertSections.append(move.to)
            return true
        case let .itemSectionOutOfBounds(operation, path, _), let .itemOutOfBounds(operation, path, _),
            let .duplicateItem(operation, path), let .itemOperationInChangedSection(operation, path, _):
            return removeItem(path, operation)
        case let .itemMoveSectionOutOfBounds(move, _, _), let .itemMoveOutOfBounds(move, _, _):
            return removeFirst(move, from: &moveItems)
        case let .conflictingItemMoves(_, later, _):
            return removeFirst(later, from: &moveItems)
        case let .deleteAndReloadItem(path):
            return removeFirst(path, from: &reloadItems)
        case let .deleteAndMoveItem(path):
            guard let move = moveItems.first(where: { $0.from == path }), removeFirst(move, from: &moveItems)
            else { return false }
            insertItems.append(move.to)
            return true
        case let .reloadAndMoveItem(path):
            guard let move = moveItems.first(where: { $0.from == path }), reloadItems.contains(path) else { return false }
            _ = removeFirst(move, from: &moveItems)
            _ = removeFirst(path, from: &reloadItems)
            deleteItems.append(move.from)
            insertItems.append(move.to)
            return true
        case let .insertAndMoveItem(path):
            return removeFirst(path, from: &insertItems)
        case let .itemMoveOutOfRemovedSection(move):
            guard removeFirst(move, from: &moveItems) else { return false }
            insertItems.append(move.to)
            return true
        case let .itemMoveIntoInsertedSection(move):
            guard removeFirst(move, from: &moveItems) else { return false }
            deleteItems.append(move.from)
            return true
        }
    }

    /// The item operations to drop when every violation in `found` is an insert, delete or reload
    /// out of bounds or inside a changed section (or an item count, which has no repair); `nil`
    /// otherwise.
    private static func itemDrops(_ found: [BatchUpdateViolation]) -> [(BatchOperation, ItemIndexPath)]? {
        var drops: [(BatchOperation, ItemIndexPath)] = []
        for violation in found {
            switch violation {
            case let .itemSectionOutOfBounds(operation, path, _), let .itemOutOfBounds(operation, path, _),
                let .itemOperationInChangedSection(operation, path, _):
                // A move can be reported at both ends; those go one at a time.
                guard operation != .moveFrom && operation != .moveTo else { return nil }
                drops.append((operation, path))
            case .itemCountMismatch:
                continue
            default:
                return nil
            }
        }
        return drops.isEmpty ? nil : drops
    }

    /// Drops one listed operation per entry of `drops` (the last insert, delete or reload of that
    /// path), as ``removeItem(_:_:)`` does one at a time.
    ///
    /// - Complexity: O(k + d) for k operations and d drops.
    private mutating func dropItems(_ drops: [(BatchOperation, ItemIndexPath)]) {
        var counts: [BatchOperation: [ItemIndexPath: Int]] = [:]
        for (operation, path) in drops { counts[operation, default: [:]][path, default: 0] += 1 }
        /// Removes `count[path]` occurrences of each path, from the end.
        func drop(_ list: inout [ItemIndexPath], _ count: [ItemIndexPath: Int]?) {
            guard var count, !count.isEmpty else { return }
            var keep = [Bool](repeating: true, count: list.count)
            for index in list.indices.reversed() {
                let path = list[index]
                if let left = count[path], left > 0 {
                    keep[index] = false
                    count[path] = left - 1
                }
            }
            list = list.indices.filter { keep[$0] }.map { list[$0] }
        }
        drop(&insertItems, counts[.insert])
        drop(&deleteItems, counts[.delete])
        drop(&reloadItems, counts[.reload])
    }

    private mutating func removeSection(_ section: Int, _ operation: BatchOperation) -> Bool {
        switch operation {
        case .insert: removeLast(section, from: &insertSections)
        case .delete: removeLast(section, from: &deleteSections)
        case .reload: removeLast(section, from: &reloadSections)
        case .moveFrom, .moveTo: false
        }
    }

    private mutating func removeItem(_ path: ItemIndexPath, _ operation: BatchOperation) -> Bool {
        switch operation {
        case .insert: removeLast(path, from: &insertItems)
        case .delete: removeLast(path, from: &deleteItems)
        case .reload: removeLast(path, from: &reloadItems)
        case .moveFrom: removeFirst(where: { $0.from == path }, from: &moveItems)
        case .moveTo: removeFirst(where: { $0.to == path }, from: &moveItems)
        }
    }

    /// Balances every surviving section's item count, given the update's `violations`; see
    /// ``sanitized()``.
    private mutating func balanceItemCounts(_ violations: [BatchUpdateViolation]) {
        for violation in violations {
            guard case let .itemCountMismatch(section, before, after, inserted, deleted, movedIn, movedOut) = violation
            else { continue }
            // The operations' net change is bounded by their number; after − before is checked,
            // so no count, however large, overflows. An imbalance beyond the limit is left for the
            // validator to report: repairing it would list that many operations.
            let (difference, overflow) = after.subtractingReportingOverflow(before)
            let (imbalance, overflowAgain) = (inserted - deleted + movedIn - movedOut).subtractingReportingOverflow(difference)
            guard !overflow, !overflowAgain, imbalance.magnitude <= UInt(Self.maxBalancingOperations) else { continue }
            var surplus = imbalance
            // Too many items: drop inserts into the section, highest first (stable among equal
            // items: the earliest listed of the highest goes first).
            if surplus > 0 {
                let candidates = insertItems.indices.filter { insertItems[$0].section == section }
                    .sorted { (insertItems[$0].item, $1) > (insertItems[$1].item, $0) }
                let dropped = Set(candidates.prefix(surplus))
                surplus -= dropped.count
                insertItems = insertItems.indices.filter { !dropped.contains($0) }.map { insertItems[$0] }
            }
            // Still too many: delete items of the section it came from that are neither deleted nor
            // moved away, highest first (a reloaded item loses its reload: delete wins).
            if surplus > 0, let old = sourceSection(ofNew: section) {
                let taken = Set(deleteItems + moveItems.map { $0.from }).filter { $0.section == old }
                var item = max(itemCountsBefore[old], 0) - 1
                var added = Set<ItemIndexPath>()
                while surplus > 0 && item >= 0 {
                    let path = ItemIndexPath(section: old, item: item)
                    if !taken.contains(path) {
                        deleteItems.append(path)
                        added.insert(path)
                        surplus -= 1
                    }
                    item -= 1
                }
                reloadItems.removeAll { added.contains($0) }
            }
            // Too few: insert at the highest free positions.
            if surplus < 0 {
                let taken = Set(insertItems + moveItems.map { $0.to }).filter { $0.section == section }
                var item = max(after, 0) - 1
                while surplus < 0 && item >= 0 {
                    let path = ItemIndexPath(section: section, item: item)
                    if !taken.contains(path) {
                        insertItems.append(path)
                        surplus += 1
                    }
                    item -= 1
                }
            }
        }
    }

    /// The section before the update that becomes section `new` after it, when it survives.
    private func sourceSection(ofNew new: Int) -> Int? {
        let positions = _survivorPositions(
            oldCount: itemCountsBefore.count, newCount: itemCountsAfter.count,
            removed: _flags(deleteSections + moveSections.map { $0.from }, count: itemCountsBefore.count),
            taken: _flags(insertSections + moveSections.map { $0.to }, count: itemCountsAfter.count))
        if let move = moveSections.first(where: { $0.to == new }) { return move.from }
        return positions.firstIndex(of: new)
    }
}

private func removeFirst<T: Equatable>(_ value: T, from list: inout [T]) -> Bool {
    removeFirst(where: { $0 == value }, from: &list)
}

private func removeFirst<T>(where predicate: (T) -> Bool, from list: inout [T]) -> Bool {
    guard let i = list.firstIndex(where: predicate) else { return false }
    list.remove(at: i)
    return true
}

private func removeLast<T: Equatable>(_ value: T, from list: inout [T]) -> Bool {
    guard let i = list.lastIndex(of: value) else { return false }
    list.remove(at: i)
    return true
}
