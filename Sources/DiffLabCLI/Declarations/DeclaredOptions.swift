/// A command's options: a value whose stored properties are its declarations (``Option``,
/// ``RepeatedOption``, ``Flag``, at most one ``Positionals``), in the order help lists them.
///
/// ```swift
/// struct DiffOptions: DeclaredOptions {
///     let files = Positionals("OLD.json NEW.json", count: 2...2) { "diff needs two files (got \($0))" }
///     let batch = Flag("batch", help: "print the result safe for one performBatchUpdates")
/// }
/// let parsed = try DiffOptions.parse(arguments)
/// if parsed[\.batch] { ... }
/// ```
///
/// The declarations are found by reflection (`Mirror`) on `init()`'s value; a test checks that
/// every stored property of every command's options is a declaration and that names are unique.
package protocol DeclaredOptions: Sendable {
    /// The declarations' values (each property's initial value is its declaration).
    init()
}

extension DeclaredOptions {
    /// Every declaration, in declaration order. - Complexity: O(properties).
    package static var declarations: [any Declaration] {
        Mirror(reflecting: Self()).children.compactMap { $0.value as? any Declaration }
    }

    /// The number of stored properties, declarations or not (a test compares the two).
    package static var storedPropertyCount: Int { Mirror(reflecting: Self()).children.count }

    /// Parses a command's own arguments (after its name) against the declarations.
    ///
    /// Accepts `--name value`, `--name=value`, flags, `-h`/`--help`, and `--` to end options; a
    /// lone `-` is a positional (standard input). Each value is parsed to its type as it is met.
    ///
    /// - Throws: a usage error (64) for an unknown option, a missing or unexpected value, an
    ///   option given twice that is not repeatable, a value its declaration refuses, or a wrong
    ///   number of positionals (unless help was asked for: then nothing else is checked).
    /// - Complexity: O(arguments × declarations).
    package static func parse(_ arguments: [String]) throws(CommandError) -> Parsed<Self> {
        let declarations = Self.declarations
        var parsed = Parsed<Self>()
        var words: [String] = []
        var index = 0
        var optionsEnded = false
        var pending: CommandError?
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else {
                pending = pending ?? .usage("unknown option '\(argument)'")
                continue
            }
            let body = argument.dropFirst(2)
            let equals = body.firstIndex(of: "=")
            let name = String(equals.map { body[..<$0] } ?? body)
            let inline = equals.map { String(body[body.index(after: $0)...]) }
            guard let declaration = declarations.first(where: { $0.name == name && !($0.shape.isPositionals) }) else {
                pending = pending ?? .usage("unknown option '--\(name)'")
                continue
            }
            let text: String
            switch declaration.shape {
            case .flag:
                guard inline == nil else {
                    pending = pending ?? .usage("option '--\(name)' takes no value")
                    continue
                }
                text = ""
            case .valued, .repeated:
                if let inline {
                    text = inline
                } else if index < arguments.count {
                    text = arguments[index]
                    index += 1
                } else {
                    pending = pending ?? .usage("option '--\(name)' needs a value")
                    continue
                }
            case .positionals:
                continue
            }
            if !declaration.shape.isRepeated && parsed.given.contains(name) {
                pending = pending ?? .usage("option '--\(name)' given twice")
                continue
            }
            guard pending == nil else { continue }
            do throws(CommandError) {
                parsed.record(name, raw: text, value: try declaration.parseRaw(text), repeated: declaration.shape.isRepeated)
            } catch {
                pending = error
            }
        }
        // Help asked for wins over every other mistake: `diff --help` needs no files.
        guard !parsed.wantsHelp else { return parsed }
        if let pending { throw pending }
        if let missing = declarations.first(where: { $0.isRequired && !parsed.given.contains($0.name) }) {
            let value = if case .valued(let value) = missing.shape { " " + value } else { "" }
            let constraint = (missing as? any ConstrainedDeclaration)?.constraintText.map { " (\($0))" } ?? ""
            throw .usage("missing --\(missing.name)\(value)\(constraint)")
        }
        if let positionals = declarations.first(where: { $0.shape.isPositionals }) as? Positionals {
            try positionals.check(words.count)
            parsed.words = words
        } else if let first = words.first {
            throw .usage("unexpected argument '\(first)' (this command takes no files)")
        }
        return parsed
    }
}

extension DeclarationShape {
    var isPositionals: Bool { if case .positionals = self { true } else { false } }
    var isRepeated: Bool { if case .repeated = self { true } else { false } }
}

/// A command's arguments parsed against its ``DeclaredOptions``: read each option through a key
/// path of `Options` (`parsed[\.engine]`), so only a declared option can be read.
package struct Parsed<Options: DeclaredOptions>: Sendable {
    /// `-h` or `--help` was given.
    package var wantsHelp = false
    /// Typed values by declaration name (a repeated option's values as `[any Sendable]`).
    private var values: [String: any Sendable] = [:]
    /// Names given.
    private(set) var given: Set<String> = []
    /// Every option given, in order, with its raw text: what a worker is handed again.
    package private(set) var occurrences: [(name: String, raw: String)] = []
    /// The positionals.
    fileprivate(set) var words: [String] = []

    mutating func record(_ name: String, raw: String, value: any Sendable, repeated: Bool) {
        if repeated {
            values[name] = (values[name] as? [any Sendable] ?? []) + [value]
        } else {
            values[name] = value
        }
        given.insert(name)
        occurrences.append((name, raw))
    }

    private static func declaration<D: Declaration>(_ key: KeyPath<Options, D>) -> D { Options()[keyPath: key] }

    /// The option's value: given, else its default, else `nil`.
    package subscript<Value>(_ key: KeyPath<Options, Option<Value>>) -> Value? {
        let option = Self.declaration(key)
        return values[option.name].map { typed($0, as: Value.self) } ?? option.defaultValue
    }

    /// Every value of a repeatable option, in the order given.
    package subscript<Value>(_ key: KeyPath<Options, RepeatedOption<Value>>) -> [Value] {
        let option = Self.declaration(key)
        return (values[option.name] as? [any Sendable] ?? []).map { typed($0, as: Value.self) }
    }

    /// A required option's value (the parser refused the arguments without it).
    package func required<Value>(_ key: KeyPath<Options, Option<Value>>) -> Value {
        guard let value = self[key] else { preconditionFailure("a required option read before parsing checked it") }
        return value
    }

    /// Whether the flag was given.
    package subscript(_ key: KeyPath<Options, Flag>) -> Bool { given.contains(Self.declaration(key).name) }

    /// The positionals, in order.
    package subscript(_ key: KeyPath<Options, Positionals>) -> [String] { words }

    /// The text an option was given as (its last occurrence), to hand to another DiffLab
    /// command unchanged; `nil` when not given.
    package func raw<D: Declaration>(_ key: KeyPath<Options, D>) -> String? {
        let name = Self.declaration(key).name
        return occurrences.last { $0.name == name }?.raw
    }

    /// The arguments as given, options in order and then the positionals (for a report's
    /// record of how it was made).
    package var arguments: [String] {
        occurrences.flatMap { name, raw in
            Options.declarations.first { $0.name == name }?.shape == .flag ? ["--" + name] : ["--" + name, raw]
        } + words
    }

    /// Whether the option was given (not defaulted).
    package func isGiven<D: Declaration>(_ key: KeyPath<Options, D>) -> Bool { given.contains(Self.declaration(key).name) }

    /// The declaration `key` names (for its name in messages: `"--" + parsed.name(\.moves)`).
    package func option<D: Declaration>(_ key: KeyPath<Options, D>) -> String { "--" + Self.declaration(key).name }
}

/// A value stored by a declaration read back as the type that declaration parses to. The parser
/// stores each value through the declaration the key path names, so the cast cannot fail; if it
/// ever did, that is a bug in this file, not in the user's input.
private func typed<Value>(_ value: any Sendable, as type: Value.Type) -> Value {
    guard let value = value as? Value else { preconditionFailure("a declaration's value read as another type") }
    return value
}

/// A declaration that can say what its value must be.
protocol ConstrainedDeclaration { var constraintText: String? { get } }
extension Option: ConstrainedDeclaration {}
