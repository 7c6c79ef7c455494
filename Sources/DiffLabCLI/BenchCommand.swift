import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// `difflab bench`.
enum BenchCommand: DeclaredCommand {
    private typealias Name = BuiltInEngines.Name

    struct Options: DeclaredOptions {
        let quick = Flag("quick", help: BenchCommand.quickHelp)
        let engines = Option.benchEngines(
            help: "engines to time; <engine>-staged times StagedChangeset paired by a pairing engine, on one section",
            defaultText: BenchSubject.builtIns.map(\.name).joined(separator: ","))
        let threads = Option<[Int]>(
            "threads", "LIST",
            help: "also \(Name.hashmap)'s partitioned pairing on each of these thread counts, as \(Name.hashmap)-<t>t (1 is \(Name.hashmap) "
                + "itself; \(Name.hashmapParallel) runs on every core); the speed-up and efficiency over \(Name.hashmap) are printed per cell",
            constraint: "each " + rangeText(BenchCommand.threadsRange)
        ) { text throws(CommandError) in
            try parseList(text, "--threads") { t throws(CommandError) in try parseInteger(t, "--threads", in: BenchCommand.threadsRange) }
        }
        let profiles = Option<[DatasetProfile]>.names("profiles", noun: "profile", help: "dataset profiles", defaultText: "all")
        let sizes = Option.sizes(
            "sizes", in: BenchOptions.sizeRange, most: BenchCommand.maxSizeCount, help: "list sizes",
            defaultText: QuickDefault(full: BenchOptions.full.sizes, quick: BenchOptions.quick.sizes).text)
        let kinds = Option<[ElementKind]>.names(
            "kinds", noun: "element kind",
            help: "element kinds (model and object run on \(proseList(BenchOptions.nonIntProfiles.map(\.rawValue))) only, up to "
                + "\(BenchOptions.largestNonIntSize) items)",
            defaultText: QuickDefault(full: BenchOptions.full.kinds, quick: BenchOptions.quick.kinds).text {
                $0.map(\.rawValue).joined(separator: ",")
            })
        let allocators = Option<[MemoryAllocator]>.names(
            "allocators", noun: "allocator", default: [.jemalloc, .system],
            help: "allocators, side by side: each in its own worker processes, jemalloc inserted by LD_PRELOAD (Linux) or DYLD_INSERT_LIBRARIES "
                + "(macOS)")
        let budget = Option.number(
            "budget", "SECONDS", in: BenchOptions.budgetRange, help: "sampling time per measurement",
            defaultText: QuickDefault(full: BenchOptions.full.budget, quick: BenchOptions.quick.budget).text)
        let maxCall = Option.number(
            "max-call", "SECONDS", in: BenchOptions.maxCallSecondsRange, help: "the per-call time limit (see THE CALL LIMIT)",
            defaultText: QuickDefault(full: BenchOptions.full.maxCallSeconds, quick: BenchOptions.quick.maxCallSeconds).text)
        let seed = Option.seed(default: BenchOptions.full.seed, help: "dataset seed")
        let shard = Option<BenchShard>(
            "shard", "K/N",
            help: "only part K of N: whole series (element kind × profile, every size and engine), balanced by predicted cost; "
                + "`difflab merge` joins the parts",
            constraint: "N from 1 to \(BenchShard.countRange.upperBound), K from 1 to N", parse: parseShard)
        let out = Option.output(
            help: "results file: absent or a regular file, checked before the run (exit 73 otherwise), written atomically after the "
                + "table is printed",
            defaultText: "results/bench-<time>.json")
        let allowSkips = Flag(
            "allow-skips",
            help: "exit 0 even when an engine failed (crashed, answered wrongly or timed out) and its cells were skipped "
                + "(see EXIT STATUS)")
        let trace = Option.text(
            "trace", "FILE",
            help: "time the engines on each consecutive pair of a recorded trace's versions (difflab-trace/1) instead of generated "
                + "profiles: per engine the total, median and p99 per pair and the worst pair (see TRACES)")
        let isolation = Option<BenchIsolation>.choice(
            "isolation", "HOW", default: .process,
            help: "process: every measurement (one subject on one dataset) in a fresh worker process, so no figure depends on the "
                + "cells measured before it (see ISOLATION); shared: each allocator's measurements in one process, in matrix order "
                + "(faster; figures may depend on order)")
        let workerOut = Option.output("worker-out", hidden: true, help: "internal: a worker's results file")
        let cell = Option.text("cell", "CELL", hidden: true, help: "internal: the one cell a fresh worker measures")
        init() {}
    }

    static let name = "bench"
    static let abstract = "time the engines on generated datasets"
    static let discussion = """
        Times the engines on generated datasets and writes one JSON results file. Every run also
        measures, on the same data, the stdlib reference, a hash floor
        (one open-addressing table built over the old ids and probed with the new ones), a
        partitioned floor (both lists hashed, radix-partitioned, and joined partition by
        partition on codes alone) and a trim floor (the common prefix and suffix compared in
        list order and their contents judged, then the floor of the rest), and reports each
        engine as a ratio to all four. One extra
        call per measurement gives its page faults (getrusage) and its peak resident memory
        above the resident size before it (VmHWM after a reset); under jemalloc also the bytes
        and allocation requests of one call (thread.allocatedp; arena nrequests after a tcache
        flush). peakRSSBytes is the peak resident memory of the worker that measured the cell
        (with --isolation shared: of the one process, so far).

        An engine in another process (--engine-command) times itself (self-timed, marked †),
        and its cells hold only what can be measured of that process: peakRSSBytes is the peak
        resident memory of the engine's process over its life so far (VmHWM of the process's
        status, Linux only: the command's own process, since it started or was last restarted);
        DiffLab's own allocations, page faults, resident memory per call and CPU time are left out.
        """
    static var epilogue: String {
        """
        THE MEMORY GUARD
          Before a cell's lists are generated, the memory it needs (its lists as the element kind,
          the repeated mode's extra versions, and 512 bytes per item of engine working memory) is
          estimated; a cell that would not fit in MemAvailable (the kernel's estimate, Linux only)
          is skipped whole, with both figures as the reason.

        THE CALL LIMIT
          No single call runs much past the limit, whatever the sizes. A measurement whose call is
          projected to take longer is skipped and says why in the results. The projection is from
          the same subject at the previous size (time growing as size^2 for myers and stdlib,
          size^1.2 for the others) or, for its first size above \(BenchOptions.probeFloor) items, from
          probes: calls at \(BenchOptions.probeFloor), 10000, ... items, each taken while cheap (a tenth
          of the limit, at most 1 s), timed apart and not reported. A measurement whose first
          call exceeds the limit all the same stops there and is recorded as skipped.

        ISOLATION
          An allocator's state is the history of its process: glibc raises its mmap threshold to
          the largest block freed (up to 32 MiB) and keeps freed memory in its heap; jemalloc keeps
          freed pages by its decay rule. A call measured after large cells can reuse memory that
          the same call, measured alone, faults in again on every call, so in one shared process a
          figure depends on the cells before it. With --isolation process (the default) every
          measurement runs in a fresh worker: this program again, under the allocator's
          environment, generating the dataset and measuring that one subject, so each starts from
          the same state wherever it falls in the matrix. The call limit, its probes and the memory
          guard stay in the parent: a probe runs the engine in this process, so an engine that
          traps there still ends the run, and which cells are skipped is a timing decision made
          here. A worker ended by a fault (SIGILL, SIGSEGV, ...) fails its engine's cell; one
          killed (SIGKILL, SIGTERM, SIGINT, SIGHUP: out of memory, or stopped) fails the run. The
          results file records the isolation (options.isolation). A run inside another program
          (the tests) cannot start itself again and measures shared.

        TRACES
          With --trace FILE the workload is a recorded trace (difflab trace makes one): every
          engine, the floors and stdlib are timed side by side on each consecutive pair of
          versions, in this process and under its allocator (LD_PRELOAD or DYLD_INSERT_LIBRARIES selects jemalloc), each
          pair's median of at least 3 calls over --budget seconds (default 0.02 per pair). It
          prints per engine the total, the median and p99 per pair, the worst pair, and the
          total as a ratio to each floor and stdlib's total; it writes a difflab-bench-trace/1
          file naming the trace and its provenance, which difflab report reads. --engines,
          --kinds (one kind), --budget, --max-call, --out and --allow-skips apply; --profiles,
          --sizes, --shard, --threads, --quick, --allocators and --isolation do not. A recorded pair's edit
          distance is not a prefix's, so before each pair an edit-distance engine (myers, stdlib,
          any engine projected as size^2) is bounded as policy --trace bounds it: its call could
          take (n + m) × (D + 1) steps, D bounded by a linear diff of the pair; over
          \(formatPlain(EditDistanceGuard.defaultMaxCallWork)) steps the engine is skipped from that pair on, with the reason.

        EXIT STATUS
          0 every cell was measured or skipped by the call limit; 1 an engine failed in some
          cell (crashed, answered wrongly or timed out: the cell, and its larger sizes, are
          skipped with the failure as the reason), unless --allow-skips: the table and the
          results file are written all the same, and standard error names each engine that
          failed and its first failure; also 1 when a worker fails. 64 bad command line, 73
          output file cannot be written.

        Progress bars are drawn only when standard error is a terminal; otherwise one line per
        allocator. A Ctrl-C stops the workers and removes their temporary files.
        (--worker-out FILE and --cell CELL are internal: a worker's results file and its one cell.)
        """
    }

    /// Threads of `--threads`: 1 to 64 (``HashMapEngine/threadRange``).
    static let threadsRange = HashMapEngine.threadRange

    /// `--quick`'s help, from ``BenchOptions/quick`` and ``BenchOptions/full``: `a few minutes: sizes 1k and 10k
    /// (differencekit also 100k), budget 0.15 s, call limit 6 s, 3 to 60 samples (default: 5 to 200)`.
    static var quickHelp: String {
        let (quick, full) = (BenchOptions.quick, BenchOptions.full)
        let everywhere = quick.sizes.filter { $0 <= BenchOptions.largeSizeThreshold }
        let large = quick.sizes.filter { $0 > BenchOptions.largeSizeThreshold }
        var sizes = "sizes " + proseList(everywhere.map { formatCount(Double($0)) })
        if let profiles = quick.largeSizeProfiles, !large.isEmpty {
            sizes += " (\(proseList(profiles.map(\.rawValue))) also \(proseList(large.map { formatCount(Double($0)) })))"
        }
        return "a few minutes: \(sizes), budget \(formatPlain(quick.budget)) s, call limit \(formatPlain(quick.maxCallSeconds)) s, "
            + "\(quick.minSamples) to \(quick.maxSamples) samples (default: \(full.minSamples) to \(full.maxSamples))"
    }

    /// The most entries of `--sizes`.
    static let maxSizeCount = 32

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        // The output is checked first: a bad path fails now, not after the run.
        let workerOut = try parsed[\.workerOut].map { path throws(CommandError) in
            try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "--worker-out") }
        }
        let out =
            workerOut != nil
            ? nil
            : try asCantCreate { () throws(OutputFileError) in try OutputFile(parsed[\.out] ?? "results/bench-\(timestamp()).json", option: "--out")
            }
        if let trace = parsed[\.trace] {
            return try runTrace(trace, parsed, console: console)
        }
        var options = parsed[\.quick] ? BenchOptions.quick : BenchOptions.full
        if let engines = parsed[\.engines] { options.engines = engines }
        // The names --threads adds: a worker makes them the same way.
        var threadEngines: [String: Int] = [:]
        if let counts = parsed[\.threads] {
            // hashmap on t threads, as hashmap-<t>t (1 thread is hashmap itself).
            for t in Set(counts).sorted() where t > 1 {
                let engine = HashMapEngine(partitioning: .measured, threads: t)
                if !options.engines.contains(where: { $0.name == engine.name }) {
                    options.engines.append(BenchSubject(engine, growthExponent: 1.2))
                    threadEngines[engine.name] = t
                }
            }
        }
        if let profiles = parsed[\.profiles] { options.profiles = profiles }
        if let sizes = parsed[\.sizes] { options.sizes = sizes }
        if let kinds = parsed[\.kinds] { options.kinds = kinds }
        if let budget = parsed[\.budget] { options.budget = budget }
        if let maxCall = parsed[\.maxCall] { options.maxCallSeconds = maxCall }
        options.seed = parsed.required(\.seed)
        if let shard = parsed[\.shard] { options.shard = shard }
        do throws(ConfigurationError) { try options.validate() } catch { throw .usage("bench: \(error)") }
        let current = MemoryAllocator.current

        // A worker: measure under this process's allocator (one cell, or every cell) and hand
        // the records back; stop if the parent dies.
        if let workerOut {
            Cleanup.exitWhenOrphaned()
            let records: [BenchMeasurement]
            if let text = parsed[\.cell] {
                let cell: BenchCell
                do throws(BenchCellError) { cell = try BenchCell(parsing: text, engines: options.engines) } catch {
                    throw .usage("bench: --cell: \(error)")
                }
                guard let record = measureCell(cell, options, allocator: current) else { throw .usage("bench: --cell: \(text) is not measured") }
                records = [record]
            } else {
                records = runBench(options, allocator: current) { done, total, label in console.progress(done, total, label, last: done == total) }
            }
            try asCantCreate { () throws(OutputFileError) in
                try workerOut.write(BenchWorkerOutput(measurements: records).json.serialized() + "\n")
            }
            return .success
        }
        guard let out else { return .success }
        if parsed.isGiven(\.cell) { throw .usage("bench: --cell is internal: it needs --worker-out") }

        var allocators = parsed.required(\.allocators)
        let jemallocPath = jemallocLibraryPath()
        if allocators.contains(.jemalloc) && jemallocPath == nil && current != .jemalloc {
            console.err("\(programName): \(JemallocLibrary.installHint()); measuring the system allocator only\n")
            allocators.removeAll { $0 == .jemalloc }
            if allocators.isEmpty { allocators = [.system] }
        }

        // A fresh worker per measurement needs this program's executable: an in-process caller
        // (the tests) has the test runner's, so it measures in one process, and the file says so.
        var isolation = parsed.required(\.isolation)
        if isolation == .process && !Cleanup.isSignalHandlingInstalled {
            console.err("bench: measuring in this process (isolation shared): it cannot start itself again as a worker\n")
            isolation = .shared
        }
        // Workers write into a private folder, removed on every path and on interruption.
        let inProcess = isolation == .shared && allocators == [current]
        let folder = inProcess ? nil : try asCommandError { () throws(ProcessError) in try Cleanup.shared.makeTemporaryDirectory("difflab-bench") }
        defer { if let folder { Cleanup.shared.removeTemporaryDirectory(folder) } }

        let started = monotonicNow()
        var results = BenchResults()
        var queue = allocators
        var next = 0
        while next < queue.count {
            let allocator = queue[next]
            next += 1
            console.err("bench: \(allocator) allocator\n")
            // This process's own allocator is inherited as it is (a jemalloc the user preloaded
            // stays); the other is inserted or removed.
            let environment = allocator == current ? [:] : allocatorEnvironment(allocator == .jemalloc ? jemallocPath : nil)
            var records: [BenchMeasurement]
            var ranOn: MemoryAllocator?
            if isolation == .process, let folder {
                let worker = CellWorker(
                    options: options, quick: parsed[\.quick], threadEngines: threadEngines, allocator: allocator, environment: environment,
                    file: "\(folder)/\(allocator)-cell.json")
                do throws(CellWorker.Failure) {
                    records = try runBench(options, allocator: allocator, measuringEachIn: worker.measure) { done, total, label in
                        console.progress(done, total, label, last: done == total)
                    }
                } catch {
                    switch error {
                    case .command(let error): throw error
                    case .ranOn(let other):
                        // Stopped at the first worker that ran on another allocator.
                        records = []
                        ranOn = other
                    }
                }
            } else if let folder {
                let file = "\(folder)/\(allocator).json"
                var line = CommandArguments<Options>(name)
                line.append(parsed.arguments)
                line.add(\.workerOut, file)
                let status = try runSelf(line.arguments, environment: environment)
                guard status == 0 else { throw CommandError(.failure, "the \(allocator) worker failed (status \(status))") }
                let document = try readJSON(file)
                do throws(ResultsError) { records = try BenchWorkerOutput(json: document, source: file).measurements } catch {
                    throw CommandError(.failure, "the \(allocator) worker's results are not valid: \(error)")
                }
                ranOn = records.first { $0.allocator != allocator }?.allocator
            } else {
                records = runBench(options, allocator: current) { done, total, label in
                    console.progress(done, total, label, last: done == total)
                }
            }
            // A worker records the allocator it really ran on (mallctl found or not): a library
            // the system would not insert (Darwin's System Integrity Protection removes
            // DYLD_INSERT_LIBRARIES for a protected binary) gives system-allocator records, which
            // are not jemalloc's and, when the system allocator is measured too, a duplicate.
            if allocator == .jemalloc, ranOn != nil {
                console.err(
                    "\(programName): the jemalloc workers did not run on jemalloc (\(JemallocLibrary.insertionVariable())=\(jemallocPath ?? "") "
                        + "was not applied); measuring the system allocator only\n")
                if !queue.contains(.system) && !results.allocators.contains(where: { $0.name == .system }) {
                    if records.isEmpty {
                        queue.append(.system)
                    } else {
                        // One shared worker's records: every one of them ran on the system allocator.
                        results.measurements += records.map { record in
                            var record = record
                            record.allocator = .system
                            return record
                        }
                        results.allocators.append(BenchAllocator(name: .system, library: nil))
                    }
                }
                continue
            }
            let skipped = records.filter { $0.skipped != nil }.count
            console.err("bench: \(allocator) allocator: \(records.count - skipped) measured, \(skipped) skipped\n")
            results.measurements += records
            results.allocators.append(BenchAllocator(name: allocator, library: allocator == .jemalloc ? jemallocPath : nil))
        }
        results.measurements = addRatios(results.measurements)
        let rows = results.measurements
        let primary = results.allocators.first?.name ?? current
        let targets = benchTargets(rows, allocator: primary)

        results.provenance = RunProvenance.current()
        results.provenance.seconds = monotonicNow() - started
        results.options = BenchRunOptions(
            quick: parsed[\.quick], engines: options.engines.map(\.name), profiles: options.profiles.map(\.rawValue),
            sizes: options.sizes, kinds: options.kinds.map(\.rawValue), budgetSeconds: options.budget, maxCallSeconds: options.maxCallSeconds,
            seed: String(options.seed), moves: BenchOptions.reportedMoves, probeFloor: BenchOptions.probeFloor)
        results.options.isolation = isolation
        if let shard = options.shard {
            results.options.shardParts = [shard.index]
            results.options.shardCount = shard.count
        }
        results.scaling = scalingFits(rows)
        results.targets = targets
        // The table first: it survives a failed write.
        console.out(benchTable(rows) + "\n\n")
        let parallel = parallelTable(rows, cores: availableCores())
        if !parallel.isEmpty { console.out(parallel + "\n\n") }
        let phases = phaseTable(rows)
        if !phases.isEmpty { console.out(phases + "\n\n") }
        let repeated = repeatedTable(rows)
        if !repeated.isEmpty { console.out(repeated + "\n\n") }
        if !targets.isEmpty {
            console.out("Targets (\(primary)):\n")
            for t in targets {
                let verdict = t.met.map { $0 ? "met" : "MISSED" } ?? "n/a"
                console.out("  \(t.name): \(t.value.map(round2) ?? "–") (goal \(t.goal)) \(verdict)\(t.note.isEmpty ? "" : " — \(t.note)")\n")
            }
        }
        try asCantCreate { () throws(OutputFileError) in try out.write(results.json.serialized() + "\n") }
        console.out("results: \(out.path)\n")
        if !parsed[\.allowSkips], let failed = engineFailures(results.measurements) { throw CommandError(.failure, failed) }
        return .success
    }

    /// Measures one cell in a fresh worker process: this program again, under one allocator's
    /// environment, with `--cell`, `--worker-out` and only what that cell's measurement needs:
    /// its engine (with that engine's own `--engine-command` when it runs in another process, and
    /// the input limit), the budget, the call limit, the seed, and `--quick` for its sample
    /// counts. The worker's command line depends on the cell alone, never on the rest of the
    /// run: the arguments it parses are allocations too, and a different history before the
    /// measurement would lay its heap out differently.
    struct CellWorker {
        /// Why the run stops: the worker's own failure, or a worker that ran on another allocator
        /// than the one asked for (jemalloc not inserted).
        enum Failure: Error {
            case command(CommandError)
            case ranOn(MemoryAllocator)
        }

        /// The run's options.
        var options: BenchOptions
        /// Whether the run is `--quick` (its sample counts).
        var quick: Bool
        /// The `hashmap-<t>t` engines `--threads` added, by name, with their threads.
        var threadEngines: [String: Int]
        /// The allocator the worker must run under, and the environment changes that select it.
        var allocator: MemoryAllocator
        var environment: [String: String?]
        /// Where the worker writes its one record (removed before each worker).
        var file: String

        /// The worker's global options and arguments for `cell`.
        func commandLine(_ cell: BenchCell) -> (globals: [String], arguments: [String]) {
            var line = CommandArguments<Options>(BenchCommand.name)
            if quick { line.add(\.quick) }
            if let threads = threadEngines[cell.subject] {
                line.add(\.engines, BuiltInEngines.Name.hashmap)
                line.add(\.threads, String(threads))
            } else if options.engines.contains(where: { $0.name == cell.subject }) {
                line.add(\.engines, cell.subject)
            }
            line.add(\.budget, "\(options.budget)")
            line.add(\.maxCall, "\(options.maxCallSeconds)")
            line.add(\.seed, String(options.seed))
            line.add(\.cell, cell.description)
            line.add(\.workerOut, file)
            return (DiffLabCommand.workerGlobals(for: cell.subject), line.arguments)
        }

        /// The cell's record: what the worker measured, or, when the worker died of a fault (an
        /// engine that traps ends its process), the cell skipped as a failure of its engine.
        ///
        /// - Throws: ``Failure/command(_:)`` when the worker cannot be started, is killed from
        ///   outside (SIGKILL, SIGTERM, SIGINT, SIGHUP: out of memory, or stopped), exits with a
        ///   failure, or exits 0 without a valid record of this cell; ``Failure/ranOn(_:)`` when
        ///   it ran on another allocator.
        func measure(_ cell: BenchCell) throws(Failure) -> BenchMeasurement {
            // A file left by the last worker is never read as this one's.
            try? FileSystem.removeFile(file)
            let (globals, arguments) = commandLine(cell)
            let status: Int32
            do throws(CommandError) { status = try runSelf(arguments, globals: globals, environment: environment) } catch {
                throw .command(error)
            }
            if status > 128 {
                let signal = signalName(status - 128)
                guard !["SIGKILL", "SIGTERM", "SIGINT", "SIGHUP"].contains(signal) else {
                    throw .command(CommandError(.failure, "the worker of \(cell) was killed by \(signal) (out of memory, or stopped)"))
                }
                guard let subject = options.subjects.first(where: { $0.name == cell.subject }) else {
                    throw .command(CommandError(.failure, "the worker of \(cell) was ended by \(signal)"))
                }
                var record = BenchMeasurement(subject, cell, allocator: allocator)
                record.skipped = BenchMeasurement.engineFailedPrefix + "its worker process was ended by \(signal)"
                return record
            }
            guard status == 0 else { throw .command(CommandError(.failure, "the worker of \(cell) exited with status \(status)")) }
            let records: [BenchMeasurement]
            do throws(CommandError) {
                let document = try readJSON(file)
                do throws(ResultsError) { records = try BenchWorkerOutput(json: document, source: file).measurements } catch {
                    throw CommandError(.failure, "the worker of \(cell) wrote no valid results: \(error)")
                }
            } catch {
                throw .command(error)
            }
            guard records.count == 1, let record = records.first else {
                throw .command(CommandError(.failure, "the worker of \(cell) wrote \(records.count) records, not one"))
            }
            guard record.engine == cell.subject, record.size == cell.size, record.profile == cell.profile.rawValue, record.kind == cell.kind.rawValue
            else {
                throw .command(CommandError(.failure, "the worker of \(cell) wrote the record of another cell"))
            }
            guard record.allocator == allocator else { throw .ranOn(record.allocator) }
            return record
        }
    }

    /// `difflab bench --trace FILE`: every subject on each consecutive pair of the trace.
    static func runTrace(_ path: String, _ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let refused: [(String, Bool)] = [
            ("--profiles", parsed.isGiven(\.profiles)), ("--sizes", parsed.isGiven(\.sizes)), ("--shard", parsed.isGiven(\.shard)),
            ("--threads", parsed.isGiven(\.threads)), ("--quick", parsed[\.quick]), ("--allocators", parsed.isGiven(\.allocators)),
            ("--worker-out", parsed.isGiven(\.workerOut)), ("--cell", parsed.isGiven(\.cell)), ("--isolation", parsed.isGiven(\.isolation)),
        ]
        if let (option, _) = refused.first(where: \.1) {
            throw .usage("bench: \(option) does not apply to --trace (see TRACES in 'difflab help bench')")
        }
        let out = try asCantCreate { () throws(OutputFileError) in
            try OutputFile(parsed[\.out] ?? "results/bench-trace-\(timestamp()).json", option: "--out")
        }
        var options = TraceBenchOptions()
        if let engines = parsed[\.engines] { options.engines = engines }
        if let kinds = parsed[\.kinds] {
            guard kinds.count == 1 else { throw .usage("bench: --trace runs one element kind; give --kinds one of int, model, object") }
            options.kind = kinds[0]
        }
        if let budget = parsed[\.budget] { options.budget = budget }
        if let maxCall = parsed[\.maxCall] { options.maxCallSeconds = maxCall }
        let trace = try readTrace(path)
        guard trace.versions.count >= 2 else { throw .data("\(path): \(trace.versions.count) version; a bench needs at least two (one pair)") }
        let allocator = MemoryAllocator.current
        console.err("bench: \(path): \(trace.versions.count - 1) pairs, \(allocator) allocator\n")
        let started = monotonicNow()
        var results = runTraceBench(trace, file: path, options, allocator: allocator) { done, total in
            console.progress(done, total, "pair \(done)", last: done == total)
        }
        results.provenance = RunProvenance.current()
        results.provenance.seconds = monotonicNow() - started
        console.out(traceBenchTable(results) + "\n")
        try asCantCreate { () throws(OutputFileError) in try out.write(results.json.serialized() + "\n") }
        console.out("results: \(out.path)\n")
        let failed = results.subjects.filter { $0.skipped?.hasPrefix(BenchMeasurement.engineFailedPrefix) == true }
        if !parsed[\.allowSkips], let first = failed.first {
            throw CommandError(
                .failure,
                "bench: \(failed.map { "'\($0.engine)'" }.joined(separator: ", ")) failed on the trace (--allow-skips lets such a run pass); "
                    + "the first: \(first.skipped?.dropFirst(BenchMeasurement.engineFailedPrefix.count) ?? "")")
        }
        return .success
    }

    /// The message of a run in which an engine failed, or `nil` when none did: each engine whose
    /// cells were skipped because it failed (``BenchMeasurement/engineFailed``; not those the
    /// call limit skipped), with its count of such cells, then the first failure's cell and
    /// reason (last, so that the engine's standard error quoted in it ends the message).
    static func engineFailures(_ measurements: [BenchMeasurement]) -> String? {
        let failed = measurements.filter(\.engineFailed)
        guard let first = failed.first else { return nil }
        let engines = deduplicated(failed.map(\.engine)).map { engine in
            let cells = failed.count { $0.engine == engine }
            return "'\(engine)' (\(cells) \(cells == 1 ? "cell" : "cells") skipped)"
        }
        let reason = (first.skipped ?? "").dropFirst(BenchMeasurement.engineFailedPrefix.count)
        return "bench: \(engines.count == 1 ? "engine" : "engines") \(engines.joined(separator: ", ")) failed (--allow-skips lets such a run pass); "
            + "the first failure, \(first.profile) · \(first.kind) · \(first.size) items · \(first.allocator): \(reason)"
    }
}

/// `from 0.001 to 600`: a range of numbers, for help texts.
func describeNumbers(_ range: ClosedRange<Double>) -> String { "from \(formatPlain(range.lowerBound)) to \(formatPlain(range.upperBound))" }

/// Parses a comma-separated list of at most `most` list sizes, each in `range`; returns them
/// ascending, each once.
///
/// - Throws: a usage error (64) naming `option`, for a size out of range or too many sizes.
func parseSizes(_ text: String, _ option: String, in range: ClosedRange<Int>, most: Int) throws(CommandError) -> [Int] {
    let sizes = try parseList(text, option) { name throws(CommandError) in try parseInteger(name, option, in: range) }
    guard sizes.count <= most else { throw .usage("\(option) expects at most \(most) sizes (got \(sizes.count))") }
    return Set(sizes).sorted()
}

/// Parses `--shard K/N`.
///
/// - Throws: a usage error (64) naming `--shard` unless the text is two decimal integers with
///   N from 1 to 64 and K from 1 to N.
func parseShard(_ text: String) throws(CommandError) -> BenchShard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let expected = "--shard expects K/N with N from 1 to \(BenchShard.countRange.upperBound) and K from 1 to N (got '\(text)')"
    guard parts.count == 2, !parts[0].hasPrefix("+"), !parts[1].hasPrefix("+"), let k = Int(parts[0]), let n = Int(parts[1]) else {
        throw .usage(expected)
    }
    do throws(ConfigurationError) { return try BenchShard(k, of: n) } catch { throw .usage(expected) }
}

/// `YYYYMMDD-HHMMSS` in UTC, for file names.
package func timestamp() -> String { utcFileStamp(secondsSince1970()) }
