import DiffLabFormatting

/// Resolves an engine name through the running program's registry (``EngineRegistry/current``).
///
/// - Throws: a usage error listing the engines.
func parseEngine(_ name: String) throws(CommandError) -> RegisteredEngine {
    try EngineRegistry.current.engine(named: name)
}

/// Parses a comma-separated list with `element`.
///
/// - Throws: a usage error for an empty list or an empty element (`1,,2`, `1,`), or whatever
///   `element` throws.
package func parseList<T>(_ text: String, _ option: String, _ element: (String) throws(CommandError) -> T) throws(CommandError) -> [T] {
    var result: [T] = []
    let names = text.split(separator: ",", omittingEmptySubsequences: false)
    guard names.contains(where: { !$0.isEmpty }) else { throw .usage("\(option) expects a comma-separated list") }
    for name in names {
        guard !name.isEmpty else { throw .usage("\(option) has an empty element in '\(text)'") }
        result.append(try element(String(name)))
    }
    return result
}

/// Parses a comma-separated list of names of `T`'s cases, e.g. `--profiles small-edit,reverse`.
///
/// - Throws: a usage error naming the unknown name and listing the known ones.
func parseNames<T: RawRepresentable & CaseIterable>(_ text: String, _ option: String, _ noun: String) throws(CommandError) -> [T]
where T.RawValue == String {
    try parseList(text, option) { name throws(CommandError) in
        guard let value = T(rawValue: name) else {
            throw .usage("unknown \(noun) '\(name)' (expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return value
    }
}

/// `values` without repeats, in first-seen order: a list option that names one thing twice
/// means it once. - Complexity: O(n) expected.
package func deduplicated<T: Hashable>(_ values: [T]) -> [T] {
    var seen: Set<T> = []
    return values.filter { seen.insert($0).inserted }
}

// MARK: - The rule for numbers on the command line
//
// Every number a user gives in a flag is parsed strictly (decimal only: no leading "+", no hex, no
// "inf"/"nan"),
// range-checked against the option's documented range, and rejected with exit 64 and a message
// naming the option, the allowed range and what was given. Numbers read from files follow the same
// rule with exit 65 (each decoder names the file and field).

/// Parses a decimal integer option value in `range`.
///
/// - Throws: a usage error (64) naming `option`, the range and `text`, for anything that is not a
///   decimal integer (overflow included) or lies outside `range`.
/// - Complexity: O(text).
func parseInteger(_ text: String, _ option: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
    guard !text.hasPrefix("+"), let value = Int(text), range.contains(value) else {
        throw .usage("\(option) expects an integer \(describe(range)) (got '\(text)')")
    }
    return value
}

/// Parses a finite decimal number option value in `range` (no `inf`, `nan` or hexadecimal).
///
/// - Throws: a usage error (64) naming `option`, the range and `text`.
/// - Complexity: O(text).
func parseNumber(_ text: String, _ option: String, in range: ClosedRange<Double>) throws(CommandError) -> Double {
    let plain =
        !text.isEmpty
        && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        }
    guard plain, !text.hasPrefix("+"), let value = Double(text), value.isFinite, range.contains(value) else {
        throw .usage("\(option) expects a number from \(formatPlain(range.lowerBound)) to \(formatPlain(range.upperBound)) (got '\(text)')")
    }
    return value
}

/// Parses a seed: a decimal integer from 0 to 2^64 - 1.
func parseSeed(_ text: String, _ option: String = "--seed") throws(CommandError) -> UInt64 {
    guard !text.hasPrefix("+"), !text.hasPrefix("-"), let value = UInt64(text) else {
        throw .usage("\(option) expects an integer from 0 to \(UInt64.max) (got '\(text)')")
    }
    return value
}

/// "from 1 to 1,000" / "of at least 1".
func describe(_ range: ClosedRange<Int>) -> String {
    range.upperBound == Int.max
        ? "of at least \(formatPlain(Double(range.lowerBound)))"
        : "from \(formatPlain(Double(range.lowerBound))) to \(formatPlain(Double(range.upperBound)))"
}
