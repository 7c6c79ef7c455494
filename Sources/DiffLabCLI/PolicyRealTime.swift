import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabPlatform
import DiffLabResults

/// `difflab policy real-time`: the policy lab on real threads in real time, a check on the
/// scenario grid's virtual-time simulation.
enum PolicyRealTimeCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let quick = Flag(
            "quick",
            help:
                "sizes \(sizesText(PolicyRealTimeCommand.defaultSizes.quick)) and \(formatPlain(PolicyRealTimeCommand.defaultDuration.quick)) s per run"
        )
        let policies = Option<[DiffPolicy]>.names("policies", noun: "policy", help: "diffing policies", defaultText: "all")
        let sizes = Option.sizes(
            "sizes", in: PolicyConfig.listSizeRange, most: BenchCommand.maxSizeCount, help: "list sizes",
            defaultText: sizesText(PolicyRealTimeCommand.defaultSizes.full))
        let interval = Option.number(
            "interval", "SECONDS", in: PolicyConfig.updateIntervalRange, default: 0.05, help: "seconds between updates")
        let frameRate = Option.number("frame-rate", "HZ", in: PolicyConfig.frameRateRange, default: 60, help: "display refresh rate")
        let frameWork = Option.number(
            "frame-work", "SECONDS", in: PolicyConfig.frameWorkRange, help: "main-thread work per frame",
            defaultText: "\(formatPlain(PolicyCosts.defaults.frameWork)), or the costs file's")
        let duration = Option.number(
            "duration", "SECONDS", in: PolicyConfig.durationRange, help: "seconds of updates per run",
            defaultText: PolicyRealTimeCommand.defaultDuration.text)
        let edits = Option.integer("edits", in: PolicyConfig.editsRange, default: PolicyRealTimeCommand.defaultEdits, help: "edits per update")
        let moves = Option<MoveStrategy>.choice("moves", "STRATEGY", default: .offsets, help: "which items move")
        let costs = Option.text("costs", "FILE", help: "modelled costs from a difflab-policy-costs/1 file (see difflab help policy)")
        let engine = Option.engine("engine", default: BuiltInEngines.Name.hashmap, help: "the diff engine")
        let backgroundEngine = Option.engine(
            "background-engine",
            help: "the engine of diffs off the main thread (default: --engine), e.g. hashmap-parallel, which uses every core for large lists")
        let out = Option.output(
            help: "results file: absent or a regular file, checked before the runs (exit 73 otherwise), written atomically after the "
                + "table is printed",
            defaultText: "results/policy-<time>.json")
        init() {}
    }

    /// `--sizes` when not given.
    static let defaultSizes = QuickDefault(full: [1_000, 10_000, 100_000, 1_000_000], quick: [1_000, 10_000, 100_000])
    /// `--edits` when not given.
    static let defaultEdits = 20
    /// `--duration` when not given: 3 seconds, 1.5 with `--quick`.
    static let defaultDuration = QuickDefault(full: 3.0, quick: 1.5)

    static let name = "policy real-time"
    static let abstract = "the policy lab on real threads in real time: a check on the grid"
    static var discussion: String {
        """
        Runs an app's main thread on a real thread drawing frames (per-frame work at 60 or 120 Hz) while a
        stream of list updates is diffed under each policy, with and without IGListKit's updater
        fallback (more than 100 changes → a full reload):
          main        diff synchronously on the main thread
          background  diff on a Dispatch queue, apply on main
          adaptive    main below maxItemCountToRunOnMain (10,000), else background
          coalescing  IGListKit's adaptive coalescing (50 ms, +25 ms, up to 250 ms), background diffs
        Diffs are real (the engine's cost is measured); frame work and apply costs are modelled
        (applying costs 1 ms plus 0.02 µs of layout per item, plus 2 µs per change, or 0.05 µs
        more per item for a full reload: see difflab policy --help); each update makes \(defaultEdits) random
        edits (inserts, deletes, moves, content updates).

        This is the real-time check on `difflab policy`'s scenario grid, which simulates the same
        model in virtual time: the same policies, IGListKit's coalescer and fallback rule, the
        same modelled costs, but real threads and real diffs timed as they run. Beside each run
        it prints (and writes) what the simulation predicts for it, from diff costs measured on
        the same lists: where the two disagree, the simulation's grid should not be trusted.

        Reports frames over budget, hitch time ratio (ms of frame time over budget per second),
        update latency p50/p99 (request → applied on main), coalesced updates, reloads and CPU,
        writes a JSON file, and names the crossover: the smallest list size at which background
        diffing beats main-thread diffing (a lower hitch time ratio) on this machine.

        Each run lasts the duration, then at most \(formatPlain(PolicyConfig.drainSeconds)) s more while the updates still pending
        are applied (plus one diff already under way); updates not applied by then are counted
        as dropped. Every size runs each policy twice: without and with the fallback.
        """
    }
    static let epilogue = """
        Progress bars are drawn only when standard error is a terminal; otherwise one line per
        size. A Ctrl-C ends the run at once, leaving no results file.
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        // The output is checked first: a bad path fails now, not after the runs.
        let out = try asCantCreate { () throws(OutputFileError) in
            try OutputFile(parsed[\.out] ?? "results/policy-\(timestamp()).json", option: "--out")
        }
        let plan = try Plan(parsed)
        var results: [PolicyResult] = []
        for size in plan.sizes {
            if !console.errIsTerminal { console.err("policy: \(size) items, \(plan.policies.count * 2) runs\n") }
            results += try runSize(size, plan, console: console, done: results.count)
        }
        let crossovers = (
            batch: PolicyAnalysis.realTimeCrossover(results, plan.sizes, fallback: false),
            reload: PolicyAnalysis.realTimeCrossover(results, plan.sizes, fallback: true)
        )
        console.out(table(results) + "\n\n")
        for (name, size) in [("batch updates", crossovers.batch), ("with the reload fallback", crossovers.reload)] {
            if let size {
                console.out("crossover (\(name)): background diffing beats main-thread diffing from \(size) items on this machine\n")
            } else {
                console.out(
                    "crossover (\(name)): background diffing did not beat main-thread diffing at any size tested (\(plan.sizes.map(String.init).joined(separator: ", ")))\n"
                )
            }
        }
        var file = PolicyResults()
        file.provenance = RunProvenance.current()
        file.crossover = PolicyCrossover(batch: crossovers.batch, reloadFallback: crossovers.reload)
        file.runs = results.map(\.runRecord)
        try asCantCreate { () throws(OutputFileError) in try out.write(file.json.serialized() + "\n") }
        console.out("results: \(out.path)\n")
        return .success
    }

    /// The real-time lab's options, parsed and checked.
    struct Plan {
        var policies = DiffPolicy.allCases
        var sizes: [Int]
        var interval: Double
        var frameRate: Double
        var frameWork: Double
        var duration: Double
        var edits: Int
        var moves = MoveStrategy.offsets
        var costs: PolicyCosts
        var engine: RegisteredEngine
        var backgroundEngine: RegisteredEngine?

        init(_ parsed: Parsed<Options>) throws(CommandError) {
            let quick = parsed[\.quick]
            if let named = parsed[\.policies] { policies = named }
            sizes = parsed[\.sizes] ?? PolicyRealTimeCommand.defaultSizes.value(quick: quick)
            interval = parsed.required(\.interval)
            frameRate = parsed.required(\.frameRate)
            costs = try parsed[\.costs].map { path throws(CommandError) in try PolicyCommand.readCosts(path) } ?? .defaults
            frameWork = parsed[\.frameWork] ?? costs.frameWork
            moves = parsed.required(\.moves)
            duration = parsed[\.duration] ?? PolicyRealTimeCommand.defaultDuration.value(quick: quick)
            engine = parsed.required(\.engine)
            backgroundEngine = parsed[\.backgroundEngine]
            edits = parsed.required(\.edits)
        }

        /// One run's settings.
        func config(_ policy: DiffPolicy, size: Int, fallback: Bool) throws(CommandError) -> PolicyConfig {
            var config = PolicyConfig(policy: policy, listSize: size, engine: engine.policy)
            config.backgroundEngine = backgroundEngine?.policy
            config.updateInterval = interval
            config.frameRate = frameRate
            config.costs = costs
            config.frameWork = frameWork
            config.moves = moves
            config.duration = duration
            config.allowsReloadingOnTooManyUpdates = fallback
            config.editsPerUpdate = edits
            do throws(ConfigurationError) { try config.validate() } catch { throw .usage("policy: \(error)") }
            return config
        }
    }

    /// Every policy at `size`, without and with the fallback, each with the simulation's
    /// prediction beside it (from diff costs measured on the same lists).
    static func runSize(_ size: Int, _ plan: Plan, console: Console, done: Int) throws(CommandError) -> [PolicyResult] {
        let versions = policyVersions(size: size, edits: plan.edits, count: policyProfileSpans[policyProfileSpans.count - 1] + 1)
        let profiles: (main: DiffCostProfile, background: DiffCostProfile)
        do throws(EngineFailure) {
            let main = try measureDiffProfiles(engine: plan.engine.policy, size: size, edits: plan.edits, strategies: [plan.moves], rounds: 1)
            let background =
                try plan.backgroundEngine.map { e throws(EngineFailure) in
                    try measureDiffProfiles(engine: e.policy, size: size, edits: plan.edits, strategies: [plan.moves], rounds: 1)
                } ?? main
            guard let m = main[plan.moves], let b = background[plan.moves] else { throw EngineFailure(.badAnswer, "no profile") }
            profiles = (m, b)
        } catch {
            throw CommandError(.failure, "policy: an engine failed: \(error)")
        }
        let total = plan.sizes.count * plan.policies.count * 2
        var results: [PolicyResult] = []
        for policy in plan.policies {
            for fallback in [false, true] {
                let config = try plan.config(policy, size: size, fallback: fallback)
                var result = runPolicy(config, versions: versions)
                // A failing engine has no figures worth reporting.
                if let failure = result.engineFailure {
                    throw CommandError(.failure, "policy: engine '\(plan.engine.name)' failed: \(failure)")
                }
                result.simulated = simulatePolicy(config, main: profiles.main, background: profiles.background)
                results.append(result)
                let count = done + results.count
                console.progress(count, total, "\(policy.rawValue)\(fallback ? "+reload" : "") \(size)", last: count == total)
            }
        }
        return results
    }

    /// The table of every run, with the simulation's prediction beside it.
    static func table(_ results: [PolicyResult]) -> String {
        var lines = [
            "policy       fallback  size      frames  over  hitch ms/s  latency p50   p99        applied  coalesced  reloads  dropped  CPU     simulated: hitch  p99"
        ]
        func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s + " " : s + String(repeating: " ", count: w - s.count) }
        for r in results {
            let l = r.latency
            lines.append(
                pad(r.config.policy.rawValue, 13) + pad(r.config.allowsReloadingOnTooManyUpdates ? "reload" : "-", 10)
                    + pad(String(r.config.listSize), 10) + pad(String(r.frames), 8) + pad(String(r.framesOverBudget), 6)
                    + pad(round2(r.hitchTimeRatio), 12) + pad(l.median.isNaN ? "–" : "\(round2(l.median * 1000)) ms", 14)
                    + pad(l.p99.isNaN ? "–" : "\(round2(l.p99 * 1000)) ms", 11) + pad("\(r.applied)/\(r.requested)", 9)
                    + pad(String(r.coalesced), 11) + pad(String(r.reloads), 9) + pad(String(r.dropped), 9)
                    + pad("\(round2(r.cpuUtilisation * 100))%", 8)
                    + pad(r.simulated.map { round2($0.hitchTimeRatio) } ?? "–", 17)
                    + (r.simulated.map { "\(round2($0.latencyP99 * 1000)) ms" } ?? "–"))
        }
        return lines.joined(separator: "\n")
    }
}
