import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess

/// The gate's builder: the candidate and the baseline as binaries to run (this executable, a
/// given binary, or a git revision or a patched HEAD built in a worktree under `.build/gate/`),
/// launched through equal-length links after checking they speak the measuring protocol.
package enum GateBuilds {
    /// A difflab binary to measure.
    struct Build {
        /// "baseline" or "candidate".
        var label: String
        var binary: String
        var description: String
        /// What is executed: an equal-length symlink to ``binary`` (see the gate).
        var launchPath = ""
    }

    /// The candidate: `--head-binary`, HEAD with `--head-patch` built in a worktree, or this
    /// executable (its description says when the working tree has uncommitted changes).
    static func candidate(_ plan: GatePlan, dirty: Bool, console: Console) throws(CommandError) -> Build {
        if let path = plan.headBinary { return Build(label: "candidate", binary: path, description: "`\(path)`") }
        if let patch = plan.headPatch { return try buildPatched(patch, product: plan.product, console: console) }
        let commit = commandOutput("git rev-parse --short=12 HEAD") ?? "unknown"
        return Build(
            label: "candidate", binary: currentExecutablePath(),
            description: dirty ? "working tree (HEAD \(commit) with uncommitted changes)" : "HEAD \(commit)")
    }

    /// The baseline build, unless a stored baseline is used: `--base-binary`, or the revision
    /// `--base` (default HEAD when tracked files have changes or a patch is gated, else HEAD~1)
    /// built in a worktree; none when only `--save-baseline` was asked for.
    static func baseline(_ plan: GatePlan, dirty: Bool, console: Console) throws(CommandError) -> Build? {
        if let path = plan.baseBinary { return Build(label: "baseline", binary: path, description: "`\(path)`") }
        guard let revision = baselineRevision(plan, dirty: dirty) else { return nil }
        return try buildRevision(revision, product: plan.product, console: console)
    }

    /// The revision the baseline is built from: `--base`; else HEAD when tracked files have
    /// uncommitted changes or a patch is gated (the patch's effect is what is measured), else
    /// HEAD~1; `nil` when only `--save-baseline` was asked for (or a stored or binary baseline
    /// is used).
    static func baselineRevision(_ plan: GatePlan, dirty: Bool) -> String? {
        guard plan.baseline == nil, plan.baseBinary == nil, plan.saveBaseline == nil || plan.base != nil else { return nil }
        return plan.base ?? (dirty || plan.headPatch != nil ? "HEAD" : "HEAD~1")
    }

    /// `builds` ready to run: each started through an equal-length symlink in `scratch` with the
    /// same argv[0], so the path of the binary cannot shift one build's stack layout against the
    /// other's; each checked to speak ``MeasureCommand/protocolName``.
    static func launch(_ builds: [Build], scratch: String) throws(CommandError) -> [Build] {
        var launched = builds
        for index in launched.indices {
            let link = scratch + "/b\(index)"
            let target = launched[index].binary.hasPrefix("/") ? launched[index].binary : currentDirectory() + "/" + launched[index].binary
            do throws(PlatformError) {
                try FileSystem.makeSymbolicLink(at: link, to: target)
            } catch {
                throw CommandError(.failure, "cannot link \(link): \(error.message)")
            }
            launched[index].launchPath = link
        }
        for build in launched {
            let spoken = try GateMeasurements.captureOutput(
                build.launchPath,
                {
                    var line = CommandArguments<MeasureCommand.Options>(MeasureCommand.name)
                    line.add(\.protocolFlag)
                    return line.arguments
                }(), environment: [:], scratch: scratch
            ).trimmingCharacters()
            guard spoken == MeasureCommand.protocolName else {
                throw CommandError(
                    .failure,
                    "the \(build.label) (\(build.description)) does not speak \(MeasureCommand.protocolName)"
                        + " (it predates the gate, or is not difflab); choose a newer --base or use --baseline FILE")
            }
        }
        return launched
    }

    /// Builds `revision` in release mode in a worktree under `.build/gate/` (kept, so later runs
    /// against the same commit reuse the build).
    static func buildRevision(_ revision: String, product: String, console: Console) throws(CommandError) -> Build {
        guard let sha = commandOutput("git rev-parse --verify --quiet \(shellQuoted(revision + "^{commit}"))") else {
            throw CommandError(
                .failure, "cannot resolve the baseline revision '\(revision)' (a shallow clone? fetch more history or use --baseline FILE)")
        }
        let short = String(sha.prefix(12))
        let binary = try buildWorktree(
            directory: ".build/gate/base-\(short)", commit: sha, patch: nil, product: product, what: "baseline \(revision) (\(short))",
            console: console)
        return Build(label: "baseline", binary: binary, description: "`\(revision)` = \(short), built in a worktree")
    }

    /// Builds HEAD with `patch` applied, in a worktree under `.build/gate/`: a deliberate change to
    /// test the gate with, without touching the working tree.
    static func buildPatched(_ patch: String, product: String, console: Console) throws(CommandError) -> Build {
        let bytes = try readInputFile(patch)
        guard let sha = commandOutput("git rev-parse --verify HEAD") else { throw CommandError(.failure, "not in a git repository") }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let directory = ".build/gate/patched-\(sha.prefix(12))-\(String(hash, radix: 16).prefix(10))"
        let binary = try buildWorktree(
            directory: directory, commit: sha, patch: patch, product: product, what: "HEAD + \(patch)", console: console)
        return Build(label: "candidate", binary: binary, description: "HEAD \(sha.prefix(12)) + `\(patch)`, built in a worktree")
    }

    /// Builds `product` at `commit` (plus `patch`) in a worktree at `directory` (under the
    /// repository's root); the package built is the one in the current folder, at the same place
    /// inside the worktree. Returns the binary's path.
    static func buildWorktree(
        directory: String, commit: String, patch: String?, product: String, what: String, console: Console
    ) throws(CommandError) -> String {
        guard let root = commandOutput("git rev-parse --show-toplevel") else { throw CommandError(.failure, "not in a git repository") }
        // The current folder inside the repository ("" at its root; `--show-prefix` ends in "/").
        let prefix = commandOutput("git rev-parse --show-prefix") ?? ""
        // Path dependencies outside the repository (`../DiffLab`): the worktree is nested deep
        // enough that they land inside its gate folder, and linked there (see GateWorktree).
        try asCantCreate { () throws(OutputFileError) in try makeDirectories(root + "/.build/gate") }
        let folder = root + "/" + directory
        let realPackage = GateWorktree.normalized(prefix.isEmpty ? root : root + "/" + prefix)
        let external = try GateWorktree.externalPaths(packagePath: realPackage, root: root, scratch: folder + ".manifest")
        let nesting = GateWorktree.nesting(for: external, prefix: prefix)
        let path = nesting == 0 ? folder : folder + String(repeating: "/up", count: nesting - 1) + "/tree"
        let packagePath = prefix.isEmpty ? path : path + "/" + prefix
        let binary = packagePath + "/.build/release/" + product
        let marker = path + "/.difflab-gate-built"
        if FileSystem.isAccessible(marker, []) && FileSystem.isAccessible(binary, .execute) {
            console.err("gate: reusing the build of \(what) in \(directory)\n")
            return binary
        }
        if nesting > 0, let slash = path.lastIndex(of: "/") {
            try asCantCreate { () throws(OutputFileError) in try makeDirectories(String(path[..<slash])) }
        }
        let log = folder + ".log"
        console.err("gate: building \(what) in \(directory) (log: \(directory).log)\n")
        _ = try asCommandError { () throws(ProcessError) in
            try runProcess("git", ["-C", root, "worktree", "remove", "--force", path], stdout: "/dev/null", stderr: "/dev/null")
        }
        _ = try asCommandError { () throws(ProcessError) in
            try runProcess("git", ["-C", root, "worktree", "prune"], stdout: "/dev/null", stderr: "/dev/null")
        }
        var steps: [(String, [String])] = [("git", ["-C", root, "worktree", "add", "--detach", "--force", path, commit])]
        if let patch {
            let absolute = patch.hasPrefix("/") ? patch : root + "/" + patch
            steps.append(("git", ["-C", path, "apply", absolute]))
        }
        steps.append(("swift", ["build", "-c", "release", "--product", product, "--package-path", packagePath]))
        // The build step runs once the path dependencies are linked (see GateWorktree).
        let build = steps.removeLast()
        if let failure = try runLoggedSteps(steps, log: log) {
            throw CommandError(.failure, "building \(what) failed: \(failure)")
        }
        try GateWorktree.link(external, workPackage: packagePath, realPackage: realPackage, inside: folder)
        if let failure = try runLoggedSteps([build], log: log) {
            throw CommandError(.failure, "building \(what) failed: \(failure)")
        }
        // An empty marker file; a build whose marker cannot be made is built again next time.
        try? FileDescriptor.open(marker, .writeOnly, options: [.create, .truncate]).close()
        return binary
    }

    /// Runs each `(tool, arguments)` step in order, waiting for it, with its standard output and
    /// error appended to the file `log`; stops at the first step that fails. Each step is a child
    /// registered with ``Cleanup``, so an interruption stops it.
    ///
    /// - Returns: `nil` when every step succeeded, else what failed, in words
    ///   (`` `git apply x` exited 1; see LOG ``).
    /// - Throws: ``CommandError`` when a step cannot be started.
    /// - Complexity: the steps' own.
    package static func runLoggedSteps(_ steps: [(String, [String])], log: String) throws(CommandError) -> String? {
        defer { try? FileSystem.removeFile(log + ".step") }
        for (tool, arguments) in steps {
            let status = try asCommandError { () throws(ProcessError) in try runProcess(tool, arguments, stdout: log + ".step", stderr: log + ".step")
            }
            appendFile(log + ".step", to: log)
            guard status == 0 else { return "`\(tool) \(arguments.joined(separator: " "))` exited \(status); see \(log)" }
        }
        return nil
    }
}
