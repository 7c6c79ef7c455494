import DiffLabBatch
import DiffLabCore

/// What the engines are handed for a fuzzed input: the same ``FuzzItem`` lists, presented as one
/// of several element types, so identifier hashing, string equality and class identity are all
/// exercised.
///
/// The properties always judge the answer against the ``FuzzItem`` lists: an element kind changes
/// only what the engine sees, never what is right. Each kind maps an item's ``FuzzItem/id`` to an
/// identifier injectively (distinct ids stay distinct identifiers, equal ids equal ones) and its
/// ``FuzzItem/content`` to content, so the pairing and updates an engine must report are the same
/// under every kind; only ``objectIdentity`` adds updates, and the generator folds those into the
/// content (see ``FuzzItem/form``).
public enum FuzzElementKind: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// The ``FuzzItem``s themselves: integer identifiers with good hashes.
    case integers
    /// Integer identifiers whose hash values collide on purpose (``CollidingKey``): every four
    /// consecutive ids share one hash value, so they share a tag, a home slot and a probe sequence
    /// in every open-addressing table, and only the equality check tells them apart.
    case collidingHashes = "colliding-hashes"
    /// String identifiers (``FuzzString``): mostly ASCII, and every fourth id non-ASCII with each
    /// occurrence written in one of four canonically equivalent forms (precomposed, decomposed, a
    /// singleton and a mix), so equal identifiers are `==` with different bytes. Some are longer
    /// than the small-string limit.
    case strings
    /// Class instances (``FuzzObject``) under ``ComparisonOption/equality``: items with equal id,
    /// content and ``FuzzItem/form`` share one instance, so equal content with a different
    /// identity occurs and must not be reported updated.
    case objects
    /// Class instances under ``ComparisonOption/identity`` (IGListKit's pointer personality): a
    /// paired element that is not the same instance is updated whatever its content.
    case objectIdentity = "object-identity"

    /// The kind's name, as regression files and `difflab fuzz --elements` spell it.
    public var description: String { rawValue }

    /// How many representations (``FuzzItem/form``) an item can take under this kind: 4 string
    /// forms, 2 instances per content for objects, 1 otherwise.
    public var formCount: Int {
        switch self {
        case .integers, .collidingHashes: 1
        case .strings: 4
        case .objects, .objectIdentity: 2
        }
    }

    /// The comparison the engine is asked to diff with.
    public var comparison: ComparisonOption { self == .objectIdentity ? .identity : .equality }
}

// MARK: The element types

/// An integer identifier with a deliberately poor hash: `id >> 2` is all it feeds the hasher,
/// so ids 0–3, 4–7, ... collide completely (the technique of swift-collections' test keys with
/// controllable hash values). Equality compares the whole id.
public struct CollidingKey: Hashable, Sendable {
    /// The identifier.
    public var id: Int
    /// `id`.
    public init(_ id: Int) { self.id = id }
    /// Feeds `id >> 2` only.
    public func hash(into hasher: inout Hasher) { hasher.combine(id >> 2) }
    /// Compares the ids.
    public static func == (a: CollidingKey, b: CollidingKey) -> Bool { a.id == b.id }
}

/// A ``FuzzItem`` whose identifier is a ``CollidingKey``.
public struct CollidingItem: Diffable, Sendable {
    /// The item it presents.
    public var item: FuzzItem
    /// `item`.
    public init(_ item: FuzzItem) { self.item = item }
    /// The colliding key of the item's id.
    public var diffIdentifier: CollidingKey { CollidingKey(item.id) }
    /// Compares the contents.
    public func isContentEqual(to other: CollidingItem) -> Bool { item.content == other.item.content }
}

/// A ``FuzzItem`` whose identifier is a string: its id written in the canonically equivalent form
/// its ``FuzzItem/form`` picks.
public struct FuzzString: Diffable, Sendable {
    /// The item it presents.
    public var item: FuzzItem
    /// The identifier, built once.
    public let diffIdentifier: String

    /// The string of `item`'s id in `item.form`'s representation.
    public init(_ item: FuzzItem) {
        self.item = item
        self.diffIdentifier = Self.identifier(item.id, form: item.form)
    }

    /// Compares the contents.
    public func isContentEqual(to other: FuzzString) -> Bool { item.content == other.item.content }

    /// The identifier of `id` in representation `form` (taken modulo 4).
    ///
    /// Every fourth id (`id % 4 == 0`) is non-ASCII, and its four forms are `==` (canonical
    /// equivalence) and hash alike while their UTF-8 bytes differ: 0 precomposed (`é…Å`), 1
    /// decomposed (`e◌́…A◌̊`), 2 with the singleton ANGSTROM SIGN (U+212B) for `Å`, 3 decomposed
    /// `é` with precomposed `Å`. The other ids are ASCII (`s…`), one form each: most comparisons
    /// and hashes then take Swift's ASCII fast path, as most real identifiers do, and a list mixes
    /// both. (All ids non-ASCII made normalization about a fifth of the libFuzzer target's time.)
    /// Ids divisible by 3 get a suffix that takes the string past the 15-byte small-string limit.
    /// Distinct ids give strings that are not equivalent.
    ///
    /// - Complexity: O(digits of `id`).
    public static func identifier(_ id: Int, form: Int) -> String {
        let suffix = id % 3 == 0 ? "-identifier-longer-than-small" : ""
        guard id % 4 == 0 else { return "s" + String(id) + suffix }
        let e: String
        let a: String
        switch form & 3 {
        case 0: (e, a) = ("\u{E9}", "\u{C5}")
        case 1: (e, a) = ("e\u{301}", "A\u{30A}")
        case 2: (e, a) = ("\u{E9}", "\u{212B}")
        default: (e, a) = ("e\u{301}", "\u{C5}")
        }
        return e + String(id) + a + suffix
    }
}

/// A ``FuzzItem`` as a class instance, for ``ComparisonOption/identity`` (pointer personality).
///
/// ``instances(_:_:identity:)`` gives items with equal id, content and ``FuzzItem/form`` one
/// shared instance across both lists, as an app that keeps unchanged model objects would.
public final class FuzzObject: Diffable, Sendable {
    /// The item it presents (never mutated).
    public let item: FuzzItem
    /// What ``isContentEqual(to:)`` compares: the item's content, or under identity the content
    /// before the form was folded into it, so that only identity tells a new instance apart.
    public let content: Int

    /// `item`, its content compared as `content`.
    public init(_ item: FuzzItem, content: Int) {
        self.item = item
        self.content = content
    }

    /// The item's id.
    public var diffIdentifier: Int { item.id }
    /// Compares ``content``.
    public func isContentEqual(to other: FuzzObject) -> Bool { content == other.content }

    /// `old` and `new` as instances, one per distinct (id, content, form).
    ///
    /// - Parameters:
    ///   - old: the old list's items.
    ///   - new: the new list's items.
    ///   - identity: the items come from an ``FuzzElementKind/objectIdentity`` case, whose
    ///     contents hold the form in their lowest bit (`2·content + form`): the instances then
    ///     compare the content without it, so an engine that ignores identity misses the update.
    /// - Complexity: O(n + m) expected.
    public static func instances(
        _ old: [FuzzItem], _ new: [FuzzItem], identity: Bool = false
    )
        -> (old: [FuzzObject], new: [FuzzObject])
    {
        var shared: [Key: FuzzObject] = [:]
        func object(_ item: FuzzItem) -> FuzzObject {
            let key = Key(id: item.id, content: item.content, form: item.form)
            if let found = shared[key] { return found }
            let made = FuzzObject(item, content: identity ? item.content >> 1 : item.content)
            shared[key] = made
            return made
        }
        let o = old.map(object)
        return (o, new.map(object))
    }

    private struct Key: Hashable {
        var id: Int
        var content: Int
        var form: Int
    }
}

// MARK: Running an engine under a kind

extension FuzzElementKind {
    /// `engine`'s pairing of `old` and `new` presented as this kind.
    ///
    /// - Complexity: the engine's, plus O(n + m) to present the lists.
    @inlinable
    public func matching<Engine: DiffEngine>(_ engine: Engine, _ old: [FuzzItem], _ new: [FuzzItem]) -> Matching {
        switch self {
        case .integers:
            return engine.matching(from: old, to: new, comparison: .equality)
        case .collidingHashes:
            return engine.matching(from: old.map(CollidingItem.init), to: new.map(CollidingItem.init), comparison: .equality)
        case .strings:
            return engine.matching(from: old.map(FuzzString.init), to: new.map(FuzzString.init), comparison: .equality)
        case .objects, .objectIdentity:
            let (o, n) = FuzzObject.instances(old, new, identity: self == .objectIdentity)
            return engine.matching(from: o, to: n, comparison: comparison)
        }
    }

    /// `engine`'s answer for `old` and `new` presented as this kind, its stages' data mapped back
    /// to the items.
    ///
    /// - Complexity: the engine's, plus O(n + m) per list presented or mapped back.
    @inlinable
    public func changes<Engine: ChangesetEngine>(
        _ engine: Engine, _ old: [FuzzItem], _ new: [FuzzItem]
    )
        throws(EngineFailure) -> EngineChanges<FuzzItem>
    {
        switch self {
        case .integers:
            return try engine.changes(from: old, to: new, comparison: .equality)
        case .collidingHashes:
            return try engine.changes(
                from: old.map(CollidingItem.init), to: new.map(CollidingItem.init), comparison: .equality
            ).mapElements(\.item)
        case .strings:
            return try engine.changes(from: old.map(FuzzString.init), to: new.map(FuzzString.init), comparison: .equality)
                .mapElements(\.item)
        case .objects, .objectIdentity:
            let (o, n) = FuzzObject.instances(old, new, identity: self == .objectIdentity)
            return try engine.changes(from: o, to: n, comparison: comparison).mapElements(\.item)
        }
    }

    /// `engine`'s staged changeset of `old` and `new` presented as this kind, mapped back to the
    /// items.
    ///
    /// - Complexity: as ``StagedChangeset``, plus O(items) to present and map back.
    @inlinable
    public func staged<Engine: DiffEngine>(
        _ engine: Engine, _ old: SectionedList<Int, FuzzItem>, _ new: SectionedList<Int, FuzzItem>
    ) -> StagedChangeset<Int, FuzzItem> {
        switch self {
        case .integers:
            return StagedChangeset(from: old, to: new, engine: engine, comparison: .equality)
        case .collidingHashes:
            return StagedChangeset(
                from: old.mapElements(CollidingItem.init), to: new.mapElements(CollidingItem.init), engine: engine,
                comparison: .equality
            ).mapElements(\.item)
        case .strings:
            return StagedChangeset(
                from: old.mapElements(FuzzString.init), to: new.mapElements(FuzzString.init), engine: engine,
                comparison: .equality
            ).mapElements(\.item)
        case .objects, .objectIdentity:
            let (o, n) = objectSections(old, new)
            return StagedChangeset(from: o, to: n, engine: engine, comparison: comparison).mapElements(\.item)
        }
    }

    /// `engine`'s own staged changeset of the sectioned lists `old` and `new` presented as this
    /// kind, its stages' data mapped back to the items.
    ///
    /// - Throws: the engine's ``EngineFailure``.
    /// - Complexity: the engine's, plus O(items) per model presented or stage mapped back.
    @inlinable
    public func stagedChanges<Engine: SectionedChangesetEngine>(
        _ engine: Engine, _ old: SectionedList<Int, FuzzItem>, _ new: SectionedList<Int, FuzzItem>
    ) throws(EngineFailure) -> StagedChangeset<Int, FuzzItem> {
        switch self {
        case .integers:
            return try engine.stagedChanges(from: old, to: new, comparison: .equality)
        case .collidingHashes:
            return try engine.stagedChanges(
                from: old.mapElements(CollidingItem.init), to: new.mapElements(CollidingItem.init), comparison: .equality
            ).mapElements(\.item)
        case .strings:
            return try engine.stagedChanges(
                from: old.mapElements(FuzzString.init), to: new.mapElements(FuzzString.init), comparison: .equality
            ).mapElements(\.item)
        case .objects, .objectIdentity:
            let (o, n) = objectSections(old, new)
            return try engine.stagedChanges(from: o, to: n, comparison: comparison).mapElements(\.item)
        }
    }

    /// The sectioned lists as class instances (one per distinct item, or per element under
    /// identity comparison: ``FuzzObject/instances(_:_:identity:)``), in the same sections.
    ///
    /// - Complexity: O(items).
    @usableFromInline
    func objectSections(
        _ old: SectionedList<Int, FuzzItem>, _ new: SectionedList<Int, FuzzItem>
    ) -> (SectionedList<Int, FuzzObject>, SectionedList<Int, FuzzObject>) {
        let all = FuzzObject.instances(old.sections.flatMap(\.items), new.sections.flatMap(\.items), identity: self == .objectIdentity)
        var oldObjects = all.old.makeIterator()
        var newObjects = all.new.makeIterator()
        // Each iterator yields exactly one instance per item of its model, in order.
        return (old.mapElements { _ in oldObjects.next()! }, new.mapElements { _ in newObjects.next()! })
    }
}
