#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// Path-level file operations: each one system call (named in its error) with the same meaning
/// on Linux and Darwin, unless its documentation names a Darwin branch.
package enum FileSystem {
    /// What is at `path` (`stat`, following a final symbolic link) or the link itself
    /// (`lstat`, with `followingLinks: false`).
    ///
    /// - Throws: ``PlatformError`` (``PlatformError/Code/noSuchFile`` when absent).
    /// - Complexity: one system call.
    package static func facts(_ path: String, followingLinks: Bool = true) throws(PlatformError) -> FileFacts {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        guard result == 0 else { throw .current(followingLinks ? "stat" : "lstat", path: path) }
        return FileFacts(status)
    }

    /// `facts(path, followingLinks:)` or `nil` for any failure. - Complexity: one system call.
    package static func factsIfPresent(_ path: String, followingLinks: Bool = true) -> FileFacts? {
        try? facts(path, followingLinks: followingLinks)
    }

    /// What this process may do with a path (`access`).
    package struct Permission: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// `R_OK`.
        package static let read = Permission(rawValue: R_OK)
        /// `W_OK`.
        package static let write = Permission(rawValue: W_OK)
        /// `X_OK` (for a folder: entering it).
        package static let execute = Permission(rawValue: X_OK)
    }

    /// Checks that this process (by its real ids) may do `permissions` on `path`; `[]` checks
    /// that the path exists.
    ///
    /// - Throws: ``PlatformError`` from `access`.
    /// - Complexity: one system call.
    package static func checkAccess(_ path: String, _ permissions: Permission) throws(PlatformError) {
        guard access(path, permissions.isEmpty ? F_OK : permissions.rawValue) == 0 else { throw .current("access", path: path) }
    }

    /// Whether `checkAccess(path, permissions)` succeeds. - Complexity: one system call.
    package static func isAccessible(_ path: String, _ permissions: Permission) -> Bool {
        access(path, permissions.isEmpty ? F_OK : permissions.rawValue) == 0
    }

    /// Makes the folder `path` (`mkdir`; its parent must exist).
    ///
    /// - Throws: ``PlatformError`` (``PlatformError/Code/exists`` when something is there).
    /// - Complexity: one system call.
    package static func makeDirectory(_ path: String, permissions: UInt16 = 0o755) throws(PlatformError) {
        guard mkdir(path, mode_t(permissions)) == 0 else { throw .current("mkdir", path: path) }
    }

    /// Removes the file or link `path` (`unlink`; a link is removed, not its target).
    ///
    /// - Complexity: one system call.
    package static func removeFile(_ path: String) throws(PlatformError) {
        guard unlink(path) == 0 else { throw .current("unlink", path: path) }
    }

    /// Removes the empty folder `path` (`rmdir`). - Complexity: one system call.
    package static func removeDirectory(_ path: String) throws(PlatformError) {
        guard rmdir(path) == 0 else { throw .current("rmdir", path: path) }
    }

    /// Renames `source` to `target`, replacing a file there atomically (`rename`).
    ///
    /// - Complexity: one system call.
    package static func rename(_ source: String, to target: String) throws(PlatformError) {
        guard _systemRename(source, target) == 0 else { throw .current("rename", path: source) }
    }

    /// Makes a symbolic link at `path` pointing to `target` (`symlink`).
    ///
    /// - Complexity: one system call.
    package static func makeSymbolicLink(at path: String, to target: String) throws(PlatformError) {
        guard symlink(target, path) == 0 else { throw .current("symlink", path: path) }
    }

    /// The target a symbolic link holds, as written (`readlink`, at most 4095 bytes).
    ///
    /// - Complexity: one system call.
    package static func symbolicLinkTarget(_ path: String) throws(PlatformError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .current("readlink", path: path) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes a FIFO (a named pipe) at `path` (`mkfifo`).
    ///
    /// - Complexity: one system call.
    package static func makeFIFO(_ path: String, permissions: UInt16 = 0o644) throws(PlatformError) {
        guard mkfifo(path, mode_t(permissions)) == 0 else { throw .current("mkfifo", path: path) }
    }

    /// `path` with every symbolic link and `.`/`..` resolved (`realpath`); the path must exist.
    ///
    /// - Complexity: one system call per component.
    package static func resolvedPath(_ path: String) throws(PlatformError) -> String {
        guard let resolved = realpath(path, nil) else { throw .current("realpath", path: path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder this process works in (`getcwd`). - Complexity: one system call.
    package static func currentDirectory() throws(PlatformError) -> String {
        guard let path = getcwd(nil, 0) else { throw .current("getcwd") }
        defer { free(path) }
        return String(cString: path)
    }

    /// A new folder, mode 0700, whose name is `prefix` and six random characters, in
    /// ``temporaryDirectoryBase()`` or `base` (`mkdtemp`: the name is chosen and made atomically).
    ///
    /// - Complexity: one or a few system calls.
    package static func makeTemporaryDirectory(_ prefix: String, in base: String? = nil) throws(PlatformError) -> String {
        let parent = base ?? temporaryDirectoryBase()
        var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw .current("mkdtemp", path: parent) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder for temporary files: `$TMPDIR` when set to an absolute path (on Darwin it is
    /// always set, to a per-user folder under `/var/folders`), else `/tmp`; without a trailing `/`.
    ///
    /// - Complexity: O(environment).
    package static func temporaryDirectoryBase() -> String {
        if let value = getenv("TMPDIR").map({ String(cString: $0) }), value.hasPrefix("/") {
            var trimmed = Substring(value)
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        return "/tmp"
    }

    /// The names of the entries directly inside folder `path` (without `.` and `..`), in
    /// directory order; `nil` when it cannot be opened as a folder. `dirent.d_name` is a fixed
    /// array on both platforms (256 bytes on Linux, 1024 on Darwin), read up to its NUL.
    ///
    /// - Complexity: O(entries).
    package static func directoryEntries(_ path: String) -> [String]? {
        guard let handle = opendir(path) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `path` and, for a folder, everything below it, without following symbolic links;
    /// failures are ignored (what cannot be removed stays).
    ///
    /// - Complexity: O(entries below `path`).
    package static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            unlink(path)
            return
        }
        for name in directoryEntries(path) ?? [] { removeTree(path + "/" + name) }
        rmdir(path)
    }

    /// Reads the file at `path` to its end, at most `limit` bytes (a regular file or a special
    /// file of the system such as one under `/proc`); `nil` when it cannot be opened or read.
    ///
    /// - Complexity: O(min(size, limit)).
    package static func contents(_ path: String, limit: Int) -> [UInt8]? {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { descriptor.closeIgnoringErrors() }
        return try? descriptor.readAll(limit: limit)
    }
}

/// `rename(2)`, under a name the method above does not shadow.
private func _systemRename(_ source: String, _ target: String) -> Int32 { rename(source, target) }
