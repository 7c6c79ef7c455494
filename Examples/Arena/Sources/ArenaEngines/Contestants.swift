import DiffLab

/// The arena's contestants: one adapter per library, the identity adapter, and (when built) the
/// real IGListKit in its own process.
public enum ArenaContestants {
    /// The library adapters and the identity adapter, each registered once. Sectioned libraries
    /// (DifferenceKit, Differentiator) are registered as sectioned engines, so their stages are
    /// fuzzed on sectioned input too.
    public static var inProcess: [RegisteredEngine] {
        [
            RegisteredEngine(DifferenceKitEngine(), growthExponent: 1.2),
            RegisteredEngine(DifferentiatorEngine(), growthExponent: 1.2),
            RegisteredEngine(DeepDiffEngine(), growthExponent: 1.2),
            RegisteredEngine(DifferEngine(), growthExponent: 2),
            RegisteredEngine(ListDiffEngine(), growthExponent: 1.2),
            RegisteredEngine(CollectionDifferenceEngine(), growthExponent: 2),
            RegisteredEngine(IdentityAdapterEngine(), growthExponent: 1.2),
        ]
    }

    /// The names of every library adapter and the identity adapter, in the arena's order.
    public static var names: [String] { inProcess.map(\.name) }

    /// Every contestant this machine has: the in-process ones, and IGListKit when
    /// ``IGListKitEngine/environmentVariable`` names a built engine program (self-timed: the
    /// program measures its own diff, not the pipe).
    public static var all: [RegisteredEngine] {
        inProcess + (IGListKitEngine.fromEnvironment().map { [RegisteredEngine($0, selfTimed: true, growthExponent: 1.2)] } ?? [])
    }
}
