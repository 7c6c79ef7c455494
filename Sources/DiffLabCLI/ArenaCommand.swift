import DiffLabBatch
import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// `difflab arena`: judges engines side by side — every contestant fuzzed for the same time on
/// the same seed (each in a process of its own), then benchmarked together in one run — and
/// writes one `difflab-arena/1` results file (``ArenaResults``) that `difflab report` reads.
///
/// Made for comparing libraries: a runner that registers adapters of other libraries (with
/// ``ChangesetEngine/about``) gets their versions, builds and promise sources into the file.
enum ArenaCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let engines = Option.engines(
            help: "the contestants",
            defaultText: "every engine this runner registered beyond DiffLab's, every --engine-command engine, and "
                + proseList(ArenaCommand.difflabDefaults))
        let baselines = Option.engines(
            "baselines", help: "the engines the report's speed ratios divide by, each a contestant",
            defaultText: "\(BuiltInEngines.arenaBaseline), when a contestant")
        let fuzzSeconds = Option.number(
            "fuzz-seconds", "S", in: ArenaCommand.allowedFuzzSeconds, default: 60, help: "seconds of fuzzing per contestant")
        let seed = Option.seed(default: 1, help: "the fuzzing and bench seed")
        let workers = Option.integer(
            "workers", in: FuzzOptions.allowedWorkers, help: "fuzzing workers per contestant", defaultText: "the fuzzer's")
        // The bench's own declarations: the same parsing, help and checks, handed to its run.
        let profiles = BenchCommand.Options().profiles
        let sizes = BenchCommand.Options().sizes
        let kinds = BenchCommand.Options().kinds
        let allocators = BenchCommand.Options().allocators
        let budget = BenchCommand.Options().budget
        let maxCall = BenchCommand.Options().maxCall
        let noBench = Flag("no-bench", help: "fuzz only (the file has no bench)")
        let out = Option.output(help: "the results file", defaultText: "results/arena-<date>.json")
        let work = Option.output(
            "work", "DIR", help: "where the runs' counterexamples (replayable regression files) and the bench's own results go",
            defaultText: "beside --out, named after it with -work")
        init() {}
    }

    static let name = "arena"
    static let abstract = "judge engines side by side: fuzz each, bench all"
    static var discussion: String {
        """
        Judges engines side by side and writes one results file (schema difflab-arena/1) for
        'difflab report':
          1. each contestant is fuzzed for --fuzz-seconds on --seed, in a 'difflab fuzz'
             process of its own (crash-isolated; an out-of-process engine given with
             --engine-command is forwarded only to its own run), every property, every element
             kind, duplicates on; each failure is kept with its shrunk counterexample, its scope
             (flat or sectioned), whether the input repeats an identifier, whether it is outside the
             engine's contract, the batch update the engine gave on it and a valid one (DiffLab's
             heckel), and the replay command;
          2. the contestants, except any whose fuzzing found a crash or a hang, are benchmarked
             together in one 'difflab bench' run (the bench's options below), embedded
             whole in the arena file.
        A contestant's library, version, build, adapter and promise sources come from its
        adapter (ChangesetEngine.about); DiffLab's own engines are labelled with this build.

        The bench's options (--profiles, --sizes, --kinds, --allocators, --budget, --max-call) are
        handed to it; the arena's defaults for them are the standard profiles, \(sizesText(benchSizes)),
        \(benchKinds.map(\.rawValue).joined(separator: ",")), \(benchAllocators.map(\.rawValue).joined(separator: ",")), \(formatPlain(benchBudget)) s and the bench's call limit.
        """
    }
    static let epilogue = """
        Exit status: 0 written (whatever the verdicts: the file holds them), 1 a fuzz or bench run
        could not be made or read, 64 bad command line, 73 an output cannot be written.
        """

    /// The contestants from DiffLab itself when `--engines` is not given: the table's
    /// ``BuiltInEngines/Uses/contested`` engines.
    static let difflabDefaults = BuiltInEngines.names(in: .contested)
    /// The bench run's `--sizes` when the arena is not given them.
    static let benchSizes = [1_000, 10_000, 100_000, 1_000_000]
    /// The bench run's `--kinds` when the arena is not given them.
    static let benchKinds: [ElementKind] = [.int]
    /// The bench run's `--allocators` when the arena is not given them.
    static let benchAllocators: [MemoryAllocator] = [.jemalloc]
    /// The bench run's `--budget` when the arena is not given one, seconds.
    static let benchBudget = 0.2
    /// The allowed seconds of fuzzing per contestant.
    static let allowedFuzzSeconds = 1.0...86_400.0

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let registry = EngineRegistry.current
        let builtInNames = Set(EngineRegistry.builtInEngines.map(\.name))
        let names =
            parsed[\.engines].map { $0.map(\.name) } ?? (registry.engines.map(\.name).filter { !builtInNames.contains($0) } + difflabDefaults)
        let contestants = try names.map { name throws(CommandError) in try parseEngine(name) }
        guard contestants.count <= ArenaLimits.contestants.range.upperBound else {
            throw .usage("--engines: at most \(ArenaLimits.contestants.range.upperBound) contestants (got \(contestants.count))")
        }
        let baselines: [String]
        if let named = parsed[\.baselines] {
            baselines = named.map(\.name)
            if let stranger = baselines.first(where: { !names.contains($0) }) {
                throw .usage("--baselines: '\(stranger)' is not a contestant (contestants: \(names.joined(separator: ", ")))")
            }
        } else {
            baselines = [BuiltInEngines.arenaBaseline].filter(names.contains)
        }
        let fuzzSeconds = parsed.required(\.fuzzSeconds)
        let seed = parsed.required(\.seed)
        let workers = parsed[\.workers]
        let out = try asCantCreate { () throws(OutputFileError) in
            try OutputFile(parsed[\.out] ?? "results/arena-\(timestamp()).json", option: "--out")
        }
        let work = try asCantCreate { () throws(OutputFileError) in
            try OutputDirectory(parsed[\.work] ?? String(out.path.dropLast(out.path.hasSuffix(".json") ? 5 : 0)) + "-work", option: "--work")
        }

        let started = monotonicNow()
        // Taken before the run: the commit the running binary was built from is the one checked
        // out now, not at the end of a run that lasts most of an hour.
        let provenance = RunProvenance.current()
        var results = ArenaResults(
            options: ArenaOptions(fuzzSeconds: fuzzSeconds, seed: String(seed), workers: workers ?? FuzzOptions().workers, baselines: baselines),
            contestants: [])
        var unfit: [String] = []
        for engine in contestants {
            console.err("arena: fuzzing \(engine.name) for \(FuzzCommand.format(fuzzSeconds)) s\n")
            let contestant = try fuzz(engine, seconds: fuzzSeconds, seed: seed, workers: workers, work: work)
            if contestant.failures.contains(where: { $0.kind != .failure }) { unfit.append(engine.name) }
            let inContract = contestant.failures.filter { !$0.outsideContract }.count
            console.err(
                "arena: \(engine.name): \(contestant.fuzz.cases) cases on \(contestant.fuzz.inputs) inputs, \(inContract) failures, \(contestant.failures.count - inContract) outside its contract\n"
            )
            results.contestants.append(contestant)
        }
        if !parsed[\.noBench] {
            let benched = names.filter { !unfit.contains($0) }
            if !unfit.isEmpty {
                console.err("arena: not benchmarked (their fuzzing found a crash or a hang): \(unfit.joined(separator: ", "))\n")
            }
            results.bench = try bench(benched, parsed, seed: seed, work: work, console: console)
        }
        results.provenance = provenance
        results.provenance.seconds = monotonicNow() - started
        try asCantCreate { () throws(OutputFileError) in try out.write(results.json.serialized(pretty: true) + "\n") }
        console.out(summary(results) + "results: \(out.path)\n")
        return .success
    }

    // MARK: Fuzzing

    /// Fuzzes `engine` in a `fuzz` process of its own and reads back its summary and saved
    /// counterexamples.
    static func fuzz(
        _ engine: RegisteredEngine, seconds: Double, seed: UInt64, workers: Int?, work: OutputDirectory
    ) throws(CommandError) -> ArenaContestant {
        let corpus = work.path + "/corpus-\(engine.name)"
        // The run's output goes to a private temporary folder (removed on every path), then only
        // its summary line is read.
        let folder = try asCommandError { () throws(ProcessError) in try Cleanup.shared.makeTemporaryDirectory("difflab-arena") }
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let log = folder + "/fuzz.out"
        let errors = folder + "/fuzz.err"
        let arguments =
            DiffLabCommand.workerGlobals(for: engine.name)
            + fuzzRunArguments(seconds: String(seconds), seed: seed, corpus: corpus, engines: engine.name, workers: workers)
        let executable = try selfExecutable()
        let status = try asCommandError { () throws(ProcessError) in
            try runProcess(
                executable, arguments, environment: ["SWIFT_BACKTRACE": "enable=no"], stdout: log, stderr: errors,
                argumentZero: CommandLine.arguments.first ?? "difflab")
        }
        guard status == 0 || status == 1 else {
            let tail = (try? readInputFile(errors)).map { String(decoding: $0.suffix(600), as: UTF8.self) } ?? ""
            throw CommandError(
                .failure, "arena: the fuzz run of '\(engine.name)' ended with status \(status); the end of its standard error: \(oneLine(tail))")
        }
        let summary = try fuzzSummary(log, engine: engine.name)
        var failures: [ArenaFailure] = []
        for found in summary.failures.prefix(ArenaLimits.failures.range.upperBound) {
            failures.append(try failure(found, engine: engine))
        }
        let about = engine.about
        var stated = EngineAbout(
            library: clipped(about?.library ?? "DiffLab \(engine.name)", ArenaLimits.label),
            version: clipped(about?.version ?? "DiffLab \(DiffLabCommand.version)", ArenaLimits.label),
            revision: about?.revision.map { clipped($0, ArenaLimits.name) }, source: about?.source.map { clipped($0, ArenaLimits.line) },
            build: clipped(about?.build ?? (about == nil ? "part of DiffLab" : ""), ArenaLimits.line),
            adapter: about?.adapter.map { clipped($0, ArenaLimits.sentence) },
            promiseSources: (about?.promiseSources ?? []).prefix(ArenaLimits.promiseSources.range.upperBound).map {
                clipped($0, ArenaLimits.sentence)
            })
        stated.native = about?.native
        return ArenaContestant(
            engine: engine.name, role: role(of: engine), about: stated, promises: engine.promises,
            sectioned: engine.fuzz.sectionedChanges != nil || engine.fuzz.isPairing,
            fuzz: ArenaFuzzCounts(seconds: summary.seconds, inputs: summary.inputs, cases: summary.cases), failures: failures)
    }

    /// What a contestant is: an adapter of another library (it says where it comes from), the
    /// identity adapter, or one of DiffLab's own engines.
    static func role(of engine: RegisteredEngine) -> ArenaRole {
        if engine.name == "identity-adapter" { return .identityAdapter }
        return engine.about == nil ? .difflab : .library
    }

    /// One failure as the `fuzz --json` summary lists it.
    struct FoundFailure {
        var signature: String
        var message: String
        var file: String
        var outsideContract: Bool
        var crashed: Bool
    }

    /// The `fuzz --json` summary: the last line of the run's standard output.
    struct FuzzSummary {
        var cases: Int
        var inputs: Int
        var seconds: Double
        var failures: [FoundFailure]
    }

    /// Reads the summary line of a `fuzz --json` run from `path`.
    static func fuzzSummary(_ path: String, engine: String) throws(CommandError) -> FuzzSummary {
        let bytes = try readInputFile(path)
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        func broken(_ why: String) -> CommandError {
            CommandError(.failure, "arena: the fuzz run of '\(engine)' wrote no readable summary (\(path)): \(why)")
        }
        guard let last = lines.last(where: { $0.first == UInt8(ascii: "{") }) else { throw broken("no JSON line") }
        let summary: JSONValue
        do { summary = try JSONValue.parse(bytes: Array(last)) } catch { throw broken("\(error)") }
        guard case .object(let object) = summary, case .integer(let cases)? = object["cases"],
            case .integer(let inputs)? = object["inputs"], let seconds = object["seconds"]?.doubleValue,
            case .array(let list)? = object["failures"]
        else { throw broken("missing cases, inputs, seconds or failures") }
        var failures: [FoundFailure] = []
        for item in list {
            guard case .object(let f) = item, case .string(let signature)? = f["signature"], case .string(let message)? = f["message"],
                case .string(let file)? = f["file"], case .bool(let outside)? = f["outsideContract"], case .bool(let crashed)? = f["crashed"]
            else { throw broken("a failure without signature, message, file, outsideContract or crashed") }
            failures.append(FoundFailure(signature: signature, message: message, file: file, outsideContract: outside, crashed: crashed))
        }
        return FuzzSummary(cases: cases, inputs: inputs, seconds: seconds, failures: failures)
    }

    /// A failure with its saved counterexample read back, described for the arena file.
    static func failure(_ found: FoundFailure, engine: RegisteredEngine) throws(CommandError) -> ArenaFailure {
        let regression: RegressionCase
        do { regression = try RegressionCase(json: try readJSON(found.file)) } catch {
            throw CommandError(.failure, "arena: the counterexample \(found.file) cannot be read back: \(error)")
        }
        let c = regression.input
        let sectioned = found.signature.contains("/sections/") || found.message.hasPrefix("sections:")
        let kind: ArenaFailureKind = found.crashed ? (found.signature.hasSuffix("/hung") ? .hang : .crash) : .failure
        let sectionIDsRepeat = { (s: SectionedList<Int, FuzzItem>) in Set(s.sections.map(\.id)).count != s.sections.count }
        let duplicates = !c.hasUniqueIdentifiers || (sectioned && (sectionIDsRepeat(c.oldSections) || sectionIDsRepeat(c.newSections)))
        // The engine's answer again, for the report: never after a crash or a hang (it would
        // take this process down too).
        var batch: String?
        var valid: String?
        if kind == .failure {
            if sectioned {
                batch = engineStages(engine, c).map(describe)
                valid = describe(StagedChangeset(from: c.oldSections, to: c.newSections, engine: HeckelEngine()))
            } else {
                batch = engineBatch(engine, c)
                valid = EngineResult(HeckelEngine().diff(from: c.old, to: c.new).forBatchUpdates()).description
            }
        }
        let text = ArenaLimits.text
        return ArenaFailure(
            signature: clipped(found.signature, ArenaLimits.line), property: regression.property.rawValue,
            scope: sectioned ? .sectioned : .flat, kind: kind, outsideContract: found.outsideContract, duplicates: duplicates,
            old: clipped(sectioned ? describe(c.oldSections) : "\(c.old)", text),
            new: clipped(sectioned ? describe(c.newSections) : "\(c.new)", text), message: clipped(found.message, text),
            elementKind: c.elements.rawValue, batch: batch.map { clipped($0, text) }, validBatch: valid.map { clipped($0, text) },
            replay: clipped("\(programName) replay \(found.file)", ArenaLimits.sentence))
    }

    /// What the engine hands UIKit for the case: its own batch form, its stages, or DiffLab's
    /// conversion of its flat result; or why there is none.
    static func engineBatch(_ engine: RegisteredEngine, _ c: FuzzCase) -> String {
        guard let changes = engine.fuzz.changes else {
            return EngineResult(engine.fuzz.batch(engine.fuzz.diff(c.old, c.new, .offsets))).description
        }
        do throws(EngineFailure) {
            let answer = try changes(c.old, c.new, c.elements)
            if let stages = answer.stages {
                return stages.enumerated().map { "stage \($0.offset): \($0.element.changes)" }.joined(separator: "; ")
            }
            if let batch = answer.batch { return batch.description }
            do throws(DiffResultError) {
                return EngineResult(try answer.checkedResult(oldCount: c.old.count, newCount: c.new.count).forBatchUpdates()).description
            } catch {
                return "flat result \(answer.result) (malformed: \(error))"
            }
        } catch {
            return "no answer: \(error)"
        }
    }

    /// The engine's stages of the case's sectioned lists, when it stages them.
    static func engineStages(_ engine: RegisteredEngine, _ c: FuzzCase) -> StagedChangeset<Int, FuzzItem>? {
        if let staged = engine.fuzz.sectionedChanges {
            return try? staged(c.oldSections, c.newSections, c.elements)
        }
        return engine.fuzz.staged?(c.oldSections, c.newSections, c.elements)
    }

    /// `{0: [1, 2:1]} {3: []}`: each section's identifier and items.
    static func describe(_ sections: SectionedList<Int, FuzzItem>) -> String {
        sections.sections.map { "{\($0.id): \($0.items)}" }.joined(separator: " ")
    }

    /// Each stage's batch update, `stage k: …`.
    static func describe(_ staged: StagedChangeset<Int, FuzzItem>) -> String {
        staged.stages.enumerated().map { "stage \($0.offset): \(describe($0.element.changes))" }.joined(separator: "; ")
    }

    /// A batch update's non-empty operations, as UIKit is called.
    static func describe(_ u: BatchUpdate) -> String {
        func paths(_ list: [ItemIndexPath]) -> String { "[" + list.map { "\($0.section).\($0.item)" }.joined(separator: ", ") + "]" }
        var parts: [String] = []
        if !u.deleteSections.isEmpty { parts.append("deleteSections \(u.deleteSections)") }
        if !u.insertSections.isEmpty { parts.append("insertSections \(u.insertSections)") }
        if !u.reloadSections.isEmpty { parts.append("reloadSections \(u.reloadSections)") }
        if !u.moveSections.isEmpty { parts.append("moveSections \(u.moveSections)") }
        if !u.deleteItems.isEmpty { parts.append("deleteItems \(paths(u.deleteItems))") }
        if !u.insertItems.isEmpty { parts.append("insertItems \(paths(u.insertItems))") }
        if !u.reloadItems.isEmpty { parts.append("reloadItems \(paths(u.reloadItems))") }
        if !u.moveItems.isEmpty {
            parts.append(
                "moveItems [" + u.moveItems.map { "\($0.from.section).\($0.from.item)→\($0.to.section).\($0.to.item)" }.joined(separator: ", ") + "]")
        }
        return parts.isEmpty ? "nothing" : parts.joined(separator: " ")
    }

    /// `text`, cut to the field's longest length with `…` when longer (an adapter's strings and
    /// an engine's messages are not bounded).
    static func clipped(_ text: String, _ field: FieldRange<Int>) -> String {
        let most = field.range.upperBound
        guard text.count > most else { return text }
        return String(text.prefix(max(most - 1, 0))) + "…"
    }

    // MARK: Benchmark

    /// Benchmarks `names` together in one `bench` process and reads its results back.
    static func bench(
        _ names: [String], _ parsed: Parsed<Options>, seed: UInt64, work: OutputDirectory, console: Console
    ) throws(CommandError) -> BenchResults? {
        guard !names.isEmpty else { return nil }
        let file = try asCantCreate { () throws(OutputFileError) in try work.file("bench.json") }
        let profiles = parsed.raw(\.profiles) ?? DatasetProfile.allCases.map(\.rawValue).joined(separator: ",")
        var line = CommandArguments<BenchCommand.Options>(BenchCommand.name)
        line.add(\.engines, names.joined(separator: ","))
        line.add(\.seed, String(seed))
        line.add(\.out, file.path)
        line.add(\.profiles, profiles)
        line.add(\.sizes, parsed.raw(\.sizes) ?? sizesText(benchSizes))
        line.add(\.kinds, parsed.raw(\.kinds) ?? benchKinds.map(\.rawValue).joined(separator: ","))
        line.add(\.allocators, parsed.raw(\.allocators) ?? benchAllocators.map(\.rawValue).joined(separator: ","))
        line.add(\.budget, parsed.raw(\.budget) ?? formatPlain(benchBudget))
        line.add(\.allowSkips)
        line.add(\.maxCall, ifGiven: parsed.raw(\.maxCall))
        let arguments = line.arguments
        console.err("arena: benchmarking \(names.joined(separator: ", "))\n")
        let status = try runSelf(arguments, environment: [:])
        guard status == 0 else { throw CommandError(.failure, "arena: the bench run ended with status \(status)") }
        let document = try readJSON(file.path)
        do throws(ResultsError) {
            return try BenchResults(json: document, source: file.path)
        } catch {
            throw CommandError(.failure, "arena: the bench results \(file.path) cannot be read back: \(error)")
        }
    }

    /// One line per contestant: cases, failures and the shortest counterexample.
    static func summary(_ results: ArenaResults) -> String {
        var text = ""
        for c in results.contestants {
            let inside = c.failures.filter { !$0.outsideContract }
            let first = (inside.isEmpty ? c.failures : inside).min { $0.old.count + $0.new.count < $1.old.count + $1.new.count }
            text += "\(c.engine): \(c.fuzz.cases) cases, \(inside.count) failures, \(c.failures.count - inside.count) outside its contract"
            if let first { text += "; e.g. \(first.signature): \(first.old) → \(first.new)" }
            text += "\n"
        }
        return text
    }
}
