import DiffLabBatch
import DiffLabCore

/// One item of an app's list in an updater run: an identifier and a content revision.
///
/// Two items with the same ``id`` are versions of one item; a different ``content`` means it
/// changed and must be reloaded. Small and `Hashable`, so a run's versions compare exactly.
public struct UpdaterItem: Diffable, Hashable, Sendable, CustomStringConvertible {
    /// The item's identity.
    public var id: Int
    /// The item's content revision: 0 when first made, +1 each time it changes.
    public var content: Int

    /// An item `id` at content revision `content`.
    public init(id: Int, content: Int = 0) {
        self.id = id
        self.content = content
    }

    /// ``id``.
    public var diffIdentifier: Int { id }

    /// Equal contents.
    public func isContentEqual(to other: UpdaterItem) -> Bool { content == other.content }

    /// `7`, or `7′2` for item 7 at content revision 2.
    public var description: String { content == 0 ? "\(id)" : "\(id)′\(content)" }
}

/// An app's data as a collection view shows it: sections (identified by `Int`) of ``UpdaterItem``s.
public typealias UpdaterData = SectionedList<Int, UpdaterItem>

/// One version of the app's data: its number (0 is the data on screen when the run starts, each
/// request asks for the next number) and the data.
///
/// An updater hands versions to the data source (``CollectionViewModel/setData(_:)``). When it
/// shows intermediate data on the way to a version (a staged changeset's stages), it gives that
/// data the version's number: the number says which request the data belongs to.
public struct ListVersion: Hashable, Sendable, CustomStringConvertible {
    /// The version's number: 0 for the initial data, then 1, 2, … in the order the app asked.
    public var number: Int
    /// The data.
    public var data: UpdaterData

    /// Version `number` holding `data`.
    public init(number: Int, data: UpdaterData) {
        self.number = number
        self.data = data
    }

    /// `v3`.
    public var description: String { "v\(number)" }

    /// The items of every section, in order.
    ///
    /// - Complexity: O(items).
    public var allItems: [UpdaterItem] { data.sections.flatMap(\.items) }

    /// The number of items in all sections.
    ///
    /// - Complexity: O(sections).
    public var itemCount: Int { data.sections.reduce(0) { $0 + $1.items.count } }
}

extension ListVersion {
    /// The one-section batch update that turns `self` into `new`, diffed by `engine`; `nil` when
    /// either version has other than one section or their sections differ in identity (an
    /// updater then stages the change, ``StagedChangeset``, or reloads).
    ///
    /// Updates become reloads; moves follow `moves` (IGListKit's rule by default).
    ///
    /// - Complexity: the engine's cost on the two sections' items, plus O(changes).
    public func batchUpdate(
        to new: ListVersion, engine: some DiffEngine, moves: MoveStrategy = .offsets
    ) -> BatchUpdate? {
        guard data.sections.count == 1, new.data.sections.count == 1, data.sections[0].id == new.data.sections[0].id else { return nil }
        let result = engine.diff(from: data.sections[0].items, to: new.data.sections[0].items, moves: moves)
        return BatchUpdate(result.forBatchUpdates())
    }

    /// The staged changeset that turns `self` into `new` (any sections), paired by `engine`.
    ///
    /// - Complexity: as ``StagedChangeset/init(from:to:engine:comparison:)``.
    public func stagedChangeset(to new: ListVersion, engine: some DiffEngine) -> StagedChangeset<Int, UpdaterItem> {
        StagedChangeset(from: data, to: new.data, engine: engine)
    }
}

extension BatchUpdate {
    /// The operations of the update: section and item inserts, deletes, reloads and moves (what
    /// timelines print, and what IGListKit's and DifferenceKit's reload fallbacks count).
    ///
    /// - Complexity: O(1).
    package var operationCount: Int {
        insertItems.count + deleteItems.count + reloadItems.count + moveItems.count + insertSections.count + deleteSections.count
            + reloadSections.count + moveSections.count
    }
}
