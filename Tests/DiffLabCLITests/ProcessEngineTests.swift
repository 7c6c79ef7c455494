import DiffLabBench
import DiffLabCLI
import DiffLabCore
import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Foundation
import Testing

/// The folder of this file.
private let testsFolder: String = {
    let path = #filePath
    return String(path[..<path.lastIndex(of: "/")!])
}()

/// The repository root.
private let root: String = {
    var path = testsFolder
    for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

/// A Python 3 interpreter: the system's when present (it starts faster than a version manager's
/// shim), else `python3` on `PATH`.
private let python = FileSystem.isAccessible("/usr/bin/python3", .execute) ? "/usr/bin/python3" : "python3"
private let pythonAvailable = (try? runProcess(python, ["-c", "pass"], stdout: "/dev/null", stderr: "/dev/null")) == 0

private let difflibCommand = "\(python) \(root)/Examples/difflib-engine/difflib_engine.py"

private func hostile(_ mode: String) -> String { "\(python) \(testsFolder)/Fixtures/hostile_engine.py \(mode)" }

/// An engine command that reads the hello request, answers `line` (which has no single quote),
/// then reads and ignores the rest. It reads before answering: an engine that answers before the
/// request is written, then exits, is "answering before reading all of it", and whether the lab
/// sees that depends on which process runs first (the cause of a flaky CI run).
private func answeringOnce(_ line: String) -> String {
    precondition(!line.contains("'"))
    return #"sh -c 'read request; printf "%s\n" "$0"; exec cat > /dev/null' '"# + line + "'"
}

/// An old list that triggers the hostile engine's misbehaviour, and one that does not.
private let trigger = [666, 1]
private let harmless = [1, 2]

/// The failure `body` throws, if any.
private func failure<T>(_ body: () throws(EngineFailure) -> T) -> EngineFailure? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Whether `pid` has been reaped (no process, not even a zombie: DiffLabPlatform's
/// `processIsAlive` counts a zombie as alive on Linux and Darwin alike).
private func isGone(_ pid: Int32?) -> Bool {
    guard let pid else { return false }
    return !processIsAlive(pid)
}

/// Checks a flat result against the lists: deleted and inserted indices in range, the survivors
/// pair in order with equal identifiers, and a pair is updated exactly when its content differs.
private func checkFlat(_ result: EngineResult, _ old: [FuzzItem], _ new: [FuzzItem]) -> Bool {
    guard result.moves.isEmpty else { return false }
    let deleted = Set(result.deletes)
    let inserted = Set(result.inserts)
    guard deleted.count == result.deletes.count, inserted.count == result.inserts.count,
        deleted.allSatisfy(old.indices.contains), inserted.allSatisfy(new.indices.contains)
    else { return false }
    let kept = old.indices.filter { !deleted.contains($0) }
    let placed = new.indices.filter { !inserted.contains($0) }
    guard kept.count == placed.count else { return false }
    var updates: Set<Update> = []
    for (i, j) in zip(kept, placed) {
        guard old[i].id == new[j].id else { return false }
        if old[i].content != new[j].content { updates.insert(Update(from: i, to: j)) }
    }
    return updates == Set(result.updates) && updates.count == result.updates.count
}

@Suite("ProcessEngine: engines in other processes", .enabled(if: pythonAvailable), .timeLimit(.minutes(2)))
struct ProcessEngineTests {
    // MARK: The difflib adapter

    @Test func difflibSaysItsHello() throws {
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        #expect(engine.name == "difflib")
        #expect(engine.promises == EnginePromises(supportsDuplicates: true, minimalMoves: true, reference: .none))
        #expect(!engine.hasBatchForm)
        let named = try ProcessEngine(command: difflibCommand, name: "mine")
        defer { named.stop() }
        #expect(named.name == "mine")
    }

    @Test func difflibAnswersHandCheckedInputs() throws {
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        func flat<E: Diffable>(_ old: [E], _ new: [E], _ comparison: ComparisonOption = .equality) throws -> EngineResult {
            let changes = try engine.changes(from: old, to: new, comparison: comparison)
            #expect(changes.batch == nil)
            #expect(changes.reportedSeconds.map { $0 >= 0 } == true)
            return changes.result
        }
        // equal [1], delete 2, equal [3], insert 4.
        #expect(try flat([1, 2, 3], [1, 3, 4]) == EngineResult(inserts: [2], deletes: [1]))
        // The longest match [1, 2] stays; 3 is deleted and inserted (no moves).
        #expect(try flat([1, 2, 3], [3, 1, 2]) == EngineResult(inserts: [0], deletes: [2]))
        // A content change inside an equal block is an update with its destination.
        #expect(
            try flat([FuzzItem(1), FuzzItem(2), FuzzItem(3)], [FuzzItem(0), FuzzItem(1), FuzzItem(2, 9), FuzzItem(3)])
                == EngineResult(inserts: [0], updates: [Update(from: 1, to: 2)]))
        #expect(try flat([Int](), []) == EngineResult())
        #expect(try flat([Int](), [5, 6]) == EngineResult(inserts: [0, 1]))
        #expect(try flat(["a", "b"], [String]()) == EngineResult(deletes: [0, 1]))
        // Non-ASCII strings are numbered by Swift's equality: "é" precomposed equals "e" + U+0301.
        #expect(try flat(["\u{e9}", "x", "y"], ["x", "e\u{301}", "y"]) == EngineResult(inserts: [0], deletes: [1]))
        #expect(try flat(["K", "\u{212a}"], ["\u{212a}"]) == EngineResult(deletes: [1]))
        // JSON elements: numbers that are not Ints are numbered; contents compare as JSON values.
        let a = JSONElement(id: .double(1.5), content: .integer(1))
        let b = JSONElement(id: .string("b"), content: .object(["x": .integer(1), "y": .integer(2)]))
        let b2 = JSONElement(id: .string("b"), content: .object(["y": .integer(2), "x": .double(1.0)]))
        let b3 = JSONElement(id: .string("b"), content: .null)
        #expect(try flat([a, b], [a, b2]) == EngineResult())
        #expect(try flat([a, b], [a, b3]) == EngineResult(updates: [Update(from: 1, to: 1)]))
        // Duplicates pair along the matching blocks.
        #expect(try flat([FuzzItem(7), FuzzItem(7, 1)], [FuzzItem(7, 1)]) == EngineResult(deletes: [1], updates: [Update(from: 0, to: 0)]))
    }

    @Test func identityComparisonSendsInstances() throws {
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        // Same content, different instances: updated under identity only.
        let old = AbstractDataset(.differencekit, size: 50, seed: 3).objects()
        let copies = AbstractDataset(.differencekit, size: 50, seed: 3).objects()
        let sameInstances = try engine.changes(from: old.old, to: old.old, comparison: .identity)
        #expect(sameInstances.result == EngineResult())
        let identity = try engine.changes(from: old.old, to: copies.old, comparison: .identity)
        #expect(identity.result.updates.count == old.old.count)
        let equality = try engine.changes(from: old.old, to: copies.old, comparison: .equality)
        #expect(equality.result == EngineResult())
    }

    @Test func encodesEveryElementKindFaithfully() {
        func line<E: WireElement>(_ old: [E], _ new: [E], _ comparison: ComparisonOption = .equality) -> String {
            String(decoding: EngineWire.diffLine(id: 4, old: old, new: new, comparison: comparison), as: UTF8.self)
        }
        #expect(line([FuzzItem(5, 1), FuzzItem(-2)], [FuzzItem(5, 2)]) == #"{"type":"diff","id":4,"old":[[5,0],[-2,1]],"new":[[5,2]]}"# + "\n")
        #expect(line(["a\"b", "c"], []) == #"{"type":"diff","id":4,"old":[["a\"b",0],["c",1]],"new":[]}"# + "\n")
        #expect(line([Int](), [1]) == #"{"type":"diff","id":4,"old":[],"new":[[1,0]]}"# + "\n")
        // One identifier without a faithful form: the whole request is numbered.
        #expect(line(["K", "\u{212a}", "b"], ["b"]) == #"{"type":"diff","id":4,"old":[[0,0],[0,0],[1,1]],"new":[[1,1]]}"# + "\n")
        let big = JSONElement(id: .bigInteger(JSONBigInteger("18446744073709551616")!), content: .null)
        let one = JSONElement(id: .integer(1), content: .string("x"))
        #expect(line([one, big], [big]) == #"{"type":"diff","id":4,"old":[[0,0],[1,1]],"new":[[1,1]]}"# + "\n")
        #expect(
            line([one], [JSONElement(id: .string("1"), content: .string("x"))]) == #"{"type":"diff","id":4,"old":[[1,0]],"new":[["1",0]]}"# + "\n")
        let models = AbstractDataset(.differencekit, size: 3, seed: 1).models()
        #expect(line(models.old, []).contains("\"\(models.old[0].id.uuidString)\""))
        let ints = AbstractDataset(.differencekit, size: 3, seed: 1).ints()
        #expect(line(ints.old, []).hasPrefix(#"{"type":"diff","id":4,"old":[[\#(ints.old[0].id),"#))
    }

    @Test func elementsWithoutAWireFormAreUnsupported() throws {
        struct Opaque: Diffable, Hashable {}
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        let failed = failure { () throws(EngineFailure) in try engine.changes(from: [Opaque()], to: [], comparison: .equality) }
        #expect(failed?.kind == .unsupported)
        #expect(failed?.message.contains("Opaque") == true)
        // The engine is still usable.
        #expect(try engine.changes(from: [1], to: [1], comparison: .equality).result == EngineResult())
    }

    /// A short fuzz of the adapter: random lists with duplicates and content changes, each result
    /// checked to turn the old list into the new one with exactly the right updates.
    /// (`FuzzSubject` cannot take a `ChangesetEngine` on this branch yet, so the engine is called
    /// directly.)
    @Test func difflibResultsAreSoundOnRandomLists() throws {
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        var rng = SplitMix64(seed: 11)
        for round in 0..<300 {
            let size = Int(rng.next() % 40)
            let alphabet = 1 + Int(rng.next() % 30)
            let old = (0..<size).map { _ in FuzzItem(Int(rng.next() % UInt64(alphabet)), Int(rng.next() % 2)) }
            var new = old.filter { _ in rng.next() % 5 != 0 }
            for _ in 0..<Int(rng.next() % 6) {
                let item = FuzzItem(Int(rng.next() % UInt64(alphabet + 3)), Int(rng.next() % 2))
                new.insert(item, at: Int(rng.next() % UInt64(new.count + 1)))
            }
            if round % 7 == 0 { new.shuffle(using: &rng) }
            let changes = try engine.changes(from: old, to: new, comparison: .equality)
            #expect(checkFlat(changes.result, old, new), "round \(round): \(old) → \(new): \(changes.result)")
            #expect((try? DiffResult(checking: changes.result, oldCount: old.count, newCount: new.count)) != nil)
        }
    }

    @Test func callsFromManyThreadsAreSerialized() throws {
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        let results = Locked<[Int: EngineResult]>([:])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let result = try? engine.changes(from: Array(0..<index), to: Array(0...index), comparison: .equality).result
            results.withLock { $0[index] = result }
        }
        for index in 0..<16 {
            #expect(results.withLock { $0[index] } == EngineResult(inserts: [index]))
        }
    }

    // MARK: Hostile engines

    @Test func anEngineThatCrashesAtStartFailsToStart() {
        let failed = failure { () throws(EngineFailure) in try ProcessEngine(command: hostile("crash-start")) }
        #expect(failed?.kind == .crashed)
        #expect(failed?.message.contains("exited with status 3") == true, "\(String(describing: failed))")
        #expect(failed?.message.contains("no licence") == true)
    }

    @Test func aMissingCommandFailsToStart() {
        let failed = failure { () throws(EngineFailure) in try ProcessEngine(command: "/nonexistent/engine --flag") }
        #expect(failed?.kind == .crashed)
        #expect(failed?.message.contains("exited with status 127") == true, "\(String(describing: failed))")
    }

    @Test func aWrongHelloIsABadAnswer() {
        let failed = failure { () throws(EngineFailure) in try ProcessEngine(command: hostile("bad-hello")) }
        #expect(failed?.kind == .badAnswer)
        #expect(failed?.message.contains("difflab-engine/2") == true, "\(String(describing: failed))")
        let silent = failure { () throws(EngineFailure) in try ProcessEngine(command: answeringOnce(#"{"type":"hello"}"#)) }
        #expect(silent?.kind == .badAnswer)
    }

    /// A hello's optional `about` (where the engine comes from) is read strictly, every field
    /// named when wrong; without one, `about` is nil.
    @Test func aHellosAboutIsReadStrictly() {
        func engine(about: String) -> String {
            let hello =
                #"{"type":"hello","protocol":"difflab-engine/1","name":"a","promises":{"duplicates":true,"minimalMoves":true,"reference":"none"},"batch":false"#
                + about + "}"
            return answeringOnce(hello)
        }
        let full = #","about":{"library":"L","version":"1.2","adapter":"how","native":true,"promiseSources":["README: yes"]}"#
        var about = EngineAbout(library: "L", version: "1.2", adapter: "how", promiseSources: ["README: yes"])
        about.native = true
        for (extra, expected) in [(full, about), ("", nil)] {
            do {
                #expect(try ProcessEngine(command: engine(about: extra)).about == expected)
            } catch {
                Issue.record("the engine failed to start: \(error)")
            }
        }
        for (about, expected) in [
            (#","about":[]"#, #""about" must be an object"#),
            (#","about":{"version":"1"}"#, #""about".library must be a string"#),
            (#","about":{"library":"L","version":""}"#, #""about".version must be a string of 1 to 4096 bytes"#),
            (#","about":{"library":"L","version":"1","extra":"x"}"#, #"unknown key "extra""#),
            (#","about":{"library":"L","version":"1","promiseSources":"x"}"#, "promiseSources must be an array"),
            (#","about":{"library":"L","version":"1","promiseSources":[1]}"#, "promiseSources must be a string"),
            (#","about":{"library":"L","version":"1","build":7}"#, #""about".build must be a string"#),
            (#","about":{"library":"L","version":"1","native":"yes"}"#, #""about".native must be true or false (got"#),
            (#","about":{"library":"L","version":"1","native":1}"#, #""about".native must be true or false (got"#),
        ] {
            let failed = failure { () throws(EngineFailure) in try ProcessEngine(command: engine(about: about)) }
            #expect(failed?.kind == .badAnswer, "\(about)")
            #expect(failed?.message.contains(expected) == true, "\(about): \(String(describing: failed))")
        }
    }

    @Test func argumentsOutOfRangeAreRefused() {
        for (timeout, bytes, name) in [(0.0, 10, "x"), (Double.nan, 10, "x"), (1, 0, "x"), (1, 10, "Bad Name"), (1, 10, "-x")] {
            let failed = failure { () throws(EngineFailure) in
                try ProcessEngine(command: difflibCommand, name: name, requestTimeout: timeout, maxAnswerBytes: bytes)
            }
            #expect(failed?.kind == .unsupported, "\(timeout) \(bytes) \(name)")
        }
    }

    /// The engine crashes on its third request: that request fails naming the signal and the
    /// engine's last words; the next one runs on a fresh process.
    @Test func anEngineThatCrashesOnTheThirdRequestIsRestarted() throws {
        let engine = try ProcessEngine(command: hostile("crash-third"))
        defer { engine.stop() }
        let first = engine.processID
        _ = try engine.changes(from: harmless, to: [], comparison: .equality)
        _ = try engine.changes(from: harmless, to: [], comparison: .equality)
        let failed = failure { () throws(EngineFailure) in try engine.changes(from: harmless, to: [], comparison: .equality) }
        #expect(failed?.kind == .crashed)
        #expect(failed?.message.contains("was killed by signal 15") == true, "\(String(describing: failed))")
        #expect(failed?.message.contains("request 3") == true)
        #expect(failed?.message.contains("fatal: cannot take request 3") == true)
        #expect(engine.processID == nil)
        #expect(isGone(first))
        #expect(try engine.changes(from: harmless, to: [3], comparison: .equality).result == EngineResult(inserts: [0], deletes: [0, 1]))
        #expect(engine.processID != nil && engine.processID != first)
    }

    /// Each misbehaviour on the triggering input: the failure's kind, a word of its message, then
    /// a harmless request succeeds on a fresh process, and the old one is reaped. Engines that hang
    /// get half a second; the others a generous limit (the machine may be busy), which they never
    /// reach.
    @Test(arguments: [
        ("hang", EngineFailure.Kind.timedOut, "no answer to request 1 within 0.5 s"),
        ("ignore-term", .timedOut, "within 0.5 s"),
        ("stderr-flood", .timedOut, "flood flood"),
        ("garbage", .badAnswer, "Computing the diff"),
        ("huge", .badAnswer, "longer than the limit of 1 MiB"),
        ("wrong-id", .badAnswer, "answered id 2 to request 1"),
        ("non-integer", .badAnswer, "\"deletes\"[0] must be an integer, not 0.5"),
        ("string-index", .badAnswer, "\"updates\"[0] must be a pair of integers"),
        ("exit-zero", .crashed, "exited with status 0 while answering request 1"),
        ("slow-seconds", .badAnswer, "\"seconds\": 1000"),
    ])
    func aMisbehavingEngineFailsAndIsReplaced(mode: String, kind: EngineFailure.Kind, words: String) throws {
        let timeout = kind == .timedOut ? 0.5 : 60
        let engine = try ProcessEngine(command: hostile(mode), requestTimeout: timeout, maxAnswerBytes: 1 << 20)
        defer { engine.stop() }
        let first = engine.processID
        let failed = failure { () throws(EngineFailure) in try engine.changes(from: trigger, to: [], comparison: .equality) }
        #expect(failed?.kind == kind, "\(String(describing: failed))")
        #expect(failed?.message.contains(words) == true, "\(String(describing: failed))")
        #expect(failed?.message.contains("hostile_engine.py \(mode)") == true)
        #expect(engine.processID == nil)
        #expect(isGone(first))
        let later = try engine.changes(from: harmless, to: [], comparison: .equality)
        #expect(later.result == EngineResult(deletes: [0, 1]))
        #expect(engine.processID != first)
        let second = engine.processID
        engine.stop()
        #expect(isGone(second))
    }

    /// A second line fails the request it came with, or the next one when it comes later (the
    /// message then names the earlier request).
    @Test func aSecondLineIsABadAnswer() throws {
        let engine = try ProcessEngine(command: hostile("two-lines"))
        defer { engine.stop() }
        let first = engine.processID
        var failed = failure { () throws(EngineFailure) in try engine.changes(from: trigger, to: [], comparison: .equality) }
        if failed == nil {
            failed = failure { () throws(EngineFailure) in try engine.changes(from: harmless, to: [], comparison: .equality) }
        }
        // Depending on when the second line arrives: with the first, before request 2 is sent, or
        // as the answer to request 2.
        let messages = [
            "wrote more than one line for request 1", "wrote output after answering request 1, before request 2",
            "answered id 1 to request 2",
        ]
        #expect(messages.contains { failed?.message.contains($0) == true }, "\(String(describing: failed))")
        #expect(failed?.kind == .badAnswer)
        #expect(isGone(first))
        #expect(try engine.changes(from: harmless, to: [], comparison: .equality).result == EngineResult(deletes: [0, 1]))
    }

    /// An error answer fails the request (never a pass) but keeps the process: the protocol is intact.
    @Test func anErrorAnswerFailsTheRequestOnly() throws {
        let engine = try ProcessEngine(command: hostile("error"))
        defer { engine.stop() }
        let first = engine.processID
        let failed = failure { () throws(EngineFailure) in try engine.changes(from: trigger, to: [], comparison: .equality) }
        #expect(failed?.kind == .crashed)
        #expect(failed?.message.contains("cannot diff 666") == true)
        #expect(try engine.changes(from: harmless, to: [], comparison: .equality).result == EngineResult(deletes: [0, 1]))
        #expect(engine.processID == first)
    }

    @Test func aChattyEngineIsNotBlockedByItsStandardError() throws {
        let engine = try ProcessEngine(command: hostile("stderr-chatty"), requestTimeout: 60)
        defer { engine.stop() }
        #expect(try engine.changes(from: trigger, to: [], comparison: .equality).result == EngineResult(deletes: [0, 1]))
    }

    @Test func aBatchFormIsReadWhenAnnounced() throws {
        let engine = try ProcessEngine(command: hostile("batch"))
        defer { engine.stop() }
        #expect(engine.hasBatchForm)
        let changes = try engine.changes(from: harmless, to: [5], comparison: .equality)
        #expect(changes.batch == EngineResult(inserts: [0], deletes: [0, 1]))
    }

    /// An engine that closes its input: writing a large request to it is an error, never a SIGPIPE
    /// that ends DiffLab (the signal is set to its default, as in the `difflab` executable).
    @Test func aClosedInputIsACrashNotASignal() throws {
        Signal.brokenPipe.restoreDefaultAction()
        let engine = try ProcessEngine(command: hostile("close-input"))
        defer { engine.stop() }
        let failed = failure { () throws(EngineFailure) in
            try engine.changes(from: Array(0..<200_000), to: [], comparison: .equality)
        }
        #expect(failed?.kind == .crashed)
        #expect(failed?.message.contains("exited with status 5") == true, "\(String(describing: failed))")
    }

    /// Stopping an engine that ignores SIGTERM and the end of its input still ends and reaps it.
    @Test func stopEndsAnEngineThatIgnoresEverything() throws {
        let engine = try ProcessEngine(command: hostile("ignore-term"))
        _ = try engine.changes(from: harmless, to: [], comparison: .equality)
        let pid = engine.processID
        engine.stop()
        #expect(isGone(pid))
        #expect(engine.processID == nil)
    }

    @Test func aHungStartTimesOut() {
        let failed = failure { () throws(EngineFailure) in try ProcessEngine(command: "sleep 100", startTimeout: 0.3) }
        #expect(failed?.kind == .timedOut)
        #expect(failed?.message.contains("the hello within 0.3 s") == true, "\(String(describing: failed))")
    }
}

/// A temporary folder holding `script` as the executable `engine.sh`.
private func engineScript(_ script: String) throws -> Files {
    let files = Files(["engine.sh": script])
    try FileSystem.setPermissions(files.path("engine.sh"), 0o755)
    return files
}

/// Issue 26's friction: environment assignments, standard error, the engine process's memory.
extension ProcessEngineTests {
    /// `VAR=1 ./engine` ran as `exec VAR=1 ./engine` ("exec: VAR=1: not found", exit 127). The
    /// assignments now reach the engine, and the child is still the engine itself, not a shell.
    @Test func leadingEnvironmentAssignmentsReachTheEngine() throws {
        let files = try engineScript(
            """
            #!/bin/sh
            if [ "$FRICTION_A" != "x y" ] || [ "$FRICTION_B" != "/2" ]; then
              echo "FRICTION_A='$FRICTION_A' FRICTION_B='$FRICTION_B'" >&2
              exit 3
            fi
            exec \(difflibCommand)
            """)
        let command = "FRICTION_A='x y' FRICTION_B=\"$(printf '%s' /)2\" \(files.path("engine.sh"))"
        let engine = try ProcessEngine(command: command)
        defer { engine.stop() }
        #expect(engine.name == "difflib")
        #expect(try engine.changes(from: [1, 2], to: [2], comparison: .equality).result == EngineResult(deletes: [0]))
        let pid = try #require(engine.processID)
        let commandLine = try #require(processCommandLine(pid)).joined(separator: " ")
        #expect(commandLine.contains("difflib_engine.py"), "the child is not the engine: \(commandLine)")
    }

    /// The end of the engine's standard error was quoted as one line, its line breaks as `\u{a}`.
    /// Its lines are now lines of the message, indented; other control characters stay escaped.
    @Test func standardErrorIsQuotedLineByLine() throws {
        let files = try engineScript("#!/bin/sh\nprintf 'Traceback: first line\\n\\tsecond line \\033[31mred\\r\\n' >&2\nexit 4\n")
        let failed = failure { () throws(EngineFailure) in try ProcessEngine(command: files.path("engine.sh")) }
        let message = try #require(failed?.message)
        #expect(failed?.kind == .crashed)
        #expect(message.contains("exited with status 4"), "\(message)")
        #expect(message.hasSuffix("its standard error ends:\n    | Traceback: first line\n    | \tsecond line \\u{1b}[31mred"), "\(message)")
        #expect(!message.contains("\\u{a}") && !message.contains("\u{1b}") && !message.contains("\r"), "\(message)")
        // On the command line: one line of DiffLab's, then the quoted lines.
        let r = run(["--engine-command", files.path("engine.sh"), "diff", "x.json", "y.json"])
        #expect(r.status == 1)
        let lines = r.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4, "\(r.err)")
        #expect(lines.first?.hasPrefix("difflab: the engine '\(files.path("engine.sh"))' did not start: crashed: ") == true, "\(r.err)")
        #expect(lines.dropFirst().first == "    | Traceback: first line", "\(r.err)")
        #expect(lines.dropFirst(2).first == "    | \tsecond line \\u{1b}[31mred", "\(r.err)")
        #expect(lines.last == "")
    }

    /// `bench` reported DiffLab's own peak resident memory as the engine's. It now reports the
    /// engine process's (VmHWM), on self-timed cells only, and leaves out the figures it can take
    /// in its own process only.
    @Test(
        .enabled(
            if: platformReadsAnotherProcessPeakMemory,
            "reads the engine process's peak resident size (Linux's VmHWM), which Darwin does not give"))
    func benchMeasuresTheEngineProcessMemory() throws {
        let engine = try ProcessEngine(command: difflibCommand)
        defer { engine.stop() }
        let harnessTimedEngine = try ProcessEngine(command: difflibCommand, name: "difflib-harness")
        defer { harnessTimedEngine.stop() }
        let atStart = try #require(engine.engineProcessPeakRSSBytes())
        var options = BenchOptions(
            engines: [BenchSubject(changes: engine, selfTimed: true), BenchSubject(changes: harnessTimedEngine)], profiles: [.differencekit],
            sizes: [200], budget: 0.002, maxSamples: 3)
        options.minSamples = 1
        let records = runBench(options, allocator: .system)
        let after = try #require(engine.engineProcessPeakRSSBytes())
        let selfTimed = try #require(records.first { $0.engine == "difflib" })
        let peak = try #require(selfTimed.peakRSSBytes)
        #expect(Double(atStart) <= peak && peak <= Double(after), "engine \(atStart)...\(after), reported \(peak), this process \(peakRSS())")
        #expect(selfTimed.allocatedBytes == nil && selfTimed.minorFaults == nil && selfTimed.peakExtraRSSBytes == nil && selfTimed.cpuSamples.isEmpty)
        // Timed by the harness: the results could not tell whose memory it was, so none is given.
        let harnessTimed = try #require(records.first { $0.engine == "difflib-harness" })
        #expect(
            harnessTimed.peakRSSBytes == nil && harnessTimed.minorFaults == nil && harnessTimed.peakExtraRSSBytes == nil
                && harnessTimed.cpuSamples.isEmpty)
        #expect(!harnessTimed.samples.isEmpty)
    }
}
