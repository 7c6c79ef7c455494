/// What an engine promises about its output, declared by its adapter.
///
/// DiffLab checks every engine against the properties that need only results: its batch form is
/// a valid UIKit batch update that turns the old list into the new one (identity and content); its
/// raw result is sound; diffing a list against itself reports nothing; the same input gives the
/// same output. What goes beyond that is a promise the adapter makes, and the fuzzer then checks it
/// too:
/// - ``supportsDuplicates``: whether lists may repeat an identifier. An engine that does not
///   promise it is still fed duplicates; failures on such inputs are reported as *outside the
///   engine's contract*, never silently skipped and never counted as a pass.
/// - ``minimalMoves``: whether the engine's moves are the fewest its own pairing allows (a longest
///   increasing run of paired elements stays in place).
/// - ``reference``: which reference its pairing must equal, if any.
///
/// The defaults promise nothing beyond the result-only properties, and support duplicates.
public struct EnginePromises: Sendable, Hashable, CustomStringConvertible {
    /// Whether the engine promises a correct result when an identifier occurs more than once in a
    /// list.
    public var supportsDuplicates: Bool
    /// Whether the engine promises the fewest moves for its own pairing.
    public var minimalMoves: Bool
    /// The reference the engine's pairing must equal.
    public var reference: EngineReference

    /// Promises; by default duplicates are supported, moves are not promised minimal and the
    /// pairing has no reference.
    public init(supportsDuplicates: Bool = true, minimalMoves: Bool = false, reference: EngineReference = .none) {
        self.supportsDuplicates = supportsDuplicates
        self.minimalMoves = minimalMoves
        self.reference = reference
    }

    /// `duplicates: yes, minimal moves: no, reference: heckel`.
    public var description: String {
        "duplicates: \(supportsDuplicates ? "yes" : "no"), minimal moves: \(minimalMoves ? "yes" : "no"), reference: \(reference)"
    }
}

/// The reference an engine's pairing must equal, as its adapter declares it.
///
/// Each case includes the ones below it: an engine with ``heckel`` semantics also agrees with
/// Heckel on unique identifiers.
public enum EngineReference: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No reference: only the result-only properties are checked.
    case none
    /// On lists whose identifiers are unique, every identifier present in both lists is paired, so
    /// inserts, deletes and updates equal Heckel's (IGListKit's) and, when moves are promised
    /// minimal, so does the number of moves. (`stdlib`.)
    case uniqueIdentifiers = "unique-identifiers"
    /// As ``uniqueIdentifiers``, and the elements kept in place form a longest common subsequence
    /// of the identifier lists: the insert/delete script is minimal. (`myers`.)
    case minimalScript = "minimal-script"
    /// The pairing equals IGListKit's `IGListDiff` (``heckel``) on every input, duplicates
    /// included: the k-th occurrence of an identifier pairs with its k-th occurrence, and an
    /// identifier is updated for all its pairs when any pair differs. (`heckel`, `hashmap`.)
    case heckel

    /// The reference's name, as in ``init(rawValue:)``.
    public var description: String { rawValue }

    /// Whether this reference includes agreement with Heckel on unique identifiers.
    public var agreesOnUniqueIdentifiers: Bool { self != .none }
}
