import DiffLabBench
import DiffLabCore
import DiffLabFuzz
import DiffLabJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-isolated fuzzing: `difflab fuzz` runs its campaign in a forked process and survives an
/// engine that traps, crashes or hangs.
///
/// An engine under test may trap (a failed precondition, an index out of range, a force-unwrap of
/// `nil`), crash or loop forever; in-process, that ends the whole run with nothing to show. So the
/// `difflab` executable runs ``runFuzzer(_:progress:)`` in a child process made with `fork()` and
/// watches it:
/// - before each check the child writes, into memory shared with this process, which input (its
///   choice sequence and size) and which subject × property each worker is checking, and counts
///   its inputs and checks there;
/// - when the child dies by a signal, or one check runs longer than ``checkSeconds``, this process
///   replays each check that was in progress, each in a forked process of its own, to find the
///   one that crashes (or hangs) on its own; it shrinks that input the usual way (``shrink``),
///   one forked process per candidate, keeping the candidates that end the same way (the same
///   signal, or a hang) on an input inside (or outside) the engine's contract like the original;
/// - it reports the failure as `<property>/<subject>/crashed-<SIGNAL>` or `<property>/<subject>/hung`,
///   with the shrunk counterexample, and starts a new child that goes on from the next input and
///   no longer checks that subject × property.
///
/// Forking is safe here because this process runs nothing but the supervision (no fuzzing
/// threads of its own) and each child only runs Swift code and ends with `_exit` (or `exit`
/// under coverage instrumentation: see ``endChild(_:)``).
/// In-process callers (the tests) call ``runFuzzer(_:progress:)`` directly.
struct FuzzSupervisor {
    /// The options of the whole campaign.
    var options: FuzzOptions
    /// A check that runs longer than this has hung (default 10 s).
    var checkSeconds: Double
    /// The documented range of ``checkSeconds`` for `difflab fuzz --check-seconds`: 0.1 to 3,600.
    static let allowedCheckSeconds = 0.1...3_600.0

    /// What ended a check replayed in a process of its own.
    enum Ending: Equatable {
        case passed
        case failed
        case crashed(Int32)
        /// A check of worker `worker` ran past the limit (for a replay, `worker` is 0).
        case hung(worker: Int)
        /// The campaign process showed no progress outside any check for ``idleSeconds``.
        case idle

        var isHang: Bool { if case .hung = self { true } else { false } }

        /// The same kind of ending: the same signal, both hangs, both passes or both failures.
        func sameKind(as other: Ending) -> Bool { isHang ? other.isHang : self == other }
    }

    /// The campaign's outcome: its report and the signatures of the failures that are crashes or
    /// hangs.
    struct Outcome {
        var report: FuzzReport
        var crashes: Set<String>
    }

    /// Runs the campaign; see the type's documentation.
    ///
    /// - Throws: ``CommandError`` when no process can be started, the shared memory cannot be
    ///   mapped, or the campaign process dies by a signal outside any check (a bug in DiffLab's
    ///   generator or properties, not in an engine). A process that shows no progress outside any
    ///   check for ``idleSeconds`` is stopped, said so on standard error, and the run goes on.
    func run(progress: @escaping @Sendable (FuzzProgress) -> Void) throws(CommandError) -> Outcome {
        let workers = max(options.workers, 1)
        let slots = try FuzzSlots(workers: workers)
        let folder = try Cleanup.shared.makeTemporaryDirectory("difflab-fuzz")
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let start = monotonicNow()
        var failures: [FuzzFailure] = []
        var keys: Set<String> = []
        var crashes: Set<String> = []
        var totals = FuzzSlots.Counts()
        var round = options
        var rounds = 0
        var done = false
        while !done {
            let offset = monotonicNow() - start
            if let seconds = options.seconds {
                guard seconds - offset > 0 else { break }
                round.seconds = seconds - offset
            }
            if let limit = options.inputs, round.firstInput >= limit { break }
            if round.skipping.count >= options.subjects.count * options.properties.count { break }
            slots.reset()
            rounds += 1
            let findingsPath = folder + "/round-\(rounds).jsonl"
            let base = (checks: totals.checks, failures: failures.count, outside: failures.count { $0.outsideContract })
            let pid = try forkChild {
                var child = round
                guard slots.openFindings(findingsPath) else { endChild(3) }
                child.watcher = slots
                _ = runFuzzer(child) { p in
                    progress(
                        FuzzProgress(
                            inputs: p.inputs, checks: base.checks + p.checks, failures: base.failures + p.failures,
                            outsideContract: base.outside + p.outsideContract, seconds: offset + p.seconds, size: p.size))
                }
                endChild(0)
            }
            let ending = watch(pid, slots)
            totals.add(slots.counts())
            func adopt(_ failure: FuzzFailure) {
                if keys.insert(failure.key).inserted { failures.append(failure) }
                round.known.insert(failure.key)
            }
            // What the process found before it ended, however it ended: for each failure its
            // last record (one is written when it is found, another when it is shrunk).
            for failure in Self.latestRecords(try Self.readFindings(findingsPath, secondsOffset: offset)) { adopt(failure) }
            switch ending {
            case .passed:
                done = true
            case .failed:
                throw CommandError(.failure, "fuzz: the fuzzing process could not report its findings")
            case .idle:
                round.firstInput = slots.lastInputIndex() + 1
                say(
                    "the fuzzing process showed no progress outside any check for \(formatBound(idleSeconds)) s and was stopped (a stall of the machine or a hang in DiffLab itself, not in an engine); going on from input \(round.firstInput + 1)"
                )
            case .crashed, .hung:
                var active = slots.activeChecks()
                let next = active.map(\.index).max() ?? 0
                if case let .hung(worker) = ending { active = active.filter { $0.worker == worker } }
                guard !active.isEmpty else {
                    throw CommandError(
                        .failure,
                        "fuzz: the fuzzing process \(ending.isHang ? "hung" : "died by \(signalName(ending))") outside any check it could name (a bug in DiffLab's generator or properties, or an input too large to record)")
                }
                round.firstInput = next + 1
                guard let found = culprit(active, ending: ending, secondsToFind: monotonicNow() - start) else {
                    stall(active[0])
                    continue
                }
                adopt(found.failure)
                crashes.insert(found.failure.signature)
                round.skipping.insert(FuzzOptions.checkKey(subject: found.subject, property: found.property))
            }
        }
        let report = FuzzReport(
            inputs: totals.inputs, checks: totals.checks, seconds: monotonicNow() - start, failures: failures, inputsByKind: totals.byKind,
            largeInputs: totals.large, largestInput: totals.largest)
        return Outcome(report: report, crashes: crashes)
    }

    /// Waits for the campaign process `pid`: `.passed` when it exits 0, `.failed` for another
    /// status, `.crashed` when a signal ends it, `.hung` (after stopping it) when one of its checks
    /// runs past ``checkSeconds``.
    ///
    /// A process that shows no sign of life (no input starts or ends, no check starts or ends:
    /// ``FuzzSlots/progressMark()``) while no check runs, for ``idleSeconds``, is stopped too,
    /// as `.idle`: it hung outside any check, in DiffLab's own code, and must not
    /// wedge the run. Only time seen between two polls of this loop counts, each poll at most
    /// 0.1 s, so a stopped or suspended run (Ctrl-Z) is not taken for an idle one.
    private func watch(_ pid: pid_t, _ slots: FuzzSlots) -> Ending {
        var mark = slots.progressMark()
        var idle = 0.0
        var polled = monotonicNow()
        while !processHasEnded(pid) {
            let (worker, seconds) = slots.longestRunningCheck()
            let now = monotonicNow()
            let latest = slots.progressMark()
            if latest != mark || seconds > 0 {
                mark = latest
                idle = 0
            } else {
                idle += min(now - polled, 0.1)
            }
            polled = now
            if seconds > checkSeconds || idle > idleSeconds {
                kill(pid, SIGKILL)
                _ = waitProcessStatus(pid)
                return seconds > checkSeconds ? .hung(worker: worker) : .idle
            }
            usleep(20_000)
        }
        return ending(waitProcessStatus(pid))
    }

    /// How long a campaign process may show no sign of life outside any check before it is
    /// taken as hung: six times ``checkSeconds``, at least 60 s (drawing one input, the only
    /// work outside a check, takes milliseconds even for the largest lists).
    var idleSeconds: Double { max(60, 6 * checkSeconds) }

    /// A replayed check's ending from its raw wait status.
    private func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        if signal != 0 { return .crashed(signal) }
        return (status >> 8) & 0xff == 0 ? .passed : .failed
    }

    /// Replays `choices` at `size` for one subject × property in a forked process: how it ended,
    /// and the input and consumed choices (decoded here; decoding runs no engine).
    private func replay(
        _ choices: [UInt64], size: Int, subject: Int, property: Int, seconds: Double
    ) -> (ending: Ending, input: FuzzCase, consumed: [UInt64]) {
        var source = DataSource(replaying: choices)
        let input = FuzzCase.generator(maxSize: size, elements: options.elements).generate(&source)
        let check = (options.subjects[subject], options.properties[property])
        // The replay's own trap message and stack trace would repeat once per candidate: silenced.
        guard let pid = try? forkChild({
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 { dup2(null, 2) }
            endChild(check.1.check(input, check.0) == nil ? 0 : 1)
        }) else {
            return (.failed, input, source.choices)
        }
        let deadline = monotonicNow() + seconds
        while !processHasEnded(pid) {
            if monotonicNow() > deadline {
                kill(pid, SIGKILL)
                _ = waitProcessStatus(pid)
                return (.hung(worker: 0), input, source.choices)
            }
            usleep(200)
        }
        return (ending(waitProcessStatus(pid)), input, source.choices)
    }

    /// Writes `fuzz: <text>` and a newline to standard error.
    private func say(_ text: String) {
        _ = writeAll(2, Array("fuzz: \(text)\n".utf8))
    }

    /// Says on standard error that a check ran past the limit but not when replayed: the machine
    /// stalled (it is shared and noisy), which is no failure of the engine.
    private func stall(_ check: FuzzSlots.ActiveCheck) {
        say(
            "input \(check.index + 1): \(options.properties[check.property]) on \(options.subjects[check.subject].name) ran past --check-seconds \(formatBound(checkSeconds)) but not when replayed on its own: taken as a stall of the machine, not a hang; going on from the next input"
        )
    }

    /// Finds which of the checks in progress crashed (or hung) the campaign process, shrinks its
    /// input, and makes the failure.
    ///
    /// - A crash that no check repeats on its own (one that needs two checks at once, or a flaky
    ///   one) is reported on the first check, unshrunk, saying so.
    /// - A hang that its check does not repeat on its own is `nil`: the machine stalled.
    private func culprit(
        _ active: [FuzzSlots.ActiveCheck], ending: Ending, secondsToFind: Double
    ) -> (failure: FuzzFailure, subject: Int, property: Int)? {
        var chosen = active[0]
        var confirmed = false
        var decoded = replay(chosen.choices, size: chosen.size, subject: chosen.subject, property: chosen.property, seconds: checkSeconds)
        for check in active {
            let again = check == chosen ? decoded : replay(check.choices, size: check.size, subject: check.subject, property: check.property, seconds: checkSeconds)
            if again.ending.sameKind(as: ending) {
                chosen = check
                decoded = again
                confirmed = true
                break
            }
        }
        if ending.isHang && !confirmed { return nil }
        let subject = options.subjects[chosen.subject]
        let property = options.properties[chosen.property]
        let outside = subject.isOutsideContract(decoded.input, for: property)
        var shrunk = (choices: chosen.choices, attempts: 0)
        var input = decoded.input
        if confirmed {
            var deadline = monotonicNow() + options.shrinkSeconds
            if let seconds = options.seconds { deadline = min(deadline, monotonicNow() + max(0, seconds - secondsToFind)) }
            // A hang is judged with a shorter limit while shrinking: candidates are smaller.
            let limit = ending.isHang ? min(checkSeconds, max(0.2, checkSeconds / 5)) : checkSeconds
            shrunk = shrink(chosen.choices, budget: options.shrinkBudget) { candidate in
                guard monotonicNow() < deadline else { return nil }
                let again = replay(candidate, size: chosen.size, subject: chosen.subject, property: chosen.property, seconds: limit)
                guard again.ending.sameKind(as: ending), subject.isOutsideContract(again.input, for: property) == outside else { return nil }
                return again.consumed
            }
            var source = DataSource(replaying: shrunk.choices)
            input = FuzzCase.generator(maxSize: chosen.size, elements: options.elements).generate(&source)
        }
        let what =
            ending.isHang
            ? "the check ran past the limit of \(formatBound(checkSeconds)) s (--check-seconds) and was stopped"
            : "the check ended the process by \(signalName(ending)) (a trap is a failed precondition, a range check or a force-unwrap)"
        let failure = PropertyFailure(
            signature: "\(property.rawValue)/\(subject.name)/\(ending.isHang ? "hung" : "crashed-\(signalName(ending))")",
            message: what + (confirmed ? "" : "; it did not do so again on its own, so this input is the one being checked, unshrunk"),
            outsideContract: outside)
        let found = FuzzFailure(
            property: property, subject: subject.name, failure: failure, input: input, choices: shrunk.choices,
            size: chosen.size, seed: options.seed(ofInput: chosen.index),
            originalItems: decoded.input.old.count + decoded.input.new.count, inputsToFind: chosen.index + 1,
            shrinkAttempts: shrunk.attempts, secondsToFind: secondsToFind)
        return (found, chosen.subject, chosen.property)
    }

    /// The name of the signal that ended the process (``signalName(_:)``), or `a hang`.
    private func signalName(_ ending: Ending) -> String {
        guard case let .crashed(signal) = ending else { return "a hang" }
        return DiffLabCLI.signalName(signal)
    }

    /// One failure as the campaign process hands it over: its regression record and the run's
    /// figures about it.
    static func record(_ failure: FuzzFailure) -> JSONValue {
        .object(
            JSONObject([
                ("regression", failure.regression.json), ("originalItems", .integer(failure.originalItems)),
                ("inputsToFind", .integer(failure.inputsToFind)), ("shrinkAttempts", .integer(failure.shrinkAttempts)),
                ("secondsToFind", JSONValue(failure.secondsToFind)),
            ]))
    }

    /// The last of `records` for each failure (``FuzzFailure/key``), in the order the failures
    /// were first found.
    static func latestRecords(_ records: [FuzzFailure]) -> [FuzzFailure] {
        var latest: [String: Int] = [:]
        var kept: [FuzzFailure] = []
        for record in records {
            if let at = latest[record.key] {
                kept[at] = record
            } else {
                latest[record.key] = kept.count
                kept.append(record)
            }
        }
        return kept
    }

    /// The failures a campaign process wrote to `path`, one record per line, their times moved by
    /// `secondsOffset`. A last line without its newline is a record the process was writing when
    /// it died: left out (its failure is not known, so the next process may find it again).
    static func readFindings(_ path: String, secondsOffset: Double) throws(CommandError) -> [FuzzFailure] {
        func broken(_ why: String) -> CommandError {
            CommandError(.failure, "fuzz: the fuzzing process's findings (\(path)) are unreadable: \(why)")
        }
        guard access(path, F_OK) == 0 else { return [] }
        let bytes = try readInputFile(path)
        var records: [JSONValue] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            do { records.append(try JSONValue.parse(bytes: Array(line))) } catch { throw broken("\(error)") }
        }
        var failures: [FuzzFailure] = []
        for record in records {
            guard let json = record["regression"], let originalItems = record["originalItems"]?.intValue,
                let inputsToFind = record["inputsToFind"]?.intValue, let attempts = record["shrinkAttempts"]?.intValue,
                let seconds = record["secondsToFind"]?.doubleValue
            else { throw broken("a record lacks a field") }
            let regression: RegressionCase
            do { regression = try RegressionCase(json: json) } catch { throw broken("\(error)") }
            failures.append(
                FuzzFailure(
                    property: regression.property, subject: regression.subject,
                    failure: PropertyFailure(
                        signature: regression.signature, message: regression.message,
                        outsideContract: regression.outsideContract),
                    input: regression.input, choices: regression.choices, size: regression.size, seed: regression.seed,
                    originalItems: originalItems, inputsToFind: inputsToFind, shrinkAttempts: attempts,
                    secondsToFind: seconds + secondsOffset))
        }
        return failures
    }
}

/// Forks a child that runs `body` (which must end the process), registered with ``Cleanup`` like
/// every child, so an interruption stops it. The child unblocks the signals this process blocks
/// for its cleanup thread, and runs `body` on a new thread (see ``runOnNewThread(_:)``). (A
/// campaign process also ends itself when this process is gone: see
/// ``FuzzSlots/finished(worker:input:large:checks:)``.)
///
/// - Throws: ``CommandError`` (exit 1) when `fork` fails.
func forkChild(_ body: () -> Never) throws(CommandError) -> pid_t {
    var pid: pid_t = -1
    let parent = getpid()
    let started = Cleanup.shared.startChild { () -> Int32 in
        #if canImport(Glibc)
        pid = Glibc.fork()
        #else
        pid = Darwin.fork()
        #endif
        return pid < 0 ? errno : 0
    } registering: { pid }
    if pid == 0 {
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
        if getppid() != parent { _exit(9) }
        runOnNewThread(body)
    }
    guard started == 0 else {
        throw CommandError(.failure, "fuzz: cannot start a process: \(String(cString: strerror(started)))")
    }
    return pid
}

/// Runs `body` (which ends the process) on a new thread of this forked child, the main thread
/// only waiting for it.
///
/// The Swift runtime's locks on Linux (`ulock`, behind `swift_once` and the metadata caches)
/// store the owning thread's id, which each thread caches in thread-local storage. A forked
/// child's main thread inherits the parent main thread's cached id, so whenever it contends for
/// such a lock with another thread (a second fuzzing worker instantiating the same generic
/// metadata at the same moment), the kernel's priority-inheritance futex sees the wrong owner and
/// both threads spin forever. That was the campaign child's rare stall (about one run in twenty
/// of `difflab fuzz --seconds 0.2` under load; both workers found spinning in `once_slow` by
/// `gdb`). A new thread starts with no cached id.
private func runOnNewThread(_ body: () -> Never) -> Never {
    withoutActuallyEscaping(body) { body in
        let box = Unmanaged.passRetained(ChildBody(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { raw in Unmanaged<ChildBody>.fromOpaque(raw!).takeRetainedValue().body() }, box) == 0
        else { _exit(9) }
        pthread_join(thread, nil)
        _exit(9)
    }
}

/// The body of a forked child, handed to its thread.
private final class ChildBody {
    let body: () -> Never
    init(_ body: @escaping () -> Never) { self.body = body }
}

/// Ends a forked child with `status`: with `_exit` (no exit handler of the parent's runs twice),
/// except under coverage instrumentation (`LLVM_PROFILE_FILE` set, as Scripts/fuzz-coverage does),
/// where `exit` lets the profile runtime write this process's coverage from its exit handler.
/// (With `exit` always, one clean-clone CI run saw a mutant's fuzzer never end; not reproduced
/// since, so plain runs keep `_exit`.)
private func endChild(_ status: Int32) -> Never {
    if getenv("LLVM_PROFILE_FILE") != nil { exit(status) }
    _exit(status)
}

/// Writes `bytes` to a new file at `path` (in this run's private temporary folder); `false` when
/// it cannot. For a forked child, which must not touch ``Cleanup``'s registry.
private func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return writeAll(descriptor, bytes)
}

/// The memory a campaign process shares with its supervisor: one slot per worker, holding what
/// the worker is checking and what it has checked. Each worker writes only its own slot, so the
/// words need no lock; the supervisor reads them while the child runs (a hang) or after it died.
///
/// Slot layout, in 64-bit words: 0 state (1 while a check runs), 1 input index, 2 subject,
/// 3 property, 4 list size, 5 start of the check (monotonic nanoseconds), 6 choice count
/// (`UInt64.max`: too many to keep), 7 inputs done, 8 checks done, 9 large lists, 10 largest
/// input, 11 the highest input index started plus one, then the inputs per element kind (one
/// word per kind), then the choices (at most ``choiceCapacity``).
final class FuzzSlots: FuzzWatcher, @unchecked Sendable {
    // @unchecked: the memory is written by one worker per slot and read by the supervisor, which
    // only acts on what it reads after confirming it (by replaying the check).
    private let base: UnsafeMutablePointer<UInt64>
    private let workers: Int
    /// The supervising process.
    private let supervisor = getpid()
    private static let kinds = FuzzElementKind.allCases
    private static let header = 12 + kinds.count
    /// The most choices a slot keeps: more than a generated input can have (``DataSource`` draws at
    /// most 100,000).
    static let choiceCapacity = 1 << 17
    private static var words: Int { header + choiceCapacity }

    /// Maps the shared memory for `workers` slots (pages are only touched as they are used).
    init(workers: Int) throws(CommandError) {
        self.workers = workers
        let bytes = workers * Self.words * 8
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED
        else { throw CommandError(.failure, "fuzz: cannot map \(formatByteCount(bytes)) of shared memory") }
        base = memory.bindMemory(to: UInt64.self, capacity: workers * Self.words)
    }

    /// Where a campaign process writes each failure it finds, one JSON record per line (see
    /// ``FuzzSupervisor/record(_:)``); -1 until ``openFindings(_:)``.
    private var findings: Int32 = -1
    private let findingsLock = Locked(())

    deinit {
        if findings >= 0 { close(findings) }
        munmap(base, workers * Self.words * 8)
    }

    /// In the campaign process: creates the findings file at `path` (a new file in the run's
    /// private folder); `false` when it cannot, or when a findings file is open already (that one
    /// stays).
    func openFindings(_ path: String) -> Bool {
        guard findings < 0 else { return false }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        findings = descriptor
        return true
    }

    func found(worker: Int, failure: FuzzFailure) {
        guard findings >= 0 else { return }
        let line = Array((FuzzSupervisor.record(failure).serialized() + "\n").utf8)
        findingsLock.withLock { _ in _ = writeAll(findings, line) }
    }

    private func slot(_ worker: Int) -> UnsafeMutablePointer<UInt64> { base + worker * Self.words }

    /// Clears every slot's state and counts, before a new campaign process starts.
    func reset() {
        for worker in 0..<workers { slot(worker).update(repeating: 0, count: Self.header) }
    }

    func input(worker: Int, index: Int, choices: [UInt64], size: Int) {
        let s = slot(worker)
        s[0] = 0
        s[1] = UInt64(truncatingIfNeeded: index)
        s[4] = UInt64(truncatingIfNeeded: size)
        s[11] = max(s[11], UInt64(truncatingIfNeeded: index) &+ 1)
        if choices.count <= Self.choiceCapacity {
            choices.withUnsafeBufferPointer { (s + Self.header).update(from: $0.baseAddress!, count: $0.count) }
            s[6] = UInt64(choices.count)
        } else {
            s[6] = .max
        }
    }

    func check(worker: Int, subject: Int, property: Int) {
        let s = slot(worker)
        s[2] = UInt64(truncatingIfNeeded: subject)
        s[3] = UInt64(truncatingIfNeeded: property)
        s[5] = UInt64(truncatingIfNeeded: Int64(monotonicNow() * 1e9))
        s[0] = 1
    }

    func finished(worker: Int, input: FuzzCase, large: Bool, checks: Int) {
        let s = slot(worker)
        s[0] = 0
        s[7] &+= 1
        s[8] &+= UInt64(truncatingIfNeeded: checks)
        if large { s[9] &+= 1 }
        s[10] = max(s[10], UInt64(input.old.count + input.new.count))
        if let kind = Self.kinds.firstIndex(of: input.elements) { s[12 + kind] &+= 1 }
        // Orphaned (the supervisor was killed outright): nobody reads the findings; stop.
        if getpid() != supervisor && getppid() != supervisor { _exit(9) }
    }

    /// A check in progress when the campaign process died or hung.
    struct ActiveCheck: Equatable {
        var worker: Int
        var index: Int
        var subject: Int
        var property: Int
        var size: Int
        var choices: [UInt64]
    }

    /// The checks in progress, by worker; those whose choices were too many to keep are left out.
    func activeChecks() -> [ActiveCheck] {
        (0..<workers).compactMap { worker in
            let s = slot(worker)
            guard s[0] == 1, s[6] != .max, s[6] <= UInt64(Self.choiceCapacity) else { return nil }
            return ActiveCheck(
                worker: worker, index: Int(truncatingIfNeeded: s[1]), subject: Int(truncatingIfNeeded: s[2]),
                property: Int(truncatingIfNeeded: s[3]), size: Int(truncatingIfNeeded: s[4]),
                choices: Array(UnsafeBufferPointer(start: s + Self.header, count: Int(s[6]))))
        }
    }

    /// The worker whose check in progress has run longest, and for how many seconds (0 when none
    /// runs).
    ///
    /// Read while the workers write, without a barrier: the state word may be seen before the
    /// start time of the same check, so a start time of 0 (the slot was just reset) counts as
    /// not started. Any other start time seen is that check's or its predecessor's (a few
    /// microseconds earlier); a hang is confirmed by replaying the check anyway.
    func longestRunningCheck() -> (worker: Int, seconds: Double) {
        let now = monotonicNow()
        var longest = (worker: 0, seconds: 0.0)
        for worker in 0..<workers where slot(worker)[0] == 1 && slot(worker)[5] != 0 {
            let seconds = now - Double(Int64(truncatingIfNeeded: slot(worker)[5])) / 1e9
            if seconds > longest.seconds { longest = (worker, seconds) }
        }
        return longest
    }

    /// A mark that changes whenever a worker starts or ends an input or a check (the sum of the
    /// state, input index, check start time and inputs done of every slot): the supervisor's sign
    /// of life from the process.
    func progressMark() -> UInt64 {
        (0..<workers).reduce(0) { mark, worker in
            let s = slot(worker)
            return mark &+ s[0] &+ (s[1] &<< 1) &+ s[5] &+ (s[7] &<< 32)
        }
    }

    /// The highest input index any worker started on since ``reset()`` (-1 when none did).
    func lastInputIndex() -> Int {
        (0..<workers).map { Int(truncatingIfNeeded: slot($0)[11]) - 1 }.max() ?? -1
    }

    /// Inputs and checks counted by a campaign process.
    struct Counts {
        var inputs = 0
        var checks = 0
        var large = 0
        var largest = 0
        var byKind: [FuzzElementKind: Int] = [:]

        mutating func add(_ other: Counts) {
            checks += other.checks
            large += other.large
            inputs += other.inputs
            largest = max(largest, other.largest)
            for (kind, count) in other.byKind { byKind[kind, default: 0] += count }
        }
    }

    /// What the slots counted since ``reset()``.
    func counts() -> Counts {
        var counts = Counts()
        for worker in 0..<workers {
            let s = slot(worker)
            guard s[7] > 0 else { continue }
            counts.inputs += Int(truncatingIfNeeded: s[7])
            counts.checks += Int(truncatingIfNeeded: s[8])
            counts.large += Int(truncatingIfNeeded: s[9])
            counts.largest = max(counts.largest, Int(truncatingIfNeeded: s[10]))
            for (k, kind) in Self.kinds.enumerated() where s[12 + k] > 0 {
                counts.byKind[kind, default: 0] += Int(truncatingIfNeeded: s[12 + k])
            }
        }
        return counts
    }
}
