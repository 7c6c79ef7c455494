import DiffLabBench
import DiffLabCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An engine in another process, in any language, spoken to over the `difflab-engine/1`
/// protocol (`docs/engine-protocol.md`): one JSON object per line on the child's standard input
/// and output.
///
/// ## Process
/// The child runs `/bin/sh -c "exec COMMAND"` (so a simple command *is* the child, and shell
/// syntax works; leading environment assignments stay before the `exec`:
/// `/bin/sh -c "VAR=1 exec ./engine"`, see ``shellScript(for:)``), in a process group of its own, with this process's environment and working
/// directory; its standard error is captured and the last part quoted in failure messages. One
/// child serves every request, one at a time: calls from several threads (the fuzzer's workers)
/// wait for each other. The child is registered with the run's cleanup (SIGINT, SIGTERM and SIGHUP
/// stop it) and always reaped. A broken pipe is an error of the request, never a SIGPIPE that
/// ends DiffLab.
///
/// ## Failures
/// A request fails with ``EngineFailure`` — never a pass — when the child:
/// - exits or closes its standard output (``EngineFailure/Kind/crashed``, with the exit status
///   or signal), or answers with an `error` message (also `crashed`: the engine could not answer);
/// - gives no complete answer within ``requestTimeout`` (``EngineFailure/Kind/timedOut``);
/// - answers anything but one well-formed line for this request: not JSON, wrong shape, wrong
///   `id`, non-integer indices, more than ``maxAnswerBytes``, output after its answer
///   (``EngineFailure/Kind/badAnswer``).
///
/// Each message names the request, what was wrong and the end of the child's standard error.
/// Except after an `error` answer, the child is then stopped (SIGKILL to its group) and the next
/// request starts a fresh one, which must say the same `hello`.
///
/// Elements must conform to ``WireElement``; other element types fail with
/// ``EngineFailure/Kind/unsupported``.
public struct ProcessEngine: ChangesetEngine, OutOfProcessEngine {
    /// The protocol this engine speaks: `difflab-engine/1`.
    public static let protocolVersion = EngineWire.version
    /// The default time limit for one answer, in seconds.
    public static let defaultRequestTimeout = 10.0
    /// Whether this process has started an engine process: its pipes and its process id belong
    /// to this process, so a forked child cannot talk to it (`difflab fuzz` then fuzzes
    /// in-process; the engine's own crashes are already isolated in its process).
    static var anyStarted: Bool { started.withLock { $0 } }
    private static let started = Locked(false)
    /// The default time limit for starting and saying `hello`, in seconds.
    public static let defaultStartTimeout = 10.0
    /// The allowed time limits, in seconds.
    public static let allowedTimeouts = 0.001...86_400.0
    /// The longest engine name.
    public static let maxNameLength = 64

    /// The engine's name: the `name` argument, else the name the engine said in its `hello`.
    public let name: String
    /// The promises the engine declared in its `hello`.
    public let promises: EnginePromises
    /// The shell command that starts the engine.
    public let command: String
    /// Whether every answer carries the engine's own batch form (declared in its `hello`).
    public let hasBatchForm: Bool
    private let process: EngineProcess

    /// Starts `command` and checks its `hello`.
    ///
    /// - Parameters:
    ///   - command: run as `/bin/sh -c "exec COMMAND"`, or `/bin/sh -c "NAME=value exec REST"` when it
    ///     starts with environment assignments (``shellScript(for:)``).
    ///   - name: the engine's name; when `nil`, the name from its `hello`. Must satisfy
    ///     ``isValidName(_:)``.
    ///   - requestTimeout: seconds allowed per answer (in ``allowedTimeouts``).
    ///   - startTimeout: seconds allowed for starting and the `hello` (in ``allowedTimeouts``);
    ///     applies to every restart too.
    ///   - maxAnswerBytes: the longest line accepted from the engine (in
    ///     ``InputLimit/allowedBytes``); by default the input limit in force where the engine is
    ///     made (``InputLimit/bytes``, 64 MiB unless `--max-input-bytes` changes it).
    /// - Throws: ``EngineFailure`` when the child cannot start, does not say a valid `hello` in
    ///   time (`crashed`, `timedOut`, `badAnswer`), or an argument is out of range (`unsupported`).
    public init(
        command: String, name: String? = nil, requestTimeout: Double = defaultRequestTimeout,
        startTimeout: Double = defaultStartTimeout, maxAnswerBytes: Int = InputLimit.bytes
    ) throws(EngineFailure) {
        for (label, value) in [("request timeout", requestTimeout), ("start timeout", startTimeout)]
        where !Self.allowedTimeouts.contains(value) {
            throw EngineFailure(
                .unsupported,
                "the engine's \(label) must be from \(Self.allowedTimeouts.lowerBound) to \(Int(Self.allowedTimeouts.upperBound)) seconds (got \(value))"
            )
        }
        guard InputLimit.allowedBytes.contains(maxAnswerBytes) else {
            throw EngineFailure(
                .unsupported,
                "the engine's answer limit must be from 1 byte to \(formatByteCount(InputLimit.allowedBytes.upperBound)) (got \(maxAnswerBytes))")
        }
        if let name, !Self.isValidName(name) {
            throw EngineFailure(
                .unsupported,
                "engine name '\(oneLine(name))' must be 1 to \(Self.maxNameLength) lower-case letters, digits, '-', '_' or '.', starting with a letter or digit"
            )
        }
        let process = EngineProcess(
            command: command, requestTimeout: requestTimeout, startTimeout: startTimeout, maxAnswerBytes: maxAnswerBytes)
        Self.started.withLock { $0 = true }
        let hello = try process.start()
        self.process = process
        self.command = command
        self.name = name ?? hello.name
        self.promises = hello.promises
        self.hasBatchForm = hello.batch
    }

    /// Seconds allowed per answer.
    public var requestTimeout: Double { process.requestTimeout }
    /// The longest answer line accepted, in bytes.
    public var maxAnswerBytes: Int { process.maxAnswerBytes }

    /// Whether `name` can name an engine; see ``EngineRegistry/isValidName(_:)``.
    public static func isValidName(_ name: String) -> Bool { EngineRegistry.isValidName(name) }

    /// Sends `old` and `new` to the engine and reads its answer; see the type's documentation.
    ///
    /// `reportedSeconds` is the engine's own `seconds` (checked to be at most the time the lab
    /// waited). The answer's indices are not checked here.
    ///
    /// - Throws: ``EngineFailure``: `unsupported` for elements that are not ``WireElement``s;
    ///   `crashed`, `timedOut` or `badAnswer` as described for the type.
    /// - Complexity: O(n) to encode and decode, plus the engine's time.
    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        guard let wireType = Element.self as? any WireElement.Type else {
            throw EngineFailure(
                .unsupported,
                "engine '\(name)' runs in another process and cannot take \(Element.self) elements (they do not conform to WireElement)")
        }
        func line<W: WireElement>(_ type: W.Type, _ id: Int) -> [UInt8] {
            EngineWire.diffLine(id: id, old: old as! [W], new: new as! [W], comparison: comparison)
        }
        let (result, batch, seconds) = try process.diff { id in line(wireType, id) }
        return EngineChanges(result: result, batch: batch, reportedSeconds: seconds)
    }

    /// Stops the child now (closing its input, then SIGKILL after a second) instead of when the
    /// last copy of this engine goes away. A later request starts a fresh child.
    public func stop() { process.stop() }

    /// The running child's process id, if one runs (for tests).
    package var processID: Int32? { process.processID }

    /// The peak resident set size of the running child over its life so far (`VmHWM` in
    /// `/proc/PID/status`), in bytes: the command's own process (processes it starts are not
    /// counted), since it started or was last restarted. `nil` when none runs or Linux does not say.
    /// `difflab bench` reports it as the engine's `peakRSSBytes`.
    public func engineProcessPeakRSSBytes() -> Int? { process.peakRSSBytes() }
}

/// The child process behind a ``ProcessEngine`` and its state, guarded by one lock.
final class EngineProcess: Sendable {
    let command: String
    let requestTimeout: Double
    let startTimeout: Double
    let maxAnswerBytes: Int

    /// A running child and what it wrote to standard error lately.
    private struct Running {
        var child: PipedChild
        var stderrTail: [UInt8] = []
        /// Whether bytes before ``stderrTail`` were dropped.
        var stderrCut = false
        var stderrOpen = true
        /// The last request it answered, if any.
        var answered: Int?
    }

    private struct State {
        var running: Running?
        var nextID = 1
        var hello: EngineHello?
    }

    private let state = Locked(State())

    /// The most bytes of standard error quoted in a message.
    static let stderrTailBytes = 600

    init(command: String, requestTimeout: Double, startTimeout: Double, maxAnswerBytes: Int) {
        self.command = command
        self.requestTimeout = requestTimeout
        self.startTimeout = startTimeout
        self.maxAnswerBytes = maxAnswerBytes
    }

    deinit { stop() }

    var processID: Int32? { state.withLock { $0.running?.child.pid } }

    /// The running child's `VmHWM`, in bytes, read under the lock (so the child is not reaped
    /// meanwhile and its id not reused).
    func peakRSSBytes() -> Int? {
        state.withLock { state in state.running.flatMap { procStatusBytes("VmHWM:", pid: $0.child.pid) } }
    }

    /// Starts the child and reads its first `hello`.
    func start() throws(EngineFailure) -> EngineHello {
        try state.withLock { state in Result { () throws(EngineFailure) in try startIfNeeded(&state) } }.get()
    }

    /// Sends the request `line(id)` and reads its result.
    func diff(_ line: (Int) -> [UInt8]) throws(EngineFailure) -> (EngineResult, EngineResult?, Double) {
        try state.withLock { state in
            Result { () throws(EngineFailure) in
                _ = try startIfNeeded(&state)
                let id = state.nextID
                state.nextID += 1
                try checkIdle(&state, before: id)
                let started = monotonicNow()
                let trip = try roundTrip(&state, line(id), timeout: requestTimeout, request: "request \(id)")
                let waited = monotonicNow() - started
                let decoded: EngineAnswer
                do throws(WireProblem) {
                    decoded = try EngineWire.answer(from: trip.line, id: id, batch: state.hello?.batch ?? false)
                } catch {
                    throw stopped(&state, .badAnswer, "answered request \(id) wrongly: \(error.text)")
                }
                try checkComplete(&state, trip, request: "request \(id)")
                state.running?.answered = id
                switch decoded {
                case .error(let message):
                    throw failure(state, .crashed, "answered request \(id) with an error: \(excerpt(Array(message.utf8)[...], limit: 400))")
                case .result(let result, let batch, let seconds):
                    // The engine's clock runs inside the lab's window; allow a millisecond of rounding.
                    guard seconds <= waited + 0.001 else {
                        throw stopped(
                            &state, .badAnswer,
                            "answered request \(id) with \"seconds\": \(seconds), more than the \(waited) s the lab waited for it")
                    }
                    return (result, batch, seconds)
                }
            }
        }.get()
    }

    /// Stops the child, if one runs: closes its input, waits up to a second for it to end, then
    /// kills its process group, and reaps it.
    func stop() {
        state.withLock { state in
            guard let running = state.running else { return }
            state.running = nil
            close(running.child.input)
            let deadline = monotonicNow() + 1
            while !processHasEnded(running.child.pid) && monotonicNow() < deadline { usleep(5_000) }
            kill(-running.child.pid, SIGKILL)
            kill(running.child.pid, SIGKILL)
            close(running.child.output)
            close(running.child.errors)
            _ = waitProcessStatus(running.child.pid)
        }
    }

    // MARK: - Steps (all under the lock)

    /// Starts a child and checks its `hello` (against the first one, after a restart).
    private func startIfNeeded(_ state: inout State) throws(EngineFailure) -> EngineHello {
        if state.running != nil, let hello = state.hello { return hello }
        let child: PipedChild
        do {
            child = try spawnPipedProcess("/bin/sh", ["-c", ProcessEngine.shellScript(for: command)])
        } catch {
            throw EngineFailure(.crashed, "cannot start the engine '\(oneLine(command))': \(error.message)")
        }
        state.running = Running(child: child)
        let trip = try roundTrip(&state, EngineWire.helloLine(), timeout: startTimeout, request: "the hello")
        let hello: EngineHello
        do throws(WireProblem) {
            hello = try EngineWire.hello(from: trip.line)
        } catch {
            throw stopped(&state, .badAnswer, "answered the hello wrongly: \(error.text)")
        }
        try checkComplete(&state, trip, request: "the hello")
        if let first = state.hello, first != hello {
            throw stopped(
                &state, .badAnswer,
                "said a different hello after a restart (\(hello.name), \(hello.promises), batch: \(hello.batch); first \(first.name), \(first.promises), batch: \(first.batch))"
            )
        }
        state.hello = hello
        return hello
    }

    /// Checks that the idle child is still there and wrote nothing since its last answer.
    private func checkIdle(_ state: inout State, before id: Int) throws(EngineFailure) {
        guard let running = state.running else { return }
        let after = running.answered.map { "after answering request \($0)" } ?? "after its hello"
        var byte: UInt8 = 0
        let count = read(running.child.output, &byte, 1)
        if count > 0 {
            throw stopped(&state, .badAnswer, "wrote output \(after), before request \(id) (starting with \(excerpt([byte][...])))")
        }
        if count == 0 || processHasEnded(running.child.pid) {
            throw ended(&state, "\(after), before request \(id)")
        }
    }

    /// One request's exchange: the first line the engine wrote, what followed it in the same
    /// reads, and how much of the request it had not read by then.
    private struct Trip {
        var line: ArraySlice<UInt8>
        var extra: ArraySlice<UInt8>
        var unread: Int
        var requestBytes: Int
    }

    /// Writes `line` to the child while reading its answer line, for at most `timeout` seconds.
    ///
    /// - Returns: the first line the engine wrote (without its newline); the caller reads it first
    ///   (its problem is the most telling), then checks the rest with ``checkComplete(_:_:request:)``.
    /// - Throws: ``EngineFailure`` after stopping the child.
    private func roundTrip(
        _ state: inout State, _ line: [UInt8], timeout: Double, request: String
    ) throws(EngineFailure) -> Trip {
        let deadline = monotonicNow() + timeout
        guard let child = state.running?.child else { preconditionFailure("no child") }
        let restoreSignals = blockBrokenPipeSignal()
        defer { restoreSignals() }
        var written = 0
        var inputOpen = true
        var answer: [UInt8] = []
        var scanned = 0
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = answer[scanned...].firstIndex(of: 0x0a) {
                return Trip(line: answer[..<newline], extra: answer[(newline + 1)...], unread: line.count - written, requestBytes: line.count)
            }
            scanned = answer.count
            if answer.count > maxAnswerBytes {
                throw stopped(
                    &state, .badAnswer,
                    "answered \(request) with a line longer than the limit of \(formatByteCount(maxAnswerBytes)) (it starts \(excerpt(answer[...])))")
            }
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else {
                throw stopped(
                    &state, .timedOut,
                    "gave no answer to \(request) within \(formatSeconds(timeout)) s"
                        + (answer.isEmpty ? "" : " (it wrote \(answer.count) bytes without a newline: \(excerpt(answer[...])))")
                        + "; stopped it")
            }
            var descriptors = [pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)]
            if state.running?.stderrOpen == true { descriptors.append(pollfd(fd: child.errors, events: Int16(POLLIN), revents: 0)) }
            if inputOpen && written < line.count { descriptors.append(pollfd(fd: child.input, events: Int16(POLLOUT), revents: 0)) }
            let milliseconds = Int32(min(remaining * 1000 + 1, 60_000))
            if poll(&descriptors, nfds_t(descriptors.count), milliseconds) < 0 {
                if errno == EINTR { continue }
                throw stopped(&state, .crashed, "could not be waited for (\(systemError()))")
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == child.errors {
                    drainErrors(&state)
                } else if descriptor.fd == child.input {
                    let count = line.withUnsafeBytes { bytes in
                        write(child.input, bytes.baseAddress! + written, min(bytes.count - written, 65_536))
                    }
                    if count > 0 {
                        written += count
                    } else if count < 0 && errno != EAGAIN && errno != EINTR {
                        // EPIPE: it closed its input or died; its output tells which.
                        inputOpen = false
                    }
                }
            }
            // Output last, after its standard error was read: a crash's message is then complete.
            if descriptors[0].revents != 0 {
                let wanted = min(chunk.count, maxAnswerBytes - answer.count + 2)
                let count = read(child.output, &chunk, wanted)
                if count > 0 {
                    answer += chunk[..<count]
                } else if count == 0 {
                    throw ended(&state, "while answering \(request)" + (answer.isEmpty ? "" : " (after writing \(excerpt(answer[...])))"))
                } else if errno != EAGAIN && errno != EINTR {
                    throw stopped(&state, .crashed, "could not be read (\(systemError())) while answering \(request)")
                }
            }
        }
    }

    /// Fails when the engine wrote more than one line, or answered before reading all the request.
    private func checkComplete(_ state: inout State, _ trip: Trip, request: String) throws(EngineFailure) {
        if !trip.extra.isEmpty {
            throw stopped(&state, .badAnswer, "wrote more than one line for \(request) (after the first: \(excerpt(trip.extra)))")
        }
        if trip.unread > 0 {
            throw stopped(
                &state, .badAnswer,
                "answered \(request) before reading all of it (\(trip.requestBytes - trip.unread) of \(trip.requestBytes) bytes)")
        }
    }

    /// Reads what the child wrote to standard error, keeping the tail.
    private func drainErrors(_ state: inout State) {
        guard var running = state.running, running.stderrOpen else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        // At most 1 MiB per call, so a flood cannot starve the answer.
        for _ in 0..<16 {
            let count = read(running.child.errors, &chunk, chunk.count)
            if count > 0 {
                running.stderrTail += chunk[..<count]
                if running.stderrTail.count > Self.stderrTailBytes * 2 {
                    running.stderrTail.removeFirst(running.stderrTail.count - Self.stderrTailBytes)
                    running.stderrCut = true
                }
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EINTR) { running.stderrOpen = false }
            if count == 0 || errno != EINTR { break }
        }
        state.running = running
    }

    /// The child closed its output or exited: waits up to a second for its exit status, stops it,
    /// and describes the crash.
    private func ended(_ state: inout State, _ when: String) -> EngineFailure {
        guard let pid = state.running?.child.pid else { preconditionFailure("no child") }
        let deadline = monotonicNow() + 1
        while !processHasEnded(pid) && monotonicNow() < deadline { usleep(2_000) }
        let exited = processHasEnded(pid)
        let (status, tail, cut) = terminate(&state)
        let what = exited ? "the engine process \(describeWaitStatus(status))" : "the engine closed its standard output (stopped it)"
        return EngineFailure(.crashed, "\(what) \(when)\(describeTail(tail, cut: cut))")
    }

    /// Stops the child and returns a failure of `kind`: "the engine \(what)".
    private func stopped(_ state: inout State, _ kind: EngineFailure.Kind, _ what: String) -> EngineFailure {
        let (_, tail, cut) = terminate(&state)
        return EngineFailure(kind, "the engine \(what)\(describeTail(tail, cut: cut))")
    }

    /// A failure of `kind` that leaves the child running (it answered, with an error).
    private func failure(_ state: State, _ kind: EngineFailure.Kind, _ what: String) -> EngineFailure {
        EngineFailure(kind, "the engine \(what)\(describeTail(state.running?.stderrTail ?? [], cut: state.running?.stderrCut ?? false))")
    }

    /// Kills the child's process group, reads the rest of its standard error, closes the pipes and
    /// reaps it.
    ///
    /// - Returns: the raw wait status, the tail of standard error and whether bytes before it
    ///   were dropped.
    private func terminate(_ state: inout State) -> (status: Int32, stderrTail: [UInt8], cut: Bool) {
        guard let pid = state.running?.child.pid else { preconditionFailure("no child") }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        // What it wrote before it died (bounded: a second, and the pipe ends when the group dies).
        let deadline = monotonicNow() + 1
        while state.running?.stderrOpen == true && monotonicNow() < deadline {
            guard let errors = state.running?.child.errors else { break }
            var descriptor = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            drainErrors(&state)
        }
        let running = state.running!
        state.running = nil
        running.child.closePipes()
        return (waitProcessStatus(pid), running.stderrTail, running.stderrCut)
    }

    /// `; command: …`, then, when it wrote any, `; its standard error ends:` and the end of its
    /// standard error, its lines quoted on lines of their own (``quotedLines(_:limit:cut:)``).
    private func describeTail(_ tail: [UInt8], cut: Bool) -> String {
        guard !tail.isEmpty else { return "; command: \(oneLine(command))" }
        return "; command: \(oneLine(command)); its standard error ends:\(quotedLines(tail[...], limit: Self.stderrTailBytes, cut: cut))"
    }
}

extension ProcessEngine {
    /// The script `/bin/sh -c` runs for `command`: `exec COMMAND`, so that a simple command replaces
    /// the shell and *is* the child (the process the lab stops and measures), not a shell around it.
    ///
    /// Leading environment assignments (`NAME=value` words, as in `PYTHONHASHSEED=0 python3 e.py`)
    /// stay before the `exec`: `PYTHONHASHSEED=0 exec python3 e.py`. `exec` is a special built-in,
    /// and assignments before it reach the command it runs (dash, bash and POSIX shells do so);
    /// after it, `NAME=value` would be taken for the program's name. An assignment's value may be
    /// quoted or hold substitutions (`A='x y' B="$(pwd)/lib"`). When an assignment cannot be read
    /// with confidence — an unclosed quote, or an operator or line break inside the word
    /// (`A=1;./e`), or substitutions nested deeper than 64 — the script is `exec COMMAND` as it is,
    /// and the shell reports what is wrong.
    ///
    /// - Complexity: O(command).
    package static func shellScript(for command: String) -> String {
        let bytes = Array(command.utf8)
        var index = 0
        var end = 0
        while true {
            while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
            guard ShellWords.isAssignment(bytes, at: index) else { break }
            guard let wordEnd = ShellWords.end(of: bytes, from: index) else { return "exec " + command }
            index = wordEnd
            end = wordEnd
        }
        guard end > 0 else { return "exec " + command }
        return String(decoding: bytes[..<end], as: UTF8.self) + " exec" + String(decoding: bytes[end...], as: UTF8.self)
    }
}

/// Just enough of the POSIX shell's word syntax to find where a leading assignment word ends
/// (``ProcessEngine/shellScript(for:)``).
private enum ShellWords {
    /// The deepest nesting of quotes and substitutions read.
    static let maxDepth = 64

    /// Whether the word at `index` starts with `NAME=` (a letter or `_`, then letters, digits or
    /// `_`, unquoted).
    static func isAssignment(_ s: [UInt8], at index: Int) -> Bool {
        func isNameByte(_ c: UInt8, first: Bool) -> Bool {
            c == UInt8(ascii: "_") || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
                || (!first && c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
        var i = index
        while i < s.count && isNameByte(s[i], first: i == index) { i += 1 }
        return i > index && i < s.count && s[i] == UInt8(ascii: "=")
    }

    /// The index just past the word starting at `start`: at an unquoted blank or the end.
    /// `nil` for an unquoted line break or operator (`;`, `&`, `|`, `(`, `)`, `<`, `>`), or
    /// anything ``skip(_:at:depth:)`` cannot read.
    static func end(of s: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < s.count {
            switch s[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): return i
            case UInt8(ascii: "\n"), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "<"), UInt8(ascii: ">"):
                return nil
            default:
                guard let next = skip(s, at: i, depth: 0) else { return nil }
                i = next
            }
        }
        return i
    }

    /// The index past the unit at `i`: a backslash and the byte it escapes, a single- or
    /// double-quoted string, a backquoted or `$(...)`, `$((...))` or `${...}` substitution, or one
    /// byte. `nil` when it is not closed, or nested deeper than ``maxDepth``.
    static func skip(_ s: [UInt8], at i: Int, depth: Int) -> Int? {
        guard depth < maxDepth else { return nil }
        switch s[i] {
        case UInt8(ascii: "\\"):
            return i + 1 < s.count ? i + 2 : nil
        case UInt8(ascii: "'"):
            guard let close = s[(i + 1)...].firstIndex(of: UInt8(ascii: "'")) else { return nil }
            return close + 1
        case UInt8(ascii: "\""):
            var j = i + 1
            while j < s.count {
                switch s[j] {
                case UInt8(ascii: "\""): return j + 1
                case UInt8(ascii: "\\"): j += 2
                case UInt8(ascii: "$"), UInt8(ascii: "`"):
                    guard let next = skip(s, at: j, depth: depth + 1) else { return nil }
                    j = next
                default: j += 1
                }
            }
            return nil
        case UInt8(ascii: "`"):
            var j = i + 1
            while j < s.count {
                if s[j] == UInt8(ascii: "`") { return j + 1 }
                j += s[j] == UInt8(ascii: "\\") ? 2 : 1
            }
            return nil
        case UInt8(ascii: "$") where i + 1 < s.count && (s[i + 1] == UInt8(ascii: "(") || s[i + 1] == UInt8(ascii: "{")):
            let (open, close) = s[i + 1] == UInt8(ascii: "(") ? (UInt8(ascii: "("), UInt8(ascii: ")")) : (UInt8(ascii: "{"), UInt8(ascii: "}"))
            var nesting = 0
            var j = i + 1
            while j < s.count {
                switch s[j] {
                case open:
                    nesting += 1
                    j += 1
                case close:
                    nesting -= 1
                    j += 1
                    if nesting == 0 { return j }
                case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "$"):
                    guard let next = skip(s, at: j, depth: depth + 1) else { return nil }
                    j = next
                default: j += 1
                }
            }
            return nil
        default:
            return i + 1
        }
    }
}

/// Blocks SIGPIPE in the calling thread, so that writing to a pipe whose reader has gone fails with
/// EPIPE instead of ending the process; the returned function discards a SIGPIPE that became
/// pending meanwhile and restores the thread's signal mask.
private func blockBrokenPipeSignal() -> () -> Void {
    var brokenPipe = sigset_t()
    sigemptyset(&brokenPipe)
    sigaddset(&brokenPipe, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
    return {
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) != 1 {
            #if os(Linux)
            var zero = timespec()
            _ = sigtimedwait(&brokenPipe, nil, &zero)
            #else
            var signal: Int32 = 0
            _ = sigwait(&brokenPipe, &signal)
            #endif
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}

/// `0.5`, `10`: seconds for messages.
private func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
}
