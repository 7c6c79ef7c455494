import DiffLabBench
import DiffLabCLI
import DiffLabCore
import DiffLabFormatting
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// `difflab-dev mutate`: mutation testing of the fuzzer. Plants each bug of a catalogue
/// (`Corpus/mutants/`) in a worktree of HEAD, builds it, and checks whether the fuzzer (or, for
/// code the fuzzer does not run, a test filter) kills it.
enum MutateCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let quick = Flag("quick", help: "only the catalogue's quick subset (\"quick\": true)")
        let only = Option<[String]>(
            "only", "LIST", help: "only these mutants, by name", constraint: "a comma-separated list"
        ) { text throws(CommandError) in try deduplicated(parseList(text, "--only") { name throws(CommandError) in name }) }
        let seconds = Option.number(
            "seconds", in: MutateCommand.secondsRange, default: MutateCommand.defaultSeconds, help: "fuzzing seconds per mutant")
        let seed = Option.seed(default: 1, help: "the fuzzing seed")
        let catalogue = Option.text("catalogue", "DIR", default: MutateCommand.defaultCatalogue, help: "the catalogue folder")
        let configuration = Option<MutationFile.Configuration>.choice(
            "configuration", "C", default: .release,
            help: "how the mutants are built: release (the binary users run) or debug (unoptimized: a mutant's incremental build takes "
                + "seconds instead of minutes and the fuzzer runs several times slower; CI's quick subset); the results file records it")
        let jobs = Option.integer("jobs", in: MutateCommand.jobsRange, default: MutateCommand.defaultJobs, help: "parallel build jobs")
        let out = Option.output(
            help: "results file: absent or a regular file, checked before the run", defaultText: "results/mutation-<UTC time>.json")
        init() {}
    }

    static let name = "mutate"
    static let tool = "difflab-dev"
    static let abstract = "mutation testing: plant catalogued bugs, count those the fuzzer kills"
    static var discussion: String {
        """
        Mutation testing: how many planted bugs does the fuzzer catch? For each mutant of the
        catalogue (DIR/catalogue.json, schema \(MutantCatalogue.schema); one patch file per
        mutant beside it), in catalogue order:
          1. one git worktree of HEAD under .build/mutate/worktree is made, or reset to HEAD
             (`git reset --hard`, `git clean -fd`: its .build stays, so builds are incremental);
          2. the mutant's patch is applied with `git apply`;
          3. `swift build -c release --product difflab` builds it (`-c debug` with
             --configuration debug);
          4. its check runs:
             fuzz        the mutant's `difflab fuzz --seconds N --seed S --json --corpus TMP`
                         with SWIFT_BACKTRACE=enable=no and SWIFT_DETERMINISTIC_HASHING=1:
                         killed by a failure inside an engine's contract (its signature,
                         seconds and inputs to find it, and the shrunk size are recorded), or by
                         a crash or hang of the fuzzer process (noted as such); survived when
                         the run passes
             swift-test  `swift test --filter F` of the mutant's tree (after a separate
                         `swift build --build-tests`): killed by a failing test
        A patch that does not apply, a mutant that does not build, or a check that cannot run is
        an error, never a kill. The worktree is reset to HEAD at the end. Uncommitted changes of
        the working tree are not part of the mutants' tree (HEAD is).

        It prints a table and the kill score, killed / non-equivalent mutants (mutants marked
        "equivalent" in the catalogue, with the reason no property can kill them, are run but
        not scored), and writes a JSON file (schema \(MutationFile.schema)). Build logs:
        .build/mutate/<name>.log.
        """
    }
    static let epilogue = """
        EXIT STATUS
          0 every non-equivalent mutant killed, 1 a mutant survived, a mutant marked equivalent
          was killed (the claim is wrong), or an error, 64 bad command line, 65 bad catalogue,
          66 catalogue or patch unreadable, 73 output file cannot be written
        """

    /// The allowed range of `--seconds`: fuzzing seconds per mutant.
    static let secondsRange = 1.0...3_600.0
    /// The default of `--seconds`.
    static let defaultSeconds = 30.0
    /// The allowed range of `--jobs`.
    static let jobsRange = 1...256
    /// The default of `--jobs`: the machine DiffLab is developed on has two cores.
    static let defaultJobs = 2
    /// The default catalogue folder, relative to the working directory.
    static let defaultCatalogue = "Corpus/mutants"
    /// The worktree, relative to the repository's root.
    static let worktree = ".build/mutate/worktree"
    /// The longest a `swift test` check may take.
    static let testSeconds = 3_600.0

    /// The settings of one run.
    struct Settings {
        var seconds: Double
        var seed: UInt64
        var jobs: Int
        /// The catalogue folder.
        var catalogue: String
        /// The repository's root and the commit mutated.
        var root: String
        var commit: String
        /// The run's private temporary folder.
        var scratch: String
        /// How the mutants are built.
        var configuration: MutationFile.Configuration = .release
    }

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        guard !(parsed[\.quick] && parsed.isGiven(\.only)) else { throw .usage("give only one of --quick and --only") }
        let seconds = parsed.required(\.seconds)
        let seed = parsed.required(\.seed)
        let configuration = parsed.required(\.configuration)
        let jobs = parsed.required(\.jobs)
        let only = parsed[\.only]
        // The output is checked first: a bad path fails now, not after an hour of builds.
        let out = try asCantCreate { () throws(OutputFileError) in
            try OutputFile(parsed[\.out] ?? "results/mutation-\(timestamp()).json", option: "--out")
        }
        let folder = parsed.required(\.catalogue)
        let catalogue = try readCatalogue(folder)
        let selected = try select(catalogue, quick: parsed[\.quick], only: only)
        // Every patch is readable before the first build.
        for mutant in selected { _ = try readInputFile(folder + "/" + mutant.patch) }

        guard let root = commandOutput("git rev-parse --show-toplevel"), let commit = commandOutput("git rev-parse --verify HEAD") else {
            throw CommandError(.failure, "mutate: not in a git repository (the mutants are planted in a worktree of HEAD)")
        }
        if commandOutput("git status --porcelain --untracked-files=no 2>/dev/null | head -1") != nil {
            console.err("mutate: note: tracked files have uncommitted changes; the mutants are planted in HEAD (\(commit.prefix(12))), not in them\n")
        }
        let scratch = try asCommandError { () throws(ProcessError) in try Cleanup.shared.makeTemporaryDirectory("difflab-mutate") }
        defer { Cleanup.shared.removeTemporaryDirectory(scratch) }
        try asCantCreate { () throws(OutputFileError) in try makeDirectories(root + "/.build/mutate") }
        let settings = Settings(
            seconds: seconds, seed: seed, jobs: jobs, catalogue: folder.hasPrefix("/") ? folder : currentDirectory() + "/" + folder,
            root: root, commit: commit, scratch: scratch, configuration: configuration)

        var file = MutationFile(seconds: seconds, seed: seed, catalogue: folder)
        file.configuration = configuration
        file.provenance = RunProvenance.current()
        file.provenance.commit = commit  // HEAD, where the mutants are planted
        let started = monotonicNow()
        for (index, mutant) in selected.enumerated() {
            console.err("mutate: [\(index + 1)/\(selected.count)] \(mutant.name) (\(mutant.area.rawValue)): building\n")
            let result = try runMutant(mutant, settings)
            console.err("mutate: [\(index + 1)/\(selected.count)] \(mutant.name): \(summary(of: result))\n")
            file.results.append(result)
        }
        // Leave no mutant planted.
        let log = root + "/.build/mutate/reset.log"
        if let failure = try resetWorktree(settings, log: log) { console.err("mutate: could not reset the worktree: \(failure)\n") }

        console.out(table(file.results) + "\n")
        let refuted = file.results.filter { $0.equivalent && $0.outcome == .killed }
        let errors = file.results.filter { $0.outcome == .error }
        let equivalents = file.results.filter(\.equivalent).count
        let percent = (file.score * 1000).rounded() / 10
        var score = "mutation score: \(file.killed)/\(file.scored) non-equivalent mutants killed (\(percent)%); \(equivalents) marked equivalent"
        if !refuted.isEmpty {
            score += ", \(refuted.count) of them killed (the claim is wrong: \(refuted.map(\.name).joined(separator: ", ")))"
        }
        if !errors.isEmpty { score += "; \(errors.count) errors (\(errors.map(\.name).joined(separator: ", ")))" }
        let took = Int((monotonicNow() - started).rounded())
        console.out(score + "; \(took) s" + (file.configuration == .debug ? " (debug builds)" : "") + "\n")
        try asCantCreate { () throws(OutputFileError) in try out.write(file.json.serialized() + "\n") }
        console.out("results: \(out.path)\n")
        return file.killed == file.scored && refuted.isEmpty ? .success : .failure
    }

    /// Reads and checks `folder/catalogue.json`.
    ///
    /// - Throws: 66 when it cannot be read, 65 when it is not valid JSON or not a valid catalogue
    ///   (the message names the field).
    static func readCatalogue(_ folder: String) throws(CommandError) -> MutantCatalogue {
        let path = folder + "/catalogue.json"
        let json = try readJSON(path)
        do throws(ResultsError) { return try MutantCatalogue(json: json, source: path) } catch { throw .data(error.description) }
    }

    /// The mutants a run takes: the quick subset, the named ones (in catalogue order), or all.
    ///
    /// - Throws: a usage error naming an unknown mutant, or when the quick subset is empty.
    /// - Complexity: O(mutants + names).
    static func select(_ catalogue: MutantCatalogue, quick: Bool, only: [String]?) throws(CommandError) -> [Mutant] {
        if quick {
            let subset = catalogue.mutants.filter(\.quick)
            guard !subset.isEmpty else { throw .usage("--quick: the catalogue marks no mutant \"quick\": true") }
            return subset
        }
        guard let only else { return catalogue.mutants }
        let known = Set(catalogue.mutants.map(\.name))
        if let unknown = only.first(where: { !known.contains($0) }) {
            throw .usage("--only: no mutant '\(unknown)' in the catalogue (mutants: \(catalogue.mutants.map(\.name).joined(separator: ", ")))")
        }
        let wanted = Set(only)
        return catalogue.mutants.filter { wanted.contains($0.name) }
    }

    /// Makes the worktree (a detached checkout of the commit) or resets an existing one to it,
    /// keeping its `.build` (ignored files survive `git clean -fd`).
    ///
    /// - Returns: `nil`, or what failed.
    static func resetWorktree(_ settings: Settings, log: String) throws(CommandError) -> String? {
        let path = settings.root + "/" + worktree
        if FileSystem.isAccessible(path + "/.git", []) {
            return try GateBuilds.runLoggedSteps(
                [("git", ["-C", path, "reset", "--hard", "--quiet", settings.commit]), ("git", ["-C", path, "clean", "-fdq"])], log: log)
        }
        return try GateBuilds.runLoggedSteps(
            [
                ("git", ["-C", settings.root, "worktree", "prune"]),
                ("git", ["-C", settings.root, "worktree", "add", "--detach", "--force", path, settings.commit]),
            ], log: log)
    }

    /// Plants, builds and checks one mutant.
    static func runMutant(_ mutant: Mutant, _ settings: Settings) throws(CommandError) -> MutantResult {
        var result = MutantResult(
            name: mutant.name, area: mutant.area, check: mutant.check, equivalent: mutant.equivalent != nil, outcome: .error)
        let path = settings.root + "/" + worktree
        let log = settings.root + "/.build/mutate/\(mutant.name).log"
        try? FileSystem.removeFile(log)
        if let failure = try resetWorktree(settings, log: log) {
            result.note = "the worktree could not be reset: \(failure)"
            return result
        }
        if let failure = try GateBuilds.runLoggedSteps([("git", ["-C", path, "apply", settings.catalogue + "/" + mutant.patch])], log: log) {
            result.note = "the patch does not apply: \(failure)"
            return result
        }
        let buildStart = monotonicNow()
        let jobs = String(settings.jobs)
        let configuration = settings.configuration.rawValue
        var build = [("swift", ["build", "-c", configuration, "--product", "difflab", "--package-path", path, "--jobs", jobs])]
        if mutant.check == .swiftTest { build.append(("swift", ["build", "--build-tests", "--package-path", path, "--jobs", jobs])) }
        let built = try GateBuilds.runLoggedSteps(build, log: log)
        result.buildSeconds = monotonicNow() - buildStart
        if let built {
            result.note = "the mutant does not build: \(built)"
            return result
        }
        switch mutant.check {
        case .fuzz: try fuzz(path + "/.build/\(configuration)/difflab", settings, into: &result)
        case .swiftTest: try test(path, filter: mutant.testFilter ?? "", settings, into: &result)
        }
        if result.equivalent && result.outcome == .killed {
            result.note = [result.note, "marked equivalent in the catalogue, yet killed: the claim is wrong"].compactMap { $0 }.joined(
                separator: "; ")
        }
        return result
    }

    /// The fuzz check: runs the mutant's fuzzer and reads its JSON summary (its last line).
    static func fuzz(_ binary: String, _ settings: Settings, into result: inout MutantResult) throws(CommandError) {
        let corpus = settings.scratch + "/corpus-\(result.name)"
        let output = settings.scratch + "/fuzz.out"
        let errors = settings.scratch + "/fuzz.err"
        defer {
            FileSystem.removeTree(corpus)
            try? FileSystem.removeFile(output)
            try? FileSystem.removeFile(errors)
        }
        let arguments = fuzzRunArguments(seconds: formatPlain(settings.seconds), seed: settings.seed, corpus: corpus)
        let environment: [String: String?] = ["SWIFT_BACKTRACE": "enable=no", "SWIFT_DETERMINISTIC_HASHING": "1"]
        // A run ends about when its time is up (shrinking stops then too); one that takes twice
        // as long and a minute more is hung.
        let limit = 2 * settings.seconds + 60
        let start = monotonicNow()
        let pid = try asCommandError { () throws(ProcessError) in
            try spawnProcess(binary, arguments, environment: environment, stdout: output, stderr: errors, argumentZero: "difflab")
        }
        let status: Int32
        do throws(CommandError) {
            status = try asCommandError { () throws(ProcessError) in
                try waitProcess(pid, writing: output, maxBytes: InputLimit.bytes, seconds: limit, what: "the mutant's fuzzer")
            }
        } catch {
            let elapsed = monotonicNow() - start
            result.checkSeconds = elapsed
            guard elapsed >= limit else {
                result.note = error.message
                return
            }
            result.outcome = .killed
            result.crashed = true
            result.secondsToKill = elapsed
            result.note = "the fuzzer hung: still running after \(Int(limit)) s (a run of \(formatPlain(settings.seconds)) s), stopped"
            return
        }
        result.checkSeconds = monotonicNow() - start
        if status >= 128 {
            result.outcome = .killed
            result.crashed = true
            result.secondsToKill = result.checkSeconds
            result.note = "the fuzzer process crashed (\(describeWaitStatus(status - 128))); time is until the crash"
            return
        }
        let text = String(decoding: try readInputFile(output), as: UTF8.self)
        guard let line = lastJSONLine(text) else {
            result.note = "the fuzzer exited \(status) without its JSON summary"
            return
        }
        let summary: FuzzSummaryFile
        do {
            summary = try FuzzSummaryFile(json: .object(line), source: "the mutant's fuzz --json summary")
        } catch {
            result.note = "the fuzzer exited \(status) with an unreadable JSON summary: \(error)"
            return
        }
        let failures = summary.failures
        if let killing = failures.first(where: { !$0.outsideContract }) {
            result.outcome = .killed
            result.signature = killing.signature
            result.shrunkItems = killing.shrunkItems
            result.originalItems = killing.originalItems
            result.inputsToKill = killing.inputsToFind
            result.crashed = killing.crashed
            result.secondsToKill = killing.secondsToFind
            if failures.count > 1 { result.note = "\(failures.count) distinct failures" }
        } else if status == 0 {
            result.outcome = .survived
            if !failures.isEmpty { result.note = "\(failures.count) failures outside an engine's contract only" }
        } else {
            result.note = "the fuzzer exited \(status) without a failure (no case ran?)"
        }
    }

    /// The swift-test check: runs the already built tests of the mutant's tree with `filter`.
    static func test(_ path: String, filter: String, _ settings: Settings, into result: inout MutantResult) throws(CommandError) {
        let output = settings.scratch + "/test.out"
        defer { try? FileSystem.removeFile(output) }
        let start = monotonicNow()
        let pid = try asCommandError { () throws(ProcessError) in
            try spawnProcess(
                "swift", ["test", "--skip-build", "--package-path", path, "--filter", filter], environment: ["SWIFT_BACKTRACE": "enable=no"],
                stdout: output, stderr: output)
        }
        let status: Int32
        do throws(CommandError) {
            status = try asCommandError { () throws(ProcessError) in
                try waitProcess(pid, writing: output, maxBytes: InputLimit.bytes, seconds: testSeconds, what: "`swift test --filter \(filter)`")
            }
        } catch {
            result.checkSeconds = monotonicNow() - start
            result.note = error.message
            return
        }
        result.checkSeconds = monotonicNow() - start
        guard status != 0 else {
            result.outcome = .survived
            return
        }
        let text = String(decoding: try readInputFile(output), as: UTF8.self)
        result.outcome = .killed
        result.secondsToKill = result.checkSeconds
        result.crashed = status >= 128
        // swift-testing marks a failed test "✘ Test name() …"; XCTest says "error:".
        let line = text.split(separator: "\n").first { $0.contains("✘ Test") || $0.contains(" error: ") }
        result.signature = line.map { String($0.prefix(200)).trimmingCharacters() } ?? "swift test --filter \(filter) exited \(status)"
    }

    /// The last line of `text` that parses as a JSON object.
    static func lastJSONLine(_ text: String) -> JSONObject? {
        for line in text.split(separator: "\n").reversed() where line.hasPrefix("{") {
            if let object = (try? JSONValue.parse(bytes: Array(line.utf8)))?.objectValue { return object }
        }
        return nil
    }

    /// One mutant's outcome in words, for the progress line.
    static func summary(of result: MutantResult) -> String {
        var words = result.outcome.rawValue
        if result.crashed { words += " (crash)" }
        if let seconds = result.secondsToKill { words += " in \(formatFixed(seconds, decimals: 1)) s" }
        if let signature = result.signature { words += ": \(signature)" }
        if let shrunk = result.shrunkItems { words += ", shrunk to \(shrunk) items" }
        if let note = result.note { words += " — \(note)" }
        return words
    }

    /// The results as a table, one row per mutant.
    static func table(_ results: [MutantResult]) -> String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        var lines = [
            pad("mutant", 36) + pad("area", 19) + pad("outcome", 18) + pad("seconds", 9) + pad("inputs", 9) + pad("shrunk", 8) + "signature / note"
        ]
        for r in results {
            let outcome = r.equivalent ? (r.outcome == .survived ? "equivalent" : "\(r.outcome.rawValue) (equiv.)") : r.outcome.rawValue
            lines.append(
                pad(r.name, 36) + pad(r.area.rawValue, 19) + pad(outcome + (r.crashed ? " (crash)" : ""), 18)
                    + pad(r.secondsToKill.map { formatFixed($0, decimals: 1) } ?? "–", 9) + pad(r.inputsToKill.map(String.init) ?? "–", 9)
                    + pad(r.shrunkItems.map(String.init) ?? "–", 8) + oneLine([r.signature, r.note].compactMap { $0 }.joined(separator: "; ")))
        }
        return lines.joined(separator: "\n")
    }
}
