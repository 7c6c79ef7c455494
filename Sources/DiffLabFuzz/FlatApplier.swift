import DiffLabCore

/// Applies a flat ``DiffResult`` to an old list the way `UICollectionView.performBatchUpdates`
/// does, and lists every way the outcome differs from the expected new list.
///
/// UIKit's model: deletes, reloads and move sources address the **old** list; inserts and move
/// destinations address the **new** list. Items that are neither deleted nor moved keep their
/// relative order and fill the slots left free by inserts and move destinations. A reloaded item
/// gets its content afresh from the data source, i.e. from the new list at its final position;
/// every other surviving item keeps its old content, so a forgotten reload shows as stale content.
///
/// - Parameters:
///   - batch: when `true`, also enforce the rules of one batch: a reloaded index must not be
///     deleted or moved (UIKit: "attempt to delete and reload the same index path", "attempt to
///     perform a delete and a move from the same index path").
/// - Returns: the problems found; empty when the result turns `old` into `new`, identity and content.
package func uikitApplicationProblems<Element: Diffable>(
    _ result: DiffResult, old: [Element], new: [Element], comparison: ComparisonOption = .equality,
    batch: Bool = false
) -> [String] {
    var problems: [String] = []
    func distinct(_ indices: [Int], bound: Int, _ what: String) -> Set<Int> {
        var seen = Set<Int>()
        for i in indices {
            if i < 0 || i >= bound { problems.append("\(what) \(i) out of bounds 0..<\(bound)") }
            if !seen.insert(i).inserted { problems.append("\(what) \(i) listed twice") }
        }
        return seen
    }
    let deleted = distinct(result.deletes, bound: old.count, "delete")
    let inserted = distinct(result.inserts, bound: new.count, "insert")
    let reloaded = distinct(result.updates, bound: old.count, "update")
    let moveSources = distinct(result.moves.map(\.from), bound: old.count, "move source")
    let moveDestinations = distinct(result.moves.map(\.to), bound: new.count, "move destination")
    for i in deleted.intersection(moveSources) { problems.append("delete and move from old index \(i)") }
    for i in inserted.intersection(moveDestinations) { problems.append("insert and move to new index \(i)") }
    if batch {
        for i in reloaded.intersection(deleted) { problems.append("delete and reload of old index \(i)") }
        for i in reloaded.intersection(moveSources) { problems.append("reload and move from old index \(i)") }
    }
    if old.count - deleted.count + inserted.count != new.count {
        problems.append(
            "count: \(old.count) old − \(deleted.count) deleted + \(inserted.count) inserted ≠ \(new.count) new")
    }
    guard problems.isEmpty else { return problems }

    let implied = impliedMatching(result)
    for (n, o) in implied.newToOld.enumerated() {
        if o < 0 {
            if !inserted.contains(n) { problems.append("new index \(n) is never filled") }
        } else if old[o].diffIdentifier != new[n].diffIdentifier {
            problems.append("new index \(n) holds old item \(o) (\(old[o].diffIdentifier)), expected \(new[n].diffIdentifier)")
        } else if !reloaded.contains(o) && new[n]._isUpdated(from: old[o], comparison: comparison) {
            problems.append("new index \(n) shows stale content of old item \(o): it changed but was not reloaded")
        }
    }
    return problems
}

/// The pairing a flat result implies when applied UIKit's way: each move pairs its source with its
/// destination; every other old element that is neither deleted nor moved keeps its relative
/// order and takes the next new index that is neither inserted nor a move destination. An
/// updated old element's pair is flagged ``Matching/updated``.
///
/// This is how a result-level engine's pairing is judged: `raw-sound` checks that it pairs equal
/// identifiers only, `differential` compares it with a reference and counts its fewest moves.
///
/// Total for any ``DiffResult`` (whose public initializers check it): an old element left without
/// a free new index, or an update of a deleted element, is simply unpaired or unflagged.
///
/// - Complexity: O(oldCount + newCount + changes).
package func impliedMatching(_ result: DiffResult) -> Matching {
    var matching = Matching(oldCount: result.oldCount, newCount: result.newCount)
    var leaves = [Bool](repeating: false, count: result.oldCount)
    var taken = [Bool](repeating: false, count: result.newCount)
    for o in result.deletes where o >= 0 && o < result.oldCount { leaves[o] = true }
    for n in result.inserts where n >= 0 && n < result.newCount { taken[n] = true }
    for move in result.moves
    where move.from >= 0 && move.from < result.oldCount && move.to >= 0 && move.to < result.newCount
        && matching.oldToNew[move.from] < 0 && matching.newToOld[move.to] < 0
    {
        leaves[move.from] = true
        taken[move.to] = true
        matching.pair(old: move.from, new: move.to)
    }
    var next = 0
    for o in 0..<result.oldCount where !leaves[o] {
        while next < result.newCount && taken[next] { next += 1 }
        guard next < result.newCount else { break }
        matching.pair(old: o, new: next)
        next += 1
    }
    for o in result.updates where o >= 0 && o < result.oldCount && matching.oldToNew[o] >= 0 {
        matching.updated[matching.oldToNew[o]] = true
    }
    return matching
}
