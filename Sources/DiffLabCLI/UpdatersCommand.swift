import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults
import DiffLabUpdaters

/// `difflab updaters`.
enum UpdatersCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let updaters = Option<[UpdaterSubject]>.list(
            "updaters", help: "updaters to check", constraint: "of: " + EngineRegistry.current.updaters.map(\.name).joined(separator: ", "),
            defaultText: "all",
            most: UpdaterFindingsFile.maxUpdaters
        ) { name throws(CommandError) in
            guard let subject = EngineRegistry.current.updater(named: name) else {
                throw .usage("unknown updater '\(name)' (updaters: \(EngineRegistry.current.updaters.map(\.name).joined(separator: ", ")))")
            }
            return subject
        }
        let runs = Option.integer(
            "runs", in: UpdaterFuzzer.runsRange, default: UpdatersCommand.defaultRuns,
            help: "runs per updater: each a random script under a random walk or PCT schedule")
        let seed = Option.seed(default: 1, help: "the campaign's seed; the same seed makes the same runs")
        let maxRequests = Option.integer(
            "max-requests", in: UpdaterFuzzSettings.maxRequestsRange, default: UpdaterFuzzSettings.standard.maxRequests,
            help: "most requests (new versions asked for) in a run")
        let maxItems = Option.integer(
            "max-items", in: UpdaterFuzzSettings.maxItemsRange, default: UpdaterFuzzSettings.standard.maxItems, help: "most items in a version")
        let maxEdits = Option.integer(
            "max-edits", in: UpdaterFuzzSettings.maxEditsRange, default: UpdaterFuzzSettings.standard.maxEdits,
            help: "most edits (inserts, deletes, moves, content changes) between two versions")
        let maxGap = Option.number(
            "max-gap", "SECONDS", in: UpdaterFuzzSettings.maxGapRange, default: UpdaterFuzzSettings.standard.maxGap,
            help: "longest virtual pause between two requests")
        let stepBudget = Option.integer(
            "step-budget", in: UpdaterFuzzSettings.stepBudgetRange, default: UpdaterFuzzSettings.standard.stepBudget,
            help: "most steps a run may take; a run still going is a finding of the property ends (an endless loop or a deadlock)")
        let engine = Option<UpdaterEngine>(
            "engine", "NAME", default: UpdaterEngine.named(BuiltInEngines.Name.hashmap), help: "the engine the updaters diff with",
            constraint: "one of: " + UpdaterEngine.all.map(\.name).joined(separator: ", "), defaultText: BuiltInEngines.Name.hashmap
        ) { text throws(CommandError) in
            guard let engine = UpdaterEngine.named(text) else {
                throw .usage("--engine expects a built-in engine: \(UpdaterEngine.all.map(\.name).joined(separator: ", ")) (got '\(text)')")
            }
            return engine
        }
        let out = Option.output(help: "write the findings (difflab-updaters/1) to FILE, for difflab replay FILE; checked before the run")
        let json = Flag(
            "json",
            help: "make the last line of standard output {\"seconds\": S, \"updaters\": [{\"name\", \"verdict\", \"runs\", \"broken\": "
                + "[properties], \"crash\"}]}")
        let isolation = Option<FuzzIsolationChoice>.choice(
            "isolation", "HOW", default: FuzzIsolationChoice.platformDefault,
            help: "how an updater that traps or hangs is survived: fork (a forked copy of this process runs each updater's campaign; "
                + "Linux), spawn (this program is started again as a worker per updater; the default where fork is unavailable) or "
                + "none (in this process: a trap ends the run)")
        let campaignSeconds = Option.number(
            "campaign-seconds", "SECONDS", in: 0.1...31_536_000, default: 600,
            help: "an isolated updater's campaign still running after this long has hung (its process is stopped)")
        let isolationJob = Option.text("isolation-job", "FILE", hidden: true, help: "internal: where a spawned updater worker writes its results")
        let stress = Option.integer(
            "stress", in: UpdaterFuzzer.stressRunsRange,
            help: "after the scheduled runs, N runs of each updater on real Dispatch queues (the stress mode: the operating system "
                + "picks the interleavings, so its findings are printed, not shrunk, replayed or written to --out; it runs in this "
                + "process)")
        let stressTimeLimit = Option.number(
            "stress-time-limit", "SECONDS", in: UpdaterFuzzer.timeLimitRange, default: 10,
            help: "real seconds one stress run may take; a run still going has deadlocked or loops (a finding of the property ends)")
        init() {}
    }

    /// Runs per updater when `--runs` is not given.
    static let defaultRuns = 10_000

    static let name = "updaters"
    static let abstract = "check list updaters under every interleaving of their queues"
    static var discussion: String {
        """
        Checks updaters — the code that takes each new version of a list's data and brings a
        collection view to it, diffing on the main queue or in the background — under a
        deterministic scheduler: each run is a random script (versions asked for at virtual
        times) under a seeded random walk or PCT schedule of the main queue, the background
        queues, timers, layout passes and the app's requests. Every run is checked against the
        properties below; the first run breaking each property is shrunk to the fewest requests,
        items and steps, and its timeline printed (main-thread lanes left, background right,
        the failing step marked ✗). --out writes the findings; difflab replay FILE re-runs them.

        UPDATERS
        \(EngineRegistry.current.updaters.map { "  \($0.name)" + ($0.summary.isEmpty ? "" : ": \($0.summary)") }.joined(separator: "\n"))

        PROPERTIES
        \(UpdaterProperty.allCases.map { "  \($0.rawValue): \($0.meaning)" }.joined(separator: "\n"))
        """
    }
    static let epilogue = """
        An updater that traps or hangs does not end the run: each updater's campaign runs in a
        process of its own (--isolation fork or spawn), and a campaign that dies by a signal, or
        runs past --campaign-seconds, is reported as that updater's CRASHED or HUNG verdict (no
        shrunk run: the campaign's other findings are lost with its process); the other updaters
        are still checked.

        EXIT STATUS
          0 every updater kept every property, 1 an updater broke a property, crashed or hung,
          64 bad command line, 73 --out cannot be written
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let subjects = deduplicatedSubjects(parsed[\.updaters] ?? EngineRegistry.current.updaters)
        let engine = parsed.required(\.engine)
        let settings = UpdaterFuzzSettings(
            maxRequests: parsed.required(\.maxRequests), maxItems: parsed.required(\.maxItems), maxEdits: parsed.required(\.maxEdits),
            maxGap: parsed.required(\.maxGap), stepBudget: parsed.required(\.stepBudget))
        let campaign = UpdaterFindingsFile.Campaign(
            updaters: subjects.map(\.name), engine: engine.name, seed: parsed.required(\.seed), runs: parsed.required(\.runs), settings: settings)
        // Checked by the options already; the library's own check is the last word.
        do throws(UpdaterInputError) { try settings.validate() } catch { throw .usage("--\(optionName(error.field)): \(error)") }
        guard !subjects.isEmpty else { throw .usage("--updaters: no updater to check") }

        // A spawned worker: one updater's campaign, its record written to the job's file.
        if let job = parsed[\.isolationJob] { UpdatersIsolation.runWorker(job: job, subject: subjects[0], engine: engine, campaign: campaign) }

        // Checked now: findings found after minutes must have somewhere to go.
        let out = try parsed[\.out].map { path throws(CommandError) in
            try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "--out") }
        }
        let started = monotonicNow()
        let how = parsed.required(\.isolation)
        let isolating = how != .none && Cleanup.isSignalHandlingInstalled
        var isolation: UpdatersIsolation?
        if isolating {
            let executable = how == .spawn ? try selfExecutable() : ""
            isolation = UpdatersIsolation(
                how: how, seconds: parsed.required(\.campaignSeconds), maxRecordBytes: InputLimit.bytes,
                worker: { subject in
                    FuzzWorkerCommand(
                        executable: executable,
                        arguments: DiffLabCommand.forwardedArguments + workerArguments(subject, engine: engine, campaign: campaign))
                })
        }
        // --stress's numbers are checked before any run, not after the scheduled ones.
        if let runs = parsed[\.stress], let fuzzer = try? UpdaterFuzzer(subject: subjects[0], engine: engine.engine, settings: settings) {
            do throws(UpdaterInputError) { try fuzzer.checkStress(runs: runs, timeLimit: parsed.required(\.stressTimeLimit)) } catch {
                throw .usage(
                    "--stress: \(error) (the stress mode runs requests 1,000 times faster than their virtual times: "
                        + "--max-requests × --max-gap must come within half of --stress-time-limit)")
            }
        }
        var records: [UpdaterFindingsFile.Updater] = []
        for subject in subjects {
            console.err("updaters: checking \(subject.name) (\(campaign.runs) runs)…\n")
            let record: UpdaterFindingsFile.Updater
            if let isolation {
                do {
                    record = try isolation.campaign(subject, engine: engine, campaign: campaign)
                } catch {
                    // One updater's unreadable result is its verdict, not the end of the others'.
                    record = UpdaterFindingsFile.Updater(
                        name: subject.name, checked: [], findings: [],
                        crash: .init(
                            kind: .crashed,
                            message: String(
                                "its campaign's process gave no readable result: \(error)".prefix(UpdaterFindingsFile.Limits.label.range.upperBound)))
                    )
                }
            } else {
                record = campaignRecord(subject, engine: engine, campaign: campaign)
            }
            records.append(record)
        }
        var stressFound = false
        var stressLines: [String] = []
        if let runs = parsed[\.stress] {
            for subject in subjects {
                console.err("updaters: stressing \(subject.name) on real queues (\(runs) runs)…\n")
                guard let fuzzer = try? UpdaterFuzzer(subject: subject, engine: engine.engine, settings: campaign.settings) else { continue }
                let result: UpdaterStressResult
                do throws(UpdaterInputError) {
                    result = try fuzzer.stress(runs: runs, seed: campaign.seed, timeLimit: parsed.required(\.stressTimeLimit))
                } catch {
                    throw .usage("--stress: \(error)")
                }
                stressFound = stressFound || !result.passed
                stressLines.append(stressSummary(result))
            }
        }
        let seconds = monotonicNow() - started

        var file = UpdaterFindingsFile(campaign: campaign, updaters: records)
        console.out(table(file))
        for updater in records {
            for finding in updater.findings {
                console.out("\n" + describe(finding, of: updater.name, runs: campaign.runs))
            }
        }
        for line in stressLines { console.out("\n" + line) }
        console.out(
            "\nupdaters: \(records.count) updaters × \(campaign.runs) runs, seed \(campaign.seed), engine \(engine.name), in \(formatFixed(seconds, decimals: 1)) s: "
                + "\(records.filter { UpdatersSummary.Verdict($0) != .safe }.count) with findings\n")
        if let out {
            file.provenance = RunProvenance.current()
            file.provenance.seconds = seconds
            try asCantCreate { () throws(OutputFileError) in try out.write(file.json.serialized(pretty: true) + "\n") }
            console.out("updaters: findings written to \(out.path) (replay: \(programName) replay \(out.path))\n")
        }
        if parsed[\.json] {
            console.out(UpdatersSummary(file, seconds: seconds).json.serialized() + "\n")
        }
        return file.hasFindings || stressFound ? .failure : .success
    }

    /// A stress campaign's result: a line when every property held, else each broken property
    /// with its first run's timeline.
    static func stressSummary(_ result: UpdaterStressResult) -> String {
        var text =
            "STRESS \(result.updater): \(result.runs) runs on real queues (time scale \(formatPlain(result.timeScale))): "
            + (result.passed ? "every property held\n" : "broken: \(result.findings.map(\.property.rawValue).joined(separator: ", "))\n")
        if result.stoppedByTimeOut { text += "  stopped at the first run that reached its time limit\n" }
        for finding in result.findings {
            text += "  \(finding.property.rawValue): broken in \(finding.failingRuns) runs; the first (run \(finding.run), seed \(finding.seed)):\n"
            text += UpdaterTimeline.text(finding.first.events, failure: finding.first.failure, width: 100)
        }
        return text
    }

    /// The command line of a spawned worker running `subject`'s campaign: the campaign's own
    /// options, and `--isolation-job` last (the supervisor appends the result file's path).
    static func workerArguments(_ subject: UpdaterSubject, engine: UpdaterEngine, campaign: UpdaterFindingsFile.Campaign) -> [String] {
        var line = CommandArguments<Options>(name)
        line.add(\.updaters, subject.name)
        line.add(\.runs, String(campaign.runs))
        line.add(\.seed, String(campaign.seed))
        line.add(\.maxRequests, String(campaign.settings.maxRequests))
        line.add(\.maxItems, String(campaign.settings.maxItems))
        line.add(\.maxEdits, String(campaign.settings.maxEdits))
        line.add(\.maxGap, "\(campaign.settings.maxGap)")
        line.add(\.stepBudget, String(campaign.settings.stepBudget))
        line.add(\.engine, engine.name)
        line.append(["--" + Options().isolationJob.name])
        return line.arguments
    }

    /// Each updater once, in the order given (a repeated name is not more checks).
    static func deduplicatedSubjects(_ subjects: [UpdaterSubject]) -> [UpdaterSubject] {
        var seen: Set<String> = []
        return subjects.filter { seen.insert($0.name).inserted }
    }

    /// `maxRequests` → `max-requests`: the option a settings field comes from.
    static func optionName(_ field: String) -> String {
        String(field.flatMap { $0.isUppercase ? ["-", Character($0.lowercased())] : [$0] })
    }

    /// One updater's campaign, in this process, as its record.
    static func campaignRecord(
        _ subject: UpdaterSubject, engine: UpdaterEngine, campaign: UpdaterFindingsFile.Campaign
    ) -> UpdaterFindingsFile.Updater {
        // The settings were validated by the caller: the fuzzer cannot refuse them.
        guard let fuzzer = try? UpdaterFuzzer(subject: subject, engine: engine.engine, settings: campaign.settings) else {
            preconditionFailure("settings validated before the campaign were refused")
        }
        let result = fuzzer.campaign(runs: campaign.runs, seed: campaign.seed)
        return UpdaterFindingsFile.Updater(
            name: subject.name, checked: result.checked, findings: result.findings.map(UpdaterFindingsFile.Finding.init))
    }

    /// The table of updaters × verdicts.
    static func table(_ file: UpdaterFindingsFile) -> String {
        let rows = file.updaters.map { updater -> (String, String, String) in
            let verdict = UpdatersSummary.Verdict(updater)
            let detail: String
            if let crash = updater.crash {
                detail = crash.message
            } else if updater.findings.isEmpty {
                detail = "\(updater.checked.count) properties held in every run"
            } else {
                detail = updater.findings.map { "\($0.property.rawValue) (\($0.failingRuns) runs)" }.joined(separator: ", ")
            }
            return (updater.name, verdict == .safe ? "safe" : verdict.rawValue.uppercased(), detail)
        }
        let nameWidth = max("updater".count, rows.map(\.0.count).max() ?? 0)
        let verdictWidth = max("verdict".count, rows.map(\.1.count).max() ?? 0)
        func line(_ a: String, _ b: String, _ c: String) -> String {
            a + String(repeating: " ", count: nameWidth - a.count) + "  " + b + String(repeating: " ", count: verdictWidth - b.count) + "  " + c
        }
        return ([line("updater", "verdict", "properties broken")] + rows.map { line($0.0, $0.1, $0.2) }).joined(separator: "\n") + "\n"
    }

    /// A finding: what broke, how often, and the shrunk run's timeline.
    static func describe(_ finding: UpdaterFindingsFile.Finding, of updater: String, runs: Int) -> String {
        """
        FINDING \(updater): \(finding.property.rawValue) — \(finding.property.meaning)
          broken in \(finding.failingRuns) of \(runs) runs; first by the run of seed \(finding.seed)
          shrunk to \(finding.script.requestCount) requests, \(finding.events.count) steps:

        """ + UpdaterTimeline.text(finding.events, failure: finding.failure, width: 100)
    }
}

/// An engine updaters diff with: a built-in engine, by name.
struct UpdaterEngine: Sendable {
    /// Its name (``DiffEngine/name``).
    var name: String
    /// The engine.
    var engine: any DiffEngine

    /// Every built-in engine, in the table's order (``BuiltInEngines``).
    static let all: [UpdaterEngine] = {
        var collector = Collector()
        BuiltInEngines.visitAll(&collector)
        return collector.engines
    }()

    /// The built-in engine named `name`, or `nil`.
    static func named(_ name: String) -> UpdaterEngine? { all.first { $0.name == name } }

    private struct Collector: BuiltInEngineVisitor {
        var engines: [UpdaterEngine] = []
        mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
            engines.append(UpdaterEngine(name: engine.name, engine: engine))
        }
    }
}
