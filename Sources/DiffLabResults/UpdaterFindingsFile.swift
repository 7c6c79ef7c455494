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
/// built from it; unknown members are ignored, as in the other results files.
public struct UpdaterFindingsFile: Sendable, Equatable {
    enum Key: String, ProvenanceKey { case schema, createdAt, machine, toolchain, commit, campaign, updaters }

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
    /// ``init(json:source:)`` checks files.
    public init(source: String = "", campaign: Campaign, updaters: [Updater]) {
        self.source = source
        self.campaign = campaign
        self.updaters = updaters
    }

    /// Whether any updater broke a property (or crashed or hung).
    public var hasFindings: Bool { updaters.contains { UpdatersSummary.Verdict($0) != .safe } }

    /// The document (`commit` written as `null` when unknown). O(size).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.schema, Self.schema)
        w.set(provenance)
        w.set(.campaign, campaign.json)
        w.set(.updaters, .array(updaters.map(\.json)))
        return w.json
    }

    /// Reads a findings document; see the type's documentation for what is valid.
    ///
    /// - Throws: ``ResultsError`` naming `source` and the field path
    ///   (`updaters[0].findings[1].script.versions[2].sections[0].items[3]`): a wrong schema, a
    ///   missing member, a wrong type, a number outside its range, a list or text over its bound
    ///   (counted before the elements are read), a name or property given twice, a script whose
    ///   versions are not numbered 0, 1, 2, … or whose times are not ascending.
    /// - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(json, Self.schema, source: source)
        let root = try FieldReader<Key>(json, source: source, path: "")
        let campaign = try Campaign(root.requiredObject(.campaign, Campaign.Key.self))
        guard root.present(.updaters) != nil else { throw .missingField(source: source, path: root.path(.updaters)) }
        var updaters: [Updater] = []
        var seen: Set<String> = []
        for row in try root.objects(.updaters, Updater.Key.self, count: FieldRange(0...Self.maxUpdaters, "at most \(Self.maxUpdaters) updaters")) {
            let updater = try Updater(row, runs: campaign.runs, stepBudget: campaign.settings.stepBudget)
            guard seen.insert(updater.name).inserted else {
                throw .invalid(source: source, field: row.path(.name), expected: "a name no other updater of the file has")
            }
            guard campaign.updaters.contains(updater.name) else {
                throw .invalid(source: source, field: row.path(.name), expected: "one of campaign.updaters")
            }
            updaters.append(updater)
        }
        self.init(source: source, campaign: campaign, updaters: updaters)
        provenance = try root.provenance()
    }

    /// The bounds of a findings file's text and lists.
    public enum Limits {
        /// An updater's or a lane's name: 1 to ``UpdaterEvent/maxLaneLength`` (200) characters.
        public static let name = FieldRange<Int>(1...UpdaterEvent.maxLaneLength, "1 to \(UpdaterEvent.maxLaneLength) characters")
        /// A failure's message or a note: at most ``UpdaterEvent/maxTextLength`` (100,000) characters.
        public static let text = FieldRange<Int>(0...UpdaterEvent.maxTextLength, "at most \(UpdaterEvent.maxTextLength) characters")
        /// An event's label: at most ``UpdaterEvent/maxLabelLength`` (2,000) characters.
        public static let label = FieldRange<Int>(0...UpdaterEvent.maxLabelLength, "at most \(UpdaterEvent.maxLabelLength) characters")
        /// Notes of one event: at most 64 (as a run keeps).
        public static let notes = FieldRange<Int>(0...64, "at most 64 notes")
        /// Versions of a script: 1 (version 0) to ``UpdaterFuzzSettings/maxRequestsRange``'s
        /// upper bound + 1.
        public static let versions = FieldRange<Int>(
            1...(UpdaterFuzzSettings.maxRequestsRange.upperBound + 1), "1 to \(UpdaterFuzzSettings.maxRequestsRange.upperBound + 1) versions")
        /// Sections of one version: at most 10,000.
        public static let sections = FieldRange<Int>(0...10_000, "at most 10,000 sections")
        /// Items of a whole script, all versions together: at most
        /// ``UpdaterFuzzSettings/maxScriptItems`` (1,000,000), as a campaign's settings allow.
        public static let scriptItems = UpdaterFuzzSettings.maxScriptItems
        /// Lanes of a schedule and events of a timeline: as many as a run can take, at most
        /// ``UpdaterFuzzSettings/stepBudgetRange``'s upper bound + 2 (the start
        /// and the end are events too). The input limit bounds a file long before.
        public static let steps = FieldRange<Int>(
            0...(UpdaterFuzzSettings.stepBudgetRange.upperBound + 2), "at most \(UpdaterFuzzSettings.stepBudgetRange.upperBound + 2) entries")
        /// Section and item identifiers and content revisions: 0 to 2^53.
        public static let identifier = FieldRange<Int>(0...(1 << 53), "0 to 9,007,199,254,740,992 (2^53)")
        /// Virtual times of requests and events, in seconds: 0 to 10^7.
        public static let time = FieldRange<Double>.runSeconds
        /// A step number: 0 (the end of the run) to 10^7 + 2.
        public static let step = FieldRange<Int>(
            0...(UpdaterFuzzSettings.stepBudgetRange.upperBound + 2), "0 to \(UpdaterFuzzSettings.stepBudgetRange.upperBound + 2)")
    }
}

extension UpdaterFindingsFile {
    /// The `campaign` object: what was asked.
    public struct Campaign: Sendable, Hashable {
        enum Key: String { case updaters, engine, seed, runs, settings }
        enum SettingsKey: String { case maxRequests, maxItems, maxEdits, maxGap, stepBudget }

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

        /// The object (`seed` as a decimal string: it may exceed 2^53). O(updaters).
        public var json: JSONValue {
            var w = FieldWriter<Key>()
            w.set(.updaters, strings: updaters)
            w.set(.engine, engine)
            w.set(.seed, String(seed))
            w.set(.runs, runs)
            var s = FieldWriter<SettingsKey>()
            s.set(.maxRequests, settings.maxRequests)
            s.set(.maxItems, settings.maxItems)
            s.set(.maxEdits, settings.maxEdits)
            s.set(.maxGap, settings.maxGap)
            s.set(.stepBudget, settings.stepBudget)
            w.set(.settings, s.json)
            return w.json
        }

        init(_ r: FieldReader<Key>) throws(ResultsError) {
            updaters = try r.texts(
                .updaters, count: FieldRange(1...UpdaterFindingsFile.maxUpdaters, "1 to \(UpdaterFindingsFile.maxUpdaters) names"),
                atMost: Limits.name)
            engine = try r.requiredEngineName(.engine)
            seed = try r.requiredSeed(.seed)
            runs = try r.requiredInt(.runs, in: FieldRange(UpdaterFuzzer.runsRange, rangeText(UpdaterFuzzer.runsRange)))
            let s = try r.requiredObject(.settings, SettingsKey.self)
            settings = UpdaterFuzzSettings(
                maxRequests: try s.requiredInt(
                    .maxRequests, in: FieldRange(UpdaterFuzzSettings.maxRequestsRange, rangeText(UpdaterFuzzSettings.maxRequestsRange))),
                maxItems: try s.requiredInt(
                    .maxItems, in: FieldRange(UpdaterFuzzSettings.maxItemsRange, rangeText(UpdaterFuzzSettings.maxItemsRange))),
                maxEdits: try s.requiredInt(
                    .maxEdits, in: FieldRange(UpdaterFuzzSettings.maxEditsRange, rangeText(UpdaterFuzzSettings.maxEditsRange))),
                maxGap: try s.requiredDouble(.maxGap, in: FieldRange(UpdaterFuzzSettings.maxGapRange, "0 to 60 (seconds)")),
                stepBudget: try s.requiredInt(
                    .stepBudget, in: FieldRange(UpdaterFuzzSettings.stepBudgetRange, rangeText(UpdaterFuzzSettings.stepBudgetRange))))
        }
    }

    /// One updater's results: the properties checked, what it broke, and whether its campaign
    /// crashed or hung.
    public struct Updater: Sendable, Hashable {
        enum Key: String { case name, checked, findings, crash }

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

        /// The object (`crash` left out when `nil`). O(size of the findings).
        public var json: JSONValue {
            var w = FieldWriter<Key>()
            w.set(.name, name)
            w.set(.checked, strings: checked.map(\.rawValue))
            w.set(.findings, .array(findings.map(\.json)))
            w.set(.crash, crash?.json, null: false)
            return w.json
        }

        /// Reads one updater's object (as a crash-isolated campaign process hands it over), for a
        /// campaign of `runs` runs of at most `stepBudget` steps; see ``UpdaterFindingsFile``.
        ///
        /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the object).
        package init(json: JSONValue, source: String, runs: Int, stepBudget: Int) throws(ResultsError) {
            try self.init(FieldReader<Key>(json, source: source, path: ""), runs: runs, stepBudget: stepBudget)
        }

        init(_ r: FieldReader<Key>, runs: Int, stepBudget: Int) throws(ResultsError) {
            name = try r.requiredText(.name, atMost: Limits.name)
            checked = try r.properties(.checked)
            let properties = FieldRange<Int>(0...UpdaterProperty.allCases.count, "at most \(UpdaterProperty.allCases.count) properties")
            guard r.present(.findings) != nil else { throw .missingField(source: r.source, path: r.path(.findings)) }
            var findings: [Finding] = []
            for row in try r.objects(.findings, Finding.Key.self, count: properties) {
                let finding = try Finding(row, runs: runs, stepBudget: stepBudget)
                guard !findings.contains(where: { $0.property == finding.property }) else {
                    throw .invalid(source: r.source, field: row.path(.property), expected: "a property no other finding of this updater has")
                }
                findings.append(finding)
            }
            self.findings = findings
            crash = try r.object(.crash, Crash.Key.self).map { c throws(ResultsError) in
                Crash(kind: try c.requiredCase(.kind, Crash.Kind.self), message: try c.requiredText(.message, atMost: Limits.label))
            }
        }
    }

    /// How an updater's isolated campaign ended early.
    public struct Crash: Sendable, Hashable {
        enum Key: String { case kind, message }

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

        /// `{"kind", "message"}`.
        public var json: JSONValue {
            var w = FieldWriter<Key>()
            w.set(.kind, kind.rawValue)
            w.set(.message, message)
            return w.json
        }
    }

    /// A broken property and the shrunk run that breaks it.
    public struct Finding: Sendable, Hashable {
        enum Key: String { case property, message, step, seed, failingRuns, script, schedule, events }
        enum ScriptKey: String { case versions, requestTimes }
        enum VersionKey: String { case number, sections }
        enum SectionKey: String { case id, items }
        enum EventKey: String { case step, time, lane, onMain, label, notes }

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

        /// The object: versions as `{"number", "sections": [{"id", "items": [[id, content], …]}]}`,
        /// `seed` as a decimal string. O(size of the run).
        public var json: JSONValue {
            var w = FieldWriter<Key>()
            w.set(.property, property.rawValue)
            w.set(.message, message)
            w.set(.step, step)
            w.set(.seed, String(seed))
            w.set(.failingRuns, failingRuns)
            var s = FieldWriter<ScriptKey>()
            s.set(
                .versions,
                .array(
                    script.versions.map { version in
                        var v = FieldWriter<VersionKey>()
                        v.set(.number, version.number)
                        v.set(
                            .sections,
                            .array(
                                version.data.sections.map { section in
                                    var c = FieldWriter<SectionKey>()
                                    c.set(.id, section.id)
                                    c.set(.items, .array(section.items.map { .array([.integer($0.id), .integer($0.content)]) }))
                                    return c.json
                                }))
                        return v.json
                    }))
            s.set(.requestTimes, numbers: script.requestTimes)
            w.set(.script, s.json)
            w.set(.schedule, strings: schedule)
            w.set(
                .events,
                .array(
                    events.map { event in
                        var e = FieldWriter<EventKey>()
                        e.set(.step, event.step)
                        e.set(.time, event.time)
                        e.set(.lane, event.lane)
                        e.set(.onMain, event.onMain)
                        e.set(.label, event.label)
                        e.set(.notes, strings: event.notes)
                        return e.json
                    }))
            return w.json
        }

        init(_ r: FieldReader<Key>, runs: Int, stepBudget: Int) throws(ResultsError) {
            property = try r.requiredCase(.property, UpdaterProperty.self)
            message = try r.requiredText(.message, atMost: Limits.text)
            step = try r.requiredInt(.step, in: Limits.step)
            seed = try r.requiredSeed(.seed)
            failingRuns = try r.requiredInt(.failingRuns, in: FieldRange(1...runs, "1 to \(runs) (campaign.runs)"))
            script = try Self.script(r.requiredObject(.script, ScriptKey.self))
            guard r.present(.schedule) != nil else { throw .missingField(source: r.source, path: r.path(.schedule)) }
            schedule = try r.texts(.schedule, count: Limits.steps, atMost: Limits.name)
            guard r.present(.events) != nil else { throw .missingField(source: r.source, path: r.path(.events)) }
            var events: [UpdaterEvent] = []
            for e in try r.objects(.events, EventKey.self, count: Limits.steps) {
                events.append(
                    UpdaterEvent(
                        step: try e.requiredInt(.step, in: Limits.step), time: try e.requiredDouble(.time, in: Limits.time),
                        lane: try e.requiredText(.lane, atMost: Limits.name), onMain: try e.requiredBool(.onMain),
                        label: try e.requiredText(.label, atMost: Limits.label), notes: try e.texts(.notes, count: Limits.notes, atMost: Limits.text))
                )
            }
            self.events = events
        }

        static func script(_ r: FieldReader<ScriptKey>) throws(ResultsError) -> UpdaterScript {
            guard r.present(.versions) != nil else { throw .missingField(source: r.source, path: r.path(.versions)) }
            var versions: [ListVersion] = []
            var items = 0
            for v in try r.objects(.versions, VersionKey.self, count: Limits.versions) {
                let number = try v.requiredInt(
                    .number, in: FieldRange(0...Limits.versions.range.upperBound, "0 to \(Limits.versions.range.upperBound)"))
                guard v.present(.sections) != nil else { throw .missingField(source: r.source, path: v.path(.sections)) }
                var sections: [UpdaterData.Section] = []
                for c in try v.objects(.sections, SectionKey.self, count: Limits.sections) {
                    let id = try c.requiredInt(.id, in: Limits.identifier)
                    let list = try c.optionalArray(.items)
                    items += list.count
                    guard items <= Limits.scriptItems else {
                        throw .outOfRange(
                            source: r.source, path: c.path(.items), value: "more than \(Limits.scriptItems) items in the script",
                            allowed: "at most \(Limits.scriptItems) items in all versions together")
                    }
                    var row: [UpdaterItem] = []
                    row.reserveCapacity(list.count)
                    for (index, element) in list.enumerated() {
                        row.append(try c.item(element, path: c.path(.items) + "[\(index)]"))
                    }
                    sections.append(UpdaterData.Section(id: id, items: row))
                }
                versions.append(ListVersion(number: number, data: UpdaterData(sections)))
            }
            let times = try r.numbers(.requestTimes, in: Limits.time)
            do {
                return try UpdaterScript(versions: versions, requestTimes: times)
            } catch {
                throw .invalid(
                    source: r.source, field: (r.path.isEmpty ? "" : r.path + ".") + error.field, expected: "\(error.expected), not \(error.found)")
            }
        }
    }
}

/// `"batch-valid", "last-version-shown", … or "ends"`: every property's name.
private let propertyNames: String = {
    let names = UpdaterProperty.allCases.map { "\"\($0.rawValue)\"" }
    return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
}()

/// `1 to 10,000`: an integer range as a findings file's errors say it.
private func rangeText(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }

extension FieldReader {
    /// A required decimal string holding an unsigned 64-bit integer (a seed: it may exceed 2^53,
    /// so it is not a JSON number).
    ///
    /// - Throws: ``ResultsError/missingField(source:path:)``, a wrong type, or
    ///   ``ResultsError/outOfRange(source:path:value:allowed:)`` for other text.
    func requiredSeed(_ key: Key) throws(ResultsError) -> UInt64 {
        let text = try requiredString(key)
        guard text.utf8.count <= 20, let value = UInt64(text) else {
            throw .outOfRange(
                source: source, path: path(key), value: JSONValue.string(text).briefDescription, allowed: "a decimal integer from 0 to \(UInt64.max)")
        }
        return value
    }

    /// An array of property names (``UpdaterProperty``), each once; absent or
    /// `null` → empty.
    ///
    /// - Throws: ``ResultsError`` naming the element: a name no property has, or one listed twice.
    func properties(_ key: Key) throws(ResultsError) -> [UpdaterProperty] {
        let count = UpdaterProperty.allCases.count
        var properties: [UpdaterProperty] = []
        let names = try texts(key, count: FieldRange(0...count, "at most \(count) properties"), atMost: FieldRange(0...64, "at most 64 characters"))
        for (index, text) in names.enumerated() {
            let elementPath = path(key) + "[\(index)]"
            guard let property = UpdaterProperty(rawValue: text) else {
                throw .wrongType(source: source, path: elementPath, expected: propertyNames, found: JSONValue.string(text).briefDescription)
            }
            guard !properties.contains(property) else { throw .invalid(source: source, field: elementPath, expected: "a property not listed before") }
            properties.append(property)
        }
        return properties
    }

    /// An item `[id, content]` at `path`: two integers in ``UpdaterFindingsFile/Limits/identifier``.
    func item(_ value: JSONValue, path: String) throws(ResultsError) -> UpdaterItem {
        guard let pair = value.arrayValue, pair.count == 2 else {
            throw .wrongType(source: source, path: path, expected: "an [id, content] pair of integers", found: article(value))
        }
        var numbers: [Int] = []
        for (index, element) in pair.enumerated() {
            let range = UpdaterFindingsFile.Limits.identifier
            guard let number = element.intValue, element.bigIntegerValue == nil, range.range.contains(number) else {
                throw .outOfRange(source: source, path: path + "[\(index)]", value: element.briefDescription, allowed: range.text)
            }
            numbers.append(number)
        }
        return UpdaterItem(id: numbers[0], content: numbers[1])
    }
}

/// What `difflab updaters --json` prints as the last line of its standard output: the campaign's
/// seconds and, per updater, its verdict.
public struct UpdatersSummary: Sendable, Hashable {
    enum Key: String { case seconds, updaters }
    enum RowKey: String { case name, verdict, runs, broken, crash }

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
    public struct Row: Sendable, Hashable {
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
    }

    /// Wall-clock seconds of the whole command.
    public var seconds: Double
    /// One row per updater, in the campaign's order.
    public var updaters: [Row]

    /// The summary of `file`, made in `seconds`.
    public init(_ file: UpdaterFindingsFile, seconds: Double) {
        self.seconds = seconds
        updaters = file.updaters.map { updater in
            Row(
                name: updater.name, verdict: Verdict(updater), runs: file.campaign.runs, broken: updater.findings.map(\.property),
                crash: updater.crash?.message)
        }
    }

    /// The summary object. O(updaters).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.seconds, seconds)
        w.set(
            .updaters,
            .array(
                updaters.map { row in
                    var r = FieldWriter<RowKey>()
                    r.set(.name, row.name)
                    r.set(.verdict, row.verdict.rawValue)
                    r.set(.runs, row.runs)
                    r.set(.broken, strings: row.broken.map(\.rawValue))
                    r.set(.crash, row.crash)
                    return r.json
                }))
        return w.json
    }

    /// Reads a summary: `seconds` in ``FieldRange/runSeconds``, `updaters` at most
    /// ``UpdaterFindingsFile/maxUpdaters`` rows, each with a `name`, a `verdict`, `runs` in
    /// ``UpdaterFuzzer/runsRange``, `broken` property names and an optional `crash`.
    ///
    /// - Throws: ``ResultsError`` naming the field. - Complexity: O(size of the document).
    public init(json: JSONValue, source: String) throws(ResultsError) {
        let r = try FieldReader<Key>(json, source: source, path: "")
        seconds = try r.requiredDouble(.seconds, in: .runSeconds)
        guard r.present(.updaters) != nil else { throw .missingField(source: source, path: "updaters") }
        updaters = []
        let limit = UpdaterFindingsFile.maxUpdaters
        for row in try r.objects(.updaters, RowKey.self, count: FieldRange(0...limit, "at most \(limit) updaters")) {
            let broken = try row.properties(.broken)
            updaters.append(
                Row(
                    name: try row.requiredText(.name, atMost: UpdaterFindingsFile.Limits.name), verdict: try row.requiredCase(.verdict, Verdict.self),
                    runs: try row.requiredInt(.runs, in: FieldRange(UpdaterFuzzer.runsRange, rangeText(UpdaterFuzzer.runsRange))), broken: broken,
                    crash: try row.optionalText(.crash, atMost: UpdaterFindingsFile.Limits.label)))
        }
    }
}
