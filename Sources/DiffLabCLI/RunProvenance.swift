import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

extension RunProvenance {
    /// The provenance of a run recorded now, in the working directory: the time, the machine,
    /// `swift --version`'s first line (or `unknown`), `git rev-parse HEAD` when the directory is
    /// a checkout, and whether tracked files differ from it (`nil` outside a checkout). The run's
    /// `seconds` are the caller's to set when it ends.
    package static func current() -> RunProvenance {
        let commit = commandOutput("git rev-parse HEAD")
        return RunProvenance(
            createdAt: secondsSince1970(), machine: machineJSONFields().map { DisplayField(name: $0.0, value: $0.1) },
            toolchain: commandOutput("swift --version") ?? "unknown", commit: commit,
            dirty: commit == nil ? nil : commandOutput("git status --porcelain --untracked-files=no 2>/dev/null | head -1") != nil)
    }
}
