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
            let batch = subject.batch(diff(c.old, c.new, moves))
            if !batch.updates.isEmpty {
                return fail("\(moves)/updates-left", "the batch form still has updates \(batch.updates)")
            }
            if let problem = batchProblem(BatchUpdate(batch), from: c.old, to: c.new, "\(moves)/", "", fail) {
                return problem
            }
        }
        return nil
    }

    func staged() -> PropertyFailure? {
        guard let staged = subject.staged else { return nil }
        let changeset = staged(c.oldSections, c.newSections, c.elements)
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
        if matching.newToOld.count(where: { $0 >= 0 }) <= 9 {
            let fewest = fewestMoves(matching)
            if minimal.moves.count != fewest {
                return fail("moves-not-minimal", "minimal reports \(minimal.moves.count) moves; the fewest is \(fewest)")
            }
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
        let lookup = DiffLookup(old: c.old, new: c.new, result: forward)
        let lastOld = lastIndices(c.old)
        for item in c.old {
            let index = lookup.oldIndex(for: item.id)
            if index != lastOld[item.id] {
                return fail("lookup", "oldIndex(for: \(item.id)) is \(String(describing: index))")
            }
        }
        let lastNew = lastIndices(c.new)
        for item in c.new where lookup.newIndex(for: item.id) != lastNew[item.id] {
            return fail("lookup", "newIndex(for: \(item.id)) is wrong")
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
