// The problem finders both levels of checks share: one batch, one stage, the sanitizer's contract,
// the offsets rule, updates, scripts and mirrors.

import DiffLabBatch
import DiffLabCore
import DiffLabEngines

func oneSection(_ items: [FuzzItem]) -> SectionedList<Int, FuzzItem> {
    SectionedList([.init(id: 0, items: items)])
}

func mismatchKind(_ mismatch: ApplicationMismatch) -> String {
    switch mismatch {
    case .countsDisagree: "counts"
    case .wrongSection: "wrong-section"
    case .wrongItem: "wrong-item"
    case .staleContent: "stale-content"
    }
}

/// The first problem of `update` as one batch from `old` to `new`: a UIKit rule it breaks, or a
/// difference of the applied outcome from `new` (identity and content). `prefix` starts the
/// signature's detail, `context` the message.
func batchProblem(
    _ update: BatchUpdate, from old: [FuzzItem], to new: [FuzzItem], _ prefix: String, _ context: String, _ fail: Fail
) -> PropertyFailure? {
    stageProblem(update, from: oneSection(old), to: oneSection(new), prefix, context, fail)
}

/// The sanitizer's contract on a clean batch update from `old` to `new` and its corruptions.
///
/// - A valid update is returned unchanged.
/// - The repaired update breaks no UIKit rule, except a section count the corruption made
///   unrepairable: the corrupted update already had a wrong section count, or an out-of-bounds
///   or repeated section operation (dropping a section insert or delete changes the count).
/// - Where every corruption is an extra reload, or an extra delete of an item the update moves,
///   the documented repairs (delete + reload keeps the delete, reload + move becomes delete +
///   insert, delete + move keeps the delete and inserts at the destination) put every item
///   where it belongs: the repaired update is right, not only valid.
func sanitizerProblem(
    _ clean: BatchUpdate, _ corruptions: [Corruption], from old: [FuzzItem], to new: [FuzzItem], _ fail: Fail
) -> PropertyFailure? {
    if clean.sanitized() != clean && clean.isValid {
        return fail("changed-valid-update", "the sanitizer changed a valid update")
    }
    let corrupted = corrupt(clean, with: corruptions)
    let output = corrupted.sanitized()
    let countBroken = corrupted.violations().contains {
        ["section-count", "section-bounds", "duplicate-section"].contains($0.rule)
    }
    if let violation = output.violations().first(where: { !countBroken || $0.rule != "section-count" }) {
        return fail("still-invalid/\(violation.rule)", violation.message)
    }
    let moved = Set(clean.moveItems.map(\.from))
    let repairsRight =
        !corruptions.isEmpty
        && corruptions.allSatisfy {
            switch $0 {
            case .reload: true
            case let .delete(item): moved.contains(ItemIndexPath(section: 0, item: item))
            default: false
            }
        }
    if repairsRight && batchProblem(clean, from: old, to: new, "", "", fail) == nil,
        let problem = batchProblem(output, from: old, to: new, "repaired-wrong/", "the repaired update: ", fail)
    {
        return problem
    }
    return nil
}

/// The first problem of one sectioned update from `old` to `new`: a UIKit rule it breaks, or a
/// difference of the applied outcome from `new`.
func stageProblem(
    _ update: BatchUpdate, from old: SectionedList<Int, FuzzItem>, to new: SectionedList<Int, FuzzItem>,
    _ prefix: String, _ context: String, _ fail: Fail
) -> PropertyFailure? {
    // The applier validates first and throws every violation: the first is the one reported.
    do {
        if let mismatch = try update.apply(to: old, expecting: new).mismatches.first {
            return fail(prefix + mismatchKind(mismatch), context + "\(mismatch)")
        }
    } catch {
        guard let violation = error.violations.first else { return fail(prefix + "invalid", context + error.description) }
        return fail(prefix + violation.rule, context + violation.message)
    }
    return nil
}

/// The section pairing a valid update implies, as new section → old section (−1: inserted), by
/// UIKit's rule and independently of any diff: moved sections go where their moves say; the
/// other surviving sections keep their order and fill the remaining new positions in turn.
///
/// - Complexity: O(S + k) for S sections and k section operations.
func impliedSectionPairing(_ update: BatchUpdate) -> [Int] {
    let before = update.itemCountsBefore.count
    let after = update.itemCountsAfter.count
    var newToOld = [Int](repeating: -1, count: after)
    var taken = [Bool](repeating: false, count: after)
    var leaves = [Bool](repeating: false, count: before)
    for s in update.deleteSections where s >= 0 && s < before { leaves[s] = true }
    for t in update.insertSections where t >= 0 && t < after { taken[t] = true }
    for move in update.moveSections where move.from >= 0 && move.from < before && move.to >= 0 && move.to < after {
        leaves[move.from] = true
        taken[move.to] = true
        newToOld[move.to] = move.from
    }
    fillInOrder(&newToOld, leaves: leaves, taken: taken)
    return newToOld
}

/// UIKit's rule for what an update does not name: the old positions that neither leave nor move
/// keep their order and fill, in turn, the new positions nothing takes (`newToOld[t] = old`).
///
/// - Complexity: O(leaves.count + taken.count).
func fillInOrder(_ newToOld: inout [Int], leaves: [Bool], taken: [Bool]) {
    var t = 0
    for old in leaves.indices where !leaves[old] {
        while t < taken.count && taken[t] { t += 1 }
        guard t < taken.count else { break }
        newToOld[t] = old
        t += 1
    }
}

/// In an item stage of an update that has passed `stageProblem` (valid: item inserts and moves,
/// no section operation, the same sections before and after; anything else is not judged and
/// gives `nil`), the first
/// section whose moves within itself are more than its pairing needs: by UIKit's rule the items
/// of a section that do not move keep their order and fill the positions that moves and inserts
/// leave, so the promise "per section, a longest increasing run of items stays put" holds when
/// the section's moves within itself are the fewest for the pairing they imply. Returns the
/// section, its moves within itself and the fewest, or `nil`.
///
/// - Complexity: O(S·k + I log I) for S sections, k operations and I items.
func excessInSectionMoves(_ update: BatchUpdate) -> (section: Int, moves: Int, fewest: Int)? {
    let sections = update.itemCountsAfter.count
    guard sections == update.itemCountsBefore.count else { return nil }
    for s in 0..<sections {
        let before = update.itemCountsBefore[s]
        let after = update.itemCountsAfter[s]
        guard before >= 0, after >= 0, before <= 1 << 24, after <= 1 << 24 else { return nil }
        var newToOld = [Int](repeating: -1, count: after)
        var taken = [Bool](repeating: false, count: after)
        var leaves = [Bool](repeating: false, count: before)
        var within = 0
        for move in update.moveItems {
            let fromHere = move.from.section == s && move.from.item >= 0 && move.from.item < before
            if fromHere { leaves[move.from.item] = true }
            guard move.to.section == s, move.to.item >= 0, move.to.item < after else { continue }
            taken[move.to.item] = true
            if fromHere {
                newToOld[move.to.item] = move.from.item
                within += 1
            }
        }
        for path in update.insertItems where path.section == s && path.item >= 0 && path.item < after { taken[path.item] = true }
        fillInOrder(&newToOld, leaves: leaves, taken: taken)
        guard within > 0 else { continue }
        let fewest = fewestMoves(newToOld: newToOld, oldCount: before)
        if within > fewest { return (s, within, fewest) }
    }
    return nil
}

/// A section stage (inserts and moves of sections, nothing else) followed by an item stage
/// (inserts and moves of items, nothing else) as one batch update from the first stage's data
/// to the second's, or `nil` when they do not merge: when an item operation touches a section
/// that is inserted or moved (UIKit forbids both in one update), or either stage has other
/// operations.
///
/// The merged update moves sections and items across sections at once, so an item's source and
/// destination section indices differ even where its section stays: the validator must count
/// item moves by the sections' new indices (an item moved between the two index spaces of one
/// section is no move out of it). A staged changeset never holds such an update; merging its
/// stages makes one that is valid by construction.
/// - Complexity: O(S + k) for S sections and k operations.
func mergedSectionAndItemStages(_ sections: BatchUpdate, _ items: BatchUpdate) -> BatchUpdate? {
    guard sections.deleteSections.isEmpty, sections.reloadSections.isEmpty,
        !sections.insertSections.isEmpty || !sections.moveSections.isEmpty,
        sections.insertItems.isEmpty, sections.deleteItems.isEmpty, sections.reloadItems.isEmpty,
        sections.moveItems.isEmpty, items.insertSections.isEmpty, items.deleteSections.isEmpty,
        items.reloadSections.isEmpty, items.moveSections.isEmpty, items.deleteItems.isEmpty,
        items.reloadItems.isEmpty, !items.insertItems.isEmpty || !items.moveItems.isEmpty,
        sections.itemCountsAfter == items.itemCountsBefore
    else { return nil }
    let newToOld = impliedSectionPairing(sections)
    let changed = Set(sections.insertSections + sections.moveSections.map(\.to))
    func isFree(_ section: Int) -> Bool { section >= 0 && section < newToOld.count && !changed.contains(section) }
    guard items.insertItems.allSatisfy({ isFree($0.section) }),
        items.moveItems.allSatisfy({ isFree($0.from.section) && isFree($0.to.section) })
    else { return nil }
    var merged = sections
    merged.itemCountsAfter = items.itemCountsAfter
    merged.insertItems = items.insertItems
    merged.moveItems = items.moveItems.map {
        IndexPathMove(from: ItemIndexPath(section: newToOld[$0.from.section], item: $0.from.item), to: $0.to)
    }
    return merged
}

/// IGListKit's offsets rule, computed on its own from the pairing: a paired element moves when
/// its rank among the paired old elements differs from its rank among the paired new ones
/// (IGListKit: old index − deletes before it + inserts before its new index ≠ new index).
/// The moves must be exactly those, in new-index order.
/// - Complexity: O(n + m).
func offsetsProblem(_ matching: Matching, _ offsets: DiffResult, _ fail: Fail) -> PropertyFailure? {
    var rank = [Int](repeating: -1, count: matching.oldToNew.count)
    var paired = 0
    for (o, n) in matching.oldToNew.enumerated() where n >= 0 {
        rank[o] = paired
        paired += 1
    }
    var expected: [Move] = []
    paired = 0
    for (n, o) in matching.newToOld.enumerated() where o >= 0 {
        if o >= rank.count || rank[o] != paired { expected.append(Move(from: o, to: n)) }
        paired += 1
    }
    if offsets.moves != expected {
        let extra = offsets.moves.first { !expected.contains($0) }
        let missing = expected.first { !offsets.moves.contains($0) }
        return fail(
            "offsets-rule",
            "offsets reports \(offsets.moves.count) moves, the offsets rule \(expected.count)"
                + (extra.map { "; \($0) is not a move" } ?? "") + (missing.map { "; \($0) is missing" } ?? ""))
    }
    return nil
}

/// The last index of every identifier in `items`. - Complexity: O(n) expected.
func lastIndices(_ items: [FuzzItem]) -> [Int: Int] {
    var last: [Int: Int] = [:]
    for (i, item) in items.enumerated() { last[item.id] = i }
    return last
}

/// With unique identifiers: no reported update whose content did not change, no changed pair left
/// unreported. `matching` is the pairing `result` reports (its own or the implied one).
func updateProblem(_ c: FuzzCase, _ matching: Matching, _ result: DiffResult, _ fail: Fail) -> PropertyFailure? {
    for (o, n) in zip(result.updates, result.updateDestinations) where c.old[o].content == c.new[n].content {
        return fail("spurious-update", "old \(o) reported updated, but its content did not change")
    }
    let updated = Set(result.updates)
    for (o, n) in matching.oldToNew.enumerated() where n >= 0 && !updated.contains(o) && c.old[o].content != c.new[n].content {
        return fail("missed-update", "old \(o) → new \(n) changed content but is not reported updated")
    }
    return nil
}

/// A `minimal-script` engine keeps (pairs without moving) as many elements as a longest common
/// subsequence of the identifier lists holds. Checked at every size: the O(n·m) dynamic program
/// up to 48 items a side, the bit-parallel one (O(n·m/64)) above.
func scriptProblem(_ c: FuzzCase, _ matching: Matching, moveCount: Int, _ fail: Fail) -> PropertyFailure? {
    let kept = matching.newToOld.count(where: { $0 >= 0 }) - moveCount
    let a = c.old.map(\.id)
    let b = c.new.map(\.id)
    let oracle = a.count <= 48 && b.count <= 48 ? lcsLength(a, b) : bitParallelLCSLength(a, b)
    guard kept != oracle else { return nil }
    return fail("script-not-minimal", "the edit script keeps \(kept) elements; a longest common subsequence has \(oracle)")
}

/// diff(a, b) against diff(b, a): inserts and deletes swap, update and move counts agree, each
/// where asked.
func mirrorProblem(
    _ forward: DiffResult, _ backward: DiffResult, insertsDeletes: Bool, updates: Bool, moves: Bool, _ fail: Fail
) -> PropertyFailure? {
    if insertsDeletes && (forward.inserts.count != backward.deletes.count || forward.deletes.count != backward.inserts.count) {
        return fail(
            "mirror-inserts-deletes",
            "diff(a,b) has \(forward.inserts.count) inserts, \(forward.deletes.count) deletes; diff(b,a) \(backward.inserts.count), \(backward.deletes.count)"
        )
    }
    if (updates && forward.updates.count != backward.updates.count) || (moves && forward.moves.count != backward.moves.count) {
        return fail(
            "mirror-updates-moves",
            "diff(a,b) has \(forward.updates.count) updates, \(forward.moves.count) moves; diff(b,a) \(backward.updates.count), \(backward.moves.count)"
        )
    }
    return nil
}
