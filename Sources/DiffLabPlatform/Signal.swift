#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// A signal by name. Linux and Darwin number most signals alike but not all (`SIGBUS` is 7 on
/// Linux, 10 on Darwin; `SIGUSR1` 10 and 30), so DiffLab names them and never writes a number.
package struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The platform's number.
    package var rawValue: Int32
    /// A signal from its number. - Complexity: O(1).
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SIGHUP`.
    package static let hangup = Signal(rawValue: SIGHUP)
    /// `SIGINT` (Control-C).
    package static let interrupt = Signal(rawValue: SIGINT)
    /// `SIGQUIT`.
    package static let quit = Signal(rawValue: SIGQUIT)
    /// `SIGILL`.
    package static let illegalInstruction = Signal(rawValue: SIGILL)
    /// `SIGTRAP` (a Swift runtime trap on arm64; on x86-64 a trap is `SIGILL`).
    package static let trap = Signal(rawValue: SIGTRAP)
    /// `SIGABRT`.
    package static let abort = Signal(rawValue: SIGABRT)
    /// `SIGBUS`.
    package static let bus = Signal(rawValue: SIGBUS)
    /// `SIGFPE`.
    package static let floatingPoint = Signal(rawValue: SIGFPE)
    /// `SIGKILL` (cannot be caught).
    package static let kill = Signal(rawValue: SIGKILL)
    /// `SIGUSR1`.
    package static let user1 = Signal(rawValue: SIGUSR1)
    /// `SIGSEGV`.
    package static let segmentationFault = Signal(rawValue: SIGSEGV)
    /// `SIGUSR2`.
    package static let user2 = Signal(rawValue: SIGUSR2)
    /// `SIGPIPE`.
    package static let brokenPipe = Signal(rawValue: SIGPIPE)
    /// `SIGALRM`.
    package static let alarm = Signal(rawValue: SIGALRM)
    /// `SIGTERM`.
    package static let terminate = Signal(rawValue: SIGTERM)
    /// `SIGCHLD`.
    package static let child = Signal(rawValue: SIGCHLD)
    /// `SIGSTOP` (cannot be caught).
    package static let stop = Signal(rawValue: SIGSTOP)
    /// `SIGCONT`.
    package static let `continue` = Signal(rawValue: SIGCONT)
    /// `SIGXCPU` (the CPU-time limit).
    package static let cpuLimit = Signal(rawValue: SIGXCPU)
    /// `SIGSYS`.
    package static let badSystemCall = Signal(rawValue: SIGSYS)

    private static let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
        SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2",
        SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGCHLD: "SIGCHLD", SIGSTOP: "SIGSTOP", SIGCONT: "SIGCONT",
        SIGXCPU: "SIGXCPU", SIGSYS: "SIGSYS",
    ]

    /// `SIGSEGV`: the stable name (failure signatures carry it, so it must not depend on the C
    /// library's wording), or `signal N` for one without a name here. - Complexity: O(1).
    package var name: String { Self.names[rawValue] ?? "signal \(rawValue)" }

    /// The C library's words for it (`strsignal`: "Segmentation fault"; the wording differs
    /// between Linux and Darwin). - Complexity: O(message).
    package var message: String { strsignal(rawValue).map { String(cString: $0) } ?? "unknown" }

    /// ``name``.
    package var description: String { name }
}
