/// The command line of one of DiffLab's own commands, for a process this one starts (a bench
/// worker, an arena's fuzz run, a gate's `measure` worker, a mutant's fuzz run): built through the
/// command's declarations, so a renamed option cannot leave a stale name behind.
///
/// ```swift
/// var line = CommandArguments<FuzzCommand.Options>("fuzz")
/// line.add(\.seconds, "10")
/// line.add(\.json)
/// line.arguments  // ["fuzz", "--seconds", "10", "--json"]
/// ```
package struct CommandArguments<Options: DeclaredOptions> {
    /// The command's words, then each option added, in order.
    package private(set) var arguments: [String]

    /// A command line starting with the command's `words` (`fuzz`, `policy real-time`).
    package init(_ words: String) {
        arguments = words.split(separator: " ").map(String.init)
    }

    /// Adds `--name value` for the option `key` names.
    package mutating func add<Value>(_ key: KeyPath<Options, Option<Value>>, _ value: String) {
        arguments += ["--" + Options()[keyPath: key].name, value]
    }

    /// Adds `--name value` when `value` is given.
    package mutating func add<Value>(_ key: KeyPath<Options, Option<Value>>, ifGiven value: String?) {
        if let value { add(key, value) }
    }

    /// Adds the flag `key` names.
    package mutating func add(_ key: KeyPath<Options, Flag>) {
        arguments.append("--" + Options()[keyPath: key].name)
    }

    /// Adds `words` as they are (positionals, or arguments handed on unchanged).
    package mutating func append(_ words: [String]) {
        arguments += words
    }
}
