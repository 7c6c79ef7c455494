import DiffLabBatch
import DiffLabCore
import DiffLabJSON

/// The JSON form of a ``BatchUpdate`` used by `difflab validate` (input) and `difflab stages`
/// (output):
/// `{"before":[counts],"after":[counts],"insertSections":[s],"deleteSections":[s],
///   "reloadSections":[s],"moveSections":[{"from":a,"to":b}],"insertItems":[[s,i]],
///   "deleteItems":[[s,i]],"reloadItems":[[s,i]],"moveItems":[{"from":[s,i],"to":[s,i]}]}`.
/// Absent keys mean empty.
///
/// Numbers: item counts are integers from 0 to 9223372036854775807 (`Int.max`) — any count is
/// fine, as the validator never materialises items; section and item indices are any integers
/// from −9223372036854775808 to 9223372036854775807 (an index out of its state's bounds is a
/// violation the validator reports, not a data error). A number outside those ranges, a fraction
/// or another type is a data error (exit 65) naming the field and the range.
public enum BatchUpdateJSON {
    /// The allowed item counts: 0 to `Int.max`.
    public static let countRange = 0...Int.max
    /// The allowed section and item indices: any `Int`.
    public static let indexRange = Int.min...Int.max

    /// The keys of the changes, in the order they are written.
    public static let changeKeys = [
        "insertSections", "deleteSections", "reloadSections", "moveSections", "insertItems", "deleteItems",
        "reloadItems", "moveItems",
    ]

    /// Decodes an update; `what` names the input in messages.
    ///
    /// - Throws: ``InputFormatError`` for an unknown key or a value of the wrong shape.
    public static func decode(_ value: JSONValue, what: String) throws(InputFormatError) -> BatchUpdate {
        guard case .object(let object) = value else {
            throw InputFormatError("\(what): expected a JSON object, not \(value.typeNameWithArticle)")
        }
        for key in object.keys where key != "before" && key != "after" && !changeKeys.contains(key) {
            throw InputFormatError("\(what): unknown key \"\(key)\" (expected before, after, \(changeKeys.joined(separator: ", ")))")
        }
        func list(_ key: String) throws(InputFormatError) -> [JSONValue] {
            guard let value = object[key] else { return [] }
            guard case .array(let items) = value else {
                throw InputFormatError("\(what): \"\(key)\" must be an array, not \(value.typeNameWithArticle)")
            }
            return items
        }
        func integer(
            _ value: JSONValue, _ context: @autoclosure () -> String, in range: ClosedRange<Int> = indexRange
        ) throws(InputFormatError) -> Int {
            let allowed = "an integer from \(range.lowerBound) to \(range.upperBound)"
            switch value {
            case .integer(let i) where range.contains(i):
                return i
            default:
                throw InputFormatError("\(what): \(context()) must be \(allowed), not \(value.briefDescription)")
            }
        }
        func path(_ value: JSONValue, _ context: @autoclosure () -> String) throws(InputFormatError) -> ItemIndexPath {
            guard case .array(let pair) = value, pair.count == 2 else {
                throw InputFormatError("\(what): \(context()) must be a [section, item] pair")
            }
            return ItemIndexPath(section: try integer(pair[0], context()), item: try integer(pair[1], context()))
        }
        func ends(_ value: JSONValue, _ context: String) throws(InputFormatError) -> (JSONValue, JSONValue) {
            guard case .object(let move) = value, let from = move["from"], let to = move["to"], move.count == 2 else {
                throw InputFormatError("\(what): \(context) must be {\"from\": ..., \"to\": ...}")
            }
            return (from, to)
        }
        func counts(_ key: String) throws(InputFormatError) -> [Int] {
            var result: [Int] = []
            for (i, value) in try list(key).enumerated() {
                result.append(try integer(value, "\"\(key)\"[\(i)] (an item count)", in: countRange))
            }
            return result
        }
        func sections(_ key: String) throws(InputFormatError) -> [Int] {
            var result: [Int] = []
            for (i, value) in try list(key).enumerated() { result.append(try integer(value, "\"\(key)\"[\(i)]")) }
            return result
        }
        func paths(_ key: String) throws(InputFormatError) -> [ItemIndexPath] {
            var result: [ItemIndexPath] = []
            for (i, value) in try list(key).enumerated() { result.append(try path(value, "\"\(key)\"[\(i)]")) }
            return result
        }
        var sectionMoves: [SectionMove] = []
        for (i, value) in try list("moveSections").enumerated() {
            let (from, to) = try ends(value, "\"moveSections\"[\(i)]")
            sectionMoves.append(
                SectionMove(from: try integer(from, "\"moveSections\"[\(i)].from"), to: try integer(to, "\"moveSections\"[\(i)].to")))
        }
        var itemMoves: [IndexPathMove] = []
        for (i, value) in try list("moveItems").enumerated() {
            let (from, to) = try ends(value, "\"moveItems\"[\(i)]")
            itemMoves.append(
                IndexPathMove(from: try path(from, "\"moveItems\"[\(i)].from"), to: try path(to, "\"moveItems\"[\(i)].to")))
        }
        return BatchUpdate(
            itemCountsBefore: try counts("before"), itemCountsAfter: try counts("after"),
            insertSections: try sections("insertSections"), deleteSections: try sections("deleteSections"),
            reloadSections: try sections("reloadSections"), moveSections: sectionMoves,
            insertItems: try paths("insertItems"), deleteItems: try paths("deleteItems"),
            reloadItems: try paths("reloadItems"), moveItems: itemMoves)
    }

    /// The changes of `update` (no counts), every key present.
    public static func encodeChanges(_ update: BatchUpdate) -> JSONValue {
        func path(_ p: ItemIndexPath) -> JSONValue { .array([.integer(p.section), .integer(p.item)]) }
        func integers(_ list: [Int]) -> JSONValue { .array(list.map { .integer($0) }) }
        return .object(
            JSONObject([
                ("insertSections", integers(update.insertSections)),
                ("deleteSections", integers(update.deleteSections)),
                ("reloadSections", integers(update.reloadSections)),
                ("moveSections", .array(update.moveSections.map { .object(["from": .integer($0.from), "to": .integer($0.to)]) })),
                ("insertItems", .array(update.insertItems.map(path))),
                ("deleteItems", .array(update.deleteItems.map(path))),
                ("reloadItems", .array(update.reloadItems.map(path))),
                ("moveItems", .array(update.moveItems.map { .object(["from": path($0.from), "to": path($0.to)]) })),
            ]))
    }
}
