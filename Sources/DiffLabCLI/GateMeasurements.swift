import DiffLabCore
import DiffLabFormatting
import DiffLabGate
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabReport

/// The gate's measurers: instructions under callgrind (one call per cell and build, both builds
/// at once), then time and allocations in interleaved rounds of both builds' `difflab measure`
/// workers (ABBA order), under jemalloc when it is installed.
struct GateMeasurements {
    typealias Build = GateBuilds.Build

    /// Per build label, per cell: instructions of one call.
    var instructions: [String: [String: Double]] = [:]
    /// Per build label, per cell: each round's samples.
    var timeRounds: [String: [String: [[Double]]]] = [:]
    /// Per build label, per cell, per metric: the values the rounds gave (one when deterministic).
    var allocations: [String: [String: [GateMetric: Set<Double>]]] = [:]

    /// Measures `builds` (already launched) on `plan`'s cells: instructions unless
    /// `--no-instructions` or valgrind is missing, then `rounds` interleaved time rounds when
    /// `timed` (a built baseline), else one round for the allocations. What was and was not
    /// measured is added to `context` and `notes`.
    static func measure(
        _ plan: GatePlan, builds: [Build], timed: Bool, scratch: String, console: Console, context: inout [(String, String)], notes: inout [String]
    ) throws(CommandError) -> GateMeasurements {
        let jemalloc = jemallocLibraryPath()
        var environment = allocatorEnvironment(jemalloc)
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        if jemalloc == nil { notes.append("\(JemallocLibrary.installHint()): allocations not measured") }
        var measured = GateMeasurements()
        let valgrind = plan.noInstructions ? nil : commandOutput("command -v valgrind")
        if plan.noInstructions {
            notes.append("instructions not measured (--no-instructions)")
        } else if valgrind == nil {
            notes.append("valgrind not installed: instructions not measured")
        } else {
            context.append(("instructions", commandOutput("valgrind --version") ?? "valgrind"))
            try measured.countInstructions(plan, builds: builds, environment: environment, scratch: scratch, console: console)
        }
        let rounds = timed ? plan.rounds : 1
        try measured.measureTimeRounds(plan, rounds: rounds, builds: builds, environment: environment, scratch: scratch, console: console)
        if timed { context.append(("time", "\(rounds) interleaved rounds × \(plan.samples) samples per cell and build")) }
        return measured
    }

    /// Instructions: deterministic, so one call per cell and build, both builds at once.
    mutating func countInstructions(
        _ plan: GatePlan, builds: [Build], environment: [String: String?], scratch: String, console: Console
    ) throws(CommandError) {
        console.err("gate: counting instructions of \(plan.cells.count) cells in \(builds.count) builds with callgrind\n")
        for (index, cell) in plan.cells.enumerated() {
            console.progress(index, plan.cells.count, "callgrind \(cell)")
            let counts = try Self.countInstructions(cell, builds: builds, seed: plan.seed, environment: environment, scratch: scratch)
            for (label, count) in counts { instructions[label, default: [:]][cell] = count }
        }
        console.progress(plan.cells.count, plan.cells.count, "callgrind done", last: true)
    }

    /// Time and allocations: interleaved rounds, ABBA order.
    mutating func measureTimeRounds(
        _ plan: GatePlan, rounds: Int, builds: [Build], environment: [String: String?], scratch: String, console: Console
    ) throws(CommandError) {
        // Environment padding of a random length per process moves the stack by a different amount
        // every time, so a lucky or unlucky layout is noise that averages out, not a bias.
        var padding = SplitMix64(seed: 0x9a7e)
        console.err("gate: timing \(plan.cells.count) cells in \(rounds) rounds of \(builds.count) builds, allocations under jemalloc\n")
        for round in 0..<rounds {
            console.progress(round, rounds, "time round \(round + 1)")
            let order = round % 2 == 0 ? builds : builds.reversed()
            for build in order {
                var padded = environment
                padded["DIFFLAB_GATE_PADDING"] = String(repeating: "x", count: Int(padding.next(upTo: 4095)))
                let results = try Self.measureRound(
                    build, cells: plan.cells, samples: plan.samples, seed: plan.seed, environment: padded, scratch: scratch)
                for result in results {
                    timeRounds[build.label, default: [:]][result.cell, default: []].append(result.samples ?? [])
                    for (metric, value) in [(GateMetric.allocatedBytes, result.allocatedBytes), (.allocationRequests, result.allocationRequests)] {
                        guard let value else { continue }
                        allocations[build.label, default: [:]][result.cell, default: [:]][metric, default: []].insert(Double(value))
                    }
                }
            }
        }
        console.progress(rounds, rounds, "time done", last: true)
    }

    /// A `measure` worker's command line (protocol `difflab-measure/1`: the options every build
    /// since the protocol began accepts).
    static func measureArguments(cells: [String], samples: Int?, seed: UInt64, instructions: Bool) -> [String] {
        var line = CommandArguments<MeasureCommand.Options>(MeasureCommand.name)
        if instructions { line.add(\.instructions) }
        line.add(\.cells, cells.joined(separator: ","))
        line.add(\.samples, ifGiven: samples.map(String.init))
        line.add(\.seed, String(seed))
        return line.arguments
    }

    /// A deterministic value of one build: its single value, or nil with a reason when runs disagreed.
    func deterministic(_ label: String, _ cell: String, _ metric: GateMetric) -> (Double?, String?) {
        if metric == .instructions { return (instructions[label]?[cell], nil) }
        guard let values = allocations[label]?[cell]?[metric] else { return (nil, nil) }
        if values.count == 1 { return (values.first, nil) }
        return (nil, "\(metric.rawValue) of the \(label) varied between runs: \(values.sorted().map { formatGrouped($0) }.joined(separator: ", "))")
    }

    /// Runs `build`'s worker once over every cell; its answer is checked by
    /// `MeasureResponse.results(_:cells:samples:worker:)`.
    static func measureRound(
        _ build: Build, cells: [String], samples: Int, seed: UInt64, environment: [String: String?], scratch: String
    ) throws(CommandError) -> [MeasureCellResult] {
        let text = try captureOutput(
            build.launchPath, measureArguments(cells: cells, samples: samples, seed: seed, instructions: false),
            environment: environment, scratch: scratch)
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: Array(text.utf8)) } catch {
            throw CommandError(.failure, "the \(build.label)'s worker printed malformed JSON: \(error)")
        }
        do throws(GateError) {
            return try MeasureResponse.results(json, cells: cells, samples: samples, worker: "the \(build.label)'s worker")
        } catch {
            throw CommandError(.failure, error.description)
        }
    }

    /// Counts the instructions of one call of `cell` in every build, all builds at once (counts do
    /// not depend on load).
    static func countInstructions(
        _ cell: String, builds: [Build], seed: UInt64, environment: [String: String?], scratch: String
    ) throws(CommandError) -> [(String, Double)] {
        var running: [(Build, Int32, String)] = []
        for build in builds {
            let out = scratch + "/\(build.label).callgrind"
            let pid = try asCommandError { () throws(ProcessError) in
                try spawnProcess(
                    "valgrind",
                    [
                        "--tool=callgrind", "--callgrind-out-file=\(out)", "--collect-atstart=no", "--toggle-collect=*difflabMeasuredCall*",
                        build.launchPath,
                    ]
                        + measureArguments(cells: [cell], samples: nil, seed: seed, instructions: true), environment: environment,
                    stdout: "/dev/null", stderr: out + ".log", argumentZero: "valgrind")
            }
            running.append((build, pid, out))
        }
        var counts: [(String, Double)] = []
        for (build, pid, out) in running {
            let status = waitProcess(pid)
            defer {
                try? FileSystem.removeFile(out)
                try? FileSystem.removeFile(out + ".log")
            }
            guard status == 0 else { throw CommandError(.failure, "callgrind on the \(build.label) failed for \(cell) (status \(status))") }
            let text = String(decoding: try readInputFile(out), as: UTF8.self)
            guard let value = callgrindTotal(text) else {
                throw CommandError(.failure, "callgrind wrote no valid totals (an integer from 0 to 2^53) for the \(build.label) on \(cell)")
            }
            counts.append((build.label, value))
        }
        return counts
    }

    /// Runs `binary` and returns what it printed on standard output (captured in `scratch`, the
    /// run's temporary folder).
    /// The longest one worker call may take (a stuck worker is an error, not a wedged gate).
    static let workerSeconds = 3_600.0

    static func captureOutput(_ binary: String, _ arguments: [String], environment: [String: String?], scratch: String) throws(CommandError) -> String
    {
        let out = scratch + "/worker.out"
        defer { try? FileSystem.removeFile(out) }
        // A worker's answer is small JSON: capped like any input, and a worker gets an hour.
        let pid = try asCommandError { () throws(ProcessError) in
            try spawnProcess(binary, arguments, environment: environment, stdout: out, argumentZero: "difflab")
        }
        let status = try asCommandError { () throws(ProcessError) in
            try waitProcess(
                pid, writing: out, maxBytes: InputLimit.bytes, seconds: workerSeconds,
                what: "`\(binary) \(arguments.prefix(2).joined(separator: " "))`")
        }
        guard status == 0 else { throw CommandError(.failure, "`\(binary) \(arguments.prefix(2).joined(separator: " "))` exited \(status)") }
        return String(decoding: try readInputFile(out), as: UTF8.self)
    }
}
