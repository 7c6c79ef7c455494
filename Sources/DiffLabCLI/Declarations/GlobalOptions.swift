import DiffLabCore
import DiffLabFormatting

/// The options every command accepts, anywhere before `--`: the input limit and engines in other
/// processes. Declared like a command's options, so `difflab --help` lists them from these
/// declarations and they parse by the same rules.
package struct GlobalOptions: DeclaredOptions {
    let maxInputBytes = Option.integer(
        "max-input-bytes", in: InputLimit.allowedBytes, help: "with any command: the most bytes read from one input file or stream",
        defaultText: formatByteCount(InputLimit.defaultBytes))
    let engineCommand = RepeatedOption(
        "engine-command", "CMD",
        help: "with any command: an engine in another process, spoken to over the difflab-engine/1 JSON-lines protocol "
            + "(docs/engine-protocol.md), selectable by its name like a built-in"
    ) { text throws(CommandError) in
        guard !text.allSatisfy(\.isWhitespace) else { throw .usage("--engine-command needs a command, not an empty string") }
        return text
    }
    let engineName = RepeatedOption(
        "engine-name", "NAME", help: "after --engine-command: the engine's name (default: the name it gives in its hello)"
    ) { text throws(CommandError) in
        try EngineRegistry.checkName(text)
        return text
    }
    let engineTimeout = RepeatedOption(
        "engine-timeout", "SECONDS",
        help: "after --engine-command: the time limit per request, \(formatPlain(ProcessEngine.allowedTimeouts.lowerBound)) to "
            + "\(formatPlain(ProcessEngine.allowedTimeouts.upperBound)) (default \(formatPlain(ProcessEngine.defaultRequestTimeout)); "
            + "a request past it fails and the engine is restarted)"
    ) { text throws(CommandError) in try parseNumber(text, "--engine-timeout", in: ProcessEngine.allowedTimeouts) }

    package init() {}

    /// Takes the global options out of `arguments` (before any `--`; `--name value` or
    /// `--name=value`) and parses them.
    ///
    /// - Returns: the other arguments, in order, and the global options.
    /// - Throws: a usage error for a missing or refused value, or the input limit given twice.
    /// - Complexity: O(arguments).
    static func extract(_ arguments: [String]) throws(CommandError) -> ([String], Parsed<GlobalOptions>) {
        let names = declarations.map { "--" + $0.name }
        var rest: [String] = []
        var taken: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            guard let name = names.first(where: { argument == $0 || argument.hasPrefix($0 + "=") }) else {
                rest.append(argument)
                continue
            }
            taken.append(argument)
            if argument == name {
                guard index < arguments.count else { throw .usage("option '\(name)' needs a value") }
                taken.append(arguments[index])
                index += 1
            }
        }
        return (rest, try parse(taken))
    }
}

extension Parsed where Options == GlobalOptions {
    /// The global options as a worker is given them again: the input limit when not the
    /// default, and every engine option in the order given.
    var forwarded: [String] {
        occurrences.flatMap { name, raw in
            "--" + name == option(\.maxInputBytes) && self[\.maxInputBytes] == InputLimit.defaultBytes ? [] : ["--" + name, raw]
        }
    }

    /// Starts the engine of each `--engine-command`, named and timed by the `--engine-name` and
    /// `--engine-timeout` that follow it.
    ///
    /// - Throws: a usage error for a name or timeout before any command, or one given twice for
    ///   one command; a failure (exit 1) when an engine does not start.
    func startEngines() throws(CommandError) -> [RegisteredEngine] {
        var pending: [PendingEngine] = []
        let (command, name, timeout) = (option(\.engineCommand), option(\.engineName), option(\.engineTimeout))
        for (given, raw) in occurrences where "--" + given != option(\.maxInputBytes) {
            let option = "--" + given
            if option == command {
                pending.append(PendingEngine(command: raw))
                continue
            }
            guard !pending.isEmpty else { throw .usage("\(option) must follow the --engine-command it applies to") }
            if option == name {
                guard pending[pending.count - 1].name == nil else { throw .usage("--engine-name given twice for one --engine-command") }
                pending[pending.count - 1].name = raw
            } else if option == timeout {
                guard pending[pending.count - 1].timeout == nil else { throw .usage("--engine-timeout given twice for one --engine-command") }
                pending[pending.count - 1].timeout = try GlobalOptions().engineTimeout.value(raw)
            }
        }
        var engines: [RegisteredEngine] = []
        for engine in pending {
            do throws(EngineFailure) {
                let process = try ProcessEngine(
                    command: engine.command, name: engine.name, requestTimeout: engine.timeout ?? ProcessEngine.defaultRequestTimeout)
                engines.append(RegisteredEngine(process, selfTimed: true))
            } catch {
                throw CommandError(.failure, "the engine '\(engine.command)' did not start: \(error)")
            }
        }
        return engines
    }
}

extension GlobalOptions {
    /// `arguments` (global options as ``Parsed/forwarded`` gives them: option, value, ...) cut
    /// into one group per `--engine-command`: the command and the options after it.
    ///
    /// A name or timeout before any command belongs to none (``Parsed/startEngines()`` refuses it).
    static func engineGroups(_ arguments: [String]) -> [[String]] {
        let options = GlobalOptions()
        let command = "--" + options.engineCommand.name
        let others = ["--" + options.engineName.name, "--" + options.engineTimeout.name]
        var groups: [[String]] = []
        for pair in stride(from: 0, to: arguments.count - 1, by: 2) {
            let (option, value) = (arguments[pair], arguments[pair + 1])
            if option == command {
                groups.append([option, value])
            } else if others.contains(option), !groups.isEmpty {
                groups[groups.count - 1] += [option, value]
            }
        }
        return groups
    }
}

/// An `--engine-command` and the name and time limit given after it.
private struct PendingEngine {
    var command: String
    var name: String?
    var timeout: Double?
}
