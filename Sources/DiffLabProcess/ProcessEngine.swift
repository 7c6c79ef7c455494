import DiffLabCore
import DiffLabFormatting
import DiffLabPlatform

/// An engine in another process, in any language, spoken to over the `difflab-engine/1`
/// protocol (`docs/engine-protocol.md`): one JSON object per line on the child's standard input
/// and output.
///
/// ## Process
/// The child runs `/bin/sh -c "exec COMMAND"` (so a simple command *is* the child, and shell
/// syntax works; leading environment assignments stay before the `exec`:
/// `/bin/sh -c "VAR=1 exec ./engine"`, see `shellScript(for:)`), in a process group of its own, with this process's environment and working
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
///
/// ## Edge cases
/// - Empty lists are sent as empty arrays; the engine must answer them like any other request.
/// - An identifier with no faithful JSON form (a non-ASCII string, a number outside `Int`) makes
///   the lab number the request's identifiers instead (``WireElement``).
/// - A failed request never leaves a half-read answer behind: the next request starts from a
///   clean child (a fresh one, unless the failure was the engine's own `error` message).
/// - Bounded work on any engine output: at most ``maxAnswerBytes`` are read per answer, at most
///   600 bytes of standard error are kept, and every wait ends at its time limit.
///
/// ## Complexity
/// Each request costs O(n) to encode and decode (n: the elements of both lists, plus the length
/// of their identifiers), plus the engine's own time; starting a child costs a process spawn.
///
/// ## Thread safety
/// A `ProcessEngine` is `Sendable` and may be shared: its copies share one child, and concurrent
/// requests are serialized by a lock (one request is on the wire at a time). A process forked
/// from this one cannot use the engine (the pipes and the child belong to this process); see
/// `anyStarted`.
///
/// The command line's `--engine-command` and `difflab bench` use this type (the runner library
/// makes it an `OutOfProcessEngine`, so a benchmark reports the engine process's memory).
public struct ProcessEngine: ChangesetEngine {
    /// The protocol this engine speaks: `difflab-engine/1`.
    public static let protocolVersion = EngineWire.version
    /// The default time limit for one answer, in seconds.
    public static let defaultRequestTimeout = 10.0
    /// Whether this process has started an engine process: its pipes and its process id belong
    /// to this process, so a forked child cannot talk to it (crash-isolated fuzzing then fuzzes
    /// in-process; the engine's own crashes are already isolated in its process).
    package static var anyStarted: Bool { started.withLock { $0 } }
    private static let started = Locked(false)
    /// The default time limit for starting and saying `hello`, in seconds.
    public static let defaultStartTimeout = 10.0
    /// The allowed time limits, in seconds.
    public static let allowedTimeouts = 0.001...86_400.0
    /// The longest engine name.
    public static let maxNameLength = 64
    /// The default limit on one answer line: 64 MiB (the command line's default input limit, so an
    /// answer holds as much as an input file may).
    public static let defaultMaxAnswerBytes = 64 << 20
    /// The allowed limits on one answer line: 1 byte to 64 GiB (the command line's
    /// `--max-input-bytes` range, which sets the limit of the engines it starts).
    public static let allowedAnswerBytes = 1...(64 << 30)

    /// The engine's name: the `name` argument, else the name the engine said in its `hello`.
    public let name: String
    /// The promises the engine declared in its `hello`.
    public let promises: EnginePromises
    /// The shell command that starts the engine.
    public let command: String
    /// Whether every answer carries the engine's own batch form (declared in its `hello`).
    public let hasBatchForm: Bool
    /// Where the engine comes from, as its `hello`'s optional `about` says (library, version,
    /// how the adapter applies it); `nil` when it says nothing. Shown by `difflab arena`.
    public let about: EngineAbout?
    private let process: EngineProcess

    /// Starts `command` and checks its `hello`.
    ///
    /// - Parameters:
    ///   - command: run as `/bin/sh -c "exec COMMAND"`, or `/bin/sh -c "NAME=value exec REST"` when it
    ///     starts with environment assignments (`shellScript(for:)`).
    ///   - name: the engine's name; when `nil`, the name from its `hello`. Must satisfy
    ///     ``isValidName(_:)``.
    ///   - requestTimeout: seconds allowed per answer (in ``allowedTimeouts``).
    ///   - startTimeout: seconds allowed for starting and the `hello` (in ``allowedTimeouts``);
    ///     applies to every restart too.
    ///   - maxAnswerBytes: the longest line accepted from the engine (in
    ///     ``allowedAnswerBytes``; default ``defaultMaxAnswerBytes``, 64 MiB). The command line
    ///     passes its input limit (`--max-input-bytes`).
    /// - Throws: ``EngineFailure`` when the child cannot start, does not say a valid `hello` in
    ///   time (`crashed`, `timedOut`, `badAnswer`), or an argument is out of range (`unsupported`).
    public init(
        command: String, name: String? = nil, requestTimeout: Double = defaultRequestTimeout,
        startTimeout: Double = defaultStartTimeout, maxAnswerBytes: Int = defaultMaxAnswerBytes
    ) throws(EngineFailure) {
        for (label, value) in [("request timeout", requestTimeout), ("start timeout", startTimeout)]
        where !Self.allowedTimeouts.contains(value) {
            throw EngineFailure(
                .unsupported,
                "the engine's \(label) must be from \(Self.allowedTimeouts.lowerBound) to \(Int(Self.allowedTimeouts.upperBound)) seconds (got \(value))"
            )
        }
        guard Self.allowedAnswerBytes.contains(maxAnswerBytes) else {
            throw EngineFailure(
                .unsupported,
                "the engine's answer limit must be from 1 byte to \(formatByteCount(Self.allowedAnswerBytes.upperBound)) (got \(maxAnswerBytes))")
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
        self.about = hello.about
    }

    /// Seconds allowed per answer.
    public var requestTimeout: Double { process.requestTimeout }
    /// The longest answer line accepted, in bytes.
    public var maxAnswerBytes: Int { process.maxAnswerBytes }

    /// Whether `name` can name an engine: 1 to ``maxNameLength`` lower-case ASCII letters, digits,
    /// `-`, `_` and `.`, starting with a letter or digit (the command line's registry asks the
    /// same rule). O(1): at most 65 bytes are looked at.
    public static func isValidName(_ name: String) -> Bool { isEngineSlug(name) }

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
