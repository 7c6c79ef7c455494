import DiffLabCore

/// The engines DiffLab ships, selectable by name.
///
/// ``diff(from:to:comparison:moves:)`` dispatches to the concrete engine type, so the call is
/// generic-specialized for `Element` (no existential in the hot loop).
public enum EngineKind: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// ``HeckelEngine``: IGListKit's `IGListDiff`, the readable reference.
    case heckel
    /// ``HashMapEngine``: the same output as `heckel`, built for speed.
    case hashmap
    /// ``MyersEngine``: pairing from a minimal edit script.
    case myers
    /// ``StdlibEngine``: Swift's `difference(from:)` + `inferringMoves()`, the benchmark reference.
    case stdlib

    /// The engine's name, as accepted by ``init(rawValue:)``.
    public var description: String { rawValue }

    /// The names of all engines, comma-separated, for messages.
    public static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The engine as an existential, for code that stores engines.
    public var engine: any DiffEngine {
        switch self {
        case .heckel: HeckelEngine()
        case .hashmap: HashMapEngine()
        case .myers: MyersEngine()
        case .stdlib: StdlibEngine()
        }
    }

    /// The pairing the named engine decides; see ``DiffEngine/matching(from:to:comparison:)``.
    @inlinable
    public func matching<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption = .equality
    ) -> Matching {
        switch self {
        case .heckel: HeckelEngine().matching(from: old, to: new, comparison: comparison)
        case .hashmap: HashMapEngine().matching(from: old, to: new, comparison: comparison)
        case .myers: MyersEngine().matching(from: old, to: new, comparison: comparison)
        case .stdlib: StdlibEngine().matching(from: old, to: new, comparison: comparison)
        }
    }

    /// The changes that turn `old` into `new` by the named engine; see
    /// ``DiffEngine/diff(from:to:comparison:moves:)``.
    @inlinable
    public func diff<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption = .equality,
        moves: MoveStrategy = .offsets
    ) -> DiffResult {
        DiffResult(matching: matching(from: old, to: new, comparison: comparison), moves: moves)
    }
}
