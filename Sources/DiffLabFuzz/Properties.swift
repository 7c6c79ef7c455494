import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// What the fuzzer checks: an engine, or a variant of one with a piece replaced.
///
/// The three pieces mirror how a diff is made: an engine's pairing (``matching``), the shared
/// derivation of moves and updates (``derive``), and the batch conversion (``batch``). The harness
/// tests (deliberately broken variants) swap one piece to prove the properties catch the bug.
public struct FuzzSubject: Sendable {
    /// Which reference the subject's pairing must agree with, beyond the properties every engine
    /// meets.
    public enum Semantics: Sendable {
        /// Must equal ``HeckelEngine`` exactly (heckel, hashmap).
        case heckel
        /// Must pair along a minimal edit script (myers).
        case minimalScript
        /// No extra reference (stdlib).
        case none
    }

    /// The name in reports and signatures.
    public var name: String
    /// The shipped engine this subject is, if any (staged changesets need one).
    public var engine: EngineKind?
    /// The reference the pairing must agree with.
    public var semantics: Semantics
    /// Pairs two lists.
    public var matching: @Sendable ([FuzzItem], [FuzzItem]) -> Matching
    /// Derives a result from a pairing.
    public var derive: @Sendable (Matching, MoveStrategy) -> DiffResult
    /// Converts a result for one batch update.
    public var batch: @Sendable (DiffResult) -> DiffResult

    /// A subject from its pieces; `derive` and `batch` default to the shipped ones.
    public init(
        name: String, engine: EngineKind? = nil, semantics: Semantics,
        matching: @escaping @Sendable ([FuzzItem], [FuzzItem]) -> Matching,
        derive: @escaping @Sendable (Matching, MoveStrategy) -> DiffResult = { DiffResult(matching: $0, moves: $1) },
        batch: @escaping @Sendable (DiffResult) -> DiffResult = { $0.forBatchUpdates() }
    ) {
        self.name = name
        self.engine = engine
        self.semantics = semantics
        self.matching = matching
        self.derive = derive
        self.batch = batch
    }

    /// The shipped engine `kind`.
    public static func engine(_ kind: EngineKind) -> FuzzSubject {
        let semantics: Semantics =
            switch kind {
            case .heckel, .hashmap: .heckel
            case .myers: .minimalScript
            case .stdlib: .none
            }
        return FuzzSubject(
            name: kind.rawValue, engine: kind, semantics: semantics,
            matching: { kind.matching(from: $0, to: $1, comparison: .equality) })
    }

    /// The subject's diff of `old` into `new`.
    public func diff(_ old: [FuzzItem], _ new: [FuzzItem], _ moves: MoveStrategy) -> DiffResult {
        derive(matching(old, new), moves)
    }
}

/// A property that failed, with a signature naming the bug (so shrinking keeps the same one).
public struct PropertyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `property/subject/detail`, e.g. `batch-valid/hashmap/offsets/stale-content`.
    public var signature: String
    /// What went wrong, in words.
    public var message: String
    /// `signature: message`.
    public var description: String { "\(signature): \(message)" }
}

/// The properties every engine and move strategy is checked against.
public enum Property: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// `forBatchUpdates()` passes the UIKit validator and the applier turns the old list into the
    /// new one, identity and content.
    case batchValid = "batch-valid"
    /// Staged changesets of the sectioned lists validate stage by stage and end at the new model.
    case stagedValid = "staged-valid"
    /// The raw result (updates as reloads, moves as moves) applied UIKit's way gives the new list;
    /// the pairing is sound; no spurious or missed updates when identifiers are unique.
    case rawSound = "raw-sound"
    /// heckel == hashmap always; all engines agree on unique identifiers with minimal moves;
    /// myers' script is minimal (O(n·m) LCS oracle); minimal moves are the fewest (brute force).
    case differential
    /// diff(a, a) is empty; diff(a, b) mirrors diff(b, a); identifier lookups are consistent.
    case metamorphic
    /// The sanitizer's output of a corrupted batch update validates, but for section counts (the
    /// one class it documents it cannot fix), and a valid update passes unchanged.
    case sanitizer
    /// The same input gives the same output.
    case deterministic

    /// The property's name.
    public var description: String { rawValue }

    /// Checks `subject` on `input`; `nil` when the property holds.
    public func check(_ input: FuzzCase, _ subject: FuzzSubject) -> PropertyFailure? {
        func fail(_ detail: String, _ message: String) -> PropertyFailure {
            PropertyFailure(signature: "\(rawValue)/\(subject.name)/\(detail)", message: message)
        }
        switch self {
        case .batchValid: return checkBatchValid(input, subject, fail)
        case .stagedValid: return checkStaged(input, subject, fail)
        case .rawSound: return checkRawSound(input, subject, fail)
        case .differential: return checkDifferential(input, subject, fail)
        case .metamorphic: return checkMetamorphic(input, subject, fail)
        case .sanitizer: return checkSanitizer(input, subject, fail)
        case .deterministic: return checkDeterministic(input, subject, fail)
        }
    }
}

typealias Fail = (String, String) -> PropertyFailure

private func oneSection(_ items: [FuzzItem]) -> SectionedList<Int, FuzzItem> {
    SectionedList([.init(id: 0, items: items)])
}

private func checkBatchValid(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    for moves in MoveStrategy.allCases {
        let batch = subject.batch(subject.diff(c.old, c.new, moves))
        if !batch.updates.isEmpty { return fail("\(moves)/updates-left", "the batch form still has updates \(batch.updates)") }
        let update = BatchUpdate(batch)
        if let violation = update.violations().first {
            return fail("\(moves)/\(violation.rule)", violation.message)
        }
        do {
            let application = try update.apply(to: oneSection(c.old), expecting: oneSection(c.new))
            if let mismatch = application.mismatches.first {
                return fail("\(moves)/\(mismatchKind(mismatch))", "\(mismatch)")
            }
        } catch {
            return fail("\(moves)/invalid", error.description)
        }
    }
    return nil
}

private func mismatchKind(_ mismatch: ApplicationMismatch) -> String {
    switch mismatch {
    case .countsDisagree: "counts"
    case .wrongSection: "wrong-section"
    case .wrongItem: "wrong-item"
    case .staleContent: "stale-content"
    }
}

private func checkStaged(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    guard let engine = subject.engine else { return nil }
    let changeset: StagedChangeset<Int, FuzzItem> =
        switch engine {
        case .heckel: StagedChangeset(from: c.oldSections, to: c.newSections, engine: HeckelEngine())
        case .hashmap: StagedChangeset(from: c.oldSections, to: c.newSections, engine: HashMapEngine())
        case .myers: StagedChangeset(from: c.oldSections, to: c.newSections, engine: MyersEngine())
        case .stdlib: StagedChangeset(from: c.oldSections, to: c.newSections, engine: StdlibEngine())
        }
    var previous = c.oldSections
    for (k, stage) in changeset.stages.enumerated() {
        if let violation = stage.changes.violations().first {
            return fail("stage/\(violation.rule)", "stage \(k): \(violation.message)")
        }
        do {
            if let mismatch = try stage.changes.apply(to: previous, expecting: stage.data).mismatches.first {
                return fail("stage/\(mismatchKind(mismatch))", "stage \(k): \(mismatch)")
            }
        } catch {
            return fail("stage/invalid", "stage \(k): \(error.description)")
        }
        previous = stage.data
    }
    if previous != c.newSections { return fail("end", "the last stage's data is not the new model") }
    return nil
}

private func checkRawSound(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    let matching = subject.matching(c.old, c.new)
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
        for (o, n) in zip(result.updates, result.updateDestinations) where c.old[o].content == c.new[n].content {
            return fail("spurious-update", "old \(o) reported updated, but its content did not change")
        }
        let updated = Set(result.updates)
        for (o, n) in matching.oldToNew.enumerated() where n >= 0 && !updated.contains(o) && c.old[o].content != c.new[n].content {
            return fail("missed-update", "old \(o) → new \(n) changed content but is not reported updated")
        }
    }
    return nil
}

private func checkDifferential(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    let heckel = HeckelEngine()
    if subject.semantics == .heckel {
        if subject.matching(c.old, c.new) != heckel.matching(from: c.old, to: c.new, comparison: .equality) {
            return fail("differs-from-heckel", "the pairing differs from heckel's")
        }
        for moves in MoveStrategy.allCases where subject.diff(c.old, c.new, moves) != heckel.diff(from: c.old, to: c.new, moves: moves) {
            return fail("\(moves)/differs-from-heckel", "the result differs from heckel's")
        }
    }
    if c.hasUniqueIdentifiers && subject.diff(c.old, c.new, .minimal) != heckel.diff(from: c.old, to: c.new, moves: .minimal) {
        return fail("unique-disagreement", "with unique identifiers and minimal moves, the result differs from heckel's")
    }
    if subject.semantics == .minimalScript && c.old.count <= 48 && c.new.count <= 48 {
        let kept = MyersEngine().commonSubsequence(from: c.old, to: c.new).count
        let oracle = lcsLength(c.old.map(\.id), c.new.map(\.id))
        if kept != oracle {
            return fail("script-not-minimal", "the edit script keeps \(kept) elements; a longest common subsequence has \(oracle)")
        }
    }
    let matching = subject.matching(c.old, c.new)
    let minimal = subject.derive(matching, .minimal)
    let offsets = subject.derive(matching, .offsets)
    if minimal.moves.count > offsets.moves.count {
        return fail("minimal-above-offsets", "minimal has \(minimal.moves.count) moves, offsets \(offsets.moves.count)")
    }
    let paired = matching.newToOld.filter { $0 >= 0 }
    if paired.count <= 9 {
        let fewest = paired.count - bruteForceLongestIncreasing(paired)
        if minimal.moves.count != fewest {
            return fail("moves-not-minimal", "minimal reports \(minimal.moves.count) moves; the fewest is \(fewest)")
        }
    }
    return nil
}

private func checkMetamorphic(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    for moves in MoveStrategy.allCases where subject.diff(c.old, c.old, moves).hasChanges {
        return fail("\(moves)/self-diff", "diff(old, old) reports changes")
    }
    let forward = subject.diff(c.old, c.new, .minimal)
    let backward = subject.diff(c.new, c.old, .minimal)
    let symmetricPairing = c.hasUniqueIdentifiers || subject.semantics != .none
    if symmetricPairing && (forward.inserts.count != backward.deletes.count || forward.deletes.count != backward.inserts.count) {
        return fail("mirror-inserts-deletes", "diff(a,b) has \(forward.inserts.count) inserts, \(forward.deletes.count) deletes; diff(b,a) \(backward.inserts.count), \(backward.deletes.count)")
    }
    if c.hasUniqueIdentifiers && (forward.updates.count != backward.updates.count || forward.moves.count != backward.moves.count) {
        return fail("mirror-updates-moves", "diff(a,b) has \(forward.updates.count) updates, \(forward.moves.count) moves; diff(b,a) \(backward.updates.count), \(backward.moves.count)")
    }
    let lookup = ListDiff(old: c.old, new: c.new, result: forward)
    for item in c.old {
        let index = lookup.oldIndex(for: item.id)
        if index != c.old.lastIndex(where: { $0.id == item.id }) {
            return fail("lookup", "oldIndex(for: \(item.id)) is \(String(describing: index))")
        }
    }
    for item in c.new where lookup.newIndex(for: item.id) != c.new.lastIndex(where: { $0.id == item.id }) {
        return fail("lookup", "newIndex(for: \(item.id)) is wrong")
    }
    return nil
}

private func checkSanitizer(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    let clean = BatchUpdate(subject.batch(subject.diff(c.old, c.new, .offsets)))
    if clean.isValid && clean.sanitized() != clean {
        return fail("changed-valid-update", "the sanitizer changed a valid update")
    }
    let corrupted = corrupt(clean, with: c.corruptions)
    let output = corrupted.sanitized()
    if let violation = output.violations().first(where: { $0.rule != "section-count" }) {
        return fail("still-invalid/\(violation.rule)", violation.message)
    }
    return nil
}

private func checkDeterministic(_ c: FuzzCase, _ subject: FuzzSubject, _ fail: Fail) -> PropertyFailure? {
    for moves in MoveStrategy.allCases where subject.diff(c.old, c.new, moves) != subject.diff(c.old, c.new, moves) {
        return fail("\(moves)", "two runs on the same input differ")
    }
    return nil
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
func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
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
