import DiffLabCore
import DiffLabEngines

/// One diff as the policy lab uses it: the diff's change count (what IGListKit's reload
/// fallback counts) and its batch form (what is applied).
public struct PolicyDiff: Sendable {
    /// Inserts, deletes, updates and moves of the diff, before the batch conversion.
    public var changes: Int
    /// The batch form (updates as delete and insert pairs).
    public var batch: DiffResult

    /// A diff; see the properties.
    public init(changes: Int, batch: DiffResult) {
        self.changes = changes
        self.batch = batch
    }
}

/// The engine a policy run diffs with: anything that yields the batch form of an update on
/// ``IntElement`` lists, specialized for the engine's concrete type.
public struct PolicyEngine: Sendable {
    /// The engine's name.
    public let name: String
    /// Whether the move strategy applies: DiffLab derives a pairing engine's moves under either
    /// ``MoveStrategy``; a result-level engine has its own moves, whatever the strategy asked.
    public let derivesMoves: Bool
    @usableFromInline let _diff: @Sendable ([IntElement], [IntElement], MoveStrategy) throws(EngineFailure) -> PolicyDiff

    /// A pairing-level engine: its diff with moves under the strategy asked, converted by
    /// ``DiffResult/forBatchUpdates()``.
    @inlinable
    public init<Engine: DiffEngine>(_ engine: Engine) {
        name = engine.name
        derivesMoves = true
        _diff = { old, new, moves in
            let result = engine.diff(from: old, to: new, moves: moves)
            return PolicyDiff(changes: result.changeCount, batch: result.forBatchUpdates())
        }
    }

    /// A result-level engine: its own batch form, or DiffLab's conversion of its flat result
    /// (``EngineChanges/checkedBatch(oldCount:newCount:)``); a result that does not check is an
    /// ``EngineFailure/Kind/badAnswer``. Its moves are its own (``derivesMoves`` is false).
    @inlinable
    public init<Engine: ChangesetEngine>(changes engine: Engine) {
        name = engine.name
        derivesMoves = false
        _diff = { old, new, _ throws(EngineFailure) in
            let answer = try engine.changes(from: old, to: new, comparison: .equality)
            do throws(DiffResultError) {
                let batch = try answer.checkedBatch(oldCount: old.count, newCount: new.count)
                return PolicyDiff(changes: answer.result.changeCount, batch: batch)
            } catch {
                throw EngineFailure(.badAnswer, error.description)
            }
        }
    }

    /// The diff of `old` into `new` with moves under `moves` (for engines that derive them).
    ///
    /// - Throws: ``EngineFailure`` when the engine gives no usable answer.
    public func diff(from old: [IntElement], to new: [IntElement], moves: MoveStrategy = .offsets) throws(EngineFailure) -> PolicyDiff {
        try _diff(old, new, moves)
    }

    /// The batch form of the diff of `old` into `new` (offsets moves).
    ///
    /// - Throws: ``EngineFailure`` when the engine gives no usable answer.
    public func batch(from old: [IntElement], to new: [IntElement]) throws(EngineFailure) -> DiffResult {
        try _diff(old, new, .offsets).batch
    }

    /// `hashmap`, the default.
    public static let hashmap = PolicyEngine(HashMapEngine())
}
