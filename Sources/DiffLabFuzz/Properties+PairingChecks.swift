import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// The properties on a pairing-level subject: the pairing, both move strategies.
struct PairingChecks {
    let c: FuzzCase
    let subject: FuzzSubject
    let matching: @Sendable ([FuzzItem], [FuzzItem]) -> Matching
    let fail: Fail

    func diff(_ old: [FuzzItem], _ new: [FuzzItem], _ moves: MoveStrategy) -> DiffResult {
        subject.derive(matching(old, new), moves)
    }

    func batchValid() -> PropertyFailure? {
        for moves in MoveStrategy.allCases {
            let result = diff(c.old, c.new, moves)
            let batch = subject.batch(result)
            if !batch.updates.isEmpty {
                return fail("\(moves)/updates-left", "the batch form still has updates \(batch.updates)")
            }
            // The batch form is a DiffResult: every promise of one holds for it too.
            if let broken = resultPromiseProblem(batch, oldCount: c.old.count, newCount: c.new.count) {
                return fail("\(moves)/batch-promise/\(broken.detail)", "the batch form: " + broken.message)
            }
            // On the engine's derivation threads (hashmap-partitioned's 2), the same as on one.
            if batch != result.forBatchUpdates() {
                return fail("\(moves)/batch-threads", "the batch form on the engine's threads differs from forBatchUpdates() on one")
            }
            if let problem = batchProblem(BatchUpdate(batch), from: c.old, to: c.new, "\(moves)/", "", fail) {
                return problem
            }
        }
        return nil
    }

    func staged() -> PropertyFailure? {
        guard let staged = subject.staged else { return nil }
        // "Empty when the models are equal."
        if !staged(c.newSections, c.newSections, c.elements).stages.isEmpty {
            return fail("self-diff-stages", "the changeset of the new model into itself has stages")
        }
        let changeset = staged(c.oldSections, c.newSections, c.elements)
        // "Up to four stages, each skipped when empty": updates, deletes, sections, items, in
        // that order, each holding only its own kind of change.
        var lastKind = -1
        for (k, stage) in changeset.stages.enumerated() {
            guard let kind = stageKind(stage.changes) else {
                return fail("stage-kinds", "stage \(k) is empty or mixes kinds of change: \(stage.changes)")
            }
            if kind <= lastKind { return fail("stage-order", "stage \(k) (\(stageKindNames[kind])) comes after \(stageKindNames[lastKind])") }
            lastKind = kind
        }
        var previous = c.oldSections
        // The stage before `previous`'s and the data it started from, for the merged check.
        var earlier: (changes: BatchUpdate, from: SectionedList<Int, FuzzItem>)?
        for (k, stage) in changeset.stages.enumerated() {
            if let problem = stageProblem(stage.changes, from: previous, to: stage.data, "stage/", "stage \(k): ", fail) {
                return problem
            }
            // No section moves is the fewest for any pairing: nothing to work out.
            let moves = stage.changes.moveSections.count
            let fewest =
                moves == 0
                ? 0 : fewestMoves(newToOld: impliedSectionPairing(stage.changes), oldCount: stage.changes.itemCountsBefore.count)
            if moves > fewest {
                return fail("section-moves-not-minimal", "stage \(k) moves \(moves) sections; the fewest for its pairing is \(fewest)")
            }
            // Per section, a longest increasing run of items stays put (the item stage).
            if stageKind(stage.changes) == 3, let excess = excessInSectionMoves(stage.changes) {
                return fail(
                    "item-moves-not-minimal",
                    "stage \(k) moves \(excess.moves) items within section \(excess.section); the fewest for its pairing is \(excess.fewest)")
            }
            if let earlier, let merged = mergedSectionAndItemStages(earlier.changes, stage.changes),
                let problem = stageProblem(merged, from: earlier.from, to: stage.data, "merged/", "stages \(k - 1) and \(k) as one update: ", fail)
            {
                return problem
            }
            earlier = (stage.changes, previous)
            previous = stage.data
        }
        if previous != c.newSections { return fail("end", "the last stage's data is not the new model") }
        return nil
    }

    func rawSound() -> PropertyFailure? {
        let matching = matching(c.old, c.new)
        do { try matching.validate() } catch { return fail("matching-invalid", error.description) }
        for (o, n) in matching.oldToNew.enumerated() where n >= 0 && c.old[o].id != c.new[n].id {
            return fail("pairs-different-ids", "old \(o) (\(c.old[o].id)) paired with new \(n) (\(c.new[n].id))")
        }
        for moves in MoveStrategy.allCases {
            let result = subject.derive(matching, moves)
            if let broken = resultPromiseProblem(result, oldCount: c.old.count, newCount: c.new.count, oldToNew: matching.oldToNew) {
                return fail("\(moves)/promise/\(broken.detail)", broken.message)
            }
            // The same result as one section's, moving between sections (IGListKit's index paths).
            if let broken = indexPathPromiseProblem(result, fromSection: c.old.count % 3, toSection: c.new.count % 4) {
                return fail("\(moves)/promise/\(broken.detail)", broken.message)
            }
            if let problem = uikitApplicationProblems(result, old: c.old, new: c.new).first {
                return fail("\(moves)/apply", problem)
            }
            guard c.hasUniqueIdentifiers else { continue }
            if let problem = updateProblem(c, matching, result, fail) { return problem }
        }
        return nil
    }

    func differential() -> PropertyFailure? {
        let heckel = HeckelEngine()
        let reference = subject.reference
        if reference == .heckel {
            if matching(c.old, c.new) != heckel.matching(from: c.old, to: c.new, comparison: .equality) {
                return fail("differs-from-heckel", "the pairing differs from heckel's")
            }
            for moves in MoveStrategy.allCases where diff(c.old, c.new, moves) != heckel.diff(from: c.old, to: c.new, moves: moves) {
                return fail("\(moves)/differs-from-heckel", "the result differs from heckel's")
            }
        }
        if reference.agreesOnUniqueIdentifiers && c.hasUniqueIdentifiers
            && diff(c.old, c.new, .minimal) != heckel.diff(from: c.old, to: c.new, moves: .minimal)
        {
            return fail("unique-disagreement", "with unique identifiers and minimal moves, the result differs from heckel's")
        }
        let matching = matching(c.old, c.new)
        let minimal = subject.derive(matching, .minimal)
        if reference == .minimalScript, let problem = scriptProblem(c, matching, moveCount: minimal.moves.count, fail) {
            return problem
        }
        let offsets = subject.derive(matching, .offsets)
        if let problem = offsetsProblem(matching, offsets, fail) { return problem }
        if minimal.moves.count > offsets.moves.count {
            return fail("minimal-above-offsets", "minimal has \(minimal.moves.count) moves, offsets \(offsets.moves.count)")
        }
        // Against an oracle of its own at every size: brute force up to 9 pairs, plain patience
        // sorting above (not the derivation's run, found from both ends).
        let fewest = fewestMoves(matching)
        if minimal.moves.count != fewest {
            return fail("moves-not-minimal", "minimal reports \(minimal.moves.count) moves; the fewest is \(fewest)")
        }
        return nil
    }

    func metamorphic() -> PropertyFailure? {
        for moves in MoveStrategy.allCases where diff(c.old, c.old, moves).hasChanges {
            return fail("\(moves)/self-diff", "diff(old, old) reports changes")
        }
        let forward = diff(c.old, c.new, .minimal)
        let backward = diff(c.new, c.old, .minimal)
        // As before result-level engines: myers' script pairing mirrors on duplicates too (a
        // result-level `minimal-script` engine is only held to the mirror on unique identifiers).
        let symmetricPairing = c.hasUniqueIdentifiers || subject.reference == .heckel || subject.reference == .minimalScript
        if let problem = mirrorProblem(
            forward, backward, insertsDeletes: symmetricPairing, updates: c.hasUniqueIdentifiers,
            moves: c.hasUniqueIdentifiers, fail)
        {
            return problem
        }
        // DiffLookup: the last occurrence's index in each list, nil where the identifier is not
        // in it (asked for every identifier of both lists and one in neither), and the same as
        // index paths in any section.
        let lookup = DiffLookup(old: c.old, new: c.new, result: forward)
        let lastOld = lastIndices(c.old)
        let lastNew = lastIndices(c.new)
        let absent = (c.old + c.new).map(\.id).max().map { $0 == .max ? Int.min : $0 + 1 } ?? 0
        let section = c.old.count % 3
        for id in c.old.map(\.id) + c.new.map(\.id) + [absent] {
            let old = lookup.oldIndex(for: id)
            let new = lookup.newIndex(for: id)
            if old != lastOld[id] {
                return fail("lookup", "oldIndex(for: \(id)) is \(String(describing: old)), expected \(String(describing: lastOld[id]))")
            }
            if new != lastNew[id] {
                return fail("lookup", "newIndex(for: \(id)) is \(String(describing: new)), expected \(String(describing: lastNew[id]))")
            }
            if lookup.oldIndexPath(for: id, section: section) != old.map({ ItemIndexPath(section: section, item: $0) })
                || lookup.newIndexPath(for: id, section: section) != new.map({ ItemIndexPath(section: section, item: $0) })
            {
                return fail("lookup-index-path", "the index paths of \(id) in section \(section) are not its indices there")
            }
        }
        return nil
    }

    func sanitizer() -> PropertyFailure? {
        sanitizerProblem(BatchUpdate(subject.batch(diff(c.old, c.new, .offsets))), c.corruptions, from: c.old, to: c.new, fail)
    }

    func deterministic() -> PropertyFailure? {
        for moves in MoveStrategy.allCases where diff(c.old, c.new, moves) != diff(c.old, c.new, moves) {
            return fail("\(moves)", "two runs on the same input differ")
        }
        return nil
    }
}

/// The kinds of stage of a ``StagedChangeset``, in the order they come.
let stageKindNames = ["updates", "deletes", "sections", "items"]

/// Which kind of stage `changes` is (an index into ``stageKindNames``): reloads only; deletes only
/// (sections and items); section inserts and moves only; item inserts and moves only. `nil` for an
/// empty update or one that mixes kinds.
func stageKind(_ changes: BatchUpdate) -> Int? {
    let reloads = !changes.reloadItems.isEmpty || !changes.reloadSections.isEmpty
    let deletes = !changes.deleteItems.isEmpty || !changes.deleteSections.isEmpty
    let sections = !changes.insertSections.isEmpty || !changes.moveSections.isEmpty
    let items = !changes.insertItems.isEmpty || !changes.moveItems.isEmpty
    let kinds = [reloads, deletes, sections, items]
    guard kinds.count(where: { $0 }) == 1 else { return nil }
    return kinds.firstIndex(of: true)
}
