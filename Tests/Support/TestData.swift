import DiffLabCore
import DiffLabFuzz

/// A model element with an identifier and separate content, for update tests.
package typealias Item = FuzzItem

/// The fuzzer's generator, for reproducible test data.
package typealias SplitMix64 = DiffLabCore.SplitMix64

/// A class element, for identity (pointer personality) tests.
package final class Box: Diffable, @unchecked Sendable {
    package let id: Int
    package let content: Int
    package init(_ id: Int, _ content: Int = 0) {
        self.id = id
        self.content = content
    }
    package var diffIdentifier: Int { id }
    package func isContentEqual(to other: Box) -> Bool { content == other.content }
}

/// Random pairs of lists for cross-checks: `distinct` identifiers drawn for each side, optional
/// content changes.
package func randomLists(
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
package func randomUniqueLists(_ rng: inout SplitMix64, maxCount: Int) -> (old: [Item], new: [Item]) {
    let pool = Array(0..<(maxCount * 3 / 2 + 1))
    let old = pool.shuffled(using: &rng).prefix(Int.random(in: 0...maxCount, using: &rng))
        .map { Item($0, Int.random(in: 0..<2, using: &rng)) }
    let new = pool.shuffled(using: &rng).prefix(Int.random(in: 0...maxCount, using: &rng))
        .map { Item($0, Int.random(in: 0..<2, using: &rng)) }
    return (old, new)
}
