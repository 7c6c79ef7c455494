/// An update of one item: the element at old index ``from`` changed content, and its new version
/// is at new index ``to``.
public struct Update: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Index in the old list.
    public var from: Int
    /// Index in the new list (the update's destination).
    public var to: Int

    /// An update of old index `from`, whose new version is at new index `to`.
    @inlinable
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// Orders by old index, then destination.
    @inlinable
    public static func < (a: Update, b: Update) -> Bool { (a.from, a.to) < (b.from, b.to) }

    /// `from⇒to`.
    public var description: String { "\(from)⇒\(to)" }
}

/// A flat result as a third-party engine reports it: what it says, unchecked.
///
/// The shape of IGListKit's `IGListIndexSetResult` and of most changesets:
/// - ``inserts``: new indices of inserted elements;
/// - ``deletes``: old indices of deleted elements;
/// - ``updates``: elements whose content changed, each with its old index and its destination;
/// - ``moves``: moved elements, with absolute indices (old index → new index), as
///   `UICollectionView.moveItem(at:to:)` takes them.
///
/// Nothing is checked here: an engine under test may report anything. DiffLab checks it with
/// ``DiffResult/init(checking:oldCount:newCount:)`` and the batch-update model, and a result it
/// rejects is a failure of the engine, reported with the input that caused it. Order does not
/// matter.
public struct EngineResult: Hashable, Sendable, CustomStringConvertible {
    /// New indices of inserted elements.
    public var inserts: [Int]
    /// Old indices of deleted elements.
    public var deletes: [Int]
    /// Updated elements: old index and destination.
    public var updates: [Update]
    /// Moved elements: old index → new index.
    public var moves: [Move]

    /// A result from its four lists (any order).
    @inlinable
    public init(inserts: [Int] = [], deletes: [Int] = [], updates: [Update] = [], moves: [Move] = []) {
        self.inserts = inserts
        self.deletes = deletes
        self.updates = updates
        self.moves = moves
    }

    /// The number of reported changes.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var changeCount: Int { inserts.count + deletes.count + updates.count + moves.count }

    /// `inserts [..] deletes [..] updates [..] moves [..]`.
    public var description: String {
        "inserts \(inserts) deletes \(deletes) updates \(updates.map(\.description)) moves \(moves.map(\.description))"
    }
}

extension EngineResult {
    /// The flat form of a checked result (updates paired with their destinations).
    ///
    /// - Complexity: O(changes).
    @inlinable
    public init(_ result: DiffResult) {
        self.init(
            inserts: result.inserts, deletes: result.deletes,
            updates: zip(result.updates, result.updateDestinations).map { Update(from: $0, to: $1) },
            moves: result.moves)
    }
}

extension DiffResult {
    /// Checks an engine's flat result against the lists' lengths and stores it sorted.
    ///
    /// The same checks as ``init(oldCount:newCount:inserts:deletes:updates:updateDestinations:moves:)``:
    /// indices in range, none repeated inside a list, no move from a deleted index or to an
    /// inserted one, and `oldCount − deletes + inserts == newCount`.
    ///
    /// - Throws: ``DiffResultError`` naming the first problem.
    /// - Complexity: O(k log k) for k changes, plus O(oldCount + newCount).
    public init(checking result: EngineResult, oldCount: Int, newCount: Int) throws(DiffResultError) {
        try self.init(
            oldCount: oldCount, newCount: newCount, inserts: result.inserts, deletes: result.deletes,
            updates: result.updates.map { $0.from }, updateDestinations: result.updates.map { $0.to }, moves: result.moves)
    }
}

/// One stage of an engine's own staged changeset (in the manner of DifferenceKit's
/// `StagedChangeset`): the changes that take the previous stage's data (the old list, for the
/// first stage) to ``data``, each a batch update of its own.
public struct EngineStage<Element> {
    /// The list after this stage: what the data source holds while the stage's update runs.
    public var data: [Element]
    /// The stage's changes, addressed against the previous stage's data and ``data``.
    public var changes: EngineResult

    /// A stage that takes the previous data to `data` by `changes`.
    @inlinable
    public init(data: [Element], changes: EngineResult) {
        self.data = data
        self.changes = changes
    }
}

extension EngineStage: Sendable where Element: Sendable {}

/// Everything a ``ChangesetEngine`` answers for one pair of lists.
public struct EngineChanges<Element> {
    /// The flat result (required).
    public var result: EngineResult
    /// The engine's own batch-ready conversion of ``result``, if it has one (e.g. IGListKit's
    /// `resultForBatchUpdates`): handed to one `performBatchUpdates` call as it is. When `nil`,
    /// DiffLab converts ``result`` with ``DiffResult/forBatchUpdates()``.
    public var batch: EngineResult?
    /// The engine's own staged changeset, if it has one: each stage is validated as a batch update
    /// on the previous stage's data, and the last stage's data must be the new list.
    public var stages: [EngineStage<Element>]?
    /// Seconds the engine measured for computing this answer, when it times itself (an engine in
    /// another process: the harness's clock would time the pipe too). Benchmarks mark such
    /// figures as self-timed.
    public var reportedSeconds: Double?

    /// An answer: the flat result and, optionally, the engine's own batch form, stages and time.
    @inlinable
    public init(
        result: EngineResult, batch: EngineResult? = nil, stages: [EngineStage<Element>]? = nil,
        reportedSeconds: Double? = nil
    ) {
        self.result = result
        self.batch = batch
        self.stages = stages
        self.reportedSeconds = reportedSeconds
    }
}

extension EngineChanges: Sendable where Element: Sendable {}

extension EngineChanges {
    /// The same changes with the stages' data mapped by `transform`.
    ///
    /// - Complexity: O(items in the stages).
    @inlinable
    public func mapElements<T>(_ transform: (Element) -> T) -> EngineChanges<T> {
        EngineChanges<T>(
            result: result, batch: batch,
            stages: stages?.map { EngineStage(data: $0.data.map(transform), changes: $0.changes) },
            reportedSeconds: reportedSeconds)
    }
}

/// Why an engine gave no answer: it crashed, hung, answered something unreadable, or cannot take
/// this kind of element. Never a pass: the fuzzer reports it with the input, the benchmark skips
/// the cell with this message.
public struct EngineFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The engine (or its process) crashed or exited.
        case crashed
        /// The engine did not answer within its time limit.
        case timedOut = "timed-out"
        /// The engine answered something that is not a result.
        case badAnswer = "bad-answer"
        /// The engine cannot take this input (e.g. an element type it cannot encode).
        case unsupported
    }

    /// The class of failure; part of a fuzzer signature.
    public var kind: Kind
    /// What happened, in words.
    public var message: String

    /// A failure of `kind`, described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `crashed: the engine process exited with status 1`.
    public var description: String { "\(kind.rawValue): \(message)" }
}

/// A diff engine known only by its results: the socket for third-party libraries, which return
/// changesets rather than pairings.
///
/// Adapt an engine by converting its output into an ``EngineResult`` (and, if it has them, its
/// own batch-ready form and staged changeset), and by declaring its ``promises``. DiffLab then
/// fuzzes, times, gates and reports it like a built-in engine. An engine that exposes its pairing
/// can conform to ``DiffEngine`` instead, which gets every pairing-level property too.
///
/// Conforming types document their contract, complexity and duplicate handling.
public protocol ChangesetEngine: Sendable {
    /// The engine's name on the command line and in reports. Lower-case letters, digits and `-`
    /// keep it usable in cell names (`name:profile:kind:size`).
    var name: String { get }

    /// What the engine promises; see ``EnginePromises``.
    var promises: EnginePromises { get }

    /// Where the engine comes from (library, version, build, adapter, promise sources), for
    /// reports that compare libraries; `nil` (the default) when the adapter says nothing.
    var about: EngineAbout? { get }

    /// The engine's answer for turning `old` into `new`.
    ///
    /// - Parameters:
    ///   - old: the elements before the change.
    ///   - new: the elements after the change.
    ///   - comparison: how a paired element is judged updated (`Diffable._isUpdated(from:comparison:)`).
    /// - Throws: ``EngineFailure`` when the engine gives no answer; never for a wrong answer.
    func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element>
}

extension EngineChanges {
    /// The moves this answer hands to UIKit: summed over ``stages`` when there are stages (each
    /// stage is its own `performBatchUpdates` call), else those of ``batch`` when there is one,
    /// else those of ``result`` that DiffLab's batch conversion keeps
    /// (``DiffResult/forBatchUpdates()`` turns a move of an updated item into a delete and an
    /// insert). A count, not a check: the moves are not validated here, and a malformed answer
    /// is counted as it is.
    ///
    /// - Complexity: O(number of stages), or O(k) for k changes of the result.
    public var batchMoveCount: Int {
        if let stages { return stages.reduce(0) { $0 + $1.changes.moves.count } }
        if let batch { return batch.moves.count }
        guard !result.updates.isEmpty else { return result.moves.count }
        var updated = Set(result.updates.map(\.from))
        var kept = 0
        for move in result.moves where updated.remove(move.from) == nil { kept += 1 }
        return kept
    }
}

extension EngineChanges {
    /// The flat result, checked against the lists' lengths (see
    /// ``DiffResult/init(checking:oldCount:newCount:)``).
    ///
    /// - Throws: ``DiffResultError`` naming the first problem.
    /// - Complexity: O(k log k) for k changes, plus O(oldCount + newCount).
    public func checkedResult(oldCount: Int, newCount: Int) throws(DiffResultError) -> DiffResult {
        try DiffResult(checking: result, oldCount: oldCount, newCount: newCount)
    }

    /// The form handed to one `performBatchUpdates` call: the engine's own ``batch``, checked, or
    /// else DiffLab's ``DiffResult/forBatchUpdates()`` of the checked flat result.
    ///
    /// Only index-level consistency is checked here; whether the batch is valid for UIKit and
    /// turns the old list into the new one is the batch-update model's question.
    ///
    /// - Throws: ``DiffResultError`` naming the first problem, prefixed `batch form:` when it is in
    ///   the engine's own batch form.
    /// - Complexity: O(k log k) for k changes, plus O(oldCount + newCount).
    public func checkedBatch(oldCount: Int, newCount: Int) throws(DiffResultError) -> DiffResult {
        guard let batch else { return try checkedResult(oldCount: oldCount, newCount: newCount).forBatchUpdates() }
        do throws(DiffResultError) {
            return try DiffResult(checking: batch, oldCount: oldCount, newCount: newCount)
        } catch {
            throw DiffResultError("batch form: \(error.description)")
        }
    }
}
