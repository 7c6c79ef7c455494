import DiffLabCLI
import DiffLabResults

/// `difflab-dev formats`: prints `docs/results-formats.md`, the format tables generated from the
/// records' field declarations.
enum FormatsCommand: DeclaredCommand {
    struct Options: DeclaredOptions {}

    static let name = "formats"
    static let tool = "difflab-dev"
    static let abstract = "print the format tables of every results file (docs/results-formats.md)"
    static let discussion = """
        Prints, as Markdown, one table per record of every file format DiffLab writes: each
        field's key, what its value must be (type and range), whether it may be absent, its
        meaning and, for exported records, its CSV column. The tables come from the same field
        declarations that encode and decode the files; a test keeps docs/results-formats.md equal
        to this output (regenerate with swift run difflab-dev formats > docs/results-formats.md).
        """
    static let epilogue = """
        EXIT STATUS
          0 printed, 64 bad command line
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        console.out(ResultsFormats.markdown)
        return .success
    }
}
