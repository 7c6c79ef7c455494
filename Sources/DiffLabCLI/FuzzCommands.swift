import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults
import DiffLabUpdaters

/// `difflab fuzz`.
enum FuzzCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let seconds = Option.number(
            "seconds", in: FuzzOptions.allowedSeconds, help: "stop after N seconds",
            defaultText: "\(formatPlain(FuzzCommand.defaultSeconds)) when --cases is not given")
        let cases = Option.integer("cases", in: FuzzOptions.allowedInputs, help: "stop after N generated inputs (--write-seeds: N seeds)")
        let seed = Option.seed(default: FuzzOptions().seed, help: "the run's seed; the same seed generates the same inputs")
        let engines = Option.engines(help: "engines to check")
        let properties = Option<[Property]>.names("properties", noun: "property", help: "properties to check", defaultText: "all")
        let maxSize = Option.integer(
            "max-size", in: FuzzOptions.allowedMaxSize, default: FuzzOptions().maxSize,
            help: "largest small-list size; sizes grow from 1 to N and start over")
        let largeSize = Option.integer(
            "large-size", in: FuzzOptions.allowedLargeSize, default: FuzzOptions().largeSize,
            help: "largest size of the periodic large lists (0 or a value not above --max-size: no large lists)")
        let largeEvery = Option.integer(
            "large-every", in: FuzzOptions.allowedLargeEvery, default: FuzzOptions().largeEvery, help: "one input in N is a large list")
        let elements = Option<[FuzzElementKind]>.names(
            "elements", noun: "element kind", help: "element kinds to present the lists as", defaultText: "all")
        let workers = Option.integer("workers", in: FuzzOptions.allowedWorkers, default: FuzzOptions().workers, help: "threads")
        let checkSeconds = Option.number(
            "check-seconds", in: FuzzSupervisor.allowedCheckSeconds, default: 10, help: "one check running longer than N seconds has hung",
            details: "The fuzzing process, which runs apart from this one, is also stopped (and the run goes on from the next input) "
                + "when it shows no progress outside any check for 6 × N seconds, at least 60.")
        let corpus = Option.output("corpus", "DIR", default: "Corpus/regressions", help: "where counterexamples are saved")
        let json = Flag(
            "json",
            help: "make the last line of standard output {\"cases\": N, \"seconds\": S, \"failures\": [...]}; each failure gives its "
                + "signature, shrunkItems, inputsToFind, secondsToFind (seconds into the run when the failing input was checked) and "
                + "crashed (true for a crash or hang)")
        let junit = Option.output(
            "junit",
            help: "also write JUnit XML: one test case per property × engine, failed with the shrunk counterexample (an error for a "
                + "crash or hang); a run that checked no case is an error case; checked before the run (exit 73 for a path that is "
                + "not a regular file)")
        let seedsFromTrace = Option.text(
            "seeds-from-trace", "FILE",
            help: "start from a recorded trace (difflab-trace/1): each consecutive pair of versions that differ, cut to --max-size "
                + "items around its first difference, is an input of its own, then a base the generator's mutations are applied to "
                + "(every other input)")
        let isolation = Option<FuzzIsolationChoice>.choice(
            "isolation", "HOW", default: FuzzIsolationChoice.platformDefault,
            help: "how crashes and hangs are survived: fork (a forked copy of this process runs the campaign; Linux), spawn (this "
                + "program is started again as a worker process; the default where fork is unavailable, as on macOS) or none (in "
                + "this process: a trap ends the run)")
        let isolationJob = Option.text("isolation-job", "FILE", hidden: true, help: "internal: the job of a spawned fuzzing worker")
        let writeSeeds = Option.output(
            "write-seeds", "DIR",
            help:
                "instead of fuzzing, write the byte encodings of N generated inputs (--cases, default \(FuzzCommand.defaultSeedCount)) to DIR as libFuzzer seeds "
                + "for difflab-fuzz")
        init() {}
    }

    static let name = "fuzz"
    static let abstract = "property-based fuzzing of every engine"
    static let otherForms = [UsageForm<Options>(required: [\.writeSeeds], optional: [\.cases, \.seed])]
    static var discussion: String {
        """
        Property-based fuzzing: generates pairs of lists (mutation profiles: \(MutationProfile.allCases.map(\.description).joined(separator: ", "));
        unique or few distinct identifiers; the same items cut into sections; corrupted batch
        updates), hands them to every engine as one of the element kinds (\(FuzzElementKind.allCases.map(\.rawValue).joined(separator: ", ")))
        and checks every property on every engine with both move strategies. Lists are small
        (1 to --max-size items, for shrinking speed), but one input in --large-every is a large
        list of up to --large-size items. Each
        failure is shrunk to a minimal counterexample, printed, and saved as JSON in the corpus
        directory, named by its signature.

        PROPERTIES
          \(Property.allCases.map(\.rawValue).joined(separator: ", "))
        """
    }
    static let epilogue = """
        An engine that traps, crashes or hangs does not end the run: the campaign runs in a child
        process; the check that crashed or hung it is replayed on its own, shrunk (one process per
        candidate), and reported as <property>/<engine>/crashed-<SIGNAL> or .../hung, and the run
        goes on from the next input without that engine × property. The child is a fork of this
        process (--isolation fork, Linux) or this program started again as a worker (--isolation
        spawn, the default where fork is unavailable). (With --engine-command and fork the run
        stays in one process: the engine's process is this process's child, and its crashes are
        reported as engine-failed/<engine>/crashed; a spawned worker starts engines of its own.)

        A "case" is one property checked on one engine for one generated input; the summary also
        gives the number of inputs. Progress goes to standard error: a line rewritten in place on
        a terminal, a plain line every five seconds otherwise.

        EXIT STATUS
          0 no failure, 1 a property failed or no case ran, 64 bad command line
        """

    /// `--seconds` when neither it nor `--cases` is given.
    static let defaultSeconds = 10.0
    /// The seeds `--write-seeds` writes when `--cases` is not given.
    static let defaultSeedCount = 16

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        var options = FuzzOptions()
        options.inputs = parsed[\.cases]
        options.seconds = parsed[\.seconds]
        if options.inputs == nil && options.seconds == nil { options.seconds = defaultSeconds }
        options.seed = parsed.required(\.seed)
        // Each engine and property once, as bench and policy do: a repeated name is not more checks.
        if let engines = parsed[\.engines] { options.subjects = engines.map(\.fuzz) }
        if let properties = parsed[\.properties] { options.properties = properties }
        options.maxSize = parsed.required(\.maxSize)
        options.largeSize = parsed.required(\.largeSize)
        options.largeEvery = parsed.required(\.largeEvery)
        if let elements = parsed[\.elements] { options.elements = elements }
        options.workers = parsed.required(\.workers)
        let checkSeconds = parsed.required(\.checkSeconds)
        let job = parsed[\.isolationJob]
        if let path = parsed[\.seedsFromTrace] {
            let trace = try readTrace(path)
            options.seeds = FuzzSeed.seeds(of: trace, name: path, maxSize: options.maxSize)
            guard !options.seeds.isEmpty else { throw .data("\(path): no two consecutive versions differ; a trace gives the fuzzer no seed") }
            if job == nil { console.err("fuzz: \(options.seeds.count) seeds from \(path) (\(trace.versions.count) versions)\n") }
        }
        // A spawned worker: the same options, rebuilt from the same arguments, and its job.
        if let job { FuzzSupervisor.runWorker(job: job, options: options) }
        if let path = parsed[\.writeSeeds] {
            let directory = try asCantCreate { () throws(OutputFileError) in try OutputDirectory(path, option: "--write-seeds") }
            let count = options.inputs ?? defaultSeedCount
            // Every seed file is checked before the first is written.
            let files = try (0..<count).map { index throws(CommandError) in
                try asCantCreate { () throws(OutputFileError) in try directory.file("seed-\(index).bin") }
            }
            for (index, file) in files.enumerated() {
                try asCantCreate { () throws(OutputFileError) in try file.write(fuzzTargetSeed(index, options: options)) }
            }
            console.out("wrote \(count) seeds to \(path)\n")
            return .success
        }
        // Checked now: a counterexample found after minutes must have somewhere to go.
        let corpus = try asCantCreate { () throws(OutputFileError) in try OutputDirectory(parsed.required(\.corpus), option: "--corpus") }
        let junit = try parsed[\.junit].map { path throws(CommandError) in
            try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "--junit") }
        }

        // On a terminal (isatty(2), see Console.standard) the progress line rewrites itself with
        // "\r"; in a log, never: one plain line every five seconds.
        let live = console.errIsTerminal
        let lastLine = Locked(0.0)
        let showProgress: @Sendable (FuzzProgress) -> Void = { p in
            let rate = p.seconds > 0 ? Int(Double(p.checks) / p.seconds) : 0
            let line =
                "fuzz: \(format(p.seconds)) s, \(p.checks) cases (\(rate)/s), \(p.inputs) inputs, \(failureCounts(p.contractFailures, outside: p.outsideContract)), size \(p.size)"
            if live {
                console.err("\r" + line + "   ")
            } else if lastLine.withLock({ last in
                guard p.seconds - last >= 5 else { return false }
                last = p.seconds
                return true
            }) {
                console.err(line + "\n")
            }
        }
        // The executable isolates crashes in a child process; an in-process caller (the tests)
        // cannot fork safely, nor start itself again as a worker (its executable is the test
        // runner, not this command line), so it fuzzes in-process (as runFuzzerIsolated does by
        // itself when an engine process was started here).
        let how = parsed.required(\.isolation)
        let executable = how == .spawn && Cleanup.isSignalHandlingInstalled ? try selfExecutable() : ""
        let outcome: IsolatedFuzzOutcome
        do {
            var supervisor = FuzzSupervisor(options: options, checkSeconds: checkSeconds, maxFindingsBytes: InputLimit.bytes)
            supervisor.campaignBacktraces = true
            if how == .spawn {
                // This program again, with this run's global options and fuzz arguments, and the job.
                let arguments = DiffLabCommand.forwardedArguments + ["fuzz"] + parsed.arguments + [parsed.option(\.isolationJob)]
                supervisor.isolation = .spawn(FuzzWorkerCommand(executable: executable, arguments: arguments))
            }
            outcome = try runFuzzerIsolated(
                supervisor, isolating: how != .none && Cleanup.isSignalHandlingInstalled, progress: showProgress)
        } catch {
            throw CommandError(error)
        }
        let report = outcome.report
        if live { console.err("\n") }
        var failureRecords: [FuzzFailureRecord] = []
        var savedFiles: [String: String] = [:]
        var unsaved: CommandError?
        for failure in report.failures {
            let regression = RegressionCase(failure)
            let path = corpus.path + "/" + regression.fileName
            // Printed first, so a failed save never loses the counterexample.
            console.out(
                """
                \(failure.outsideContract ? "OUTSIDE THE ENGINE'S CONTRACT (it does not promise duplicate identifiers)" : outcome.crashes.contains(failure.signature) ? (failure.signature.hasSuffix("/hung") ? "HANG" : "CRASH") : "FAILURE") \(failure.failure.signature)
                  \(failure.failure.message)
                  shrunk from \(failure.originalItems) to \(failure.shrunkItems) items (\(failure.shrinkAttempts) attempts), found after \(failure.inputsToFind) inputs
                  old: \(failure.input.old)
                  new: \(failure.input.new)
                  saved: \(path) (replay: \(programName) replay \(path))

                """)
            do throws(OutputFileError) {
                try corpus.file(regression.fileName).write(regression.json.serialized(pretty: true) + "\n")
                savedFiles[failure.signature] = path
            } catch {
                unsaved = unsaved ?? CommandError(error)
            }
            failureRecords.append(
                FuzzFailureRecord(
                    signature: failure.failure.signature, message: failure.failure.message, file: path,
                    originalItems: failure.originalItems, shrunkItems: failure.shrunkItems, outsideContract: failure.outsideContract,
                    inputsToFind: failure.inputsToFind, secondsToFind: failure.secondsToFind,
                    crashed: outcome.crashes.contains(failure.signature)))
        }
        let rate = report.seconds > 0 ? Int(Double(report.checks) / report.seconds) : 0
        let outside = report.failures.filter(\.outsideContract).count
        let inContract = report.failures.count - outside
        let kinds = FuzzElementKind.allCases.compactMap { kind in report.inputsByKind[kind].map { "\(kind) \($0)" } }
        console.out(
            "fuzz: inputs by element kind: \(kinds.isEmpty ? "none" : kinds.joined(separator: ", ")); \(report.largeInputs) large lists (largest input \(report.largestInput) items)\n"
        )
        console.out(
            "fuzz: \(report.checks) cases (\(rate)/s) on \(report.inputs) inputs (\(Int(report.inputsPerSecond))/s) in \(format(report.seconds)) s, \(options.subjects.count) engines × \(options.properties.count) properties, seed \(options.seed): \(failureCounts(inContract, outside: outside))\n"
        )
        if parsed[\.json] {
            let summary = FuzzSummaryFile(
                cases: report.checks, inputs: report.inputs, seconds: report.seconds, casesPerSecond: rate,
                largeInputs: report.largeInputs, largestInput: report.largestInput,
                inputsByKind: FuzzElementKind.allCases.map { ($0.rawValue, report.inputsByKind[$0] ?? 0) }, failures: failureRecords
            ).json
            console.out(summary.serialized() + "\n")
        }
        try asCantCreate { () throws(OutputFileError) in
            try junit?.write(FuzzJUnit.report(report, options: options, crashes: Set(outcome.crashes), files: savedFiles).xml)
        }
        if let unsaved { throw unsaved }
        // Failures outside an engine's declared contract are reported and saved, but do not fail
        // the run: the engine never promised those inputs.
        return try verdict(checks: report.checks, failures: inContract)
    }

    /// The exit status of a run: failure when a property failed, and also when no case ran — a
    /// run that checked nothing proves nothing, so it must not pass.
    ///
    /// - Throws: a ``CommandError`` with status 1 saying no case ran, when `checks` is 0.
    static func verdict(checks: Int, failures: Int) throws(CommandError) -> ExitStatus {
        guard checks > 0 else {
            throw CommandError(.failure, "fuzz: no case ran (the run ended before the first input was checked)")
        }
        return failures == 0 ? .success : .failure
    }

    /// `2 failures`, `0 failures, 4 more outside an engine's contract`: the counts of the progress
    /// line and the summary, inside the contracts (a failed run) and outside (reported only).
    static func failureCounts(_ inContract: Int, outside: Int) -> String {
        "\(inContract) failures" + (outside > 0 ? ", \(outside) more outside an engine's contract" : "")
    }

    static func format(_ seconds: Double) -> String { formatFixed(seconds, decimals: 1) }
}

/// The command line of a `fuzz` run another command starts and reads (the arena's runs, a
/// mutant's run): `seconds` of fuzzing on `seed`, the `--json` summary on standard output,
/// counterexamples in `corpus`; only `engines` when given, on `workers` threads when given.
package func fuzzRunArguments(seconds: String, seed: UInt64, corpus: String, engines: String? = nil, workers: Int? = nil) -> [String] {
    var line = CommandArguments<FuzzCommand.Options>(FuzzCommand.name)
    line.add(\.engines, ifGiven: engines)
    line.add(\.seconds, seconds)
    line.add(\.seed, String(seed))
    line.add(\.json)
    line.add(\.corpus, corpus)
    line.add(\.workers, ifGiven: workers.map(String.init))
    return line.arguments
}

/// `difflab replay [PATH...]`.
enum ReplayCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let paths = Positionals("[PATH...]", count: 0...Int.max) { "replay takes any number of paths (got \($0))" }
        init() {}
    }

    static let name = "replay"
    static let abstract = "re-run saved counterexamples (default Corpus/regressions) and updater findings"
    static let discussion = """
        Re-runs saved counterexamples: each PATH is a case file or a directory of them (default
        Corpus/regressions). A case passes when its property now holds on every engine. Every
        field of a case file is checked (lists of at most 10000 items, at most 1000
        corruptions, each field in its documented range); a damaged file is exit 65 naming the
        file and the field.

        A findings file of difflab updaters --out (schema difflab-updaters/1) is recognised by
        its schema: each finding's shrunk run is replayed (its script under its recorded
        schedule, with the file's engine and limits) and passes when no property breaks any
        more; it fails when one still does, saying whether it is the same property at the same
        step (reproduced) or not. An updater that crashed or hung in the campaign has no run to
        replay and fails, as does a file without findings (it would compare nothing).
        """
    static let epilogue = """
        EXIT STATUS
          0 all pass, 1 a case fails, names an engine not registered here, or no case file
          was found, 64 bad command line,
          65 damaged case file, 66 missing path
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let paths = parsed[\.paths].isEmpty ? ["Corpus/regressions"] : parsed[\.paths]
        var files: [String] = []
        for path in paths {
            if let inside = try jsonFiles(in: path) { files += inside } else { files.append(path) }
        }
        guard !files.isEmpty else {
            // A replay that compared nothing must not pass.
            throw CommandError(.failure, "replay: no case files (*.json) found in \(paths.joined(separator: ", "))")
        }
        var failed = 0
        var outside = 0
        // Cases beyond one per file (an updaters findings file holds one per finding).
        var replayed = 0
        for file in files {
            let json = try readJSON(file)
            if json["schema"]?.stringValue == UpdaterFindingsFile.schema {
                let (passed, failures) = try replayUpdaterFindings(json, file: file, console: console)
                replayed += passed + failures - 1
                failed += failures
                continue
            }
            let regression: RegressionCase
            do {
                regression = try RegressionCase(json: json)
            } catch {
                throw .data("\(file): \(error)")
            }
            let failures: [PropertyFailure]
            do {
                failures = try regression.replay(on: EngineRegistry.current.engines.map(\.fuzz))
            } catch {
                // Not a damaged file: its engine is not registered here. The other cases still run,
                // and the replay fails: this case checked nothing.
                failed += 1
                console.out("FAIL \(file): \(error); replay it with the runner that registers that engine\n")
                continue
            }
            if failures.isEmpty {
                console.out("pass \(file) (\(regression.property))\n")
            } else if failures.allSatisfy(\.outsideContract) {
                // The engine never promised this input: reported, not a failure of the replay.
                outside += 1
                console.out("outside the engine's contract \(file): " + failures.map(\.description).joined(separator: "; ") + "\n")
            } else {
                failed += 1
                console.out("FAIL \(file): " + failures.map(\.description).joined(separator: "; ") + "\n")
            }
        }
        let notes = outside > 0 ? ", \(outside) still failing outside an engine's contract" : ""
        console.out("replay: \(files.count + replayed - failed - outside) passed, \(failed) failed\(notes)\n")
        return failed == 0 ? .success : .failure
    }
}

extension ReplayCommand {
    /// Replays every finding of an updaters findings file: how many passed (the property holds
    /// now) and how many failed (a property still breaks, an updater or engine unknown here, a
    /// crash without a run, or no finding at all).
    ///
    /// - Throws: ``CommandError`` (65) for a damaged file, naming the field.
    static func replayUpdaterFindings(_ json: JSONValue, file: String, console: Console) throws(CommandError) -> (passed: Int, failed: Int) {
        let findings: UpdaterFindingsFile
        do { findings = try UpdaterFindingsFile(json: json, source: file) } catch { throw .data(error.description) }
        guard let engine = UpdaterEngine.named(findings.campaign.engine) else {
            console.out("FAIL \(file): the engine \(findings.campaign.engine) is not a built-in engine\n")
            return (0, 1)
        }
        var (passed, failed) = (0, 0)
        for updater in findings.updaters {
            if let crash = updater.crash {
                failed += 1
                console.out("FAIL \(file): \(updater.name) \(crash.kind.rawValue) in its campaign (\(crash.message)); no run to replay\n")
                continue
            }
            guard let subject = EngineRegistry.current.updater(named: updater.name) else {
                failed += updater.findings.count
                console.out("FAIL \(file): the updater \(updater.name) is not a built-in updater\n")
                continue
            }
            // The file's limits were range-checked when it was read.
            guard let fuzzer = try? UpdaterFuzzer(subject: subject, engine: engine.engine, settings: findings.campaign.settings) else {
                throw .data("\(file): campaign.settings are out of range")
            }
            for finding in updater.findings {
                let replay = fuzzer.reproduce(script: finding.script, schedule: finding.schedule, expecting: finding.failure)
                let what = "\(updater.name) \(finding.property.rawValue)"
                if replay.run.failure == nil {
                    passed += 1
                    console.out("pass \(file): \(what) (\(replay.summary))\n")
                } else {
                    failed += 1
                    console.out("FAIL \(file): \(what): \(replay.summary)\n")
                }
            }
        }
        if passed + failed == 0 {
            console.out("FAIL \(file): no findings to replay (a findings file without findings compares nothing)\n")
            return (0, 1)
        }
        return (passed, failed)
    }
}

extension CommandError {
    /// `difflab fuzz`'s error for a crash-isolated campaign that could not run: `fuzz: ` and the
    /// error's line, exit 1; a temporary folder that cannot be made or a findings file that cannot
    /// be read fail as they do for every command (73; 66 or 65).
    init(_ error: FuzzIsolationError) {
        switch error {
        case .process(let process) where process.isTemporaryFolderError:
            self.init(process)
        case .findingsFile(let file):
            self.init(file)
        default:
            self.init(.failure, "fuzz: \(error)")
        }
    }
}

/// `difflab fuzz --isolation`: how a campaign survives an engine that traps or hangs.
enum FuzzIsolationChoice: String, CaseIterable, Sendable {
    /// A forked copy of this process (``FuzzIsolation/fork``).
    case fork
    /// This program started again as a worker (``FuzzIsolation/spawn(_:)``).
    case spawn
    /// In this process: no isolation.
    case none

    /// `fork` where the platform can fork, else `spawn`.
    static var platformDefault: FuzzIsolationChoice { platformCanFork ? .fork : .spawn }
}
