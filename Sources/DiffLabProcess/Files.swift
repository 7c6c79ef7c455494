import DiffLabPlatform
import DiffLabResults

// File helpers shared by the process code (the cleanup, the fuzz supervisor) and the command line.

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
    let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
    guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: systemError()) }
    defer { if descriptor != 0 { close(descriptor) } }
    var status = stat()
    if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
        throw .isDirectory(path: path)
    }
    if regularOnly && (descriptor == 0 || (status.st_mode & S_IFMT) != S_IFREG) {
        throw .cannotOpen(path: path, reason: "not a regular file (a FIFO, a device or a socket is never read here)")
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
            throw .cannotRead(path: path, reason: systemError())
        }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit { throw .tooLarge(path: path, limit: limit) }
    }
    return bytes
}

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR.
///
/// - Returns: `false` when a write fails.
package func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

/// The system's message for the current `errno`.
package func systemError() -> String {
    guard let message = strerror(errno) else { return "error \(errno)" }
    return String(cString: message)
}
