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
          bench [options]          time the engines on generated datasets (see: difflab bench --help)
          policy [options]         main-thread vs background diffing in a simulated app
          gate [options]           regression gate: this build against a baseline (see: difflab gate --help)
          report RESULTS.json...   a markdown report with SVG plots from bench and policy results
          help [COMMAND]           show help for difflab or a command

        OPTIONS
          -h, --help               show this help
          --version                print the version

        EXIT STATUS
          0 success, 1 check failed (validate, fuzz, replay), 64 bad command line, 65 bad input data,
          66 input file unreadable
        """

    /// Runs `difflab` with `arguments` (without the program name).
    ///
    /// - Returns: the exit status.
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        do {
            return try dispatch(arguments, console: console).rawValue
        } catch {
            console.err("difflab: \(error.message)\n")
            if error.status == .usage { console.err("Run 'difflab --help' for usage.\n") }
            return error.status.rawValue
        }
    }

    static func dispatch(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        guard let command = arguments.first else {
            console.err(help + "\n")
            throw .usage("no command given")
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help":
            console.out(help + "\n")
        case "help":
            switch rest.first {
            case nil: console.out(help + "\n")
            case "diff": console.out(DiffCommand.help + "\n")
            case "validate": console.out(ValidateCommand.help + "\n")
            case "stages": console.out(StagesCommand.help + "\n")
            case "fuzz": console.out(FuzzCommand.help + "\n")
            case "replay": console.out(ReplayCommand.help + "\n")
            case "bench": console.out(BenchCommand.help + "\n")
            case "policy": console.out(PolicyCommand.help + "\n")
            case "gate": console.out(GateCommand.help + "\n")
            case "report": console.out(ReportCommand.help + "\n")
            case let other?: throw .usage("no help for unknown command '\(other)'")
            }
        case "--version":
            console.out("difflab \(version)\n")
        case "diff":
            try DiffCommand.run(rest, console: console)
        case "validate":
            return try ValidateCommand.run(rest, console: console)
        case "stages":
            try StagesCommand.run(rest, console: console)
        case "fuzz":
            return try FuzzCommand.run(rest, console: console)
        case "replay":
            return try ReplayCommand.run(rest, console: console)
        case "bench":
            return try BenchCommand.run(rest, console: console)
        case "policy":
            return try PolicyCommand.run(rest, console: console)
        case "gate":
            return try GateCommand.run(rest, console: console)
        case "measure":
            return try MeasureCommand.run(rest, console: console)
        case "report":
            return try ReportCommand.run(rest, console: console)
        default:
            throw .usage("unknown command '\(command)'")
        }
        return .success
    }
}
