import DiffLabBatch
import DiffLabCore

/// The element the fuzzer diffs: an integer identifier, an integer content, and the form it takes
/// under an ``FuzzElementKind``.
///
/// Equality and hashing compare ``id`` and ``content`` only: two items that differ only in
/// ``form`` are the same value written differently (a string in another normalization form,
/// another instance with the same content).
public struct FuzzItem: Diffable, Hashable, Sendable, CustomStringConvertible {
    /// The identifier.
    public var id: Int
    /// The content; a pair with different contents is an update.
    public var content: Int
    /// How the item is represented under the case's ``FuzzElementKind``, in `0..<formCount`: which
    /// canonically equivalent spelling of its string (``FuzzString``), which instance among the
    /// items with its id and content (``FuzzObject``). Not part of equality. Under
    /// ``FuzzElementKind/objectIdentity`` the generator makes ``content`` odd exactly when the form
    /// is 1, so a different instance is a different content: the properties then expect the
    /// update pointer personality reports.
    public var form: Int

    /// An item `id` with `content`, in form `form`.
    public init(_ id: Int, _ content: Int = 0, form: Int = 0) {
        self.id = id
        self.content = content
        self.form = form
    }

    /// ``id``.
    public var diffIdentifier: Int { id }
    /// `id`, `id:content`, and `~form` when the form is not 0.
    public var description: String {
        (content == 0 ? "\(id)" : "\(id):\(content)") + (form == 0 ? "" : "~\(form)")
    }
    /// Compares ``id`` and ``content``.
    public static func == (a: FuzzItem, b: FuzzItem) -> Bool { a.id == b.id && a.content == b.content }
    /// Hashes ``id`` and ``content``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(content)
    }
}

/// How the new list is made from the old one. Earlier profiles are simpler (shrinking prefers them).
public enum MutationProfile: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// A few edits of every kind.
    case mixed
    /// Inserts, deletes and content updates only.
    case edits
    /// Single and block moves, swaps, reversals and shuffles of ranges.
    case moves
    /// Inserts and deletes at either end (feeds, chats).
    case ends
    /// The whole list reversed, then a few edits.
    case reverse
    /// Same identifiers, every content changed.
    case allUpdated
    /// A new list drawn independently of the old one.
    case unrelated
    /// Many edits of every kind.
    case heavy

    /// The profile's name.
    public var description: String {
        switch self {
        case .mixed: "mixed"
        case .edits: "edits"
        case .moves: "moves"
        case .ends: "ends"
        case .reverse: "reverse"
        case .allUpdated: "all-updated"
        case .unrelated: "unrelated"
        case .heavy: "heavy"
        }
    }
}

/// One generated input: a pair of lists, the same items cut into sections, and corruptions for
/// the sanitizer.
public struct FuzzCase: Sendable, Hashable {
    /// The old list.
    public var old: [FuzzItem]
    /// The new list.
    public var new: [FuzzItem]
    /// How `new` was made from `old`.
    public var profile: MutationProfile
    /// Whether identifiers were drawn from a small pool (duplicates likely).
    public var duplicates: Bool
    /// `old`, cut into sections with identifiers.
    public var oldSections: SectionedList<Int, FuzzItem>
    /// `new`, cut into sections; section identifiers partly shared with `oldSections`.
    public var newSections: SectionedList<Int, FuzzItem>
    /// Corruptions applied to a batch update before the sanitizer sees it.
    public var corruptions: [Corruption]
    /// The element type the engines are handed the lists as.
    public var elements: FuzzElementKind = .integers

    /// Whether every identifier occurs at most once in each list.
    public var hasUniqueIdentifiers: Bool {
        Set(old.map(\.id)).count == old.count && Set(new.map(\.id)).count == new.count
    }
}

/// A deliberate damage to a batch update, for the sanitizer property.
public enum Corruption: Sendable, Hashable {
    /// Repeat the k-th operation of a list.
    case duplicate(list: Int, index: Int)
    /// Remove the k-th operation of a list.
    case drop(list: Int, index: Int)
    /// Shift the k-th operation of a list by `delta` items.
    case shift(list: Int, index: Int, delta: Int)
    /// Add a reload of an old index.
    case reload(item: Int)
    /// Add a delete of an old index.
    case delete(item: Int)
    /// Add an insert at a new index.
    case insert(item: Int)
    /// Add a section operation (0 insert, 1 delete, 2 reload, 3 move) on section `section`.
    case section(kind: Int, section: Int)
}

extension FuzzCase {
    /// The generator of cases whose lists hold at most `maxSize` items, presented as one of
    /// `elements` (all kinds by default).
    /// With `seeds`, a case's first choice picks a generated case (0) or a seed (see
    /// ``draw(_:maxSize:elements:seeds:)``).
    package static func generator(
        maxSize: Int, elements: [FuzzElementKind] = FuzzElementKind.allCases, seeds: [FuzzSeed] = []
    ) -> Gen<FuzzCase> {
        Gen { source in FuzzCase.draw(&source, maxSize: max(maxSize, 1), elements: elements, seeds: seeds) }
    }

    /// Draws a case: profile, duplicates, lists, sections, corruptions, then the element kind and
    /// each item's form. The kind and forms come last, and 0 is the first kind of `elements` and
    /// form 0, so a choice sequence recorded before kinds existed decodes to the same integer case.
    static func draw(_ source: inout DataSource, maxSize: Int, elements: [FuzzElementKind] = FuzzElementKind.allCases) -> FuzzCase {
        let profile = MutationProfile(rawValue: source.draw(upTo: MutationProfile.allCases.count - 1)) ?? .mixed
        let duplicates = source.draw(upTo: 3) == 1
        // A small pool makes repeats likely; on large lists it grows so runs of one id stay short.
        let pool = duplicates ? 1 + source.draw(upTo: max(4, maxSize / 8)) : 0
        var nextID = 0
        func freshID(_ source: inout DataSource) -> Int {
            if duplicates { return source.draw(upTo: pool - 1) }
            nextID += 1
            return nextID - 1
        }
        func item(_ source: inout DataSource) -> FuzzItem { FuzzItem(freshID(&source), source.draw(upTo: 1)) }
        func list(_ source: inout DataSource) -> [FuzzItem] {
            var items: [FuzzItem] = []
            while items.count < maxSize && source.flag(odds: max(maxSize / 2, 1)) { items.append(item(&source)) }
            return items
        }

        let old = list(&source)
        var new = old
        switch profile {
        case .mixed: mutate(&new, &source, kinds: Mutation.allCases, average: 3, freshItem: item)
        case .edits: mutate(&new, &source, kinds: [.insert, .delete, .update], average: 3, freshItem: item)
        case .moves: mutate(&new, &source, kinds: [.move, .blockMove, .swap, .reverse, .shuffle], average: 3, freshItem: item)
        case .ends: mutate(&new, &source, kinds: [.edge], average: 4, freshItem: item)
        case .reverse:
            new.reverse()
            mutate(&new, &source, kinds: Mutation.allCases, average: 1, freshItem: item)
        case .allUpdated:
            for i in new.indices { new[i].content ^= 1 }
        case .unrelated:
            new = list(&source)
        case .heavy:
            mutate(&new, &source, kinds: Mutation.allCases, average: max(maxSize, 4), freshItem: item)
        }

        return finish(old: old, new: new, profile: profile, duplicates: duplicates, &source, maxSize: maxSize, elements: elements)
    }

    /// Draws a case from `seeds` when there are any: the first choice is 0 for a generated case
    /// (``draw(_:maxSize:elements:)``), or 1 + k for seed k, whose new list then takes the
    /// generator's mutations (none when the next choice is 0: all zeros decode to the seed
    /// itself), then sections, corruptions, element kind and forms as for a generated case.
    static func draw(_ source: inout DataSource, maxSize: Int, elements: [FuzzElementKind], seeds: [FuzzSeed]) -> FuzzCase {
        guard !seeds.isEmpty else { return draw(&source, maxSize: maxSize, elements: elements) }
        let pick = source.draw(upTo: seeds.count)
        guard pick > 0 else { return draw(&source, maxSize: maxSize, elements: elements) }
        let seed = seeds[pick - 1]
        var nextID = (seed.old.map(\.id).max() ?? -1) + 1
        nextID = max(nextID, (seed.new.map(\.id).max() ?? -1) + 1)
        var new = seed.new
        mutate(&new, &source, kinds: Mutation.allCases, average: 3) { source in
            nextID += 1
            return FuzzItem(nextID - 1, source.draw(upTo: 1))
        }
        let unique = Set(seed.old.map(\.id)).count == seed.old.count && Set(new.map(\.id)).count == new.count
        return finish(old: seed.old, new: new, profile: .mixed, duplicates: !unique, &source, maxSize: max(maxSize, 1), elements: elements)
    }

    /// The end of a drawn case, after its lists: sections, corruptions, element kind and forms.
    private static func finish(
        old: [FuzzItem], new: [FuzzItem], profile: MutationProfile, duplicates: Bool, _ source: inout DataSource, maxSize: Int,
        elements: [FuzzElementKind]
    ) -> FuzzCase {
        let oldSections = cut(old, &source, sectionIDs: { s, _ in s })
        let newSections = cut(new, &source, sectionIDs: { _, source in source.draw(upTo: 5) })
        var corruptions: [Corruption] = []
        while corruptions.count < 6 && source.flag(odds: 1) {
            let list = source.draw(upTo: 3)
            switch source.draw(upTo: 6) {
            case 0: corruptions.append(.duplicate(list: list, index: source.draw(upTo: 7)))
            case 1: corruptions.append(.drop(list: list, index: source.draw(upTo: 7)))
            case 2: corruptions.append(.shift(list: list, index: source.draw(upTo: 7), delta: source.draw(upTo: 4) - 2))
            case 3: corruptions.append(.reload(item: source.draw(upTo: maxSize)))
            case 4: corruptions.append(.delete(item: source.draw(upTo: maxSize)))
            case 5: corruptions.append(.insert(item: source.draw(upTo: maxSize)))
            default: corruptions.append(.section(kind: source.draw(upTo: 3), section: source.draw(upTo: 2)))
            }
        }
        var c = FuzzCase(
            old: old, new: new, profile: profile, duplicates: duplicates, oldSections: oldSections,
            newSections: newSections, corruptions: corruptions)
        let kinds = elements.isEmpty ? [FuzzElementKind.integers] : elements
        c.elements = kinds[source.draw(upTo: kinds.count - 1)]
        c.drawForms(&source)
        return c
    }

    /// Draws every item's ``FuzzItem/form`` for the case's element kind (nothing for a kind with
    /// one form) and copies them into the sections, which hold the same items in the same order.
    /// Under ``FuzzElementKind/objectIdentity`` the form is folded into the content (`2·content +
    /// form`), so a different instance is a different content and the properties expect its
    /// update.
    mutating func drawForms(_ source: inout DataSource) {
        let forms = elements.formCount
        guard forms > 1 else { return }
        let identity = elements == .objectIdentity
        func draw(_ items: inout [FuzzItem]) {
            for i in items.indices {
                items[i].form = source.draw(upTo: forms - 1)
                if identity { items[i].content = 2 * items[i].content + items[i].form }
            }
        }
        draw(&old)
        draw(&new)
        oldSections = Self.refill(oldSections, with: old)
        newSections = Self.refill(newSections, with: new)
    }

    /// `sections` with their items replaced, in order, by `items` (as many as they hold).
    static func refill(_ sections: SectionedList<Int, FuzzItem>, with items: [FuzzItem]) -> SectionedList<Int, FuzzItem> {
        var next = items.makeIterator()
        var result = sections
        for s in result.sections.indices {
            for i in result.sections[s].items.indices {
                guard let item = next.next() else { return result }
                result.sections[s].items[i] = item
            }
        }
        return result
    }

    /// Cuts `items` into up to four sections at drawn points.
    static func cut(
        _ items: [FuzzItem], _ source: inout DataSource, sectionIDs: (Int, inout DataSource) -> Int
    ) -> SectionedList<Int, FuzzItem> {
        let count = 1 + source.draw(upTo: 3)
        var sections: [SectionedList<Int, FuzzItem>.Section] = []
        var start = 0
        for s in 0..<count {
            let end = s == count - 1 ? items.count : start + source.draw(upTo: items.count - start)
            sections.append(.init(id: sectionIDs(s, &source), items: Array(items[start..<end])))
            start = end
        }
        return SectionedList(sections)
    }
}

/// One edit the generator applies to a list.
enum Mutation: Int, CaseIterable {
    case insert, delete, update, move, blockMove, swap, reverse, shuffle, edge
}

/// Applies about `average` drawn mutations of the given kinds to `list`.
func mutate(
    _ list: inout [FuzzItem], _ source: inout DataSource, kinds: [Mutation], average: Int,
    freshItem: (inout DataSource) -> FuzzItem
) {
    var applied = 0
    while applied < max(64, list.count) && source.flag(odds: average) {
        applied += 1
        let kind = kinds[source.draw(upTo: kinds.count - 1)]
        let count = list.count
        switch kind {
        case .insert:
            list.insert(freshItem(&source), at: source.draw(upTo: count))
        case .delete where count > 0:
            list.remove(at: source.draw(upTo: count - 1))
        case .update where count > 0:
            list[source.draw(upTo: count - 1)].content ^= 1
        case .move where count > 1:
            let item = list.remove(at: source.draw(upTo: count - 1))
            list.insert(item, at: source.draw(upTo: count - 1))
        case .blockMove where count > 1:
            let start = source.draw(upTo: count - 1)
            let length = 1 + source.draw(upTo: count - start - 1)
            let block = Array(list[start..<start + length])
            list.removeSubrange(start..<start + length)
            list.insert(contentsOf: block, at: source.draw(upTo: list.count))
        case .swap where count > 1:
            list.swapAt(source.draw(upTo: count - 1), source.draw(upTo: count - 1))
        case .reverse where count > 1:
            let start = source.draw(upTo: count - 1)
            let length = 1 + source.draw(upTo: count - start - 1)
            list[start..<start + length].reverse()
        case .shuffle where count > 1:
            let start = source.draw(upTo: count - 1)
            let length = 1 + source.draw(upTo: count - start - 1)
            for i in stride(from: start + length - 1, to: start, by: -1) {
                list.swapAt(i, start + source.draw(upTo: i - start))
            }
        case .edge:
            let atEnd = source.flag()
            if source.flag() || count == 0 {
                list.insert(freshItem(&source), at: atEnd ? count : 0)
            } else {
                list.remove(at: atEnd ? count - 1 : 0)
            }
        default:
            break
        }
    }
}
