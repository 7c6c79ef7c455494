import DiffLabBench
import DiffLabGate

#if canImport(Glibc)
import Glibc
#endif

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
    static let spec = OptionSpec(
        valued: [
            "base", "baseline", "save-baseline", "cells", "rounds", "samples", "thresholds", "head-binary", "head-patch",
            "base-binary", "out", "summary", "seed", "engines", "product", "junit",
        ],
        flags: ["quick", "no-instructions", "improvements-pass"])

    /// Checks `parsed` (the outputs first) and reads the thresholds.
    ///
    /// - Throws: a usage error for conflicting or malformed options, exit 73 for a bad output
    ///   path, 1 for a bad thresholds file.
    init(_ parsed: ParsedArguments) throws(CommandError) {
        guard parsed.positionals.isEmpty else { throw .usage("gate takes no files") }
        let exclusive = ["base", "baseline", "base-binary"].filter { parsed.value($0) != nil }
        guard exclusive.count <= 1 else { throw .usage("give only one of --base, --baseline and --base-binary") }
        guard parsed.value("head-binary") == nil || parsed.value("head-patch") == nil else {
            throw .usage("give only one of --head-binary and --head-patch")
        }
        // Output paths are checked before minutes of work.
        outFile = try OutputFile(parsed.value("out") ?? ".build/gate/gate.json", option: "--out")
        summaryFile = try OutputFile(parsed.value("summary") ?? ".build/gate/summary.md", option: "--summary")
        junitFile = try parsed.value("junit").map { path throws(CommandError) in try OutputFile(path, option: "--junit") }
        // GitHub Actions' step summary: appended to, and checked now like every output path.
        stepSummary = try getenv("GITHUB_STEP_SUMMARY").map { String(cString: $0) }.flatMap { path throws(CommandError) in
            path.isEmpty ? nil : try OutputFile(path, option: "$GITHUB_STEP_SUMMARY")
        }
        saveBaseline = try parsed.value("save-baseline").map { path throws(CommandError) in try OutputFile(path, option: "--save-baseline") }
        (thresholds, thresholdsSource) = try GateCommand.thresholds(file: parsed.value("thresholds"))
        quick = parsed.flag("quick")
        noInstructions = parsed.flag("no-instructions")
        improvementsPass = parsed.flag("improvements-pass")
        guard parsed.value("cells") == nil || parsed.value("engines") == nil else { throw .usage("give only one of --cells and --engines") }
        let engines =
            try parsed.value("engines").map { text throws(CommandError) in
                try deduplicated(parseList(text, "--engines") { name throws(CommandError) in try parseEngine(name).name })
            } ?? GateCommand.defaultEngines
        product = parsed.value("product") ?? "difflab"
        do throws(CommandError) { try EngineRegistry.checkName(product) } catch {
            throw .usage("--product must name an executable product: 1 to 64 lower-case letters, digits, '-', '_' or '.' (got '\(product)')")
        }
        cells = try Self.cells(parsed, engines: engines, quick: quick)
        rounds = try parsed.value("rounds").map { text throws(CommandError) in try parseInteger(text, "--rounds", in: GateCommand.roundsRange) } ?? (quick ? 16 : 20)
        samples = try parsed.value("samples").map { text throws(CommandError) in try parseInteger(text, "--samples", in: GateCommand.samplesRange) } ?? 8
        seed = try parsed.value("seed").map { text throws(CommandError) in try parseSeed(text) } ?? 42
        (base, baseline, baseBinary) = (parsed.value("base"), parsed.value("baseline"), parsed.value("base-binary"))
        (headBinary, headPatch) = (parsed.value("head-binary"), parsed.value("head-patch"))
    }

    /// The cells: `--cells`, or the default matrix of `engines` (quick or full), each once.
    static func cells(_ parsed: ParsedArguments, engines: [String], quick: Bool) throws(CommandError) -> [String] {
        let cells =
            try parsed.value("cells").map { text throws(CommandError) in
                try parseList(text, "--cells") { name throws(CommandError) in
                    do throws(BenchCellError) {
                        return try BenchCell(parsing: name, engines: EngineRegistry.current.benchSubjects).description
                    } catch { throw .usage(error.description) }
                }
            } ?? (quick ? GateCommand.quickCells(engines) : GateCommand.fullCells(engines))
        var seen: Set<String> = []
        if let repeated = cells.first(where: { !seen.insert($0).inserted }) { throw .usage("--cells lists \(repeated) more than once") }
        return cells
    }
}
