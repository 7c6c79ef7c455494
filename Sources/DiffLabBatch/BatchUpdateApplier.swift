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

    /// An application that gave `outcome`, with `mismatches`.
    @usableFromInline
    init(outcome: SectionedList<SectionID, Element>, mismatches: [ApplicationMismatch]) {
        self.outcome = outcome
        self.mismatches = mismatches
    }
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
    /// Where every item comes from is worked out once, without the element type
    /// (`_applicationPlan()`); only copying the items and comparing them is generic, and
    /// inlinable, so a caller's element type is specialized rather than looked up at run time.
    ///
    /// - Throws: ``InvalidBatchUpdate`` when UIKit would reject the update (it would crash).
    /// - Complexity: O(S + n + k log k) for S sections, n items and k operations.
    @inlinable
    public func apply<SectionID: Hashable, Element: Diffable>(
        to old: SectionedList<SectionID, Element>, expecting new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption = .equality
    ) throws(InvalidBatchUpdate) -> BatchApplication<SectionID, Element> {
        try validate()
        var mismatches = _countMismatches(old: old.itemCounts, new: new.itemCounts)
        guard mismatches.isEmpty else { return BatchApplication(outcome: old, mismatches: mismatches) }

        let plan = _applicationPlan()
        var outcome = SectionedList<SectionID, Element>([])
        outcome.sections.reserveCapacity(plan.sourceSection.count)
        for t in plan.sourceSection.indices {
            let s = plan.sourceSection[t]
            guard s >= 0 else {
                outcome.sections.append(new.sections[t])  // fresh from the data source
                continue
            }
            let fresh = new.sections[t].items
            let slots = plan.slots[plan.slotStart[t]..<plan.slotStart[t + 1]]
            var items: [Element] = []
            items.reserveCapacity(slots.count)
            for (i, from) in zip(fresh.indices, slots) {
                // A kept item, unless the slot is fresh (section -1) or, on a hostile model, gone.
                items.append(old[from] ?? fresh[i])
            }
            outcome.sections.append(.init(id: old.sections[s].id, items: items))
        }

        for t in new.sections.indices {
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

    /// The counts mismatches of a model before (`old`) and after (`new`) against this update's.
    ///
    /// - Complexity: O(S).
    @usableFromInline
    func _countMismatches(old: [Int], new: [Int]) -> [ApplicationMismatch] {
        var mismatches: [ApplicationMismatch] = []
        if old != itemCountsBefore {
            mismatches.append(.countsDisagree(state: "before", update: itemCountsBefore, model: old))
        }
        if new != itemCountsAfter {
            mismatches.append(.countsDisagree(state: "after", update: itemCountsAfter, model: new))
        }
        return mismatches
    }

    /// Where each section and item after this (valid) update comes from, by UIKit's model.
    ///
    /// - `sourceSection[t]`: the old section new section `t` keeps, or -1 when it is fresh
    ///   (inserted, or reloaded).
    /// - `slots[slotStart[t] ..< slotStart[t + 1]]`, for a kept section: for each item, the old
    ///   index path whose value it keeps, or section -1 when it is fresh (inserted, or reloaded).
    ///   Fresh sections have no slots.
    ///
    /// Precondition (checked by the caller): the update is valid, so every index is in bounds.
    ///
    /// - Complexity: O(S + n + k) for S sections, n items after the update and k operations.
    @usableFromInline
    func _applicationPlan() -> (sourceSection: [Int], slots: [ItemIndexPath], slotStart: [Int]) {
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
        let reloadedSections = _flags(reloadSections, count: sectionsBefore)
        for t in 0..<sectionsAfter where sourceSection[t] >= 0 && reloadedSections[sourceSection[t]] {
            sourceSection[t] = -1
        }

        // Item operations grouped by section: kept sections' old and new indices.
        var gone = [[Int]](repeating: [], count: sectionsBefore)
        for path in deleteItems { gone[path.section].append(path.item) }
        for move in moveItems { gone[move.from.section].append(move.from.item) }
        var arriving = [[Int]](repeating: [], count: sectionsAfter)
        for path in insertItems { arriving[path.section].append(path.item) }
        var movedIn = [[IndexPathMove]](repeating: [], count: sectionsAfter)
        for move in moveItems { movedIn[move.to.section].append(move) }
        let reloadedItems = Set(reloadItems)
        let fresh = ItemIndexPath(section: -1, item: -1)

        var slots: [ItemIndexPath] = []
        var slotStart = [0]
        slotStart.reserveCapacity(sectionsAfter + 1)
        for t in 0..<sectionsAfter {
            let s = sourceSection[t]
            defer { slotStart.append(slots.count) }
            guard s >= 0 else { continue }
            let count = itemCountsAfter[t]
            let base = slots.count
            slots.append(contentsOf: repeatElement(fresh, count: count))
            var taken = [Bool](repeating: false, count: count)
            for i in arriving[t] { taken[i] = true }
            for move in movedIn[t] {
                taken[move.to.item] = true
                slots[base + move.to.item] = move.from
            }
            let positions = _survivorPositions(
                oldCount: itemCountsBefore[s], newCount: count, removed: _flags(gone[s], count: itemCountsBefore[s]),
                taken: taken)
            for (i, position) in positions.enumerated() where position >= 0 {
                slots[base + position] = ItemIndexPath(section: s, item: i)
            }
            if !reloadedItems.isEmpty {
                for i in base..<slots.count where reloadedItems.contains(slots[i]) { slots[i] = fresh }
            }
        }
        return (sourceSection, slots, slotStart)
    }
}
