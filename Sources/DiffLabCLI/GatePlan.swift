import DiffLabBench
import DiffLabEngines
import DiffLabGate
import DiffLabPlatform

/// What `difflab gate` was asked to do, parsed and checked before any work: every output path
/// checked (a bad one fails now, not after minutes of building), the thresholds read, the cells
/// resolved. The gate's other parts take this plan: ``GateBuilds`` makes the builds,
/// ``GateMeasurements`` measures them, ``GateBaselineStorage`` reads and writes stored baselines,
/// ``GateWriters`` compares and writes the verdict.
struct GatePlan {
    var outFile: OutputFile
    var summaryFile: OutputFile
    var junitFile: OutputFile?
    /// GitHub Actions' step summary (`$GITHUB_STEP_SUMMARY`), appended to.
    var stepSummary: OutputFile?
    /// `--save-baseline`.
    var saveBaseline: OutputFile?
    var thresholds: GateThresholds
    var thresholdsSource: String
    var cells: [String]
    var rounds: Int
    var samples: Int
    var seed: UInt64
    var product: String
    var quick: Bool
    var noInstructions: Bool
    var improvementsPass: Bool
    /// `--base`, `--baseline`, `--base-binary` (at most one), `--head-binary`, `--head-patch`
    /// (at most one).
    var base: String?
    var baseline: String?
    var baseBinary: String?
    var headBinary: String?
    var headPatch: String?

    /// The gate's options.
    struct Options: DeclaredOptions {
        let quick = Flag(
            "quick",
            help: "the engines × \(GateCommand.quickProfiles.count) profiles (\(GateCommand.quickProfiles.map(\.rawValue).joined(separator: ", "))) "
                + "at \(formatCount(Double(GateCommand.quickSize))) items")
        let engines = Option.benchEngines(
            help: "the engines of the default matrix; <engine>-staged is a pairing engine's staged form",
            defaultText: "the engines this program registers beyond the built-ins, or \(proseList(GateCommand.builtInEngines)) when there "
                + "are none")
        let product = Option.text(
            "product", "NAME", default: "difflab",
            help: "the executable product to build at the baseline revision (a package's own runner for its engines)"
        ) { text throws(CommandError) in
            do throws(CommandError) { try EngineRegistry.checkName(text) } catch {
                throw .usage("--product must name an executable product: 1 to 64 lower-case letters, digits, '-', '_' or '.' (got '\(text)')")
            }
        }
        let base = Option.text("base", "REV", help: "the baseline revision (see above)")
        let baseline = Option.text(
            "baseline", "FILE",
            help: "a stored baseline instead of a build (deterministic metrics only): a --save-baseline file, or a difflab bench results "
                + "file (a merged one included: its jemalloc cells' allocation figures)")
        let saveBaseline = Option.output("save-baseline", help: "also store the candidate's deterministic metrics as a baseline")
        let cells = Option<[String]>(
            "cells", "LIST", help: "exact cells (subject:profile:kind:size) instead of the default matrix",
            constraint: "a comma-separated list, each cell once", parse: GatePlan.parseCells)
        let rounds = Option.integer(
            "rounds", in: GateCommand.roundsRange, help: "interleaved time rounds", defaultText: GateCommand.defaultRounds.text)
        let samples = Option.integer("samples", in: GateCommand.samplesRange, default: 8, help: "samples per cell per round")
        let thresholds = Option.text(
            "thresholds", "FILE", help: "the thresholds file",
            defaultText: "Corpus/gate/thresholds.json when it exists, else built-in defaults equal to DiffLab's checked-in file")
        let headBinary = Option.text("head-binary", "PATH", help: "the candidate's difflab", defaultText: "this executable")
        let headPatch = Option.text("head-patch", "FILE", help: "the candidate is HEAD with this patch applied, built in a worktree")
        let baseBinary = Option.text("base-binary", "PATH", help: "a baseline difflab already built (skips building REV)")
        let noInstructions = Flag("no-instructions", help: "skip valgrind")
        let improvementsPass = Flag("improvements-pass", help: "exit 0 when the only findings are improvements")
        let out = Option.output(default: ".build/gate/gate.json", help: "JSON report")
        let summary = Option.output(
            "summary", default: ".build/gate/summary.md",
            help: "markdown summary; it is also printed, and appended to $GITHUB_STEP_SUMMARY when that is set")
        let junit = Option.output(
            "junit",
            help: "also JUnit XML: one test case per gated cell, failed when a metric regressed (the message gives the evidence), an "
                + "error when the run compared nothing")
        let seed = Option.seed(default: 42, help: "dataset seed")
        init() {}
    }

    /// Checks `parsed` (the outputs first) and reads the thresholds.
    ///
    /// - Throws: a usage error for conflicting or malformed options, exit 73 for a bad output
    ///   path, 1 for a bad thresholds file.
    init(_ parsed: Parsed<Options>) throws(CommandError) {
        guard [parsed.isGiven(\.base), parsed.isGiven(\.baseline), parsed.isGiven(\.baseBinary)].filter({ $0 }).count <= 1 else {
            throw .usage("give only one of --base, --baseline and --base-binary")
        }
        guard !(parsed.isGiven(\.headBinary) && parsed.isGiven(\.headPatch)) else {
            throw .usage("give only one of --head-binary and --head-patch")
        }
        // Output paths are checked before minutes of work.
        outFile = try asCantCreate { () throws(OutputFileError) in try OutputFile(parsed.required(\.out), option: "--out") }
        summaryFile = try asCantCreate { () throws(OutputFileError) in try OutputFile(parsed.required(\.summary), option: "--summary") }
        junitFile = try parsed[\.junit].map { path throws(CommandError) in
            try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "--junit") }
        }
        // GitHub Actions' step summary: appended to, and checked now like every output path.
        // The first `GITHUB_STEP_SUMMARY=` entry of the environment, as `getenv` finds it.
        let summaryEntry = processEnvironment().first { $0.hasPrefix("GITHUB_STEP_SUMMARY=") }
        stepSummary = try summaryEntry.map { String($0.dropFirst("GITHUB_STEP_SUMMARY=".count)) }.flatMap { path throws(CommandError) in
            path.isEmpty ? nil : try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "$GITHUB_STEP_SUMMARY") }
        }
        saveBaseline = try parsed[\.saveBaseline].map { path throws(CommandError) in
            try asCantCreate { () throws(OutputFileError) in try OutputFile(path, option: "--save-baseline") }
        }
        (thresholds, thresholdsSource) = try GateCommand.thresholds(file: parsed[\.thresholds])
        quick = parsed[\.quick]
        noInstructions = parsed[\.noInstructions]
        improvementsPass = parsed[\.improvementsPass]
        guard !(parsed.isGiven(\.cells) && parsed.isGiven(\.engines)) else { throw .usage("give only one of --cells and --engines") }
        let engines = parsed[\.engines].map { deduplicated($0.map(\.name)) } ?? GateCommand.defaultEngines
        product = parsed.required(\.product)
        cells = parsed[\.cells] ?? (quick ? GateCommand.quickCells(engines) : GateCommand.fullCells(engines))
        rounds = parsed[\.rounds] ?? GateCommand.defaultRounds.value(quick: quick)
        samples = parsed.required(\.samples)
        seed = parsed.required(\.seed)
        (base, baseline, baseBinary) = (parsed[\.base], parsed[\.baseline], parsed[\.baseBinary])
        (headBinary, headPatch) = (parsed[\.headBinary], parsed[\.headPatch])
    }

    /// `--cells`: each a cell of the registry's subjects, each once.
    static func parseCells(_ text: String) throws(CommandError) -> [String] {
        let cells = try parseList(text, "--cells") { name throws(CommandError) in
            do throws(BenchCellError) {
                return try BenchCell(parsing: name, engines: EngineRegistry.current.benchSubjects).description
            } catch { throw .usage(error.description) }
        }
        var seen: Set<String> = []
        if let repeated = cells.first(where: { !seen.insert($0).inserted }) { throw .usage("--cells lists \(repeated) more than once") }
        return cells
    }
}
