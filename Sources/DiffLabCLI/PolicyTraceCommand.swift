import DiffLabBench
import DiffLabCore
import DiffLabFormatting
import DiffLabResults

/// `difflab policy --trace FILE`: the policy lab on a recorded trace (see TRACES in
/// `difflab help policy`). Parses and checks the options, runs ``runPolicyTrace(_:progress:)``,
/// prints and writes the results.
enum PolicyTraceCommand {
    static func run(_ path: String, _ parsed: Parsed<PolicyCommand.Options>, out: OutputFile, console: Console) throws(CommandError) -> ExitStatus {
        let refused: [(String, Bool)] = [
            ("--sizes", parsed.isGiven(\.sizes)), ("--intervals", parsed.isGiven(\.intervals)), ("--edits", parsed.isGiven(\.edits)),
            ("--duration", parsed.isGiven(\.duration)),
        ]
        if let (option, _) = refused.first(where: \.1) {
            throw .usage("policy: \(option) does not apply to --trace (see TRACES in 'difflab help policy')")
        }
        let given = [
            ("--time-scale", parsed.isGiven(\.timeScale)), ("--median-interval", parsed.isGiven(\.medianInterval)),
            ("--interval", parsed.isGiven(\.interval)),
        ]
        .filter(\.1).map(\.0)
        guard given.count <= 1 else {
            throw .usage("policy: give at most one of --time-scale, --median-interval and --interval (got \(given.joined(separator: ", ")))")
        }
        let trace = try readTrace(path)
        guard trace.versions.count >= 2 else {
            throw .data("\(path): \(trace.versions.count) version; a policy run needs at least two (one update)")
        }
        let timing: PolicyTraceTiming
        if let seconds = parsed[\.interval] {
            timing = .interval(seconds)
        } else if let seconds = parsed[\.medianInterval] {
            timing = .medianInterval(seconds)
        } else if trace.hasTimestamps || parsed.isGiven(\.timeScale) {
            timing = .recorded(timeScale: parsed[\.timeScale] ?? PolicyCommand.defaultTimeScale)
        } else {
            throw .usage("policy: \(path) has no times (timestampMs): give --interval SECONDS (one update every SECONDS)")
        }
        let timed: (stream: PolicyStream, record: PolicyTraceStreamRecord)
        do throws(PolicyTraceTimingError) {
            timed = try traceStream(trace, timing: timing, maxGap: parsed.required(\.maxGap))
        } catch {
            throw .usage("policy: \(path): \(error)\(trace.hasTimestamps ? "" : "; give --interval SECONDS")")
        }
        let plan = try Plan(parsed, trace: trace, stream: timed.stream)
        let sizes = trace.versions.map(\.items.count)
        let sizeRange = (sizes.min() ?? 0)...(sizes.max() ?? 0)
        console.err(
            "policy: \(path): \(Text.updates(timed.stream.count)) over \(formatSignificant(timed.record.seconds)) s, \(plan.spec.settings.count) settings\n"
        )
        let outcome: PolicyTraceOutcome
        do throws(PolicyTraceFailure) {
            outcome = try runPolicyTrace(plan.spec) { line in console.err(line + "\n") }
        } catch {
            if case .engine = error { throw CommandError(.failure, "policy: \(error)") }
            throw .usage("policy: \(error)" + advice(error))
        }
        var file = PolicyGridResults()
        file.provenance = RunProvenance.current()
        file.options = PolicyGridOptions(
            duration: timed.record.seconds, drainSeconds: PolicyConfig.drainSeconds, repeats: plan.spec.repeats, latencyBound: plan.latencyBound,
            engine: plan.spec.engine.name, backgroundEngine: plan.spec.backgroundEngine?.name, quick: parsed[\.quick])
        file.costs = plan.spec.costs.record(source: plan.costsSource, device: plan.costsDevice)
        file.trace = TraceWorkload(trace, file: path)
        file.traceStream = timed.record
        file.tracePairs = outcome.pairs
        file.runs = outcome.runs
        let exclusions = PolicyUpdaterCheck.exclusions(for: outcome.runs.map(\.setting))
        file.recommendations = PolicyAnalysis.traceRecommendations(
            outcome.runs, latencyBound: plan.latencyBound, sizes: sizeRange, exclusions: exclusions)
        console.out(PolicyUpdaterCheck.summary(settings: Set(outcome.runs.map(\.setting)).count, exclusions: exclusions.count) + "\n")
        console.out(Text.header(file, sizes: sizeRange) + "\n")
        console.out(Text.outcomes(file.runs) + "\n")
        if parsed[\.recommend] {
            console.out(
                PolicyText.recommendations(
                    file.recommendations,
                    title: "recommendation for this trace (least hitch time with p99 latency within the bound, nothing dropped):")
                    + "\n")
        } else {
            console.out("\(file.recommendations.count) recommendations written (--recommend prints them)\n")
        }
        try asCantCreate { () throws(OutputFileError) in try out.write(file.json.serialized() + "\n") }
        console.out("results: \(out.path)\n")
        return .success
    }

    /// What to do about a measuring limit.
    static func advice(_ failure: PolicyTraceFailure) -> String {
        switch failure {
        case .engine: ""
        case .workLimit: " (a shorter trace, fewer repeats, engines or move strategies)"
        case .callLimit: " (a linear engine such as hashmap or heckel)"
        }
    }

    /// The options of a trace run, parsed and checked: the grid's settings and frame rates, the
    /// engines, repeats, costs and bound.
    struct Plan {
        var spec: PolicyTraceSpec
        var latencyBound: Double
        var costsSource = "defaults"
        var costsDevice: String?

        init(_ parsed: Parsed<PolicyCommand.Options>, trace: Trace, stream: PolicyStream) throws(CommandError) {
            var grid = PolicyGrid.full
            try PolicyPlan.readGridLists(parsed, into: &grid)
            let engine = parsed.required(\.engine)
            let background = parsed[\.backgroundEngine]
            if !engine.policy.derivesMoves || background.map({ !$0.policy.derivesMoves }) == true {
                // A result-level engine has its own moves: one strategy stands for them.
                grid.moveStrategies = [.offsets]
            }
            guard !grid.frameRates.isEmpty, !grid.policies.isEmpty, !grid.moveStrategies.isEmpty, !grid.reloadThresholds.isEmpty else {
                throw .usage("policy: every list option needs at least one value")
            }
            latencyBound = parsed.required(\.latencyBound)
            var costs = PolicyCosts.defaults
            if let path = parsed[\.costs] {
                let record = try PolicyCommand.readCostsRecord(path)
                (costs, costsSource, costsDevice) = (record.costs, path, record.device)
            }
            spec = PolicyTraceSpec(
                trace: trace, stream: stream, frameRates: grid.frameRates, settings: grid.settings, costs: costs, engine: engine.policy,
                backgroundEngine: background?.policy, repeats: parsed[\.repeats] ?? PolicyCommand.defaultRepeats.value(quick: parsed[\.quick]),
                maxDiffWork: PolicyCommand.maxDiffWork)
            // The benchmark's quadratic growth marks a Myers search (and any engine that says nothing).
            spec.editDistanceEngines = Set(([engine] + (background.map { [$0] } ?? [])).filter { EditDistanceGuard.bounds($0.bench) }.map(\.name))
            try check()
        }

        /// Refuses a run of more than ``PolicyCommand/maxEvents`` simulated frames and updates (or
        /// 10 million frames in one run), or whose consecutive pairs alone would take more than
        /// ``PolicyCommand/maxDiffWork`` items of diffing to measure, or a call of an edit-distance
        /// engine over ``PolicyTraceSpec/maxCallWork`` steps.
        func check() throws(CommandError) {
            guard spec.framesPerRun <= 1e7, spec.events <= PolicyCommand.maxEvents else {
                throw .usage(
                    "policy: the trace asks for \(formatPlain(spec.events.rounded())) simulated frames and updates (\(formatPlain(spec.framesPerRun.rounded())) frames per run); "
                        + "at most \(formatPlain(PolicyCommand.maxEvents)), and 10000000 per run (a smaller --max-gap or --time-scale, fewer rates, settings or repeats)"
                )
            }
            do throws(PolicyTraceFailure) { _ = try spec.consecutiveWork() } catch {
                throw .usage("policy: before measuring: \(error)" + PolicyTraceCommand.advice(error))
            }
        }
    }

    /// What a trace run prints.
    enum Text {
        /// The trace, its stream and what was measured.
        static func header(_ file: PolicyGridResults, sizes: ClosedRange<Int>) -> String {
            guard let trace = file.trace, let stream = file.traceStream else { return "" }
            let timing: String
            switch stream.timing {
            case .recorded: timing = "the recorded gaps × \(formatSignificant(stream.timeScale ?? 1))"
            case .medianInterval: timing = "the recorded gaps × \(formatSignificant(stream.timeScale ?? 1)), their median made the interval asked for"
            case .interval: timing = "one every \(formatPlain(stream.interval ?? 0)) s"
            }
            let gaps = stream.shortenedGaps == 1 ? "1 gap" : "\(stream.shortenedGaps) gaps"
            let shortened = stream.shortenedGaps == 0 ? "" : "; \(gaps) over \(formatPlain(stream.maxGap)) s shortened to it"
            var engines: [String] = []
            for row in file.tracePairs where !engines.contains(row.engine) { engines.append(row.engine) }
            return [
                "trace \(trace.file): \(trace.provenance.source)",
                "  \(trace.versions) versions of \(sizes.lowerBound)–\(sizes.upperBound) items: \(updates(stream.requests)) over \(formatSignificant(stream.seconds)) s "
                    + "(\(timing); median gap \(formatSignificant(stream.medianGap)) s\(shortened))",
                "  \(file.tracePairs.count) pairs of versions measured (\(engines.joined(separator: ", ")); per engine and move strategy), "
                    + "\(file.options?.repeats ?? 0) repeats of \(PolicyTraceSpec.defaultSamples) calls each",
            ].joined(separator: "\n")
        }

        /// `1 update`, `65 updates`.
        static func updates(_ count: Int) -> String { count == 1 ? "1 update" : "\(formatGrouped(count)) updates" }

        /// Each setting's outcome per frame rate: medians over the repeats.
        static func outcomes(_ runs: [PolicyGridRun]) -> String {
            func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count) }
            func middle(_ values: [Double]) -> Double { median(values) ?? 0 }
            func middle(_ values: [Int]) -> String { formatPlain(middle(values.map(Double.init))) }
            let width = max(40, (runs.map(\.setting.label.count).max() ?? 0) + 2)
            var lines = ["outcomes (medians over the repeats; hitch ms of frame time over budget per second):"]
            var rate: Double?
            for run in runs {
                if run.workload.frameRate != rate {
                    rate = run.workload.frameRate
                    lines.append("  \(formatPlain(run.workload.frameRate)) Hz")
                    lines.append(
                        "    " + pad("setting", width) + pad("hitch", 9) + pad("p50 ms", 9) + pad("p99 ms", 9) + pad("dropped", 9)
                            + pad("coalesced", 11)
                            + "reloads")
                }
                lines.append(
                    "    " + pad(run.setting.label, width) + pad(round2(middle(run.hitchTimeRatio)), 9)
                        + pad(round2(middle(run.latencyMedian) * 1000), 9)
                        + pad(round2(middle(run.latencyP99) * 1000), 9) + pad(middle(run.dropped), 9) + pad(middle(run.coalesced), 11)
                        + middle(run.reloads))
            }
            return lines.joined(separator: "\n")
        }
    }
}
