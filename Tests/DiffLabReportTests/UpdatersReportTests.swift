import DiffLabJSON
import DiffLabReport
import DiffLabResults
import DiffLabUpdaters
import Testing

/// An updater that diffs and applies on the main queue at once, when asked: safe, and it keeps a
/// promise to drop superseded diffs (it never holds one).
private final class MainQueueUpdater: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    var current: ListVersion

    init(context: UpdaterContext) {
        self.context = context
        current = context.initial
    }

    static let subject = UpdaterSubject(
        name: "main-queue", summary: "diffs and applies on the main queue when asked", promises: UpdaterPromises(dropsSupersededDiffs: true),
        make: { MainQueueUpdater(context: $0) })

    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let view = context.collectionView
        guard let batch = current.batchUpdate(to: version, engine: context.engine) else {
            current = version
            view.setData(version)
            view.reloadData()
            completion(true)
            return
        }
        view.performBatchUpdates(
            batch,
            updates: {
                current = version
                view.setData(version)
            }, completion: completion)
    }
}

/// A campaign's record, converted as `difflab updaters` converts it
/// (``UpdaterFindingsFile/Finding/init(_:)``).
private func record(_ subject: UpdaterSubject, runs: Int = 200) throws -> UpdaterFindingsFile.Updater {
    let campaign = try UpdaterFuzzer(subject: subject).campaign(runs: runs, seed: 1)
    return UpdaterFindingsFile.Updater(
        name: subject.name, checked: campaign.checked, findings: campaign.findings.map(UpdaterFindingsFile.Finding.init))
}

/// A findings file of the two updaters above (200 runs each, seed 1), a hand-made record of an
/// updater whose campaign crashed, read back from its document as `difflab report` reads it.
private func findingsFile() throws -> (UpdaterFindingsFile, ResultsFile) {
    let crashed = UpdaterFindingsFile.Updater(
        name: "crasher", checked: [], findings: [], crash: .init(kind: .crashed, message: "its campaign's process died by signal 4 (SIGILL)"))
    let file = UpdaterFindingsFile(
        campaign: .init(
            updaters: ["main-queue", "background-diff", "crasher"], engine: "hashmap", seed: 1, runs: 200, settings: .standard),
        updaters: [try record(MainQueueUpdater.subject), try record(BackgroundDiffUpdater.subject), crashed])
    let read = try ResultsFile(file.json, source: "updaters.json")
    return (file, read)
}

/// `markdown` without its fenced code blocks and inline code spans.
private func outsideCode(_ markdown: String) -> String {
    var fenced = false
    var kept: [String] = []
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
            fenced.toggle()
            continue
        }
        guard !fenced else { continue }
        kept.append(line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined())
    }
    return kept.joined(separator: "\n")
}

/// The table row of `updater`.
private func row(_ markdown: String, _ updater: String) -> String? {
    markdown.split(separator: "\n").first { $0.hasPrefix("| `\(updater)` |") }.map(String.init)
}

@Suite struct UpdatersReportTests {
    @Test func theTableSaysHeldBrokenWithItsRunsNotHeldToAndNotRun() throws {
        let (file, read) = try findingsFile()
        guard case .updaters(let findings) = read else {
            Issue.record("read as \(read.schema)")
            return
        }
        #expect(findings.updaters == file.updaters)
        let report = try makeReport([read])
        let markdown = report.markdown

        let header = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| updater | verdict |") })
        #expect(header == "| updater | verdict | " + UpdaterProperty.allCases.map { "`\($0.rawValue)`" }.joined(separator: " | ") + " |")

        // Safe, and held to drops-superseded: it promises it.
        #expect(file.updaters[0].findings.isEmpty && file.updaters[0].checked.contains(.dropsSuperseded))
        #expect(row(markdown, "main-queue") == "| `main-queue` | safe | held | held | held | held | held | held | held | held |")

        // Broken: batch-valid, with its failing runs, linking to the finding; not held to drops-superseded.
        let broken = try #require(file.updaters[1].findings.first { $0.property == .batchValid })
        #expect(file.updaters[1].findings.count == 1)
        #expect(!file.updaters[1].checked.contains(.dropsSuperseded))
        let runs = broken.failingRuns
        #expect(
            row(markdown, "background-diff")
                == "| `background-diff` | **unsafe** | [✗ \(runs) runs](#updaters-finding-1) | held | held | held | — | held | held | held |")

        // Crashed: nothing was run, and the message says why.
        #expect(
            row(markdown, "crasher") == "| `crasher` | **crashed** | not run | not run | not run | not run | not run | not run | not run | not run |")
        #expect(markdown.contains("- `crasher` crashed: its campaign's process died by signal 4 \\(SIGILL\\)"))
    }

    @Test func eachFindingHasItsMessageSizeReplayAndSwimLanes() throws {
        let (file, read) = try findingsFile()
        let report = try makeReport([read])
        let finding = try #require(file.updaters[1].findings.first)
        let markdown = report.markdown
        #expect(markdown.contains("<a id=\"updaters-finding-1\"></a>"))
        #expect(markdown.contains("#### Finding 1: `background-diff` breaks `batch-valid`"))
        #expect(markdown.contains("UIKit's message (at step \(finding.step)):\n\n```text\n\(finding.message)\n```"))
        #expect(finding.script.requestCount == 2)
        let items = Set(finding.script.versions.flatMap(\.allItems).map(\.id)).count
        #expect(markdown.contains("Shrunk to 2 requests, \(items) items and \(finding.events.count) steps. Replay: `difflab replay updaters.json`."))
        #expect(report.files.map(\.name) == ["updaters-finding-1-batch-valid.svg"])
        #expect(markdown.contains("](updaters-finding-1-batch-valid.svg)"))

        let svg = try #require(report.files.first?.contents)
        #expect(xmlError(svg) == nil)
        // One lane per lane name of the run, each named at the left.
        let figure = SwimLaneFigure(title: "t", events: finding.events, failure: finding.failure)
        let names = Set(finding.events.map(\.lane))
        #expect(names.isSuperset(of: ["app", "main", "background"]))
        #expect(figure.lanes.map(\.name) == ["app", "main", "layout", "background"].filter(names.contains))
        #expect(Set(figure.lanes.compactMap(\.name)) == names)
        for name in names { #expect(svg.contains("class=\"title\">\(name)</text>"), "lane \(name)") }
        // One box a step; the failing one, and only it, marked.
        #expect(svg.components(separatedBy: "<g><title>").count - 1 == finding.events.count)
        #expect(svg.components(separatedBy: "<g><title>✗ step").count - 1 == 1)
        #expect(svg.contains("<g><title>✗ step \(finding.step) at "))
        #expect(svg.contains(">✗ \(finding.step)</text>"))
    }

    @Test func aFailureAtTheEndMarksTheLastStepAndAMissingStepMarksNone() {
        let events = (1...5).map { UpdaterEvent(step: $0, time: 0, lane: $0 % 2 == 0 ? "main" : "queue", onMain: $0 % 2 == 0, label: "s\($0)") }
        let atEnd = SwimLaneFigure(title: "t", events: events, failure: UpdaterFailure(property: .lastVersionShown, message: "m", step: 0))
        #expect(atEnd.failingIndex == 4)
        #expect(atEnd.svg().contains("<g><title>✗ step 5 at "))
        let missing = SwimLaneFigure(title: "t", events: events, failure: UpdaterFailure(property: .batchValid, message: "m", step: 99))
        #expect(missing.failingIndex == nil)
        #expect(!missing.svg().contains("<g><title>✗"))
        #expect(missing.svg().contains("no step of the timeline has that number"))
    }

    @Test(.timeLimit(.minutes(5)))
    func hostileLabelsAreEscapedAndBounded() throws {
        let huge = String(repeating: "x", count: 10_000)
        let script = "<script>alert(1)</script>"
        let bidi = "a\u{202E}b\u{0007}c"
        // 100,000 steps on 66,668 lanes, hostile labels, lane names and notes; broken at step 60,000.
        let note = huge + script
        let events = (1...100_000).map { step in
            UpdaterEvent(
                step: step, time: Double(step) / 1e3, lane: step % 3 == 0 ? script : step == 60_000 ? huge : "queue \(step)", onMain: step % 2 == 0,
                label: step % 2 == 0 ? script + bidi : huge, notes: Array(repeating: note, count: 100))
        }
        let failure = UpdaterFailure(property: .batchValid, message: script + huge, step: 60_000)
        let figure = SwimLaneFigure(title: script + huge, events: events, failure: failure)
        #expect(figure.drawn.count == SwimLaneFigure.maxSteps)
        #expect(figure.drawn.contains(59_999))
        #expect(figure.lanes.count == SwimLaneFigure.maxLanes)
        #expect(figure.lanes.last?.name == nil)
        let svg = figure.svg()
        #expect(xmlError(svg) == nil)
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&lt;script&gt;"))
        #expect(!svg.contains("\u{202E}") && !svg.contains("\u{0007}"))
        #expect(!svg.contains(String(repeating: "x", count: 2_001)))
        #expect(svg.utf8.count < 2_000_000, "\(svg.utf8.count) bytes")
        #expect(svg.components(separatedBy: "<g><title>").count - 1 == SwimLaneFigure.maxSteps)
        #expect(svg.contains("<g><title>✗ step 60000 at "))
        #expect(svg.contains("steps 59910 to 60029 of 100000 drawn"))

        // Through a whole report: the name and message are cut and escaped too.
        let file = UpdaterFindingsFile(
            campaign: .init(updaters: [script], engine: "hashmap", seed: 1, runs: 1, settings: .standard),
            updaters: [
                UpdaterFindingsFile.Updater(
                    name: script, checked: [.batchValid],
                    findings: [
                        UpdaterFindingsFile.Finding(
                            property: .batchValid, message: failure.message, step: failure.step, seed: 1, failingRuns: 1,
                            script: try UpdaterScript(
                                versions: [ListVersion(number: 0, data: UpdaterData([])), ListVersion(number: 1, data: UpdaterData([]))],
                                requestTimes: [0]),
                            schedule: [], events: events)
                    ])
            ])
        let report = try makeReport([.updaters(file)])
        // Shown as code (a span, a fenced block), never as markup.
        #expect(!outsideCode(report.markdown).contains("<script"))
        #expect(report.markdown.contains("#### Finding 1: `<script>alert(1)</script>` breaks `batch-valid`"))
        #expect(report.markdown.utf8.count < 20_000, "\(report.markdown.utf8.count) bytes")
        #expect(report.files.count == 1 && report.files.allSatisfy { xmlError($0.contents) == nil })
    }

    @Test func theOutputIsByteIdenticalAcrossRuns() throws {
        let (_, first) = try findingsFile()
        let (_, second) = try findingsFile()
        let a = try makeReport([first])
        let b = try makeReport([second])
        #expect(a == b)
        #expect(!a.files.isEmpty)
    }

    @Test func aFileWithoutUpdatersIsRefusedAndSeveralFilesGetNumberedNames() throws {
        var file = try findingsFile().0
        let document = file.json
        file.updaters = []
        #expect(throws: ResultsError.self) { try ResultsFile(file.json, source: "empty.json") }
        let read = try ResultsFile(document, source: "a.json")
        let report = try makeReport([read, read])
        #expect(report.files.map(\.name) == ["updaters-finding-1-batch-valid.svg", "updaters2-finding-1-batch-valid.svg"])
        #expect(report.markdown.contains("(#updaters2-finding-1)"))
    }

    @Test func labelsWrapInTwoLinesAtMost() {
        #expect(SwimLaneFigure.wrapped("app requests v1 (2 items)", width: 18) == ["app requests v1 (2", "items)"])
        #expect(SwimLaneFigure.wrapped("start: the view shows v0 (3 items)", width: 18) == ["start: the view", "shows v0 (3 items)"])
        #expect(SwimLaneFigure.wrapped("one two three four five six", width: 9) == ["one two", "three…"])
        #expect(SwimLaneFigure.wrapped(String(repeating: "y", count: 30), width: 10) == ["yyyyyyyyyy", "yyyyyyyyy…"])
        #expect(SwimLaneFigure.wrapped("   ", width: 10) == [])
    }
}
