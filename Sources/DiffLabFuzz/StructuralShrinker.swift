import DiffLabBatch

/// The second shrinking stage: edits of the input itself, where the choice-sequence passes
/// (``shrink(_:budget:stillFails:)``) get stuck.
///
/// Deleting a span of choices removes a list item but shifts every index drawn after it: a
/// corruption aimed at the fourth old item then hits another one, and the failure is lost. So
/// after the choice-level shrink, this pass edits the case directly, keeping it consistent:
/// 1. remove one old item (from `old` and, at the same place, from `oldSections`), renumbering
///    the corruptions that name old indices after it (`reload`, `delete`);
/// 2. remove one new item (from `new` and `newSections`), renumbering `insert` corruptions;
/// 3. remove one corruption;
/// 4. remove an empty section;
/// repeated until none helps. A candidate counts when `stillFails` says it fails the same way.
///
/// The shrunk case is what replays (a regression file stores the lists); its choice sequence is
/// the one the first stage left.
///
/// - Parameters:
///   - input: a failing case.
///   - budget: the most candidates to try.
///   - stillFails: the test.
/// - Returns: the smallest failing case found and the number of candidates tried.
/// - Complexity: O(budget) calls of `stillFails`; a round tries O(n + m + k + S) candidates.
package func shrinkStructurally(
    _ input: FuzzCase, budget: Int, stillFails: (FuzzCase) -> Bool
) -> (input: FuzzCase, attempts: Int) {
    var best = input
    var attempts = 0
    func attempt(_ candidate: FuzzCase) -> Bool {
        guard attempts < budget else { return false }
        attempts += 1
        guard stillFails(candidate) else { return false }
        best = candidate
        return true
    }
    var improved = true
    while improved && attempts < budget {
        improved = false
        var i = best.old.count - 1
        while i >= 0 {
            if i < best.old.count, attempt(best.removingOld(at: i)) { improved = true }
            i -= 1
        }
        var j = best.new.count - 1
        while j >= 0 {
            if j < best.new.count, attempt(best.removingNew(at: j)) { improved = true }
            j -= 1
        }
        var k = best.corruptions.count - 1
        while k >= 0 {
            if k < best.corruptions.count {
                var candidate = best
                candidate.corruptions.remove(at: k)
                if attempt(candidate) { improved = true }
            }
            k -= 1
        }
        for old in [true, false] {
            var s = (old ? best.oldSections : best.newSections).sections.count - 1
            while s >= 0 {
                let sections = old ? best.oldSections : best.newSections
                if s < sections.sections.count && sections.sections[s].items.isEmpty && sections.sections.count > 1 {
                    var candidate = best
                    if old { candidate.oldSections.sections.remove(at: s) } else { candidate.newSections.sections.remove(at: s) }
                    if attempt(candidate) { improved = true }
                }
                s -= 1
            }
        }
    }
    return (best, attempts)
}

extension FuzzCase {
    /// The case without old item `index`, from the list and its sections; corruptions naming an
    /// old index after it are renumbered. - Complexity: O(n + k).
    func removingOld(at index: Int) -> FuzzCase {
        var c = self
        c.old.remove(at: index)
        c.oldSections = Self.removing(index, from: oldSections)
        c.corruptions = corruptions.map { corruption in
            switch corruption {
            case let .reload(item) where item > index: .reload(item: item - 1)
            case let .delete(item) where item > index: .delete(item: item - 1)
            default: corruption
            }
        }
        return c
    }

    /// The case without new item `index`, from the list and its sections; `insert` corruptions
    /// after it are renumbered. - Complexity: O(m + k).
    func removingNew(at index: Int) -> FuzzCase {
        var c = self
        c.new.remove(at: index)
        c.newSections = Self.removing(index, from: newSections)
        c.corruptions = corruptions.map { corruption in
            if case let .insert(item) = corruption, item > index { return .insert(item: item - 1) }
            return corruption
        }
        return c
    }

    /// `sections` without the item at flat position `index` (items counted across sections in
    /// order); unchanged when there is no such item.
    static func removing(_ index: Int, from sections: SectionedList<Int, FuzzItem>) -> SectionedList<Int, FuzzItem> {
        var result = sections
        var start = 0
        for s in result.sections.indices {
            let count = result.sections[s].items.count
            if index < start + count {
                result.sections[s].items.remove(at: index - start)
                return result
            }
            start += count
        }
        return result
    }
}
