import DiffLabCLI

/// `difflab-dev engines`: the built-in engines' names, one a line, in the table's order, so a
/// script that runs each of them (Scripts/test's smoke test, Scripts/run) reads the one table
/// instead of typing the list again.
enum EnginesCommand: DeclaredCommand {
    struct Options: DeclaredOptions {}

    static let name = "engines"
    static let tool = "difflab-dev"
    static let abstract = "print the built-in engines' names, one a line"
    static let discussion = """
        Prints the name of every engine DiffLab ships, one a line, in the order of its one table
        (BuiltInEngines), for scripts that run each of them: a script reads the list here instead
        of typing it again.
        """
    static let epilogue = """
        EXIT STATUS
          0 printed; 64 bad command line
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        console.out(EngineRegistry.builtInEngines.map { $0.name + "\n" }.joined())
        return .success
    }
}
