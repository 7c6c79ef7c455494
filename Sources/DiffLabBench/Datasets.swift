import DiffLabCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a benchmark's new list is made from its old one. `Corpus/datasets/README.md` documents each.
public enum DatasetProfile: String, CaseIterable, Sendable, Hashable {
    /// DifferenceKit's published benchmark: N fresh ids; delete [0.2N, 0.3N); insert 0.1N new ids
    /// at 0.3N; shuffle [0, 0.02N).
    case differencekit
    /// About 1% mixed changes: inserts, deletes, moves and content updates at random positions.
    case smallEdit = "small-edit"
    /// N/20 new items prepended, the tail trimmed back to N (a feed refresh).
    case feedRefresh = "feed-refresh"
    /// N/50 new items appended, the last few updated (a chat).
    case chatAppend = "chat-append"
    /// N/10 random single moves.
    case reorderHeavy = "reorder-heavy"
    /// The list reversed.
    case reverse
    /// Same ids, every content changed.
    case allUpdated = "all-updated"
    /// Ids drawn from 16 distinct values on both sides.
    case duplicates
    /// Two unrelated lists of fresh ids.
    case random
    /// The same list: nothing changed (an app's most common update).
    case unchanged
    /// One fresh item appended.
    case appendOne = "append-one"
    /// The middle item's content changed.
    case updateOne = "update-one"
}

/// An old and a new list of abstract items: an identifier number and a content revision.
public struct AbstractDataset: Sendable {
    /// Old list: (id, revision) pairs.
    public var old: [(id: Int, revision: Int)]
    /// New list.
    public var new: [(id: Int, revision: Int)]

    /// The largest list size DiffLab generates: 10,000,000 items. A dataset of that size takes
    /// about 320 MB (plus as much again as ``IntElement``s, several times that as
    /// ``ModelElement``s); `difflab bench` and `difflab policy` accept sizes from 1 to this.
    public static let maxSize = 10_000_000

    /// A dataset of the given lists (a recorded trace's pair, say).
    ///
    /// - Complexity: O(1).
    public init(old: [(id: Int, revision: Int)], new: [(id: Int, revision: Int)]) {
        self.old = old
        self.new = new
    }

    /// Generates `profile` at `size` from `seed`; the same arguments give the same lists.
    ///
    /// - Precondition: `0 ≤ size ≤` ``maxSize``.
    /// - Complexity: O(size) (O(size · changes) for none: every profile is linear).
    public init(_ profile: DatasetProfile, size n: Int, seed: UInt64) {
        precondition(n >= 0 && n <= Self.maxSize, "AbstractDataset: size must be from 0 to \(Self.maxSize) (got \(n))")
        var rng = SplitMix64(seed: seed ^ UInt64(n) ^ (UInt64(profile.hashValueStable) << 32))
        var nextID = n
        func fresh() -> Int {
            nextID += 1
            return nextID - 1
        }
        func random(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(rng.next(upTo: UInt64(bound - 1))) }
        var old = (0..<n).map { (id: $0, revision: 0) }
        var new = old
        switch profile {
        case .differencekit:
            new.removeSubrange(min(n * 2 / 10, n)..<min(n * 3 / 10, n))
            let at = min(n * 3 / 10, new.count)
            new.insert(contentsOf: (0..<(n / 10)).map { _ in (id: fresh(), revision: 0) }, at: at)
            let shuffled = min(n * 2 / 100, new.count)
            if shuffled > 1 {
                for i in stride(from: shuffled - 1, to: 0, by: -1) { new.swapAt(i, random(i + 1)) }
            }
        case .smallEdit:
            new = scatterEdits(
                new, edits: max(n / 100, 1), moveOnly: false, &rng, fresh: { (id: fresh(), revision: 0) }, update: { $0.revision += 1 })
        case .feedRefresh:
            new.insert(contentsOf: (0..<max(n / 20, 1)).map { _ in (id: fresh(), revision: 0) }, at: 0)
            new.removeLast(new.count - n)
        case .chatAppend:
            new.append(contentsOf: (0..<max(n / 50, 1)).map { _ in (id: fresh(), revision: 0) })
            for i in new.indices.suffix(min(3, new.count)) { new[i].revision += 1 }
        case .reorderHeavy:
            new = scatterEdits(new, edits: max(n / 10, 1), moveOnly: true, &rng, fresh: { (id: fresh(), revision: 0) }, update: { _ in })
        case .reverse:
            new.reverse()
        case .allUpdated:
            for i in new.indices { new[i].revision += 1 }
        case .duplicates:
            old = (0..<n).map { _ in (id: random(16), revision: 0) }
            new = (0..<n).map { _ in (id: random(16), revision: random(2)) }
        case .random:
            old = (0..<n).map { _ in (id: random(Int.max / 2), revision: 0) }
            new = (0..<n).map { _ in (id: random(Int.max / 2), revision: 0) }
        case .unchanged:
            break
        case .appendOne:
            new.append((id: fresh(), revision: 0))
        case .updateOne:
            if !new.isEmpty { new[new.count / 2].revision += 1 }
        }
        self.old = old
        self.new = new
    }
}

extension DatasetProfile {
    /// A hash of the name that does not depend on the process's hash seed.
    var hashValueStable: UInt32 { rawValue.utf8.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 } }
}

/// The element types benchmarks run on.
public enum ElementKind: String, CaseIterable, Sendable, Hashable {
    /// ``IntElement``: integer id and revision (16 bytes, no references).
    case int
    /// ``ModelElement``: UUID id and a realistic payload, compared by content.
    case model
    /// ``ObjectElement``: class instances with String ids, compared by identity.
    case object
}

/// An integer id with a content revision.
public struct IntElement: Diffable, Hashable, Sendable {
    /// The identifier.
    public var id: Int
    /// The content.
    public var revision: Int
    /// ``id``.
    public var diffIdentifier: Int { id }
}

/// A model struct as an app would diff: a UUID identifier and a content payload.
public struct ModelElement: Diffable, Hashable, Sendable {
    /// The identifier.
    public var id: UUID
    /// Payload compared for updates.
    public var title: String
    /// Payload compared for updates.
    public var subtitle: String
    /// Payload compared for updates.
    public var likes: Int
    /// Payload compared for updates: the datasets bump it to make an update.
    public var revision: Int
    /// ``id``.
    public var diffIdentifier: UUID { id }
}

/// A class instance compared by identity (IGListKit's pointer personality): unchanged items are
/// the same instance in both lists, updated items a new instance.
public final class ObjectElement: Diffable, @unchecked Sendable {
    /// The identifier.
    public let id: String
    /// Payload.
    public let revision: Int
    init(id: String, revision: Int) {
        self.id = id
        self.revision = revision
    }
    /// ``id``.
    public var diffIdentifier: String { id }
    /// Content equality (unused under identity comparison, kept meaningful).
    public func isContentEqual(to other: ObjectElement) -> Bool { revision == other.revision }
}

extension AbstractDataset {
    /// The lists as ``IntElement``s.
    public func ints() -> (old: [IntElement], new: [IntElement]) {
        (old.map { IntElement(id: $0.id, revision: $0.revision) }, new.map { IntElement(id: $0.id, revision: $0.revision) })
    }

    /// The lists as ``ModelElement``s (UUIDs derived from the ids, so equal ids give equal UUIDs).
    public func models() -> (old: [ModelElement], new: [ModelElement]) {
        func model(_ item: (id: Int, revision: Int)) -> ModelElement {
            var rng = SplitMix64(seed: UInt64(bitPattern: Int64(item.id)))
            let a = rng.next()
            let b = rng.next()
            let uuid = UUID(uuid: withUnsafeBytes(of: (a, b)) { $0.load(as: uuid_t.self) })
            return ModelElement(
                id: uuid, title: "Post \(item.id % 1000)", subtitle: "by user \(item.id % 97)", likes: item.id % 500,
                revision: item.revision)
        }
        return (old.map(model), new.map(model))
    }

    /// The lists as ``ObjectElement``s: an item with the same id and revision is the same instance.
    public func objects() -> (old: [ObjectElement], new: [ObjectElement]) {
        var instances: [Int: ObjectElement] = [:]
        instances.reserveCapacity(old.count)
        let oldObjects = old.map { item -> ObjectElement in
            let object = ObjectElement(id: "post-\(item.id)", revision: item.revision)
            if item.revision == 0 { instances[item.id] = object }
            return object
        }
        let newObjects = new.map { item -> ObjectElement in
            if item.revision == 0, let same = instances[item.id] { return same }
            return ObjectElement(id: "post-\(item.id)", revision: item.revision)
        }
        return (oldObjects, newObjects)
    }
}

/// Applies `edits` random edits to `list` in one pass — inserts, deletes, moves and updates in equal
/// shares, or moves only — as if made one at a time at random positions.
///
/// - Complexity: O(n + k log k) for k edits (editing in place one at a time would be O(n · k)).
func scatterEdits<T>(
    _ list: [T], edits: Int, moveOnly: Bool, _ rng: inout SplitMix64, fresh: () -> T, update: (inout T) -> Void
) -> [T] {
    guard !list.isEmpty else { return list }
    var actions = [_EditAction](repeating: .keep, count: list.count)
    var updated = [Bool](repeating: false, count: list.count)
    var inserts = 0
    for _ in 0..<edits {
        let i = Int(rng.next(upTo: UInt64(list.count - 1)))
        switch moveOnly ? 2 : rng.next(upTo: 3) {
        case 0: inserts += 1
        case 1: actions[i] = .delete
        case 2: actions[i] = .move
        default: updated[i] = true
        }
    }
    var survivors: [T] = []
    var extras: [T] = []
    survivors.reserveCapacity(list.count)
    for i in list.indices {
        var item = list[i]
        if updated[i] { update(&item) }
        switch actions[i] {
        case .keep: survivors.append(item)
        case .delete: break
        case .move: extras.append(item)
        }
    }
    for _ in 0..<inserts { extras.append(fresh()) }
    // Each extra goes to a random slot among the survivors.
    var slots = extras.indices.map { ($0, Int(rng.next(upTo: UInt64(survivors.count)))) }
    slots.sort { $0.1 < $1.1 }
    var result: [T] = []
    result.reserveCapacity(survivors.count + extras.count)
    var next = 0
    for (i, item) in survivors.enumerated() {
        while next < slots.count && slots[next].1 == i {
            result.append(extras[slots[next].0])
            next += 1
        }
        result.append(item)
    }
    while next < slots.count {
        result.append(extras[slots[next].0])
        next += 1
    }
    return result
}

/// What ``scatterEdits(_:edits:moveOnly:_:fresh:update:)`` does to one element.
enum _EditAction { case keep, delete, move }
