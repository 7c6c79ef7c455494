#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole input file, or standard input for `-`.
///
/// - Throws: ``CommandError`` with status ``ExitStatus/noInput`` (66) naming the path and the
///   system's reason when the file is missing, is a directory or cannot be read.
/// - Complexity: O(file size).
public func readInputFile(_ path: String) throws(CommandError) -> [UInt8] {
    let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
    guard descriptor >= 0 else { throw CommandError(.noInput, "cannot open '\(path)': \(systemError())") }
    defer { if descriptor != 0 { close(descriptor) } }
    var status = stat()
    if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
        throw CommandError(.noInput, "cannot read '\(path)': it is a directory")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { break }
        if count < 0 {
            if errno == EINTR { continue }
            throw CommandError(.noInput, "cannot read '\(path)': \(systemError())")
        }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

private func systemError() -> String {
    guard let message = strerror(errno) else { return "error \(errno)" }
    return String(cString: message)
}
