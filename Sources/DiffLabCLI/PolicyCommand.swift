import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import DiffLabUpdaters

/// `difflab policy`: the scenario grid, its crossovers and recommendations (its subcommand
/// `policy real-time` is ``PolicyRealTimeCommand``).
enum PolicyCommand: DeclaredCommand {
    /// At most this many simulated events (frames and updates, over every run and repeat): about
    /// 30 times the full grid's 0.13 billion, some ten minutes here.
    static let maxEvents = 4_000_000_000.0
    /// At most this much diffing to measure the profiles, in items handled (list items plus
    /// edits, over every diff): about 60 times the full grid's 0.35 billion, some ten minutes
    /// here. The lists kept are bounded by the sizes' range (7 versions of at most 10^7 items).
    static let maxDiffWork = 20_000_000_000.0
    /// At most this many values in each list option.
    static let maxListCount = 16

    struct Options: DeclaredOptions {
        let quick = Flag(
            "quick",
            help: "sizes \(sizesText(PolicyGrid.quick.sizes)); intervals \(PolicyCommand.intervalsText(PolicyGrid.quick.intervals)); "
                + "\(PolicyCommand.defaultRepeats.quick) repeats of \(formatPlain(PolicyCommand.defaultDuration.quick)) s")
        let recommend = Flag("recommend", help: "print the recommendation table")
        let sizes = Option.sizes(
            "sizes", in: PolicyConfig.listSizeRange, most: PolicyCommand.maxListCount, help: "list sizes",
            defaultText: sizesText(PolicyGrid.full.sizes))
        let frameRates = Option<[Double]>.list(
            "frame-rates", help: "display refresh rates, Hz", constraint: "each \(rangeText(PolicyConfig.frameRateRange))",
            defaultText: PolicyGrid.full.frameRates.map(formatPlain).joined(separator: ",")
        ) { t throws(CommandError) in try parseNumber(t, "--frame-rates", in: PolicyConfig.frameRateRange) }
        let intervals = Option<[PolicyUpdateInterval]>.list(
            "intervals", help: "seconds between updates, or `frame` (one update per frame)",
            constraint: "each frame or \(rangeText(PolicyConfig.updateIntervalRange))",
            defaultText: PolicyCommand.intervalsText(PolicyGrid.full.intervals)
        ) { t throws(CommandError) -> PolicyUpdateInterval in
            t == "frame" ? .everyFrame : .seconds(try parseNumber(t, "--intervals", in: PolicyConfig.updateIntervalRange))
        }
        let edits = Option<[Double]>.list(
            "edits", help: "edits per update, % of the list (at least one edit)", constraint: "each \(rangeText(PolicyCommand.editShareRange))",
            defaultText: PolicyGrid.full.editShares.map { formatPlain($0 * 100) }.joined(separator: ",")
        ) { t throws(CommandError) in try parseNumber(t, "--edits", in: PolicyCommand.editShareRange) / 100 }
        let policies = Option<[DiffPolicy]>.names("policies", noun: "policy", help: "diffing policies", defaultText: "all")
        let moves = Option<[MoveStrategy]>.names("moves", noun: "move strategy", help: "move strategies", defaultText: "both")
        let adaptiveThresholds = Option.sizes(
            "adaptive-thresholds", in: PolicyConfig.listSizeRange, most: PolicyCommand.maxListCount, help: "maxItemCountToRunOnMain values",
            defaultText: sizesText(PolicyGrid.full.adaptiveThresholds))
        let coalescing = Option<[CoalescingIntervals]>.list(
            "coalescing", help: "coalescing intervals MIN/INCREMENT/MAX seconds, MIN ≤ MAX",
            constraint: "each value \(rangeText(PolicyConfig.coalescingRange))",
            defaultText: PolicyGrid.full.coalescing.map(PolicyCommand.coalescingText).joined(separator: ","),
            element: PolicyPlan.parseCoalescing)
        let reloadThresholds = Option<[Int?]>.list(
            "reload-thresholds", help: "`none` or the changes above which an update is a full reload (IGListKit: 100)",
            constraint: "each none or \(rangeText(PolicyConfig.editsRange))",
            defaultText: PolicyGrid.full.reloadThresholds.map { $0.map(String.init) ?? "none" }.joined(separator: ",")
        ) { t throws(CommandError) -> Int? in t == "none" ? nil : try parseInteger(t, "--reload-thresholds", in: PolicyConfig.editsRange) }
        let repeats = Option.integer(
            "repeats", in: PolicyGridSpec.repeatsRange, help: "repeats of every run", defaultText: PolicyCommand.defaultRepeats.text)
        let duration = Option.number(
            "duration", "SECONDS", in: PolicyConfig.durationRange, help: "virtual seconds of updates per run",
            defaultText: PolicyCommand.defaultDuration.text)
        let latencyBound = Option.number(
            "latency-bound", "SECONDS", in: PolicyCommand.latencyBoundRange, default: 0.25, help: "p99 update latency a recommendation may have")
        let costs = Option.text(
            "costs", "FILE", help: "modelled costs, JSON",
            details: """
                {"schema":"\(PolicyCostsRecord.schema)", "applyBaseCost": s, "layoutCostPerItem": s, "batchCostPerChange": s, "reloadCostPerItem": s, "frameWork": s, "device": "..."}: every member optional but schema, each cost \(rangeText(PolicyCosts.range)) s; an unknown member or bad value exits 65. Defaults and their sources:
                \(PolicyCommand.costsHelp)
                """)
        let engine = Option.engine("engine", default: BuiltInEngines.Name.hashmap, help: "the diff engine")
        let backgroundEngine = Option.engine("background-engine", help: "the engine of diffs off the main thread (default: --engine)")
        let trace = Option.text(
            "trace", "FILE",
            help: "simulate a recorded trace (difflab-trace/1) instead of the generated workloads: its versions, list sizes, edits and "
                + "update times, each diff costing what the engine takes on those two versions (see TRACES)")
        let timeScale = Option.number(
            "time-scale", "X", in: PolicyCommand.timeScaleRange, help: "--trace: multiply the recorded gaps between versions by X",
            defaultText: "\(formatPlain(PolicyCommand.defaultTimeScale)), unless --median-interval or --interval")
        let medianInterval = Option.number(
            "median-interval", "SECONDS", in: PolicyConfig.updateIntervalRange,
            help: "--trace: scale the recorded gaps so that their median is SECONDS (0.05: what if these updates came every 50 ms)")
        let interval = Option.number(
            "interval", "SECONDS", in: PolicyConfig.updateIntervalRange,
            help: "--trace: one update every SECONDS, the recorded times ignored (a trace without times needs it)")
        let maxGap = Option.number(
            "max-gap", "SECONDS", in: PolicyCommand.maxGapRange, default: 10,
            help: "--trace: a longer gap between two updates is shortened to SECONDS (idle frames only; see TRACES)")
        let out = Option.output(
            help: "results file: absent or a regular file, checked before the runs (exit 73 otherwise)", defaultText: "results/policy-<time>.json")
        init() {}
    }

    static let name = "policy"
    static let abstract = "which diffing policy, move strategy and thresholds: a scenario grid"
    static let discussion = """
        Answers: which policy, move strategy and thresholds keep my list smooth? For every
        workload (list size × frame rate × update interval × edits per update) it simulates every
        setting (policy × move strategy × adaptive threshold × coalescing intervals × reload
        fallback) on a modelled main thread drawing frames:
          main        diff synchronously on the main thread
          background  diff on a serial background queue, apply on main
          adaptive    main below maxItemCountToRunOnMain items, else background (IGListKit)
          coalescing  IGListKit's adaptive coalescer, background diffs
        Diff costs are measured: the real engine diffs real lists (versions 1 to 32 updates apart,
        both move strategies, one round per repeat, interleaved). Applying an update and the
        app's per-frame work are modelled costs (--costs). Runs are simulated in virtual time, so
        the grid (thousands of runs) takes minutes; `difflab policy real-time` runs the same model
        on real threads as a check (see difflab help policy real-time).

        Prints and writes (JSON, schema difflab-policy/2):
          - crossovers: the smallest list size from which background diffing clearly beats main
            (per frame rate, move strategy and fallback), with its range over the repeats, or
            "no clear crossover" when the repeats disagree;
          - recommendations (--recommend prints them): per list-size band and frame rate, the
            setting with the least hitch time whose p99 update latency stays within
            --latency-bound and that drops no update, with the runner-up of another policy.

        With --trace FILE a recorded trace is the workload instead: its own versions, list sizes,
        edits and update times, each diff costing what the engine takes on the two versions it
        diffs; it prints each setting's outcome and, with --recommend, the answer for that trace
        (see TRACES).
        """
    static var epilogue: String {
        """
        A grid larger than \(Int(maxEvents / 1e9)) billion simulated frames and updates, or whose diff costs would take
        more than \(Int(maxDiffWork / 1e9)) billion items of diffing to measure, is refused (exit 64).

        TRACES
          With --trace FILE the workload is a recorded trace (difflab trace makes one), not generated
          lists: its versions, in order, are the updates, with the sizes and edits they recorded.
          Version 0 is on screen when the run starts; every later version is one update request, the
          first at 0 s, each next one after the gap between the two versions' timestampMs: times
          --time-scale X (default \(formatPlain(defaultTimeScale))), or scaled so that the gaps' median is --median-interval
          SECONDS (keeping their rhythm), or every --interval SECONDS (the times ignored; a trace
          without times needs it, else exit 64); at most one of the three. A gap longer than
          --max-gap is shortened to it: in a quiet spell the app draws idle frames within budget
          and nothing else, so a longer gap only adds frames to simulate (and lowers the hitch
          time ratio, which is per second of the run).
          Each diff the simulation makes, from the version on screen to the update's last request's,
          costs what the engine measured on those two versions (their items as identifier and
          content indices, sections flattened), with the changes and batch changes of the real
          result: every consecutive pair first, then the wider pairs of coalesced updates when
          first needed, each once per engine and move strategy, a repeat's cost being the median
          of \(PolicyTraceSpec.defaultSamples) calls (repeat r simulates with round r). Every setting (--policies, --moves,
          --adaptive-thresholds, --coalescing, --reload-thresholds) runs at every --frame-rates;
          --quick means \(defaultRepeats.quick) repeats; --sizes, --intervals, --edits and --duration do not apply (exit
          64). It prints each setting's outcome per frame rate (hitch time ratio, latency p50 and
          p99, dropped, coalesced and reloaded updates; medians over the repeats) and, with
          --recommend, the recommendation for this trace (the rule above; the band is the trace's
          own list sizes). The results file names the trace and its provenance (trace), how it was
          timed (traceStream) and every pair measured (tracePairs); difflab report shows them. A
          trace whose consecutive pairs alone would take more than \(Int(maxDiffWork / 1e9)) billion items of diffing
          to measure, or more than \(Int(maxEvents / 1e9)) billion simulated frames and updates (10 million per run), is
          refused (exit 64); a run whose coalesced updates' pairs pass that limit stops (exit 64). A
          call of an engine whose time grows with the lists times the edit distance (myers,
          stdlib: a Myers search) counts as that product, the distance bounded by a linear diff
          of the pair; a pair on which it could pass \(formatPlain(PolicyTraceSpec.defaultMaxCallWork)) steps is refused (exit 64).
          A malformed trace exits 65, a missing one 66; an engine that fails on a pair exits 1.
        """
    }

    /// The costs' defaults and sources, for the help.
    static var costsHelp: String {
        PolicyCosts.parameters.map { "  \($0.name) = \($0.value): \($0.source)" }.joined(separator: "\n")
    }

    /// `--repeats` when not given: 5, 3 with `--quick` (also for `--trace`).
    static let defaultRepeats = QuickDefault(full: 5, quick: 3)
    /// `--duration` when not given: 30 virtual seconds, 10 with `--quick`.
    static let defaultDuration = QuickDefault(full: 30.0, quick: 10.0)
    /// `--time-scale` when none of `--time-scale`, `--median-interval` and `--interval` is given.
    static let defaultTimeScale = 1.0

    /// `frame,0.05,0.25`: update intervals as `--intervals` takes them.
    static func intervalsText(_ intervals: [PolicyUpdateInterval]) -> String {
        intervals.map { interval in
            switch interval {
            case .everyFrame: "frame"
            case .seconds(let seconds): formatPlain(seconds)
            }
        }.joined(separator: ",")
    }

    /// `0.05/0.025/0.25`: one set of coalescing intervals as `--coalescing` takes it.
    static func coalescingText(_ intervals: CoalescingIntervals) -> String {
        [intervals.minimum, intervals.increment, intervals.maximum].map(formatPlain).joined(separator: "/")
    }

    /// Edits per update, % of the list: 0.0001 to 100.
    static let editShareRange: ClosedRange<Double> = 0.0001...100
    /// The latency bound: 1 ms to 1 hour.
    static let latencyBoundRange: ClosedRange<Double> = 0.001...3600
    /// `--time-scale`: 10^-12 (a day's gap becomes 86 ns) to 10^9.
    static let timeScaleRange: ClosedRange<Double> = 1e-12...1e9
    /// `--max-gap`: 1 ms to 1 hour.
    static let maxGapRange: ClosedRange<Double> = 0.001...3600

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let out = try asCantCreate { () throws(OutputFileError) in
            try OutputFile(parsed[\.out] ?? "results/policy-\(timestamp()).json", option: "--out")
        }
        if let trace = parsed[\.trace] { return try PolicyTraceCommand.run(trace, parsed, out: out, console: console) }
        let traceOnly: [(String, Bool)] = [
            ("--time-scale", parsed.isGiven(\.timeScale)), ("--median-interval", parsed.isGiven(\.medianInterval)),
            ("--interval", parsed.isGiven(\.interval)), ("--max-gap", parsed.isGiven(\.maxGap)),
        ]
        if let (option, _) = traceOnly.first(where: \.1) {
            throw .usage("policy: \(option) applies only with --trace (see TRACES in 'difflab help policy')")
        }
        let plan = try PolicyPlan(parsed)
        let outcome: (profiles: [PolicyProfileRow], runs: [PolicyGridRun])
        do throws(EngineFailure) {
            outcome = try runPolicyGrid(plan.spec) { line in console.err(line + "\n") }
        } catch {
            throw CommandError(.failure, "policy: an engine failed: \(error)")
        }
        var file = PolicyGridResults()
        file.provenance = RunProvenance.current()
        file.options = PolicyGridOptions(
            duration: plan.spec.duration, drainSeconds: PolicyConfig.drainSeconds, repeats: plan.spec.repeats, latencyBound: plan.latencyBound,
            engine: plan.spec.engine.name, backgroundEngine: plan.spec.backgroundEngine?.name, quick: plan.quick)
        file.costs = plan.spec.costs.record(source: plan.costsSource, device: plan.costsDevice)
        file.profiles = outcome.profiles
        file.runs = outcome.runs
        file.crossovers = PolicyAnalysis.crossovers(outcome.runs)
        // Correctness before speed: each setting's updater is checked under the scheduler, and
        // one that breaks a property is never recommended.
        let exclusions = PolicyUpdaterCheck.exclusions(for: outcome.runs.map(\.setting))
        file.recommendations = PolicyAnalysis.recommendations(outcome.runs, latencyBound: plan.latencyBound, exclusions: exclusions)
        console.out(PolicyUpdaterCheck.summary(settings: Set(outcome.runs.map(\.setting)).count, exclusions: exclusions.count) + "\n")
        console.out(PolicyText.crossovers(file.crossovers) + "\n")
        if parsed[\.recommend] {
            console.out(PolicyText.recommendations(file.recommendations) + "\n")
        } else {
            console.out("\(file.recommendations.count) recommendations written (--recommend prints them)\n")
        }
        try asCantCreate { () throws(OutputFileError) in try out.write(file.json.serialized() + "\n") }
        console.out("results: \(out.path)\n")
        return .success
    }

    /// Reads a `difflab-policy-costs/1` file into costs (defaults for the members it leaves out).
    ///
    /// - Throws: exit 66 when unreadable, 65 for malformed JSON, a wrong schema, an unknown
    ///   member or a cost of the wrong type or out of range (naming the file and the member).
    static func readCosts(_ path: String) throws(CommandError) -> PolicyCosts {
        try readCostsRecord(path).costs
    }

    /// ``readCosts(_:)`` with the file's device note.
    static func readCostsRecord(_ path: String) throws(CommandError) -> (costs: PolicyCosts, device: String?) {
        let document = try readJSON(path)
        do throws(ResultsError) {
            let record = try PolicyCostsRecord(costsFile: document, source: path)
            return (PolicyCosts(record), record.device)
        } catch {
            throw .data(error.description)
        }
    }
}

/// `difflab policy`'s options, parsed and checked.
struct PolicyPlan {
    var spec: PolicyGridSpec
    var latencyBound: Double
    var quick: Bool
    var costsSource = "defaults"
    var costsDevice: String?

    init(_ parsed: Parsed<PolicyCommand.Options>) throws(CommandError) {
        quick = parsed[\.quick]
        var grid = quick ? PolicyGrid.quick : PolicyGrid.full
        try Self.readGridLists(parsed, into: &grid)
        let engine = parsed.required(\.engine).policy
        let background = parsed[\.backgroundEngine]?.policy
        if !engine.derivesMoves || background.map({ !$0.derivesMoves }) == true {
            // A result-level engine has its own moves: one strategy stands for them.
            grid.moveStrategies = [.offsets]
        }
        let repeats = parsed[\.repeats] ?? PolicyCommand.defaultRepeats.value(quick: quick)
        let duration = parsed[\.duration] ?? PolicyCommand.defaultDuration.value(quick: quick)
        latencyBound = parsed.required(\.latencyBound)
        var costs = PolicyCosts.defaults
        if let path = parsed[\.costs] {
            let record = try PolicyCommand.readCostsRecord(path)
            (costs, costsSource, costsDevice) = (record.costs, path, record.device)
        }
        spec = PolicyGridSpec(grid: grid, costs: costs, engine: engine, backgroundEngine: background, repeats: repeats, duration: duration)
        try Self.checkSize(spec)
    }

    /// The grid's list options, each replacing the default when given (each value once).
    static func readGridLists(_ parsed: Parsed<PolicyCommand.Options>, into grid: inout PolicyGrid) throws(CommandError) {
        if let sizes = parsed[\.sizes] { grid.sizes = sizes }
        if let rates = parsed[\.frameRates] { grid.frameRates = deduplicated(rates) }
        if let intervals = parsed[\.intervals] { grid.intervals = deduplicated(intervals) }
        if let edits = parsed[\.edits] { grid.editShares = deduplicated(edits) }
        if let policies = parsed[\.policies] { grid.policies = policies }
        if let moves = parsed[\.moves] { grid.moveStrategies = moves }
        if let thresholds = parsed[\.adaptiveThresholds] { grid.adaptiveThresholds = thresholds }
        if let coalescing = parsed[\.coalescing] { grid.coalescing = deduplicated(coalescing) }
        if let thresholds = parsed[\.reloadThresholds] { grid.reloadThresholds = deduplicated(thresholds) }
    }

    /// `MIN/INCREMENT/MAX`, seconds.
    static func parseCoalescing(_ text: String) throws(CommandError) -> CoalescingIntervals {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw .usage("--coalescing expects MIN/INCREMENT/MAX seconds (got '\(text)')") }
        let range = PolicyConfig.coalescingRange
        let (minimum, increment, maximum) = (
            try parseNumber(parts[0], "--coalescing", in: range), try parseNumber(parts[1], "--coalescing", in: range),
            try parseNumber(parts[2], "--coalescing", in: range)
        )
        guard minimum <= maximum else { throw .usage("--coalescing expects MIN ≤ MAX (got '\(text)')") }
        return CoalescingIntervals(minimum: minimum, increment: increment, maximum: maximum)
    }

    /// Refuses a grid of more than ``PolicyCommand/maxEvents`` simulated frames and updates.
    static func checkSize(_ spec: PolicyGridSpec) throws(CommandError) {
        let grid = spec.grid
        guard !grid.sizes.isEmpty, !grid.frameRates.isEmpty, !grid.intervals.isEmpty, !grid.editShares.isEmpty, !grid.policies.isEmpty,
            !grid.moveStrategies.isEmpty, !grid.reloadThresholds.isEmpty
        else { throw .usage("policy: every list option needs at least one value") }
        let settings = Double(grid.settings.count)
        var events = 0.0
        for workload in grid.workloads {
            let perRun = (spec.duration + PolicyConfig.drainSeconds) * workload.frameRate + spec.duration / workload.updateInterval
            events += perRun * settings * Double(spec.repeats)
        }
        guard events <= PolicyCommand.maxEvents else {
            throw .usage(
                "policy: the grid asks for \(formatPlain(events.rounded())) simulated frames and updates; at most \(formatPlain(PolicyCommand.maxEvents)) (fewer sizes, rates, intervals, settings, repeats or a shorter --duration)"
            )
        }
        // Measuring: per list shape and engine, each strategy diffs the 6 spans once to count and
        // once per repeat, each diff handling about the list and the span's edits.
        let engines = spec.backgroundEngine.map { $0.name == spec.engine.name ? 1.0 : 2.0 } ?? 1
        var shapes: Set<[Int]> = []
        var work = 0.0
        for workload in grid.workloads where shapes.insert([workload.listSize, workload.editsPerUpdate]).inserted {
            let perDiff = policyProfileSpans.reduce(0.0) { $0 + Double(workload.listSize) + Double($1) * Double(workload.editsPerUpdate) }
            work += engines * Double(grid.moveStrategies.count) * Double(1 + spec.repeats) * perDiff
        }
        guard work <= PolicyCommand.maxDiffWork else {
            throw .usage(
                "policy: measuring the diff costs would handle \(formatPlain(work.rounded())) items; at most \(formatPlain(PolicyCommand.maxDiffWork)) (fewer or smaller sizes, fewer edit shares or repeats)"
            )
        }
    }
}

/// The text `difflab policy` prints.
enum PolicyText {
    /// One line per crossover.
    static func crossovers(_ rows: [PolicyCrossoverRow]) -> String {
        var lines = ["crossovers (background diffing clearly beats main from):"]
        for row in rows {
            let mode = "\(formatPlain(row.frameRate)) Hz, \(row.moves), " + (row.reloadThreshold.map { "reload >\($0)" } ?? "no reload")
            let verdict: String
            switch row.verdict {
            case .clear:
                let above = row.low.map { "above \($0) and " } ?? ""
                verdict = above + "at most \(row.high ?? 0) items (median of \(row.repeats) repeats: \(row.size ?? 0))"
            case .belowSmallest:
                verdict = "at or below \(row.size ?? 0) items, the smallest size run (every repeat)"
            case .noClearCrossover:
                verdict = "no clear crossover (\(row.repeatsWithCrossover) of \(row.repeats) repeats found one: within the noise)"
            case .none:
                verdict = "none: background never clearly beat main at the sizes run"
            }
            lines.append("  \(mode): \(verdict)")
        }
        return lines.joined(separator: "\n")
    }

    /// The recommendation table, under `title`.
    static func recommendations(
        _ rows: [PolicyRecommendationRow], title: String = "recommendations (least hitch time with p99 latency within the bound, nothing dropped):"
    ) -> String {
        var lines = [title]
        for row in rows {
            let band = "\(row.bandLow)–\(row.bandHigh) items, \(formatPlain(row.frameRate)) Hz"
            func evidence(_ c: PolicyCandidateRow) -> String {
                "\(c.setting.label): hitch \(round2(c.hitchTimeRatio)) ms/s (\(round2(c.hitchLow))–\(round2(c.hitchHigh))), p99 \(round2(c.latencyP99 * 1000)) ms"
            }
            if let winner = row.winner {
                lines.append("  \(band): \(evidence(winner))")
            } else {
                lines.append("  \(band): none keeps p99 ≤ \(round2(row.latencyBound * 1000)) ms without dropping updates")
            }
            if let runnerUp = row.runnerUp {
                lines.append("      \(row.winner == nil ? "lowest latency" : "runner-up"): \(evidence(runnerUp))")
            }
            lines.append("      \(row.feasible) of \(row.candidates) settings within the bound")
            for exclusion in row.excluded {
                lines.append(
                    "      not recommended: \(exclusion.setting.label): its updater (\(exclusion.updater)) breaks \(exclusion.property.rawValue): \(exclusion.message)"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}
