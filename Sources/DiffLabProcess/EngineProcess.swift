import DiffLabCore
import DiffLabFormatting
import DiffLabPlatform

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
            FileDescriptor(rawValue: running.child.input).closeIgnoringErrors()
            let deadline = monotonicNow() + 1
            while !processHasEnded(running.child.pid) && monotonicNow() < deadline { sleep(seconds: 0.005) }
            try? sendSignal(.kill, to: -running.child.pid)
            try? sendSignal(.kill, to: running.child.pid)
            FileDescriptor(rawValue: running.child.output).closeIgnoringErrors()
            FileDescriptor(rawValue: running.child.errors).closeIgnoringErrors()
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
            throw EngineFailure(.crashed, "cannot start the engine '\(oneLine(command))': \(error)")
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
        var byte: [UInt8] = [0]
        let count = (try? readSome(running.child.output, into: &byte, count: 1).get()) ?? -1
        if count > 0 {
            throw stopped(&state, .badAnswer, "wrote output \(after), before request \(id) (starting with \(excerpt(byte[...])))")
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
                    "gave no answer to \(request) within \(formatPlain(timeout)) s"
                        + (answer.isEmpty ? "" : " (it wrote \(answer.count) bytes without a newline: \(excerpt(answer[...])))")
                        + "; stopped it")
            }
            let (output, errors, input) = (
                FileDescriptor(rawValue: child.output), FileDescriptor(rawValue: child.errors), FileDescriptor(rawValue: child.input)
            )
            var requests: [(descriptor: FileDescriptor, events: PollEvents)] = [(output, .readable)]
            if state.running?.stderrOpen == true { requests.append((errors, .readable)) }
            if inputOpen && written < line.count { requests.append((input, .writable)) }
            let milliseconds = Int32(min(remaining * 1000 + 1, 60_000))
            let reported: [PollEvents]
            do throws(PlatformError) {
                reported = try FileDescriptor.waitForEvents(requests, milliseconds: milliseconds)
            } catch {
                if error.code == .interrupted { continue }
                throw stopped(&state, .crashed, "could not be waited for (\(error.message))")
            }
            for (request, events) in zip(requests, reported) where !events.isEmpty {
                if request.descriptor == errors {
                    drainErrors(&state)
                } else if request.descriptor == input {
                    do throws(PlatformError) {
                        written += try line.withUnsafeBytes { bytes in
                            Result { () throws(PlatformError) -> Int in
                                try input.write(UnsafeRawBufferPointer(rebasing: bytes[written..<min(bytes.count, written + 65_536)]))
                            }
                        }.get()
                    } catch {
                        // EPIPE: it closed its input or died; its output tells which.
                        if error.code != .wouldBlock { inputOpen = false }
                    }
                }
            }
            // Output last, after its standard error was read: a crash's message is then complete.
            if !reported[0].isEmpty {
                let wanted = min(chunk.count, maxAnswerBytes - answer.count + 2)
                switch readSome(child.output, into: &chunk, count: wanted) {
                case .success(let count) where count > 0:
                    answer += chunk[..<count]
                case .success:
                    throw ended(&state, "while answering \(request)" + (answer.isEmpty ? "" : " (after writing \(excerpt(answer[...])))"))
                case .failure(let error):
                    if error.code != .wouldBlock {
                        throw stopped(&state, .crashed, "could not be read (\(error.message)) while answering \(request)")
                    }
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
        // An interrupted read is retried by the platform layer; EAGAIN leaves the pipe open.
        reading: for _ in 0..<16 {
            switch readSome(running.child.errors, into: &chunk, count: chunk.count) {
            case .success(let count) where count > 0:
                running.stderrTail += chunk[..<count]
                if running.stderrTail.count > Self.stderrTailBytes * 2 {
                    running.stderrTail.removeFirst(running.stderrTail.count - Self.stderrTailBytes)
                    running.stderrCut = true
                }
            case .success:
                running.stderrOpen = false
                break reading
            case .failure(let error):
                if error.code != .wouldBlock { running.stderrOpen = false }
                break reading
            }
        }
        state.running = running
    }

    /// The child closed its output or exited: waits up to a second for its exit status, stops it,
    /// and describes the crash.
    private func ended(_ state: inout State, _ when: String) -> EngineFailure {
        guard let pid = state.running?.child.pid else { preconditionFailure("no child") }
        let deadline = monotonicNow() + 1
        while !processHasEnded(pid) && monotonicNow() < deadline { sleep(seconds: 0.002) }
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
        try? sendSignal(.kill, to: -pid)
        try? sendSignal(.kill, to: pid)
        // What it wrote before it died (bounded: a second, and the pipe ends when the group dies).
        let deadline = monotonicNow() + 1
        while state.running?.stderrOpen == true && monotonicNow() < deadline {
            guard let errors = state.running?.child.errors else { break }
            _ = FileDescriptor.waitReadable([FileDescriptor(rawValue: errors)], milliseconds: 100)
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

/// Blocks SIGPIPE in the calling thread, so that writing to a pipe whose reader has gone fails with
/// EPIPE instead of ending the process; the returned function discards a SIGPIPE that became
/// pending meanwhile and restores the thread's signal mask.
private func blockBrokenPipeSignal() -> () -> Void {
    let brokenPipe = SignalMask([.brokenPipe])
    let previous = brokenPipe.block()
    return {
        if SignalMask.pending().contains(.brokenPipe) && !previous.contains(.brokenPipe) {
            _ = takePendingSignal(brokenPipe) as Signal?
        }
        previous.install()
    }
}

/// Reads at most `count` bytes from `descriptor` into the start of `buffer`: how many (0 at the
/// end of the file), or the error (``PlatformError/Code/wouldBlock`` when nothing is there yet;
/// an interrupted read is retried).
private func readSome(_ descriptor: Int32, into buffer: inout [UInt8], count: Int) -> Result<Int, PlatformError> {
    buffer.withUnsafeMutableBytes { raw in
        Result { () throws(PlatformError) -> Int in
            try FileDescriptor(rawValue: descriptor).read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<min(count, raw.count)]))
        }
    }
}
