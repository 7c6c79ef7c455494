import DiffLabResults

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The most bytes any DiffLab command reads from one input file or stream.
///
/// The default, 64 MiB, holds a list of a million elements; parsed JSON takes up to about 50 times
/// its size in memory, so the cap also bounds memory (about 3 GB per input). The global option
/// `--max-input-bytes N` (anywhere on the command line, see ``DiffLabCommand``) changes it for one
/// run, from 1 byte to 64 GiB. Every reader goes through ``readInputFile(_:)``, so regular files,
/// standard input (`-`), FIFOs and character devices (`/dev/zero`) all stop at the same cap.
public enum InputLimit {
    /// The default cap: 64 MiB.
    public static let defaultBytes = 64 << 20
    /// The allowed range of `--max-input-bytes`.
    public static let allowedBytes = 1...(64 << 30)

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
    let limit = InputLimit.bytes
    let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw CommandError(.noInput, "cannot open '\(path)': \(systemError())") }
    defer { if descriptor != 0 { close(descriptor) } }
    var status = stat()
    if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
        throw CommandError(.noInput, "cannot read '\(path)': it is a directory")
    }
    var bytes: [UInt8] = []
    if (status.st_mode & S_IFMT) == S_IFREG && status.st_size > 0 { bytes.reserveCapacity(min(Int(status.st_size), limit) + 1) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        // Ask for at most one byte past the cap: enough to know the input is too large.
        let wanted = min(chunk.count, limit - bytes.count + 1)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
        if count == 0 { break }
        if count < 0 {
            if errno == EINTR { continue }
            throw CommandError(.noInput, "cannot read '\(path)': \(systemError())")
        }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit {
            throw .data(
                "'\(path)' is larger than the input limit of \(formatByteCount(limit)) (raise it with --max-input-bytes, up to \(formatByteCount(InputLimit.allowedBytes.upperBound)))"
            )
        }
    }
    return bytes
}

/// ``DiffLabResults/formatByteCount(_:)``, for the files of this module that do not import DiffLabResults.
func formatByteCount(_ count: Int) -> String { DiffLabResults.formatByteCount(count) }
