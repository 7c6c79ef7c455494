import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// The importer that makes a ``Trace`` of one file's lines across the history of a git repository.
///
/// The versions are the file at each first-parent commit of `HEAD` that touched it (`git log
/// --first-parent -- PATH`), oldest first, each commit's committer time as its timestamp. Each
/// line (split at `\n`; a final newline ends the last line rather than starting an empty one)
/// becomes an item whose identifier and content are both the hash of its bytes
/// (``traceHash(bytes:)``): equal lines are equal items, so a file with many repeated lines is a
/// list with many duplicate identifiers. A commit where the file is absent (deleted) is an empty
/// version. No text of the file is kept.
public enum GitImport {
    /// The most versions an import keeps by default: 10,000 (the newest ones).
    public static let defaultMaxVersions = 10_000
    /// The allowed range of `maxVersions`: 2 to 1,000,000.
    public static let maxVersionsRange = 2...1_000_000
    /// The longest one git command may run: 300 seconds.
    public static let commandSeconds = 300.0

    /// Imports `path` (relative to the repository's root) across the first-parent history of the
    /// repository at `repository` (a work tree or a bare repository), keeping the newest
    /// `maxVersions` commits that touched it.
    ///
    /// - Parameters:
    ///   - repository: the repository's folder (a work tree or a bare repository).
    ///   - path: the file imported, relative to the repository's root.
    ///   - maxVersions: the most commits kept, the newest (``maxVersionsRange``; default
    ///     ``defaultMaxVersions``).
    ///   - maxBytes: the most bytes of one git answer (the commit list, or one version of the file).
    ///   - source: the provenance's `source`; by default `git <repository> <path>` and the
    ///     commit range.
    ///   - date: the provenance's `date`.
    /// - Throws: ``TraceImportError`` when git cannot be run, the repository or path is unknown to
    ///   it, no commit touches the file, or a version is binary (it holds a NUL byte) or too large.
    /// - Complexity: one git process per commit kept, plus one; O(total bytes of the versions).
    public static func history(
        repository: String, path: String, maxVersions: Int = defaultMaxVersions, maxBytes: Int, source: String? = nil,
        date: String
    ) throws(TraceImportError) -> Trace {
        guard maxVersionsRange.contains(maxVersions) else {
            throw TraceImportError(
                "the most versions should be from \(maxVersionsRange.lowerBound) to \(maxVersionsRange.upperBound), not \(maxVersions)")
        }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("-") else {
            throw TraceImportError("'\(path)': expected a path relative to the repository's root")
        }
        let folder: String
        do { folder = try Cleanup.shared.makeTemporaryDirectory("difflab-trace") } catch { throw TraceImportError(error.description) }
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        var run = GitRunner(repository: repository, folder: folder, maxBytes: maxBytes)

        let log = try run(["log", "--first-parent", "--format=%H %ct", "HEAD", "--", path], what: "the commits that touch '\(path)'")
        guard log.status == 0 else { throw run.failure(log, what: "'\(repository)': git log") }
        var commits: [(sha: String, time: Int)] = []
        for line in log.output.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count == 2, let seconds = Int(String(decoding: fields[1], as: UTF8.self)), seconds >= 0,
                seconds <= Trace.maxTimestampMs / 1000
            else { throw TraceImportError("'\(repository)': git log printed a line that is not a commit and a time: \(excerpt(line[...]))") }
            commits.append((String(decoding: fields[0], as: UTF8.self), seconds))
        }
        guard !commits.isEmpty else { throw TraceImportError("'\(repository)': no first-parent commit of HEAD touches '\(path)'") }
        let total = commits.count
        commits = Array(commits.prefix(maxVersions).reversed())

        let provenance = TraceProvenance(
            source: source
                ?? "git \(repository) \(path): first-parent commits \(commits[0].sha.prefix(12))..\(commits[commits.count - 1].sha.prefix(12)) (\(commits.count) of \(total) that touch it)",
            tool: "difflab trace git", date: date, ids: "FNV-1a 64 (hex) of the line's bytes",
            contents: "the identifier: a line is its own content")
        var trace = Trace(provenance: provenance)
        var previousTime = 0
        for commit in commits {
            let exists = try run(["cat-file", "-e", "\(commit.sha):\(path)"], what: "whether '\(path)' exists at \(commit.sha)")
            var lines: [(id: String, content: String)] = []
            if exists.status == 0 {
                let blob = try run(["cat-file", "-p", "\(commit.sha):\(path)"], what: "'\(path)' at \(commit.sha)")
                guard blob.status == 0 else { throw run.failure(blob, what: "'\(repository)': git cat-file \(commit.sha):\(path)") }
                guard !blob.output.contains(0) else {
                    throw TraceImportError("'\(path)' at \(commit.sha) is binary (it holds a NUL byte); a trace is of a text file's lines")
                }
                var split = blob.output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                if split.last?.isEmpty == true { split.removeLast() }
                lines = split.map { line in
                    let hash = traceHash(bytes: line)
                    return (hash, hash)
                }
            }
            // Committer times of first-parent commits can go backwards (a rebase, a skewed clock):
            // a trace's times never do, so such a commit keeps the previous time.
            previousTime = max(previousTime, commit.time * 1000)
            trace.append(lines, timestampMs: previousTime)
        }
        return trace
    }
}

/// Runs git commands on one repository, each answer bounded in bytes and time.
private struct GitRunner {
    let repository: String
    let folder: String
    let maxBytes: Int
    private var count = 0

    init(repository: String, folder: String, maxBytes: Int) {
        self.repository = repository
        self.folder = folder
        self.maxBytes = maxBytes
    }

    /// Runs `git -C REPOSITORY ARGUMENTS`: its exit status, standard output and standard error.
    mutating func callAsFunction(_ arguments: [String], what: String) throws(TraceImportError) -> (status: Int32, output: [UInt8], errors: [UInt8]) {
        count += 1
        let out = "\(folder)/out-\(count)"
        let err = "\(folder)/err-\(count)"
        defer {
            FileSystem.removeTree(out)
            FileSystem.removeTree(err)
        }
        do {
            let pid = try spawnProcess(
                "git", ["-C", repository] + arguments, environment: ["GIT_PAGER": "cat", "LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1"],
                stdout: out, stderr: err)
            let status = try waitProcess(pid, writing: out, maxBytes: maxBytes, seconds: GitImport.commandSeconds, what: "git (\(what))")
            let output = try readFile(out, limit: maxBytes)
            let errors = (try? readFile(err, limit: 64 << 10)) ?? []
            return (status, output, errors)
        } catch let error as ProcessError {
            if case .cannotStart = error { throw TraceImportError("\(error) (the git importer needs git on PATH)", missingInput: true) }
            throw TraceImportError(error.description)
        } catch let error as FileReadError {
            throw TraceImportError("git (\(what)): \(error)")
        } catch {
            throw TraceImportError("git (\(what)): \(error)")
        }
    }

    /// The error for a git command that failed: what it was and the first line git printed.
    func failure(_ answer: (status: Int32, output: [UInt8], errors: [UInt8]), what: String) -> TraceImportError {
        let message = answer.errors.split(separator: UInt8(ascii: "\n")).first.map { excerpt($0) } ?? "no message"
        let missing = message.contains("not a git repository") || message.contains("cannot change to")
        return TraceImportError("\(what) failed (exit \(answer.status)): \(message)", missingInput: missing)
    }
}
