import DiffLabPlatform

/// Why an output file or folder cannot be DiffLab's (``OutputFile``, ``OutputDirectory``,
/// ``makeDirectories(_:)``): one line naming the option, the path and the problem. The command
/// line ends with `EX_CANTCREAT` (73) for it.
package struct OutputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line, without the program name.
    package var message: String

    /// An error saying `message`. - Complexity: O(1).
    package init(_ message: String) { self.message = message }

    /// ``message``.
    package var description: String { message }
}

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
    /// - Throws: ``OutputFileError`` naming the option, the path and what is wrong with it.
    /// - Complexity: O(path components) system calls.
    package init(_ path: String, option: String) throws(OutputFileError) {
        self.path = path
        self.option = option
        try check()
    }

    /// Checks only that the nearest existing ancestor of `path` takes new entries (for a folder
    /// that does not exist yet).
    fileprivate init(_ path: String, option: String, checkingParentOnly: Bool) throws(OutputFileError) {
        self.path = path
        self.option = option
        try checkParent()
    }

    /// Checks the target and its nearest existing parent; see the type's rule.
    func check() throws(OutputFileError) {
        guard !path.isEmpty else { throw fail("the path is empty") }
        guard !path.hasSuffix("/") else { throw fail("the path names a directory; give a file name") }
        let facts: FileFacts
        do throws(PlatformError) {
            facts = try FileSystem.facts(path, followingLinks: false)
        } catch {
            guard error.code == .noSuchFile else { throw fail(error.message) }
            try checkParent()
            return
        }
        if let problem = Self.problem(facts.kind) { throw fail(problem) }
        do throws(PlatformError) {
            try FileSystem.checkAccess(path, .write)
        } catch {
            throw fail("not writable: \(error.message)")
        }
        try checkParent()
    }

    /// The nearest existing ancestor must be a directory this process may create entries in.
    private func checkParent() throws(OutputFileError) {
        var parent = Self.parent(of: path)
        while true {
            let facts: FileFacts
            do throws(PlatformError) {
                facts = try FileSystem.facts(parent)
            } catch {
                guard error.code == .noSuchFile, parent != "/", parent != "." else { throw fail("'\(parent)': \(error.message)") }
                parent = Self.parent(of: parent)
                continue
            }
            guard facts.kind == .directory else { throw fail("'\(parent)' is not a directory") }
            do throws(PlatformError) {
                try FileSystem.checkAccess(parent, [.write, .execute])
            } catch {
                throw fail("cannot create files in '\(parent)': \(error.message)")
            }
            return
        }
    }

    /// Writes `text`; see ``write(_:)-([UInt8])``.
    package func write(_ text: String) throws(OutputFileError) { try write(Array(text.utf8)) }

    /// Writes `bytes` atomically: creates missing parents, writes a temporary file beside the
    /// target, checks the target again and renames the temporary file over it.
    ///
    /// - Throws: ``OutputFileError`` naming the path and the system's reason; the temporary file
    ///   is removed.
    /// - Complexity: O(bytes).
    package func write(_ bytes: [UInt8]) throws(OutputFileError) {
        try makeDirectories(Self.parent(of: path))
        let temporary = "\(path).tmp-\(currentProcessID())-\(Self.counter.next())"
        let descriptor: FileDescriptor
        do throws(PlatformError) {
            descriptor = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: 0o644)
        } catch {
            throw fail("cannot create '\(temporary)': \(error.message)")
        }
        Cleanup.shared.register(file: temporary)
        defer { Cleanup.shared.unregister(file: temporary) }
        var failure: PlatformError?
        do throws(PlatformError) { try descriptor.writeAll(bytes) } catch { failure = error }
        // A failed close reports a delayed write error: it is the reason given when both fail.
        do throws(PlatformError) { try descriptor.close() } catch { failure = error }
        if let failure {
            try? FileSystem.removeFile(temporary)
            throw fail("cannot write: \(failure.message)")
        }
        do throws(OutputFileError) {
            try check()
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error
        }
        // Interrupted meanwhile: leave no new output (the cleanup thread is ending the process).
        guard !Cleanup.shared.isInterrupted else {
            try? FileSystem.removeFile(temporary)
            throw fail("interrupted")
        }
        do throws(PlatformError) {
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.removeFile(temporary)
            throw fail("cannot replace: \(error.message)")
        }
    }

    /// Appends `text` to the file (for a log another tool owns, such as `$GITHUB_STEP_SUMMARY`):
    /// opened without following a link and without blocking, and written only when it is a
    /// regular file, so a FIFO, device or link put in its place is refused, never written through.
    ///
    /// - Throws: ``OutputFileError`` naming the path and the reason.
    /// - Complexity: O(text).
    package func append(_ text: String) throws(OutputFileError) {
        let descriptor: FileDescriptor
        do throws(PlatformError) {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.append, .create, .noFollow, .nonBlocking], permissions: 0o644)
        } catch {
            throw fail("cannot open for appending: \(error.message)")
        }
        defer { descriptor.closeIgnoringErrors() }
        let facts: FileFacts
        do throws(PlatformError) { facts = try descriptor.facts() } catch { throw fail(error.message) }
        if let problem = Self.problem(facts.kind) { throw fail(problem) }
        do throws(PlatformError) {
            try descriptor.writeAll(Array(text.utf8))
        } catch {
            throw fail("cannot append: \(error.message)")
        }
    }

    private func fail(_ reason: String) -> OutputFileError {
        OutputFileError("\(option) '\(path)': \(reason)")
    }

    /// Why a file of `kind` cannot be an output file, or `nil` for a regular file.
    static func problem(_ kind: FileKind) -> String? {
        switch kind {
        case .regular: nil
        case .directory: "is a directory; give a file name"
        case .symbolicLink: "is a symbolic link; DiffLab writes only regular files it owns (give the link's target path instead)"
        case .fifo: "is a FIFO; DiffLab writes only regular files"
        case .characterDevice, .blockDevice: "is a device; DiffLab writes only regular files"
        case .socket: "is a socket; DiffLab writes only regular files"
        case .unknown: "is not a regular file"
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
package struct OutputDirectory: Sendable {
    /// The folder as the user gave it.
    package let path: String
    /// The option that named it, for messages.
    let option: String

    /// Checks that `path` is, or can become, a folder DiffLab may write into.
    ///
    /// - Throws: ``OutputFileError`` naming the option, the path and the problem.
    /// - Complexity: O(path components) system calls.
    package init(_ path: String, option: String) throws(OutputFileError) {
        self.path = path
        self.option = option
        guard !path.isEmpty else { throw OutputFileError("\(option): the path is empty") }
        let facts: FileFacts
        do throws(PlatformError) {
            facts = try FileSystem.facts(path)
        } catch {
            guard error.code == .noSuchFile else { throw OutputFileError("\(option) '\(path)': \(error.message)") }
            if FileSystem.factsIfPresent(path, followingLinks: false) != nil {
                throw OutputFileError("\(option) '\(path)': a symbolic link to nothing")
            }
            // Absent: the nearest existing parent must take a new folder.
            _ = try OutputFile(path + "/.", option: option, checkingParentOnly: true)
            return
        }
        guard facts.kind == .directory else { throw OutputFileError("\(option) '\(path)': not a folder") }
        do throws(PlatformError) {
            try FileSystem.checkAccess(path, [.write, .execute])
        } catch {
            throw OutputFileError("\(option) '\(path)': \(error.message)")
        }
    }

    /// The output file `name` inside the folder.
    ///
    /// - Throws: ``OutputFileError`` when that file exists and is not a regular file.
    /// - Complexity: O(path components) system calls.
    package func file(_ name: String) throws(OutputFileError) -> OutputFile {
        try OutputFile((path.hasSuffix("/") ? path : path + "/") + name, option: option)
    }
}

/// A process-wide increasing counter (unique temporary names within one process).
private final class Counter: Sendable {
    private let value = Locked(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
