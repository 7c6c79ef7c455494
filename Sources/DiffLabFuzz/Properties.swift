// The properties the fuzzer checks and their failures. The checks behind them are in
// Properties+PairingChecks.swift (pairing-level subjects), Properties+ResultChecks.swift
// (result-level subjects) and Properties+Problems.swift (what both levels share).

import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// A property that failed, with a signature naming the bug (so shrinking keeps the same one).
public struct PropertyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `property/subject/detail`, e.g. `batch-valid/hashmap/offsets/stale-content`, or
    /// `engine-failed/subject/kind` when the engine gave no answer (``EngineFailure/Kind``).
    public var signature: String
    /// What went wrong, in words.
    public var message: String
    /// Whether the input was outside the engine's contract (it repeats an identifier and the
    /// engine does not promise duplicates; see `FuzzSubject.isOutsideContract(_:for:)`). Such a
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
    /// applier turns the old list into the new one, identity and content; it has no updates and
    /// keeps every promise of a ``DiffResult`` (each list's order, no repeats); on the engine's
    /// derivation threads it equals `forBatchUpdates()` on one (pairing).
    case batchValid = "batch-valid"
    /// Staged changesets (pairing: ``StagedChangeset`` of the sectioned lists; result: the
    /// engine's own ``EngineChanges/stages``, if any) validate stage by stage, identity and
    /// content, and end at the new model; a ``StagedChangeset``'s stages are at most one of each
    /// kind, in order (reloads, deletes, sections, items), and none for equal models (pairing).
    case stagedValid = "staged-valid"
    /// The raw result (updates as reloads, moves as moves) keeps every documented promise of a
    /// ``DiffResult`` (each list's order, no repeats, ranges, update destinations aligned with
    /// updates and the pairing, the counts; also wrapped as one section's ``IndexPathDiffResult``;
    /// result: DiffLab's checked conversion of the answer, which is unordered by contract), applied
    /// UIKit's way gives the new list, pairs equal identifiers only (result: the pairing it implies,
    /// see `impliedMatching(_:)`); no spurious or missed updates when identifiers are unique.
    case rawSound = "raw-sound"
    /// The declared reference holds: `heckel` equals ``HeckelEngine``; engines that agree on
    /// unique identifiers do; a `minimal-script` engine keeps a longest common subsequence
    /// (an exact O(n·m/64) oracle at every size); moves promised minimal are the fewest for the pairing
    /// (brute force up to 9 pairs, plain patience sorting above: an oracle of its own, not the
    /// derivation's). Pairing subjects also check that `minimal` never moves more than `offsets`.
    case differential
    /// diff(a, a) is empty (result: flat result, batch form and stages); diff(a, b) mirrors
    /// diff(b, a) where the reference implies it; `DiffLookup` gives each identifier's last index
    /// in each list, `nil` where it is absent, and the same as index paths (pairing).
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
    /// subject's contract (`FuzzSubject.isOutsideContract(_:for:)`).
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
