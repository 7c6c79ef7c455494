import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// The properties on a result-level subject: its flat result, batch form and stages, as answered.
struct ResultChecks {
    let c: FuzzCase
    let name: String
    let promises: EnginePromises
    let changes: FuzzSubject.Changes
    typealias SectionedChanges =
        @Sendable (FuzzSubject.Sections, FuzzSubject.Sections) throws(EngineFailure) -> StagedChangeset<Int, FuzzItem>
    let sectioned: SectionedChanges?
    let fail: Fail

    /// The engine's answer; no answer is a failure `engine-failed/<subject>/<kind>`.
    func answer(_ old: [FuzzItem], _ new: [FuzzItem]) throws(PropertyFailure) -> EngineChanges<FuzzItem> {
        do {
            return try changes(old, new)
        } catch {
            throw PropertyFailure(signature: "engine-failed/\(name)/\(error.kind.rawValue)", message: error.message)
        }
    }

    /// `result` checked against the lengths; rejected is a failure `detail`.
    func checked(
        _ result: EngineResult, _ oldCount: Int, _ newCount: Int, _ detail: String, _ context: String = ""
    )
        throws(PropertyFailure) -> DiffResult
    {
        do {
            return try DiffResult(checking: result, oldCount: oldCount, newCount: newCount)
        } catch {
            throw fail(detail, context + "the engine's result is malformed: \(error.description) (\(result))")
        }
    }

    /// The engine's own batch form, or DiffLab's conversion of its flat result.
    func batchForm(_ answer: EngineChanges<FuzzItem>) throws(PropertyFailure) -> DiffResult {
        if let batch = answer.batch { return try checked(batch, c.old.count, c.new.count, "batch-malformed") }
        return try checked(answer.result, c.old.count, c.new.count, "malformed").forBatchUpdates()
    }

    func batchValid() throws(PropertyFailure) {
        let batch = try batchForm(try answer(c.old, c.new))
        // The engine's answer is unordered by contract; DiffLab's checked conversion of it is not.
        if let broken = resultPromiseProblem(batch, oldCount: c.old.count, newCount: c.new.count) {
            throw fail("batch-promise/\(broken.detail)", "the checked batch form: " + broken.message)
        }
        if let problem = batchProblem(BatchUpdate(batch), from: c.old, to: c.new, "", "", fail) { throw problem }
    }

    func staged() throws(PropertyFailure) {
        try flatStages()
        try sectionedStages()
    }

    /// The engine's own stages of the sectioned lists, each a UIKit batch update of sections and
    /// items on the previous stage's data, ending at the new model.
    func sectionedStages() throws(PropertyFailure) {
        guard let sectioned else { return }
        let changeset: StagedChangeset<Int, FuzzItem>
        do {
            changeset = try sectioned(c.oldSections, c.newSections)
        } catch {
            throw PropertyFailure(signature: "engine-failed/\(name)/\(error.kind.rawValue)", message: "sections: " + error.message)
        }
        var previous = c.oldSections
        for (k, stage) in changeset.stages.enumerated() {
            if let problem = stageProblem(stage.changes, from: previous, to: stage.data, "sections/", "sectioned stage \(k): ", fail) {
                throw problem
            }
            previous = stage.data
        }
        if previous != c.newSections { throw fail("sections/end", "the last sectioned stage's data is not the new model") }
    }

    /// The engine's own stages of the flat lists, if it answers with stages.
    func flatStages() throws(PropertyFailure) {
        guard let stages = try answer(c.old, c.new).stages else { return }
        var previous = c.old
        for (k, stage) in stages.enumerated() {
            let context = "stage \(k): "
            let result = try checked(stage.changes, previous.count, stage.data.count, "stage/malformed", context)
            if let problem = batchProblem(BatchUpdate(result), from: previous, to: stage.data, "stage/", context, fail) {
                throw problem
            }
            previous = stage.data
        }
        if previous != c.new { throw fail("end", "the last stage's data is not the new list") }
    }

    func rawSound() throws(PropertyFailure) {
        let flat = try checked(try answer(c.old, c.new).result, c.old.count, c.new.count, "malformed")
        if let broken = resultPromiseProblem(flat, oldCount: c.old.count, newCount: c.new.count) {
            throw fail("promise/\(broken.detail)", "the checked result: " + broken.message)
        }
        if let problem = uikitApplicationProblems(flat, old: c.old, new: c.new).first { throw fail("apply", problem) }
        let implied = impliedMatching(flat)
        for (o, n) in implied.oldToNew.enumerated() where n >= 0 && c.old[o].id != c.new[n].id {
            throw fail("pairs-different-ids", "old \(o) (\(c.old[o].id)) lands at new \(n) (\(c.new[n].id))")
        }
        for (o, n) in zip(flat.updates, flat.updateDestinations) where implied.oldToNew[o] != n {
            throw fail("update-destination", "old \(o) is reported updated at new \(n), but lands at new \(implied.oldToNew[o])")
        }
        if c.hasUniqueIdentifiers, let problem = updateProblem(c, implied, flat, fail) { throw problem }
    }

    func differential() throws(PropertyFailure) {
        let flat = try checked(try answer(c.old, c.new).result, c.old.count, c.new.count, "malformed")
        let implied = impliedMatching(flat)
        let heckel = HeckelEngine()
        let reference = promises.reference
        if reference == .heckel && implied != heckel.matching(from: c.old, to: c.new, comparison: .equality) {
            throw fail("differs-from-heckel", "the pairing the result implies, or its updates, differ from heckel's")
        }
        if reference.agreesOnUniqueIdentifiers && c.hasUniqueIdentifiers {
            let expected = heckel.diff(from: c.old, to: c.new, moves: .minimal)
            if flat.inserts != expected.inserts || flat.deletes != expected.deletes || flat.updates != expected.updates
                || flat.updateDestinations != expected.updateDestinations
            {
                throw fail("unique-disagreement", "with unique identifiers, the inserts, deletes or updates differ from heckel's")
            }
            if promises.minimalMoves && flat.moves.count != expected.moves.count {
                throw fail(
                    "unique-move-count", "with unique identifiers, \(flat.moves.count) moves; heckel's minimal count is \(expected.moves.count)")
            }
        }
        if reference == .minimalScript, let problem = scriptProblem(c, implied, moveCount: flat.moves.count, fail) {
            throw problem
        }
        if promises.minimalMoves {
            let fewest = fewestMoves(implied)
            if flat.moves.count != fewest {
                throw fail("moves-not-minimal", "\(flat.moves.count) moves; the fewest for the engine's own pairing is \(fewest)")
            }
        }
    }

    func metamorphic() throws(PropertyFailure) {
        let same = try answer(c.old, c.old)
        if same.result.changeCount > 0 { throw fail("self-diff", "diff(old, old) reports changes: \(same.result)") }
        if let batch = same.batch, batch.changeCount > 0 {
            throw fail("self-diff-batch", "diff(old, old) has a batch form with changes: \(batch)")
        }
        if let stage = same.stages?.first(where: { $0.changes.changeCount > 0 }) {
            throw fail("self-diff-stages", "diff(old, old) has a stage with changes: \(stage.changes)")
        }
        let reference = promises.reference
        let unique = c.hasUniqueIdentifiers && reference.agreesOnUniqueIdentifiers
        guard unique || reference == .heckel else { return }
        let forward = try checked(try answer(c.old, c.new).result, c.old.count, c.new.count, "malformed")
        let backward = try checked(try answer(c.new, c.old).result, c.new.count, c.old.count, "mirror-malformed", "diff(b,a): ")
        if let problem = mirrorProblem(
            forward, backward, insertsDeletes: true, updates: unique, moves: unique && promises.minimalMoves, fail)
        {
            throw problem
        }
    }

    func sanitizer() throws(PropertyFailure) {
        let clean = BatchUpdate(try batchForm(try answer(c.old, c.new)))
        if let problem = sanitizerProblem(clean, c.corruptions, from: c.old, to: c.new, fail) { throw problem }
    }

    func deterministic() throws(PropertyFailure) {
        let first = try answer(c.old, c.new)
        let second = try answer(c.old, c.new)
        if first.result.sorted != second.result.sorted { throw fail("flat", "two runs on the same input differ") }
        if first.batch?.sorted != second.batch?.sorted { throw fail("batch", "two runs give different batch forms") }
        let stages = (first.stages ?? []).map { ($0.data, $0.changes.sorted) }
        let again = (second.stages ?? []).map { ($0.data, $0.changes.sorted) }
        if (first.stages == nil) != (second.stages == nil) || !stages.elementsEqual(again, by: { $0 == $1 }) {
            throw fail("stages", "two runs give different stages")
        }
    }
}

extension EngineResult {
    /// The same result with every list sorted: results that differ only in order compare equal.
    fileprivate var sorted: EngineResult {
        EngineResult(inserts: inserts.sorted(), deletes: deletes.sorted(), updates: updates.sorted(), moves: moves.sorted())
    }
}
