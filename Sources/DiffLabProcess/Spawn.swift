import DiffLabCore
import DiffLabPlatform

/// The first line a shell command prints, or `nil` when it fails. For facts about the machine
/// (toolchain version, commit), not for anything a result depends on.
///
/// Started with `posix_spawn` (``spawnPipedProcess(_:_:)``), not `popen`, which Swift marks
/// unavailable on Apple platforms; at most 64 KiB of output is read.
///
/// - Complexity: one process; O(output) to read.
package func commandOutput(_ command: String) -> String? {
    guard let child = try? spawnPipedProcess("/bin/sh", ["-c", command + " 2>/dev/null"]) else { return nil }
    close(child.input)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    reading: while output.count < 1 << 16 {
        var ready = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, -1) < 0 && errno != EINTR { break }
        let count = read(child.output, &buffer, buffer.count)
        switch count {
        case 1...: output += buffer[0..<count]
        case 0: break reading
        default: if errno != EAGAIN && errno != EINTR { break reading }
        }
    }
    close(child.output)
    close(child.errors)
    guard waitProcess(child.pid) == 0 else { return nil }
    let text = String(decoding: output, as: UTF8.self)
    let first = text.split(separator: "\n").first.map(String.init) ?? ""
    return first.isEmpty ? nil : first
}

/// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`, waiting for it.
/// See ``spawnProcess(_:_:environment:stdout:stderr:argumentZero:)``.
///
/// - Returns: the exit status, or 128 + the signal number when a signal ended it.
/// - Throws: ``ProcessError/cannotStart(executable:reason:)``.
package func runProcess(
    _ executable: String, _ arguments: [String], environment changes: [String: String?] = [:], stdout: String? = nil,
    stderr: String? = nil, argumentZero: String? = nil
) throws(ProcessError) -> Int32 {
    waitProcess(try spawnProcess(executable, arguments, environment: changes, stdout: stdout, stderr: stderr, argumentZero: argumentZero))
}

/// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`, this process's
/// environment changed by `changes` (`nil` removes a variable), and standard output or error
/// sent to the named files instead of inherited: files in the caller's own folder, created or
/// truncated but never opened through a symbolic link; `/dev/null` is only opened for writing.
///
/// - Returns: the child's process id, for ``waitProcess(_:)``.
/// - Throws: ``ProcessError/cannotStart(executable:reason:)`` when the process cannot be started.
package func spawnProcess(
    _ executable: String, _ arguments: [String], environment changes: [String: String?] = [:], stdout: String? = nil,
    stderr: String? = nil, argumentZero: String? = nil
) throws(ProcessError) -> pid_t {
    try spawn(executable, arguments, environment: changes, argumentZero: argumentZero, newProcessGroup: false) { actions in
        if let stdout { posix_spawn_file_actions_addopen(&actions, 1, stdout, outputFlags(stdout), 0o644) }
        if let stderr { posix_spawn_file_actions_addopen(&actions, 2, stderr, outputFlags(stderr), 0o644) }
        return 0
    }
}

/// How a child's redirected output is opened: the null device for writing only (never created or
/// truncated); any other path created or truncated, and refused when it is a symbolic link.
private func outputFlags(_ path: String) -> Int32 {
    path == "/dev/null" ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW
}

/// A child process whose standard input, output and error are pipes to this process.
package struct PipedChild {
    /// The child's process id (also its process group id).
    package var pid: pid_t
    /// The write end of the child's standard input (non-blocking, close-on-exec).
    package var input: Int32
    /// The read end of the child's standard output (non-blocking, close-on-exec).
    package var output: Int32
    /// The read end of the child's standard error (non-blocking, close-on-exec).
    package var errors: Int32

    /// Closes this process's ends of the three pipes.
    package func closePipes() {
        for descriptor in [input, output, errors] where descriptor >= 0 { close(descriptor) }
    }
}

/// Starts `executable` with `arguments` in a process group of its own, its standard streams
/// connected to pipes whose other ends this process holds (non-blocking and close-on-exec, so no
/// other child inherits them). Registered with ``Cleanup`` like every child; end it with
/// ``waitProcess(_:)`` or ``waitProcessStatus(_:)``.
///
/// - Throws: ``ProcessError/cannotMakePipe(executable:reason:)`` or
///   ``ProcessError/cannotStart(executable:reason:)``.
package func spawnPipedProcess(_ executable: String, _ arguments: [String]) throws(ProcessError) -> PipedChild {
    // [stdin read, stdin write, stdout read, stdout write, stderr read, stderr write]
    var ends: [Int32] = []
    var pipeError: Int32 = 0
    let pid: pid_t
    do {
        pid = try spawn(executable, arguments, environment: [:], argumentZero: nil, newProcessGroup: true) { actions in
            // Made under the registry's lock, like every spawn: no other child starts between
            // pipe() and FD_CLOEXEC, so none inherits an end.
            for _ in 0..<3 {
                var pair: [Int32] = [-1, -1]
                guard pipe(&pair) == 0 else {
                    pipeError = errno
                    return pipeError
                }
                for descriptor in pair { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
                ends += pair
            }
            posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
            posix_spawn_file_actions_adddup2(&actions, ends[3], 1)
            posix_spawn_file_actions_adddup2(&actions, ends[5], 2)
            return 0
        }
    } catch {
        for descriptor in ends { close(descriptor) }
        if pipeError != 0 { throw .cannotMakePipe(executable: executable, reason: String(cString: strerror(pipeError))) }
        throw error
    }
    for childEnd in [ends[0], ends[3], ends[5]] { close(childEnd) }
    for ours in [ends[1], ends[2], ends[4]] { _ = fcntl(ours, F_SETFL, fcntl(ours, F_GETFL) | O_NONBLOCK) }
    return PipedChild(pid: pid, input: ends[1], output: ends[2], errors: ends[4])
}

/// Starts a child; see ``spawnProcess(_:_:environment:stdout:stderr:argumentZero:)``. With
/// `newProcessGroup`, the child leads a process group of its own (its id is the group's).
/// `fileActions` adds the child's file actions; it runs under ``Cleanup``'s lock, just before the
/// spawn, and returns 0 or an `errno` that cancels the spawn.
private func spawn(
    _ executable: String, _ arguments: [String], environment changes: [String: String?], argumentZero: String?,
    newProcessGroup: Bool, fileActions: (inout SpawnFileActions) -> Int32
) throws(ProcessError) -> pid_t {
    var environment: [String: String] = [:]
    for text in processEnvironment() {
        if let equals = text.firstIndex(of: "=") {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
    }
    for (key, value) in changes { environment[key] = value }
    let argv = ([argumentZero ?? executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    var actions = emptySpawnFileActions()
    posix_spawn_file_actions_init(&actions)
    // The child starts with no blocked signals and default SIGINT/SIGTERM/SIGHUP handling, whatever
    // this process blocked for its cleanup thread (see ``Cleanup``).
    var attributes = emptySpawnAttributes()
    posix_spawnattr_init(&attributes)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = Cleanup.signalSet()
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if newProcessGroup {
        posix_spawnattr_setpgroup(&attributes, 0)
        flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    defer {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        for p in argv { free(p) }
        for p in envp { free(p) }
    }
    var pid: pid_t = 0
    // Started and registered atomically with respect to an interruption: a child is either stopped
    // by the cleanup thread or never started.
    let spawned = Cleanup.shared.startChild { () -> Int32 in
        let prepared = fileActions(&actions)
        guard prepared == 0 else { return prepared }
        return executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
    } registering: {
        pid
    }
    guard spawned == 0 else {
        throw .cannotStart(executable: executable, reason: String(cString: strerror(spawned)))
    }
    return pid
}

/// Waits for the child `pid` while it writes to the file `output`, stopping it (SIGKILL) when the
/// file grows past `maxBytes` or `seconds` pass: a worker that floods or hangs is an error, never
/// a full disk or a wedged run.
///
/// - Throws: ``ProcessError/outputLimitExceeded(what:maxBytes:)`` or
///   ``ProcessError/timeLimitExceeded(what:seconds:)``, naming `what`.
/// - Returns: the exit status, as ``waitProcess(_:)``.
package func waitProcess(_ pid: pid_t, writing output: String, maxBytes: Int, seconds: Double, what: String) throws(ProcessError) -> Int32 {
    let deadline = monotonicNow() + seconds
    // Poll without reaping; waitProcess reaps once the child has ended.
    while !processHasEnded(pid) {
        var status = stat()
        let flooded = stat(output, &status) == 0 && Int(status.st_size) > maxBytes
        if flooded || monotonicNow() > deadline {
            kill(pid, SIGKILL)
            _ = waitProcess(pid)
            throw flooded ? .outputLimitExceeded(what: what, maxBytes: maxBytes) : .timeLimitExceeded(what: what, seconds: seconds)
        }
        usleep(20_000)
    }
    return waitProcess(pid)
}

/// Waits for the child `pid`.
///
/// - Returns: its exit status, or 128 + the signal number when a signal ended it.
package func waitProcess(_ pid: pid_t) -> Int32 {
    let status = waitProcessStatus(pid)
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// Waits for the child `pid` and returns its raw wait status (see ``describeWaitStatus(_:)``).
package func waitProcessStatus(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    // Wait without reaping, forget the child, then reap: the cleanup thread never signals an id
    // that has been reaped (and might be reused).
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    Cleanup.shared.unregister(child: pid)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // Interrupted: the cleanup thread stopped the child and is ending this process; carry on with
    // nothing (no error message about the killed worker, no output).
    Cleanup.shared.parkIfInterrupted()
    return status
}

/// `exited with status 3`, `was killed by signal 9 (SIGKILL: Killed)`: a raw wait status in words.
package func describeWaitStatus(_ status: Int32) -> String {
    let signal = status & 0x7f
    guard signal != 0 else { return "exited with status \((status >> 8) & 0xff)" }
    let text = strsignal(signal).map { String(cString: $0) } ?? "unknown"
    return "was killed by signal \(signal) (\(signalName(signal)): \(text))"
}

/// A signal's stable name, `SIGILL` for 4 (failure signatures carry it, so it must not depend on
/// the C library's wording), or `signal N` for one without a name here.
package func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
        SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGSYS: "SIGSYS", SIGTERM: "SIGTERM", SIGINT: "SIGINT",
        SIGPIPE: "SIGPIPE", SIGXCPU: "SIGXCPU",
    ]
    return names[signal] ?? "signal \(signal)"
}
