import DiffLabPlatform
import DiffLabProcess

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// Tests pass a recording console; the `difflab` executable passes ``standard``.
public struct Console: Sendable {
    /// Writes text to standard output (no newline added).
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error (no newline added).
    public var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal: live progress lines (rewritten with `\r`) are drawn
    /// only then, never into a log.
    public var errIsTerminal: Bool

    /// A console from two writers; `errIsTerminal` says whether `err` goes to a terminal.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, errIsTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
    }

    /// The process's standard output and standard error (unbuffered: each call is written at once;
    /// a closed pipe is given up on silently, as there is nowhere left to report to).
    public static var standard: Console {
        Console(
            out: { _ = writeAll(1, Array($0.utf8)) }, err: { _ = writeAll(2, Array($0.utf8)) }, errIsTerminal: FileDescriptor.standardError.isTerminal
        )
    }

    /// Draws a progress bar on standard error, rewriting the line; nothing when standard error is
    /// not a terminal (logs get each command's own phase lines instead).
    func progress(_ done: Int, _ total: Int, _ label: String, last: Bool = false) {
        guard errIsTerminal else { return }
        let width = 30
        let filled = total > 0 ? min(width, max(0, done) * width / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        err("\r[\(bar)] \(done)/\(total) \(label)" + String(repeating: " ", count: max(0, 40 - label.count)) + (last ? "\n" : ""))
    }
}

/// Exit statuses, following BSD `sysexits.h` for errors.
public enum ExitStatus: Int32, Sendable {
    /// Success.
    case success = 0
    /// A check ran and failed (used by later commands).
    case failure = 1
    /// `difflab gate`: a regression was found.
    case regression = 2
    /// `difflab gate`: only improvements were found.
    case improvement = 4
    /// The command line was wrong: unknown command, flag or value (`EX_USAGE`).
    case usage = 64
    /// An input file was readable but its data was wrong (`EX_DATAERR`).
    case dataError = 65
    /// An input file could not be opened or read (`EX_NOINPUT`).
    case noInput = 66
    /// An output file cannot be created or replaced: unwritable, or not a regular file
    /// (`EX_CANTCREAT`).
    case cantCreate = 73
}

/// An error that ends a command with one line on standard error and an exit status.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exit status.
    public var status: ExitStatus
    /// One line saying what is wrong, without the program name.
    public var message: String

    /// An error with `status` and `message`.
    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A command-line mistake (exit 64).
    public static func usage(_ message: String) -> CommandError { CommandError(.usage, message) }
    /// Bad input data (exit 65).
    public static func data(_ message: String) -> CommandError { CommandError(.dataError, message) }

    /// The message.
    public var description: String { message }
}

/// Draws a progress bar on `console`'s standard error when it is a terminal; see
/// ``Console/progress(_:_:_:last:)``.
func progressBar(_ console: Console, _ done: Int, _ total: Int, _ label: String) {
    console.progress(done, total, label)
}
