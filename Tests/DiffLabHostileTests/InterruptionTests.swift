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

/// The command lines of live (not zombie) processes that mention `text`.
func processes(mentioning text: String) -> [String] {
    var found: [String] = []
    for name in directoryEntries("/proc") ?? [] {
        guard let pid = Int32(name), pid != getpid() else { continue }
        let stat = readText("/proc/\(pid)/stat")
        if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].dropFirst().first == "Z" { continue }
        let commandLine = readText("/proc/\(pid)/cmdline").split(separator: "\0").joined(separator: " ")
        if commandLine.contains(text) { found.append("\(pid): \(commandLine)") }
    }
    return found
}

@Suite("Interruption: workers stopped, temporary files removed, no partial output", .serialized)
struct InterruptionTests {
    @Test(arguments: interruptedRuns, [SIGINT, SIGTERM])
    func signalToTheParentCleansUp(_ arguments: [String], _ signal: Int32) throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let temporary = scratch.file("tmp")
        mkdir(temporary, 0o755)
        let resolved = arguments.map { argument in
            if argument == "@bin" { return Binary.path }
            if argument.hasPrefix("@repo/") { return repositoryRoot + argument.dropFirst("@repo".count) }
            return argument.hasPrefix("@") ? scratch.file(String(argument.dropFirst())) : argument
        }
        let running = try #require(startDifflab(resolved, in: scratch.path, environment: ["TMPDIR=\(temporary)"]))
        // Let it start its workers and temporary files (a pause, not a timing assertion).
        usleep(2_500_000)
        // bench and gate keep their worker files in a temporary folder: it must exist by now, so the
        // check below compares something.
        let madeTemporary = directoryEntries(temporary) ?? []
        if ["bench", "gate"].contains(arguments[0]) { #expect(!madeTemporary.isEmpty, "no temporary folder made under TMPDIR") }
        #expect(kill(running.pid, signal) == 0, "the run ended before the signal")
        let outcome = finish(running, limit: 60)
        #expect(!outcome.hung, "did not stop after the signal: \(outcome)")
        #expect(outcome.signal == signal, "expected to end by signal \(signal): \(outcome)")

        // Workers are stopped: no live process mentions the scratch folder (poll: orphans are
        // reaped by init shortly after they die).
        var left = processes(mentioning: scratch.path)
        var waited = 0
        while !left.isEmpty && waited < 50 {
            usleep(100_000)
            waited += 1
            left = processes(mentioning: scratch.path)
        }
        #expect(left.isEmpty, "processes left running: \(left)")
        for pid in left { if let number = Int32(pid.prefix { $0 != ":" }) { kill(number, SIGKILL) } }
        #expect(directoryEntries(temporary) == [], "temporary files left: \(directoryEntries(temporary) ?? [])")
        for output in ["out.json", "summary.md"] {
            #expect(PathState(scratch.file(output)).exists == false, "partial output \(output) written")
        }
        let strays = (directoryEntries(scratch.path) ?? []).filter { $0.contains(".tmp-") }
        #expect(strays.isEmpty, "temporary output files left: \(strays)")
    }
}
