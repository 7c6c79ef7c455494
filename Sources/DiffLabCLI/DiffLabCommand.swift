import DiffLabCore
import DiffLabProcess

/// The `difflab` command line: dispatches to a subcommand and turns every error into one line on
/// standard error and an exit status. Never traps on user input.
public enum DiffLabCommand {
    /// The version printed by `difflab --version`.
    public static let version = "0.1.0"

    /// The prose of `difflab --help`; the usage line, the commands and the options are generated.
    static let discussion = "DiffLab: a performance lab and fuzzing harness for list-diffing engines."

    /// `difflab --help`'s last section.
    static let epilogue = """
        EXIT STATUS
          0 success, 1 check failed (validate, fuzz, updaters, replay; bench when an engine failed) or
          error (gate), 2 regression (gate), 4 improvement only (gate), 64 bad command line,
          65 bad input data, 66 input file unreadable, 73 output file cannot be written (not a
          regular file, or unwritable); 128+N when ended by signal N (workers stopped, temporary
          files removed)
        """

    /// The top-level help: usage, the commands (each with its words and what it does), the
    /// global options (declared in ``GlobalOptions``), the exit statuses.
    static func help(commands: [Subcommand] = commands, tool: String = "difflab") -> String {
        var rows: [(String, String)] = []
        for command in commands where !command.hidden {
            rows.append((command.synopsis, command.abstract))
            rows += command.subcommands.map { ($0.synopsis, $0.abstract) }
        }
        rows.append(("help [COMMAND]", "show this help, or a command's"))
        let column = min(26, rows.map(\.0.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: column)
        let list = rows.map { synopsis, abstract in
            let lines = wrapped(abstract, width: helpWidth - 2 - column)
            let head =
                synopsis.count + 1 < column
                ? synopsis + String(repeating: " ", count: column - synopsis.count) + lines[0]
                : synopsis + "\n  " + indent + lines[0]
            return "  " + ([head] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n  ")
        }
        let hiddenNote = commands.filter(\.hidden).map { "Also: \($0.name) (\($0.abstract); see \(tool) help \($0.name))." }
        let version = Flag("version", help: "print the version")
        return """
            USAGE: \(tool) <command> [options]

            \(discussion)

            COMMANDS
            \(list.joined(separator: "\n"))
            \(hiddenNote.isEmpty ? "" : "\n" + hiddenNote.joined(separator: "\n") + "\n")
            OPTIONS
            \(optionsSection([helpDeclaration, version] + GlobalOptions.declarations))

            \(epilogue)
            """
    }

    /// One subcommand: its name, its help and what runs it, all from its ``DeclaredCommand``.
    package struct Subcommand: Sendable {
        /// The words that select it (`diff`, `policy real-time`).
        package var name: String
        /// What it does, for the list of commands.
        var abstract: String
        /// Its words and positionals for the list of commands (`diff OLD.json NEW.json`,
        /// `fuzz [options]`).
        var synopsis: String
        /// Left out of the list of commands (the gate's worker, `measure`).
        var hidden: Bool
        /// The help text, computed when asked (it lists the registered engines).
        package var help: @Sendable () -> String
        /// Its declarations, and how many stored properties its options have (a test checks
        /// the two agree).
        package var declarations: @Sendable () -> [any Declaration]
        package var storedPropertyCount: @Sendable () -> Int
        /// Commands under it, selected by the next word (`policy real-time`).
        package var subcommands: [Subcommand]
        var run: @Sendable ([String], Console) throws(CommandError) -> ExitStatus

        /// The subcommand `command` declares.
        package init<Command: DeclaredCommand>(_ command: Command.Type, hidden: Bool = false, subcommands: [Subcommand] = []) {
            name = Command.name
            abstract = Command.abstract
            let words = Command.Options.declarations.first { $0.shape.isPositionals }?.name
            synopsis = Command.name + " " + (words ?? "[options]")
            self.hidden = hidden
            help = { Command.help }
            declarations = { Command.Options.declarations }
            storedPropertyCount = { Command.Options.storedPropertyCount }
            self.subcommands = subcommands
            run = { arguments, console throws(CommandError) in
                if let word = arguments.first, let sub = subcommands.first(where: { $0.name == Command.name + " " + word }) {
                    return try sub.run(Array(arguments.dropFirst()), console)
                }
                return try Command.main(arguments, console: console)
            }
        }

        /// This command and those under it, depth first.
        package var all: [Subcommand] { [self] + subcommands.flatMap(\.all) }
    }

    /// Every subcommand of `difflab`, in the order of the help text. `help NAME`, `NAME --help`,
    /// dispatch and the command-line reference all read this one list.
    package static let commands: [Subcommand] = [
        Subcommand(DiffCommand.self),
        Subcommand(ValidateCommand.self),
        Subcommand(StagesCommand.self),
        Subcommand(FuzzCommand.self),
        Subcommand(ReplayCommand.self),
        Subcommand(UpdatersCommand.self),
        Subcommand(
            TraceCommand.self,
            subcommands: [Subcommand(TraceFolderCommand.self), Subcommand(TraceLinesCommand.self), Subcommand(TraceGitCommand.self)]),
        Subcommand(BenchCommand.self),
        Subcommand(PolicyCommand.self, subcommands: [Subcommand(PolicyRealTimeCommand.self)]),
        Subcommand(GateCommand.self),
        Subcommand(ReportCommand.self),
        Subcommand(ExportCommand.self),
        Subcommand(MergeCommand.self),
        Subcommand(ArenaCommand.self),
        Subcommand(MeasureCommand.self, hidden: true),
    ]

    /// Runs `difflab` with `arguments` (without the program name), the engines of `registry`
    /// selectable by name.
    ///
    /// - Returns: the exit status.
    public static func run(_ arguments: [String], console: Console = .standard, registry: EngineRegistry = .builtIns) -> Int32 {
        run(arguments, console: console, registry: registry, commands: commands)
    }

    /// Runs a command line of `commands` (`difflab`'s, or `difflab-dev`'s) with `arguments`.
    package static func run(
        _ arguments: [String], console: Console, registry: EngineRegistry, commands: [Subcommand], tool: String = "difflab"
    ) -> Int32 {
        do throws(CommandError) {
            let (rest, global) = try GlobalOptions.extract(arguments)
            let limit = global[\.maxInputBytes] ?? InputLimit.defaultBytes
            let result = InputLimit.$bytes.withValue(limit) { () -> Result<ExitStatus, CommandError> in
                let started = Result { () throws(CommandError) in try global.startEngines() }
                guard case .success(let engines) = started else { return started.map { _ in .success } }
                let extended: EngineRegistry
                do throws(CommandError) { extended = try EngineRegistry(registry.engines + engines, updaters: registry.updaters) } catch {
                    return .failure(error)
                }
                return EngineRegistry.$current.withValue(extended) {
                    $forwardedArguments.withValue(global.forwarded) {
                        Result { () throws(CommandError) -> ExitStatus in try dispatch(rest, console: console, commands: commands, tool: tool) }
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

    /// The global options a worker that runs the one engine `name` needs: the input limit when
    /// given, and that engine's own `--engine-command` group when it runs in another process.
    /// Forwarding every such engine to every worker would start them all in each, and the
    /// arguments a worker parses would then depend on the rest of the run.
    static func workerGlobals(for name: String) -> [String] {
        let forwarded = forwardedArguments
        let limit = "--" + GlobalOptions().maxInputBytes.name
        var options: [String] = []
        var index = 0
        while index < forwarded.count {
            guard forwarded[index] == limit, index + 1 < forwarded.count else {
                index += 1
                continue
            }
            options += [forwarded[index], forwarded[index + 1]]
            index += 2
        }
        return options + engineArguments(named: name)
    }

    /// The `--engine-command` option (with its `--engine-name` and `--engine-timeout`) that
    /// started the out-of-process engine `name` in this run, or none. The engines of
    /// `--engine-command` options are registered last, in the order of the options, so the k-th
    /// group of options started the k-th of the registry's last engines.
    static func engineArguments(named name: String) -> [String] {
        let groups = GlobalOptions.engineGroups(forwardedArguments)
        let names = EngineRegistry.current.engines.suffix(groups.count).map(\.name)
        return zip(names, groups).first { $0.0 == name }?.1 ?? []
    }

    /// Runs the command `arguments` name (without the global options), its help texts naming
    /// `program` (``helpText(_:program:)``).
    static func dispatch(
        _ arguments: [String], console: Console, program: String = programName, commands: [Subcommand] = commands, tool: String = "difflab"
    ) throws(CommandError) -> ExitStatus {
        let topHelp = help(commands: commands, tool: tool)
        guard let command = arguments.first else {
            console.err(helpText(topHelp, program: program) + "\n")
            throw .usage("no command given")
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help":
            console.out(helpText(topHelp, program: program) + "\n")
        case "help":
            if rest == ["--reference"] {
                console.out(reference(commands: commands, tool: tool))
                return .success
            }
            guard rest.count <= 2 else { throw .usage("help takes at most one command name") }
            guard !rest.isEmpty else {
                console.out(helpText(topHelp, program: program) + "\n")
                return .success
            }
            let name = rest.joined(separator: " ")
            guard let subcommand = commands.flatMap(\.all).first(where: { $0.name == name }) else {
                throw .usage("no help for unknown command '\(name)' (commands: \(commands.flatMap(\.all).map(\.name).joined(separator: ", ")))")
            }
            console.out(helpText(subcommand.help(), program: program) + "\n")
        case "--version":
            console.out("\(tool) \(version)\n")
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
    /// `--help` (`difflab policy real-time --help`).
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
