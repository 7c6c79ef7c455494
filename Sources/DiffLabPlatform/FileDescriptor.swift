#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// An open file descriptor. A value type over the number: closing is explicit (``close()``), so a
/// copy never closes behind another's back. Every descriptor this type opens is close-on-exec, so
/// no child process inherits one by accident.
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The descriptor's number.
    package let rawValue: Int32
    /// A descriptor from its number (one this process holds). - Complexity: O(1).
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Standard input (0).
    package static let standardInput = FileDescriptor(rawValue: 0)
    /// Standard output (1).
    package static let standardOutput = FileDescriptor(rawValue: 1)
    /// Standard error (2).
    package static let standardError = FileDescriptor(rawValue: 2)

    /// How a file is opened: for reading, writing or both (`O_RDONLY`, `O_WRONLY`, `O_RDWR`).
    package enum Access: Sendable {
        case readOnly, writeOnly, readWrite

        /// The `open` flag. Darwin: the same names.
        var flag: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// What else `open` does. `O_CLOEXEC` is always added.
    package struct Options: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// `O_CREAT`: create the file when absent (with the given permissions).
        package static let create = Options(rawValue: O_CREAT)
        /// `O_EXCL` (with ``create``): fail with `EEXIST` when the path exists, even as a link.
        package static let exclusive = Options(rawValue: O_EXCL)
        /// `O_TRUNC`: empty a regular file.
        package static let truncate = Options(rawValue: O_TRUNC)
        /// `O_APPEND`: every write goes to the end.
        package static let append = Options(rawValue: O_APPEND)
        /// `O_NOFOLLOW`: refuse a symbolic link as the last component (`ELOOP` on Linux and Darwin).
        package static let noFollow = Options(rawValue: O_NOFOLLOW)
        /// `O_NONBLOCK`: never wait in `open` (a FIFO without a writer) nor in reads and writes.
        package static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// `O_DIRECTORY`: fail unless the path is a folder.
        package static let directory = Options(rawValue: O_DIRECTORY)
    }

    /// Opens `path`; retried when a signal interrupts it.
    ///
    /// - Throws: ``PlatformError`` naming `open` and the path.
    /// - Complexity: one system call.
    package static func open(
        _ path: String, _ access: Access, options: Options = [], permissions: UInt16 = 0o644
    ) throws(PlatformError) -> FileDescriptor {
        let flags = access.flag | options.rawValue | O_CLOEXEC
        let number = try retryingInterrupted("open", path: path) { _systemOpen(path, flags, mode_t(permissions)) }
        return FileDescriptor(rawValue: number)
    }

    /// A pipe: its read end and its write end, both close-on-exec (`pipe`, then `FD_CLOEXEC` on
    /// each end: Darwin has no `pipe2`, and Swift's Glibc module does not declare it either). A
    /// child spawned by another thread in between could inherit an end, which is why DiffLab makes
    /// pipes under the lock it spawns under (``Cleanup``'s registry).
    ///
    /// - Complexity: three system calls.
    package static func pipe() throws(PlatformError) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard _systemPipe(&ends) == 0 else { throw .current("pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Reads at most `buffer.count` bytes into `buffer`: how many (0 at the end of the file).
    /// Retried when interrupted.
    ///
    /// - Throws: ``PlatformError`` (`EAGAIN` is ``PlatformError/Code/wouldBlock`` for a
    ///   non-blocking descriptor with nothing to read).
    /// - Complexity: one system call.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlatformError) -> Int {
        try retryingInterrupted("read") { _systemRead(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads until the end of the file or `limit` bytes, whichever comes first.
    ///
    /// - Throws: ``PlatformError`` from `read`.
    /// - Complexity: O(min(size, limit)).
    package func readAll(limit: Int) throws(PlatformError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(PlatformError) -> Int in try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted])) }
            }.get()
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Writes some of `bytes`: how many were written. Retried when interrupted.
    ///
    /// - Complexity: one system call.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(PlatformError) -> Int {
        try retryingInterrupted("write") { _systemWrite(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    ///
    /// - Throws: ``PlatformError`` from `write` (a write of zero bytes is `EIO`).
    /// - Complexity: O(bytes).
    package func writeAll(_ bytes: [UInt8]) throws(PlatformError) {
        var offset = 0
        while offset < bytes.count {
            let written = try bytes.withUnsafeBytes { buffer in
                Result { () throws(PlatformError) -> Int in try write(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }.get()
            guard written > 0 else { throw PlatformError(PlatformError.Code(rawValue: EIO), operation: "write") }
            offset += written
        }
    }

    /// Closes the descriptor. Not retried on `EINTR` (Linux and Darwin both release the number
    /// anyway; a retry could close another thread's new descriptor).
    ///
    /// - Throws: ``PlatformError`` when `close` reports a failure (a delayed write error).
    /// - Complexity: one system call.
    package func close() throws(PlatformError) {
        guard _systemClose(rawValue) == 0 else { throw .current("close") }
    }

    /// Closes the descriptor, ignoring what `close` reports (for error paths). - Complexity: one system call.
    package func closeIgnoringErrors() { _ = _systemClose(rawValue) }

    /// What the open file is (`fstat`).
    ///
    /// - Complexity: one system call.
    package func facts() throws(PlatformError) -> FileFacts {
        var status = stat()
        guard fstat(rawValue, &status) == 0 else { throw .current("fstat") }
        return FileFacts(status)
    }

    /// Sets the file's access and modification times to `seconds` and `nanoseconds` since 1970
    /// (`futimens`, the same on Linux and Darwin since macOS 10.13).
    ///
    /// - Complexity: one system call.
    package func setModificationTime(seconds: Int, nanoseconds: Int = 0) throws(PlatformError) {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        guard futimens(rawValue, &times) == 0 else { throw .current("futimens") }
    }

    /// Makes reads and writes non-blocking (`fcntl(F_SETFL, O_NONBLOCK)`). - Complexity: two system calls.
    package func setNonBlocking() {
        _ = fcntl(rawValue, F_SETFL, fcntl(rawValue, F_GETFL) | O_NONBLOCK)
    }

    /// Whether the descriptor is a terminal (`isatty`). - Complexity: one system call.
    package var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Waits until one of `descriptors` can be read (or has hung up), at most `milliseconds`
    /// (-1: as long as it takes): the ones that are ready. `poll`, the same on Linux and Darwin
    /// for pipes and files; an interruption returns no descriptor.
    ///
    /// - Complexity: one system call; O(descriptors).
    package static func waitReadable(_ descriptors: [FileDescriptor], milliseconds: Int32) -> [FileDescriptor] {
        var entries = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        guard poll(&entries, nfds_t(entries.count), milliseconds) > 0 else { return [] }
        return entries.filter { $0.revents != 0 }.map { FileDescriptor(rawValue: $0.fd) }
    }
}

/// What a path is, from `stat`: the kinds `st_mode` tells apart (`S_IF*`, the same on Linux and
/// Darwin).
package enum FileKind: Sendable, Equatable {
    case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown
}

/// The facts of `stat` DiffLab reads: kind, size, permission bits and last modification time.
package struct FileFacts: Sendable, Equatable {
    /// What the file is.
    package var kind: FileKind
    /// Its size in bytes (0 for what has none).
    package var size: Int
    /// The permission bits (`st_mode & 0o7777`).
    package var permissions: UInt16
    /// The last modification, in whole seconds since 1970 and nanoseconds after them: `st_mtim`
    /// on Linux, `st_mtimespec` on Darwin.
    package var modified: (seconds: Int, nanoseconds: Int)

    package static func == (a: FileFacts, b: FileFacts) -> Bool {
        a.kind == b.kind && a.size == b.size && a.permissions == b.permissions && a.modified == b.modified
    }

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .unknown
        }
        size = max(0, Int(status.st_size))
        permissions = UInt16(truncatingIfNeeded: status.st_mode & 0o7777)
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        modified = (Int(time.tv_sec), Int(time.tv_nsec))
    }
}

// The C calls under names that do not clash with the methods above.
private func _systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func _systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func _systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func _systemPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }
private func _systemClose(_ fd: Int32) -> Int32 { close(fd) }
