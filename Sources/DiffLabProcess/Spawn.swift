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
    FileDescriptor(rawValue: child.input).closeIgnoringErrors()
    let output = FileDescriptor(rawValue: child.output)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    reading: while bytes.count < 1 << 16 {
        _ = FileDescriptor.waitReadable([output], milliseconds: -1)
        do {
            let count = try buffer.withUnsafeMutableBytes { raw in Result { () throws(PlatformError) in try output.read(into: raw) } }.get()
            if count == 0 { break reading }
            bytes += buffer[0..<count]
        } catch {
            if error.code != .wouldBlock { break reading }
        }
    }
    output.closeIgnoringErrors()
    FileDescriptor(rawValue: child.errors).closeIgnoringErrors()
    guard waitProcess(child.pid) == 0 else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
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
) throws(ProcessError) -> Int32 {
    var actions: [SpawnFileAction] = []
    if let stdout { actions.append(outputAction(.standardOutput, stdout)) }
    if let stderr { actions.append(outputAction(.standardError, stderr)) }
    return try spawn(executable, arguments, environment: changes, argumentZero: argumentZero, newProcessGroup: false) { actions }
}

/// How a child's redirected output is opened: the null device for writing only (never created or
/// truncated); any other path created or truncated, and refused when it is a symbolic link.
private func outputAction(_ target: FileDescriptor, _ path: String) -> SpawnFileAction {
    .open(target: target, path: path, access: .writeOnly, options: path == "/dev/null" ? [] : [.create, .truncate, .noFollow], permissions: 0o644)
}

/// A child process whose standard input, output and error are pipes to this process.
package struct PipedChild {
    /// The child's process id (also its process group id).
    package var pid: Int32
    /// The write end of the child's standard input (non-blocking, close-on-exec).
    package var input: Int32
    /// The read end of the child's standard output (non-blocking, close-on-exec).
    package var output: Int32
    /// The read end of the child's standard error (non-blocking, close-on-exec).
    package var errors: Int32

    /// Closes this process's ends of the three pipes.
    package func closePipes() {
        for descriptor in [input, output, errors] where descriptor >= 0 { FileDescriptor(rawValue: descriptor).closeIgnoringErrors() }
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
    var ends: [FileDescriptor] = []
    var pipeError: PlatformError?
    let pid: Int32
    do throws(ProcessError) {
        pid = try spawn(executable, arguments, environment: [:], argumentZero: nil, newProcessGroup: true) { () throws(PlatformError) in
            // Made under the registry's lock, like every spawn: no other child starts between
            // pipe() and FD_CLOEXEC, so none inherits an end.
            for _ in 0..<3 {
                do throws(PlatformError) {
                    let pair = try FileDescriptor.pipe()
                    ends += [pair.read, pair.write]
                } catch {
                    pipeError = error
                    throw error
                }
            }
            return [.duplicate(ends[0], as: .standardInput), .duplicate(ends[3], as: .standardOutput), .duplicate(ends[5], as: .standardError)]
        }
    } catch {
        for descriptor in ends { descriptor.closeIgnoringErrors() }
        if let pipeError { throw .cannotMakePipe(executable: executable, reason: pipeError.message) }
        throw error
    }
    for childEnd in [ends[0], ends[3], ends[5]] { childEnd.closeIgnoringErrors() }
    for ours in [ends[1], ends[2], ends[4]] { ours.setNonBlocking() }
    return PipedChild(pid: pid, input: ends[1].rawValue, output: ends[2].rawValue, errors: ends[4].rawValue)
}

/// Starts a child; see ``spawnProcess(_:_:environment:stdout:stderr:argumentZero:)``. With
/// `newProcessGroup`, the child leads a process group of its own (its id is the group's).
/// `fileActions` makes the child's file actions; it runs under ``Cleanup``'s lock, just before the
/// spawn, and a failure it throws cancels the spawn. The child starts with no blocked signals and
/// default SIGINT/SIGTERM/SIGHUP handling, whatever this process blocked for its cleanup thread
/// (see ``Cleanup``).
private func spawn(
    _ executable: String, _ arguments: [String], environment changes: [String: String?], argumentZero: String?,
    newProcessGroup: Bool, fileActions: () throws(PlatformError) -> [SpawnFileAction]
) throws(ProcessError) -> Int32 {
    var environment: [String: String] = [:]
    for text in processEnvironment() {
        if let equals = text.firstIndex(of: "=") {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
    }
    for (key, value) in changes { environment[key] = value }
    var request = SpawnRequest(executable, arguments, environment: environment.map { "\($0.key)=\($0.value)" })
    request.argumentZero = argumentZero
    request.newProcessGroup = newProcessGroup
    request.defaultSignals = Cleanup.signals
    var pid: Int32 = 0
    var failure: PlatformError?
    // Started and registered atomically with respect to an interruption: a child is either stopped
    // by the cleanup thread or never started.
    let spawned = Cleanup.shared.startChild { () -> Int32 in
        do throws(PlatformError) {
            request.fileActions = try fileActions()
            pid = try spawnProcess(request)
            return 0
        } catch {
            failure = error
            return error.code.rawValue
        }
    } registering: {
        pid
    }
    guard spawned == 0 else {
        throw .cannotStart(executable: executable, reason: failure?.message ?? PlatformError.Code(rawValue: spawned).message)
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
package func waitProcess(_ pid: Int32, writing output: String, maxBytes: Int, seconds: Double, what: String) throws(ProcessError) -> Int32 {
    let deadline = monotonicNow() + seconds
    // Poll without reaping; waitProcess reaps once the child has ended.
    while !processHasEnded(pid) {
        let flooded = (FileSystem.factsIfPresent(output)?.size ?? 0) > maxBytes
        if flooded || monotonicNow() > deadline {
            try? sendSignal(.kill, to: pid)
            _ = waitProcess(pid)
            throw flooded ? .outputLimitExceeded(what: what, maxBytes: maxBytes) : .timeLimitExceeded(what: what, seconds: seconds)
        }
        sleep(seconds: 0.02)
    }
    return waitProcess(pid)
}

/// Waits for the child `pid`.
///
/// - Returns: its exit status, or 128 + the signal number when a signal ended it.
package func waitProcess(_ pid: Int32) -> Int32 {
    WaitStatus(rawValue: waitProcessStatus(pid)).shellStatus
}

/// Waits for the child `pid` and returns its raw wait status (see ``describeWaitStatus(_:)``).
package func waitProcessStatus(_ pid: Int32) -> Int32 {
    // Wait without reaping (an ended child, not a stopped one: ``waitForChildEnd(_:)``), forget
    // the child, then reap: the cleanup thread never signals an id that has been reaped (and
    // might be reused).
    waitForChildEnd(pid)
    Cleanup.shared.unregister(child: pid)
    let status = reapChild(pid)
    // Interrupted: the cleanup thread stopped the child and is ending this process; carry on with
    // nothing (no error message about the killed worker, no output).
    Cleanup.shared.parkIfInterrupted()
    return status?.rawValue ?? 0
}

/// `exited with status 3`, `was killed by signal 9 (SIGKILL: Killed)`: a raw wait status in words.
package func describeWaitStatus(_ status: Int32) -> String {
    WaitStatus(rawValue: status).description
}

/// A signal's stable name, `SIGILL` for 4 (failure signatures carry it, so it must not depend on
/// the C library's wording), or `signal N` for one without a name here.
package func signalName(_ signal: Int32) -> String {
    Signal(rawValue: signal).name
}
