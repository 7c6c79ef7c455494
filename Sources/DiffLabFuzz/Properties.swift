import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// What the fuzzer checks: an engine of either kind, or a variant of one with a piece replaced.
///
/// A subject is one of two levels:
/// - **pairing** (built from a ``DiffEngine`` by ``init(_:)-(DiffEngine)``, or from pieces): its
///   three pieces mirror how a diff is made — the engine's pairing (``matching``), the shared
///   derivation of moves and updates (``derive``) and the batch conversion (``batch``) — plus its
///   staged changesets of sectioned lists (``staged``). Every property is checked on the pairing
///   itself. The harness tests (deliberately broken variants) swap one piece to prove the
///   properties catch the bug.
/// - **result** (built from a ``ChangesetEngine`` by ``init(_:)-(ChangesetEngine)``): only its
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
    /// ``init(_:)-(DiffEngine)``, are handed the other element types).
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

    /// The pairing-level subject of any ``DiffEngine``: its name, its promises, and its pairing
    /// and staged changesets (``StagedChangeset``) of the lists presented as each case's
    /// ``FuzzElementKind`` (integers, colliding hashes, strings, objects under equality and identity).
    ///
    /// The closures capture the concrete engine, so a built-in engine stays generic-specialized.
    @inlinable
    public init<Engine: DiffEngine>(_ engine: Engine) {
        self.init(
            name: engine.name, promises: engine.promises,
            kindedMatching: { old, new, kind in kind.matching(engine, old, new) },
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

    /// The engines DiffLab ships, pairing-level, from the one table (``BuiltInEngines``): heckel,
    /// hashmap, hashmap-partitioned (the partitioned and parallel pairing on lists of any size),
    /// myers, stdlib. `hashmap-parallel` is not ``BuiltInEngines/Uses/fuzzed``: it is `hashmap`
    /// on the lists a fuzzer generates.
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
        subjects.append(FuzzSubject(engine))
    }
}

/// A property that failed, with a signature naming the bug (so shrinking keeps the same one).
public struct PropertyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `property/subject/detail`, e.g. `batch-valid/hashmap/offsets/stale-content`, or
    /// `engine-failed/subject/kind` when the engine gave no answer (``EngineFailure/Kind``).
    public var signature: String
    /// What went wrong, in words.
    public var message: String
    /// Whether the input was outside the engine's contract (it repeats an identifier and the
    /// engine does not promise duplicates; see ``FuzzSubject/isOutsideContract(_:for:)``). Such a
    /// failure is reported and saved, but is not a broken promise.
    public var outsideContract: Bool

    /// A failure with `signature` and `message`, inside the contract unless said otherwise.
    public init(signature: String, message: String, outsideContract: Bool = false) {
        self.signature = signature
        self.message = message
        self.outsideContract = outsideContract
    }

    /// What tells failures apart in a run: ``signature``, marked when the input was outside the
    /// engine's contract.
    package var key: String { signature + (outsideContract ? " (outside the contract)" : "") }

    /// `signature: message`, and `(outside the engine's contract)` when it is.
    public var description: String {
        "\(signature): \(message)" + (outsideContract ? " (outside the engine's contract)" : "")
    }
}

/// The properties every engine is checked against.
///
/// On a pairing-level subject each property checks the pairing and both move strategies; on a
/// result-level subject, the engine's answers (see each case). An engine that gives no answer
/// (throws ``EngineFailure``) fails whichever property asked, with signature
/// `engine-failed/<subject>/<kind>`.
public enum Property: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// The batch form (pairing: `forBatchUpdates()`; result: the engine's own ``EngineChanges/batch``
    /// or DiffLab's conversion of its checked flat result) passes the UIKit validator and the
    /// applier turns the old list into the new one, identity and content.
    case batchValid = "batch-valid"
    /// Staged changesets (pairing: ``StagedChangeset`` of the sectioned lists; result: the
    /// engine's own ``EngineChanges/stages``, if any) validate stage by stage, identity and
    /// content, and end at the new model.
    case stagedValid = "staged-valid"
    /// The raw result (updates as reloads, moves as moves) is well formed, applied UIKit's way
    /// gives the new list, pairs equal identifiers only (result: the pairing it implies, see
    /// ``impliedMatching(_:)``); no spurious or missed updates when identifiers are unique.
    case rawSound = "raw-sound"
    /// The declared reference holds: `heckel` equals ``HeckelEngine``; engines that agree on
    /// unique identifiers do; a `minimal-script` engine keeps a longest common subsequence
    /// (an exact O(n·m/64) oracle at every size); moves promised minimal are the fewest for the pairing
    /// (brute force up to 9 pairs, patience sorting above). Pairing subjects also check that
    /// `minimal` never moves more than `offsets`.
    case differential
    /// diff(a, a) is empty (result: flat result, batch form and stages); diff(a, b) mirrors
    /// diff(b, a) where the reference implies it; identifier lookups are consistent (pairing).
    case metamorphic
    /// The sanitizer's output of a corrupted batch update validates, but for section counts (the
    /// one class it documents it cannot fix), and a valid update passes unchanged.
    case sanitizer
    /// The same input gives the same output (result: flat result, batch form and stages).
    case deterministic

    /// The property's name.
    public var description: String { rawValue }

    /// Checks `subject` on `input`; `nil` when the property holds.
    ///
    /// The failure is marked ``PropertyFailure/outsideContract`` when the input is outside the
    /// subject's contract (``FuzzSubject/isOutsideContract(_:for:)``).
    public func check(_ input: FuzzCase, _ subject: FuzzSubject) -> PropertyFailure? {
        func fail(_ detail: String, _ message: String) -> PropertyFailure {
            PropertyFailure(signature: "\(rawValue)/\(subject.name)/\(detail)", message: message)
        }
        var failure: PropertyFailure?
        if let matching = subject.matching {
            let kind = input.elements
            let pairing = PairingChecks(c: input, subject: subject, matching: { matching($0, $1, kind) }, fail: fail)
            switch self {
            case .batchValid: failure = pairing.batchValid()
            case .stagedValid: failure = pairing.staged()
            case .rawSound: failure = pairing.rawSound()
            case .differential: failure = pairing.differential()
            case .metamorphic: failure = pairing.metamorphic()
            case .sanitizer: failure = pairing.sanitizer()
            case .deterministic: failure = pairing.deterministic()
            }
        } else if let changes = subject.changes {
            let kind = input.elements
            var sectioned: ResultChecks.SectionedChanges?
            if let staged = subject.sectionedChanges {
                sectioned = { (old: FuzzSubject.Sections, new: FuzzSubject.Sections) throws(EngineFailure) in
                    try staged(old, new, kind)
                }
            }
            let results = ResultChecks(
                c: input, name: subject.name, promises: subject.promises,
                changes: { (old, new) throws(EngineFailure) in try changes(old, new, kind) }, sectioned: sectioned,
                fail: fail)
            do {
                switch self {
                case .batchValid: try results.batchValid()
                case .stagedValid: try results.staged()
                case .rawSound: try results.rawSound()
                case .differential: try results.differential()
                case .metamorphic: try results.metamorphic()
                case .sanitizer: try results.sanitizer()
                case .deterministic: try results.deterministic()
                }
            } catch {
                failure = error
            }
        }
        failure?.outsideContract = subject.isOutsideContract(input, for: self)
        return failure
    }
}

typealias Fail = (String, String) -> PropertyFailure

private func oneSection(_ items: [FuzzItem]) -> SectionedList<Int, FuzzItem> {
    SectionedList([.init(id: 0, items: items)])
}

private func mismatchKind(_ mismatch: ApplicationMismatch) -> String {
    switch mismatch {
    case .countsDisagree: "counts"
    case .wrongSection: "wrong-section"
    case .wrongItem: "wrong-item"
    case .staleContent: "stale-content"
    }
}

/// The first problem of `update` as one batch from `old` to `new`: a UIKit rule it breaks, or a
/// difference of the applied outcome from `new` (identity and content). `prefix` starts the
/// signature's detail, `context` the message.
private func batchProblem(
    _ update: BatchUpdate, from old: [FuzzItem], to new: [FuzzItem], _ prefix: String, _ context: String, _ fail: Fail
) -> PropertyFailure? {
    stageProblem(update, from: oneSection(old), to: oneSection(new), prefix, context, fail)
}

/// The sanitizer's contract on a clean batch update from `old` to `new` and its corruptions.
///
/// - A valid update is returned unchanged.
/// - The repaired update breaks no UIKit rule, except a section count the corruption made
///   unrepairable: the corrupted update already had a wrong section count, or an out-of-bounds
///   or repeated section operation (dropping a section insert or delete changes the count).
/// - Where every corruption is an extra reload, or an extra delete of an item the update moves,
///   the documented repairs (delete + reload keeps the delete, reload + move becomes delete +
///   insert, delete + move keeps the delete and inserts at the destination) put every item
///   where it belongs: the repaired update is right, not only valid.
private func sanitizerProblem(
    _ clean: BatchUpdate, _ corruptions: [Corruption], from old: [FuzzItem], to new: [FuzzItem], _ fail: Fail
) -> PropertyFailure? {
    if clean.sanitized() != clean && clean.isValid {
        return fail("changed-valid-update", "the sanitizer changed a valid update")
    }
    let corrupted = corrupt(clean, with: corruptions)
    let output = corrupted.sanitized()
    let countBroken = corrupted.violations().contains {
        ["section-count", "section-bounds", "duplicate-section"].contains($0.rule)
    }
    if let violation = output.violations().first(where: { !countBroken || $0.rule != "section-count" }) {
        return fail("still-invalid/\(violation.rule)", violation.message)
    }
    let moved = Set(clean.moveItems.map(\.from))
    let repairsRight = !corruptions.isEmpty && corruptions.allSatisfy {
        switch $0 {
        case .reload: true
        case let .delete(item): moved.contains(ItemIndexPath(section: 0, item: item))
        default: false
        }
    }
    if repairsRight && batchProblem(clean, from: old, to: new, "", "", fail) == nil,
        let problem = batchProblem(output, from: old, to: new, "repaired-wrong/", "the repaired update: ", fail)
    {
        return problem
    }
    return nil
}

/// The first problem of one sectioned update from `old` to `new`: a UIKit rule it breaks, or a
/// difference of the applied outcome from `new`.
private func stageProblem(
    _ update: BatchUpdate, from old: SectionedList<Int, FuzzItem>, to new: SectionedList<Int, FuzzItem>,
    _ prefix: String, _ context: String, _ fail: Fail
) -> PropertyFailure? {
    // The applier validates first and throws every violation: the first is the one reported.
    do {
        if let mismatch = try update.apply(to: old, expecting: new).mismatches.first {
            return fail(prefix + mismatchKind(mismatch), context + "\(mismatch)")
        }
    } catch {
        guard let violation = error.violations.first else { return fail(prefix + "invalid", context + error.description) }
        return fail(prefix + violation.rule, context + violation.message)
    }
    return nil
}

/// The section pairing a valid update implies, as new section → old section (−1: inserted), by
/// UIKit's rule and independently of any diff: moved sections go where their moves say; the
/// other surviving sections keep their order and fill the remaining new positions in turn.
///
/// - Complexity: O(S + k) for S sections and k section operations.
func impliedSectionPairing(_ update: BatchUpdate) -> [Int] {
    let before = update.itemCountsBefore.count
    let after = update.itemCountsAfter.count
    var newToOld = [Int](repeating: -1, count: after)
    var taken = [Bool](repeating: false, count: after)
    var leaves = [Bool](repeating: false, count: before)
    for s in update.deleteSections where s >= 0 && s < before { leaves[s] = true }
    for t in update.insertSections where t >= 0 && t < after { taken[t] = true }
    for move in update.moveSections where move.from >= 0 && move.from < before && move.to >= 0 && move.to < after {
        leaves[move.from] = true
        taken[move.to] = true
        newToOld[move.to] = move.from
    }
    var t = 0
    for s in 0..<before where !leaves[s] {
        while t < after && taken[t] { t += 1 }
        guard t < after else { break }
        newToOld[t] = s
        t += 1
    }
    return newToOld
}

/// A section stage (inserts and moves of sections, nothing else) followed by an item stage
/// (inserts and moves of items, nothing else) as one batch update from the first stage's data
/// to the second's, or `nil` when they do not merge: when an item operation touches a section
/// that is inserted or moved (UIKit forbids both in one update), or either stage has other
/// operations.
///
/// The merged update moves sections and items across sections at once, so an item's source and
/// destination section indices differ even where its section stays: the validator must count
/// item moves by the sections' new indices (an item moved between the two index spaces of one
/// section is no move out of it). A staged changeset never holds such an update; merging its
/// stages makes one that is valid by construction.
/// - Complexity: O(S + k) for S sections and k operations.
func mergedSectionAndItemStages(_ sections: BatchUpdate, _ items: BatchUpdate) -> BatchUpdate? {
    guard sections.deleteSections.isEmpty, sections.reloadSections.isEmpty,
        !sections.insertSections.isEmpty || !sections.moveSections.isEmpty,
        sections.insertItems.isEmpty, sections.deleteItems.isEmpty, sections.reloadItems.isEmpty,
        sections.moveItems.isEmpty, items.insertSections.isEmpty, items.deleteSections.isEmpty,
        items.reloadSections.isEmpty, items.moveSections.isEmpty, items.deleteItems.isEmpty,
        items.reloadItems.isEmpty, !items.insertItems.isEmpty || !items.moveItems.isEmpty,
        sections.itemCountsAfter == items.itemCountsBefore
    else { return nil }
    let newToOld = impliedSectionPairing(sections)
    let changed = Set(sections.insertSections + sections.moveSections.map(\.to))
    func isFree(_ section: Int) -> Bool { section >= 0 && section < newToOld.count && !changed.contains(section) }
    guard items.insertItems.allSatisfy({ isFree($0.section) }),
        items.moveItems.allSatisfy({ isFree($0.from.section) && isFree($0.to.section) })
    else { return nil }
    var merged = sections
    merged.itemCountsAfter = items.itemCountsAfter
    merged.insertItems = items.insertItems
    merged.moveItems = items.moveItems.map {
        IndexPathMove(from: ItemIndexPath(section: newToOld[$0.from.section], item: $0.from.item), to: $0.to)
    }
    return merged
}

/// IGListKit's offsets rule, computed on its own from the pairing: a paired element moves when
/// its rank among the paired old elements differs from its rank among the paired new ones
/// (IGListKit: old index − deletes before it + inserts before its new index ≠ new index).
/// The moves must be exactly those, in new-index order.
/// - Complexity: O(n + m).
private func offsetsProblem(_ matching: Matching, _ offsets: DiffResult, _ fail: Fail) -> PropertyFailure? {
    var rank = [Int](repeating: -1, count: matching.oldToNew.count)
    var paired = 0
    for (o, n) in matching.oldToNew.enumerated() where n >= 0 {
        rank[o] = paired
        paired += 1
    }
    var expected: [Move] = []
    paired = 0
    for (n, o) in matching.newToOld.enumerated() where o >= 0 {
        if o >= rank.count || rank[o] != paired { expected.append(Move(from: o, to: n)) }
        paired += 1
    }
    if offsets.moves != expected {
        let extra = offsets.moves.first { !expected.contains($0) }
        let missing = expected.first { !offsets.moves.contains($0) }
        return fail(
            "offsets-rule",
            "offsets reports \(offsets.moves.count) moves, the offsets rule \(expected.count)"
                + (extra.map { "; \($0) is not a move" } ?? "") + (missing.map { "; \($0) is missing" } ?? ""))
    }
    return nil
}

/// The fewest moves a pairing allows: paired elements outside one longest increasing run.
/// Brute force (every subset) up to 9 pairs, patience sorting (``MoveStrategy/minimal``) above.
private func fewestMoves(_ matching: Matching) -> Int {
    let paired = matching.newToOld.filter { $0 >= 0 }
    if paired.count <= 9 { return paired.count - bruteForceLongestIncreasing(paired) }
    return DiffResult(matching: matching, moves: .minimal).moves.count
}

/// ``fewestMoves(_:)`` of the pairing `newToOld` gives (new → old index, −1 unpaired; old
/// indices distinct and within `0..<oldCount`).
private func fewestMoves(newToOld: [Int], oldCount: Int) -> Int {
    var matching = Matching(oldCount: oldCount, newCount: newToOld.count)
    for (n, o) in newToOld.enumerated() where o >= 0 { matching.pair(old: o, new: n) }
    return fewestMoves(matching)
}

/// The properties on a pairing-level subject: the pairing, both move strategies.
private struct PairingChecks {
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

/// The last index of every identifier in `items`. - Complexity: O(n) expected.
private func lastIndices(_ items: [FuzzItem]) -> [Int: Int] {
    var last: [Int: Int] = [:]
    for (i, item) in items.enumerated() { last[item.id] = i }
    return last
}

/// With unique identifiers: no reported update whose content did not change, no changed pair left
/// unreported. `matching` is the pairing `result` reports (its own or the implied one).
private func updateProblem(_ c: FuzzCase, _ matching: Matching, _ result: DiffResult, _ fail: Fail) -> PropertyFailure? {
    for (o, n) in zip(result.updates, result.updateDestinations) where c.old[o].content == c.new[n].content {
        return fail("spurious-update", "old \(o) reported updated, but its content did not change")
    }
    let updated = Set(result.updates)
    for (o, n) in matching.oldToNew.enumerated() where n >= 0 && !updated.contains(o) && c.old[o].content != c.new[n].content {
        return fail("missed-update", "old \(o) → new \(n) changed content but is not reported updated")
    }
    return nil
}

/// A `minimal-script` engine keeps (pairs without moving) as many elements as a longest common
/// subsequence of the identifier lists holds. Checked at every size: the O(n·m) dynamic program
/// up to 48 items a side, the bit-parallel one (O(n·m/64)) above.
private func scriptProblem(_ c: FuzzCase, _ matching: Matching, moveCount: Int, _ fail: Fail) -> PropertyFailure? {
    let kept = matching.newToOld.count(where: { $0 >= 0 }) - moveCount
    let a = c.old.map(\.id)
    let b = c.new.map(\.id)
    let oracle = a.count <= 48 && b.count <= 48 ? lcsLength(a, b) : bitParallelLCSLength(a, b)
    guard kept != oracle else { return nil }
    return fail("script-not-minimal", "the edit script keeps \(kept) elements; a longest common subsequence has \(oracle)")
}

/// diff(a, b) against diff(b, a): inserts and deletes swap, update and move counts agree, each
/// where asked.
private func mirrorProblem(
    _ forward: DiffResult, _ backward: DiffResult, insertsDeletes: Bool, updates: Bool, moves: Bool, _ fail: Fail
) -> PropertyFailure? {
    if insertsDeletes && (forward.inserts.count != backward.deletes.count || forward.deletes.count != backward.inserts.count) {
        return fail("mirror-inserts-deletes", "diff(a,b) has \(forward.inserts.count) inserts, \(forward.deletes.count) deletes; diff(b,a) \(backward.inserts.count), \(backward.deletes.count)")
    }
    if (updates && forward.updates.count != backward.updates.count) || (moves && forward.moves.count != backward.moves.count) {
        return fail("mirror-updates-moves", "diff(a,b) has \(forward.updates.count) updates, \(forward.moves.count) moves; diff(b,a) \(backward.updates.count), \(backward.moves.count)")
    }
    return nil
}

/// The properties on a result-level subject: its flat result, batch form and stages, as answered.
private struct ResultChecks {
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
    func checked(_ result: EngineResult, _ oldCount: Int, _ newCount: Int, _ detail: String, _ context: String = "")
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
                throw fail("unique-move-count", "with unique identifiers, \(flat.moves.count) moves; heckel's minimal count is \(expected.moves.count)")
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

/// Applies corruptions to a one-section batch update.
///
/// Total for any field values, so a hand-edited case cannot make it trap: an `index` picks an
/// operation modulo the list's length (its magnitude, for a negative one), a `shift` saturates at
/// `Int.min`/`Int.max`, and a section insert at a negative index inserts the count at the front.
/// - Complexity: O(corruptions × operations).
func corrupt(_ update: BatchUpdate, with corruptions: [Corruption]) -> BatchUpdate {
    var u = update
    func path(_ item: Int) -> ItemIndexPath { ItemIndexPath(section: 0, item: item) }
    func slot(_ index: Int, _ count: Int) -> Int { Int(index.magnitude % UInt(count)) }
    func shifted(_ value: Int, by delta: Int) -> Int {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        return overflow ? (delta > 0 ? Int.max : Int.min) : sum
    }
    func edit(_ list: Int, _ index: Int, _ body: (inout [ItemIndexPath]) -> Void) {
        switch list {
        case 0: body(&u.insertItems)
        case 1: body(&u.deleteItems)
        default: body(&u.reloadItems)
        }
    }
    for corruption in corruptions {
        switch corruption {
        case let .duplicate(list, index):
            if list == 3 {
                if !u.moveItems.isEmpty { u.moveItems.append(u.moveItems[slot(index, u.moveItems.count)]) }
            } else {
                edit(list, index) { if !$0.isEmpty { $0.append($0[slot(index, $0.count)]) } }
            }
        case let .drop(list, index):
            if list == 3 {
                if !u.moveItems.isEmpty { u.moveItems.remove(at: slot(index, u.moveItems.count)) }
            } else {
                edit(list, index) { if !$0.isEmpty { $0.remove(at: slot(index, $0.count)) } }
            }
        case let .shift(list, index, delta):
            if list == 3 {
                if !u.moveItems.isEmpty {
                    let k = slot(index, u.moveItems.count)
                    u.moveItems[k].to.item = shifted(u.moveItems[k].to.item, by: delta)
                }
            } else {
                edit(list, index) { list in
                    guard !list.isEmpty else { return }
                    let k = slot(index, list.count)
                    list[k].item = shifted(list[k].item, by: delta)
                }
            }
        case let .reload(item): u.reloadItems.append(path(item))
        case let .delete(item): u.deleteItems.append(path(item))
        case let .insert(item): u.insertItems.append(path(item))
        case let .section(kind, section):
            switch kind {
            case 0:
                u.insertSections.append(section)
                u.itemCountsAfter.insert(0, at: max(0, min(section, u.itemCountsAfter.count)))
            case 1:
                u.deleteSections.append(section)
                if section >= 0 && section < u.itemCountsAfter.count { u.itemCountsAfter.remove(at: section) }
            case 2: u.reloadSections.append(section)
            default: u.moveSections.append(SectionMove(from: section, to: 0))
            }
        }
    }
    return u
}

/// Length of a longest common subsequence, by the O(n·m) dynamic program: the oracle for myers.
package func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
    guard !a.isEmpty && !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1)
    var current = previous
    for i in a.indices {
        for j in b.indices {
            current[j + 1] = a[i] == b[j] ? previous[j] + 1 : max(previous[j + 1], current[j])
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Length of a longest common subsequence by the bit-parallel dynamic program (Allison and Dix;
/// Hyyrö): one bit per position of `b`, a row of the O(n·m) table per element of `a` in
/// O(m/64) word operations. An oracle independent of every engine, exact at any size.
///
/// - Complexity: O(n·m/64) time, O(distinct(b)·m/64) memory.
package func bitParallelLCSLength(_ a: [Int], _ b: [Int]) -> Int {
    guard !a.isEmpty && !b.isEmpty else { return 0 }
    let words = (b.count + 63) / 64
    var masks: [Int: [UInt64]] = [:]
    for (j, x) in b.enumerated() {
        masks[x, default: [UInt64](repeating: 0, count: words)][j / 64] |= 1 << UInt64(j % 64)
    }
    var row = [UInt64](repeating: .max, count: words)
    for x in a {
        guard let mask = masks[x] else { continue }
        // row = (row + (row & mask)) | (row & ~mask), the addition carried across words.
        var carry: UInt64 = 0
        for w in 0..<words {
            let u = row[w] & mask[w]
            let (sum1, o1) = row[w].addingReportingOverflow(u)
            let (sum2, o2) = sum1.addingReportingOverflow(carry)
            carry = (o1 || o2) ? 1 : 0
            row[w] = sum2 | (row[w] & ~mask[w])
        }
    }
    var ones = 0
    for w in 0..<words {
        let valid = w == words - 1 && b.count % 64 != 0 ? (UInt64(1) << UInt64(b.count % 64)) - 1 : UInt64.max
        ones += (row[w] & valid).nonzeroBitCount
    }
    return b.count - ones
}

/// Length of a longest strictly increasing subsequence, by trying every subset (tiny inputs only):
/// the oracle for minimal moves.
func bruteForceLongestIncreasing(_ values: [Int]) -> Int {
    var best = 0
    for mask in 0..<(1 << values.count) {
        var last = Int.min
        var length = 0
        var increasing = true
        for i in values.indices where mask & (1 << i) != 0 {
            if values[i] <= last { increasing = false; break }
            last = values[i]
            length += 1
        }
        if increasing { best = max(best, length) }
    }
    return best
}
