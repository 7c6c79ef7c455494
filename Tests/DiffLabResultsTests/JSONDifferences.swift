import DiffLabJSON

/// Where two JSON values differ, under the rules of `JSONValue ==`: numbers by value
/// (`1 == 1.0`), strings literally, object members by key whatever their order, arrays element by
/// element. The differences of two equal values are none; of two unequal values, at least one.
///
/// Paths read like ``ResultsError``'s: `measurements[3].median`, `cells["a:b:int:10"]`, and
/// `the document` for the value itself.
struct JSONDifference: Equatable, Sendable, CustomStringConvertible {
    /// What differs at ``path``.
    enum Kind: Equatable, Sendable {
        /// The input has the member, the written document does not.
        case missing
        /// The written document has a member the input does not.
        case added
        /// Both have the value, unequal (another type, or another scalar).
        case changed
        /// Both arrays, of different lengths: the path names the first element only one has.
        case length
    }

    var path: String
    var kind: Kind
    /// The input's value at ``path`` (`nil` when absent), briefly.
    var input: String
    /// The written value at ``path`` (`nil` when absent), briefly.
    var written: String

    var description: String {
        switch kind {
        case .missing: "\(path): the input has \(input), the writer leaves it out"
        case .added: "\(path): the writer adds \(written), the input has no such member"
        case .changed: "\(path): the input has \(input), the writer writes \(written)"
        case .length: "\(path): the input has \(input) elements, the writer writes \(written)"
        }
    }

    /// ``path`` with every array index replaced by `*` (`measurements[*].median`), so one entry
    /// names a difference every element shares.
    var pattern: String {
        var result = ""
        var bracket: String?  // the text after an open `[`
        for character in path {
            switch (bracket, character) {
            case (nil, "["): bracket = ""
            case (nil, _): result.append(character)
            case (let open?, "]"):
                result += "[" + (!open.isEmpty && open.allSatisfy { $0.isASCII && $0.isNumber } ? "*" : open) + "]"
                bracket = nil
            case (let open?, _): bracket = open + String(character)
            }
        }
        return result + (bracket.map { "[" + $0 } ?? "")
    }
}

/// The differences between `input` (a parsed file) and `written` (what a record wrote of it), in
/// the input's order: an object's members in the input's key order, then the members only
/// `written` has; an array's elements in order, then its length. At most `limit` are returned (a
/// record that drops a member of every element would otherwise list thousands).
///
/// - Complexity: O(size of the values).
func jsonDifferences(_ input: JSONValue, _ written: JSONValue, limit: Int = 50) -> [JSONDifference] {
    var found: [JSONDifference] = []
    collectDifferences(input, written, path: "", into: &found, limit: limit)
    return found
}

/// The first differing path of `input` and `written`, `nil` when they are equal.
func firstDifference(_ input: JSONValue, _ written: JSONValue) -> JSONDifference? {
    jsonDifferences(input, written, limit: 1).first
}

private func collectDifferences(_ input: JSONValue, _ written: JSONValue, path: String, into found: inout [JSONDifference], limit: Int) {
    guard found.count < limit else { return }
    let shown = path.isEmpty ? "the document" : path
    switch (input, written) {
    case (.object(let a), .object(let b)):
        for (key, value) in a {
            guard found.count < limit else { return }
            let member = memberPath(path, key)
            if let other = b[key] {
                collectDifferences(value, other, path: member, into: &found, limit: limit)
            } else {
                found.append(JSONDifference(path: member, kind: .missing, input: value.briefDescription, written: "nothing"))
            }
        }
        for (key, value) in b where a[key] == nil {
            guard found.count < limit else { return }
            found.append(JSONDifference(path: memberPath(path, key), kind: .added, input: "nothing", written: value.briefDescription))
        }
    case (.array(let a), .array(let b)):
        for index in 0..<min(a.count, b.count) {
            guard found.count < limit else { return }
            collectDifferences(a[index], b[index], path: path + "[\(index)]", into: &found, limit: limit)
        }
        if a.count != b.count, found.count < limit {
            found.append(JSONDifference(path: path + "[\(min(a.count, b.count))]", kind: .length, input: "\(a.count)", written: "\(b.count)"))
        }
    default:
        if input != written {
            found.append(JSONDifference(path: shown, kind: .changed, input: input.briefDescription, written: written.briefDescription))
        }
    }
}

/// `path.key`, or `path["key"]` for a key that is not letters, digits, `_` and `-`.
private func memberPath(_ path: String, _ key: String) -> String {
    let plain =
        !key.isEmpty
        && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    if plain { return path.isEmpty ? key : path + "." + key }
    return path + "[" + JSONValue.string(key).serialized() + "]"
}
