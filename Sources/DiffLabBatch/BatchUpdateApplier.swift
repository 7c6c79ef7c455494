import DiffLabCore

/// Where applying a batch update gave something other than the expected new model.
public enum ApplicationMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The update's counts before or after disagree with the model's own (the data source's).
    case countsDisagree(state: String, update: [Int], model: [Int])
    /// Section `section` of the outcome has another identifier than the new model's.
    case wrongSection(section: Int, found: String, expected: String)
    /// The item at `path` has another identifier than the new model's.
    case wrongItem(ItemIndexPath, found: String, expected: String)
    /// The item at `path` is the right item, but shows old content: it changed and was not reloaded.
    case staleContent(ItemIndexPath)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case let .countsDisagree(state, update, model):
            "the update's item counts \(state) the update (\(update)) are not the model's (\(model))"
        case let .wrongSection(section, found, expected):
            "section \(section) is \(found), expected \(expected)"
        case let .wrongItem(path, found, expected):
            "item \(path) is \(found), expected \(expected)"
        case let .staleContent(path):
            "item \(path) shows stale content: it changed but was not reloaded"
        }
    }
}

/// The outcome of applying a batch update: the model UIKit would show, and how it differs from the
/// expected new model (empty when it matches, identity and content).
public struct BatchApplication<SectionID: Hashable, Element: Diffable> {
    /// The model after the update, as UIKit builds it from the old model and the data source.
    public var outcome: SectionedList<SectionID, Element>
    /// Every difference from the expected new model; empty when the update is right.
    public var mismatches: [ApplicationMismatch]
}

extension BatchUpdate {
    /// Applies this update to `old` the way UIKit does, fetching fresh cells from `new` (the data
    /// source after the update), and reports where the outcome differs from `new`.
    ///
    /// UIKit's model, for sections and for the items of every section that survives:
    /// deletes and move sources leave; inserts and move destinations take their positions in the
    /// new state; the rest keep their order and fill the free positions. Inserted and reloaded
    /// sections, inserted items and reloaded items are taken fresh from `new`; every other item
    /// keeps its old value, so an item that changed but was not reloaded shows stale content.
    ///
    /// - Throws: ``InvalidBatchUpdate`` when UIKit would reject the update (it would crash).
    /// - Complexity: O(S + n + k log k) for S sections, n items and k operations.
    public func apply<SectionID: Hashable, Element: Diffable>(
        to old: SectionedList<SectionID, Element>, expecting new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption = .equality
    ) throws(InvalidBatchUpdate) -> BatchApplication<SectionID, Element> {
        try validate()
        var mismatches: [ApplicationMismatch] = []
        if old.itemCounts != itemCountsBefore {
            mismatches.append(.countsDisagree(state: "before", update: itemCountsBefore, model: old.itemCounts))
        }
        if new.itemCounts != itemCountsAfter {
            mismatches.append(.countsDisagree(state: "after", update: itemCountsAfter, model: new.itemCounts))
        }
        guard mismatches.isEmpty else { return BatchApplication(outcome: old, mismatches: mismatches) }

        let sectionsBefore = itemCountsBefore.count
        let sectionsAfter = itemCountsAfter.count
        // Section placement.
        var sourceSection = [Int](repeating: -1, count: sectionsAfter)  // -1: inserted
        let survivors = _survivorPositions(
            oldCount: sectionsBefore, newCount: sectionsAfter,
            removed: _flags(deleteSections + moveSections.map { $0.from }, count: sectionsBefore),
            taken: _flags(insertSections + moveSections.map { $0.to }, count: sectionsAfter))
        for (s, t) in survivors.enumerated() where t >= 0 { sourceSection[t] = s }
        for move in moveSections { sourceSection[move.to] = move.from }
        let reloadedSections = Set(reloadSections)

        // Item operations grouped by section.
        var deletedBySection: [Int: Set<Int>] = [:]
        for path in deleteItems { deletedBySection[path.section, default: []].insert(path.item) }
        var movedAwayBySection: [Int: Set<Int>] = [:]
        for move in moveItems { movedAwayBySection[move.from.section, default: []].insert(move.from.item) }
        var insertedBySection: [Int: [Int]] = [:]
        for path in insertItems { insertedBySection[path.section, default: []].append(path.item) }
        var movedInBySection: [Int: [IndexPathMove]] = [:]
        for move in moveItems { movedInBySection[move.to.section, default: []].append(move) }
        let reloadedItems = Set(reloadItems)

        var outcome = SectionedList<SectionID, Element>([])
        for t in 0..<sectionsAfter {
            let s = sourceSection[t]
            if s < 0 || reloadedSections.contains(s) {
                outcome.sections.append(new.sections[t])  // fresh from the data source
                continue
            }
            let oldItems = old.sections[s].items
            let count = itemCountsAfter[t]
            // Each slot: an old path (kept value) or nil (fresh from the data source).
            var slots = [ItemIndexPath?](repeating: nil, count: count)
            var taken = [Bool](repeating: false, count: count)
            for i in insertedBySection[t] ?? [] { taken[i] = true }
            for move in movedInBySection[t] ?? [] {
                taken[move.to.item] = true
                slots[move.to.item] = move.from
            }
            let gone = (deletedBySection[s] ?? []).union(movedAwayBySection[s] ?? [])
            let positions = _survivorPositions(
                oldCount: oldItems.count, newCount: count, removed: _flags(gone, count: oldItems.count), taken: taken)
            for (i, position) in positions.enumerated() where position >= 0 {
                slots[position] = ItemIndexPath(section: s, item: i)
            }
            var items: [Element] = []
            items.reserveCapacity(count)
            for (i, slot) in slots.enumerated() {
                if let from = slot, !reloadedItems.contains(from), let kept = old[from] {
                    items.append(kept)
                } else {
                    items.append(new.sections[t].items[i])
                }
            }
            outcome.sections.append(.init(id: old.sections[s].id, items: items))
        }

        for t in 0..<sectionsAfter {
            let got = outcome.sections[t]
            let want = new.sections[t]
            if got.id != want.id {
                mismatches.append(.wrongSection(section: t, found: "\(got.id)", expected: "\(want.id)"))
                continue
            }
            for i in want.items.indices {
                let path = ItemIndexPath(section: t, item: i)
                if got.items[i].diffIdentifier != want.items[i].diffIdentifier {
                    mismatches.append(
                        .wrongItem(path, found: "\(got.items[i].diffIdentifier)", expected: "\(want.items[i].diffIdentifier)"))
                } else if want.items[i]._isUpdated(from: got.items[i], comparison: comparison) {
                    mismatches.append(.staleContent(path))
                }
            }
        }
        return BatchApplication(outcome: outcome, mismatches: mismatches)
    }
}
