import DiffLabCLI
import DiffLabPlatform
import Testing

/// Long runs of every command that starts workers or writes output, interrupted by a signal to the
/// parent only (not its process group, as a CI runner's cancel or `kill PID` does).
let interruptedRuns: [[String]] = [
    [
        "bench", "--engines", "hashmap,myers", "--profiles", "differencekit", "--sizes", "20000,40000", "--kinds", "int", "--budget", "2",
        "--allocators", "system,jemalloc", "--out", "@out.json",
    ],
    [
        "gate", "--head-binary", "@bin", "--base-binary", "@bin", "--cells", "hashmap:differencekit:int:20000", "--rounds", "500",
        "--no-instructions", "--thresholds", "@repo/Corpus/gate/thresholds.json", "--out", "@out.json", "--summary", "@summary.md",
    ],
    ["policy", "--sizes", "1000", "--duration", "5", "--out", "@out.json"],
    ["fuzz", "--seconds", "60", "--corpus", "@corpus"],
]

/// The command lines of live (not zombie) processes that mention `text` (DiffLabPlatform lists
/// them: Linux through /proc, Darwin through sysctl).
func processes(mentioning text: String) -> [String] {
    var found: [String] = []
    for pid in allProcessIDs() where pid != currentProcessID() && !processIsZombie(pid) {
        let commandLine = (processCommandLine(pid) ?? []).joined(separator: " ")
        if commandLine.contains(text) { found.append("\(pid): \(commandLine)") }
    }
    return found
}

@Suite("Interruption: workers stopped, temporary files removed, no partial output", .serialized)
struct InterruptionTests {
    @Test(arguments: interruptedRuns, [Signal.interrupt, .terminate])
    func signalToTheParentCleansUp(_ arguments: [String], _ signal: Signal) throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let temporary = scratch.file("tmp")
        try FileSystem.makeDirectory(temporary)
        let resolved = arguments.map { argument in
            if argument == "@bin" { return Binary.path }
            if argument.hasPrefix("@repo/") { return repositoryRoot + argument.dropFirst("@repo".count) }
            return argument.hasPrefix("@") ? scratch.file(String(argument.dropFirst())) : argument
        }
        let running = try #require(startDifflab(resolved, in: scratch.path, environment: ["TMPDIR=\(temporary)"]))
        // Let it start its workers and temporary files (a pause, not a timing assertion).
        sleep(seconds: 2.5)
        // bench and gate keep their worker files in a temporary folder: it must exist by now, so the
        // check below compares something.
        let madeTemporary = FileSystem.directoryEntries(temporary) ?? []
        if ["bench", "gate"].contains(arguments[0]) { #expect(!madeTemporary.isEmpty, "no temporary folder made under TMPDIR") }
        // The listing below sees the run itself (its command line names files in the scratch
        // folder), so an empty listing later means its workers are gone, not that none were seen.
        #expect(!processes(mentioning: scratch.path).isEmpty, "the process listing does not see the run")
        #expect((try? sendSignal(signal, to: running.pid)) != nil, "the run ended before the signal")
        let outcome = finish(running, limit: 60)
        #expect(!outcome.hung, "did not stop after the signal: \(outcome)")
        #expect(outcome.signal == signal.rawValue, "expected to end by signal \(signal): \(outcome)")

        // Workers are stopped: no live process mentions the scratch folder (poll: orphans are
        // reaped by init shortly after they die).
        var left = processes(mentioning: scratch.path)
        var waited = 0
        while !left.isEmpty && waited < 50 {
            sleep(seconds: 0.1)
            waited += 1
            left = processes(mentioning: scratch.path)
        }
        #expect(left.isEmpty, "processes left running: \(left)")
        for pid in left { if let number = Int32(pid.prefix { $0 != ":" }) { try? sendSignal(.kill, to: number) } }
        #expect(FileSystem.directoryEntries(temporary) == [], "temporary files left: \(FileSystem.directoryEntries(temporary) ?? [])")
        for output in ["out.json", "summary.md"] {
            #expect(PathState(scratch.file(output)).exists == false, "partial output \(output) written")
        }
        let strays = try #require(FileSystem.directoryEntries(scratch.path), "the scratch folder cannot be listed").filter { $0.contains(".tmp-") }
        #expect(strays.isEmpty, "temporary output files left: \(strays)")
    }
}
