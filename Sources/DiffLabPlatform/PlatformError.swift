#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// A failed system call: the `errno` it left, the operation and, when there is one, the path.
///
/// The message is the C library's (`strerror`), which differs between Linux and Darwin; the
/// ``name`` (`ENOENT`) is the same on both, so tests and failure signatures compare names or
/// ``Code`` values, never messages.
package struct PlatformError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value.
    package var code: Code
    /// The call or step that failed, e.g. `open`.
    package var operation: String
    /// The path the call was given, if any.
    package var path: String?

    /// An error for `code`. - Complexity: O(1).
    package init(_ code: Code, operation: String, path: String? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
    }

    /// The error the last failed call of this thread left in `errno`. - Complexity: O(1).
    package static func current(_ operation: String, path: String? = nil) -> PlatformError {
        PlatformError(Code(rawValue: errno), operation: operation, path: path)
    }

    /// The system's message for the code (`strerror`; its wording is the platform's).
    package var message: String { code.message }

    /// `ENOENT`: the code's symbolic name, the same on every platform.
    package var name: String { code.name }

    /// `open '/x': No such file or directory (ENOENT)`.
    package var description: String {
        "\(operation)\(path.map { " '\($0)'" } ?? ""): \(message) (\(name))"
    }

    /// An `errno` value with names for those DiffLab tells apart. Linux and Darwin number them
    /// differently (`EAGAIN` is 11 on Linux, 35 on Darwin), so code compares these constants.
    package struct Code: RawRepresentable, Hashable, Sendable {
        /// The platform's number.
        package var rawValue: Int32
        /// A code from its number. - Complexity: O(1).
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// `EPERM`. Darwin: the same name.
        package static let notPermitted = Code(rawValue: EPERM)
        /// `ENOENT`.
        package static let noSuchFile = Code(rawValue: ENOENT)
        /// `ESRCH`.
        package static let noSuchProcess = Code(rawValue: ESRCH)
        /// `EINTR`.
        package static let interrupted = Code(rawValue: EINTR)
        /// `ENXIO` (e.g. a FIFO opened for writing without blocking, with no reader).
        package static let noDevice = Code(rawValue: ENXIO)
        /// `ECHILD`.
        package static let noChild = Code(rawValue: ECHILD)
        /// `EAGAIN` (the same value as `EWOULDBLOCK` on both platforms).
        package static let wouldBlock = Code(rawValue: EAGAIN)
        /// `EACCES`.
        package static let accessDenied = Code(rawValue: EACCES)
        /// `EEXIST`.
        package static let exists = Code(rawValue: EEXIST)
        /// `ENOTDIR`.
        package static let notDirectory = Code(rawValue: ENOTDIR)
        /// `EISDIR`.
        package static let isDirectory = Code(rawValue: EISDIR)
        /// `EPIPE`.
        package static let brokenPipe = Code(rawValue: EPIPE)
        /// `ELOOP`: a symbolic link where `O_NOFOLLOW` refuses one (Linux and Darwin both).
        package static let symbolicLinkLoop = Code(rawValue: ELOOP)
        /// `ENOTEMPTY`.
        package static let notEmpty = Code(rawValue: ENOTEMPTY)
        /// `ENOSYS`.
        package static let notImplemented = Code(rawValue: ENOSYS)
        /// `ENOSPC`.
        package static let noSpace = Code(rawValue: ENOSPC)

        private static let names: [Int32: String] = [
            EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", E2BIG: "E2BIG",
            ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES",
            EFAULT: "EFAULT", EBUSY: "EBUSY", EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR",
            EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ETXTBSY: "ETXTBSY", EFBIG: "EFBIG",
            ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", EPIPE: "EPIPE", ERANGE: "ERANGE",
            ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS", ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", EDQUOT: "EDQUOT",
            ETIMEDOUT: "ETIMEDOUT", EOVERFLOW: "EOVERFLOW",
        ]

        /// `ENOENT`, or `errno N` for a value without a name here. - Complexity: O(1).
        package var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }

        /// The system's message (`strerror`). - Complexity: O(message).
        package var message: String {
            guard let text = strerror(rawValue) else { return "error \(rawValue)" }
            return String(cString: text)
        }
    }
}

/// Runs `call` again while it fails with `EINTR`: its result, or the error it left.
///
/// - Complexity: one call, more only when a signal interrupts it.
@inline(__always)
package func retryingInterrupted<Result: BinaryInteger>(
    _ operation: String, path: String? = nil, _ call: () -> Result
) throws(PlatformError) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = PlatformError.current(operation, path: path)
        if error.code != .interrupted { throw error }
    }
}
