import DiffLabCLI
import DiffLabPlatform
import Testing

/// Runs the real `difflab` executable (built beside this test bundle) as a child process, so that a
/// trap, a signal or a hang is seen as such rather than taking the test runner down.
enum Binary {
    /// `difflab` in the folder of the running test executable.
    static let path: String = {
        // The test runner's own path (DiffLabPlatform: Linux's /proc/self/exe, Darwin's
        // _NSGetExecutablePath). On Darwin the runner may be swiftpm-testing-helper or xctest in
        // the toolchain, with the bundle in the build folder: the build folder is the one that
        // holds `difflab`, found from the bundle's path in the arguments when it is not beside us.
        let me = executablePath() ?? ""
        let folder = me.lastIndex(of: "/").map { String(me[..<$0]) } ?? "."
        if FileSystem.isAccessible(folder + "/difflab", .execute) { return folder + "/difflab" }
        for argument in CommandLine.arguments {
            guard let range = argument.firstRange(of: ".xctest") else { continue }
            let bundle = String(argument[..<range.lowerBound])
            let buildFolder = bundle.lastIndex(of: "/").map { String(bundle[..<$0]) } ?? "."
            if FileSystem.isAccessible(buildFolder + "/difflab", .execute) { return buildFolder + "/difflab" }
        }
        return folder + "/difflab"
    }()

    /// `difflab-dev` beside it: the maintainers' commands (mutate, coverage).
    static let devPath = path + "-dev"

    /// The binary that runs `arguments`' command.
    static func path(for arguments: [String]) -> String {
        arguments.contains { $0 == "mutate" || $0 == "coverage" } ? devPath : path
    }
}

/// What one run of `difflab` did.
struct Outcome: CustomStringConvertible {
    /// The exit status, or `nil` when a signal ended the process.
    var status: Int32?
    /// The signal that ended it, if any.
    var signal: Int32?
    /// Whether the watchdog had to stop it.
    var hung: Bool
    var stdout: String
    var stderr: String

    var description: String {
        "status \(status.map(String.init) ?? "-"), signal \(signal.map(String.init) ?? "-"), hung \(hung), stderr: \(stderr.prefix(600))"
    }

    /// The lines of standard error that are DiffLab's error messages.
    var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("difflab: ") || $0.hasPrefix("difflab-dev: ") } }
}

/// A private folder under the temporary folder (`$TMPDIR`, else /tmp) for one test, removed (with
/// everything in it) by ``remove()``.
final class Scratch: Sendable {
    let path: String

    init() {
        do {
            path = try FileSystem.makeTemporaryDirectory("difflab-hostile")
        } catch {
            preconditionFailure("cannot make a scratch folder: \(error)")
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let target = file(name)
        do {
            let descriptor = try FileDescriptor.open(target, .writeOnly, options: [.create, .truncate], permissions: 0o644)
            defer { descriptor.closeIgnoringErrors() }
            try descriptor.writeAll(bytes)
        } catch {
            preconditionFailure("cannot write \(target): \(error)")
        }
        return target
    }

    @discardableResult
    func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

    /// Makes the fixture `name` with `make` (a folder, a FIFO, a link, a mode): a fixture that
    /// cannot be made stops the run, as a file that cannot be written does.
    func make(_ name: String, _ make: (String) throws -> Void) {
        do {
            try make(file(name))
        } catch {
            preconditionFailure("cannot make the fixture \(name): \(error)")
        }
    }

    /// Removes the folder and everything below it, without following links.
    func remove() { FileSystem.removeTree(path) }
}

/// What a path is, to check that a run left it as it was: its type, size, modification time and,
/// for a link, its target.
struct PathState: Equatable, CustomStringConvertible {
    var exists: Bool
    var kind: FileKind?
    var permissions: UInt16 = 0
    var size: Int = 0
    var modified: Int = 0
    var modifiedNanoseconds: Int = 0
    var linkTarget: String?

    init(_ path: String) {
        let facts = FileSystem.factsIfPresent(path, followingLinks: false)
        exists = facts != nil
        guard let facts else { return }
        kind = facts.kind
        permissions = facts.permissions
        size = facts.size
        modified = facts.modified.seconds
        modifiedNanoseconds = facts.modified.nanoseconds
        if facts.kind == .symbolicLink { linkTarget = try? FileSystem.symbolicLinkTarget(path) }
    }

    var description: String {
        exists
            ? "\(kind.map { "\($0)" } ?? "-") \(String(permissions, radix: 8)), \(size) bytes, mtime \(modified).\(modifiedNanoseconds), link \(linkTarget ?? "-")"
            : "absent"
    }
}

/// A started `difflab` process and where its output goes.
struct Running {
    var pid: Int32
    var stdoutPath: String
    var stderrPath: String
}

/// Starts `difflab arguments` in `directory` with standard input from `stdin`, extra environment
/// `environment` (`NAME=value` entries) and its output sent to files in `directory`.
func startDifflab(_ arguments: [String], stdin: String = "/dev/null", in directory: String, environment: [String] = []) -> Running? {
    let out = directory + "/.stdout-\(UInt64.random(in: 0...UInt64.max))"
    let err = out + ".err"
    // The child starts in `directory` (posix_spawn's working-directory action, through
    // DiffLabPlatform), so relative defaults (results/...) land there.
    // `environment` overrides an inherited variable of the same name (a duplicate entry would
    // leave which one getenv sees to the C library).
    let overrides = ["SWIFT_BACKTRACE=enable=no"] + environment
    let names = Set(overrides.map { $0.prefix { $0 != "=" } })
    let inherited = processEnvironment().filter { !names.contains($0.prefix { $0 != "=" }) }
    var request = SpawnRequest(Binary.path(for: arguments), arguments, environment: inherited + overrides)
    request.workingDirectory = directory
    request.fileActions = [
        .open(target: .standardInput, path: stdin, access: .readOnly, options: [], permissions: 0),
        .open(target: .standardOutput, path: out, access: .writeOnly, options: [.create, .truncate], permissions: 0o644),
        .open(target: .standardError, path: err, access: .writeOnly, options: [.create, .truncate], permissions: 0o644),
    ]
    guard let pid = try? spawnProcess(request) else { return nil }
    return Running(pid: pid, stdoutPath: out, stderrPath: err)
}

/// Waits for `running` to end, stopping it with SIGKILL after `limit` seconds, and collects its output.
func finish(_ running: Running, limit: Double = 120) -> Outcome {
    defer {
        try? FileSystem.removeFile(running.stdoutPath)
        try? FileSystem.removeFile(running.stderrPath)
    }
    var status: WaitStatus?
    var hung = false
    let deadline = ContinuousClock.now + .seconds(limit)
    while true {
        status = reapChildIfEnded(running.pid)
        if status != nil || !processIsAlive(running.pid) { break }
        if ContinuousClock.now > deadline {
            hung = true
            try? sendSignal(.kill, to: running.pid)
            status = reapChild(running.pid)
            break
        }
        sleep(seconds: 0.005)
    }
    return Outcome(
        status: status?.exitStatus, signal: status?.signal?.rawValue, hung: hung,
        stdout: readText(running.stdoutPath), stderr: readText(running.stderrPath))
}

/// Runs `difflab arguments` to the end; see ``startDifflab(_:stdin:in:environment:)`` and
/// ``finish(_:limit:)``.
func runDifflab(
    _ arguments: [String], stdin: String = "/dev/null", in directory: String, environment: [String] = [], limit: Double = 120
) -> Outcome {
    guard let running = startDifflab(arguments, stdin: stdin, in: directory, environment: environment) else {
        return Outcome(status: nil, signal: nil, hung: false, stdout: "", stderr: "spawn failed")
    }
    return finish(running, limit: limit)
}

func readText(_ path: String) -> String {
    String(decoding: FileSystem.contents(path, limit: 1 << 28) ?? [], as: UTF8.self)
}
