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

/// A small deterministic generator (SplitMix64) for reproducible test data.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A model element with an identifier and separate content, for update tests.
public struct Item: Diffable, Hashable, Sendable, CustomStringConvertible {
    public var id: Int
    public var content: Int
    public init(_ id: Int, _ content: Int = 0) {
        self.id = id
        self.content = content
    }
    public var diffIdentifier: Int { id }
    public var description: String { content == 0 ? "\(id)" : "\(id):\(content)" }
}

/// A class element, for identity (pointer personality) tests.
public final class Box: Diffable, @unchecked Sendable {
    public let id: Int
    public let content: Int
    public init(_ id: Int, _ content: Int = 0) {
        self.id = id
        self.content = content
    }
    public var diffIdentifier: Int { id }
    public func isContentEqual(to other: Box) -> Bool { content == other.content }
}

/// Random pairs of lists for cross-checks: `distinct` identifiers drawn for each side, optional
/// content changes.
public func randomLists(
    _ rng: inout SplitMix64, maxCount: Int, distinct: Int, contentVariants: Int = 2
) -> (old: [Item], new: [Item]) {
    let oldCount = Int.random(in: 0...maxCount, using: &rng)
    let newCount = Int.random(in: 0...maxCount, using: &rng)
    let old = (0..<oldCount).map { _ in
        Item(Int.random(in: 0..<distinct, using: &rng), Int.random(in: 0..<contentVariants, using: &rng))
    }
    let new = (0..<newCount).map { _ in
        Item(Int.random(in: 0..<distinct, using: &rng), Int.random(in: 0..<contentVariants, using: &rng))
    }
    return (old, new)
}

/// Random pairs of lists with unique identifiers: a shuffled subset of a shared pool on each side.
public func randomUniqueLists(_ rng: inout SplitMix64, maxCount: Int) -> (old: [Item], new: [Item]) {
    let pool = Array(0..<(maxCount * 3 / 2 + 1))
    let old = pool.shuffled(using: &rng).prefix(Int.random(in: 0...maxCount, using: &rng))
        .map { Item($0, Int.random(in: 0..<2, using: &rng)) }
    let new = pool.shuffled(using: &rng).prefix(Int.random(in: 0...maxCount, using: &rng))
        .map { Item($0, Int.random(in: 0..<2, using: &rng)) }
    return (old, new)
}
