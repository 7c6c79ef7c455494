import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabGate
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabReport
import DiffLabResults

/// `difflab gate`: the regression gate. Builds the baseline revision in a git worktree (or takes
/// a stored baseline), then measures it and the candidate side by side through their
/// `difflab measure` workers, and decides with ``DiffLabGate``.
enum GateCommand: DeclaredCommand {
    typealias Options = GatePlan.Options
    static let name = "gate"
    static let abstract = "regression gate: this build against a baseline"
    static var discussion: String {
        """
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
          allocated bytes,    one call under jemalloc (LD_PRELOAD; DYLD_INSERT_LIBRARIES on macOS)
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
        """
    }
    static let epilogue = """
        A package of its own (see the "Adapting an Engine" article,
        Sources/DiffLab/DiffLab.docc/Articles/AdaptingAnEngine.md) gates its engines the same
        way from its own git repository: the baseline revision is checked out in a worktree and
        the package in the current folder (at the same place in the repository) is built there
        with --product.
        """

    /// The default quick matrix's profiles, each at ``quickSize`` int items.
    static let quickProfiles: [DatasetProfile] = [.differencekit, .smallEdit, .reorderHeavy]
    /// The default quick matrix's list size.
    static let quickSize = 10_000
    /// The default full matrix's profiles, each at ``fullSizes`` int items.
    static let fullProfiles: [DatasetProfile] = [.differencekit, .smallEdit, .feedRefresh, .chatAppend, .reorderHeavy, .allUpdated, .random]
    /// The default full matrix's list sizes.
    static let fullSizes = [1_000, 10_000]

    /// The default quick matrix: `engines` × ``quickProfiles`` at ``quickSize`` int items.
    static func quickCells(_ engines: [String]) -> [String] {
        var cells: [String] = []
        for profile in quickProfiles {
            for engine in engines { cells.append("\(engine):\(profile.rawValue):int:\(quickSize)") }
        }
        return cells
    }

    /// The default full matrix: `engines` × ``fullProfiles`` at ``fullSizes`` int items, plus
    /// 100k int and 10k model and object items on `differencekit`.
    static func fullCells(_ engines: [String]) -> [String] {
        var cells: [String] = []
        let differencekit = DatasetProfile.differencekit.rawValue
        for engine in engines {
            for profile in fullProfiles {
                for size in fullSizes { cells.append("\(engine):\(profile.rawValue):int:\(size)") }
            }
            cells.append("\(engine):\(differencekit):int:100000")
            cells.append("\(engine):\(differencekit):model:10000")
            cells.append("\(engine):\(differencekit):object:10000")
        }
        return cells
    }

    /// The built-in subjects of the default matrices: the table's ``BuiltInEngines/Uses/gated``
    /// engines, then the staged forms of its ``BuiltInEngines/Uses/staged`` engines
    /// (`heckel`, `hashmap`, `myers`, `hashmap-staged`).
    static var builtInEngines: [String] {
        BuiltInEngines.names(in: .gated) + BuiltInEngines.names(in: .staged).map(BuiltInEngines.Name.staged)
    }

    /// The engines of the default matrices: those registered beyond the built-ins, or
    /// ``builtInEngines`` when there are none.
    static var defaultEngines: [String] {
        let builtIns = Set(EngineRegistry.builtInEngines.map(\.name))
        let own = EngineRegistry.current.engines.map(\.name).filter { !builtIns.contains($0) }
        return own.isEmpty ? builtInEngines : own
    }

    /// The allowed range of `--rounds`: the signed-rank test needs at least 3 rounds to say
    /// anything, and its exact null distribution costs O(rounds³) time, so 1,000 is the top.
    static let roundsRange = 3...1000
    /// `--rounds` when not given: 20, 16 with `--quick`.
    static let defaultRounds = QuickDefault(full: 20, quick: 16)
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

    static func main(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        do {
            return try parseAndRun(arguments, console: console)
        } catch {
            // The gate's contract: 1 for every error (a bad command line included), so CI can
            // tell errors from regressions (2).
            throw CommandError(.failure, error.message)
        }
    }

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        try gate(parsed, console: console)
    }

    /// The gate: the plan, the builds, the measurements, the baseline stored or read, the
    /// verdict written. Each step lives in its own type (``GatePlan``, ``GateBuilds``,
    /// ``GateMeasurements``, ``GateBaselineStorage``, ``GateWriters``).
    static func gate(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let plan = try GatePlan(parsed)
        let started = monotonicNow()
        let dirty = commandOutput("git status --porcelain --untracked-files=no 2>/dev/null | head -1") != nil
        var context: [(String, String)] = []
        var notes: [String] = []

        let head = try GateBuilds.candidate(plan, dirty: dirty, console: console)
        var base: GateBuilds.Build?
        var stored: StoredBaseline?
        if let path = plan.baseline {
            let baseline = try GateBaselineStorage.load(path, cells: plan.cells, seed: plan.seed)
            stored = baseline
            context.append(("baseline", "stored baseline `\(path)` (\(baseline.candidate ?? "unknown build") on \(baseline.cpu ?? "?"))"))
            notes.append("time is not gated against a stored baseline: it is gated only from A/B rounds of two builds in one job")
        } else {
            base = try GateBuilds.baseline(plan, dirty: dirty, console: console)
        }
        if let base { context.append(("baseline", base.description)) }
        context.append(("candidate", head.description))

        // Every temporary file of the run lives in one private folder, removed at the end and, by
        // the Cleanup registry, on SIGINT/SIGTERM/SIGHUP.
        let scratch = try asCommandError { () throws(ProcessError) in try Cleanup.shared.makeTemporaryDirectory("difflab-gate") }
        defer { Cleanup.shared.removeTemporaryDirectory(scratch) }
        let builds = try GateBuilds.launch([base, head].compactMap { $0 }, scratch: scratch)
        let measured = try GateMeasurements.measure(
            plan, builds: builds, timed: base != nil, scratch: scratch, console: console, context: &context, notes: &notes)

        if let file = plan.saveBaseline {
            try GateBaselineStorage.save(file, cells: plan.cells, head: head, measurements: measured, console: console)
            if base == nil && stored == nil { return .success }
        }
        let comparisons = GateWriters.compare(plan, measured, timed: base != nil, stored: stored)
        context.append(("cells", "\(plan.cells.count) (subject:profile:kind:size), seed \(plan.seed), `SWIFT_DETERMINISTIC_HASHING=1`"))
        context.append(("machine", machineJSONFields().first { $0.0 == "cpu" }?.1 ?? "unknown"))
        context.append(("thresholds", plan.thresholdsSource))
        context.append(("took", "\(Int((monotonicNow() - started).rounded())) s"))
        let report = GateReport(comparisons: comparisons, thresholds: plan.thresholds, context: context, notes: notes)
        return try GateWriters.write(report, plan, console: console)
    }
}

/// The absolute path of this executable (`/proc/self/exe` resolved, so other programs such as
/// valgrind can be given it).
func currentExecutablePath() -> String {
    executablePath() ?? CommandLine.arguments.first ?? "difflab"
}

/// The current working directory (`.` when it cannot be read, e.g. it was removed).
package func currentDirectory() -> String {
    (try? FileSystem.currentDirectory()) ?? "."
}

/// Appends the file at `source` to the file at `destination` (created when absent), 64 KiB at a
/// time; does nothing when either cannot be opened, and stops at the first failed read or write.
///
/// - Complexity: O(size of `source`).
func appendFile(_ source: String, to destination: String) {
    guard let input = try? FileDescriptor.open(source, .readOnly) else { return }
    defer { input.closeIgnoringErrors() }
    guard let output = try? FileDescriptor.open(destination, .writeOnly, options: [.create, .append]) else { return }
    defer { output.closeIgnoringErrors() }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count =
            (try? buffer.withUnsafeMutableBytes { raw in
                Result { () throws(PlatformError) -> Int in try input.read(into: raw) }
            }.get()) ?? 0
        if count == 0 { break }
        guard (try? output.writeAll(Array(buffer[0..<count]))) != nil else { break }
    }
}

/// `'text'` for a POSIX shell.
func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences("'", "'\\''") + "'" }

extension String {
    /// Without leading and trailing whitespace and newlines.
    package func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Every `target` replaced by `replacement`.
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
