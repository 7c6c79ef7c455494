import DiffLabBatch
import DiffLabCore
import DiffLabEngines

extension BenchSubject {
    /// The staged form of a pairing engine, named `<engine>-staged`
    /// (``BuiltInEngines/Name/staged(_:)``): times
    /// ``StagedChangeset/init(from:to:engine:comparison:)`` on the input's two lists as one
    /// section each (the form an app applies to a collection view), with `engine` pairing the
    /// section and the items.
    ///
    /// The one-section lists are built when the call is prepared, outside the timing (they share
    /// the input's storage). Its counts are the staged changeset's: every operation of every
    /// stage, and the moves of its stages (what UIKit is handed); a staged changeset has no
    /// offsets or minimal moves of its own.
    ///
    /// - Parameters:
    ///   - engine: the pairing engine the changeset is staged with.
    ///   - growthExponent: see ``growthExponent`` (default 2).
    /// - Complexity: O(1); a call costs the engine's pairing plus the staging's passes (see
    ///   ``StagedChangeset/init(from:to:engine:comparison:)``).
    @inlinable
    public init<Engine: DiffEngine>(staged engine: Engine, growthExponent: Double = 2) {
        self.init(name: BuiltInEngines.Name.staged(engine.name), growthExponent: growthExponent) { lists in
            switch lists {
            case .ints(let old, let new): BenchCall(staged: engine, old, new, .equality)
            case .models(let old, let new): BenchCall(staged: engine, old, new, .equality)
            case .objects(let old, let new): BenchCall(staged: engine, old, new, .identity)
            }
        }
    }
}

extension BenchCall {
    @inlinable
    init<Engine: DiffEngine, Element: Diffable>(
        staged engine: Engine, _ old: [Element], _ new: [Element], _ comparison: ComparisonOption
    ) {
        let oldList = SectionedList<Int, Element>([.init(id: 0, items: old)])
        let newList = SectionedList<Int, Element>([.init(id: 0, items: new)])
        self.init(
            run: {
                blackHole(StagedChangeset(from: oldList, to: newList, engine: engine, comparison: comparison))
                return nil
            },
            counts: {
                let staged = StagedChangeset(from: oldList, to: newList, engine: engine, comparison: comparison)
                var changes = 0
                var moves = 0
                for stage in staged.stages {
                    let update = stage.changes
                    let stageMoves = update.moveSections.count + update.moveItems.count
                    moves += stageMoves
                    changes +=
                        update.insertSections.count + update.deleteSections.count + update.reloadSections.count
                        + update.insertItems.count + update.deleteItems.count + update.reloadItems.count + stageMoves
                }
                return BenchCounts(changeCount: changes, batchMoves: moves)
            })
    }
}
