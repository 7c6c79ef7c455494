import DiffLabCore
import DiffLabProcess

/// The `difflab` command line: dispatches to a subcommand and turns every error into one line on
/// standard error and an exit status. Never traps on user input.
public enum DiffLabCommand {
    /// The version printed by `difflab --version`.
    public static let version = "0.1.0"

    static let help = """
        USAGE: difflab <command> [options]

        DiffLab: a performance lab and fuzzing harness for list-diffing engines.

        COMMANDS
          diff OLD.json NEW.json   diff two lists with any engine (see: difflab diff --help)
          validate UPDATE.json     check a batch update against UIKit's rules
          stages OLD.json NEW.json split a sectioned diff into valid batch-update stages
          fuzz [options]           property-based fuzzing of every engine (see: difflab fuzz --help)
          replay [PATH...]         re-run saved counterexamples (default Corpus/regressions)
          coverage TRACEFILE       line coverage of a fuzzing run, every line not reached
          bench [options]          time the engines on generated datasets (see: difflab bench --help)
          policy [options]         which diffing policy, move strategy and thresholds: a scenario grid
          gate [options]           regression gate: this build against a baseline (see: difflab gate --help)
          mutate [options]         mutation testing: plant catalogued bugs, count those the fuzzer kills
          report RESULTS.json...   a markdown report with SVG plots from bench and policy results
          export RESULTS.json      a bench results file as github-action-benchmark, Bencher or CSV
          merge PART.json...       join the parts of a sharded bench run (bench --shard K/N)
          arena [options]          judge engines side by side: fuzz each, bench all (see: difflab arena --help)
          help [COMMAND]           show this help, or a command's

        Also: measure (the regression gate's worker; see difflab help measure).

        OPTIONS
          -h, --help               show this help
          --version                print the version
          --max-input-bytes N      with any command: the most bytes read from one input file or
                                   stream (default 64 MiB; 1 to 64 GiB)
          --engine-command CMD     with any command: an engine in another process, spoken to over
                                   the difflab-engine/1 JSON-lines protocol (docs/engine-protocol.md),
                                   selectable by its name like a built-in; may be repeated
          --engine-name NAME       after --engine-command: the engine's name (default: the name
                                   it gives in its hello)
          --engine-timeout SECONDS after --engine-command: the time limit per request (default 10;
                                   a request past it fails and the engine is restarted)

        EXIT STATUS
          0 success, 1 check failed (validate, fuzz, replay; bench when an engine failed) or
          error (gate), 2 regression (gate), 4 improvement only (gate), 64 bad command line,
          65 bad input data, 66 input file unreadable, 73 output file cannot be written (not a
          regular file, or unwritable); 128+N when ended by signal N (workers stopped, temporary
          files removed)
        """

    /// One subcommand: its name, its help text and what runs it.
    struct Subcommand: Sendable {
        var name: String
        /// The help text, computed when asked (it lists the registered engines).
        var help: @Sendable () -> String
        var run: @Sendable ([String], Console) throws(CommandError) -> ExitStatus
    }

    /// Every subcommand, in the order of the help text. `help NAME`, `NAME --help` and dispatch all
    /// read this one list.
    static let commands: [Subcommand] = [
        Subcommand(name: "diff", help: { DiffCommand.help }) { arguments, console throws(CommandError) in
            try DiffCommand.run(arguments, console: console)
            return .success
        },
        Subcommand(name: "validate", help: { ValidateCommand.help }) { arguments, console throws(CommandError) in
            try ValidateCommand.run(arguments, console: console)
        },
        Subcommand(name: "stages", help: { StagesCommand.help }) { arguments, console throws(CommandError) in
            try StagesCommand.run(arguments, console: console)
            return .success
        },
        Subcommand(name: "fuzz", help: { FuzzCommand.help }) { arguments, console throws(CommandError) in
            try FuzzCommand.run(arguments, console: console)
        },
        Subcommand(name: "replay", help: { ReplayCommand.help }) { arguments, console throws(CommandError) in
            try ReplayCommand.run(arguments, console: console)
        },
        Subcommand(name: "coverage", help: { CoverageCommand.help }) { arguments, console throws(CommandError) in
            try CoverageCommand.run(arguments, console: console)
        },
        Subcommand(name: "bench", help: { BenchCommand.help }) { arguments, console throws(CommandError) in
            try BenchCommand.run(arguments, console: console)
        },
        Subcommand(name: "policy", help: { PolicyCommand.help }) { arguments, console throws(CommandError) in
            try PolicyCommand.run(arguments, console: console)
        },
        Subcommand(name: "gate", help: { GateCommand.help }) { arguments, console throws(CommandError) in
            try GateCommand.run(arguments, console: console)
        },
        Subcommand(name: "mutate", help: { MutateCommand.help }) { arguments, console throws(CommandError) in
            try MutateCommand.run(arguments, console: console)
        },
        Subcommand(name: "measure", help: { MeasureCommand.help }) { arguments, console throws(CommandError) in
            try MeasureCommand.run(arguments, console: console)
        },
        Subcommand(name: "report", help: { ReportCommand.help }) { arguments, console throws(CommandError) in
            try ReportCommand.run(arguments, console: console)
        },
        Subcommand(name: "export", help: { ExportCommand.help }) { arguments, console throws(CommandError) in
            try ExportCommand.run(arguments, console: console)
        },
        Subcommand(name: "merge", help: { MergeCommand.help }) { arguments, console throws(CommandError) in
            try MergeCommand.run(arguments, console: console)
        },
        Subcommand(name: "arena", help: { ArenaCommand.help }) { arguments, console throws(CommandError) in
            try ArenaCommand.run(arguments, console: console)
        },
    ]

    /// Runs `difflab` with `arguments` (without the program name), the engines of `registry`
    /// selectable by name.
    ///
    /// - Returns: the exit status.
    public static func run(_ arguments: [String], console: Console = .standard, registry: EngineRegistry = .builtIns) -> Int32 {
        do throws(CommandError) {
            let (rest, limit) = try extractInputLimit(arguments)
            let forwarded = limit == InputLimit.defaultBytes ? [] : ["--max-input-bytes", String(limit)]
            let result = InputLimit.$bytes.withValue(limit) { () -> Result<ExitStatus, CommandError> in
                let extracted = Result { () throws(CommandError) in try extractEngineCommands(rest) }
                guard case .success(let (commandArguments, engines, engineOptions)) = extracted else {
                    return extracted.map { _ in .success }
                }
                let extended: EngineRegistry
                do throws(CommandError) { extended = try EngineRegistry(registry.engines + engines) } catch {
                    return .failure(error)
                }
                return EngineRegistry.$current.withValue(extended) {
                    $forwardedArguments.withValue(forwarded + engineOptions) {
                        Result { () throws(CommandError) -> ExitStatus in try dispatch(commandArguments, console: console) }
                    }
                }
            }
            return try result.get().rawValue
        } catch {
            console.err("\(programName): \(errorText(helpText(error.message, program: programName)))\n")
            if error.status == .usage { console.err("Run '\(programName) --help' for usage.\n") }
            return error.status.rawValue
        }
    }

    /// The global options a worker this process starts (``runSelf(_:environment:)``) must be
    /// given again: the input limit and out-of-process engines.
    @TaskLocal static var forwardedArguments: [String] = []

    /// The `--engine-command` option (with its `--engine-name` and `--engine-timeout`) that
    /// started the out-of-process engine `name` in this run, or none. The engines of
    /// `--engine-command` options are registered last, in the order of the options
    /// (``run(_:console:registry:)``), so the k-th group of options started the k-th of the
    /// registry's last engines.
    static func engineArguments(named name: String) -> [String] {
        var groups: [[String]] = []
        var index = 0
        let forwarded = forwardedArguments
        while index + 1 < forwarded.count {
            let (option, value) = (forwarded[index], forwarded[index + 1])
            index += 2
            if option == "--engine-command" {
                groups.append([option, value])
            } else if option.hasPrefix("--engine-"), !groups.isEmpty {
                groups[groups.count - 1] += [option, value]
            }
        }
        let names = EngineRegistry.current.engines.suffix(groups.count).map(\.name)
        return zip(names, groups).first { $0.0 == name }?.1 ?? []
    }

    /// Takes the global out-of-process engine options out of `arguments` (before any `--`) and
    /// starts each engine: `--engine-command CMD` starts one (see ``ProcessEngine``), and an
    /// `--engine-name NAME` or `--engine-timeout SECONDS` after it names it or sets its time limit
    /// per request. Each may be given as `--option value` or `--option=value`; several engines may
    /// be given.
    ///
    /// - Returns: the other arguments, the engines (self-timed) and the options to forward to
    ///   workers.
    /// - Throws: a usage error for a missing value, a name or timeout without a command before it,
    ///   or one given twice for the same command; a failure (exit 1) when an engine does not start.
    static func extractEngineCommands(_ arguments: [String]) throws(CommandError) -> ([String], [RegisteredEngine], [String]) {
        struct Pending {
            var command: String
            var name: String?
            var timeout: Double?
        }
        var rest: [String] = []
        var pending: [Pending] = []
        var forwarded: [String] = []
        var index = 0
        let options = ["--engine-command", "--engine-name", "--engine-timeout"]
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            guard let option = options.first(where: { argument == $0 || argument.hasPrefix($0 + "=") }) else {
                rest.append(argument)
                continue
            }
            let value: String
            if argument == option {
                guard index < arguments.count else { throw .usage("option '\(option)' needs a value") }
                value = arguments[index]
                index += 1
            } else {
                value = String(argument.dropFirst(option.count + 1))
            }
            forwarded += [option, value]
            if option == "--engine-command" {
                guard !value.allSatisfy(\.isWhitespace) else { throw .usage("--engine-command needs a command, not an empty string") }
                pending.append(Pending(command: value))
                continue
            }
            guard !pending.isEmpty else { throw .usage("\(option) must follow the --engine-command it applies to") }
            if option == "--engine-name" {
                guard pending[pending.count - 1].name == nil else { throw .usage("--engine-name given twice for one --engine-command") }
                try EngineRegistry.checkName(value)
                pending[pending.count - 1].name = value
            } else {
                guard pending[pending.count - 1].timeout == nil else { throw .usage("--engine-timeout given twice for one --engine-command") }
                pending[pending.count - 1].timeout = try parseNumber(value, "--engine-timeout", in: ProcessEngine.allowedTimeouts)
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
        return (rest, engines, forwarded)
    }

    /// Takes the global `--max-input-bytes N` (or `=N`) out of `arguments` (before any `--`).
    ///
    /// - Throws: a usage error for a missing or out-of-range value, or the option given twice.
    static func extractInputLimit(_ arguments: [String]) throws(CommandError) -> ([String], Int) {
        var rest: [String] = []
        var limit: Int?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            let option = "--max-input-bytes"
            guard argument == option || argument.hasPrefix(option + "=") else {
                rest.append(argument)
                continue
            }
            guard limit == nil else { throw .usage("option '\(option)' given twice") }
            let text: String
            if argument == option {
                guard index < arguments.count else { throw .usage("option '\(option)' needs a value") }
                text = arguments[index]
                index += 1
            } else {
                text = String(argument.dropFirst(option.count + 1))
            }
            limit = try parseInteger(text, option, in: InputLimit.allowedBytes)
        }
        return (rest, limit ?? InputLimit.defaultBytes)
    }

    /// Runs the command `arguments` name (without the global options), its help texts naming
    /// `program` (``helpText(_:program:)``).
    static func dispatch(_ arguments: [String], console: Console, program: String = programName) throws(CommandError) -> ExitStatus {
        guard let command = arguments.first else {
            console.err(helpText(help, program: program) + "\n")
            throw .usage("no command given")
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help":
            console.out(helpText(help, program: program) + "\n")
        case "help":
            guard rest.count <= 1 else { throw .usage("help takes at most one command name") }
            guard let name = rest.first else {
                console.out(helpText(help, program: program) + "\n")
                return .success
            }
            guard let subcommand = commands.first(where: { $0.name == name }) else {
                throw .usage("no help for unknown command '\(name)' (commands: \(commands.map(\.name).joined(separator: ", ")))")
            }
            console.out(helpText(subcommand.help(), program: program) + "\n")
        case "--version":
            console.out("difflab \(version)\n")
        default:
            guard let subcommand = commands.first(where: { $0.name == command }) else {
                throw .usage("unknown command '\(command)'")
            }
            return try subcommand.run(rest, naming(console, program: program, asked: rest))
        }
        return .success
    }

    /// `console`, or, when `arguments` ask a command for its help (`-h` or `--help` before any
    /// `--`) and `program` is not `difflab`, `console` with the help text the command prints (it
    /// starts `USAGE: `) naming `program`. Each command prints its own help.
    private static func naming(_ console: Console, program: String, asked arguments: [String]) -> Console {
        guard program != "difflab", arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) else {
            return console
        }
        var named = console
        named.out = { text in console.out(text.hasPrefix("USAGE: ") ? helpText(text, program: program) : text) }
        return named
    }

    /// `text`, a help text (or a message pointing to one) written for `difflab`, for the program
    /// running as `program` (a package's own runner, e.g. `custom-difflab`): the program word of
    /// its usage lines (`USAGE: difflab fuzz ...`, and the other forms under it up to the first
    /// blank line, their continued lines realigned) and of its pointers to help (`difflab help NAME`, `difflab COMMAND ... --help`,
    /// `difflab --help`). Other mentions stay as they are: they name DiffLab, its protocols
    /// (`difflab-engine/1`) or the `difflab` binary a gate or mutation run builds.
    ///
    /// - Complexity: O(text).
    static func helpText(_ text: String, program: String) -> String {
        guard program != "difflab" else { return text }
        let usageIndent = "USAGE: ".count
        var inUsage = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " }
            let body = line.dropFirst(indent.count)
            if body.isEmpty { inUsage = false }
            if body.hasPrefix("USAGE: difflab ") {
                inUsage = true
                return String(indent) + "USAGE: " + program + renamingHelpPointers(body.dropFirst("USAGE: difflab".count), program)
            }
            if inUsage && body.hasPrefix("difflab ") {
                return String(indent) + program + renamingHelpPointers(body.dropFirst("difflab".count), program)
            }
            if inUsage && indent.count > usageIndent {
                // A form's options continued under it, aligned past the program word: keep them so.
                let shifted = max(usageIndent + 1, indent.count + program.count - "difflab".count)
                return String(repeating: " ", count: shifted) + renamingHelpPointers(body, program)
            }
            return renamingHelpPointers(line, program)
        }
        return lines.joined(separator: "\n")
    }

    /// `line` with `program` for the word `difflab` where it starts a pointer to help: `difflab
    /// help`, or `difflab` and up to four words of lower-case letters, digits and `-` among which
    /// `--help` (`difflab policy --real-time --help`).
    private static func renamingHelpPointers(_ line: Substring, _ program: String) -> String {
        let word = "difflab"
        var result = ""
        var rest = line[...]
        while let found = rest.firstRange(of: word) {
            let before = rest[..<found.lowerBound].last ?? result.last
            let standsAlone = before.map { !($0.isLetter || $0.isNumber || "-_./".contains($0)) } ?? true
            var words: [Substring] = []
            var cursor = found.upperBound
            while words.count < 4, cursor < rest.endIndex, rest[cursor] == " " {
                let start = rest.index(after: cursor)
                let end = rest[start...].firstIndex { !($0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-")) } ?? rest.endIndex
                guard end > start else { break }
                words.append(rest[start..<end])
                cursor = end
            }
            let pointer = standsAlone && (words.first == "help" || words.contains("--help"))
            result += rest[..<found.lowerBound] + (pointer ? program : word)
            rest = rest[found.upperBound...]
        }
        return result + rest
    }
}

extension DiffLabCommand {
    /// Makes SIGINT, SIGTERM and SIGHUP stop the run cleanly: workers stopped, temporary files and
    /// folders removed, no partial output (see ``Cleanup``). The `difflab` executable calls this
    /// once, first thing; a program embedding the CLI may too.
    static func installSignalHandling() { Cleanup.installSignalHandling() }
}

/// `message` for standard error: its first line as ``oneLine(_:)``, then the lines it quotes from
/// another program (an engine's standard error: each starts with ``quotedLinePrefix``, see
/// ``quotedLines(_:limit:cut:)``) on lines of their own, indented, made harmless again, at most
/// ``maxQuotedLines`` of at most 1,000 characters (a `…` line or a `…` marks a cut). Any other line
/// break stays escaped: an error is one line of DiffLab's, and quotes.
func errorText(_ message: String) -> String {
    let marker = quotedLinePrefix.dropFirst()
    var lines: [String] = []
    for part in message.split(separator: "\n", omittingEmptySubsequences: false) {
        if lines.isEmpty || part.hasPrefix(marker) {
            lines.append(String(part))
        } else {
            lines[lines.count - 1] += "\n" + part
        }
    }
    let quotes = lines.dropFirst().prefix(maxQuotedLines).map { line in
        let harmless = harmlessLine(line)
        return "\n" + (harmless.count > 1_000 ? String(harmless.prefix(1_000)) + "…" : harmless)
    }
    return oneLine(lines.first ?? "") + quotes.joined() + (lines.count - 1 > maxQuotedLines ? quotedLinePrefix + "…" : "")
}

/// The most quoted lines ``errorText(_:)`` prints.
let maxQuotedLines = 100
