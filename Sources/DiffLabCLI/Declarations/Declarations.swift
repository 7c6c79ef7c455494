import DiffLabFormatting

/// What every command-line declaration says about itself: its name, how help shows it, and how
/// one raw value becomes a typed one.
///
/// A command's options are the stored properties of its ``DeclaredOptions`` value, each one of
/// ``Option``, ``RepeatedOption``, ``Flag`` or ``Positionals``. That one declaration is the option's
/// parsing (name, value type and range), its typed storage (read back through a key path of the
/// options type, so an undeclared name does not compile) and its help line (generated, with the
/// range and default the parser enforces).
package protocol Declaration: Sendable {
    /// The name without dashes (`engine`), or, for positionals, their names (`OLD.json NEW.json`).
    var name: String { get }
    /// How the declaration appears on the command line.
    var shape: DeclarationShape { get }
    /// Not listed in the usage line nor under OPTIONS (a worker's internal option): said under
    /// the command's own prose instead.
    var isHidden: Bool { get }
    /// The full help text: what the option does, then `(range; default D)`, then details.
    var helpText: String { get }
    /// The command fails without it (a usage error naming it).
    var isRequired: Bool { get }
    /// One raw value as the typed value the declaration reads to.
    ///
    /// - Throws: a usage error naming the option, what it expects and what was given.
    func parseRaw(_ text: String) throws(CommandError) -> any Sendable
}

extension Declaration {
    package var isRequired: Bool { false }
}

/// How a declaration appears on the command line.
package enum DeclarationShape: Sendable, Equatable {
    /// `--name VALUE`, at most once.
    case valued(String)
    /// `--name VALUE`, any number of times.
    case repeated(String)
    /// `--name`.
    case flag
    /// Files or words after the options, `count` of them.
    case positionals(ClosedRange<Int>)
}

/// An option with a value, given at most once: `--name VALUE` or `--name=VALUE`.
///
/// Read as `parsed[\.name]`: the given value, else the declared default, else `nil`.
package struct Option<Value: Sendable>: Declaration {
    package let name: String
    /// The value's placeholder in help (`N`, `SECONDS`, `LIST`).
    package let valueName: String
    /// The value when the option is not given; `nil` when absence means something of its own.
    package let defaultValue: Value?
    package let isHidden: Bool
    package private(set) var isRequired = false
    private let help: @Sendable () -> String
    private let constraint: @Sendable () -> String?
    private let defaultText: @Sendable () -> String?
    private let details: @Sendable () -> String?
    private let parse: @Sendable (String) throws(CommandError) -> Value

    /// An option; see the typed constructors (``integer(_:_:in:default:hidden:help:details:)`` and
    /// the others) for the common kinds.
    ///
    /// - Parameters:
    ///   - constraint: what a value must be, shown in help (`1 to 256`, `one of: a, b`).
    ///   - defaultText: the default as help shows it, when it is not just `defaultValue`
    ///     (`all`, `10 when --cases is not given`).
    ///   - details: text after the first line of help (more paragraphs, separated by `\n`).
    package init(
        _ name: String, _ valueName: String, default defaultValue: Value? = nil, hidden: Bool = false,
        help: @autoclosure @escaping @Sendable () -> String, constraint: @autoclosure @escaping @Sendable () -> String? = nil,
        defaultText: @autoclosure @escaping @Sendable () -> String? = nil, details: @autoclosure @escaping @Sendable () -> String? = nil,
        parse: @escaping @Sendable (String) throws(CommandError) -> Value
    ) {
        self.name = name
        self.valueName = valueName
        self.defaultValue = defaultValue
        self.isHidden = hidden
        self.help = help
        self.constraint = constraint
        self.defaultText = defaultText
        self.details = details
        self.parse = parse
    }

    package var shape: DeclarationShape { .valued(valueName) }
    package var helpText: String { declarationHelp(help(), constraint(), defaultHelp, details()) }
    /// The default as help shows it (after `default `), if it shows one.
    package var defaultHelp: String? { defaultText() ?? defaultValue.map { "\($0)" } }
    /// What a value must be, as help says it (`1 to 256`), if anything.
    package var constraintText: String? { constraint() }
    /// The same option, which the command cannot run without.
    package func required() -> Self {
        var copy = self
        copy.isRequired = true
        return copy
    }
    package func parseRaw(_ text: String) throws(CommandError) -> any Sendable { try parse(text) }
    /// The typed value of `text`.
    package func value(_ text: String) throws(CommandError) -> Value { try parse(text) }
}

/// An option with a value that may be given any number of times (`--engine-command A
/// --engine-command B`). Read as `parsed[\.name]`: every value, in the order given.
package struct RepeatedOption<Value: Sendable>: Declaration {
    package let name: String
    package let valueName: String
    package let isHidden: Bool
    private let help: @Sendable () -> String
    private let details: @Sendable () -> String?
    private let parse: @Sendable (String) throws(CommandError) -> Value

    /// A repeatable option.
    package init(
        _ name: String, _ valueName: String, hidden: Bool = false, help: @autoclosure @escaping @Sendable () -> String,
        details: @autoclosure @escaping @Sendable () -> String? = nil, parse: @escaping @Sendable (String) throws(CommandError) -> Value
    ) {
        self.name = name
        self.valueName = valueName
        self.isHidden = hidden
        self.help = help
        self.details = details
        self.parse = parse
    }

    package var shape: DeclarationShape { .repeated(valueName) }
    package var helpText: String { declarationHelp(help(), "may be repeated", nil, details()) }
    package func parseRaw(_ text: String) throws(CommandError) -> any Sendable { try parse(text) }
    /// The typed value of `text`.
    package func value(_ text: String) throws(CommandError) -> Value { try parse(text) }
}

/// An option without a value: `--name`. Read as `parsed[\.name]`: whether it was given.
package struct Flag: Declaration {
    package let name: String
    package let isHidden: Bool
    private let help: @Sendable () -> String
    private let details: @Sendable () -> String?

    /// A flag.
    package init(
        _ name: String, hidden: Bool = false, help: @autoclosure @escaping @Sendable () -> String,
        details: @autoclosure @escaping @Sendable () -> String? = nil
    ) {
        self.name = name
        self.isHidden = hidden
        self.help = help
        self.details = details
    }

    package var shape: DeclarationShape { .flag }
    package var helpText: String { declarationHelp(help(), nil, nil, details()) }
    package func parseRaw(_ text: String) throws(CommandError) -> any Sendable { true }
}

/// The words after the options: `count` of them, named in help by `names` (`OLD.json NEW.json`,
/// `[PATH...]`). Read as `parsed[\.name]`: the words, in order. A command declares at most one.
package struct Positionals: Declaration {
    /// The names as the usage line shows them.
    package let name: String
    /// How many may be given.
    package let count: ClosedRange<Int>
    /// The usage error for a wrong count, given the count.
    private let countError: @Sendable (Int) -> String
    package var isHidden: Bool { false }

    /// Positionals named `names` in the usage line; a count outside `count` is a usage error with
    /// `message(count)`.
    package init(_ names: String, count: ClosedRange<Int>, message: @escaping @Sendable (Int) -> String) {
        self.name = names
        self.count = count
        self.countError = message
    }

    package var shape: DeclarationShape { .positionals(count) }
    package var helpText: String { "" }
    package func parseRaw(_ text: String) throws(CommandError) -> any Sendable { text }
    /// The error for `given` words.
    func check(_ given: Int) throws(CommandError) {
        guard count.contains(given) else { throw .usage(countError(given)) }
    }
}

/// `help`, then `(constraint; default D)` when either is known, then the details on lines of
/// their own.
private func declarationHelp(_ help: String, _ constraint: String?, _ defaultText: String?, _ details: String?) -> String {
    let notes = [constraint, defaultText.map { "default \($0)" }].compactMap { $0 }
    let first = notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
    return details.map { first + "\n" + $0 } ?? first
}

// MARK: - The common kinds of option

extension Option where Value == Int {
    /// A decimal integer in `range` (see ``parseInteger(_:_:in:)``).
    package static func integer(
        _ name: String, _ valueName: String = "N", in range: ClosedRange<Int>, default defaultValue: Int? = nil, hidden: Bool = false,
        help: @autoclosure @escaping @Sendable () -> String, defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(
            name, valueName, default: defaultValue, hidden: hidden, help: help(), constraint: rangeText(range), defaultText: defaultText(),
            details: details()
        ) { text throws(CommandError) in try parseInteger(text, "--" + name, in: range) }
    }
}

extension Option where Value == Double {
    /// A finite decimal number in `range` (see ``parseNumber(_:_:in:)``).
    package static func number(
        _ name: String, _ valueName: String = "N", in range: ClosedRange<Double>, default defaultValue: Double? = nil,
        help: @autoclosure @escaping @Sendable () -> String, defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(
            name, valueName, default: defaultValue, help: help(), constraint: rangeText(range),
            defaultText: defaultText() ?? defaultValue.map(formatPlain), details: details()
        ) { text throws(CommandError) in try parseNumber(text, "--" + name, in: range) }
    }
}

extension Option where Value == UInt64 {
    /// A seed, 0 to 2^64 - 1 (see ``parseSeed(_:_:)``).
    package static func seed(
        _ name: String = "seed", default defaultValue: UInt64?, help: @autoclosure @escaping @Sendable () -> String = "the seed",
        details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(name, "S", default: defaultValue, help: help(), constraint: "0 to 2^64 - 1", details: details()) { text throws(CommandError) in
            try parseSeed(text, "--" + name)
        }
    }
}

extension Option where Value == String {
    /// Any text; `check` may refuse some.
    package static func text(
        _ name: String, _ valueName: String, default defaultValue: String? = nil, hidden: Bool = false,
        help: @autoclosure @escaping @Sendable () -> String, defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        details: @autoclosure @escaping @Sendable () -> String? = nil,
        check: @escaping @Sendable (String) throws(CommandError) -> Void = { _ throws(CommandError) in }
    ) -> Self {
        Self(name, valueName, default: defaultValue, hidden: hidden, help: help(), defaultText: defaultText(), details: details()) {
            text throws(CommandError) in
            try check(text)
            return text
        }
    }
}

extension Option where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of `Value`'s cases by name.
    package static func choice(
        _ name: String, _ valueName: String, default defaultValue: Value? = nil, help: @autoclosure @escaping @Sendable () -> String,
        details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(
            name, valueName, default: defaultValue, help: help(),
            constraint: "one of: " + Value.allCases.map(\.rawValue).joined(separator: ", "),
            defaultText: defaultValue?.rawValue, details: details()
        ) { text throws(CommandError) in
            guard let value = Value(rawValue: text) else {
                throw .usage("--\(name) expects one of: \(Value.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(text)')")
            }
            return value
        }
    }
}

extension Option {
    /// A comma-separated list of names of `Element`'s cases, each once (a repeated name means it
    /// once), e.g. `--profiles small-edit,reverse`.
    package static func names<Element: CaseIterable & RawRepresentable & Hashable & Sendable>(
        _ name: String, _ valueName: String = "LIST", noun: String, default defaultValue: [Element]? = nil,
        help: @autoclosure @escaping @Sendable () -> String, defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self where Value == [Element], Element.RawValue == String {
        Self(
            name, valueName, default: defaultValue, help: help(),
            constraint: "a comma-separated list of: " + Element.allCases.map(\.rawValue).joined(separator: ", "),
            defaultText: defaultText() ?? defaultValue.map { $0.map(\.rawValue).joined(separator: ",") }, details: details()
        ) { text throws(CommandError) in
            deduplicated(try parseNames(text, "--" + name, noun))
        }
    }
}

/// A default that `--quick` changes: one value for a full run and one for a quick run, declared
/// once and read by both the command (``value(quick:)``) and its help (``text(_:)``), so help
/// cannot restate a default the code no longer has.
struct QuickDefault<Value: Sendable>: Sendable {
    /// Without `--quick`.
    let full: Value
    /// With `--quick`.
    let quick: Value

    /// The value of a run with or without `--quick`.
    func value(quick isQuick: Bool) -> Value { isQuick ? quick : full }

    /// `5; --quick 3`: both values as help shows a default, each written by `format`.
    func text(_ format: (Value) -> String) -> String { "\(format(full)); --quick \(format(quick))" }
}

extension QuickDefault where Value == Int {
    /// `5; --quick 3`.
    var text: String { text { String($0) } }
}

extension QuickDefault where Value == Double {
    /// `30; --quick 1.5`, each number as ``formatPlain(_:)`` writes it (as it parses back).
    var text: String { text(formatPlain) }
}

extension QuickDefault where Value == [Int] {
    /// `1000,10000; --quick 1000`: list sizes as `--sizes` takes them.
    var text: String { text(sizesText) }
}

/// `1000,10000,100000`: list sizes as `--sizes` takes them.
func sizesText(_ sizes: [Int]) -> String { sizes.map(String.init).joined(separator: ",") }

/// `a`, `a and b`, `a, b and c`: names as a sentence lists them (help's defaults).
func proseList(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
}

/// `0.001 to 60`: a range of numbers as help shows it.
func rangeText(_ range: ClosedRange<Double>) -> String { "\(formatPlain(range.lowerBound)) to \(formatPlain(range.upperBound))" }

/// `1 to 256`, `at least 1`: a range as help shows it.
func rangeText(_ range: ClosedRange<Int>) -> String {
    range.upperBound == Int.max
        ? "at least \(formatPlain(Double(range.lowerBound)))"
        : "\(formatPlain(Double(range.lowerBound))) to \(formatPlain(Double(range.upperBound)))"
}
