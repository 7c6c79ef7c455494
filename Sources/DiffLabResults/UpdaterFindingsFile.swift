import DiffLabBatch
import DiffLabFormatting
import DiffLabJSON
import DiffLabUpdaters

/// A `difflab-updaters/1` findings file, written by `difflab updaters --out` and re-run by
/// `difflab replay`: the campaign (which updaters, the engine, the seed, the runs and limits),
/// and per updater the properties it was held to and each property it broke, with the shrunk
/// run that breaks it — the script (versions and request times), the schedule (lane names, which
/// ``ScheduleStrategy/replay(_:)`` repeats) and the timeline.
///
/// ## What a valid file holds
/// - `schema`: exactly ``schema``; the run's provenance (`createdAt`, `machine`, `toolchain`,
///   `commit`, all optional).
/// - `campaign` (required): ``Campaign``.
/// - `updaters` (required): at most ``maxUpdaters`` ``Updater`` objects with distinct names, each
///   named in `campaign.updaters`.
///
/// Every number is range-checked, every text and list bounded (``Limits``), before anything is
/// built from it; unknown members are ignored, as in the other results files. Reading it throws
/// ``ResultsError`` naming `source` and the field path
/// (`updaters[0].findings[1].script.versions[2].sections[0].items[3]`): a wrong schema, a missing
/// member, a wrong type, a number outside its range, a list or text over its bound (counted
/// before the elements are read), a name or property given twice, a script whose versions are not
/// numbered 0, 1, 2, … or whose times are not ascending, a finding broken in more runs than the
/// campaign made.
public struct UpdaterFindingsFile: ResultsRecord, Equatable {
    /// The schema this type reads and writes.
    public static let schema = "difflab-updaters/1"
    /// The most updaters a file may hold: 1,024.
    public static let maxUpdaters = 1_024

    /// What the caller called the input (usually its path); not written.
    public var source: String
    /// When, where and with what the run was made.
    public var provenance = RunProvenance()
    /// What the campaign was asked to do.
    public var campaign: Campaign
    /// The updaters checked, in the campaign's order.
    public var updaters: [Updater]

    /// A findings file with no provenance; see the properties. Not checked:
    /// ``init(json:source:path:)`` checks files.
    public init(source: String = "", campaign: Campaign, updaters: [Updater]) {
        self.source = source
        self.campaign = campaign
        self.updaters = updaters
    }

    /// Whether any updater broke a property (or crashed or hung).
    public var hasFindings: Bool { updaters.contains { UpdatersSummary.Verdict($0) != .safe } }

    @_spi(Records) public static let blank = UpdaterFindingsFile(campaign: .blank, updaters: [])
    public static var documentSchema: String? { schema }

    /// The declaration table: the provenance without `seconds` and `dirty` (`commit` written as
    /// `null` when unknown), then the campaign and the updaters.
    @_spi(Records) public static let fields: [RecordField<UpdaterFindingsFile>] =
        RecordField.inline(\.provenance, RunProvenance.stamp)
        + [
            .required("campaign", \.campaign, .record(), "what the campaign was asked to do"),
            .required("updaters", \.updaters, .array(.record(), count: Limits.updaters), "the updaters checked, in the campaign's order"),
        ]

    /// Notes the file's name; checks that no updater is named twice, that each is one of
    /// `campaign.updaters`, and that no finding broke in more runs than the campaign made.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        source = position.source
        var seen: Set<String> = []
        for (index, updater) in updaters.enumerated() {
            let at = position.member("updaters").element(index)
            guard seen.insert(updater.name).inserted else {
                throw .invalid(source: source, field: at.member("name").named, expected: "a name no other updater of the file has")
            }
            guard campaign.updaters.contains(updater.name) else {
                throw .invalid(source: source, field: at.member("name").named, expected: "one of campaign.updaters")
            }
            try updater.checkFailingRuns(runs: campaign.runs, at: at)
        }
    }

    /// The bounds of a findings file's text, lists and numbers; each text derived from its bound.
    public enum Limits {
        /// An updater's or a lane's name: 1 to ``UpdaterEvent/maxLaneLength`` (200) characters.
        public static let name = FieldRange<Int>(1...UpdaterEvent.maxLaneLength, "1 to \(formatGrouped(UpdaterEvent.maxLaneLength)) characters")
        /// A failure's message or a note: at most ``UpdaterEvent/maxTextLength`` (100,000) characters.
        public static let text = atMost(UpdaterEvent.maxTextLength, "characters")
        /// An event's label: at most ``UpdaterEvent/maxLabelLength`` (2,000) characters.
        public static let label = atMost(UpdaterEvent.maxLabelLength, "characters")
        /// Notes of one event: at most 64 (as a run keeps).
        public static let notes = atMost(64, "notes")
        /// Versions of a script: 1 (version 0) to ``UpdaterFuzzSettings/maxRequestsRange``'s
        /// upper bound + 1.
        public static let versions = FieldRange<Int>(
            1...(UpdaterFuzzSettings.maxRequestsRange.upperBound + 1),
            "1 to \(formatGrouped(UpdaterFuzzSettings.maxRequestsRange.upperBound + 1)) versions")
        /// Sections of one version: at most 10,000.
        public static let sections = atMost(10_000, "sections")
        /// Items of a whole script, all versions together: at most
        /// ``UpdaterFuzzSettings/maxScriptItems`` (1,000,000), as a campaign's settings allow.
        public static let scriptItems = UpdaterFuzzSettings.maxScriptItems
        /// Lanes of a schedule and events of a timeline: as many as a run can take, at most
        /// ``UpdaterFuzzSettings/stepBudgetRange``'s upper bound + 2 (the start
        /// and the end are events too). The input limit bounds a file long before.
        public static let steps = atMost(UpdaterFuzzSettings.stepBudgetRange.upperBound + 2, "entries")
        /// Section and item identifiers and content revisions: 0 to 2^53.
        public static let identifier = FieldRange<Int>.count
        /// Virtual times of requests and events, in seconds: 0 to 10^7.
        public static let time = FieldRange<Double>.runSeconds
        /// A step number: 0 (the end of the run) to 10^7 + 2.
        public static let step = FieldRange<Int>(0...(UpdaterFuzzSettings.stepBudgetRange.upperBound + 2))
        /// A version's number: 0 to the most versions a script may have.
        static let versionNumber = FieldRange<Int>(0...versions.range.upperBound)
        /// Updaters of a file: at most ``UpdaterFindingsFile/maxUpdaters``.
        static let updaters = atMost(maxUpdaters, "updaters")
        /// Runs of a campaign: ``UpdaterFuzzer/runsRange``.
        static let runs = FieldRange<Int>(UpdaterFuzzer.runsRange)
        /// Properties of one list (checked, broken, findings): at most one of each.
        static let properties = atMost(UpdaterProperty.allCases.count, "properties")

        /// `0...limit`, said `at most LIMIT UNIT`.
        private static func atMost(_ limit: Int, _ unit: String) -> FieldRange<Int> {
            FieldRange(0...limit, "at most \(formatGrouped(limit)) \(unit)")
        }
    }
}

extension UpdaterFindingsFile {
    /// The `campaign` object: what was asked.
    public struct Campaign: ResultsRecord, Hashable {
        /// The updaters' names, in the order checked (1 to ``UpdaterFindingsFile/maxUpdaters``).
        public var updaters: [String]
        /// The engine the updaters diffed with.
        public var engine: String
        /// The campaign's seed.
        public var seed: UInt64
        /// Runs per updater, in ``UpdaterFuzzer/runsRange``.
        public var runs: Int
        /// The campaign's limits, each in its ``UpdaterFuzzSettings`` range.
        public var settings: UpdaterFuzzSettings

        /// A campaign; see the properties.
        public init(updaters: [String], engine: String, seed: UInt64, runs: Int, settings: UpdaterFuzzSettings) {
            self.updaters = updaters
            self.engine = engine
            self.seed = seed
            self.runs = runs
            self.settings = settings
        }

        @_spi(Records) public static let blank = Campaign(updaters: [], engine: "", seed: 0, runs: 1, settings: .standard)

        /// The declaration table (`seed` as a decimal string: it may exceed 2^53).
        @_spi(Records) public static let fields: [RecordField<Campaign>] = [
            .required(
                "updaters", \.updaters,
                .array(.text(atMost: Limits.name), count: FieldRange(1...maxUpdaters, "1 to \(formatGrouped(maxUpdaters)) names")),
                "the updaters' names, in the order checked"),
            .required("engine", \.engine, .engineName, "the engine the updaters diffed with"),
            .required("seed", \.seed, .decimalUInt64, "the campaign's seed"),
            .required("runs", \.runs, .int(Limits.runs), "runs per updater"),
            .required("settings", \.settings, .record(), "the campaign's limits"),
        ]
    }

    /// One updater's results: the properties checked, what it broke, and whether its campaign
    /// crashed or hung.
    public struct Updater: ResultsRecord, Hashable {
        /// The updater's name.
        public var name: String
        /// The properties it was held to, in ``UpdaterProperty`` order, each once.
        public var checked: [UpdaterProperty]
        /// One finding per property broken, each property once.
        public var findings: [Finding]
        /// How its campaign ended early, when it did: a crash or hang of the updater, isolated in
        /// the campaign's process (then `checked` and `findings` are empty: the process took its
        /// runs with it); `nil` when the campaign ran to its end.
        public var crash: Crash?

        /// An updater's results; see the properties.
        public init(name: String, checked: [UpdaterProperty], findings: [Finding], crash: Crash? = nil) {
            self.name = name
            self.checked = checked
            self.findings = findings
            self.crash = crash
        }

        /// Reads one updater's object (as a crash-isolated campaign process hands it over), for a
        /// campaign of `runs` runs; see ``UpdaterFindingsFile``.
        ///
        /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the object).
        package init(json: JSONValue, source: String, runs: Int) throws(ResultsError) {
            try self.init(json: json, source: source)
            try checkFailingRuns(runs: runs, at: FieldPosition(source: source))
        }

        @_spi(Records) public static let blank = Updater(name: "", checked: [], findings: [])

        /// The declaration table (`crash` left out when `nil`).
        @_spi(Records) public static let fields: [RecordField<Updater>] = [
            .required("name", \.name, .text(atMost: Limits.name), "the updater's name"),
            .defaulted(
                "checked", \.checked, .distinct(.cases(), count: Limits.properties, "a property"), default: [], written: .always,
                "the properties it was held to"),
            .required("findings", \.findings, .array(.record(), count: Limits.properties), "one finding per property broken"),
            .optional("crash", \.crash, .record(), "how its campaign ended early, when it did"),
        ]

        /// Checks that no two findings are of one property.
        @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
            var seen: Set<UpdaterProperty> = []
            for (index, finding) in findings.enumerated() where !seen.insert(finding.property).inserted {
                throw .invalid(
                    source: position.source, field: position.member("findings").element(index).member("property").named,
                    expected: "a property no other finding of this updater has")
            }
        }

        /// Refuses a finding broken in more runs than the campaign's `runs`; `position` is this
        /// record's.
        func checkFailingRuns(runs: Int, at position: FieldPosition) throws(ResultsError) {
            for (index, finding) in findings.enumerated() where finding.failingRuns > runs {
                throw .outOfRange(
                    source: position.source, path: position.member("findings").element(index).member("failingRuns").named,
                    value: "\(finding.failingRuns)", allowed: "1 to \(runs) (campaign.runs)")
            }
        }
    }

    /// How an updater's isolated campaign ended early.
    public struct Crash: ResultsRecord, Hashable {
        /// Died by a signal, or was stopped after running too long.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// The campaign's process died by a signal (a trap in the updater's code).
            case crashed
            /// The campaign's process ran past its time limit and was stopped (a loop inside one step).
            case hung
        }

        /// Which.
        public var kind: Kind
        /// What happened, in words (at most 2,000 characters).
        public var message: String

        /// A crash or hang.
        public init(kind: Kind, message: String) {
            self.kind = kind
            self.message = message
        }

        @_spi(Records) public static let blank = Crash(kind: .crashed, message: "")

        /// The declaration table.
        @_spi(Records) public static let fields: [RecordField<Crash>] = [
            .required("kind", \.kind, .cases(), "died by a signal, or stopped after running too long"),
            .required("message", \.message, .text(atMost: Limits.label), "what happened"),
        ]
    }

    /// A broken property and the shrunk run that breaks it.
    public struct Finding: ResultsRecord, Hashable {
        /// The property broken.
        public var property: UpdaterProperty
        /// What happened (for ``UpdaterProperty/batchValid``, UIKit's reason).
        public var message: String
        /// The step of the shrunk run's timeline at which it broke; 0 for a check at the end.
        public var step: Int
        /// The seed of the campaign run that found it.
        public var seed: UInt64
        /// How many campaign runs broke the property (1 to `campaign.runs`).
        public var failingRuns: Int
        /// The shrunk run's script.
        public var script: UpdaterScript
        /// The shrunk run's schedule: lane names, in the order they ran.
        public var schedule: [String]
        /// The shrunk run's timeline.
        public var events: [UpdaterEvent]

        /// A finding; see the properties.
        public init(
            property: UpdaterProperty, message: String, step: Int, seed: UInt64, failingRuns: Int, script: UpdaterScript, schedule: [String],
            events: [UpdaterEvent]
        ) {
            self.property = property
            self.message = message
            self.step = step
            self.seed = seed
            self.failingRuns = failingRuns
            self.script = script
            self.schedule = schedule
            self.events = events
        }

        /// A campaign's finding, as its shrunk run shows it. A timeline's times beyond
        /// ``Limits/time`` (timers an updater armed far ahead) are written as its upper bound:
        /// times are for reading, the schedule replays the run.
        public init(_ finding: UpdaterFinding) {
            let failure = finding.shrunk.failure
            let latest = Limits.time.range.upperBound
            let events = finding.shrunk.events.map { event in
                var event = event
                if !(event.time <= latest) { event.time = latest }
                return event
            }
            self.init(
                property: finding.property, message: failure?.message ?? "", step: failure?.step ?? 0, seed: finding.seed,
                failingRuns: finding.failingRuns, script: finding.shrunk.script, schedule: finding.shrunk.schedule, events: events)
        }

        /// The failure the shrunk run ends with.
        public var failure: UpdaterFailure { UpdaterFailure(property: property, message: message, step: step) }

        @_spi(Records) public static let blank = Finding(
            property: .batchValid, message: "", step: 0, seed: 0, failingRuns: 1, script: .blank, schedule: [], events: [])

        /// The declaration table (`seed` as a decimal string; `failingRuns` is checked against
        /// `campaign.runs` by the file).
        @_spi(Records) public static let fields: [RecordField<Finding>] = [
            .required("property", \.property, .cases(), "the property broken"),
            .required("message", \.message, .text(atMost: Limits.text), "what happened (for batch-valid, UIKit's reason)"),
            .required("step", \.step, .int(Limits.step), "the step at which it broke; 0 for a check at the end"),
            .required("seed", \.seed, .decimalUInt64, "the seed of the campaign run that found it"),
            .required(
                "failingRuns", \.failingRuns, .int(FieldRange(1...UpdaterFuzzer.runsRange.upperBound, "1 to campaign.runs")),
                "how many campaign runs broke the property"),
            .required("script", \.script, .record(), "the shrunk run's script"),
            .required("schedule", \.schedule, .array(.text(atMost: Limits.name), count: Limits.steps), "lane names, in the order they ran"),
            .required("events", \.events, .array(.record(), count: Limits.steps), "the shrunk run's timeline"),
        ]
    }
}

extension UpdaterFuzzSettings: ResultsRecord {
    @_spi(Records) public static let blank = UpdaterFuzzSettings.standard

    /// The declaration table of a findings file's `campaign.settings`: every limit, each in its range.
    @_spi(Records) public static let fields: [RecordField<UpdaterFuzzSettings>] = [
        .required("maxRequests", \.maxRequests, .int(FieldRange(maxRequestsRange)), "requests of a script at most"),
        .required("maxItems", \.maxItems, .int(FieldRange(maxItemsRange)), "items of the initial list at most"),
        .required("maxEdits", \.maxEdits, .int(FieldRange(maxEditsRange)), "edits per request at most"),
        .required("maxGap", \.maxGap, .double(FieldRange(maxGapRange, unit: "seconds")), "seconds between requests at most"),
        .required("stepBudget", \.stepBudget, .int(FieldRange(stepBudgetRange)), "steps of one run at most"),
    ]
}

extension UpdaterScript: ResultsRecord {
    @_spi(Records) public static let blank = UpdaterScript(unchecked: [], requestTimes: [])

    /// The declaration table: versions as `{"number", "sections": [{"id", "items": [[id, content], …]}]}`.
    @_spi(Records) public static let fields: [RecordField<UpdaterScript>] = [
        .required(
            "versions", \.versions, FieldType.array(.record(), count: UpdaterFindingsFile.Limits.versions).checkingFirst(countItems),
            "version 0, then the versions requested"),
        .list(
            "requestTimes", \.requestTimes, .double(UpdaterFindingsFile.Limits.time), written: .always,
            "when each request arrives, seconds from the start"),
    ]

    /// Counts the items of all versions together against ``UpdaterFindingsFile/Limits/scriptItems``
    /// before any is read (naming the section that passes it). O(versions × sections).
    private static func countItems(_ versions: JSONValue, _ at: FieldPosition) throws(ResultsError) {
        let limit = UpdaterFindingsFile.Limits.scriptItems
        var items = 0
        for (v, version) in (versions.arrayValue ?? []).enumerated() {
            for (s, section) in (version["sections"]?.arrayValue ?? []).enumerated() {
                items += section["items"]?.arrayValue?.count ?? 0
                guard items <= limit else {
                    throw .outOfRange(
                        source: at.source, path: at.element(v).member("sections").element(s).member("items").named,
                        value: "more than \(limit) items in the script", allowed: "at most \(limit) items in all versions together")
                }
            }
        }
    }

    /// Checks the script as ``init(versions:requestTimes:)`` does.
    @_spi(Records) public mutating func finishDecoding(at position: FieldPosition) throws(ResultsError) {
        do {
            self = try UpdaterScript(versions: versions, requestTimes: requestTimes)
        } catch {
            throw .invalid(source: position.source, field: position.member(error.field).named, expected: "\(error.expected), not \(error.found)")
        }
    }
}

extension ListVersion: ResultsRecord {
    @_spi(Records) public static let blank = ListVersion(number: 0, data: UpdaterData([]))

    /// The declaration table of a script's version.
    @_spi(Records) public static let fields: [RecordField<ListVersion>] = [
        .required(
            "number", \.number,
            .int(UpdaterFindingsFile.Limits.versionNumber), "the version's number: 0, 1, 2, … in order"),
        .required("sections", \.data.sections, .array(.record(), count: UpdaterFindingsFile.Limits.sections), "the data's sections"),
    ]
}

extension SectionedList.Section: ResultsRecord where SectionID == Int, Element == UpdaterItem {
    @_spi(Records) public static var blank: Self { Self(id: 0, items: []) }

    /// The declaration table of a version's section: items as `[id, content]` pairs.
    @_spi(Records) public static var fields: [RecordField<Self>] { sectionFields }
}

/// A section's table, built once (a generic type's extension cannot hold a stored `static let`).
private let sectionFields: [RecordField<SectionedList<Int, UpdaterItem>.Section>] = {
    let identifier = UpdaterFindingsFile.Limits.identifier
    return [
        .required("id", \.id, .int(identifier), "the section's identifier"),
        .list(
            "items", \.items, .pair("id, content", .int(identifier), make: { UpdaterItem(id: $0, content: $1) }, parts: { ($0.id, $0.content) }),
            written: .always, "the items, each its identifier and content revision"),
    ]
}()

extension UpdaterEvent: ResultsRecord {
    @_spi(Records) public static let blank = UpdaterEvent(step: 0, time: 0, lane: "", onMain: false, label: "")

    /// The declaration table of a timeline's event.
    @_spi(Records) public static let fields: [RecordField<UpdaterEvent>] = [
        .required("step", \.step, .int(UpdaterFindingsFile.Limits.step), "the step"),
        .required("time", \.time, .double(UpdaterFindingsFile.Limits.time), "the virtual time, seconds from the start"),
        .required("lane", \.lane, .text(atMost: UpdaterFindingsFile.Limits.name), "the lane the step ran on"),
        .required("onMain", \.onMain, .bool, "whether it ran on the main thread"),
        .required("label", \.label, .text(atMost: UpdaterFindingsFile.Limits.label), "what the step did"),
        .list(
            "notes", \.notes, .text(atMost: UpdaterFindingsFile.Limits.text), count: UpdaterFindingsFile.Limits.notes, written: .always,
            "what the step observed"),
    ]
}

/// What `difflab updaters --json` prints as the last line of its standard output: the campaign's
/// seconds and, per updater, its verdict.
public struct UpdatersSummary: ResultsRecord, Hashable {
    /// An updater's verdict.
    public enum Verdict: String, Sendable, Hashable, CaseIterable {
        /// Every property held in every run.
        case safe
        /// A property broke.
        case unsafe
        /// Its campaign's process died by a signal.
        case crashed
        /// Its campaign's process ran past its time limit.
        case hung

        /// The verdict of `updater`'s record.
        public init(_ updater: UpdaterFindingsFile.Updater) {
            switch updater.crash?.kind {
            case .crashed: self = .crashed
            case .hung: self = .hung
            case nil: self = updater.findings.isEmpty ? .safe : .unsafe
            }
        }
    }

    /// One updater's line.
    public struct Row: ResultsRecord, Hashable {
        /// The updater.
        public var name: String
        /// Its verdict.
        public var verdict: Verdict
        /// Runs made (the campaign's).
        public var runs: Int
        /// The properties it broke, in ``UpdaterProperty`` order.
        public var broken: [UpdaterProperty]
        /// What ended its campaign early, if anything.
        public var crash: String?

        /// A row; see the properties.
        public init(name: String, verdict: Verdict, runs: Int, broken: [UpdaterProperty], crash: String?) {
            self.name = name
            self.verdict = verdict
            self.runs = runs
            self.broken = broken
            self.crash = crash
        }

        @_spi(Records) public static let blank = Row(name: "", verdict: .safe, runs: 1, broken: [], crash: nil)

        /// The declaration table (`crash` left out when `nil`).
        @_spi(Records) public static let fields: [RecordField<Row>] = [
            .required("name", \.name, .text(atMost: UpdaterFindingsFile.Limits.name), "the updater"),
            .required("verdict", \.verdict, .cases(), "its verdict"),
            .required("runs", \.runs, .int(UpdaterFindingsFile.Limits.runs), "runs made (the campaign's)"),
            .defaulted(
                "broken", \.broken, .distinct(.cases(), count: UpdaterFindingsFile.Limits.properties, "a property"), default: [],
                written: .always, "the properties it broke"),
            .optional("crash", \.crash, .text(atMost: UpdaterFindingsFile.Limits.label), "what ended its campaign early"),
        ]
    }

    /// Wall-clock seconds of the whole command.
    public var seconds: Double
    /// One row per updater, in the campaign's order.
    public var updaters: [Row]

    /// A summary; see the properties.
    public init(seconds: Double, updaters: [Row]) {
        self.seconds = seconds
        self.updaters = updaters
    }

    /// The summary of `file`, made in `seconds`.
    public init(_ file: UpdaterFindingsFile, seconds: Double) {
        self.seconds = seconds
        updaters = file.updaters.map { updater in
            Row(
                name: updater.name, verdict: Verdict(updater), runs: file.campaign.runs, broken: updater.findings.map(\.property),
                crash: updater.crash?.message)
        }
    }

    @_spi(Records) public static let blank = UpdatersSummary(seconds: 0, updaters: [])

    /// The declaration table: `seconds` in ``FieldRange/runSeconds``, at most
    /// ``UpdaterFindingsFile/maxUpdaters`` rows.
    @_spi(Records) public static let fields: [RecordField<UpdatersSummary>] = [
        .required("seconds", \.seconds, .double(.runSeconds), "wall-clock seconds of the whole command"),
        .required("updaters", \.updaters, .array(.record(), count: UpdaterFindingsFile.Limits.updaters), "one row per updater"),
    ]
}
