import DiffLabResults

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where and when a run was made, as every results file records it: the time, the machine, the
/// toolchain, the commit and whether the checkout had uncommitted changes.
struct RunProvenance {
    /// Seconds since 1970 when the run was recorded.
    var createdAt: Int
    /// The machine's description (CPU, cores, memory, kernel).
    var machine: [DisplayField]
    /// `swift --version`'s first line, or `unknown`.
    var toolchain: String
    /// `git rev-parse HEAD` of the working directory, when it is a checkout.
    var commit: String?
    /// Whether tracked files differ from the commit; `nil` when there is no checkout.
    var dirty: Bool?

    /// The provenance of a run recorded now, in the working directory.
    static func current() -> RunProvenance {
        let commit = commandOutput("git rev-parse HEAD")
        return RunProvenance(
            createdAt: Int(time(nil)), machine: machineJSONFields().map { DisplayField(name: $0.0, value: $0.1) },
            toolchain: commandOutput("swift --version") ?? "unknown", commit: commit,
            dirty: commit == nil ? nil : commandOutput("git status --porcelain --untracked-files=no 2>/dev/null | head -1") != nil)
    }
}
