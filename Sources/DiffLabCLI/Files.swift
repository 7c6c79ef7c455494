import DiffLabCore
import DiffLabPlatform
import DiffLabProcess

/// A file a command will write as its own output: checked before the command's work starts, then
/// written atomically.
///
/// ## The rule for output paths
/// DiffLab runs in CI as root, so an output path is treated as hostile:
/// - the target must be **absent or a regular file**. A directory, FIFO, socket or device node
///   (`/dev/null` included) is refused, and so is a **symbolic link** as the last component: DiffLab
///   never replaces a path that is not its own output, and never writes through a link to a file
///   somewhere else. (Links in the *parent* directories are followed, as the system does.)
/// - the nearest existing parent must be a directory this process may write into; missing parents
///   are created when the file is written, not when it is checked.
/// - writing goes to a fresh temporary file beside the target (created exclusively, never through a
///   link), which is then renamed over the target, so an interrupted run leaves either the old
///   file or the new one, never a partial one. The temporary file is registered with
///   ``Cleanup`` so a SIGINT/SIGTERM in the middle removes it.
/// - the target is checked again just before the rename: a path that became a link or a special
///   file while the command ran is still refused.
///
/// Commands construct their `OutputFile`s when they parse their options, so an unwritable
/// `--out` fails at once, before minutes of work, and the run's table is printed before the file
/// is written, so it survives a failed write.
package struct OutputFile: Sendable {
    /// The path as the user gave it.
    package let path: String
    /// The option that named it, for messages (e.g. `--out`).
    let option: String

    /// Checks that `path` can be DiffLab's output file.
    ///
    /// - Throws: ``CommandError`` with ``ExitStatus/cantCreate`` (73) naming the option, the path
    ///   and what is wrong with it.
    /// - Complexity: O(path components) system calls.
    package init(_ path: String, option: String) throws(CommandError) {
        self.path = path
        self.option = option
        try check()
    }

    /// Checks only that the nearest existing ancestor of `path` takes new entries (for a folder
    /// that does not exist yet).
    fileprivate init(_ path: String, option: String, checkingParentOnly: Bool) throws(CommandError) {
        self.path = path
        self.option = option
        try checkParent()
    }

    /// Checks the target and its nearest existing parent; see the type's rule.
    func check() throws(CommandError) {
        guard !path.isEmpty else { throw fail("the path is empty") }
        guard !path.hasSuffix("/") else { throw fail("the path names a directory; give a file name") }
        var status = stat()
        if lstat(path, &status) == 0 {
            if let problem = Self.problem(status.st_mode) { throw fail(problem) }
            guard access(path, W_OK) == 0 else { throw fail("not writable: \(systemError())") }
        } else if errno != ENOENT {
            throw fail(systemError())
        }
        try checkParent()
    }

    /// The nearest existing ancestor must be a directory this process may create entries in.
    private func checkParent() throws(CommandError) {
        var status = stat()
        var parent = Self.parent(of: path)
        while true {
            if stat(parent, &status) == 0 {
                guard (status.st_mode & S_IFMT) == S_IFDIR else { throw fail("'\(parent)' is not a directory") }
                guard access(parent, W_OK | X_OK) == 0 else { throw fail("cannot create files in '\(parent)': \(systemError())") }
                return
            }
            guard errno == ENOENT, parent != "/", parent != "." else { throw fail("'\(parent)': \(systemError())") }
            parent = Self.parent(of: parent)
        }
    }

    /// Writes `text`; see ``write(_:)-([UInt8])``.
    package func write(_ text: String) throws(CommandError) { try write(Array(text.utf8)) }

    /// Writes `bytes` atomically: creates missing parents, writes a temporary file beside the
    /// target, checks the target again and renames the temporary file over it.
    ///
    /// - Throws: ``CommandError`` (73) naming the path and the system's reason; the temporary file
    ///   is removed.
    /// - Complexity: O(bytes).
    package func write(_ bytes: [UInt8]) throws(CommandError) {
        try makeDirectories(Self.parent(of: path))
        let temporary = "\(path).tmp-\(getpid())-\(Self.counter.next())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("cannot create '\(temporary)': \(systemError())") }
        Cleanup.shared.register(file: temporary)
        defer { Cleanup.shared.unregister(file: temporary) }
        let written = writeAll(descriptor, bytes)
        let closed = close(descriptor) == 0
        guard written, closed else {
            let reason = systemError()
            unlink(temporary)
            throw fail("cannot write: \(reason)")
        }
        do {
            try check()
        } catch {
            unlink(temporary)
            throw error
        }
        // Interrupted meanwhile: leave no new output (the cleanup thread is ending the process).
        guard !Cleanup.shared.isInterrupted else {
            unlink(temporary)
            throw fail("interrupted")
        }
        guard rename(temporary, path) == 0 else {
            let reason = systemError()
            unlink(temporary)
            throw fail("cannot replace: \(reason)")
        }
    }

    /// Appends `text` to the file (for a log another tool owns, such as `$GITHUB_STEP_SUMMARY`):
    /// opened without following a link and without blocking, and written only when it is a
    /// regular file, so a FIFO, device or link put in its place is refused, never written through.
    ///
    /// - Throws: ``CommandError`` (73) naming the path and the reason.
    func append(_ text: String) throws(CommandError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("cannot open for appending: \(systemError())") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw fail(systemError()) }
        if let problem = Self.problem(status.st_mode) { throw fail(problem) }
        guard writeAll(descriptor, Array(text.utf8)) else { throw fail("cannot append: \(systemError())") }
    }

    private func fail(_ reason: String) -> CommandError {
        CommandError(.cantCreate, "\(option) '\(path)': \(reason)")
    }

    /// Why a file of `mode` cannot be an output file, or `nil` for a regular file.
    static func problem(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory; give a file name"
        case S_IFLNK: "is a symbolic link; DiffLab writes only regular files it owns (give the link's target path instead)"
        case S_IFIFO: "is a FIFO; DiffLab writes only regular files"
        case S_IFCHR, S_IFBLK: "is a device; DiffLab writes only regular files"
        case S_IFSOCK: "is a socket; DiffLab writes only regular files"
        default: "is not a regular file"
        }
    }

    /// The directory part of `path` (`.` for a bare name, `/` for a top-level entry).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = path[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    private static let counter = Counter()
}

/// A folder a command writes its output files into (`fuzz --corpus`, `fuzz --write-seeds`,
/// `report --out`): checked before the command's work starts, created when the first file is
/// written.
///
/// The folder may be a symbolic link to a folder (a `results -> /data/results` link is ordinary);
/// anything else that exists at the path must be a folder. The files inside are ``OutputFile``s:
/// regular files only, written atomically.
struct OutputDirectory: Sendable {
    /// The folder as the user gave it.
    let path: String
    /// The option that named it, for messages.
    let option: String

    /// Checks that `path` is, or can become, a folder DiffLab may write into.
    ///
    /// - Throws: ``CommandError`` (73) naming the option, the path and the problem.
    init(_ path: String, option: String) throws(CommandError) {
        self.path = path
        self.option = option
        guard !path.isEmpty else { throw CommandError(.cantCreate, "\(option): the path is empty") }
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw CommandError(.cantCreate, "\(option) '\(path)': not a folder")
            }
            guard access(path, W_OK | X_OK) == 0 else { throw CommandError(.cantCreate, "\(option) '\(path)': \(systemError())") }
        } else if errno == ENOENT {
            var link = stat()
            if lstat(path, &link) == 0 {
                throw CommandError(.cantCreate, "\(option) '\(path)': a symbolic link to nothing")
            }
            // Absent: the nearest existing parent must take a new folder.
            _ = try OutputFile(path + "/.", option: option, checkingParentOnly: true)
        } else {
            throw CommandError(.cantCreate, "\(option) '\(path)': \(systemError())")
        }
    }

    /// The output file `name` inside the folder.
    ///
    /// - Throws: ``CommandError`` (73) when that file exists and is not a regular file.
    func file(_ name: String) throws(CommandError) -> OutputFile {
        try OutputFile((path.hasSuffix("/") ? path : path + "/") + name, option: option)
    }
}

/// A process-wide increasing counter (unique temporary names within one process).
final class Counter: Sendable {
    private let value = Locked(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Writes `text` to `path` as an output file (see ``OutputFile``); `option` names it in messages.
/// Commands should construct the ``OutputFile`` when they parse options, so a bad path fails
/// before the work; this is for paths known only at the end (e.g. a file per counterexample).
///
/// - Throws: ``CommandError`` (73).
func writeFileAtomically(_ text: String, to path: String, option: String = "output") throws(CommandError) {
    try OutputFile(path, option: option).write(text)
}

/// Writes `bytes` to `path` as an output file; see ``writeFileAtomically(_:to:option:)-(String,_,_)``.
func writeFileAtomically(_ bytes: [UInt8], to path: String, option: String = "output") throws(CommandError) {
    try OutputFile(path, option: option).write(bytes)
}

/// `mkdir -p`: creates `path` and its missing parents.
///
/// - Throws: ``CommandError`` (73) naming the component that could not be created.
package func makeDirectories(_ path: String) throws(CommandError) {
    guard !path.isEmpty, path != ".", path != "/" else { return }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        prefix += component
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw CommandError(.cantCreate, "cannot create directory '\(prefix)': \(systemError())")
        }
        prefix += "/"
    }
}

/// The `.json` files directly inside `directory`, sorted; `nil` when it is not a directory.
///
/// - Throws: ``CommandError`` (66) for a `.json` entry that is not a regular file (a FIFO would
///   block the reader forever, a device would be read as data).
/// Whether anything (a file, a folder, a link, even a dangling one) exists at `path`: a default
/// input that exists is read, and fails loudly if it is bad, instead of being silently skipped.
package func pathExists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 || errno != ENOENT
}

func jsonFiles(in directory: String) throws(CommandError) -> [String]? {
    guard let names = FileSystem.directoryEntries(directory) else { return nil }
    var files: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") {
        let path = directory + "/" + name
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw CommandError(.noInput, "'\(path)' is not a regular file")
        }
        files.append(path)
    }
    return files
}
