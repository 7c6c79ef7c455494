import DiffLabFormatting
import DiffLabPlatform

// File helpers shared by the process code (the cleanup, the fuzz supervisor), the trace importers
// and the command line: reading a file under a cap, writing a whole buffer, the system's message
// for the last failure, and paths. The output files a command writes are in OutputFile.swift.
// Every system call goes through DiffLabPlatform's typed layer.

/// Why `readFile(_:limit:)` could not read a file.
public enum FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `open` failed, with the system's reason.
    case cannotOpen(path: String, reason: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// `read` failed, with the system's reason.
    case cannotRead(path: String, reason: String)
    /// The file holds more than `limit` bytes (reading stopped there).
    case tooLarge(path: String, limit: Int)

    /// One line naming the path and the problem.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open '\(path)': \(reason)"
        case .isDirectory(let path): "cannot read '\(path)': it is a directory"
        case .cannotRead(let path, let reason): "cannot read '\(path)': \(reason)"
        case .tooLarge(let path, let limit): "'\(path)' is larger than the limit of \(formatByteCount(limit))"
        }
    }
}

/// Reads a whole file, or standard input for `-`, up to `limit` bytes: regular files, standard
/// input, FIFOs and character devices (`/dev/zero`) all stop at the same cap, so an endless
/// stream costs at most `limit` bytes of memory.
///
/// With `regularOnly`, anything but a regular file (or a link to one) is refused before a byte
/// is read, and opening never waits: a FIFO is opened without blocking (a plain `open` of a FIFO
/// waits for a writer, forever), then refused. Readers of a folder's files use it.
///
/// - Throws: ``FileReadError`` naming the path.
/// - Complexity: O(min(file size, limit)).
package func readFile(_ path: String, limit: Int, regularOnly: Bool = false) throws(FileReadError) -> [UInt8] {
    let descriptor: FileDescriptor
    if path == "-" {
        descriptor = .standardInput
    } else {
        do throws(PlatformError) {
            descriptor = try FileDescriptor.open(path, .readOnly, options: regularOnly ? .nonBlocking : [])
        } catch {
            throw .cannotOpen(path: path, reason: error.message)
        }
    }
    defer { if descriptor != .standardInput { descriptor.closeIgnoringErrors() } }
    // A descriptor `fstat` cannot describe is read as a stream (and refused by `regularOnly`).
    let facts = try? descriptor.facts()
    if facts?.kind == .directory { throw .isDirectory(path: path) }
    if regularOnly && (descriptor == .standardInput || facts?.kind != .regular) {
        throw .cannotOpen(path: path, reason: "not a regular file (a FIFO, a device or a socket is never read here)")
    }
    var bytes: [UInt8] = []
    if let facts, facts.kind == .regular && facts.size > 0 { bytes.reserveCapacity(min(facts.size, limit) + 1) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        // Ask for at most one byte past the cap: enough to know the input is too large.
        let wanted = min(chunk.count, limit - bytes.count + 1)
        let count: Int
        do throws(PlatformError) {
            count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(PlatformError) -> Int in try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted])) }
            }.get()
        } catch {
            throw .cannotRead(path: path, reason: error.message)
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit { throw .tooLarge(path: path, limit: limit) }
    }
    return bytes
}

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR
/// (``FileDescriptor/writeAll(_:)``); the failure's code stays in `errno` for ``systemError()``.
///
/// - Returns: `false` when a write fails.
/// - Complexity: O(bytes).
package func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    (try? FileDescriptor(rawValue: descriptor).writeAll(bytes)) != nil
}

/// The system's message for the current `errno` (``PlatformError/message``, the C library's
/// `strerror`).
///
/// - Complexity: O(message).
package func systemError() -> String {
    PlatformError.current("").message
}

/// Whether anything (a file, a folder, a link, even a dangling one) exists at `path`: a default
/// input that exists is read, and fails loudly if it is bad, instead of being silently skipped.
/// A path `lstat` fails on for another reason than `ENOENT` (no permission to look) counts as
/// existing, so the reader reports that reason.
///
/// - Complexity: one system call.
package func pathExists(_ path: String) -> Bool {
    do throws(PlatformError) {
        _ = try FileSystem.facts(path, followingLinks: false)
        return true
    } catch {
        return error.code != .noSuchFile
    }
}

/// `mkdir -p`: creates `path` and its missing parents (mode 0755); a component that exists is
/// left as it is.
///
/// - Throws: ``OutputFileError`` naming the component that could not be created and the
///   system's reason.
/// - Complexity: one system call per component.
package func makeDirectories(_ path: String) throws(OutputFileError) {
    guard !path.isEmpty, path != ".", path != "/" else { return }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        prefix += component
        do throws(PlatformError) {
            try FileSystem.makeDirectory(prefix, permissions: 0o755)
        } catch {
            guard error.code == .exists else { throw OutputFileError("cannot create directory '\(prefix)': \(error.message)") }
        }
        prefix += "/"
    }
}
