extension EngineResult {
    /// The net effect of a staged changeset as one flat result: what an engine that answers only
    /// in stages (DifferenceKit's `StagedChangeset`, RxDataSources' `Changeset`s) says about the
    /// whole change from the old list to the last stage's data.
    ///
    /// Each stage is read the way UIKit performs it: its deletes and move sources leave, its
    /// inserts and move destinations take their new indices, and the other items keep their order
    /// in the remaining places; an update (a reload) marks its item changed and keeps its
    /// identity. An item is paired with the old item it descends from, and updated when any stage
    /// updated it. Moves follow IGListKit's offsets rule for that pairing
    /// (``DiffResult/init(matching:moves:)``), so the flat form of a library answered in stages is
    /// derived the same way for every library.
    ///
    /// - Parameters:
    ///   - stages: the stages, in order; each stage's changes address the previous stage's data
    ///     (the old list for the first) and its own data.
    ///   - oldCount: the old list's length.
    /// - Returns: the net result; empty when `stages` is empty.
    /// - Throws: ``DiffResultError`` naming the stage when one is not a consistent change of its
    ///   data (out-of-range index, repeats, counts that do not add up).
    /// - Complexity: O(stages × items + changes × log(changes)).
    public init<Element>(composing stages: [EngineStage<Element>], oldCount: Int) throws(DiffResultError) {
        // origin[i]: the old index the i-th item of the current data descends from, or -1.
        var origin = Array(0..<max(oldCount, 0))
        var changed = [Bool](repeating: false, count: origin.count)
        for (k, stage) in stages.enumerated() {
            let step: DiffResult
            do throws(DiffResultError) {
                step = try DiffResult(checking: stage.changes, oldCount: origin.count, newCount: stage.data.count)
            } catch {
                throw DiffResultError("stage \(k): \(error.description)")
            }
            var next = [Int](repeating: -2, count: stage.data.count)
            var nextChanged = [Bool](repeating: false, count: stage.data.count)
            var leaves = [Bool](repeating: false, count: origin.count)
            var updatedHere = [Bool](repeating: false, count: origin.count)
            for d in step.deletes { leaves[d] = true }
            for u in step.updates { updatedHere[u] = true }
            for i in step.inserts { next[i] = -1 }
            for move in step.moves {
                leaves[move.from] = true
                next[move.to] = origin[move.from]
                nextChanged[move.to] = changed[move.from] || updatedHere[move.from]
            }
            var slot = 0
            for o in origin.indices where !leaves[o] {
                while slot < next.count && next[slot] != -2 { slot += 1 }
                // The checked counts guarantee a free place for every survivor.
                precondition(slot < next.count, "EngineResult(composing:): a checked stage left a survivor without a place")
                next[slot] = origin[o]
                nextChanged[slot] = changed[o] || updatedHere[o]
                slot += 1
            }
            origin = next
            changed = nextChanged
        }
        var matching = Matching(oldCount: max(oldCount, 0), newCount: origin.count)
        for (n, o) in origin.enumerated() where o >= 0 { matching.pair(old: o, new: n, updated: changed[n]) }
        self.init(DiffResult(matching: matching, moves: .offsets))
    }
}
