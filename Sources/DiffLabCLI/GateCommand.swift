import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabGate
import DiffLabJSON
import DiffLabReport

#if canImport(Glibc)
import Glibc
#endif

/// `difflab gate`: the regression gate. Builds the baseline revision in a git worktree (or takes
/// a stored baseline), then measures it and the candidate side by side through their
/// `difflab measure` workers, and decides with ``DiffLabGate``.
enum GateCommand {
    static var help: String {
        """
        USAGE: difflab gate [--quick] [--base REV | --baseline FILE] [options]

        Compares this build (the candidate) with a baseline and exits 0 pass, 2 regression,
        4 improvement only (0 with --improvements-pass or "improvementExitCode": 0), 1 error.
        The gate fails closed: a run that compared nothing (no cell had a metric measured on both
        sides, or some cell had none), a stored baseline that lacks a measured cell or is
        malformed (wrong types, negative or fractional counts, unknown fields or schema), a bad
        thresholds file, or a worker answering out of protocol is an error (exit 1), never PASS.

        Baseline: the git revision REV built in release mode in a worktree under .build/gate/
        (default: HEAD when tracked files have uncommitted changes, else HEAD~1, "the previous
        commit"), or a stored baseline FILE written by --save-baseline on the same machine. The
        baseline build must have `difflab measure` (protocol \(MeasureCommand.protocolName)).

        Per cell (subject:profile:kind:size), both builds are measured:
          instructions        one call under valgrind's callgrind (when valgrind is installed)
          allocated bytes,    one call under jemalloc (LD_PRELOAD)
          allocation requests
          time                samples from interleaved rounds (ABBA order) of both builds' workers
        Deterministic metrics are gated tightly. Time is gated only against a built baseline: one
        paired ratio per round, an exact Wilcoxon signed-rank test per cell, Holm's correction over
        all cells, and a noise floor; a stored baseline gates the deterministic metrics only.
        Thresholds come from a checked-in file (alpha above 0 and at most 0.5; relative
        thresholds 0 to 10; absolute ones 0 to 2^53; unknown fields are refused).

        Temporary files (the launch links, captured worker output, callgrind output) live in one
        private folder, <TMPDIR or /tmp>/difflab-gate-XXXXXX, removed when the gate ends or is
        interrupted (SIGINT, SIGTERM, SIGHUP).

        OPTIONS
          --quick               the engines × 3 profiles at 10k items
          --engines LIST        the engines of the default matrix: \(EngineRegistry.current.names)
                                (default: the engines this program registers beyond the
                                built-ins, or heckel, hashmap and myers when there are none)
          --product NAME        the executable product to build at the baseline revision
                                (default difflab; a package's own runner for its engines)
          --base REV            the baseline revision (see above)
          --baseline FILE       a stored baseline instead of a build (deterministic metrics only)
          --save-baseline FILE  also store the candidate's deterministic metrics as a baseline
          --cells LIST          exact cells instead of the default matrix
          --rounds N            interleaved time rounds, 3 to 1,000 (default 16 quick, 20 full)
          --samples N           samples per cell per round, 1 to 10,000 (default 8)
          --thresholds FILE     default Corpus/gate/thresholds.json when it exists, else
                        built-in defaults equal to DiffLab's checked-in file
          --head-binary PATH    the candidate's difflab (default: this executable)
          --head-patch FILE     the candidate is HEAD with this patch applied, built in a worktree
          --base-binary PATH    a baseline difflab already built (skips building REV)
          --no-instructions     skip valgrind
          --improvements-pass   exit 0 when the only findings are improvements
          --out FILE            JSON report (default .build/gate/gate.json)
          --summary FILE        markdown summary (default .build/gate/summary.md); it is also
                                printed, and appended to $GITHUB_STEP_SUMMARY when that is set
          --seed S              dataset seed, 0 to 2^64-1 (default 42)
          -h, --help            show this help

        A package of its own (see README, "Test your own engine") gates its engines the same
        way from its own git repository: the baseline revision is checked out in a worktree and
        the package in the current folder (at the same place in the repository) is built there
        with --product.
        """
    }

    /// The default quick matrix: `engines` × 3 profiles at 10k int items.
    static func quickCells(_ engines: [String]) -> [String] {
        var cells: [String] = []
        for profile in ["differencekit", "small-edit", "reorder-heavy"] {
            for engine in engines { cells.append("\(engine):\(profile):int:10000") }
        }
        return cells
    }

    /// The default full matrix: `engines` × 7 profiles at 1k and 10k int items, plus 100k int and
    /// 10k model and object items on `differencekit`.
    static func fullCells(_ engines: [String]) -> [String] {
        var cells: [String] = []
        let profiles = ["differencekit", "small-edit", "feed-refresh", "chat-append", "reorder-heavy", "all-updated", "random"]
        for engine in engines {
            for profile in profiles {
                for size in [1_000, 10_000] { cells.append("\(engine):\(profile):int:\(size)") }
            }
            cells.append("\(engine):differencekit:int:100000")
            cells.append("\(engine):differencekit:model:10000")
            cells.append("\(engine):differencekit:object:10000")
        }
        return cells
    }

    /// The engines of the default matrices: those registered beyond the built-ins, or the three
    /// core built-ins when there are none.
    static var defaultEngines: [String] {
        let builtIns = Set(EngineRegistry.builtInEngines.map(\.name))
        let own = EngineRegistry.current.engines.map(\.name).filter { !builtIns.contains($0) }
        return own.isEmpty ? ["heckel", "hashmap", "myers"] : own
    }

    /// The allowed range of `--rounds`: the signed-rank test needs at least 3 rounds to say
    /// anything, and its exact null distribution costs O(rounds³) time, so 1,000 is the top.
    static let roundsRange = 3...1000
    /// The allowed range of `--samples`: samples per cell, build and round.
    static let samplesRange = 1...10_000

    /// The default thresholds file, relative to the working directory.
    static let defaultThresholdsPath = "Corpus/gate/thresholds.json"

    /// The thresholds of a run and how the summary names their source: the file given with
    /// `--thresholds` (which must exist and be valid); else `Corpus/gate/thresholds.json` when it
    /// exists (DiffLab's own checkout); else ``GateThresholds/defaults``, as in a user's package
    /// that has no thresholds file. A default file that exists but cannot be read is an error,
    /// never a silent fallback.
    static func thresholds(file: String?, defaultPath: String = defaultThresholdsPath) throws(CommandError) -> (GateThresholds, String) {
        let path: String
        if let file {
            path = file
        } else {
            if !pathExists(defaultPath) {
                return (.defaults, "built-in defaults (no `\(defaultPath)`; see `difflab gate --help`)")
            }
            path = defaultPath
        }
        let json = try readJSON(path)
        do throws(GateError) { return (try GateThresholds(json: json), "`\(path)`") } catch {
            throw CommandError(.failure, "\(path): \(error)")
        }
    }

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        do {
            return try gate(arguments, console: console)
        } catch {
            // The gate's contract: 1 for every error, so CI can tell errors from regressions (2).
            throw CommandError(.failure, error.message)
        }
    }

    static func gate(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        let parsed = try OptionSpec(
            valued: [
                "base", "baseline", "save-baseline", "cells", "rounds", "samples", "thresholds", "head-binary", "head-patch",
                "base-binary", "out", "summary", "seed", "engines", "product",
            ],
            flags: ["quick", "no-instructions", "improvements-pass"]
        ).parse(arguments)
        if parsed.flag("help") {
            console.out(help + "\n")
            return .success
        }
        guard parsed.positionals.isEmpty else { throw .usage("gate takes no files") }
        let exclusive = ["base", "baseline", "base-binary"].filter { parsed.value($0) != nil }
        guard exclusive.count <= 1 else { throw .usage("give only one of --base, --baseline and --base-binary") }
        guard parsed.value("head-binary") == nil || parsed.value("head-patch") == nil else {
            throw .usage("give only one of --head-binary and --head-patch")
        }

        // Output paths are checked before minutes of work.
        let outFile = try OutputFile(parsed.value("out") ?? ".build/gate/gate.json", option: "--out")
        let summaryFile = try OutputFile(parsed.value("summary") ?? ".build/gate/summary.md", option: "--summary")
        // GitHub Actions' step summary: appended to, and checked now like every output path.
        let stepSummary = try getenv("GITHUB_STEP_SUMMARY").map { String(cString: $0) }.flatMap { path throws(CommandError) in
            path.isEmpty ? nil : try OutputFile(path, option: "$GITHUB_STEP_SUMMARY")
        }
        let baselineFile = try parsed.value("save-baseline").map { path throws(CommandError) in try OutputFile(path, option: "--save-baseline") }

        let (thresholds, thresholdsSource) = try Self.thresholds(file: parsed.value("thresholds"))
        let quick = parsed.flag("quick")
        guard parsed.value("cells") == nil || parsed.value("engines") == nil else { throw .usage("give only one of --cells and --engines") }
        let engines =
            try parsed.value("engines").map { text throws(CommandError) in
                try deduplicated(parseList(text, "--engines") { name throws(CommandError) in try parseEngine(name).name })
            } ?? defaultEngines
        let product = parsed.value("product") ?? "difflab"
        do throws(CommandError) { try EngineRegistry.checkName(product) } catch {
            throw .usage("--product must name an executable product: 1 to 64 lower-case letters, digits, '-', '_' or '.' (got '\(product)')")
        }
        let cellNames =
            try parsed.value("cells").map { text throws(CommandError) in
                try parseList(text, "--cells") { name throws(CommandError) in
                    do throws(BenchCellError) {
                        return try BenchCell(parsing: name, engines: EngineRegistry.current.benchSubjects).description
                    } catch { throw .usage(error.description) }
                }
            } ?? (quick ? quickCells(engines) : fullCells(engines))
        var seen: Set<String> = []
        if let repeated = cellNames.first(where: { !seen.insert($0).inserted }) { throw .usage("--cells lists \(repeated) more than once") }
        let rounds = try parsed.value("rounds").map { text throws(CommandError) in try parseInteger(text, "--rounds", in: roundsRange) } ?? (quick ? 16 : 20)
        let samples = try parsed.value("samples").map { text throws(CommandError) in try parseInteger(text, "--samples", in: samplesRange) } ?? 8
        let seed = try parsed.value("seed").map { text throws(CommandError) in try parseSeed(text) } ?? 42
        let started = monotonicNow()
        let dirty = commandOutput("git status --porcelain --untracked-files=no 2>/dev/null | head -1") != nil
        var context: [(String, String)] = []
        var notes: [String] = []

        // The candidate.
        let head: Build
        if let path = parsed.value("head-binary") {
            head = Build(label: "candidate", binary: path, description: "`\(path)`")
        } else if let patch = parsed.value("head-patch") {
            head = try buildPatched(patch, product: product, console: console)
        } else {
            let commit = commandOutput("git rev-parse --short=12 HEAD") ?? "unknown"
            head = Build(
                label: "candidate", binary: currentExecutablePath(),
                description: dirty ? "working tree (HEAD \(commit) with uncommitted changes)" : "HEAD \(commit)")
        }

        // The baseline: a build, or a stored file.
        var base: Build?
        var stored: StoredBaseline?
        if let path = parsed.value("baseline") {
            let document = try readJSON(path)
            let baseline: StoredBaseline
            do throws(GateError) {
                baseline = try StoredBaseline(json: document, source: path)
                try baseline.requireCells(cellNames)
            } catch {
                throw CommandError(.failure, error.description)
            }
            stored = baseline
            context.append(("baseline", "stored baseline `\(path)` (\(baseline.candidate ?? "unknown build") on \(baseline.cpu ?? "?"))"))
            notes.append("time is not gated against a stored baseline: it is gated only from A/B rounds of two builds in one job")
        } else if let path = parsed.value("base-binary") {
            base = Build(label: "baseline", binary: path, description: "`\(path)`")
        } else if parsed.value("save-baseline") == nil || parsed.value("base") != nil {
            let revision = parsed.value("base") ?? (dirty || parsed.value("head-patch") != nil ? "HEAD" : "HEAD~1")
            base = try buildRevision(revision, product: product, console: console)
        }
        if let base { context.append(("baseline", base.description)) }
        context.append(("candidate", head.description))

        // Every temporary file of the run lives in one private folder, removed at the end and, by
        // the Cleanup registry, on SIGINT/SIGTERM/SIGHUP.
        let scratch = try Cleanup.shared.makeTemporaryDirectory("difflab-gate")
        defer { Cleanup.shared.removeTemporaryDirectory(scratch) }
        // Both builds are started through equal-length symlinks with the same argv[0], so the
        // path of the binary cannot shift one build's stack layout against the other's.
        var builds = [base, head].compactMap { $0 }
        for index in builds.indices {
            let link = scratch + "/b\(index)"
            let target = builds[index].binary.hasPrefix("/") ? builds[index].binary : currentDirectory() + "/" + builds[index].binary
            guard symlink(target, link) == 0 else { throw CommandError(.failure, "cannot link \(link): \(String(cString: strerror(errno)))") }
            builds[index].launchPath = link
        }
        for build in builds {
            let spoken = try captureOutput(build.launchPath, ["measure", "--protocol"], environment: [:], scratch: scratch).trimmingCharacters()
            guard spoken == MeasureCommand.protocolName else {
                throw CommandError(
                    .failure,
                    "the \(build.label) (\(build.description)) does not speak \(MeasureCommand.protocolName)"
                        + " (it predates the gate, or is not difflab); choose a newer --base or use --baseline FILE")
            }
        }

        let jemalloc = jemallocLibraryPath()
        var environment: [String: String?] = ["SWIFT_DETERMINISTIC_HASHING": "1", "LD_PRELOAD": jemalloc]
        if jemalloc == nil {
            notes.append("libjemalloc.so.2 not found (apt-get install -y libjemalloc-dev): allocations not measured")
            environment["LD_PRELOAD"] = nil
        }

        // Instructions: deterministic, so one call per cell and build, both builds at once.
        var instructions: [String: [String: Double]] = [:]
        let valgrind = parsed.flag("no-instructions") ? nil : commandOutput("command -v valgrind")
        if parsed.flag("no-instructions") {
            notes.append("instructions not measured (--no-instructions)")
        } else if valgrind == nil {
            notes.append("valgrind not installed: instructions not measured")
        } else {
            context.append(("instructions", commandOutput("valgrind --version") ?? "valgrind"))
            console.err("gate: counting instructions of \(cellNames.count) cells in \(builds.count) builds with callgrind\n")
            for (index, cell) in cellNames.enumerated() {
                console.progress(index, cellNames.count, "callgrind \(cell)")
                let counts = try countInstructions(cell, builds: builds, seed: seed, environment: environment, scratch: scratch)
                for (label, count) in counts { instructions[label, default: [:]][cell] = count }
            }
            console.progress(cellNames.count, cellNames.count, "callgrind done", last: true)
        }

        // Time and allocations: interleaved rounds, ABBA order.
        var timeRounds: [String: [String: [[Double]]]] = [:]
        var allocations: [String: [String: [GateMetric: Set<Double>]]] = [:]
        let roundCount = base == nil ? 1 : rounds
        // Environment padding of a random length per process moves the stack by a different amount
        // every time, so a lucky or unlucky layout is noise that averages out, not a bias.
        var padding = SplitMix64(seed: 0x9a7e)
        console.err("gate: timing \(cellNames.count) cells in \(roundCount) rounds of \(builds.count) builds, allocations under jemalloc\n")
        for round in 0..<roundCount {
            console.progress(round, roundCount, "time round \(round + 1)")
            let order = round % 2 == 0 ? builds : builds.reversed()
            for build in order {
                var padded = environment
                padded["DIFFLAB_GATE_PADDING"] = String(repeating: "x", count: Int(padding.next(upTo: 4095)))
                let results = try measureRound(build, cells: cellNames, samples: samples, seed: seed, environment: padded, scratch: scratch)
                for result in results {
                    timeRounds[build.label, default: [:]][result.cell, default: []].append(result.samples)
                    for (metric, value) in [(GateMetric.allocatedBytes, result.allocatedBytes), (.allocationRequests, result.allocationRequests)] {
                        guard let value else { continue }
                        allocations[build.label, default: [:]][result.cell, default: [:]][metric, default: []].insert(value)
                    }
                }
            }
        }
        console.progress(roundCount, roundCount, "time done", last: true)
        if base != nil { context.append(("time", "\(roundCount) interleaved rounds × \(samples) samples per cell and build")) }

        /// A deterministic value of one build: its single value, or nil with a reason when runs disagreed.
        func deterministic(_ label: String, _ cell: String, _ metric: GateMetric) -> (Double?, String?) {
            if metric == .instructions { return (instructions[label]?[cell], nil) }
            guard let values = allocations[label]?[cell]?[metric] else { return (nil, nil) }
            if values.count == 1 { return (values.first, nil) }
            return (nil, "\(metric.rawValue) of the \(label) varied between runs: \(values.sorted().map { formatGrouped($0) }.joined(separator: ", "))")
        }

        if let baselineFile {
            let cells = cellNames.map { cell in
                (cell, StoredBaseline.metrics.reduce(into: [GateMetric: Double]()) { $0[$1] = deterministic(head.label, cell, $1).0 })
            }
            let document = StoredBaseline.json(
                cells: cells, candidate: head.description, createdAt: Int(time(nil)), machine: machineJSONFields(),
                toolchain: commandOutput("swift --version") ?? "unknown")
            // A baseline is stored only if it would be accepted when read back: a cell with no
            // metric measured (no jemalloc and no valgrind, say) would gate nothing.
            do throws(GateError) { _ = try StoredBaseline(json: document, source: baselineFile.path) } catch {
                throw CommandError(.failure, "refusing to store a baseline that could not gate: \(error)")
            }
            try baselineFile.write(document.serialized() + "\n")
            console.err("gate: stored baseline \(baselineFile.path)\n")
            if base == nil && stored == nil { return .success }
        }

        var comparisons: [GateComparison] = []
        let timeComparisons: [GateComparison] =
            base == nil
            ? []
            : compareTimes(
                cellNames.map { TimeSamples(cell: $0, base: timeRounds["baseline"]?[$0] ?? [], head: timeRounds["candidate"]?[$0] ?? []) },
                thresholds: thresholds)
        let storedIsComparable = stored.map(sameMachine) ?? false
        for (index, cell) in cellNames.enumerated() {
            if base != nil { comparisons.append(timeComparisons[index]) }
            for metric in GateMetric.allCases where metric.isDeterministic {
                let (headValue, headProblem) = deterministic("candidate", cell, metric)
                var baseValue: Double?
                var baseProblem: String?
                if let stored {
                    baseValue = stored.value(cell, metric)
                    if metric == .instructions && !storedIsComparable {
                        baseProblem = "the stored baseline comes from another machine or toolchain; instruction counts are not comparable"
                        baseValue = nil
                    }
                } else {
                    (baseValue, baseProblem) = deterministic("baseline", cell, metric)
                }
                comparisons.append(
                    compareDeterministic(
                        cell: cell, metric: metric, base: baseValue, head: headValue, thresholds: thresholds,
                        note: headProblem ?? baseProblem ?? ""))
            }
        }
        context.append(("cells", "\(cellNames.count) (subject:profile:kind:size), seed \(seed), `SWIFT_DETERMINISTIC_HASHING=1`"))
        context.append(("machine", machineJSONFields().first { $0.0 == "cpu" }?.1 ?? "unknown"))
        context.append(("thresholds", thresholdsSource))
        context.append(("took", "\(Int((monotonicNow() - started).rounded())) s"))

        let report = GateReport(comparisons: comparisons, thresholds: thresholds, context: context, notes: notes)
        let improvementsPass = parsed.flag("improvements-pass")
        let markdown = report.markdown
        try outFile.write(report.json(improvementsPass: improvementsPass).serialized() + "\n")
        try summaryFile.write(markdown)
        try stepSummary?.append(markdown)
        console.out(markdown)
        // Fail closed: a run that compared nothing is an error, whatever the verdicts say.
        if let failure = report.failure { throw CommandError(.failure, failure.description) }
        let code = report.exitCode(improvementsPass: improvementsPass)
        return ExitStatus(rawValue: code) ?? .regression
    }

    /// Whether `stored` was measured on this machine's CPU model with this toolchain (instruction
    /// counts are comparable only then).
    static func sameMachine(_ stored: StoredBaseline) -> Bool {
        stored.cpu == (machineJSONFields().first { $0.0 == "cpu" }?.1 ?? "") && stored.toolchain == (commandOutput("swift --version") ?? "")
    }

    /// A difflab binary to measure.
    struct Build {
        /// "baseline" or "candidate".
        var label: String
        var binary: String
        var description: String
        /// What is executed: an equal-length symlink to ``binary`` (see the gate).
        var launchPath = ""
    }

    /// Builds `revision` in release mode in a worktree under `.build/gate/` (kept, so later runs
    /// against the same commit reuse the build).
    static func buildRevision(_ revision: String, product: String, console: Console) throws(CommandError) -> Build {
        guard let sha = commandOutput("git rev-parse --verify --quiet \(shellQuoted(revision + "^{commit}"))") else {
            throw CommandError(
                .failure, "cannot resolve the baseline revision '\(revision)' (a shallow clone? fetch more history or use --baseline FILE)")
        }
        let short = String(sha.prefix(12))
        let binary = try buildWorktree(
            directory: ".build/gate/base-\(short)", commit: sha, patch: nil, product: product, what: "baseline \(revision) (\(short))",
            console: console)
        return Build(label: "baseline", binary: binary, description: "`\(revision)` = \(short), built in a worktree")
    }

    /// Builds HEAD with `patch` applied, in a worktree under `.build/gate/`: a deliberate change to
    /// test the gate with, without touching the working tree.
    static func buildPatched(_ patch: String, product: String, console: Console) throws(CommandError) -> Build {
        let bytes = try readInputFile(patch)
        guard let sha = commandOutput("git rev-parse --verify HEAD") else { throw CommandError(.failure, "not in a git repository") }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let directory = ".build/gate/patched-\(sha.prefix(12))-\(String(hash, radix: 16).prefix(10))"
        let binary = try buildWorktree(
            directory: directory, commit: sha, patch: patch, product: product, what: "HEAD + \(patch)", console: console)
        return Build(label: "candidate", binary: binary, description: "HEAD \(sha.prefix(12)) + `\(patch)`, built in a worktree")
    }

    /// Builds `product` at `commit` (plus `patch`) in a worktree at `directory` (under the
    /// repository's root); the package built is the one in the current folder, at the same place
    /// inside the worktree. Returns the binary's path.
    static func buildWorktree(
        directory: String, commit: String, patch: String?, product: String, what: String, console: Console
    ) throws(CommandError) -> String {
        guard let root = commandOutput("git rev-parse --show-toplevel") else { throw CommandError(.failure, "not in a git repository") }
        // The current folder inside the repository ("" at its root; `--show-prefix` ends in "/").
        let prefix = commandOutput("git rev-parse --show-prefix") ?? ""
        // Path dependencies outside the repository (`../DiffLab`): the worktree is nested deep
        // enough that they land inside its gate folder, and linked there (see GateWorktree).
        try makeDirectories(root + "/.build/gate")
        let folder = root + "/" + directory
        let realPackage = GateWorktree.normalized(prefix.isEmpty ? root : root + "/" + prefix)
        let external = try GateWorktree.externalPaths(packagePath: realPackage, root: root, scratch: folder + ".manifest")
        let nesting = GateWorktree.nesting(for: external, prefix: prefix)
        let path = nesting == 0 ? folder : folder + String(repeating: "/up", count: nesting - 1) + "/tree"
        let packagePath = prefix.isEmpty ? path : path + "/" + prefix
        let binary = packagePath + "/.build/release/" + product
        let marker = path + "/.difflab-gate-built"
        if access(marker, F_OK) == 0 && access(binary, X_OK) == 0 {
            console.err("gate: reusing the build of \(what) in \(directory)\n")
            return binary
        }
        if nesting > 0, let slash = path.lastIndex(of: "/") { try makeDirectories(String(path[..<slash])) }
        let log = folder + ".log"
        console.err("gate: building \(what) in \(directory) (log: \(directory).log)\n")
        _ = try runProcess("git", ["-C", root, "worktree", "remove", "--force", path], stdout: "/dev/null", stderr: "/dev/null")
        _ = try runProcess("git", ["-C", root, "worktree", "prune"], stdout: "/dev/null", stderr: "/dev/null")
        var steps: [(String, [String])] = [("git", ["-C", root, "worktree", "add", "--detach", "--force", path, commit])]
        if let patch {
            let absolute = patch.hasPrefix("/") ? patch : root + "/" + patch
            steps.append(("git", ["-C", path, "apply", absolute]))
        }
        steps.append(("swift", ["build", "-c", "release", "--product", product, "--package-path", packagePath]))
        // The build step runs once the path dependencies are linked (see GateWorktree).
        let build = steps.removeLast()
        if let failure = try runLoggedSteps(steps, log: log) {
            throw CommandError(.failure, "building \(what) failed: \(failure)")
        }
        try GateWorktree.link(external, workPackage: packagePath, realPackage: realPackage, inside: folder)
        if let failure = try runLoggedSteps([build], log: log) {
            throw CommandError(.failure, "building \(what) failed: \(failure)")
        }
        _ = fopen(marker, "w").map { fclose($0) }
        return binary
    }

    /// Runs each `(tool, arguments)` step in order, waiting for it, with its standard output and
    /// error appended to the file `log`; stops at the first step that fails. Each step is a child
    /// registered with ``Cleanup``, so an interruption stops it.
    ///
    /// - Returns: `nil` when every step succeeded, else what failed, in words
    ///   (`` `git apply x` exited 1; see LOG ``).
    /// - Throws: ``CommandError`` when a step cannot be started.
    /// - Complexity: the steps' own.
    static func runLoggedSteps(_ steps: [(String, [String])], log: String) throws(CommandError) -> String? {
        defer { unlink(log + ".step") }
        for (tool, arguments) in steps {
            let status = try runProcess(tool, arguments, stdout: log + ".step", stderr: log + ".step")
            appendFile(log + ".step", to: log)
            guard status == 0 else { return "`\(tool) \(arguments.joined(separator: " "))` exited \(status); see \(log)" }
        }
        return nil
    }

    /// Runs `build`'s worker once over every cell; its answer is checked by
    /// ``WorkerResult/parse(_:protocolName:cells:samples:worker:)``.
    static func measureRound(
        _ build: Build, cells: [String], samples: Int, seed: UInt64, environment: [String: String?], scratch: String
    ) throws(CommandError) -> [WorkerResult] {
        let text = try captureOutput(
            build.launchPath, ["measure", "--cells", cells.joined(separator: ","), "--samples", String(samples), "--seed", String(seed)],
            environment: environment, scratch: scratch)
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: Array(text.utf8)) } catch {
            throw CommandError(.failure, "the \(build.label)'s worker printed malformed JSON: \(error)")
        }
        do throws(GateError) {
            return try WorkerResult.parse(
                json, cells: cells, samples: samples, worker: "the \(build.label)'s worker")
        } catch {
            throw CommandError(.failure, error.description)
        }
    }

    /// Counts the instructions of one call of `cell` in every build, all builds at once (counts do
    /// not depend on load).
    static func countInstructions(
        _ cell: String, builds: [Build], seed: UInt64, environment: [String: String?], scratch: String
    ) throws(CommandError) -> [(String, Double)] {
        var running: [(Build, pid_t, String)] = []
        for build in builds {
            let out = scratch + "/\(build.label).callgrind"
            let pid = try spawnProcess(
                "valgrind",
                [
                    "--tool=callgrind", "--callgrind-out-file=\(out)", "--collect-atstart=no", "--toggle-collect=*difflabMeasuredCall*",
                    build.launchPath, "measure", "--instructions", "--cells", cell, "--seed", String(seed),
                ], environment: environment, stdout: "/dev/null", stderr: out + ".log", argumentZero: "valgrind")
            running.append((build, pid, out))
        }
        var counts: [(String, Double)] = []
        for (build, pid, out) in running {
            let status = waitProcess(pid)
            defer {
                unlink(out)
                unlink(out + ".log")
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

    static func captureOutput(_ binary: String, _ arguments: [String], environment: [String: String?], scratch: String) throws(CommandError) -> String {
        let out = scratch + "/worker.out"
        defer { unlink(out) }
        // A worker's answer is small JSON: capped like any input, and a worker gets an hour.
        let pid = try spawnProcess(binary, arguments, environment: environment, stdout: out, argumentZero: "difflab")
        let status = try waitProcess(
            pid, writing: out, maxBytes: InputLimit.bytes, seconds: workerSeconds,
            what: "`\(binary) \(arguments.prefix(2).joined(separator: " "))`")
        guard status == 0 else { throw CommandError(.failure, "`\(binary) \(arguments.prefix(2).joined(separator: " "))` exited \(status)") }
        return String(decoding: try readInputFile(out), as: UTF8.self)
    }
}

/// The absolute path of this executable (`/proc/self/exe` resolved, so other programs such as
/// valgrind can be given it).
func currentExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments.first ?? "difflab" }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The current working directory.
func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Appends the file at `source` to the file at `destination`.
func appendFile(_ source: String, to destination: String) {
    guard let input = fopen(source, "r"), let output = fopen(destination, "a") else { return }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, input)
        if count == 0 { break }
        fwrite(buffer, 1, count, output)
    }
    fclose(input)
    fclose(output)
}

/// `'text'` for a POSIX shell.
func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences("'", "'\\''") + "'" }

extension String {
    /// Without leading and trailing whitespace and newlines.
    func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Every `target` replaced by `replacement`.
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
