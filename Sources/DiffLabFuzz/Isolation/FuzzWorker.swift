import DiffLabCore
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

// Crash isolation with spawned workers: where `fork` is unavailable (Darwin) or not wanted, the
// supervisor starts a worker process that rebuilds the same campaign options from its own command
// line and reads its job (a campaign round, or one replayed check) from a file.

/// How a crash-isolated campaign (``FuzzSupervisor``) starts the processes it watches.
public enum FuzzIsolation: Sendable, Equatable {
    /// `fork()`: the campaign and each replayed check run in a copy of this process, with the
    /// subjects' closures as they are. Linux only (``FuzzIsolation/platformDefault`` there);
    /// elsewhere the supervisor throws ``FuzzIsolationError/process(_:)`` (`cannotFork`).
    case fork
    /// A new process started with `posix_spawn`: the program ``FuzzWorkerCommand`` names must
    /// rebuild the very same ``FuzzOptions`` (the same subjects in the same order, properties,
    /// seed and sizes) and call ``FuzzSupervisor/runWorker(job:options:)`` with the job path the
    /// supervisor appends to its arguments. `difflab fuzz --isolation spawn` starts itself again.
    case spawn(FuzzWorkerCommand)

    /// `.fork` where this platform can fork (Linux); otherwise `nil`: a spawned worker needs a
    /// program that rebuilds the options, which only the caller can name.
    public static var platformDefault: FuzzIsolation? { platformCanFork ? .fork : nil }
}

/// The program a spawned fuzzing worker runs (see ``FuzzIsolation/spawn(_:)``).
public struct FuzzWorkerCommand: Sendable, Equatable {
    /// The executable: a path, or a name looked up on `PATH`.
    public var executable: String
    /// Its arguments; the supervisor appends one more, the path of the job file.
    public var arguments: [String]
    /// Variables added to (or, with `nil`, removed from) the worker's environment.
    public var environment: [String: String?]

    /// A worker command; see the properties.
    public init(executable: String, arguments: [String], environment: [String: String?] = [:]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }
}

/// Why a spawned worker refused its job (it then exits with status 3 and says so on standard
/// error).
public enum FuzzWorkerJobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The job file cannot be read (missing, a symbolic link, not a regular file, over the limit).
    case unreadable(FileReadError)
    /// The job file is not JSON.
    case notJSON(JSONParseError)
    /// The job file is not a job (``ResultsError`` names the field).
    case malformed(ResultsError)
    /// The job names a subject or property index outside the worker's options: the worker was
    /// not started with the supervisor's options.
    case outOfRange(field: String, value: Int, count: Int)
    /// The shared slots file cannot be mapped, or the findings file cannot be created.
    case files(String)

    public var description: String {
        switch self {
        case .unreadable(let error): "the job file is unreadable: \(error)"
        case .notJSON(let error): "the job file is not JSON: \(error)"
        case .malformed(let error): "the job file is not a fuzzing job: \(error)"
        case .outOfRange(let field, let value, let count):
            "the job's \(field) is \(value), but the worker's options have \(count) (was it started with the supervisor's options?)"
        case .files(let what): what
        }
    }
}

extension FuzzSupervisor {
    /// The most bytes of a job file a worker reads (a campaign's skipped checks and known
    /// failures, or a replay's choices, fit in far less).
    public static let maxJobBytes = 64 << 20

    /// In a worker process started by a supervisor whose ``isolation`` is
    /// ``FuzzIsolation/spawn(_:)``: runs the job in the file at `job` with `options` (which must
    /// be the supervisor's) and ends the process. A campaign exits 0 when it ran to its end; a
    /// replay exits 0 when its check passed and 1 when it failed; a crash or a hang of an engine
    /// ends the process as it would have ended a forked one. A job that cannot be read, or that
    /// does not fit `options`, is said on standard error with exit status 3.
    ///
    /// - Complexity: the job's: a campaign round, or one check.
    public static func runWorker(job path: String, options: FuzzOptions) -> Never {
        let job: FuzzWorkerJobRecord
        do throws(FuzzWorkerJobError) {
            job = try readJob(path, options: options)
        } catch {
            try? FileDescriptor.standardError.writeAll(Array("fuzz worker: \(path): \(error)\n".utf8))
            endChild(3)
        }
        if !job.backtraces { restoreDefaultCrashHandling() }
        switch job.kind {
        case .campaign:
            var child = options
            child.firstInput = job.firstInput
            child.seconds = job.seconds
            child.skipping = Set(job.skipping.map { FuzzOptions.checkKey(subject: $0[0], property: $0[1]) })
            child.known = Set(job.known)
            let slots: FuzzSlots
            do { slots = try FuzzSlots(workers: max(options.workers, 1), attaching: job.slots) } catch {
                try? FileDescriptor.standardError.writeAll(Array("fuzz worker: cannot map the shared slots \(job.slots)\n".utf8))
                endChild(3)
            }
            guard slots.openFindings(job.findings) else {
                try? FileDescriptor.standardError.writeAll(Array("fuzz worker: cannot create the findings file \(job.findings)\n".utf8))
                endChild(3)
            }
            child.watcher = slots
            _ = runFuzzer(child)
            endChild(0)
        case .replay:
            var source = DataSource(replaying: job.choices)
            let input = options.input(&source, size: job.size)
            endChild(options.properties[job.property].check(input, options.subjects[job.subject]) == nil ? 0 : 1)
        }
    }

    /// The job at `path`, checked against `options`.
    static func readJob(_ path: String, options: FuzzOptions) throws(FuzzWorkerJobError) -> FuzzWorkerJobRecord {
        // The supervisor writes a regular file in its private folder: a link there is not its job.
        if FileSystem.factsIfPresent(path, followingLinks: false)?.kind == .symbolicLink {
            throw .unreadable(.cannotOpen(path: path, reason: "a symbolic link (a job file is never read through one)"))
        }
        let bytes: [UInt8]
        do { bytes = try readFile(path, limit: maxJobBytes, regularOnly: true) } catch { throw .unreadable(error) }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: bytes) } catch { throw .notJSON(error) }
        let job: FuzzWorkerJobRecord
        do { job = try FuzzWorkerJobRecord(json: json, source: path) } catch { throw .malformed(error) }
        let (subjects, properties) = (options.subjects.count, options.properties.count)
        switch job.kind {
        case .campaign:
            for pair in job.skipping {
                guard pair[0] < subjects else { throw .outOfRange(field: "skipping subject", value: pair[0], count: subjects) }
                guard pair[1] < properties else { throw .outOfRange(field: "skipping property", value: pair[1], count: properties) }
            }
        case .replay:
            guard job.subject < subjects else { throw .outOfRange(field: "subject", value: job.subject, count: subjects) }
            guard job.property < properties else { throw .outOfRange(field: "property", value: job.property, count: properties) }
            guard job.size <= max(options.maxSize, options.largeSize) else {
                throw .outOfRange(field: "size", value: job.size, count: max(options.maxSize, options.largeSize))
            }
        }
        return job
    }

    /// Writes `job` to a new file `name` in the run's private `folder` and returns its path.
    func writeJob(_ job: FuzzWorkerJobRecord, folder: String, name: String) throws(FuzzIsolationError) -> String {
        let path = folder + "/" + name
        let descriptor: FileDescriptor
        do throws(PlatformError) {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: 0o600)
        } catch {
            throw .process(.cannotStart(executable: path, reason: error.message))
        }
        defer { descriptor.closeIgnoringErrors() }
        guard (try? descriptor.writeAll(Array(job.json.serialized().utf8))) != nil else {
            throw .process(.cannotStart(executable: path, reason: "cannot write the job file"))
        }
        return path
    }

    /// Starts one isolated process, the one step both a campaign round and a replay take: with
    /// ``FuzzIsolation/spawn(_:)``, the worker program on `job`, written to a new file `name` in
    /// the run's private `folder`; with ``FuzzIsolation/fork``, a forked child that runs `forked`
    /// (the same work, from this process's memory). Either way its standard error is discarded
    /// when `quiet` (a replay's trap message would repeat once per candidate), and the Swift
    /// runtime's crash handler is off unless `backtraces`.
    ///
    /// - Returns: the process id, and the job file when one was written (the caller removes it).
    func startIsolated(
        _ job: FuzzWorkerJobRecord, name: String, folder: String, quiet: Bool, backtraces: Bool, forked: () -> Never
    ) throws(FuzzIsolationError) -> (pid: Int32, jobPath: String?) {
        switch isolation {
        case .spawn(let command):
            let path = try writeJob(job, folder: folder, name: name)
            var environment = command.environment
            if !backtraces { environment["SWIFT_BACKTRACE"] = "enable=no" }
            do {
                let pid = try spawnProcess(
                    command.executable, command.arguments + [path], environment: environment, stderr: quiet ? "/dev/null" : nil)
                return (pid, path)
            } catch {
                try? FileSystem.removeFile(path)
                throw .process(error)
            }
        case .fork:
            do throws(ProcessError) {
                let pid = try forkChild {
                    if quiet {
                        if let null = try? FileDescriptor.open("/dev/null", .writeOnly) {
                            try? null.duplicate(as: .standardError)
                        }
                    }
                    if !backtraces { restoreDefaultCrashHandling() }
                    forked()
                }
                return (pid, nil)
            } catch {
                throw .process(error)
            }
        }
    }
}
