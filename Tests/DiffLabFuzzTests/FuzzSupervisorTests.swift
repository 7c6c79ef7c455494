import DiffLabCore
import DiffLabEngines
import DiffLabPlatform
import DiffLabProcess
import Testing

@testable import DiffLabFuzz

/// The shared-memory slots through which a campaign process tells `difflab fuzz`'s supervisor
/// what it is checking. (The forking itself is exercised by the real binary — Scripts/example-test
/// fuzzes an engine that traps and one that hangs, and the mutation tool's crash kills — and by
/// Examples/CustomEngine's test of `runFuzzerIsolated`.)
@Suite("difflab fuzz: crash isolation slots")
struct FuzzSupervisorTests {
    func someInput(_ size: Int) -> (FuzzCase, [UInt64]) {
        var source = DataSource(seed: 7)
        let input = FuzzCase.generator(maxSize: size).generate(&source)
        return (input, source.choices)
    }

    @Test func aCheckInProgressIsNamedWithItsInputAndFinishedOnesAreCounted() throws {
        let slots = try FuzzSlots(workers: 2)
        slots.reset()
        #expect(slots.activeChecks().isEmpty)
        let (input, choices) = someInput(6)
        slots.input(worker: 1, index: 41, choices: choices, size: 6)
        #expect(slots.activeChecks().isEmpty, "an input alone is no check in progress")
        slots.check(worker: 1, subject: 2, property: 5)
        let active = try #require(slots.activeChecks().first)
        #expect(slots.activeChecks().count == 1)
        #expect(active == FuzzSlots.ActiveCheck(worker: 1, index: 41, subject: 2, property: 5, size: 6, choices: choices))
        // The recorded choices decode to the same input.
        var source = DataSource(replaying: active.choices)
        #expect(FuzzCase.generator(maxSize: active.size).generate(&source) == input)
        slots.finished(worker: 1, input: input, large: true, checks: 28)
        #expect(slots.activeChecks().isEmpty)
        slots.input(worker: 0, index: 42, choices: choices, size: 6)
        slots.check(worker: 0, subject: 0, property: 0)
        slots.finished(worker: 0, input: input, large: false, checks: 3)
        let counts = slots.counts()
        #expect(counts.inputs == 2)
        #expect(counts.checks == 31)
        #expect(counts.large == 1)
        #expect(counts.largest == input.old.count + input.new.count)
        #expect(counts.byKind[input.elements] == 2)
        slots.reset()
        #expect(slots.counts().inputs == 0)
    }

    @Test func theLongestRunningCheckIsTheWorkersAndAResetSlotIsNotRunning() throws {
        let slots = try FuzzSlots(workers: 3)
        slots.reset()
        #expect(slots.longestRunningCheck().seconds == 0)
        let (_, choices) = someInput(3)
        slots.input(worker: 2, index: 0, choices: choices, size: 3)
        slots.check(worker: 2, subject: 0, property: 1)
        let longest = slots.longestRunningCheck()
        #expect(longest.worker == 2)
        #expect(longest.seconds >= 0 && longest.seconds < 3_600)
    }

    @Test func choicesPastTheCapacityAreNotKeptAndTheCheckIsNotOffered() throws {
        let slots = try FuzzSlots(workers: 1)
        slots.reset()
        let many = [UInt64](repeating: 1, count: FuzzSlots.choiceCapacity + 1)
        slots.input(worker: 0, index: 3, choices: many, size: 10)
        slots.check(worker: 0, subject: 0, property: 0)
        #expect(slots.activeChecks().isEmpty)
    }

    @Test func failuresFoundBeforeTheProcessDiedAreReadAndAHalfWrittenRecordIsLeftOut() throws {
        let folder = try Cleanup.shared.makeTemporaryDirectory("difflab-findings-test")
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let path = folder + "/round-1.jsonl"
        #expect(try FuzzSupervisor(options: FuzzOptions()).readFindings(path, secondsOffset: 0).isEmpty, "no file: nothing found")
        let heckel = HeckelEngine()
        let lostFlag = FuzzSubject(
            name: "lost-flag", promises: EnginePromises(reference: .heckel),
            matching: { old, new in
                var matching = heckel.matching(from: old, to: new, comparison: .equality)
                if let last = matching.updated.lastIndex(of: true) { matching.updated[last] = false }
                return matching
            })
        var options = FuzzOptions(inputs: 2_000, seed: 5, subjects: [lostFlag], properties: [.differential], workers: 1)
        options.stopAtFirstFailure = true
        let failure = try #require(runFuzzer(options).failures.first)
        let slots = try FuzzSlots(workers: 1)
        #expect(slots.openFindings(path))
        #expect(!slots.openFindings(path), "one findings file, kept")
        #expect(!(try FuzzSlots(workers: 1)).openFindings(path), "the file is new or nothing")
        slots.found(worker: 0, failure: failure)
        // A record cut short when the process died.
        let line = Array((FuzzSupervisor.record(failure).json.serialized() + "\n").utf8)
        let descriptor = try FileDescriptor.open(path, .writeOnly, options: .append)
        try descriptor.writeAll(Array(line.prefix(line.count / 2)))
        try descriptor.close()
        var unshrunk = failure
        unshrunk.shrinkAttempts = 0
        let latest = FuzzSupervisor.latestRecords([unshrunk, failure])
        #expect(latest.count == 1)
        #expect(latest.first?.shrinkAttempts == failure.shrinkAttempts, "the later record of a failure wins")
        let read = try FuzzSupervisor(options: FuzzOptions()).readFindings(path, secondsOffset: 2.5)
        #expect(read.count == 1)
        #expect(read.first?.key == failure.key)
        #expect(read.first?.input == failure.input)
        #expect(read.first?.secondsToFind == failure.secondsToFind + 2.5)
    }

    /// Spawn mode's slots: a file the supervisor makes (new, 0600) and a worker maps again; what
    /// one mapping writes the other reads. A second file at the path, a mapping of another size
    /// (another worker count) and a link are refused.
    @Test func fileBackedSlotsAreSharedAndAStaleOrForeignFileIsRefused() throws {
        let folder = try Cleanup.shared.makeTemporaryDirectory("difflab-slots-test")
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let path = folder + "/slots"
        let supervisor = try FuzzSlots(workers: 2, file: path)
        supervisor.reset()
        let facts = try FileSystem.facts(path, followingLinks: false)
        #expect(facts.kind == .regular && facts.permissions & 0o777 == 0o600 && facts.size == FuzzSlots.bytes(workers: 2))
        let worker = try FuzzSlots(workers: 2, attaching: path)
        let (input, choices) = someInput(5)
        worker.input(worker: 1, index: 9, choices: choices, size: 5)
        worker.check(worker: 1, subject: 0, property: 3)
        #expect(supervisor.activeChecks() == [FuzzSlots.ActiveCheck(worker: 1, index: 9, subject: 0, property: 3, size: 5, choices: choices)])
        worker.finished(worker: 1, input: input, large: false, checks: 4)
        #expect(supervisor.counts().inputs == 1 && supervisor.counts().checks == 4)
        #expect(throws: FuzzIsolationError.sharedMemory(bytes: FuzzSlots.bytes(workers: 2))) { try FuzzSlots(workers: 2, file: path) }
        #expect(throws: FuzzIsolationError.sharedMemory(bytes: FuzzSlots.bytes(workers: 3))) { try FuzzSlots(workers: 3, attaching: path) }
        try FileSystem.makeSymbolicLink(at: folder + "/link", to: path)
        #expect(throws: FuzzIsolationError.sharedMemory(bytes: FuzzSlots.bytes(workers: 2))) {
            try FuzzSlots(workers: 2, attaching: folder + "/link")
        }
    }

    /// A worker's job is hostile input: each refusal is typed and names its field; a valid job reads.
    @Test func aWorkerRefusesAJobThatIsNotItsSupervisorsWithATypedError() throws {
        let folder = try Cleanup.shared.makeTemporaryDirectory("difflab-job-test")
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let options = FuzzOptions(inputs: 1, subjects: [FuzzSubject(HeckelEngine())], properties: [.rawSound, .metamorphic])
        func job(_ name: String, _ text: String) throws -> String {
            let path = folder + "/" + name
            let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: 0o600)
            defer { descriptor.closeIgnoringErrors() }
            try descriptor.writeAll(Array(text.utf8))
            return path
        }
        let replay = #"{"kind":"replay","backtraces":false,"choices":["1","2"],"size":3,"subject":0,"property":1}"#
        let valid = try FuzzSupervisor.readJob(job("valid.json", replay), options: options)
        #expect(valid.kind == .replay && valid.choices == [1, 2] && valid.size == 3 && valid.property == 1)
        let outside: [(String, String, Int)] = [("subject", #""subject":1"#, 1), ("property", #""property":2"#, 2)]
        for (field, member, value) in outside {
            let text = replay.replacing(field == "subject" ? #""subject":0"# : #""property":1"#, with: member)
            let path = try job(field + ".json", text)
            #expect(throws: FuzzWorkerJobError.outOfRange(field: field, value: value, count: value)) {
                try FuzzSupervisor.readJob(path, options: options)
            }
        }
        let skipping =
            #"{"kind":"campaign","backtraces":false,"slots":"s","findings":"f","firstInput":0,"seconds":null,"skipping":[[0,5]],"known":[]}"#
        let skippingPath = try job("skipping.json", skipping)
        #expect(throws: FuzzWorkerJobError.outOfRange(field: "skipping property", value: 5, count: 2)) {
            try FuzzSupervisor.readJob(skippingPath, options: options)
        }
        let malformed = [
            ("garbage", "not json", "notJSON"), ("kind", #"{"kind":"fork"}"#, "malformed"),
            ("size", replay.replacing(#""size":3"#, with: #""size":-3"#), "malformed"),
        ]
        for (name, text, expected) in malformed {
            let path = try job(name + ".json", text)
            do throws(FuzzWorkerJobError) {
                _ = try FuzzSupervisor.readJob(path, options: options)
                Issue.record("\(name): read")
            } catch {
                switch error {
                case .notJSON: #expect(expected == "notJSON", "\(name): \(error)")
                case .malformed: #expect(expected == "malformed", "\(name): \(error)")
                default: Issue.record("\(name): \(error)")
                }
            }
        }
        try FileSystem.makeSymbolicLink(at: folder + "/link.json", to: folder + "/valid.json")
        for path in [folder + "/link.json", folder + "/absent.json", folder] {
            do throws(FuzzWorkerJobError) {
                _ = try FuzzSupervisor.readJob(path, options: options)
                Issue.record("\(path): read")
            } catch {
                guard case .unreadable = error else {
                    Issue.record("\(path): \(error)")
                    continue
                }
            }
        }
    }
}
