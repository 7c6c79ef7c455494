/// One column of an arena verdict: the failures that break it.
public struct ArenaCheck: Sendable, Equatable {
    /// The failures that break the check (0: it holds).
    public var failures: Int
    /// How many of ``failures`` are on input outside the engine's contract.
    public var outsideContract: Int

    /// A check broken by `failures` failures, `outsideContract` of them outside the contract.
    public init(failures: Int = 0, outsideContract: Int = 0) {
        self.failures = failures
        self.outsideContract = outsideContract
    }

    /// Whether no failure breaks the check.
    public var holds: Bool { failures == 0 }

    /// Counts `failure` against the check.
    mutating func count(_ failure: ArenaFailure) {
        failures += 1
        if failure.outsideContract { outsideContract += 1 }
    }
}

/// What the arena concludes about one contestant from its failures: the rules of the report's
/// verdict table, in one place.
///
/// ## The rules
/// The *validity properties* are ``validityProperties``: `batch-valid`, `staged-valid` and
/// `raw-sound` (the batch update UIKit gets is valid and gives the new list; the stages do; the
/// raw result is sound). A failure counts under the property that found it, whatever its kind
/// (a crash or a hang included).
/// - ``uniqueIdentifiers`` is broken by every failure of a validity property on flat input that
///   does not repeat an identifier (`scope` flat, `duplicates` false).
/// - ``duplicates`` by every failure of a validity property on flat input that repeats one
///   (`scope` flat, `duplicates` true). Whether the engine promises duplicates is
///   ``duplicatesPromised``; when it does not, these failures are outside its contract.
/// - ``sectioned`` by every failure of a validity property on sectioned input (with or without
///   repeated identifiers); `nil` when sectioned input was not fuzzed.
/// - ``promisesKept`` by every failure of any other property (`differential`, `metamorphic`,
///   `sanitizer`, `deterministic`, …), either scope, that is inside the contract
///   (`outsideContract` false); failures outside the contract never break it.
/// - ``shortestCounterexample`` is the failure whose `old` and `new` are shortest together (in
///   UTF-8 bytes; the first in file order among equals), over all failures.
public struct ArenaVerdict: Sendable, Equatable {
    /// The properties whose failures make a batch update invalid.
    public static let validityProperties: Set<String> = ["batch-valid", "staged-valid", "raw-sound"]

    /// Validity on flat input with unique identifiers.
    public var uniqueIdentifiers: ArenaCheck
    /// Validity on flat input that repeats an identifier.
    public var duplicates: ArenaCheck
    /// Whether the engine promises duplicates (see ``duplicates``).
    public var duplicatesPromised: Bool
    /// Validity on sectioned input; `nil` when it was not fuzzed.
    public var sectioned: ArenaCheck?
    /// The other properties, inside the contract.
    public var promisesKept: ArenaCheck
    /// The failure with the shortest counterexample, if any.
    public var shortestCounterexample: ArenaFailure?

    /// The verdict on `contestant`; see the type's rules.
    /// - Complexity: O(failures).
    public init(_ contestant: ArenaContestant) {
        uniqueIdentifiers = ArenaCheck()
        duplicates = ArenaCheck()
        duplicatesPromised = contestant.promises.supportsDuplicates
        var sectioned = ArenaCheck()
        promisesKept = ArenaCheck()
        var shortest: (length: Int, failure: ArenaFailure)?
        for failure in contestant.failures {
            if Self.validityProperties.contains(failure.property) {
                switch (failure.scope, failure.duplicates) {
                case (.flat, false): uniqueIdentifiers.count(failure)
                case (.flat, true): duplicates.count(failure)
                case (.sectioned, _): sectioned.count(failure)
                }
            } else if !failure.outsideContract {
                promisesKept.count(failure)
            }
            let length = failure.old.utf8.count + failure.new.utf8.count
            if length < shortest?.length ?? .max { shortest = (length, failure) }
        }
        self.sectioned = contestant.sectioned ? sectioned : nil
        shortestCounterexample = shortest?.failure
    }
}

extension ArenaFailure {
    /// Whether a failure of a library deserves a bug report upstream:
    /// - every crash or hang, and every failure inside the library's contract;
    /// - outside the contract, a `batch-valid` or `staged-valid` failure, which is an update UIKit
    ///   rejects or one that leaves stale cells, on input the library took without complaint.
    ///
    /// Not reported: a library refusing input it does not promise (`engine-failed/…`, e.g. a
    /// documented throw on a repeated identifier), and the other properties' findings on such
    /// input (they follow from the same input, or, like an update's destination among repeated
    /// identifiers, from what the library's interface can say at all).
    public var deservesBugReport: Bool {
        if kind != .failure || !outsideContract { return true }
        return (property == "batch-valid" || property == "staged-valid") && !signature.hasPrefix("engine-failed/")
    }
}
