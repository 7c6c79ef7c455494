import DiffLabCLI
import DiffLabPlatform
import Testing

/// Runs the real `difflab` executable (built beside this test bundle) as a child process, so that a
/// trap, a signal or a hang is seen as such rather than taking the test runner down.
enum Binary {
    /// `difflab` in the folder of the running test executable.
    static let path: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let me = count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let folder = me.lastIndex(of: "/").map { String(me[..<$0]) } ?? "."
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

/// A private folder under /tmp for one test, removed (with everything in it) by ``remove()``.
final class Scratch: Sendable {
    let path: String

    init() {
        var template = Array("/tmp/difflab-hostile-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let target = file(name)
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot create \(target)")
        precondition(writeAll(descriptor, bytes), "cannot write \(target)")
        close(descriptor)
        return target
    }

    @discardableResult
    func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

    /// Removes the folder and everything below it, without following links.
    func remove() { removeTree(path) }
}

/// What a path is, to check that a run left it as it was: its type, size, modification time and,
/// for a link, its target.
struct PathState: Equatable, CustomStringConvertible {
    var exists: Bool
    var mode: mode_t = 0
    var size: Int = 0
    var modified: Int = 0
    var modifiedNanoseconds: Int = 0
    var linkTarget: String?

    init(_ path: String) {
        var status = stat()
        exists = lstat(path, &status) == 0
        guard exists else { return }
        mode = status.st_mode
        size = Int(status.st_size)
        let time = modificationTime(status)
        modified = Int(time.tv_sec)
        modifiedNanoseconds = Int(time.tv_nsec)
        if (status.st_mode & S_IFMT) == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink(path, &buffer, buffer.count - 1)
            linkTarget = String(decoding: buffer.prefix(max(0, count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    var description: String {
        exists ? "mode \(String(mode, radix: 8)), \(size) bytes, mtime \(modified).\(modifiedNanoseconds), link \(linkTarget ?? "-")" : "absent"
    }
}

/// A started `difflab` process and where its output goes.
struct Running {
    var pid: pid_t
    var stdoutPath: String
    var stderrPath: String
}

/// Starts `difflab arguments` in `directory` with standard input from `stdin`, extra environment
/// `environment` (`NAME=value` entries) and its output sent to files in `directory`.
func startDifflab(_ arguments: [String], stdin: String = "/dev/null", in directory: String, environment: [String] = []) -> Running? {
    let out = directory + "/.stdout-\(UInt64.random(in: 0...UInt64.max))"
    let err = out + ".err"
    var actions = emptySpawnFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // The child runs in `directory` through `env -C`, so relative defaults (results/...) land there.
    let argv =
        (["env", "-C", directory, "SWIFT_BACKTRACE=enable=no"] + environment + [Binary.path(for: arguments)] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let environment = processEnvironment().map { strdup($0) } + [nil]
    defer { for pointer in environment { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawnp(&pid, "env", &actions, nil, argv, environment) == 0 else { return nil }
    return Running(pid: pid, stdoutPath: out, stderrPath: err)
}

/// Waits for `running` to end, stopping it with SIGKILL after `limit` seconds, and collects its output.
func finish(_ running: Running, limit: Double = 120) -> Outcome {
    defer {
        unlink(running.stdoutPath)
        unlink(running.stderrPath)
    }
    var status: Int32 = 0
    var hung = false
    let deadline = now() + limit
    while true {
        let reaped = waitpid(running.pid, &status, WNOHANG)
        if reaped == running.pid { break }
        if reaped < 0 && errno != EINTR { break }
        if now() > deadline {
            hung = true
            kill(running.pid, SIGKILL)
            _ = waitpid(running.pid, &status, 0)
            break
        }
        usleep(5_000)
    }
    let signaled = (status & 0x7f) != 0
    return Outcome(
        status: signaled ? nil : (status >> 8) & 0xff, signal: signaled ? status & 0x7f : nil, hung: hung,
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

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func readText(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
