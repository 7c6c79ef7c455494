import DiffLabCLI

/// `difflab-dev`: the commands for maintaining DiffLab itself, apart from the `difflab` runner
/// every user's package builds: `mutate` (mutation testing of the fuzzer, on DiffLab's own
/// catalogue and sources), `coverage` (the fuzzer's line coverage of DiffLab's own engines),
/// `docs-check` (the DocC catalogs curate every public symbol), `api-check` (no undeclared
/// breaking change of the public API), `api-baseline` (the release it compares with),
/// `portability` (the scripts and Swift files hold nothing a Mac lacks), `engines` (the
/// built-in engines' names, for scripts) and `formats` (the format tables of every results
/// file, from the records' declarations).
/// They parse, help and report by the same declarations and rules as `difflab`'s commands.
package enum DevCommands {
    /// The commands, in the order of `difflab-dev --help`.
    package static let commands: [DiffLabCommand.Subcommand] = [
        DiffLabCommand.Subcommand(MutateCommand.self),
        DiffLabCommand.Subcommand(CoverageCommand.self),
        DiffLabCommand.Subcommand(DocsCheckCommand.self),
        DiffLabCommand.Subcommand(APICheckCommand.self),
        DiffLabCommand.Subcommand(APIBaselineCommand.self),
        DiffLabCommand.Subcommand(PortabilityCommand.self),
        DiffLabCommand.Subcommand(FormatsCommand.self),
        DiffLabCommand.Subcommand(EnginesCommand.self),
    ]

    /// Runs `difflab-dev` with `arguments` (without the program name) on the built-in engines.
    ///
    /// - Returns: the exit status.
    package static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        DiffLabCommand.run(arguments, console: console, registry: .builtIns, commands: commands, tool: "difflab-dev")
    }
}
