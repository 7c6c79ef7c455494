#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to `path` atomically: to a temporary file beside it, then renamed over it, so an
/// interrupted write never leaves a partial file. Creates missing parent directories.
///
/// - Throws: ``CommandError`` (exit 1) naming the path and the system's reason.
func writeFileAtomically(_ text: String, to path: String) throws(CommandError) {
    try writeFileAtomically(Array(text.utf8), to: path)
}

/// Writes `bytes` to `path` atomically; see ``writeFileAtomically(_:to:)``.
func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(CommandError) {
    if let slash = path.lastIndex(of: "/") { try makeDirectories(String(path[..<slash])) }
    let temporary = path + ".tmp-\(getpid())"
    guard let file = fopen(temporary, "w") else {
        throw CommandError(.failure, "cannot write '\(temporary)': \(String(cString: strerror(errno)))")
    }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    let closed = fclose(file)
    guard written == bytes.count, closed == 0, rename(temporary, path) == 0 else {
        unlink(temporary)
        throw CommandError(.failure, "cannot write '\(path)': \(String(cString: strerror(errno)))")
    }
}

/// `mkdir -p`.
func makeDirectories(_ path: String) throws(CommandError) {
    guard !path.isEmpty else { return }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        prefix += component
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw CommandError(.failure, "cannot create directory '\(prefix)': \(String(cString: strerror(errno)))")
        }
        prefix += "/"
    }
}

/// The `.json` files directly inside `directory`, sorted; `nil` when it is not a directory.
func jsonFiles(in directory: String) -> [String]? {
    guard let handle = opendir(directory) else { return nil }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasSuffix(".json") { names.append(directory + "/" + name) }
    }
    return names.sorted()
}
