import DiffLabCore
import DiffLabPlatform
import DiffLabUpdaters

/// The whole `difflab` command line as a library: a package that depends on DiffLab writes a tiny
/// executable target and gets every command with its own engines selectable by name next to the
/// built-ins.
///
/// ```swift
/// // Sources/mylab/main.swift
/// import DiffLab
/// DiffLabRunner.main(engines: [RegisteredEngine(MyEngine())])
/// ```
///
/// Then `mylab fuzz --engines my-engine`, `mylab bench --engines my-engine`,
/// `mylab gate --product mylab --cells my-engine:differencekit:int:10000`, `mylab report ...`.
public enum DiffLabRunner {
    /// Runs the command line given to this process with `engines` registered after the built-ins,
    /// and exits with its status. Installs DiffLab's signal handling first (SIGINT, SIGTERM and
    /// SIGHUP stop workers and remove temporary files).
    ///
    /// An invalid registry (a repeated or reserved name, a name that is not a valid engine name) is
    /// reported as a usage error (exit 64) before any command runs.
    ///
    /// `updaters` are registered after the built-in ones (``BuiltInUpdaters``):
    /// `mylab updaters --updaters my-updater` checks a package's own updater, crash-isolated, with
    /// findings that `mylab replay` re-runs.
    public static func main(engines: [RegisteredEngine], updaters: [UpdaterSubject] = []) -> Never {
        DiffLabCommand.installSignalHandling()
        let name = programName(fromArgv0: CommandLine.arguments.first)
        runningProgram.withLock { $0 = name }
        exitProcess(run(Array(CommandLine.arguments.dropFirst()), engines: engines, updaters: updaters))
    }

    /// Runs another command line of DiffLab's (`difflab-dev`: `commands`, named `tool`) on the
    /// built-in engines with the same signal handling, global options and error rules, and exits
    /// with its status.
    package static func main(commands: [DiffLabCommand.Subcommand], tool: String) -> Never {
        DiffLabCommand.installSignalHandling()
        let name = programName(fromArgv0: CommandLine.arguments.first)
        runningProgram.withLock { $0 = name }
        exitProcess(
            DiffLabCommand.run(Array(CommandLine.arguments.dropFirst()), console: .standard, registry: .builtIns, commands: commands, tool: tool))
    }

    /// Runs `arguments` (without the program name) with `engines` and `updaters` registered after
    /// the built-ins.
    ///
    /// - Returns: the exit status; see `difflab --help`.
    public static func run(_ arguments: [String], engines: [RegisteredEngine], updaters: [UpdaterSubject] = [], console: Console = .standard) -> Int32
    {
        let registry: EngineRegistry
        do throws(CommandError) {
            registry = try EngineRegistry(EngineRegistry.builtInEngines + engines, updaters: BuiltInUpdaters.all + updaters)
        } catch {
            console.err("\(programName): \(errorText(error.message))\n")
            return error.status.rawValue
        }
        return DiffLabCommand.run(arguments, console: console, registry: registry)
    }
}

/// The name this program was started as (`difflab`, or a package's own runner such as
/// `custom-difflab`), for error prefixes and the commands it prints for the user to run. Set by
/// ``DiffLabRunner/main(engines:updaters:)`` from `argv[0]`; `difflab` when DiffLab runs in-process (tests).
package var programName: String { runningProgram.withLock { $0 } }

/// Where ``programName`` is kept.
let runningProgram = Locked("difflab")

/// The last path component of `argv0`, or `difflab` when it has none.
package func programName(fromArgv0 argv0: String?) -> String {
    let path = argv0 ?? "difflab"
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.isEmpty ? "difflab" : name
}
