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
public func uikitApplicationProblems<Element: Diffable>(
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

    // Slot contents: an old index (content still old unless reloaded) or an inserted new index.
    var slots = [Slot](repeating: .empty, count: new.count)
    for n in inserted { slots[n] = .fresh }
    for move in result.moves { slots[move.to] = .old(move.from) }
    var next = 0
    for o in old.indices where !deleted.contains(o) && !moveSources.contains(o) {
        while next < slots.count, !slots[next].isEmpty { next += 1 }
        guard next < slots.count else {
            problems.append("no free slot left for surviving old index \(o)")
            return problems
        }
        slots[next] = .old(o)
    }
    for (n, slot) in slots.enumerated() {
        switch slot {
        case .empty:
            problems.append("new index \(n) is never filled")
        case .fresh:
            break
        case .old(let o):
            if old[o].diffIdentifier != new[n].diffIdentifier {
                problems.append("new index \(n) holds old item \(o) (\(old[o].diffIdentifier)), expected \(new[n].diffIdentifier)")
            } else if !reloaded.contains(o) && new[n]._isUpdated(from: old[o], comparison: comparison) {
                problems.append("new index \(n) shows stale content of old item \(o): it changed but was not reloaded")
            }
        }
    }
    return problems
}

private enum Slot {
    case empty, old(Int), fresh
    var isEmpty: Bool { if case .empty = self { true } else { false } }
}

