import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Testing

/// The package's root folder (two levels above this file's folder).
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The parsed JSON file at `path` under the package root.
func committedJSON(_ path: String) throws -> JSONValue {
    let text = try #require(readText(packageRoot + "/" + path), "cannot read \(path)")
    return try JSONValue.parse(text)
}

/// The text of the file at `path`, or `nil`.
func readText(_ path: String) -> String? {
    // The repository's own files: far below the limit.
    FileSystem.contents(path, limit: 1 << 30).map { String(decoding: $0, as: UTF8.self) }
}

// MARK: - Round trips: encode → decode → equal

func fullMeasurement(timing: BenchTiming = .harness) -> BenchMeasurement {
    var m = BenchMeasurement(engine: "hashmap", profile: "differencekit", size: 10_000, kind: "int", allocator: .jemalloc)
    m.timing = timing
    m.median = 0.0012
    m.min = 0.001
    m.p90 = 0.0015
    m.p99 = 0.002
    m.mad = 0.0001
    m.cpuMedian = 0.0011
    m.callsPerSample = 1
    m.allocatedBytes = 848_016
    m.allocationRequests = 38
    m.peakRSSBytes = 40_000_000
    m.ratioToTrimFloor = 3.5
    m.phases = [
        BenchPhases(threads: 1, calls: 5, seconds: [1e-4, 2e-3, 3e-3, 4e-4, 0, 5e-4, 6e-5]),
        BenchPhases(threads: 2, calls: 5, seconds: [1e-4, 1e-3, 2e-3, 3e-4, 0, 3e-4, 6e-5]),
        BenchPhases(threads: 2, moves: .minimal, calls: 5, seconds: [1e-4, 1e-3, 2e-3, 3e-4, 0, 9e-4, 6e-5]),
    ]
    m.repeated = [
        BenchRepeated(
            threads: 1, versions: 3, calls: 9, oneOffSeconds: 0.05, reusedSeconds: 0.03, oneOffFaults: 7_816, reusedFaults: 0,
            oneOffAllocations: 40, reusedAllocations: 2, retainedBytes: 52_000_000),
        BenchRepeated(
            threads: 2, versions: 3, calls: 9, oneOffSeconds: 0.04, reusedSeconds: 0.02, oneOffFaults: 10, reusedFaults: 1,
            oneOffAllocations: nil, reusedAllocations: nil, retainedBytes: 0),
    ]
    m.samples = [0.0012, 0.0011, 0.0013]
    m.cpuSamples = [0.0011, 0.0011, 0.0012]
    m.speedupOverStdlib = 120.5
    m.ratioToFloor = 1.6
    m.ratioToPartitionedFloor = 2.1
    m.minorFaults = 4_100
    m.majorFaults = 0
    m.peakExtraRSSBytes = 16_777_216
    m.changeCount = 12
    m.offsetsMoves = 3
    m.minimalMoves = 2
    m.batchMoves = 2
    return m
}

/// A provenance with every member set.
func fullProvenance(seconds: Double = 12.5, dirty: Bool = false) -> RunProvenance {
    RunProvenance(
        createdAt: 1_795_979_336, seconds: seconds, machine: [DisplayField(name: "cpu", value: "Xeon"), DisplayField(name: "cores", value: "2")],
        toolchain: "Swift 6.3.1", commit: "abc", dirty: dirty)
}

func fullBenchResults() -> BenchResults {
    var results = BenchResults(source: "b.json")
    results.provenance = fullProvenance()
    results.options = BenchRunOptions(
        quick: true, engines: ["hashmap"], profiles: ["differencekit"], sizes: [1_000, 10_000], kinds: ["int"], budgetSeconds: 0.15,
        maxCallSeconds: 6, seed: "42", moves: .offsets, probeFloor: 1_000)
    results.allocators = [BenchAllocator(name: .jemalloc, library: "/lib/libjemalloc.so.2"), BenchAllocator(name: .system)]
    var skipped = BenchMeasurement(engine: "stdlib", profile: "differencekit", size: 1_000_000, kind: "int", allocator: .system)
    skipped.skipped = "projected 400 s per call"
    var noJemalloc = fullMeasurement(timing: .selfTimed)
    noJemalloc.allocator = .system
    noJemalloc.allocatedBytes = nil
    noJemalloc.allocationRequests = nil
    results.measurements = [fullMeasurement(), skipped, noJemalloc]
    results.scaling = [
        BenchScaling(
            engine: "hashmap", profile: "differencekit", kind: "int", allocator: .jemalloc, sizes: [1_000, 10_000], timeExponent: 1.05,
            bytesExponent: nil)
    ]
    results.targets = [
        BenchTarget(name: "hashmap / hash floor", goal: "≤ 2", value: 1.6, met: true, note: ""),
        BenchTarget(name: "unmeasured", goal: "≥ 1", value: nil, met: nil, note: "n/a"),
    ]
    return results
}

func fullPolicyResults() -> PolicyResults {
    var results = PolicyResults(source: "p.json")
    results.provenance.createdAt = 1_795_977_384
    results.provenance.machine = [DisplayField(name: "cpu", value: "Xeon")]
    results.provenance.toolchain = "Swift"
    results.crossover = PolicyCrossover(batch: 10_000, reloadFallback: nil)
    var run = PolicyRun(policy: .main, engine: "hashmap", listSize: 1_000, allowsReloadingOnTooManyUpdates: true)
    run.updateInterval = 0.05
    run.frameRate = 60
    run.frameWork = 0.004
    run.duration = 3
    run.maxItemCountToRunOnMain = 10_000
    run.coalescing = PolicySetting.defaultCoalescing  // 50 + 25 … 250 ms
    run.applyBaseCost = 0.001
    run.batchCostPerChange = 2e-6
    run.reloadCostPerItem = 5e-8
    run.editsPerUpdate = 20
    run.frames = 181
    run.framesOverBudget = 2
    run.hitchTimeRatio = 1.5
    run.latencyMedian = 0.0064
    run.latencyP99 = 0.0067
    run.latencies = [0.0064, 0.0067]
    run.requested = 60
    run.applied = 60
    run.coalesced = 0
    run.reloads = 1
    run.dropped = 0
    run.cpuUtilisation = 0.29
    run.wallSeconds = 3.004
    var idle = PolicyRun(policy: .background, listSize: 1_000, allowsReloadingOnTooManyUpdates: false)
    idle.frameRate = 120
    results.runs = [run, idle]
    return results
}

@Suite struct RoundTripTests {
    /// Serialised and parsed again, as a file would be.
    func reparsed(_ json: JSONValue) throws -> JSONValue { try JSONValue.parse(json.serialized()) }

    /// A spawned fuzzing worker's job, both kinds, with choices past 2^53 (kept as strings) and
    /// no time limit (`null`).
    @Test func fuzzWorkerJobs() throws {
        var campaign = FuzzWorkerJobRecord(kind: .campaign)
        (campaign.backtraces, campaign.slots, campaign.findings, campaign.firstInput) = (true, "/tmp/d/slots", "/tmp/d/r-1.jsonl", 41)
        (campaign.skipping, campaign.known) = ([[0, 3], [2, 1]], ["raw-sound/x/crashed-SIGILL"])
        #expect(try FuzzWorkerJobRecord(json: reparsed(campaign.json), source: "j") == campaign)
        campaign.seconds = 12.5
        #expect(try FuzzWorkerJobRecord(json: reparsed(campaign.json), source: "j") == campaign)
        var replay = FuzzWorkerJobRecord(kind: .replay)
        (replay.choices, replay.size, replay.subject, replay.property) = ([0, 1 << 60, .max], 16, 2, 6)
        #expect(try FuzzWorkerJobRecord(json: reparsed(replay.json), source: "j") == replay)
        // A replay job has no campaign members, and the reverse.
        #expect(replay.json["slots"] == nil && campaign.json["choices"] == nil)
    }

    @Test func benchResults() throws {
        let results = fullBenchResults()
        #expect(try BenchResults(json: reparsed(results.json), source: "b.json") == results)
        #expect(try BenchResults(json: reparsed(BenchResults(source: "e").json), source: "e") == BenchResults(source: "e"))
    }

    /// One provenance record for every file: written first, in one order, with `seconds` and
    /// `dirty` only where the schema has them (a policy file drops them; a mutation file's
    /// `seconds` is its fuzzing time, not the run's).
    @Test func provenanceIsOneRecordWrittenInOneOrder() throws {
        let bench = fullBenchResults()
        #expect(bench.json.objectValue?.keys.prefix(7) == ["schema", "createdAt", "seconds", "machine", "toolchain", "commit", "dirty"])
        var policy = fullPolicyResults()
        policy.provenance.seconds = 9
        policy.provenance.dirty = true
        let document = try reparsed(policy.json)
        #expect(document.objectValue?.keys.prefix(5) == ["schema", "createdAt", "machine", "toolchain", "commit"])
        #expect(document["seconds"] == nil && document["dirty"] == nil)
        let read = try PolicyResults(json: document, source: "p.json")
        #expect(read.provenance.seconds == nil && read.provenance.dirty == nil)
        #expect(read.provenance.machine == policy.provenance.machine && read.provenance.createdAt == policy.provenance.createdAt)
        var mutation = MutationFile(seconds: 30, seed: 1, catalogue: "c")
        mutation.provenance = bench.provenance
        let mutationRead = try MutationFile(json: reparsed(mutation.json), source: "m.json")
        #expect(mutationRead.seconds == 30 && mutationRead.provenance.seconds == nil && mutationRead.provenance.commit == "abc")
        // The run's seconds keep their range where they are provenance.
        var object = try #require(bench.json.objectValue)
        object["seconds"] = 1e300
        #expect(throws: ResultsError.self) { try BenchResults(json: .object(object), source: "b.json") }
    }

    @Test(arguments: BenchTiming.allCases) func benchMeasurement(timing: BenchTiming) throws {
        let m = fullMeasurement(timing: timing)
        #expect(try BenchMeasurement(json: reparsed(m.json), source: "m") == m)
        // Harness-timed is the default: the field is written only when self-timed.
        #expect((m.json["timing"] == nil) == (timing == .harness))
        if timing == .selfTimed { #expect(m.json["timing"] == "self") }
    }

    @Test func benchWorkerOutput() throws {
        let output = BenchWorkerOutput(measurements: fullBenchResults().measurements)
        #expect(try BenchWorkerOutput(json: reparsed(output.json), source: "w") == output)
    }

    @Test func policyResults() throws {
        let results = fullPolicyResults()
        #expect(try PolicyResults(json: reparsed(results.json), source: "p.json") == results)
        // Only the settings every run agrees on are shared.
        #expect(results.settings.map(\.name) == [])
        var same = results
        same.runs[1] = same.runs[0]
        #expect(same.settings.first == DisplayField(name: "updateInterval", value: "0.05"))
        #expect(same.settings.contains(DisplayField(name: "coalescing", value: "[0.05,0.025,0.25]")))
    }

    @Test func measureResponse() throws {
        let response = MeasureResponse(results: [
            MeasureCellResult(cell: "a:p:int:1", samples: [1e-6, 2e-6], callsPerSample: 100, allocatedBytes: 64, allocationRequests: 2),
            MeasureCellResult(cell: "b:p:int:1", samples: [0, 3e-6], callsPerSample: 1),
            MeasureCellResult(cell: "c:p:int:1"),
        ])
        #expect(try MeasureResponse(json: reparsed(response.json), source: "w") == response)
        // Measured without jemalloc: the allocation figures are written as null, as protocol 1 always did.
        #expect(response.json["results"]?.arrayValue?[1]["allocatedBytes"] == .null)
    }

    @Test func storedBaseline() throws {
        let file = StoredBaseline(
            source: "b", createdAt: 1, candidate: "HEAD", machine: [DisplayField(name: "cpu", value: "Xeon")], toolchain: "Swift",
            cells: [BaselineCell(name: "a:p:int:1", instructions: 10, allocatedBytes: nil, allocationRequests: 3)])
        #expect(try StoredBaseline(json: reparsed(file.json), source: "b") == file)
        #expect(file.value("a:p:int:1", .allocationRequests) == 3 && file.value("a:p:int:1", .allocatedBytes) == nil)
        #expect(file.json["cells"]?["a:p:int:1"]?["allocatedBytes"] == .null)
    }

    @Test func gateReport() throws {
        var time = GateComparison(cell: "a:p:int:1", metric: .time, base: 0.001, head: 0.002, verdict: .regression)
        time.interval = 1.9...2.1
        time.p = 0.001
        time.pAdjusted = 0.002
        time.rounds = 16
        let report = GateReportFile(
            source: "g", verdict: .regression, error: nil, exitCode: 2, context: [DisplayField(name: "baseline", value: "HEAD~1")],
            notes: ["note"],
            thresholds: GateThresholds(
                alpha: 0.05, improvementExitCode: 4, metrics: [.time: MetricThreshold(regression: 0.05, improvement: 0.05, absolute: 1e-6)]),
            comparisons: [
                time,
                GateComparison(cell: "a:p:int:1", metric: .instructions, base: nil, head: 5, verdict: .notGated, note: "why"),
            ])
        #expect(try GateReportFile(json: reparsed(report.json), source: "g") == report)
        // The time statistics are written for time comparisons only; `note` only when there is one.
        let rows = try #require(report.json["comparisons"]?.arrayValue)
        #expect(rows[0]["rounds"] == 16 && rows[0]["note"] == nil && rows[0]["ratio"] == 2)
        #expect(rows[1]["rounds"] == nil && rows[1]["ratio"] == .null && rows[1]["note"] == "why")
    }
}

// MARK: - Committed files

@Suite struct CommittedFileTests {
    @Test func benchResultsDecodeAndReencodeToTheSameDocument() throws {
        let document = try committedJSON("results/bench-full.json")
        let results = try BenchResults(json: document, source: "results/bench-full.json")
        #expect(results.measurements.count == 976)
        #expect(results.measurements.allSatisfy { $0.timing == .harness })
        #expect(results.scaling.count == 208 && results.targets.count == 33)
        // Issue 30's: 10M, and hashmap's phases and repeated mode in its 96 cells from 10,000 items.
        #expect(results.options.sizes?.last == 10_000_000)
        #expect(results.measurements.filter { !$0.phases.isEmpty }.count == 96)
        #expect(results.measurements.filter { !$0.repeated.isEmpty }.count == 96)
        #expect(results.options.engines == ["heckel", "hashmap", "hashmap-parallel", "myers", "stdlib"])
        // The figures of issue 13: every measured cell has its page faults and both floor ratios.
        #expect(results.measurements.filter(\.isMeasured).allSatisfy { $0.minorFaults != nil && $0.ratioToFloor != nil })
        #expect(results.measurements.contains { $0.engine == "partitioned-floor" && $0.isMeasured })
        // The writer gives back what the file holds: the format did not change.
        #expect(results.json == document)
        #expect(try ResultsFile(document, source: "b") == .bench(results.renamed("b")))
    }

    /// The full scenario grid of issue 14: every run with 5 repeats, a crossover per frame rate,
    /// move strategy and fallback, a recommendation per size band and frame rate.
    @Test func policyGridResultsDecodeAndReencodeToTheSameDocument() throws {
        let document = try committedJSON("results/policy-full.json")
        let results = try PolicyGridResults(json: document, source: "p")
        #expect(results.runs.count == 112 * 64)
        #expect(results.runs.allSatisfy { $0.repeats == 5 })
        #expect(results.crossovers.count == 2 * 2 * 4 && results.recommendations.count == 7 * 2)
        #expect(results.costs?.source == "defaults" && results.options?.latencyBound == 0.25)
        #expect(results.profiles.count == 14 * 2 * 6)
        #expect(results.json == document)
        #expect(try ResultsFile(document, source: "p") == .policyGrid(results))
    }

    /// The real-thread check: every run carries the simulation's prediction beside it.
    @Test func policyRealTimeResultsDecodeAndReencodeToTheSameDocument() throws {
        let document = try committedJSON("results/policy-real-time-check.json")
        let results = try PolicyResults(json: document, source: "p")
        #expect(results.runs.count == 3 * 4 * 2)
        #expect(results.runs.allSatisfy { $0.simulatedHitchTimeRatio != nil && $0.simulatedLatencyP99 != nil && $0.moves == .offsets })
        #expect(results.json == document)
        #expect(results.settings.map(\.name).contains("coalescing"))
    }

    /// The committed arena runs: the first (before `batchMoves` existed) and the re-run that counts
    /// the moves each contestant hands to UIKit.
    @Test(arguments: [("results/arena-20261203-224118.json", false), ("results/arena-20261204-031317.json", true)])
    func arenaResultsDecodeAndReencodeToTheSameDocument(path: String, countsBatchMoves: Bool) throws {
        let document = try committedJSON(path)
        let results = try ArenaResults(json: document, source: path)
        #expect(results.contestants.count == 12)
        #expect(results.contestants.filter { $0.role == .library }.count == 7)
        #expect(results.json == document)
        let bench = try #require(results.bench)
        let engines = Set(results.contestants.map(\.engine))
        let measured = bench.measurements.filter { $0.isMeasured && engines.contains($0.engine) }
        #expect(!measured.isEmpty)
        #expect(measured.allSatisfy { ($0.batchMoves != nil) == countsBatchMoves })
    }

    @Test func storedGateBaselineDecodesAndReencodes() throws {
        let document = try committedJSON("results/baselines/gate-quick.json")
        let baseline = try StoredBaseline(json: document, source: "gate-quick.json")
        #expect(baseline.cells.count == 12)
        #expect(
            baseline.cells.first
                == BaselineCell(
                    name: "heckel:differencekit:int:10000", instructions: 16_145_948, allocatedBytes: 2_794_624, allocationRequests: 10_065))
        #expect(baseline.json == document)
    }

    /// The decode-fuzz seeds of results files (a selector byte, then the file) are results files.
    @Test(arguments: ["results-bench.bin", "results-policy.bin", "results-policy-grid.bin"]) func decodeFuzzSeedsDecode(name: String) throws {
        let text = try #require(readText(packageRoot + "/Corpus/decode-fuzz-seeds/" + name))
        let document = try JSONValue.parse(String(text.dropFirst()))
        _ = try ResultsFile(document, source: name)
    }
}

extension BenchResults {
    func renamed(_ source: String) -> BenchResults {
        var copy = self
        copy.source = source
        return copy
    }
}

// MARK: - Hostile decodes

/// The description of the ``ResultsError`` `body` throws; `nil` when it succeeds.
func failure<T>(_ body: () throws(ResultsError) -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.description
    }
}

@Suite struct HostileDecodeTests {
    func benchError(_ text: String) -> String? {
        do {
            _ = try BenchResults(json: try JSONValue.parse(text), source: "h.json")
            return nil
        } catch let error as ResultsError {
            return error.description
        } catch {
            return "parse error"
        }
    }

    static let identity = #""engine":"e","profile":"p","size":5,"kind":"k","allocator":"system""#

    @Test(arguments: [
        (#"[]"#, "h.json: expected a JSON object with a \"schema\" field, not an array"),
        (
            #"{"schema":"difflab-policy/1"}"#,
            "h.json: unknown schema \"difflab-policy/1\"; expected one of difflab-bench/1, difflab-policy/1, difflab-policy/2, difflab-arena/1, difflab-bench-trace/1, difflab-updaters/1"
        ),
        (#"{"schema":"difflab-bench/1","measurements":{}}"#, "h.json: measurements should be an array, not an object"),
        (#"{"schema":"difflab-bench/1","measurements":[{"engine":"e"}]}"#, "h.json: missing field measurements[0].profile"),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"median":"1"}]}"#,
            "h.json: measurements[0].median should be a number, not a string"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"median":-1}]}"#,
            "h.json: measurements[0].median is -1.0, outside its allowed range 0 to 86,400 (seconds)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":1e30,"kind":"k","allocator":"system"}]}"#,
            "h.json: measurements[0].size is 1e+30, outside its allowed range 0 to 1,000,000,000 (items)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"timing":"wall"}]}"#,
            "h.json: measurements[0].timing should be \"harness\" or \"self\", not \"wall\""
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"phases":[{"threads":1,"moves":"fewest","calls":1,"trim":0,"partition":0,"join":0,"verify":0,"assemble":0,"derive":0,"batch":0}]}]}"#,
            "h.json: measurements[0].phases[0].moves should be \"offsets\" or \"minimal\", not \"fewest\""
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"cpuSamples":[0.1,null]}]}"#,
            "h.json: measurements[0].cpuSamples[1] should be a number, not null"
        ),
        (#"{"schema":"difflab-bench/1","options":{"sizes":[1,2.5]}}"#, "h.json: options.sizes[1] should be an integer, not a number"),
        (
            #"{"schema":"difflab-bench/1","scaling":[{"engine":"e","profile":"p","kind":"k","allocator":"system","timeExponent":1000}]}"#,
            "h.json: scaling[0].timeExponent is 1000.0, outside its allowed range -100 to 100"
        ),
        (#"{"schema":"difflab-bench/1","targets":[{"goal":"x"}]}"#, "h.json: missing field targets[0].name"),
        (
            #"{"schema":"difflab-bench/1","createdAt":-5}"#,
            "h.json: createdAt is -5, outside its allowed range 0 to 253,402,300,799 (1970 to 9999, Unix seconds)"
        ),
        (#"{"schema":"difflab-bench/1","allocators":[{"name":7}]}"#, "h.json: allocators[0].name should be a string, not a number"),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"minorFaults":-1}]}"#,
            "h.json: measurements[0].minorFaults is -1, outside its allowed range 0 to 9,007,199,254,740,992 (2^53)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"majorFaults":2.5}]}"#,
            "h.json: measurements[0].majorFaults should be an integer, not a number"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"peakExtraRSSBytes":1.5}]}"#,
            "h.json: measurements[0].peakExtraRSSBytes is 1.5, outside its allowed range 0 to 9,007,199,254,740,992 (2^53), a whole number"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"ratioToPartitionedFloor":1e10}]}"#,
            "h.json: measurements[0].ratioToPartitionedFloor is 10000000000.0, outside its allowed range 0 to 1,000,000,000"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"ratioToTrimFloor":-1}]}"#,
            "h.json: measurements[0].ratioToTrimFloor is -1.0, outside its allowed range 0 to 1,000,000,000"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"phases":{}}]}"#,
            "h.json: measurements[0].phases should be an array, not an object"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"phases":[{"threads":0,"calls":5}]}]}"#,
            "h.json: measurements[0].phases[0].threads is 0, outside its allowed range 1 to 64 (threads)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"phases":[{"threads":1,"calls":5,"trim":0}]}]}"#,
            "h.json: missing field measurements[0].phases[0].partition"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"phases":[{"threads":1,"calls":5,"trim":0,"partition":1e9}]}]}"#,
            "h.json: measurements[0].phases[0].partition is 1000000000.0, outside its allowed range 0 to 86,400 (seconds)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"repeated":[{"threads":65}]}]}"#,
            "h.json: measurements[0].repeated[0].threads is 65, outside its allowed range 1 to 64 (threads)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"repeated":[{"threads":1,"versions":0}]}]}"#,
            "h.json: measurements[0].repeated[0].versions is 0, outside its allowed range 1 to 1,000,000,000"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"repeated":[{"threads":1,"versions":2,"calls":3,"oneOffSeconds":1,"reusedSeconds":-1}]}]}"#,
            "h.json: measurements[0].repeated[0].reusedSeconds is -1.0, outside its allowed range 0 to 86,400 (seconds)"
        ),
        (
            #"{"schema":"difflab-bench/1","measurements":[{\#(identity),"repeated":[{"threads":1,"versions":2,"calls":3,"oneOffSeconds":1,"reusedSeconds":1,"oneOffFaults":1,"reusedFaults":1,"reusedAllocations":1.5,"retainedBytes":0}]}]}"#,
            "h.json: measurements[0].repeated[0].reusedAllocations should be an integer, not a number"
        ),
    ])
    func benchFields(text: String, message: String) {
        #expect(benchError(text) == message)
    }

    @Test func unknownKeysAreIgnored() throws {
        let text = #"{"schema":"difflab-bench/1","future":1,"measurements":[{\#(Self.identity),"median":0.5,"newFigure":[1,2]}]}"#
        let results = try BenchResults(json: JSONValue.parse(text), source: "h")
        #expect(results.measurements.first?.median == 0.5)
    }

    /// A huge array costs time linear in its length and fails at its first bad element.
    @Test func hugeSampleArrayWithOneBadElement() {
        let samples = Array(repeating: "0.001", count: 200_000).joined(separator: ",")
        #expect(
            benchError(#"{"schema":"difflab-bench/1","measurements":[{\#(Self.identity),"samples":[\#(samples),1e9]}]}"#)
                == "h.json: measurements[0].samples[200000] is 1000000000.0, outside its allowed range 0 to 86,400 (seconds)")
    }

    @Test(arguments: [
        (#"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1}]}"#, "p.json: missing field runs[0].allowsReloadingOnTooManyUpdates"),
        (
            #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1,"allowsReloadingOnTooManyUpdates":false,"frameRate":1e6}]}"#,
            "p.json: runs[0].frameRate is 1000000.0, outside its allowed range 0 to 1,000 (Hz)"
        ),
        (
            #"{"schema":"difflab-policy/1","crossoverSize":{"batch":-1}}"#,
            "p.json: crossoverSize.batch is -1, outside its allowed range 0 to 1,000,000,000 (items)"
        ),
        (
            #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1,"allowsReloadingOnTooManyUpdates":false,"coalescing":"fast"}]}"#,
            "p.json: runs[0].coalescing should be an array, not a string"
        ),
        (
            #"{"schema":"difflab-policy/1","runs":[{"policy":"main","listSize":1,"allowsReloadingOnTooManyUpdates":false,"backgroundEngine":7}]}"#,
            "p.json: runs[0].backgroundEngine should be a string, not a number"
        ),
    ])
    func policyFields(text: String, message: String) throws {
        let document = try JSONValue.parse(text)
        #expect(failure { () throws(ResultsError) in try PolicyResults(json: document, source: "p.json") } == message)
    }

    @Test(arguments: [
        (#"{"protocol":"other","results":[]}"#, nil as Int?, "w: protocol should be \"difflab-measure/1\", not \"other\""),
        (#"{"protocol":"difflab-measure/1","results":[]}"#, nil, "w: results should be an array of 1 results, one per requested cell"),
        (
            #"{"protocol":"difflab-measure/1","results":[{"cell":"a:p:int:1","samples":[1]}]}"#, 2,
            "w: results[0].samples should be an array of 2 numbers"
        ),
        (
            #"{"protocol":"difflab-measure/1","results":[{"cell":"a:p:int:1","samples":[1,-1]}]}"#, 2,
            "w: results[0].samples[1] should be a number of seconds from 0 to 86,400, not -1"
        ),
        (
            #"{"protocol":"difflab-measure/1","results":[{"cell":"a:p:int:1","samples":[1],"allocatedBytes":1.5}]}"#, nil,
            "w: results[0].allocatedBytes should be null or an integer from 0 to 2^53, not 1.5"
        ),
        (
            #"{"protocol":"difflab-measure/1","results":[{"cell":"a:p:int:1","callsPerSample":0}]}"#, nil,
            "w: results[0].callsPerSample should be null or an integer from 1 to 1,000,000,000, not 0"
        ),
        (#"{"protocol":"difflab-measure/1","results":[{"cell":"b:p:int:1"}]}"#, nil, "w: results[0].cell should be \"a:p:int:1\""),
    ])
    func measureAnswers(text: String, samples: Int?, message: String) throws {
        let request = MeasureRequest(cells: ["a:p:int:1"], samples: samples)
        let document = try JSONValue.parse(text)
        #expect(failure { () throws(ResultsError) in try MeasureResponse(json: document, source: "w", request: request) } == message)
    }

    @Test(arguments: [
        (#"{"schema":"difflab-gate-baseline/1","cells":{}}"#, "b: cells should be a non-empty object: a baseline with no cells gates nothing"),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"a:p:int:1":{"instructions":1,"time":2}}}"#,
            "b: cells[\"a:p:int:1\"].time should be absent: a cell holds only instructions, allocatedBytes, allocationRequests"
        ),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"a:p:int:1":{"instructions":9007199254740993}}}"#,
            "b: cells[\"a:p:int:1\"].instructions should be null or an integer from 0 to 2^53, not 9007199254740993"
        ),
        (
            #"{"schema":"difflab-gate-baseline/1","cells":{"a:p:int:1":{"instructions":null}}}"#,
            "b: cells[\"a:p:int:1\"] should be an object with at least one of instructions, allocatedBytes, allocationRequests measured: this cell's are all null"
        ),
    ])
    func storedBaselines(text: String, message: String) throws {
        let document = try JSONValue.parse(text)
        #expect(failure { () throws(ResultsError) in try StoredBaseline(json: document, source: "b") } == message)
    }

    @Test func gateReportRangeChecks() throws {
        let text = #"{"schema":"difflab-gate/1","verdict":"pass","exitCode":300,"thresholds":{"alpha":0.05,"improvementExitCode":4}}"#
        #expect(throws: ResultsError.outOfRange(source: "g", path: "exitCode", value: "300", allowed: "0 to 255")) {
            try GateReportFile(json: JSONValue.parse(text), source: "g")
        }
        // Metrics and verdicts are typed: a name the gate does not know is refused, naming the field.
        let unknown =
            #"{"schema":"difflab-gate/1","verdict":"pass","exitCode":0,"thresholds":{"alpha":0.05,"improvementExitCode":4},"#
            + #""comparisons":[{"cell":"a:p:int:1","metric":"speed","verdict":"pass"}]}"#
        let document = try JSONValue.parse(unknown)
        #expect(
            failure { () throws(ResultsError) in try GateReportFile(json: document, source: "g") }
                == #"g: comparisons[0].metric should be "time", "instructions", "allocatedBytes" or "allocationRequests", not "speed""#)
    }
}

/// A bench file whose allocation counts are fractions (the bit patterns the bench once wrote, issue 11)
/// is refused, naming the field.
@Test func fractionalAllocationCountsAreRefused() throws {
    var m = fullMeasurement()
    // The subnormal that 10,240's bit pattern reads as (written from bits: a literal would warn).
    m.allocatedBytes = Double(bitPattern: 10_240)
    #expect {
        _ = try BenchMeasurement(json: m.json, source: "bench.json")
    } throws: { error in
        "\(error)".contains("allocatedBytes") && "\(error)".contains("whole number")
    }
}

/// The shard fields of a bench file (`bench --shard`, `merge --force`) are checked like every
/// other field: parts within 1…shardCount, distinct, and never without a count.
@Test(arguments: [
    (#"{"shardParts":[3],"shardCount":2}"#, "options.shardParts"),
    (#"{"shardParts":[1,1],"shardCount":2}"#, "options.shardParts"),
    (#"{"shardParts":[1]}"#, "options.shardParts"),
    (#"{"shardParts":[0],"shardCount":2}"#, "options.shardParts[0]"),
    (#"{"shardCount":0}"#, "options.shardCount"),
    (#"{"shardCount":65}"#, "options.shardCount"),
    (#"{"shardParts":"1","shardCount":2}"#, "options.shardParts"),
    (#"{"isolation":"fork"}"#, "options.isolation"),
    (#"{"isolation":1}"#, "options.isolation"),
])
func hostileShardFieldsNameTheField(options: String, field: String) throws {
    let document = try JSONValue.parse(#"{"schema":"difflab-bench/1","options":"# + options + #","measurements":[]}"#)
    let message = failure { () throws(ResultsError) in try BenchResults(json: document, source: "b.json") }
    #expect(message?.contains("b.json") == true && message?.contains(field) == true, "\(String(describing: message))")
}

/// A well-formed sharded file reads back to itself.
@Test func shardFieldsRoundTrip() throws {
    let document = try JSONValue.parse(#"{"schema":"difflab-bench/1","options":{"shardParts":[1,3],"shardCount":3},"measurements":[]}"#)
    let results = try BenchResults(json: document, source: "b.json")
    #expect(results.options.shardParts == [1, 3] && results.options.shardCount == 3)
    #expect(try BenchResults(json: results.json, source: "b.json") == results)
}
