/// UIKit's placement rule, shared by the validator and the applier: the elements that are neither
/// removed (deleted or moved away) keep their relative order and fill, in order, the positions of
/// the new state that are not taken (by inserts or move destinations).
///
/// - Parameters:
///   - oldCount: number of elements before.
///   - newCount: number of elements after.
///   - removed: `removed[o]` is `true` for an old element that is deleted or moved away.
///   - taken: `taken[n]` is `true` for a new position filled by an insert or a move destination.
/// - Returns: for each old element, its new position when it stays, else `-1`. Elements left over
///   when the free positions run out also get `-1` (the counts did not add up).
/// - Complexity: O(oldCount + newCount).
func _survivorPositions(oldCount: Int, newCount: Int, removed: [Bool], taken: [Bool]) -> [Int] {
    var positions = [Int](repeating: -1, count: oldCount)
    var next = 0
    for o in 0..<oldCount where !removed[o] {
        while next < newCount && taken[next] { next += 1 }
        if next == newCount { break }
        positions[o] = next
        next += 1
    }
    return positions
}

/// `flags[i] = true` for every `i` in `indices` that is in `0..<count`.
func _flags(_ indices: some Sequence<Int>, count: Int) -> [Bool] {
    var flags = [Bool](repeating: false, count: count)
    for i in indices where i >= 0 && i < count { flags[i] = true }
    return flags
}
