import DiffLabBatch
import DiffLabCore

/// Applies corruptions to a one-section batch update.
///
/// Total for any field values, so a hand-edited case cannot make it trap: an `index` picks an
/// operation modulo the list's length (its magnitude, for a negative one), a `shift` saturates at
/// `Int.min`/`Int.max`, and a section insert at a negative index inserts the count at the front.
/// - Complexity: O(corruptions × operations).
func corrupt(_ update: BatchUpdate, with corruptions: [Corruption]) -> BatchUpdate {
    var u = update
    func path(_ item: Int) -> ItemIndexPath { ItemIndexPath(section: 0, item: item) }
    func slot(_ index: Int, _ count: Int) -> Int { Int(index.magnitude % UInt(count)) }
    func shifted(_ value: Int, by delta: Int) -> Int {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        return overflow ? (delta > 0 ? Int.max : Int.min) : sum
    }
    func edit(_ list: Int, _ index: Int, _ body: (inout [ItemIndexPath]) -> Void) {
        switch list {
        case 0: body(&u.insertItems)
        case 1: body(&u.deleteItems)
        default: body(&u.reloadItems)
        }
    }
    for corruption in corruptions {
        switch corruption {
        case let .duplicate(list, index):
            if list == 3 {
                if !u.moveItems.isEmpty { u.moveItems.append(u.moveItems[slot(index, u.moveItems.count)]) }
            } else {
                edit(list, index) { if !$0.isEmpty { $0.append($0[slot(index, $0.count)]) } }
            }
        case let .drop(list, index):
            if list == 3 {
                if !u.moveItems.isEmpty { u.moveItems.remove(at: slot(index, u.moveItems.count)) }
            } else {
                edit(list, index) { if !$0.isEmpty { $0.remove(at: slot(index, $0.count)) } }
            }
        case let .shift(list, index, delta):
            if list == 3 {
                if !u.moveItems.isEmpty {
                    let k = slot(index, u.moveItems.count)
                    u.moveItems[k].to.item = shifted(u.moveItems[k].to.item, by: delta)
                }
            } else {
                edit(list, index) { list in
                    guard !list.isEmpty else { return }
                    let k = slot(index, list.count)
                    list[k].item = shifted(list[k].item, by: delta)
                }
            }
        case let .reload(item): u.reloadItems.append(path(item))
        case let .delete(item): u.deleteItems.append(path(item))
        case let .insert(item): u.insertItems.append(path(item))
        case let .section(kind, section):
            switch kind {
            case 0:
                u.insertSections.append(section)
                u.itemCountsAfter.insert(0, at: max(0, min(section, u.itemCountsAfter.count)))
            case 1:
                u.deleteSections.append(section)
                if section >= 0 && section < u.itemCountsAfter.count { u.itemCountsAfter.remove(at: section) }
            case 2: u.reloadSections.append(section)
            default: u.moveSections.append(SectionMove(from: section, to: 0))
            }
        }
    }
    return u
}
