// Every documented promise of a DiffResult, checked on what an engine's result (or its batch form)
// actually holds: the order of each list, no repeats, ranges, the update destinations and the
// counts. The batch-update model ignores order (UIKit does), so without this a result whose
// deletes came back unsorted would pass every other property.

import DiffLabCore

/// A broken promise of a result: `detail` names it in the failure signature (`inserts-order`,
/// `moves-repeat`, ...), `message` says what was found.
struct ResultPromiseProblem: Equatable, Sendable {
    var detail: String
    var message: String
}

/// The first documented promise of ``DiffResult`` that `result`, a change of an `oldCount` list
/// into a `newCount` list, breaks; `nil` when it keeps them all.
///
/// Checked, each against its doc:
/// - the lengths are `oldCount` and `newCount` (`lengths`), and `oldCount − deletes + inserts`
///   is `newCount` (`balance`);
/// - inserts, deletes and updates strictly ascending (`<list>-order`, `<list>-repeat` for an
///   index listed twice) and in range (`<list>-range`);
/// - one destination per update (`update-destinations-count`), each in range, none repeated, none
///   inserted; none an update of a deleted element (`updates-deleted`);
/// - moves strictly ascending by destination (`moves-order`, `moves-repeat`), sources in range and
///   distinct (`moves-source`), none from a deleted index or to an inserted one (`moves-deleted`,
///   `moves-inserted`);
/// - an update and a move of the same element agree on its new index, and no two elements claim
///   one new index (`update-move-disagree`); an updated element that does not move ends where
///   the elements that do not move leave it: they keep their order and fill the new indices that
///   inserts and moves leave (`update-destination-unmoved`);
/// - with `oldToNew` (the engine's pairing, one entry per old element, else `pairing-length`):
///   each update's destination and each move's destination is its element's new index
///   (`update-destination`, `moves-destination`);
/// - ``DiffResult/changeCount`` is the lists' total and ``DiffResult/hasChanges`` is
///   `changeCount > 0` (`change-count`, `has-changes`).
///
/// Input-safe: it never traps on any result (indices are checked before they are used).
///
/// - Complexity: O(k log k) for k listed changes, O(1) extra per element of `oldToNew`'s lookups.
func resultPromiseProblem(_ result: DiffResult, oldCount: Int, newCount: Int, oldToNew: [Int]? = nil) -> ResultPromiseProblem? {
    func problem(_ detail: String, _ message: String) -> ResultPromiseProblem { ResultPromiseProblem(detail: detail, message: message) }
    if result.oldCount != oldCount || result.newCount != newCount {
        return problem("lengths", "the result is of \(result.oldCount) → \(result.newCount) items, the lists of \(oldCount) → \(newCount)")
    }
    /// Strictly ascending and within `0..<bound`.
    func ascending(_ list: [Int], _ name: String, bound: Int) -> ResultPromiseProblem? {
        for (k, index) in list.enumerated() {
            guard index >= 0 && index < bound else { return problem("\(name)-range", "\(name)[\(k)] = \(index) is outside 0..<\(bound)") }
            guard k > 0 else { continue }
            let before = list[k - 1]
            if before == index { return problem("\(name)-repeat", "\(name) lists \(index) twice") }
            if before > index { return problem("\(name)-order", "\(name) are not ascending: \(before) before \(index) (\(name)[\(k)])") }
        }
        return nil
    }
    if let broken = ascending(result.inserts, "inserts", bound: newCount) { return broken }
    if let broken = ascending(result.deletes, "deletes", bound: oldCount) { return broken }
    if let broken = ascending(result.updates, "updates", bound: oldCount) { return broken }
    if let oldToNew, oldToNew.count != oldCount {
        return problem("pairing-length", "the pairing covers \(oldToNew.count) old elements, the list has \(oldCount)")
    }
    let (balance, overflow) = (oldCount - result.deletes.count).addingReportingOverflow(result.inserts.count)
    if overflow || balance != newCount {
        return problem("balance", "\(oldCount) old − \(result.deletes.count) deletes + \(result.inserts.count) inserts ≠ \(newCount) new")
    }
    guard result.updateDestinations.count == result.updates.count else {
        return problem("update-destinations-count", "\(result.updates.count) updates but \(result.updateDestinations.count) destinations")
    }
    // The lists are ascending by now (checked above).
    func contains(_ sorted: [Int], _ index: Int) -> Bool { _ascendingContains(sorted, index) }
    // Each surviving element's new index as the result states it: old index → new index.
    var claimedNew: [Int: Int] = [:]
    var claimedOld: [Int: Int] = [:]
    func claim(old o: Int, new n: Int, _ what: String) -> ResultPromiseProblem? {
        if let earlier = claimedNew[o], earlier != n {
            return problem("update-move-disagree", "old \(o) is put at new \(earlier) and, by \(what), at new \(n)")
        }
        if let earlier = claimedOld[n], earlier != o {
            return problem("update-move-disagree", "new \(n) is claimed by old \(earlier) and, by \(what), by old \(o)")
        }
        claimedNew[o] = n
        claimedOld[n] = o
        return nil
    }
    // Sorted copies, for the ranks of elements that do not move (the moves' own order is
    // checked below).
    let moveSources = result.moves.map(\.from).sorted()
    let moveDestinations = result.moves.map(\.to).sorted()
    for (k, (o, n)) in zip(result.updates, result.updateDestinations).enumerated() {
        guard n >= 0 && n < newCount else {
            return problem("update-destinations-range", "updateDestinations[\(k)] = \(n) is outside 0..<\(newCount)")
        }
        if claimedOld[n] != nil { return problem("update-destinations-repeat", "two updates end at new \(n)") }
        if contains(result.deletes, o) { return problem("updates-deleted", "old \(o) is both deleted and updated") }
        if contains(result.inserts, n) { return problem("update-destinations-inserted", "update of old \(o) ends at inserted new \(n)") }
        if let oldToNew, oldToNew[o] != n {
            return problem("update-destination", "updateDestinations[\(k)] = \(n), but old \(o) is paired with new \(oldToNew[o])")
        }
        // An element that does not move is where the others that do not move leave it.
        if !_ascendingContains(moveSources, o),
            _rankExcluding(o, result.deletes, moveSources) != _rankExcluding(n, result.inserts, moveDestinations)
        {
            return problem(
                "update-destination-unmoved", "old \(o) does not move, but its update ends at new \(n), not where the elements that stay leave it")
        }
        if let broken = claim(old: o, new: n, "its update") { return broken }
    }
    var sources = Set<Int>()
    for (k, move) in result.moves.enumerated() {
        guard move.to >= 0 && move.to < newCount else { return problem("moves-range", "moves[\(k)] = \(move) ends outside 0..<\(newCount)") }
        guard move.from >= 0 && move.from < oldCount else {
            return problem("moves-source", "moves[\(k)] = \(move) starts outside 0..<\(oldCount)")
        }
        if k > 0 {
            let before = result.moves[k - 1].to
            if before == move.to { return problem("moves-repeat", "two moves end at new \(move.to)") }
            if before > move.to {
                return problem("moves-order", "moves are not ascending by destination: \(result.moves[k - 1]) before \(move) (moves[\(k)])")
            }
        }
        if !sources.insert(move.from).inserted { return problem("moves-source", "two moves start at old \(move.from)") }
        if contains(result.deletes, move.from) { return problem("moves-deleted", "move \(move) starts at deleted old \(move.from)") }
        if contains(result.inserts, move.to) { return problem("moves-inserted", "move \(move) ends at inserted new \(move.to)") }
        if let oldToNew, oldToNew[move.from] != move.to {
            return problem("moves-destination", "move \(move), but old \(move.from) is paired with new \(oldToNew[move.from])")
        }
        if let broken = claim(old: move.from, new: move.to, "move \(move)") { return broken }
    }
    let total = result.inserts.count + result.deletes.count + result.updates.count + result.moves.count
    if result.changeCount != total { return problem("change-count", "changeCount is \(result.changeCount), the lists hold \(total)") }
    if result.hasChanges != (total > 0) { return problem("has-changes", "hasChanges is \(result.hasChanges) with \(total) changes") }
    return nil
}

/// The first documented promise of ``IndexPathDiffResult`` that the wrapping of `base` (one
/// section's flat result, moving from `fromSection` to `toSection`) breaks; `nil` when it keeps
/// them: old-state lists (deletes, updates, move sources) in `fromSection`, new-state lists
/// (inserts, move destinations) in `toSection`, every list in the flat result's order (so moves
/// ascending by destination), the same counts, and a batch form that is the flat batch form in
/// the same sections.
///
/// - Complexity: O(k) for k listed changes, plus the batch form.
func indexPathPromiseProblem(_ base: DiffResult, fromSection: Int, toSection: Int) -> ResultPromiseProblem? {
    func problem(_ detail: String, _ message: String) -> ResultPromiseProblem { ResultPromiseProblem(detail: detail, message: message) }
    let paths = IndexPathDiffResult(base: base, fromSection: fromSection, toSection: toSection)
    func items(_ list: [ItemIndexPath], in section: Int) -> [Int]? {
        list.allSatisfy { $0.section == section } ? list.map(\.item) : nil
    }
    if items(paths.inserts, in: toSection) != base.inserts {
        return problem("index-path-inserts", "inserts \(paths.inserts) are not \(base.inserts) in section \(toSection)")
    }
    if items(paths.deletes, in: fromSection) != base.deletes {
        return problem("index-path-deletes", "deletes \(paths.deletes) are not \(base.deletes) in section \(fromSection)")
    }
    if items(paths.updates, in: fromSection) != base.updates {
        return problem("index-path-updates", "updates \(paths.updates) are not \(base.updates) in section \(fromSection)")
    }
    let moves = paths.moves.map { ($0.from.section, $0.from.item, $0.to.section, $0.to.item) }
    if moves.count != base.moves.count
        || !zip(moves, base.moves).allSatisfy({ $0.0 == fromSection && $0.1 == $1.from && $0.2 == toSection && $0.3 == $1.to })
    {
        return problem("index-path-moves", "moves \(paths.moves) are not \(base.moves) from section \(fromSection) to \(toSection)")
    }
    let listed = paths.inserts.count + paths.deletes.count + paths.updates.count + paths.moves.count
    if paths.changeCount != listed || paths.hasChanges != (listed > 0) {
        return problem(
            "index-path-counts",
            "changeCount \(paths.changeCount), hasChanges \(paths.hasChanges), with \(listed) changes listed")
    }
    let batch = paths.forBatchUpdates()
    if batch.base != base.forBatchUpdates() || batch.fromSection != fromSection || batch.toSection != toSection {
        return problem("index-path-batch", "the batch form is not the flat batch form in sections \(fromSection) → \(toSection)")
    }
    return nil
}
