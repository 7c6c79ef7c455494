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

        // 1–2. Section bounds and duplicates. Sections are flags over the materialised section
        // counts (O(S)); item operations are sorted arrays (O(k log k)), never flags over items.
        func sections(_ list: [Int], _ operation: BatchOperation, bound: Int) -> [Bool] {
            var seen = [Bool](repeating: false, count: bound)
            for s in list {
                if s < 0 || s >= bound {
                    found.append(.sectionOutOfBounds(operation, section: s, sectionCount: bound))
                } else if seen[s] {
                    found.append(.duplicateSection(operation, section: s))
                } else {
                    seen[s] = true
                }
            }
            return seen
        }
        let deletedSections = sections(deleteSections, .delete, bound: sectionsBefore)
        let reloadedSections = sections(reloadSections, .reload, bound: sectionsBefore)
        let insertedSections = sections(insertSections, .insert, bound: sectionsAfter)
        // The sound move from (to) each section, as an index into `moveSections`, or -1.
        var moveFrom = [Int](repeating: -1, count: sectionsBefore)
        var moveTo = [Int](repeating: -1, count: sectionsAfter)
        var soundMoves: [SectionMove] = []
        for (k, move) in moveSections.enumerated() {
            if move.from < 0 || move.from >= sectionsBefore {
                found.append(.sectionMoveOutOfBounds(move, .moveFrom, sectionCount: sectionsBefore))
            } else if move.to < 0 || move.to >= sectionsAfter {
                found.append(.sectionMoveOutOfBounds(move, .moveTo, sectionCount: sectionsAfter))
            } else if moveFrom[move.from] >= 0 {
                found.append(.conflictingSectionMoves(moveSections[moveFrom[move.from]], move, .moveFrom))
            } else if moveTo[move.to] >= 0 {
                found.append(.conflictingSectionMoves(moveSections[moveTo[move.to]], move, .moveTo))
            } else {
                moveFrom[move.from] = k
                moveTo[move.to] = k
                soundMoves.append(move)
            }
        }

        // 3. Section collisions.
        for s in 0..<sectionsBefore where deletedSections[s] && reloadedSections[s] {
            found.append(.deleteAndReloadSection(section: s))
        }
        for move in soundMoves {
            if deletedSections[move.from] || reloadedSections[move.from] {
                found.append(.sectionMoveFromRemovedSection(move))
            }
            if insertedSections[move.to] { found.append(.sectionMoveToInsertedSection(move)) }
        }

        // 4. Section count.
        if sectionsAfter != sectionsBefore + insertSections.count - deleteSections.count {
            found.append(
                .sectionCountMismatch(
                    before: sectionsBefore, after: sectionsAfter, inserted: insertSections.count,
                    deleted: deleteSections.count))
        }
        let sectionsAreSound = found.isEmpty

        // 1–2. Item bounds and duplicates: each list's in-bounds paths, first occurrences only,
        // sorted; violations in list order.
        func bounds(_ path: ItemIndexPath, _ counts: [Int]) -> _PathBounds {
            if path.section < 0 || path.section >= counts.count { return .sectionOutside }
            return path.item < 0 || path.item >= counts[path.section] ? .itemOutside : .inside
        }
        func items(_ list: [ItemIndexPath], _ operation: BatchOperation, counts: [Int]) -> [ItemIndexPath] {
            let inside = list.indices.filter { bounds(list[$0], counts) == .inside }
            let repeated = _laterRepeats(inside, of: list)
            for (i, path) in list.enumerated() {
                switch bounds(path, counts) {
                case .sectionOutside: found.append(.itemSectionOutOfBounds(operation, path, sectionCount: counts.count))
                case .itemOutside: found.append(.itemOutOfBounds(operation, path, itemCount: counts[path.section]))
                case .inside: if repeated.contains(i) { found.append(.duplicateItem(operation, path)) }
                }
            }
            return _sortedUnique(inside.map { list[$0] })
        }
        let deletedItems = items(deleteItems, .delete, counts: itemCountsBefore)
        let reloadedItems = items(reloadItems, .reload, counts: itemCountsBefore)
        let insertedItems = items(insertItems, .insert, counts: itemCountsAfter)
        func inBounds(_ move: IndexPathMove, _ path: ItemIndexPath, _ end: BatchOperation, counts: [Int], report: Bool) -> Bool {
            switch bounds(path, counts) {
            case .inside: return true
            case .sectionOutside: if report { found.append(.itemMoveSectionOutOfBounds(move, end, sectionCount: counts.count)) }
            case .itemOutside: if report { found.append(.itemMoveOutOfBounds(move, end, itemCount: counts[path.section])) }
            }
            return false
        }
        // A move is sound when it is in bounds and no earlier sound move shares its source or
        // destination: number the distinct sources and destinations once (by sorting), then take
        // the moves in order, each looking up the sound move that holds its source or destination.
        let candidates = moveItems.indices.filter {
            inBounds(moveItems[$0], moveItems[$0].from, .moveFrom, counts: itemCountsBefore, report: false)
                && inBounds(moveItems[$0], moveItems[$0].to, .moveTo, counts: itemCountsAfter, report: false)
        }
        let sourceRank = _ranks(candidates, count: moveItems.count) { moveItems[$0].from }
        let destinationRank = _ranks(candidates, count: moveItems.count) { moveItems[$0].to }
        var soundFrom = [Int](repeating: -1, count: candidates.count)
        var soundTo = [Int](repeating: -1, count: candidates.count)
        var soundItemMoves: [IndexPathMove] = []
        for (k, move) in moveItems.enumerated() {
            guard inBounds(move, move.from, .moveFrom, counts: itemCountsBefore, report: true),
                inBounds(move, move.to, .moveTo, counts: itemCountsAfter, report: true)
            else { continue }
            if soundFrom[sourceRank[k]] >= 0 {
                found.append(.conflictingItemMoves(moveItems[soundFrom[sourceRank[k]]], move, .moveFrom))
            } else if soundTo[destinationRank[k]] >= 0 {
                found.append(.conflictingItemMoves(moveItems[soundTo[destinationRank[k]]], move, .moveTo))
            } else {
                soundFrom[sourceRank[k]] = k
                soundTo[destinationRank[k]] = k
                soundItemMoves.append(move)
            }
        }
        // Sound moves share no source and no destination: sorting leaves them unique.
        let movedFromItems = soundItemMoves.map(\.from).sorted()
        let movedToItems = soundItemMoves.map(\.to).sorted()

        // 5. Item collisions.
        for path in _common(deletedItems, reloadedItems) { found.append(.deleteAndReloadItem(path)) }
        for path in _common(deletedItems, movedFromItems) { found.append(.deleteAndMoveItem(path)) }
        for path in _common(reloadedItems, movedFromItems) { found.append(.reloadAndMoveItem(path)) }
        for path in _common(insertedItems, movedToItems) { found.append(.insertAndMoveItem(path)) }

        // Where each section before the update ends up (reloaded sections stay in place).
        var newSection = [Int](repeating: -1, count: sectionsBefore)
        if sectionsAreSound {
            newSection = _survivorPositions(
                oldCount: sectionsBefore, newCount: sectionsAfter,
                removed: (0..<sectionsBefore).map { deletedSections[$0] || moveFrom[$0] >= 0 },
                taken: (0..<sectionsAfter).map { insertedSections[$0] || moveTo[$0] >= 0 })
            for move in soundMoves { newSection[move.from] = move.to }
        }
        var reloadedSectionsAfter = [Bool](repeating: false, count: sectionsAfter)
        for s in 0..<sectionsBefore where reloadedSections[s] && newSection[s] >= 0 {
            reloadedSectionsAfter[newSection[s]] = true
        }
        /// Whether `flags` holds section `s` (any `Int`: item operations may name any section).
        func has(_ flags: [Bool], _ s: Int) -> Bool { s >= 0 && s < flags.count && flags[s] }
        func moved(_ sectionMoves: [Int], _ s: Int) -> Bool { s >= 0 && s < sectionMoves.count && sectionMoves[s] >= 0 }

        // 6. Sections and items together.
        for move in soundItemMoves {
            if deletedSections[move.from.section] || reloadedSections[move.from.section] {
                found.append(.itemMoveOutOfRemovedSection(move))
            }
            if insertedSections[move.to.section] || reloadedSectionsAfter[move.to.section] {
                found.append(.itemMoveIntoInsertedSection(move))
            }
        }
        for (list, operation) in [(deleteItems, BatchOperation.delete), (reloadItems, .reload)] {
            for path in list {
                if has(deletedSections, path.section) {
                    found.append(.itemOperationInChangedSection(operation, path, section: .delete))
                }
                if has(reloadedSections, path.section) {
                    found.append(.itemOperationInChangedSection(operation, path, section: .reload))
                }
            }
        }
        for path in insertItems {
            if has(insertedSections, path.section) {
                found.append(.itemOperationInChangedSection(.insert, path, section: .insert))
            }
            if has(reloadedSectionsAfter, path.section) {
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
            for path in deleteItems where moved(moveFrom, path.section) {
                changesAtSource[path.section, default: []].append((.delete, path))
            }
            for path in reloadItems where moved(moveFrom, path.section) {
                changesAtSource[path.section, default: []].append((.reload, path))
            }
            for move in soundItemMoves where moveFrom[move.from.section] >= 0 {
                changesAtSource[move.from.section, default: []].append((.moveFrom, move.from))
            }
            for path in insertItems where moved(moveTo, path.section) {
                changesAtDestination[path.section, default: []].append((.insert, path))
            }
            for move in soundItemMoves where moveTo[move.to.section] >= 0 {
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
            if t < 0 || reloadedSections[s] { continue }
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

/// Where an index path lies against a list of section counts.
enum _PathBounds {
    case inside, sectionOutside, itemOutside
}

/// The positions among `positions` (indices of `list`) whose path occurred at an earlier one.
///
/// - Complexity: O(p) when the paths at `positions` are increasing (as engines list them), else
///   O(p log p) for p positions.
func _laterRepeats(_ positions: [Int], of list: [ItemIndexPath]) -> Set<Int> {
    if zip(positions, positions.dropFirst()).allSatisfy({ list[$0] < list[$1] }) { return [] }
    let order = positions.sorted { list[$0] < list[$1] || (list[$0] == list[$1] && $0 < $1) }
    var repeated = Set<Int>()
    for (earlier, later) in zip(order, order.dropFirst()) where list[earlier] == list[later] { repeated.insert(later) }
    return repeated
}

/// `paths` sorted, each once. - Complexity: O(k log k), O(k) when already increasing.
func _sortedUnique(_ paths: [ItemIndexPath]) -> [ItemIndexPath] {
    if zip(paths, paths.dropFirst()).allSatisfy({ $0 < $1 }) { return paths }
    var unique: [ItemIndexPath] = []
    for path in paths.sorted() where unique.last != path { unique.append(path) }
    return unique
}

/// The paths in both sorted, duplicate-free `a` and `b`, in order. - Complexity: O(|a| + |b|).
func _common(_ a: [ItemIndexPath], _ b: [ItemIndexPath]) -> [ItemIndexPath] {
    var common: [ItemIndexPath] = []
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
        if a[i] < b[j] {
            i += 1
        } else if b[j] < a[i] {
            j += 1
        } else {
            common.append(a[i])
            i += 1
            j += 1
        }
    }
    return common
}

/// For each of `positions` (indices below `count`), the rank of its key among the distinct keys
/// of all `positions` (equal keys, equal ranks; ranks below `positions.count`); other indices get 0.
///
/// - Complexity: O(p log p) for p positions, O(p) when the keys are already increasing.
func _ranks(_ positions: [Int], count: Int, key: (Int) -> ItemIndexPath) -> [Int] {
    var ranks = [Int](repeating: 0, count: count)
    let order =
        zip(positions, positions.dropFirst()).allSatisfy({ key($0) < key($1) })
        ? positions : positions.sorted { key($0) < key($1) }
    var rank = -1
    for (n, position) in order.enumerated() {
        if n == 0 || key(order[n - 1]) != key(position) { rank += 1 }
        ranks[position] = rank
    }
    return ranks
}
