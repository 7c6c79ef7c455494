import DiffLabEngines

/// A small command-line parser: long options with or without a value, and positionals.
///
/// Accepts `--name value`, `--name=value`, flags (`--name`), `-h` as `--help`, and `--` to end
/// options. Every mistake — an unknown option, a missing or unexpected value, an option given
/// twice, too many or too few positionals — is a ``CommandError/usage(_:)``.
public struct ParsedArguments: Sendable, Equatable {
    /// Positional arguments, in order.
    public var positionals: [String] = []
    /// Option values by name (without dashes).
    public var values: [String: String] = [:]
    /// Flags given (without dashes).
    public var flags: Set<String> = []

    /// The value of option `name`, if given.
    public func value(_ name: String) -> String? { values[name] }
    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// The options one command accepts.
public struct OptionSpec: Sendable {
    /// Options that take a value.
    public var valued: Set<String>
    /// Options that take none.
    public var flags: Set<String>

    /// A spec; `help` is always accepted as a flag.
    public init(valued: Set<String> = [], flags: Set<String> = []) {
        self.valued = valued
        self.flags = flags.union(["help"])
    }

    /// Parses `arguments` (the command's own, after its name).
    ///
    /// - Throws: ``CommandError`` with status ``ExitStatus/usage`` on any mistake.
    /// - Complexity: O(arguments).
    public func parse(_ arguments: [String]) throws(CommandError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" {
                parsed.flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else { throw .usage("unknown option '\(argument)'") }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw .usage("option '--\(name)' takes no value") }
                parsed.flags.insert(name)
            } else if valued.contains(name) {
                guard parsed.values[name] == nil else { throw .usage("option '--\(name)' given twice") }
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("option '--\(name)' needs a value") }
                    parsed.values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw .usage("unknown option '--\(name)'")
            }
        }
        return parsed
    }
}

/// Parses an engine name.
///
/// - Throws: a usage error listing the engines.
func parseEngine(_ name: String) throws(CommandError) -> EngineKind {
    guard let engine = EngineKind(rawValue: name) else {
        throw .usage("unknown engine '\(name)' (expected one of: \(EngineKind.allNames))")
    }
    return engine
}

/// Parses a comma-separated list with `element`.
///
/// - Throws: a usage error for an empty list, or whatever `element` throws.
func parseList<T>(_ text: String, _ option: String, _ element: (String) throws(CommandError) -> T) throws(CommandError) -> [T] {
    var result: [T] = []
    for name in text.split(separator: ",") { result.append(try element(String(name))) }
    guard !result.isEmpty else { throw .usage("\(option) expects a comma-separated list") }
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

/// Parses a positive integer option value.
func parsePositive(_ text: String, _ option: String) throws(CommandError) -> Int {
    guard let value = Int(text), value > 0 else { throw .usage("\(option) expects a positive integer (got '\(text)')") }
    return value
}
