import DiffLabCore
import DiffLabEngines

/// DiffLab's own `hashmap` through the path every adapter takes: the lists wrapped into
/// ``Boxed`` elements (one per element, as the libraries get them), diffed, and the answer
/// converted into an `EngineResult` element by element. Its time against plain `hashmap` in the
/// same run is what an adapter costs, so no library is charged for it.
///
/// - Complexity: `hashmap`'s, plus O(n) to wrap and convert.
public struct IdentityAdapterEngine: ChangesetEngine {
    public init() {}
    public var name: String { "identity-adapter" }
    public var promises: EnginePromises { HashMapEngine().promises }
    public var about: EngineAbout? {
        EngineAbout(
            library: "DiffLab hashmap through the adapter path", version: "this DiffLab build",
            build: "part of DiffLab",
            adapter:
                "the lists wrapped in Boxed elements and the answer converted element by element, as every library adapter does; the pairing is hashmap's",
            promiseSources: ["hashmap's own promises (DiffLab's engines table)"])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        let result = HashMapEngine().diff(from: Boxed.wrap(old, comparison), to: Boxed.wrap(new, comparison), comparison: .equality)
        var flat = EngineResult()
        flat.inserts.reserveCapacity(result.inserts.count)
        for i in result.inserts { flat.inserts.append(i) }
        for d in result.deletes { flat.deletes.append(d) }
        for (from, to) in zip(result.updates, result.updateDestinations) { flat.updates.append(Update(from: from, to: to)) }
        for move in result.moves { flat.moves.append(move) }
        return EngineChanges(result: flat)
    }
}

extension Boxed: Diffable {
    public var diffIdentifier: Element.DiffIdentifier { id }
    // isContentEqual(to:) is DifferenceKit's ContentEquatable requirement, with the same
    // signature and meaning (DifferenceKitEngine.swift): one implementation serves both.
}
