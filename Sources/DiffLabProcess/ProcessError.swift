import DiffLabFormatting

/// Why DiffLab could not start, watch or clean up after a process. Each case names what failed;
/// ``description`` is one line without a program name (the command line prints it after its own
/// name, with exit status 73 for ``cannotCreateTemporaryFolder(base:reason:)`` and 1 otherwise).
public enum ProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `posix_spawn` (or `fork`) refused to start `executable`; `reason` is the system's.
    case cannotStart(executable: String, reason: String)
    /// A pipe for `executable`'s standard streams could not be made.
    case cannotMakePipe(executable: String, reason: String)
    /// `fork` failed (a forked child of this process, such as a crash-isolated fuzzing campaign).
    case cannotFork(reason: String)
    /// The child `what` wrote more than `maxBytes` to its output file and was stopped.
    case outputLimitExceeded(what: String, maxBytes: Int)
    /// The child `what` ran longer than `seconds` and was stopped.
    case timeLimitExceeded(what: String, seconds: Double)
    /// A private temporary folder could not be made in `base` (`TMPDIR`, else `/tmp`).
    case cannotCreateTemporaryFolder(base: String, reason: String)

    /// One line saying what failed, e.g. `cannot start 'git': No such file or directory`.
    public var description: String {
        switch self {
        case .cannotStart(let executable, let reason): "cannot start '\(executable)': \(reason)"
        case .cannotMakePipe(let executable, let reason): "cannot make a pipe for '\(executable)': \(reason)"
        case .cannotFork(let reason): "cannot start a process: \(reason)"
        case .outputLimitExceeded(let what, let maxBytes): "\(what) wrote more than \(formatByteCount(maxBytes)) of output; stopped"
        case .timeLimitExceeded(let what, let seconds): "\(what) ran past its limit of \(Int(seconds)) s; stopped"
        case .cannotCreateTemporaryFolder(let base, let reason): "cannot create a temporary folder in '\(base)': \(reason)"
        }
    }
}
