import DiffLabBench
import DiffLabJSON

// Options several commands declare alike: each is one declaration here, used by each command.

extension Option where Value == RegisteredEngine {
    /// One engine of the running program's registry (``EngineRegistry/current``) by name; the
    /// default is looked up there when the options are made.
    static func engine(
        _ name: String, default defaultName: String? = nil, help: @autoclosure @escaping @Sendable () -> String,
        among: @escaping @Sendable (RegisteredEngine) -> Bool = { _ in true }, details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(
            name, "NAME", default: defaultName.flatMap { try? EngineRegistry.current.engine(named: $0) }, help: help(),
            constraint: "one of: " + EngineRegistry.current.engines.filter(among).map(\.name).joined(separator: ", "),
            defaultText: defaultName, details: details()
        ) { text throws(CommandError) in try parseEngine(text) }
    }
}

extension Option where Value == [RegisteredEngine] {
    /// A comma-separated list of the registry's engines, each once (default: all of them).
    static func engines(
        _ name: String = "engines", help: @autoclosure @escaping @Sendable () -> String,
        defaultText: @autoclosure @escaping @Sendable () -> String? = "all", details: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(
            name, "LIST", help: help(), constraint: "a comma-separated list of: " + EngineRegistry.current.names, defaultText: defaultText(),
            details: details()
        ) { text throws(CommandError) in
            try deduplicated(parseList(text, "--" + name) { name throws(CommandError) in name }).map { name throws(CommandError) in
                try parseEngine(name)
            }
        }
    }
}

extension Option where Value == [BenchSubject] {
    /// A comma-separated list of the registry's benchmark subjects, each once: its engines and
    /// the pairing engines' staged forms (`<engine>-staged`).
    static func benchEngines(help: @autoclosure @escaping @Sendable () -> String, defaultText: @autoclosure @escaping @Sendable () -> String?) -> Self
    {
        Self(
            "engines", "LIST", help: help(),
            constraint: "a comma-separated list of: " + EngineRegistry.current.benchSubjects.map(\.name).joined(separator: ", "),
            defaultText: defaultText()
        ) { text throws(CommandError) in
            try deduplicated(parseList(text, "--engines") { name throws(CommandError) in name }).map { name throws(CommandError) in
                try EngineRegistry.current.benchSubject(named: name)
            }
        }
    }
}

extension Option where Value == JSONStringComparison {
    /// `--strings RULE`: how strings in identifiers and content compare.
    static var strings: Self {
        .choice(
            "strings", "RULE", default: .literal, help: "how strings in identifiers and content compare",
            details: """
                literal: code point for code point (UTF-8 bytes)
                canonical: Unicode canonical equivalence (Swift's String ==); two keys of one object that are equivalent are then an error (65)
                """)
    }
}

extension Option where Value == String {
    /// `--out FILE` (or another name): where a command writes; the path is checked by the
    /// command (``OutputFile``) when it decides to, so a bad one fails before the work.
    package static func output(
        _ name: String = "out", _ valueName: String = "FILE", default defaultValue: String? = nil, hidden: Bool = false,
        help: @autoclosure @escaping @Sendable () -> String, defaultText: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        .text(name, valueName, default: defaultValue, hidden: hidden, help: help(), defaultText: defaultText())
    }
}

extension Option where Value == [Int] {
    /// A comma-separated list of at most `most` list sizes, each in `range`: ascending, each once
    /// (``parseSizes(_:_:in:most:)``).
    static func sizes(
        _ name: String, in range: ClosedRange<Int>, most: Int, help: @autoclosure @escaping @Sendable () -> String,
        defaultText: @autoclosure @escaping @Sendable () -> String? = nil
    ) -> Self {
        Self(name, "LIST", help: help(), constraint: "at most \(most), each \(rangeText(range))", defaultText: defaultText()) {
            text throws(CommandError) in try parseSizes(text, "--" + name, in: range, most: most)
        }
    }
}

extension Option {
    /// A comma-separated list of at most ``PolicyCommand/maxListCount`` values, each read by
    /// `element` (``parseList(_:_:_:)``: no empty element).
    static func list<Element: Sendable>(
        _ name: String, help: @autoclosure @escaping @Sendable () -> String, constraint: @autoclosure @escaping @Sendable () -> String,
        defaultText: @autoclosure @escaping @Sendable () -> String? = nil, most: Int = PolicyCommand.maxListCount,
        element: @escaping @Sendable (String) throws(CommandError) -> Element
    ) -> Self where Value == [Element] {
        Self(name, "LIST", help: help(), constraint: "at most \(most), \(constraint())", defaultText: defaultText()) { text throws(CommandError) in
            let values = try parseList(text, "--" + name, element)
            guard values.count <= most else { throw .usage("--\(name) expects at most \(most) values (got \(values.count))") }
            return values
        }
    }
}
