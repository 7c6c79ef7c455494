import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// What the fuzzer checks: an engine of either kind, or a variant of one with a piece replaced.
///
/// A subject is one of two levels:
/// - **pairing** (built from a ``DiffEngine`` by the `init(_:)` that takes one, or from pieces): its
///   three pieces mirror how a diff is made — the engine's pairing (``matching``), the shared
///   derivation of moves and updates (``derive``) and the batch conversion (``batch``) — plus its
///   staged changesets of sectioned lists (``staged``). Every property is checked on the pairing
///   itself. The harness tests (deliberately broken variants) swap one piece to prove the
///   properties catch the bug.
/// - **result** (built from a ``ChangesetEngine`` by the `init(_:)` that takes one): only its
///   answers (``changes``) are seen, and every property that needs only results is checked on
///   them: the flat result, the engine's own batch form and stages, and the promises it declares.
///
/// What goes beyond soundness is decided by ``promises`` (its ``EnginePromises/reference`` and
/// ``EnginePromises/minimalMoves``). An input that repeats an identifier is outside the contract
/// of a subject that does not promise ``EnginePromises/supportsDuplicates``: it is still checked,
/// and a failure on it is marked ``PropertyFailure/outsideContract``.
///
/// For a type that conforms to both engine protocols `FuzzSubject(engine)` is ambiguous: wrap it
/// in a type that conforms to one, or use a pieces initializer.
public struct FuzzSubject: Sendable {
    /// The sectioned lists staged changesets are computed on.
    public typealias Sections = SectionedList<Int, FuzzItem>
    /// A result-level engine's answer for two lists, or why it gave none.
    public typealias Changes = @Sendable ([FuzzItem], [FuzzItem]) throws(EngineFailure) -> EngineChanges<FuzzItem>
    /// A result-level engine's answer for two lists presented as an element kind.
    public typealias KindedChanges =
        @Sendable ([FuzzItem], [FuzzItem], FuzzElementKind) throws(EngineFailure) -> EngineChanges<FuzzItem>
    /// A result-level engine's staged changeset of two sectioned lists presented as an element kind.
    public typealias SectionedChanges =
        @Sendable (Sections, Sections, FuzzElementKind) throws(EngineFailure) -> StagedChangeset<Int, FuzzItem>

    /// The name in reports, signatures and regression files.
    public var name: String
    /// What the engine promises; its ``EnginePromises/reference`` decides the differential checks.
    public var promises: EnginePromises
    /// Pairs two lists presented as an element kind (pairing level); `nil` for a result-level
    /// subject.
    public var matching: (@Sendable ([FuzzItem], [FuzzItem], FuzzElementKind) -> Matching)?
    /// Derives a result from a pairing (pairing level).
    public var derive: @Sendable (Matching, MoveStrategy) -> DiffResult
    /// Converts a result for one batch update (pairing level).
    public var batch: @Sendable (DiffResult) -> DiffResult
    /// Staged changesets of sectioned lists presented as an element kind (pairing level); `nil`
    /// skips `staged-valid`.
    public var staged: (@Sendable (Sections, Sections, FuzzElementKind) -> StagedChangeset<Int, FuzzItem>)?
    /// The engine's answer (result level); `nil` for a pairing-level subject.
    public var changes: KindedChanges?
    /// A result-level engine's own staged changeset of sectioned lists presented as an element
    /// kind (a ``SectionedChangesetEngine``); `nil` when it diffs flat lists only. Checked by
    /// `staged-valid`, stage by stage, with failures' details prefixed `sections/`.
    public var sectionedChanges: SectionedChanges?

    /// The reference the subject must agree with (``EnginePromises/reference``).
    public var reference: EngineReference { promises.reference }
    /// Whether the subject is pairing-level (its ``matching`` is known).
    public var isPairing: Bool { matching != nil }

    /// A pairing-level subject from its pieces; `derive` and `batch` default to the shipped ones.
    ///
    /// The pieces take ``FuzzItem`` lists as they are: such a subject diffs the items themselves
    /// whatever the case's ``FuzzCase/elements`` kind (only engines registered whole, by
    /// `init(_:)` taking a `DiffEngine`, are handed the other element types).
    public init(
        name: String, promises: EnginePromises = EnginePromises(),
        matching: @escaping @Sendable ([FuzzItem], [FuzzItem]) -> Matching,
        derive: @escaping @Sendable (Matching, MoveStrategy) -> DiffResult = { DiffResult(matching: $0, moves: $1) },
        batch: @escaping @Sendable (DiffResult) -> DiffResult = { $0.forBatchUpdates() },
        staged: (@Sendable (Sections, Sections) -> StagedChangeset<Int, FuzzItem>)? = nil
    ) {
        let kindedMatching: @Sendable ([FuzzItem], [FuzzItem], FuzzElementKind) -> Matching = { old, new, _ in matching(old, new) }
        var kindedStaged: (@Sendable (Sections, Sections, FuzzElementKind) -> StagedChangeset<Int, FuzzItem>)?
        if let staged { kindedStaged = { old, new, _ in staged(old, new) } }
        self.init(
            name: name, promises: promises, kindedMatching: kindedMatching, derive: derive, batch: batch,
            staged: kindedStaged)
    }

    /// A pairing-level subject whose pairing and staged changesets take the element kind.
    @inlinable
    public init(
        name: String, promises: EnginePromises = EnginePromises(),
        kindedMatching matching: @escaping @Sendable ([FuzzItem], [FuzzItem], FuzzElementKind) -> Matching,
        derive: @escaping @Sendable (Matching, MoveStrategy) -> DiffResult = { DiffResult(matching: $0, moves: $1) },
        batch: @escaping @Sendable (DiffResult) -> DiffResult = { $0.forBatchUpdates() },
        staged: (@Sendable (Sections, Sections, FuzzElementKind) -> StagedChangeset<Int, FuzzItem>)? = nil
    ) {
        self.name = name
        self.promises = promises
        self.matching = matching
        self.derive = derive
        self.batch = batch
        self.staged = staged
        self.changes = nil
        self.sectionedChanges = nil
    }

    /// A result-level subject from its answer function, which takes the ``FuzzItem`` lists as they
    /// are whatever the case's element kind.
    public init(name: String, promises: EnginePromises = EnginePromises(), changes: @escaping Changes) {
        self.init(name: name, promises: promises, kindedChanges: { old, new, _ throws(EngineFailure) in try changes(old, new) })
    }

    /// A result-level subject whose answer function takes the element kind.
    @inlinable
    public init(name: String, promises: EnginePromises = EnginePromises(), kindedChanges changes: @escaping KindedChanges) {
        self.name = name
        self.promises = promises
        self.matching = nil
        self.derive = { DiffResult(matching: $0, moves: $1) }
        self.batch = { $0.forBatchUpdates() }
        self.staged = nil
        self.changes = changes
        self.sectionedChanges = nil
    }

    /// The pairing-level subject of any ``DiffEngine``: its name, its promises, its pairing and
    /// staged changesets (``StagedChangeset``) of the lists presented as each case's
    /// ``FuzzElementKind`` (integers, colliding hashes, strings, objects under equality and
    /// identity), and its results and their batch forms derived on the threads it asks for
    /// (``DiffEngine/derivationThreads(oldCount:newCount:)``), so a parallel derivation and batch
    /// form are fuzzed against the reference's serial ones.
    ///
    /// The closures capture the concrete engine, so a built-in engine stays generic-specialized.
    @inlinable
    public init<Engine: DiffEngine>(_ engine: Engine) {
        self.init(
            name: engine.name, promises: engine.promises,
            kindedMatching: { old, new, kind in kind.matching(engine, old, new) },
            derive: { matching, moves in
                DiffResult(
                    matching: matching, moves: moves,
                    threads: engine.derivationThreads(oldCount: matching.oldToNew.count, newCount: matching.newToOld.count))
            },
            batch: { result in
                result.forBatchUpdates(threads: engine.derivationThreads(oldCount: result.oldCount, newCount: result.newCount))
            },
            staged: { old, new, kind in kind.staged(engine, old, new) })
    }

    /// The result-level subject of any ``ChangesetEngine``: its name, its promises and its answers
    /// for the lists presented as each case's ``FuzzElementKind``.
    @inlinable
    public init<Engine: ChangesetEngine>(_ engine: Engine) {
        self.init(name: engine.name, promises: engine.promises) {
            (old: [FuzzItem], new: [FuzzItem], kind: FuzzElementKind) throws(EngineFailure) -> EngineChanges<FuzzItem> in
            try kind.changes(engine, old, new)
        }
    }

    /// The result-level subject of a ``SectionedChangesetEngine``: as for any ``ChangesetEngine``,
    /// and its staged changesets of each case's sectioned lists (``sectionedChanges``).
    @inlinable
    public init<Engine: SectionedChangesetEngine>(_ engine: Engine) {
        self.init(name: engine.name, promises: engine.promises) {
            (old: [FuzzItem], new: [FuzzItem], kind: FuzzElementKind) throws(EngineFailure) -> EngineChanges<FuzzItem> in
            try kind.changes(engine, old, new)
        }
        sectionedChanges = { old, new, kind throws(EngineFailure) in try kind.stagedChanges(engine, old, new) }
    }

    /// The engines DiffLab ships, pairing-level, from the one table (``BuiltInEngines``): the six
    /// that are ``BuiltInEngines/Uses/fuzzed``: heckel, hashmap, hashmap-partitioned (the
    /// partitioned and parallel pairing on lists of any size), hashmap-reused (one reused
    /// workspace), myers, stdlib. `hashmap-parallel` is not fuzzed: it is `hashmap` on the lists
    /// a fuzzer generates; `hashmap-untrimmed` is there by name only.
    public static let builtIns: [FuzzSubject] = {
        var visitor = _FuzzSubjects()
        BuiltInEngines.visitAll(&visitor)
        return visitor.subjects
    }()

    /// The pairing-level subject's diff of `old` into `new`.
    ///
    /// - Precondition: the subject is pairing-level (``isPairing``).
    package func diff(_ old: [FuzzItem], _ new: [FuzzItem], _ moves: MoveStrategy) -> DiffResult {
        guard let matching else { preconditionFailure("FuzzSubject.diff: '\(name)' is a result-level subject") }
        return derive(matching(old, new, .integers), moves)
    }

    /// Whether `input` is outside what the subject promises for `property`: it repeats an
    /// identifier (an item's, or for `staged-valid` on a subject that stages sectioned lists a
    /// section's) and the subject does not promise ``EnginePromises/supportsDuplicates``.
    package func isOutsideContract(_ input: FuzzCase, for property: Property) -> Bool {
        guard !promises.supportsDuplicates else { return false }
        if !input.hasUniqueIdentifiers { return true }
        guard property == .stagedValid, isPairing || sectionedChanges != nil else { return false }
        let old = input.oldSections.sections.map(\.id)
        let new = input.newSections.sections.map(\.id)
        return Set(old).count != old.count || Set(new).count != new.count
    }
}

/// Builds ``FuzzSubject/builtIns`` from the table, each subject specialized for its engine.
private struct _FuzzSubjects: BuiltInEngineVisitor {
    var subjects: [FuzzSubject] = []

    mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
        guard uses.contains(.fuzzed) else { return }
        var subject = FuzzSubject(engine)
        // A reusing engine's results come from its workspace too, so that its result arrays'
        // reuse is fuzzed with its pairing's.
        if let reusing = engine as? HashMapEngine.Reusing { subject.derive = reusing.derive }
        subjects.append(subject)
    }
}
