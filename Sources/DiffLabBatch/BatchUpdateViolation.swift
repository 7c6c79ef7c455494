import DiffLabCore

/// One kind of operation in a batch update.
public enum BatchOperation: String, Sendable, Hashable {
    /// An item or section insertion.
    case insert
    /// An item or section deletion.
    case delete
    /// An item or section reload (an update).
    case reload
    /// The source of a move.
    case moveFrom = "move from"
    /// The destination of a move.
    case moveTo = "move to"
}

/// One way a ``BatchUpdate`` breaks UIKit's rules, with UIKit's own message text.
///
/// ``message`` reproduces the reason UIKit raises (`NSInternalInconsistencyException`) for the rule,
/// character for character (two spaces after "sections." included), with one change: an index path
/// prints as `<NSIndexPath> {length = 2, path = S - I}`, without the object address UIKit adds.
/// Texts come from UIKit crash logs in public issue threads and from the OpenUXKit reconstruction of
/// UXKit's `-[UXCollectionView _endItemAnimations]` (Apple's macOS port of UICollectionView, whose
/// strings match UIKit's wherever both are known). For the few rules UIKit enforces without a
/// message of its own (it drops the operation silently or crashes later), the text is DiffLab's and
/// the case's documentation says so. `Corpus/uikit-messages.md` lists every text with its sources.
public enum BatchUpdateViolation: Error, Hashable, Sendable, CustomStringConvertible {
    // MARK: Sections

    /// Sections after ≠ sections before + inserted − deleted. (UIKit log: MessageKit #1008.)
    case sectionCountMismatch(before: Int, after: Int, inserted: Int, deleted: Int)
    /// A section insert, delete or reload addresses a section that does not exist in its state.
    /// A reload is checked as the delete it becomes. (UIKit logs: Bond #282, friendlypix-ios #43.)
    case sectionOutOfBounds(BatchOperation, section: Int, sectionCount: Int)
    /// A section move's source or destination does not exist. (UXKit.)
    case sectionMoveOutOfBounds(SectionMove, BatchOperation, sectionCount: Int)
    /// One section inserted, deleted or reloaded twice. UIKit has no message; DiffLab's text.
    case duplicateSection(BatchOperation, section: Int)
    /// Two section moves share a source or a destination. (UXKit: "to both" / "move both".)
    case conflictingSectionMoves(SectionMove, SectionMove, BatchOperation)
    /// A section is both deleted and reloaded. UIKit reports it through the reload's delete; the
    /// text is Texture's (`_ASHierarchyChangeSet`), as no UIKit log was found.
    case deleteAndReloadSection(section: Int)
    /// A section move starts at a section that is deleted or reloaded (a reload is a delete plus an
    /// insert). (UXKit.)
    case sectionMoveFromRemovedSection(SectionMove)
    /// A section move ends at an index that is inserted. (UXKit; PSTCollectionView.)
    case sectionMoveToInsertedSection(SectionMove)

    // MARK: Items

    /// A surviving section's item count after the update does not add up. `section` is the index
    /// after the update. (UIKit logs: DragDropCollectionViewDemo #2, KDRearrangeable… #1.)
    case itemCountMismatch(
        section: Int, before: Int, after: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)
    /// An item insert, delete or reload addresses a section that does not exist in its state.
    /// A reload is checked as the delete it becomes. (UXKit; UITableView logs.)
    case itemSectionOutOfBounds(BatchOperation, ItemIndexPath, sectionCount: Int)
    /// An item insert, delete or reload addresses an item beyond its section's count.
    /// (UIKit logs: voxeet-uxkit-reactnative #61, ChatSecure-iOS #347.)
    case itemOutOfBounds(BatchOperation, ItemIndexPath, itemCount: Int)
    /// An item move's source (`.moveFrom`) or destination (`.moveTo`) section does not exist. (UXKit.)
    case itemMoveSectionOutOfBounds(IndexPathMove, BatchOperation, sectionCount: Int)
    /// An item move's source or destination item does not exist. (UXKit; RxDataSources #35, Bond #593.)
    case itemMoveOutOfBounds(IndexPathMove, BatchOperation, itemCount: Int)
    /// One index path inserted, deleted or reloaded twice. UIKit has no message — a repeated delete
    /// is accepted and crashes later (radar 31786176) — so the text is DiffLab's.
    case duplicateItem(BatchOperation, ItemIndexPath)
    /// Two item moves share a source or a destination (UXKit), or repeat each other exactly (UXKit
    /// drops an exact repeat silently; DiffLab flags it, in the same words).
    case conflictingItemMoves(IndexPathMove, IndexPathMove, BatchOperation)
    /// An index path is both deleted and reloaded. (UIKit logs: XLData #15, TLPhotoPicker #144.)
    case deleteAndReloadItem(ItemIndexPath)
    /// An index path is both deleted and the source of a move. (UIKit log: Texture #507.)
    case deleteAndMoveItem(ItemIndexPath)
    /// An index path is both reloaded and the source of a move. UICollectionView reports it as a
    /// delete and a reload of one index path (Stack Overflow 38625897; radar 33662307).
    case reloadAndMoveItem(ItemIndexPath)
    /// An index path is both inserted and the destination of a move. (UIKit log: RxDataSources #321.)
    case insertAndMoveItem(ItemIndexPath)

    // MARK: Sections and items together

    /// An item moves out of a section that is deleted or reloaded. (UXKit; TLIndexPathTools #20.)
    case itemMoveOutOfRemovedSection(IndexPathMove)
    /// An item moves into a section that is inserted, or into a reloaded section's new position.
    /// (UXKit; TLIndexPathTools #13.)
    case itemMoveIntoInsertedSection(IndexPathMove)
    /// An item is inserted, deleted or reloaded inside a section that is itself inserted, deleted
    /// or reloaded. UIKit drops such an operation silently, so the data on screen then depends on
    /// undocumented behaviour; DiffLab flags it, in its own words.
    case itemOperationInChangedSection(BatchOperation, ItemIndexPath, section: BatchOperation)
    /// A moved section also has item changes inside it. UIKit then fails with a count message
    /// whose numbers do not match the update (radar 27041784; ChatLayout #1); DiffLab's text.
    case sectionMoveWithItemChanges(SectionMove, BatchOperation, ItemIndexPath)

    /// UIKit's message for this violation (or DiffLab's, where UIKit has none; see each case).
    public var message: String {
        switch self {
        case let .sectionCountMismatch(before, after, inserted, deleted):
            return
                "Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (\(after)) must be equal to the number of sections contained in the collection view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case let .sectionOutOfBounds(operation, section, count):
            if operation == .insert {
                return "attempt to insert section \(section) but there are only \(count) sections after the update"
            }
            return "attempt to delete section \(section), but there are only \(count) sections before the update"
        case let .sectionMoveOutOfBounds(move, operation, count):
            if operation == .moveFrom {
                return "attempt to move section \(move.from), but there are only \(count) sections before the update"
            }
            return "attempt to to move section \(move.from) to section \(move.to), but there are only \(count) sections after the update"
        case let .duplicateSection(operation, section):
            return "attempt to \(operation.rawValue) section \(section) twice in one update"
        case let .conflictingSectionMoves(a, b, operation):
            if operation == .moveFrom {
                return "attempt to move section \(a.from) to both section \(a.to) and section \(b.to)"
            }
            return "attempt to move both section \(a.from) and section \(b.from) to section \(a.to)"
        case let .deleteAndReloadSection(section):
            return "Request to reload and delete same section \(section)"
        case let .sectionMoveFromRemovedSection(move):
            return "attempt to perform a delete and a move from the same section (\(move.from))"
        case let .sectionMoveToInsertedSection(move):
            return "attempt to perform an insert and a move to the same section (\(move.to))"
        case let .itemCountMismatch(section, before, after, inserted, deleted, movedIn, movedOut):
            return
                "Invalid update: invalid number of items in section \(section).  The number of items contained in an existing section after the update (\(after)) must be equal to the number of items contained in that section before the update (\(before)), plus or minus the number of items inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of items moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
        case let .itemSectionOutOfBounds(operation, path, count):
            if operation == .insert {
                return "attempt to insert item \(path.item) into section \(path.section), but there are only \(count) sections after the update"
            }
            return "attempt to delete item \(path.item) from section \(path.section), but there are only \(count) sections before the update"
        case let .itemOutOfBounds(operation, path, count):
            if operation == .insert {
                return
                    "attempt to insert item \(path.item) into section \(path.section), but there are only \(count) items in section \(path.section) after the update"
            }
            return "attempt to delete item \(path.item) from section \(path.section) which only contains \(count) items before the update"
        case let .itemMoveSectionOutOfBounds(move, operation, count):
            if operation == .moveFrom {
                return
                    "attempt to move index path (\(nsIndexPath(move.from))) from a section that does not exist - there are only \(count) sections before the update"
            }
            return
                "attempt to move index path (\(nsIndexPath(move.from))) to index path (\(nsIndexPath(move.to))) in section that does not exist - there are only \(count) sections after the update"
        case let .itemMoveOutOfBounds(move, operation, count):
            if operation == .moveFrom {
                return
                    "attempt to move index path (\(nsIndexPath(move.from))) that does not exist - there are only \(count) items in section \(move.from.section) before the update"
            }
            return
                "attempt to move index path (\(nsIndexPath(move.from))) to index path (\(nsIndexPath(move.to))) that does not exist - there are only \(count) items in section \(move.to.section) after the update"
        case let .duplicateItem(operation, path):
            return "attempt to \(operation.rawValue) the same index path twice (\(nsIndexPath(path)))"
        case let .conflictingItemMoves(a, b, operation):
            if operation == .moveFrom {
                return "attempt to move item at index path \(nsIndexPath(a.from)) to both \(nsIndexPath(a.to)) and \(nsIndexPath(b.to))"
            }
            return "attempt to move both item at index path \(nsIndexPath(a.from)) and \(nsIndexPath(b.from)) to \(nsIndexPath(a.to))"
        case let .deleteAndReloadItem(path), let .reloadAndMoveItem(path):
            return "attempt to delete and reload the same index path (\(nsIndexPath(path)))"
        case let .deleteAndMoveItem(path):
            return "attempt to perform a delete and a move from the same index path (\(nsIndexPath(path)))"
        case let .insertAndMoveItem(path):
            return "attempt to perform an insert and a move to the same index path (\(nsIndexPath(path)))"
        case let .itemMoveOutOfRemovedSection(move):
            return "cannot move an item from a deleted section (\(move.from.section))"
        case let .itemMoveIntoInsertedSection(move):
            return "cannot move an item into a newly inserted section (\(move.to.section))"
        case let .itemOperationInChangedSection(operation, path, sectionOperation):
            let done = ["insert": "inserted", "delete": "deleted", "reload": "reloaded"][sectionOperation.rawValue] ?? ""
            return
                "attempt to \(operation.rawValue) index path (\(nsIndexPath(path))) inside section \(path.section), which is being \(done) (UIKit would ignore it silently)"
        case let .sectionMoveWithItemChanges(move, operation, path):
            return
                "attempt to move section \(move.from) to section \(move.to) while also performing an item \(operation.rawValue) at index path (\(nsIndexPath(path))) inside it"
        }
    }

    /// ``message``.
    public var description: String { message }

    /// A short stable name of the rule, for reports and tests.
    public var rule: String {
        switch self {
        case .sectionCountMismatch: "section-count"
        case .sectionOutOfBounds: "section-bounds"
        case .sectionMoveOutOfBounds: "section-move-bounds"
        case .duplicateSection: "duplicate-section"
        case .conflictingSectionMoves: "conflicting-section-moves"
        case .deleteAndReloadSection: "delete-reload-section"
        case .sectionMoveFromRemovedSection: "section-move-from-removed"
        case .sectionMoveToInsertedSection: "section-move-to-inserted"
        case .itemCountMismatch: "item-count"
        case .itemSectionOutOfBounds: "item-section-bounds"
        case .itemOutOfBounds: "item-bounds"
        case .itemMoveSectionOutOfBounds: "item-move-section-bounds"
        case .itemMoveOutOfBounds: "item-move-bounds"
        case .duplicateItem: "duplicate-item"
        case .conflictingItemMoves: "conflicting-item-moves"
        case .deleteAndReloadItem: "delete-reload-item"
        case .deleteAndMoveItem: "delete-move-item"
        case .reloadAndMoveItem: "reload-move-item"
        case .insertAndMoveItem: "insert-move-item"
        case .itemMoveOutOfRemovedSection: "item-move-out-of-removed-section"
        case .itemMoveIntoInsertedSection: "item-move-into-inserted-section"
        case .itemOperationInChangedSection: "item-in-changed-section"
        case .sectionMoveWithItemChanges: "section-move-with-item-changes"
        }
    }
}

/// UIKit's description of an index path, without the object address.
func nsIndexPath(_ path: ItemIndexPath) -> String {
    "<NSIndexPath> {length = 2, path = \(path.section) - \(path.item)}"
}
