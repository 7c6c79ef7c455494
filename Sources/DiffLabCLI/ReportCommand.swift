import DiffLabReport

/// `difflab report` (being written).
enum ReportCommand {
    static let help = "USAGE: difflab report RESULTS.json... [--out DIR]"

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        throw CommandError(.failure, "report is not built yet")
    }
}
