#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// Tests pass a recording console; the `difflab` executable passes ``standard``.
public struct Console: Sendable {
    /// Writes text to standard output (no newline added).
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error (no newline added).
    public var err: @Sendable (String) -> Void

    /// A console from two writers.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and standard error (unbuffered: each call is written at once).
    public static let standard = Console(out: { writeAll(1, $0) }, err: { writeAll(2, $0) })
}

/// Writes all of `text` to file descriptor `descriptor`, retrying short writes; gives up silently
/// when the descriptor is closed (e.g. a closed pipe), as there is nowhere left to report to.
private func writeAll(_ descriptor: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
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
