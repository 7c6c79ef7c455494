import DiffLabFormatting
import DiffLabResults
import DiffLabUpdaters

/// The "Updaters" section of a report, from one `difflab-updaters/1` findings file: the
/// campaign, a table of updaters × properties, then each finding — the property, what happened
/// (UIKit's message for `batch-valid`), the shrunk run's size, the command that replays it, and
/// its schedule as a swim-lane SVG (``SwimLaneFigure``).
///
/// Several findings files give one section each (prefixes `updaters-`, `updaters2-`, …). Every
/// text from the file is escaped; names, messages and labels are cut (the file has them whole).
/// At most ``maxFindings`` findings of a file are shown in full (with a figure each); the table
/// counts them all.
struct UpdatersSection {
    let findings: UpdaterFindingsFile
    /// File name prefix for this file's figures and anchors, e.g. `updaters-`.
    let prefix: String

    /// The most findings of one file shown in full: 100 (the built-in updaters have a handful;
    /// a file may hold 1,024 updaters × 8 properties).
    static let maxFindings = 100
    /// The most characters of a name shown in a table cell or heading.
    static let nameLimit = 80
    /// The most characters of a failure's message shown.
    static let messageLimit = 2_000

    /// What a cell of the table says about `property` for `updater`: `held`, `✗ n runs` (linking
    /// to the finding when `anchor` is given), `—` when the updater was not held to it, `not run`
    /// when its campaign crashed or hung.
    static func cell(_ updater: UpdaterFindingsFile.Updater, _ property: UpdaterProperty, anchor: String?) -> String {
        if let finding = updater.findings.first(where: { $0.property == property }) {
            let text = "✗ \(formatGrouped(finding.failingRuns)) run" + (finding.failingRuns == 1 ? "" : "s")
            return anchor.map { "[\(text)](#\($0))" } ?? text
        }
        if updater.crash != nil { return "not run" }
        return updater.checked.contains(property) ? "held" : "—"
    }

    /// An updater's verdict as the table shows it: `safe`, `unsafe`, `crashed`, `hung`, or
    /// `nothing checked` for a record that held to no property and broke none (a check that
    /// compared nothing is not a pass).
    static func verdict(_ updater: UpdaterFindingsFile.Updater) -> String {
        let verdict = UpdatersSummary.Verdict(updater)
        if verdict == .safe && updater.checked.isEmpty { return "nothing checked" }
        return verdict == .safe ? "safe" : "**\(verdict.rawValue)**"
    }

    /// The number of distinct items in `script`'s versions (the shrinker removes items by
    /// identifier). O(items).
    static func itemCount(_ script: UpdaterScript) -> Int {
        var ids: Set<Int> = []
        for version in script.versions {
            for section in version.data.sections {
                for item in section.items { ids.insert(item.id) }
            }
        }
        return ids.count
    }

    func write(_ writer: inout ReportWriter) {
        writer.line("## Updaters — " + Markdown.code(findings.source))
        writer.line("")
        writeHeader(&writer)
        let anchors = self.anchors
        writeTable(&writer, anchors: anchors)
        writeFindings(&writer, anchors: anchors)
    }

    /// The anchor of each finding shown in full, by updater index and property.
    private var anchors: [Int: [UpdaterProperty: (number: Int, anchor: String)]] {
        var anchors: [Int: [UpdaterProperty: (number: Int, anchor: String)]] = [:]
        var number = 0
        for (index, updater) in findings.updaters.enumerated() {
            for finding in updater.findings {
                guard number < Self.maxFindings else { return anchors }
                number += 1
                anchors[index, default: [:]][finding.property] = (number, prefix + "finding-\(number)")
            }
        }
        return anchors
    }

    private func writeHeader(_ writer: inout ReportWriter) {
        var rows = Markdown.provenanceRows(findings.provenance, text: Markdown.text)
        let campaign = findings.campaign
        let settings = campaign.settings
        rows.append(["engine", Markdown.literal(Markdown.brief(campaign.engine, Self.nameLimit))])
        rows.append(["seed", Markdown.literal(String(campaign.seed))])
        rows.append(["runs per updater", formatGrouped(campaign.runs)])
        rows.append([
            "each run",
            "at most \(formatGrouped(settings.maxRequests)) requests, \(formatGrouped(settings.maxItems)) items a version, "
                + "\(formatGrouped(settings.maxEdits)) edits between versions, \(formatPlain(settings.maxGap)) s between requests, "
                + "\(formatGrouped(settings.stepBudget)) steps",
        ])
        writer.line(Markdown.table(["campaign", "value"], rows))
        writer.line(
            """
            Each run is a random script (versions of a list the app asks for at virtual times) under a seeded random walk or \
            PCT schedule of the main queue, the background queues, timers, layout passes and the app's requests; the \
            collection view is a model of UIKit's that raises UIKit's message for an invalid batch. The first run breaking a \
            property is shrunk to the fewest requests, schedule deviations and items.
            """)
        writer.line("")
    }

    private func writeTable(_ writer: inout ReportWriter, anchors: [Int: [UpdaterProperty: (number: Int, anchor: String)]]) {
        writer.line("### Updaters × properties")
        writer.line("")
        let rows = findings.updaters.enumerated().map { index, updater in
            [Markdown.literal(Markdown.brief(updater.name, Self.nameLimit)), Self.verdict(updater)]
                + UpdaterProperty.allCases.map { Self.cell(updater, $0, anchor: anchors[index]?[$0]?.anchor) }
        }
        writer.line(Markdown.table(["updater", "verdict"] + UpdaterProperty.allCases.map { Markdown.code($0.rawValue) }, rows))
        writer.line(
            "*held*: checked in every run and never broken; *✗ n runs*: broken in n of the \(formatGrouped(findings.campaign.runs)) "
                + "runs (the link goes to its shrunk run); *—*: the updater is not held to it (`drops-superseded` binds only an "
                + "updater that promises to drop superseded diffs); *not run*: the updater's campaign crashed or hung, taking its "
                + "runs with it.")
        writer.line("")
        for property in UpdaterProperty.allCases {
            writer.line("- " + Markdown.code(property.rawValue) + ": " + property.meaning)
        }
        writer.line("")
        let ended = findings.updaters.filter { $0.crash != nil }
        for updater in ended {
            guard let crash = updater.crash else { continue }
            writer.line(
                "- " + Markdown.literal(Markdown.brief(updater.name, Self.nameLimit)) + " " + crash.kind.rawValue + ": "
                    + Markdown.text(Markdown.brief(crash.message, Self.messageLimit)))
        }
        if !ended.isEmpty { writer.line("") }
    }

    private func writeFindings(_ writer: inout ReportWriter, anchors: [Int: [UpdaterProperty: (number: Int, anchor: String)]]) {
        let total = findings.updaters.reduce(0) { $0 + $1.findings.count }
        guard total > 0 else {
            writer.line("No updater broke a property: there is no shrunk run to show.")
            writer.line("")
            return
        }
        writer.line("### Findings")
        writer.line("")
        writer.line(
            "Each finding's shrunk run, as a swim lane per queue: the main thread's lanes (`app` for the app's requests, `main`, "
                + "`layout`, `timers`) above, the background's (each serial queue, `global`) below, one column per step, the step "
                + "that broke the property marked ✗ in red. Hover a box for its notes (what it did to the view and data source). "
                + "`difflab updaters` prints the same run as a text timeline.")
        writer.line("")
        for (index, updater) in findings.updaters.enumerated() {
            for finding in updater.findings {
                guard let (number, anchor) = anchors[index]?[finding.property] else { continue }
                writeFinding(&writer, finding, of: updater, number: number, anchor: anchor)
            }
        }
        if total > Self.maxFindings {
            writer.line("\(formatGrouped(total - Self.maxFindings)) more findings are in the file; the report shows the first \(Self.maxFindings).")
            writer.line("")
        }
    }

    private func writeFinding(
        _ writer: inout ReportWriter, _ finding: UpdaterFindingsFile.Finding, of updater: UpdaterFindingsFile.Updater, number: Int, anchor: String
    ) {
        let name = Markdown.literal(Markdown.brief(updater.name, Self.nameLimit))
        writer.line("<a id=\"\(anchor)\"></a>")
        writer.line("")
        writer.line("#### Finding \(number): \(name) breaks `\(finding.property.rawValue)`")
        writer.line("")
        let runs = findings.campaign.runs
        writer.line(
            "*\(finding.property.meaning)* — broken in \(formatGrouped(finding.failingRuns)) of \(formatGrouped(runs)) runs; first by "
                + "the run of seed " + Markdown.literal(String(finding.seed)) + ".")
        writer.line("")
        let at = finding.step > 0 ? "at step \(formatGrouped(finding.step))" : "at the end of the run"
        writer.line(finding.property == .batchValid ? "UIKit's message (\(at)):" : "What happened (\(at)):")
        writer.line("")
        writer.line(Markdown.codeBlock(Markdown.brief(finding.message, Self.messageLimit)))
        let requests = finding.script.requestCount
        writer.line(
            "Shrunk to \(formatGrouped(requests)) request\(requests == 1 ? "" : "s"), \(formatGrouped(Self.itemCount(finding.script))) "
                + "items and \(formatGrouped(finding.events.count)) steps. Replay: "
                + Markdown.literal("difflab replay " + findings.source) + ".")
        writer.line("")
        let figure = SwimLaneFigure(
            title: "Finding \(number): " + Markdown.brief(updater.name, Self.nameLimit) + " breaks \(finding.property.rawValue)",
            events: finding.events, failure: finding.failure)
        let drawn = figure.drawn
        let shown =
            drawn.count < finding.events.count
            ? " Steps \(drawn.lowerBound + 1) to \(drawn.upperBound) of \(formatGrouped(finding.events.count)) are drawn." : ""
        writer.image(
            prefix + "finding-\(number)-\(finding.property.rawValue).svg", svg: figure.svg(),
            alt: "Finding \(number): the shrunk run's swim lanes (\(finding.property.rawValue))",
            caption: "*The shrunk run of finding \(number), one lane per queue, the failing step marked ✗.\(shown)*")
        writer.line("")
    }
}
