import DiffLabCore

/// The list versions a run cycles through: `count` versions of `size` items, each `edits` random
/// edits (inserts, deletes, moves, content updates in equal shares) of the previous, from `seed`.
///
/// - Precondition: `size` in ``PolicyConfig/listSizeRange``, `edits` in
///   ``PolicyConfig/editsRange``, `count` from 2 to 64 (fewer than 2 means 2).
/// - Complexity: O(count · (size + edits log edits)) time and memory.
public func policyVersions(size: Int, edits: Int = 20, count: Int = 4, seed: UInt64 = 7) -> [[IntElement]] {
    let versions = policyVersions(keeping: nil, size: size, edits: edits, count: count, seed: seed)
    return versions.keys.sorted().compactMap { versions[$0] }
}

/// ``policyVersions(size:edits:count:seed:)``, keeping only the versions whose index is in `keep`
/// (all when `nil`): the same lists, in less memory.
///
/// - Complexity: O(count · (size + edits log edits)) time, O(kept · size) memory.
func policyVersions(keeping keep: Set<Int>?, size: Int, edits: Int, count: Int, seed: UInt64) -> [Int: [IntElement]] {
    precondition(PolicyConfig.listSizeRange.contains(size), "policyVersions: size must be from 1 to \(AbstractDataset.maxSize) (got \(size))")
    precondition(PolicyConfig.editsRange.contains(edits), "policyVersions: edits must be from 0 to 1000000 (got \(edits))")
    precondition(count <= 64, "policyVersions: count must be at most 64 (got \(count))")
    var rng = SplitMix64(seed: seed)
    var nextID = size
    var current = (0..<size).map { IntElement(id: $0, revision: 0) }
    var kept: [Int: [IntElement]] = [:]
    if keep?.contains(0) ?? true { kept[0] = current }
    for index in 1..<max(count, 2) {
        current = scatterEdits(
            current, edits: edits, moveOnly: false, &rng,
            fresh: {
                nextID += 1
                return IntElement(id: nextID - 1, revision: 0)
            }, update: { $0.revision += 1 })
        if keep?.contains(index) ?? true { kept[index] = current }
    }
    return kept
}
