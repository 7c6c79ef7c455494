import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import DiffLabUpdaters
import Foundation
import Testing

@testable import DiffLabCLI

@Suite("difflab updaters and replaying its findings")
struct UpdatersCommandTests {
    /// A findings file of `background-diff` (which breaks batch-valid), from a real campaign.
    static func findingsFile(runs: Int = 200) throws -> UpdaterFindingsFile {
        let campaign = UpdaterFindingsFile.Campaign(
            updaters: ["background-diff"], engine: "hashmap", seed: 1, runs: runs, settings: .standard)
        let engine = try #require(UpdaterEngine.named("hashmap"))
        let record = UpdatersCommand.campaignRecord(BackgroundDiffUpdater.subject, engine: engine, campaign: campaign)
        var file = UpdaterFindingsFile(source: "findings.json", campaign: campaign, updaters: [record])
        file.provenance = RunProvenance(
            createdAt: 1_700_000_000, machine: [DisplayField(name: "cpu", value: "test")], toolchain: "swift", commit: nil)
        return file
    }

    @Test func aFindingsFileReadsBackEqual() throws {
        let file = try findingsFileWithFindings()
        let text = file.json.serialized(pretty: true)
        let read = try UpdaterFindingsFile(json: try JSONValue.parse(text), source: "findings.json")
        #expect(read == file)
        #expect(read.json == file.json)
        // And a crash record, which has no runs.
        var crashed = file
        crashed.updaters[0] = UpdaterFindingsFile.Updater(
            name: "background-diff", checked: [], findings: [], crash: .init(kind: .crashed, message: "died by SIGILL"))
        #expect(try UpdaterFindingsFile(json: try JSONValue.parse(crashed.json.serialized()), source: "findings.json") == crashed)
        #expect(UpdatersSummary.Verdict(crashed.updaters[0]) == .crashed)
    }

    func findingsFileWithFindings() throws -> UpdaterFindingsFile {
        let file = try Self.findingsFile()
        #expect(file.updaters[0].findings.contains { $0.property == .batchValid })
        #expect(file.hasFindings)
        return file
    }

    /// `document` with the value at `path` (keys and indices) replaced by `value`, or removed when `nil`.
    func edited(_ document: JSONValue, _ path: [Any], _ value: JSONValue?) -> JSONValue {
        guard let first = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        if let key = first as? String, var object = document.objectValue {
            if rest.isEmpty && value == nil {
                object[key] = nil
            } else {
                object[key] = edited(object[key] ?? .null, rest, value)
            }
            return .object(object)
        }
        if let index = first as? Int, var array = document.arrayValue {
            array[index] = edited(array[index], rest, value)
            return .array(array)
        }
        return document
    }

    @Test func aDamagedFileIsAnErrorNamingTheField() throws {
        let document = try findingsFileWithFindings().json
        let finding: [Any] = ["updaters", 0, "findings", 0]
        let cases: [([Any], JSONValue?, String)] = [
            (["schema"], "difflab-updaters/9", "unknown schema \"difflab-updaters/9\""),
            (["campaign"], nil, "missing field campaign"),
            (["campaign", "runs"], 0, "campaign.runs is 0, outside its allowed range 1 to 10,000,000"),
            (["campaign", "seed"], "-1", "campaign.seed is \"-1\""),
            (["campaign", "settings", "maxGap"], 61, "campaign.settings.maxGap is 61"),
            (["campaign", "settings", "stepBudget"], "many", "campaign.settings.stepBudget should be an integer"),
            (["campaign", "engine"], "Hash Map", "campaign.engine should be an engine name"),
            (["updaters", 0, "name"], "other", "updaters[0].name should be one of campaign.updaters"),
            (["updaters", 0, "checked", 0], "fast", "updaters[0].checked[0] should be \"batch-valid\""),
            (["updaters", 0, "checked"], ["ends", "ends"], "updaters[0].checked[1] should be a property not listed before"),
            (["campaign", "seed"], "18446744073709551616", "campaign.seed is \"18446744073709551616\", outside its allowed range"),
            (finding + ["property"], "pretty", "updaters[0].findings[0].property should be \"batch-valid\", "),
            (finding + ["step"], -1, "updaters[0].findings[0].step is -1"),
            (finding + ["failingRuns"], 201, "updaters[0].findings[0].failingRuns is 201, outside its allowed range 1 to 200"),
            (finding + ["script"], nil, "missing field updaters[0].findings[0].script"),
            (finding + ["script", "versions", 1, "number"], 5, "updaters[0].findings[0].script.versions[1].number should be 1, not 5"),
            (
                finding + ["script", "versions", 0, "sections", 0, "items"], [[1, 2, 3]],
                "script.versions[0].sections[0].items[0] should be an [id, content] pair"
            ),
            (finding + ["script", "versions", 0, "sections", 0, "items"], [[1, -2]], "script.versions[0].sections[0].items[0][1] is -2"),
            (finding + ["script", "requestTimes"], [], "updaters[0].findings[0].script.requestTimes should be"),
            (finding + ["script", "requestTimes", 0], 1e300, "updaters[0].findings[0].script.requestTimes[0] is"),
            (finding + ["schedule"], "main", "updaters[0].findings[0].schedule should be an array"),
            (finding + ["events", 0, "time"], "-1", "updaters[0].findings[0].events[0].time should be a number"),
            (finding + ["events", 0, "onMain"], nil, "missing field updaters[0].findings[0].events[0].onMain"),
            (finding + ["events", 0, "notes"], .array(Array(repeating: "n", count: 65)), "events[0].notes is 65 elements"),
            (finding + ["events", 0, "lane"], .string(String(repeating: "l", count: 201)), "events[0].lane should be 1 to 200 characters"),
            (
                ["updaters", 0, "crash"], ["kind": "melted", "message": "x"],
                "updaters[0].crash.kind should be \"crashed\" or \"hung\", not \"melted\""
            ),
        ]
        for (path, value, message) in cases {
            let damaged = edited(document, path, value)
            #expect(throws: ResultsError.self, "\(path)") { try UpdaterFindingsFile(json: damaged, source: "f.json") }
            do {
                _ = try UpdaterFindingsFile(json: damaged, source: "f.json")
            } catch {
                #expect(error.description.contains(message), "\(path): \(error)")
                #expect(error.description.hasPrefix("f.json: "))
            }
        }
        // The same finding twice.
        let findings = try #require(document["updaters"]?.arrayValue?.first?["findings"]?.arrayValue)
        let doubled = edited(document, ["updaters", 0, "findings"], .array(findings + findings))
        #expect(throws: ResultsError.self) { try UpdaterFindingsFile(json: doubled, source: "f.json") }
        // An updater named twice.
        let updater = try #require(document["updaters"]?.arrayValue?.first)
        let twice = edited(document, ["updaters"], [updater, updater])
        #expect {
            try UpdaterFindingsFile(json: twice, source: "f.json")
        } throws: { error in
            "\(error)".contains("updaters[1].name should be a name no other updater of the file has")
        }
        // An isolated campaign's record is checked against the campaign's runs.
        #expect {
            try UpdaterFindingsFile.Updater(json: updater, source: "u.json", runs: 1)
        } throws: { error in
            "\(error)".contains("u.json: findings[0].failingRuns is ") && "\(error)".contains("outside its allowed range 1 to 1 (campaign.runs)")
        }
        #expect(try UpdaterFindingsFile.Updater(json: updater, source: "u.json", runs: 200).json == updater)
    }

    @Test func theCommandPrintsATableAndTimelinesWritesFindingsAndReplayReproducesThem() throws {
        let files = Files([:])
        let out = files.path("findings.json")
        let r = run(["updaters", "--runs", "200", "--seed", "1", "--updaters", "background-diff", "--out", out, "--json"])
        #expect(r.status == 1, "\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasPrefix("background-diff") && $0.contains("UNSAFE") && $0.contains("batch-valid") })
        #expect(r.out.contains("FINDING background-diff: batch-valid"))
        #expect(lines.contains { $0.hasPrefix("✗ ") && $0.contains("main: ") })
        #expect(lines.contains { $0.hasPrefix("✗ batch-valid at step ") })
        let summary = try UpdatersSummary(json: try JSONValue.parse(String(try #require(lines.dropLast().last))), source: "stdout")
        #expect(summary.updaters.map(\.verdict) == [.unsafe])
        #expect(summary.updaters[0].broken.contains(.batchValid))
        let file = try UpdaterFindingsFile(json: try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8)), source: out)
        #expect(file.campaign.runs == 200 && file.campaign.updaters == ["background-diff"])
        #expect(file.provenance.createdAt != nil)

        let replay = run(["replay", out])
        #expect(replay.status == 1, "\(replay.out)")
        #expect(replay.out.contains("FAIL \(out): background-diff batch-valid: reproduced: batch-valid at step "), "\(replay.out)")
        #expect(replay.out.contains("0 passed, \(file.updaters[0].findings.count) failed"), "\(replay.out)")
    }

    @Test func aFindingThatNoLongerBreaksPassesAndAFileWithoutFindingsFails() throws {
        var file = try findingsFileWithFindings()
        // A script of one request cannot race: its replay breaks nothing.
        var finding = file.updaters[0].findings[0]
        finding.script = try UpdaterScript(versions: Array(finding.script.versions.prefix(2)), requestTimes: [0])
        finding.schedule = []
        file.updaters[0].findings = [finding]
        let files = Files([
            "fixed.json": file.json.serialized(), "empty.json": UpdaterFindingsFile(campaign: file.campaign, updaters: []).json.serialized(),
        ])
        let fixed = run(["replay", files.path("fixed.json")])
        #expect(fixed.status == 0, "\(fixed.out)")
        #expect(fixed.out.contains("pass \(files.path("fixed.json")): background-diff batch-valid (passed"))
        let empty = run(["replay", files.path("empty.json")])
        #expect(empty.status == 1)
        #expect(empty.out.contains("no findings to replay"))
    }

    @Test func aDamagedOrTruncatedFindingsFileIsADataErrorNamingTheField() throws {
        let text = try findingsFileWithFindings().json.serialized()
        let damaged = text.replacingOccurrences(of: "\"failingRuns\":", with: "\"failingRuns\":-")
        let files = Files(["truncated.json": String(text.prefix(text.count / 2)), "damaged.json": damaged])
        let truncated = run(["replay", files.path("truncated.json")])
        #expect(truncated.status == 65, "\(truncated.err)")
        #expect(truncated.err.contains("truncated.json"))
        let bad = run(["replay", files.path("damaged.json")])
        #expect(bad.status == 65)
        #expect(bad.err.contains("updaters[0].findings[0].failingRuns is -"), "\(bad.err)")
    }

    /// A runner's own updater (`DiffLabRunner.main(engines:updaters:)`) is checked by name, listed
    /// in help, and its findings replay; a name clash with a built-in updater is a usage error.
    @Test func aRunnersOwnUpdaterIsCheckedByNameAndReplays() throws {
        let own = UpdaterSubject(name: "my-feed", summary: "the app's own") { BackgroundDiffUpdater(context: $0) }
        let files = Files([:])
        let out = files.path("mine.json")
        let recorder = Recorder()
        let status = DiffLabRunner.run(
            ["updaters", "--updaters", "my-feed", "--runs", "200", "--isolation", "none", "--out", out], engines: [], updaters: [own],
            console: recorder.console)
        #expect(status == 1, "\(recorder.out)\(recorder.err)")
        #expect(recorder.out.contains("FINDING my-feed: batch-valid"), "\(recorder.out)")
        let replay = Recorder()
        #expect(DiffLabRunner.run(["replay", out], engines: [], updaters: [own], console: replay.console) == 1)
        #expect(replay.out.contains("my-feed batch-valid: reproduced"), "\(replay.out)")
        // Without the runner's registration, the file names an updater this program does not have.
        #expect(run(["replay", out]).status == 1)
        let help = Recorder()
        _ = DiffLabRunner.run(["updaters", "--help"], engines: [], updaters: [own], console: help.console)
        #expect(help.out.contains("my-feed: the app's own"), "\(help.out)")
        let clash = Recorder()
        let clashed = DiffLabRunner.run(
            ["updaters"], engines: [], updaters: [UpdaterSubject(name: "diffable") { BackgroundDiffUpdater(context: $0) }], console: clash.console)
        #expect(clashed == 64)
        #expect(clash.err.contains("two updaters are named 'diffable'"), "\(clash.err)")
    }

    /// `--stress`: the same updaters on real queues after the scheduled runs; a finding there
    /// fails the command even when the scheduled runs found nothing, and a safe updater passes.
    @Test func theStressModeRunsOnRealQueuesAndItsFindingsFailTheCommand() throws {
        let safe = run(["updaters", "--runs", "20", "--updaters", "iglistkit-background", "--stress", "20", "--max-gap", "0"])
        #expect(safe.status == 0, "\(safe.out)\(safe.err)")
        #expect(safe.out.contains("STRESS iglistkit-background: 20 runs on real queues (time scale 0.001): every property held"), "\(safe.out)")
        // The race needs overlapping requests: many requests, all at time 0; one scheduled run
        // (seed 3 finds nothing in it) leaves the verdict to the stress runs.
        let racy = run([
            "updaters", "--runs", "1", "--seed", "3", "--updaters", "background-diff", "--stress", "60", "--max-gap", "0", "--max-requests", "12",
            "--max-items", "8",
        ])
        #expect(racy.status == 1, "\(racy.out)\(racy.err)")
        #expect(racy.out.contains("STRESS background-diff: 60 runs on real queues"), "\(racy.out)")
        #expect(racy.out.contains("batch-valid: broken in "), "\(racy.out)")
    }

    @Test(arguments: [
        (["--runs", "0"], "--runs expects an integer from 1 to 10000000 (got '0')"),
        (["--runs", "10000001"], "--runs expects an integer from 1 to 10000000"),
        (["--max-requests", "0"], "--max-requests expects an integer from 1 to 10000"),
        (["--max-items", "-1"], "--max-items expects an integer from 0 to 100000"),
        (["--max-edits", "100001"], "--max-edits expects an integer from 0 to 100000"),
        (["--max-gap", "61"], "--max-gap expects a number from 0 to 60"),
        (["--max-gap", "nan"], "--max-gap expects a number from 0 to 60"),
        (["--step-budget", "0"], "--step-budget expects an integer from 1 to 10000000"),
        (["--seed", "-1"], "--seed expects an integer from 0 to 18446744073709551615"),
        (["--engine", "fast"], "--engine expects a built-in engine"),
        (["--updaters", "nope"], "unknown updater 'nope'"),
        (["--updaters", ""], "--updaters expects a comma-separated list"),
        (["--campaign-seconds", "0"], "--campaign-seconds expects a number from 0.1"),
        (["--isolation", "vfork"], "--isolation expects one of: fork, spawn, none"),
        (["--stress", "0"], "--stress expects an integer from 1 to 1000000"),
        (["--stress", "1", "--stress-time-limit", "0"], "--stress-time-limit expects a number from 0.01 to 3600"),
        // Checked before the scheduled runs (10,000 runs would take minutes): 10,000 requests 1 s
        // apart do not fit in half of 10 s at 1,000 times speed.
        (["--stress", "1", "--max-requests", "10000", "--max-gap", "1", "--max-items", "50"], "--stress: timeScale"),
        (["--max-requests", "10000", "--max-items", "1000"], "--max-items: maxItems: expected at most 99 with 10000 requests"),
    ])
    func outOfRangeOptionsAreUsageErrorsNamingTheOption(arguments: [String], message: String) {
        let r = run(["updaters"] + arguments)
        #expect(r.status == 64)
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.out.isEmpty)
    }

    /// An output path that is not a regular file fails before the run (73), and is left as it was.
    @Test(arguments: ["fifo", "link", "folder"])
    func aBadOutputFailsBeforeTheRun(target: String) throws {
        let files = Files(["real.json": "{}"])
        let path = files.path("out-\(target)")
        switch target {
        case "fifo": try FileSystem.makeFIFO(path, permissions: 0o600)
        case "link": try FileSystem.makeSymbolicLink(at: path, to: files.path("real.json"))
        default: try FileSystem.makeDirectory(path, permissions: 0o700)
        }
        defer { if target == "folder" { try? FileSystem.removeDirectory(path) } }
        let r = run(["updaters", "--runs", "5", "--out", path])
        #expect(r.status == 73, "\(r.err)")
        #expect(r.err.contains("--out '\(path)'"))
        #expect(r.out.isEmpty)
        #expect(!r.err.contains("checking"))
        #expect(try String(contentsOfFile: files.path("real.json"), encoding: .utf8) == "{}")
    }

    @Test func theHelpListsTheUpdatersTheRangesAndTheProperties() {
        let r = run(["updaters", "--help"])
        #expect(r.status == 0)
        for name in BuiltInUpdaters.names { #expect(r.out.contains(name)) }
        for property in UpdaterProperty.allCases { #expect(r.out.contains(property.rawValue)) }
        #expect(r.out.contains("--max-requests N"))
        #expect(r.out.contains("1 to 10000"))
        #expect(run(["--help"]).out.contains("updaters [options]"))
    }

    @Test func aWorkerIsGivenTheCampaignsOwnOptions() throws {
        let campaign = UpdaterFindingsFile.Campaign(
            updaters: ["background-diff"], engine: "myers", seed: 9, runs: 7,
            settings: UpdaterFuzzSettings(maxRequests: 3, maxItems: 4, maxEdits: 5, maxGap: 0.5, stepBudget: 99))
        let arguments = UpdatersCommand.workerArguments(
            BackgroundDiffUpdater.subject, engine: try #require(UpdaterEngine.named("myers")), campaign: campaign)
        let parsed = try UpdatersCommand.Options.parse(Array(arguments.dropFirst()) + ["/tmp/job"])
        #expect(parsed[\.runs] == 7 && parsed[\.seed] == 9 && parsed[\.maxRequests] == 3 && parsed[\.maxItems] == 4)
        #expect(parsed[\.maxEdits] == 5 && parsed[\.maxGap] == 0.5 && parsed[\.stepBudget] == 99 && parsed[\.engine]?.name == "myers")
        #expect(parsed[\.updaters]?.map(\.name) == ["background-diff"])
        #expect(parsed[\.isolationJob] == "/tmp/job")
    }
}

/// An updater whose code traps on its second request, and one that never returns from its first.
private final class TrappingUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    let hang: Bool
    init(context: UpdaterContext, hang: Bool) {
        self.context = context
        self.hang = hang
    }
    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        if hang {
            var spins: UInt64 = 0
            while spins != .max { spins = spins &+ (version.number > 0 ? 1 : 0) }
        }
        precondition(version.number < 2, "the trapping updater traps")
        context.collectionView.setData(version)
        context.collectionView.reloadData()
        completion(true)
    }
}

/// Forking from the test runner: the child runs Swift code only, on a thread of its own (see
/// `forkChild`); Linux only.
@Suite("difflab updaters: crash isolation", .serialized, .enabled(if: platformCanFork))
struct UpdatersIsolationTests {
    func campaign(_ name: String) -> UpdaterFindingsFile.Campaign {
        UpdaterFindingsFile.Campaign(updaters: [name], engine: "hashmap", seed: 1, runs: 50, settings: .standard)
    }

    @Test func aTrapEndsOnlyTheUpdatersCampaignProcessAndIsItsVerdict() throws {
        let subject = UpdaterSubject(name: "trapping") { TrappingUpdater(context: $0, hang: false) }
        let isolation = UpdatersIsolation(how: .fork, seconds: 60, maxRecordBytes: 1 << 20) { _ in FuzzWorkerCommand(executable: "", arguments: []) }
        let record = try isolation.campaign(subject, engine: try #require(UpdaterEngine.named("hashmap")), campaign: campaign("trapping"))
        let crash = try #require(record.crash)
        #expect(crash.kind == .crashed)
        #expect(crash.message.contains("died by SIG"), "\(crash.message)")
        #expect(UpdatersSummary.Verdict(record) == .crashed)
    }

    @Test func aHangInsideAStepIsStoppedAndIsItsVerdict() throws {
        let subject = UpdaterSubject(name: "hanging") { TrappingUpdater(context: $0, hang: true) }
        let isolation = UpdatersIsolation(how: .fork, seconds: 0.5, maxRecordBytes: 1 << 20) { _ in FuzzWorkerCommand(executable: "", arguments: []) }
        let record = try isolation.campaign(subject, engine: try #require(UpdaterEngine.named("hashmap")), campaign: campaign("hanging"))
        #expect(record.crash?.kind == .hung)
    }

    @Test func aHealthyCampaignComesBackAsItsRecord() throws {
        let engine = try #require(UpdaterEngine.named("hashmap"))
        let isolation = UpdatersIsolation(how: .fork, seconds: 120, maxRecordBytes: 64 << 20) { _ in FuzzWorkerCommand(executable: "", arguments: [])
        }
        let campaign = campaign("background-diff")
        let isolated = try isolation.campaign(BackgroundDiffUpdater.subject, engine: engine, campaign: campaign)
        #expect(isolated == UpdatersCommand.campaignRecord(BackgroundDiffUpdater.subject, engine: engine, campaign: campaign))
        #expect(!isolated.findings.isEmpty)
    }
}
