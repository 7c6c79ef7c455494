import DiffLabBench
import DiffLabResults
import DiffLabUpdaters
import Foundation
import Testing

@testable import DiffLabCLI

/// Help shows the defaults the commands use (issue 44): each default is declared once, and the
/// text help shows for it is read back here by the option's own parser and compared with what
/// the command does when the option is not given. A default retyped in help, or changed in the
/// code alone, fails here.
@Suite struct HelpDefaultsTests {
    /// Reads `option`'s default as help shows it (`F; --quick Q`, or `F` alone when `quick` is
    /// `nil`) with the option's own parser, and expects `full` and `quick`.
    static func expectDefault<Value: Equatable>(
        _ option: Option<Value>, full: Value, quick: Value? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = try #require(option.defaultHelp, "--\(option.name) shows no default", sourceLocation: sourceLocation)
        let parts = text.components(separatedBy: "; --quick ")
        try #require(parts.count == (quick == nil ? 1 : 2), "--\(option.name): default \(text)", sourceLocation: sourceLocation)
        #expect(try option.value(parts[0]) == full, "--\(option.name): default \(text)", sourceLocation: sourceLocation)
        if let quick {
            #expect(try option.value(parts[1]) == quick, "--\(option.name): default \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func policysDefaultsAreTheGridsAndTheCommandsValues() throws {
        let options = PolicyCommand.Options()
        let full = PolicyGrid.full
        try Self.expectDefault(options.sizes, full: full.sizes)
        try Self.expectDefault(options.frameRates, full: full.frameRates)
        try Self.expectDefault(options.intervals, full: full.intervals)
        try Self.expectDefault(options.edits, full: full.editShares)
        try Self.expectDefault(options.adaptiveThresholds, full: full.adaptiveThresholds)
        try Self.expectDefault(options.coalescing, full: full.coalescing)
        try Self.expectDefault(options.reloadThresholds, full: full.reloadThresholds)
        // The repeats and duration help shows are the ones a run without them gets, quick or not.
        let plain = try PolicyPlan(PolicyCommand.Options.parse([]))
        let quick = try PolicyPlan(PolicyCommand.Options.parse(["--quick"]))
        #expect(plain.spec.grid == full && quick.spec.grid == PolicyGrid.quick)
        try Self.expectDefault(options.repeats, full: plain.spec.repeats, quick: quick.spec.repeats)
        try Self.expectDefault(options.duration, full: plain.spec.duration, quick: quick.spec.duration)
        #expect(plain.spec.repeats != quick.spec.repeats && plain.spec.duration != quick.spec.duration)
        // --quick's own line names the quick grid's values.
        let quickHelp = options.quick.helpText
        #expect(quickHelp.contains("sizes " + PolicyGrid.quick.sizes.map(String.init).joined(separator: ",")))
        #expect(quickHelp.contains("\(quick.spec.repeats) repeats of \(formatPlain(quick.spec.duration)) s"))
        let timeScale = try #require(options.timeScale.defaultHelp?.components(separatedBy: ",").first)
        #expect(try options.timeScale.value(timeScale) == PolicyCommand.defaultTimeScale)
    }

    @Test func realTimesDefaultsAreTheCommandsValues() throws {
        let options = PolicyRealTimeCommand.Options()
        let plain = try PolicyRealTimeCommand.Plan(PolicyRealTimeCommand.Options.parse([]))
        let quick = try PolicyRealTimeCommand.Plan(PolicyRealTimeCommand.Options.parse(["--quick"]))
        try Self.expectDefault(options.sizes, full: plain.sizes)
        try Self.expectDefault(options.duration, full: plain.duration, quick: quick.duration)
        #expect(options.quick.helpText.contains("sizes " + quick.sizes.map(String.init).joined(separator: ",")))
        #expect(options.quick.helpText.contains("\(formatPlain(quick.duration)) s per run"))
        #expect(plain.sizes != quick.sizes && plain.duration != quick.duration)
        #expect(plain.edits == PolicyRealTimeCommand.defaultEdits)
        #expect(PolicyRealTimeCommand.discussion.contains("each update makes \(plain.edits) random"))
    }

    @Test func benchsDefaultsAreBenchOptionsFullAndQuick() throws {
        let options = BenchCommand.Options()
        let (full, quick) = (BenchOptions.full, BenchOptions.quick)
        try Self.expectDefault(options.sizes, full: full.sizes, quick: quick.sizes)
        try Self.expectDefault(options.kinds, full: full.kinds, quick: quick.kinds)
        try Self.expectDefault(options.budget, full: full.budget, quick: quick.budget)
        try Self.expectDefault(options.maxCall, full: full.maxCallSeconds, quick: quick.maxCallSeconds)
        let quickHelp = options.quick.helpText
        #expect(quickHelp.contains("budget \(formatPlain(quick.budget)) s, call limit \(formatPlain(quick.maxCallSeconds)) s"))
        #expect(quickHelp.contains("\(quick.minSamples) to \(quick.maxSamples) samples (default: \(full.minSamples) to \(full.maxSamples))"))
        #expect(quickHelp.contains("sizes 1k and 10k (differencekit also 100k)"))
        #expect(options.kinds.helpText.contains("up to \(BenchOptions.largestNonIntSize) items"))
        #expect(BenchCommand.threadsRange == 1...64)  // HashMapEngine.threadRange
    }

    /// The arena hands its bench run the defaults its discussion names.
    @Test func arenasBenchDefaultsAreTheOnesItHandsOn() throws {
        let discussion = ArenaCommand.discussion.replacingOccurrences(of: "\n", with: " ")
        let sizes = ArenaCommand.benchSizes.map(String.init).joined(separator: ",")
        #expect(discussion.contains("the standard profiles, \(sizes), int, jemalloc, \(formatPlain(ArenaCommand.benchBudget)) s"))
    }

    @Test func theGatesFuzzsAndTheInputLimitsDefaultsAreTheirConstants() throws {
        let gate = GatePlan.Options()
        try Self.expectDefault(
            gate.rounds, full: GateCommand.defaultRounds.value(quick: false), quick: GateCommand.defaultRounds.value(quick: true))
        #expect(gate.quick.helpText.contains("× \(GateCommand.quickProfiles.count) profiles"))
        #expect(GateCommand.quickCells(["e"]).count == GateCommand.quickProfiles.count)
        let fuzz = FuzzCommand.Options()
        let seconds = try #require(fuzz.seconds.defaultHelp?.components(separatedBy: " ").first)
        #expect(try fuzz.seconds.value(seconds) == FuzzCommand.defaultSeconds)
        #expect(fuzz.writeSeeds.helpText.contains("default \(FuzzCommand.defaultSeedCount))"))
        #expect(GlobalOptions().maxInputBytes.defaultHelp == formatByteCount(InputLimit.defaultBytes))
    }

    /// The built-in engine sets help names are the table's (`BuiltInEngines`' gated and contested
    /// sets), and each command that defaults to one engine names it as it is spelled in the table.
    @Test func engineDefaultsInHelpAreTheTables() throws {
        #expect(GateCommand.defaultEngines == ["heckel", "hashmap", "myers", "hashmap-staged"])
        #expect(GatePlan.Options().engines.defaultHelp?.contains("or heckel, hashmap, myers and hashmap-staged when there are none") == true)
        #expect(ArenaCommand.difflabDefaults == ["heckel", "hashmap", "myers", "stdlib"])
        #expect(ArenaCommand.Options().engines.defaultHelp?.hasSuffix("and heckel, hashmap, myers and stdlib") == true)
        #expect(ArenaCommand.Options().baselines.defaultHelp == "hashmap, when a contestant")
        #expect(DiffCommand.Options().engine.defaultHelp == "heckel")
        #expect(
            DiffCommand.enginesHelp.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) } == [
                "heckel", "hashmap", "myers", "stdlib",
            ])
        for engine in ["heckel", "hashmap", "myers", "stdlib"] { #expect(ArenaCommand.difflabDefaults.contains(engine)) }
    }

    /// The `defaultText:` string literals of `text` that hold a digit outside their interpolations.
    static func restatedNumbers(in text: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"defaultText:\s*"((?:[^"\\]|\\.)*)""#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let literal = String(text[Range(match.range(at: 1), in: text)!])
            // Digits inside an interpolation are code, not a restated value.
            let outside = literal.replacingOccurrences(of: #"\\\([^)]*\)+"#, with: "", options: .regularExpression)
            return outside.contains(where: \.isNumber) ? literal : nil
        }
    }

    /// No `defaultText:` in the command line's sources is a literal with a digit in it: a number
    /// help shows as a default comes from the value it describes (issue 44 counted 18 such
    /// literals).
    @Test func noDefaultTextRestatesANumber() throws {
        var read = 0
        var found: [String] = []
        for folder in ["Sources/DiffLabCLI", "Sources/DiffLabDev"] {
            let root = cliPackageRoot + "/" + folder
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                read += 1
                found += try Self.restatedNumbers(in: text).map { "\(folder)/\(file): \"\($0)\"" }
            }
        }
        #expect(read >= 30, "read \(read) files")
        #expect(found.isEmpty, "defaultText literals with a number: \(found)")
        // The scan sees a restated number, across a line break too (so it can fail), and not a number
        // computed in an interpolation.
        #expect(try Self.restatedNumbers(in: "x(\n    defaultText: \"12; --quick 6\")") == ["12; --quick 6"])
        #expect(try Self.restatedNumbers(in: #"defaultText: "the \(a.b) or \(formatPlain(c.d(1)))s" "#).isEmpty)
        #expect(try Self.restatedNumbers(in: #"defaultText: "64 MiB""#) == ["64 MiB"])
    }
}
