import DiffLabCore
import DiffLabFormatting
import DiffLabResults

/// The "Arena" section of a report, from one `difflab-arena/1` file: the run, the contestants and
/// what they promise, the verdict per contestant (rules: ``DiffLabResults/ArenaVerdict``), speed,
/// memory and moves from the embedded benchmark, every failure, and a bug report file per failure
/// of a library.
///
/// Several arena files give one section each (with prefixes `arena-`, `arena2-`, …). The
/// embedded benchmark is shown only through this section's views (speed, memory, moves), not as a
/// full benchmark section: give the bench file itself to `difflab report` for that.
///
/// Every string that comes from the file is escaped (``Markdown/text(_:)``,
/// ``Markdown/literal(_:)``, ``Markdown/codeBlock(_:)``); table cells show at most
/// ``cellLimit`` characters of a counterexample or message (the bug reports and the file have
/// them whole).
struct ArenaSection {
    let results: ArenaResults
    /// File name prefix for this file's plots and its bug-report folder, e.g. `arena-`.
    let prefix: String

    /// The most characters of a list, batch update or message shown in a table cell.
    static let cellLimit = 300

    /// The folder of this file's bug reports, e.g. `arena-findings`.
    var findingsFolder: String { prefix + "findings" }

    /// The bug report file of failure `index` (0-based) of `contestant`: `<folder>/<engine>-<n>.md`, n from 1.
    func findingName(_ contestant: ArenaContestant, _ index: Int) -> String {
        "\(findingsFolder)/\(contestant.engine)-\(index + 1).md"
    }

    func write(_ writer: inout ReportWriter) {
        writer.line("## Arena — " + Markdown.code(results.source))
        writer.line("")
        writeHeader(&writer)
        writeContestants(&writer)
        writeVerdicts(&writer)
        if let bench = results.bench {
            let view = ArenaBenchView(bench: bench, contestants: results.contestants.map(\.engine))
            writeSpeed(&writer, view)
            writeNative(&writer, view)
            writeMemory(&writer, view)
            writeMoves(&writer, view)
        } else {
            writer.line("The run has no benchmark: speed, memory and moves are not shown.")
            writer.line("")
        }
        writeFailures(&writer)
    }

    private func writeHeader(_ writer: inout ReportWriter) {
        var rows = Markdown.provenanceRows(results.provenance, text: Markdown.text)
        let options = results.options
        rows.append(["fuzzing per contestant", NumberStyle.seconds.format(options.fuzzSeconds)])
        rows.append(["seed", Markdown.literal(options.seed)])
        rows.append(["workers", formatGrouped(options.workers)])
        rows.append(["baselines", options.baselines.isEmpty ? "none" : options.baselines.map(Markdown.code).joined(separator: ", ")])
        rows.append(["contestants", formatGrouped(results.contestants.count)])
        rows.append(["benchmark", results.bench.map { "embedded, \(formatGrouped($0.measurements.count)) cells" } ?? "none"])
        writer.line(Markdown.table(["run", "value"], rows))
    }

    private func writeContestants(_ writer: inout ReportWriter) {
        writer.line("### Contestants")
        writer.line("")
        let rows = results.contestants.map { c in
            [
                Markdown.code(c.engine), c.role.rawValue, Markdown.text(c.about.library),
                Markdown.text(c.about.version) + (c.about.revision.map { " at " + Markdown.literal($0) } ?? ""),
                c.about.source.map(Markdown.literal) ?? "—",
                c.about.build.map(Markdown.text) ?? "—", c.about.adapter.map(Markdown.text) ?? "—", Self.promisesText(c.promises),
            ]
        }
        writer.line(Markdown.table(["engine", "role", "library", "version", "source", "build", "adapter", "promises"], rows))
        writer.line(
            "*promises*: what the adapter declares and the fuzzer then checks: whether lists may repeat an identifier, whether the "
                + "moves are the fewest the engine's own pairing allows, and the reference its pairing must equal (`none`, "
                + "`unique-identifiers`, `minimal-script`, `heckel`).")
        writer.line("")
        let quoted = results.contestants.filter { !$0.about.promiseSources.isEmpty }
        guard !quoted.isEmpty else { return }
        writer.line("Where the promises are written (quoted from each library's documentation, as the file gives them):")
        writer.line("")
        for contestant in quoted {
            writer.line(Markdown.code(contestant.engine) + ":")
            writer.line("")
            for (index, source) in contestant.about.promiseSources.enumerated() { writer.line("\(index + 1). " + Markdown.text(source)) }
            writer.line("")
        }
    }

    /// `duplicates: no, minimal moves: yes, reference: heckel`.
    static func promisesText(_ promises: EnginePromises) -> String {
        "duplicates: \(promises.supportsDuplicates ? "yes" : "no"), minimal moves: \(promises.minimalMoves ? "yes" : "no"), reference: \(promises.reference.rawValue)"
    }

    private func writeVerdicts(_ writer: inout ReportWriter) {
        writer.line("### Verdict")
        writer.line("")
        let rows = results.contestants.map { c in
            let verdict = ArenaVerdict(c)
            let shortest = verdict.shortestCounterexample.map { f in
                Self.lists(f) + " (" + Markdown.literal(Markdown.brief(f.signature, Self.cellLimit)) + ")"
            }
            return [
                Markdown.code(c.engine),
                "\(formatGrouped(c.fuzz.inputs)) inputs, \(formatGrouped(c.fuzz.cases)) cases, \(NumberStyle.seconds.format(c.fuzz.seconds))",
                Self.mark(verdict.uniqueIdentifiers),
                Self.mark(verdict.duplicates) + (verdict.duplicatesPromised || verdict.duplicates.holds ? "" : " (not promised)"),
                verdict.sectioned.map { Self.mark($0) + ($0.holds || $0.outsideContract < $0.failures ? "" : " (outside contract)") } ?? "—",
                Self.mark(verdict.promisesKept), shortest ?? "—",
            ]
        }
        writer.line(
            Markdown.table(
                ["engine", "checked", "valid on unique ids", "valid with duplicates", "sectioned", "promises kept", "shortest counterexample"], rows))
        writer.line(
            """
            How to read it. The *validity properties* are `batch-valid` (the batch update UIKit gets passes its checks and turns \
            the old list into the new one, identity and content), `staged-valid` (the same for every stage of a staged \
            changeset) and `raw-sound` (the raw result is well formed and pairs equal identifiers only). A failure counts under \
            the property that found it, crashes and hangs included; ✗ n means n failures break the column.

            - *valid on unique ids*: ✓ when no failure of a validity property was found on flat input whose identifiers are unique.
            - *valid with duplicates*: the same on flat input that repeats an identifier; *(not promised)* marks an engine that \
            does not promise duplicates (those failures are outside its contract).
            - *sectioned*: the same on sectioned input (stage by stage), with or without repeated identifiers; — when sectioned \
            input was not fuzzed; *(outside contract)* when every such failure is.
            - *promises kept*: ✓ when no failure of any other property (`differential`, `metamorphic`, `sanitizer`, \
            `deterministic`, …), flat or sectioned, was found inside the engine's contract.
            - *shortest counterexample*: the failure whose old and new lists are shortest together (the first in the file among \
            equals), as old → new with its signature; `0:1` is identifier 0 with content 1.
            - *checked*: inputs generated and property cases run on them, and the seconds spent.

            """)
    }

    /// `✓`, or `✗ n`.
    static func mark(_ check: ArenaCheck) -> String { check.holds ? "✓" : "✗ \(formatGrouped(check.failures))" }

    /// `old` → `new`, each as inline code cut to ``cellLimit``.
    static func lists(_ failure: ArenaFailure) -> String {
        Markdown.literal(Markdown.brief(failure.old, cellLimit)) + " → " + Markdown.literal(Markdown.brief(failure.new, cellLimit))
    }

    private func writeFailures(_ writer: inout ReportWriter) {
        writer.line("### Failures")
        writer.line("")
        var rows: [[String]] = []
        for contestant in results.contestants {
            for (index, failure) in contestant.failures.enumerated() {
                var report = "—"
                if contestant.role == .library && failure.deservesBugReport {
                    let name = findingName(contestant, index)
                    writer.file(name, ArenaFinding(results: results, contestant: contestant, failure: failure).markdown)
                    report = "[bug report](\(name))"
                }
                rows.append([
                    Markdown.code(contestant.engine), String(index + 1), Markdown.literal(Markdown.brief(failure.signature, Self.cellLimit)),
                    failure.kind.rawValue, failure.scope.rawValue, failure.outsideContract ? "outside" : "inside", Self.lists(failure),
                    Markdown.text(Markdown.brief(failure.message, Self.cellLimit)), report,
                ])
            }
        }
        guard !rows.isEmpty else {
            writer.line("The fuzzer found no failure.")
            writer.line("")
            return
        }
        writer.line(
            "Every failure the fuzzer found, shrunk, in the file's order. *contract*: whether the input is within what the engine "
                + "promises (outside: it repeats an identifier and duplicates are not promised). A failure of a library has a bug "
                + "report ready to send upstream, in `\(findingsFolder)/`, when it is a crash or a hang, breaks a promise, or is an update "
                + "UIKit rejects or that leaves stale cells (`batch-valid`, `staged-valid`) on input the library took without complaint.")
        writer.line("")
        writer.line(
            Markdown.table(["engine", "#", "signature", "kind", "scope", "contract", "old → new", "message", "report"], rows, rightAligned: [1]))
    }
}
