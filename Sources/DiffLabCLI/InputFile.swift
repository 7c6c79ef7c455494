import DiffLabFormatting
import DiffLabPlatform
import DiffLabProcess

/// The most bytes any DiffLab command reads from one input file or stream.
///
/// The default, 64 MiB, holds a list of a million elements; parsed JSON takes up to about 50 times
/// its size in memory, so the cap also bounds memory (about 3 GB per input). The global option
/// `--max-input-bytes N` (anywhere on the command line, see ``DiffLabCommand``) changes it for one
/// run, from 1 byte to 64 GiB. Every reader goes through `readInputFile(_:)`, so regular files,
/// standard input (`-`), FIFOs and character devices (`/dev/zero`) all stop at the same cap.
public enum InputLimit {
    /// The default cap: 64 MiB.
    public static let defaultBytes = 64 << 20
    /// The allowed range of `--max-input-bytes`: 1 byte to 64 GiB. The same limit bounds an
    /// `--engine-command` engine's answers (``ProcessEngine/allowedAnswerBytes``).
    public static let allowedBytes = ProcessEngine.allowedAnswerBytes

    /// The cap in force for the current command (task-local, so commands run side by side in one
    /// process, as in the tests, do not see each other's limits).
    @TaskLocal public static var bytes = defaultBytes
}

/// Reads a whole input file, or standard input for `-`, up to ``InputLimit/bytes``.
///
/// - Throws: ``CommandError`` with status ``ExitStatus/noInput`` (66) naming the path and the
///   system's reason when the file is missing, is a directory or cannot be read; status
///   ``ExitStatus/dataError`` (65) when it holds more than the cap, naming the cap and the option
///   that raises it. Reading stops at the cap: an endless stream costs at most the cap in memory.
/// - Complexity: O(min(file size, cap)).
package func readInputFile(_ path: String) throws(CommandError) -> [UInt8] {
    do {
        return try readFile(path, limit: InputLimit.bytes)
    } catch {
        throw CommandError(error)
    }
}

extension CommandError {
    /// The command line's error for a file that cannot be read: exit 66 naming the path and the
    /// system's reason, or 65 for one over the input limit, naming the option that raises it.
    init(_ error: FileReadError) {
        switch error {
        case .cannotOpen, .isDirectory, .cannotRead: self.init(.noInput, error.description)
        case .tooLarge(let path, let limit):
            self = .data(
                "'\(path)' is larger than the input limit of \(formatByteCount(limit)) (raise it with --max-input-bytes, up to \(formatByteCount(InputLimit.allowedBytes.upperBound)))"
            )
        }
    }

    /// The command line's error for an output file or folder that cannot be DiffLab's: exit 73
    /// (`EX_CANTCREAT`), the message the error's own.
    init(_ error: OutputFileError) {
        self.init(.cantCreate, error.message)
    }

    /// The command line's error for a process problem: exit 73 for a temporary folder that cannot
    /// be made (as for any output that cannot be created), 1 otherwise; the message is the
    /// error's own.
    init(_ error: ProcessError) {
        self.init(error.isTemporaryFolderError ? .cantCreate : .failure, error.description)
    }
}

/// Runs `body`, turning a ``ProcessError`` into the command line's error (``CommandError/init(_:)-(ProcessError)``).
package func asCommandError<T>(_ body: () throws(ProcessError) -> T) throws(CommandError) -> T {
    do { return try body() } catch { throw CommandError(error) }
}

/// Runs `body`, turning an ``OutputFileError`` into the command line's error (exit 73,
/// ``CommandError/init(_:)-(OutputFileError)``).
package func asCantCreate<T>(_ body: () throws(OutputFileError) -> T) throws(CommandError) -> T {
    do { return try body() } catch { throw CommandError(error) }
}

/// The `.json` files directly inside `directory`, sorted; `nil` when it is not a directory.
///
/// - Throws: ``CommandError`` (66) for a `.json` entry that is not a regular file (a FIFO would
///   block the reader forever, a device would be read as data).
/// - Complexity: O(entries log entries) and one `stat` per `.json` entry.
func jsonFiles(in directory: String) throws(CommandError) -> [String]? {
    guard let names = FileSystem.directoryEntries(directory) else { return nil }
    var files: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") {
        let path = directory + "/" + name
        guard FileSystem.factsIfPresent(path)?.kind == .regular else {
            throw CommandError(.noInput, "'\(path)' is not a regular file")
        }
        files.append(path)
    }
    return files
}

extension ProcessError {
    /// Whether this is ``ProcessError/cannotCreateTemporaryFolder(base:reason:)`` (exit 73).
    var isTemporaryFolderError: Bool {
        if case .cannotCreateTemporaryFolder = self { true } else { false }
    }
}
