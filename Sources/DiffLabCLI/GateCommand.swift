import DiffLabGate

/// `difflab gate` (being written).
enum GateCommand {
    static let help = "USAGE: difflab gate [--base REV] [--quick]"

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        throw CommandError(.failure, "gate is not built yet")
    }
}

/// `difflab measure` (being written).
enum MeasureCommand {
    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        throw CommandError(.failure, "measure is not built yet")
    }
}
