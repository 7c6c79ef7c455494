import DiffLabGate
import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Testing

@Suite struct StatisticsTests {
    @Test(arguments: [([3.0, 1, 2], 2.0), ([4.0, 1, 3, 2], 2.5), ([7.0], 7.0)])
    func medianOf(values: [Double], expected: Double) {
        #expect(medianOrNaN(values) == expected)
    }

    @Test func medianOfNothingIsNaN() { #expect(medianOrNaN([]).isNaN) }

    /// Exact null distribution for n = 4 by enumeration: W+ over the 16 sign patterns of ranks 1…4.
    @Test func signedRankMatchesEnumeration() {
        let d = [0.3, -0.1, 0.4, 0.2]  // ranks by |d|: 0.1→1, 0.2→2, 0.3→3, 0.4→4; W+ = 2 + 3 + 4 = 9
        let result = wilcoxonSignedRank(d)
        #expect(result.wPlus == 9)
        #expect(result.count == 4)
        var atLeast = 0
        for pattern in 0..<16 {
            var w = 0
            for rank in 1...4 where pattern & (1 << (rank - 1)) != 0 { w += rank }
            if w >= 9 { atLeast += 1 }
        }
        #expect(abs(result.p - 2 * Double(atLeast) / 16) < 1e-12)  // 2 · 2/16 = 0.25
    }

    @Test func allPositiveRoundsGiveTheSmallestPossibleP() {
        let result = wilcoxonSignedRank([Double](repeating: 0.1, count: 16).enumerated().map { $0.element + Double($0.offset) * 1e-3 })
        #expect(abs(result.p - 2 / 65_536) < 1e-15)
    }

    @Test func tiesShareMidRanksAndZerosAreDropped() {
        let result = wilcoxonSignedRank([0, 0.5, -0.5, 0.5, 0])
        #expect(result.count == 3)
        #expect(result.wPlus == 4)  // |d| all tied: ranks 2, 2, 2; two positives
        #expect(result.p == 1)
    }

    @Test func symmetricDifferencesAreNotSignificant() {
        #expect(wilcoxonSignedRank([0.1, -0.1, 0.2, -0.2, 0.3, -0.3]).p == 1)
        #expect(wilcoxonSignedRank([]).p == 1)
    }

    /// Holm by hand: sorted 0.01, 0.02, 0.03, 0.5 → ×4, ×3, ×2, ×1 = 0.04, 0.06, 0.06, 0.5.
    @Test func holmAdjustsInPlace() {
        let adjusted = holmAdjusted([0.03, 0.5, 0.01, 0.02])
        let expected = [0.06, 0.5, 0.04, 0.06]
        for (a, e) in zip(adjusted, expected) { #expect(abs(a - e) < 1e-12) }
        #expect(holmAdjusted([]).isEmpty)
        #expect(holmAdjusted([0.9, 0.8]) == [1, 1])  // 0.8 × 2 caps at 1; monotone after it
    }

    @Test func bootstrapIntervalCoversTheMedianAndIsReproducible() throws {
        let values = (0..<20).map { 1.0 + Double($0) / 100 }
        let interval = try #require(bootstrapMedianInterval(values))
        #expect(interval.contains(medianOrNaN(values)))
        #expect(interval.lowerBound >= 1.0 && interval.upperBound <= 1.19)
        #expect(bootstrapMedianInterval(values) == interval)
        #expect(bootstrapMedianInterval([]) == nil)
        #expect(bootstrapMedianInterval([2.0]) == 2.0...2.0)
    }
}

let thresholdsJSON: JSONValue = [
    "schema": "difflab-gate-thresholds/1", "alpha": 0.01, "improvementExitCode": 4,
    "metrics": [
        "time": ["regression": 0.05, "improvement": 0.05, "absolute": 2e-6],
        "instructions": ["regression": 0.01, "improvement": 0.01, "absolute": 1000],
        "allocatedBytes": ["regression": 0.005, "improvement": 0.005, "absolute": 64],
        "allocationRequests": ["regression": 0, "improvement": 0, "absolute": 1],
    ],
]

@Suite struct ThresholdTests {
    @Test func readsTheCheckedInFileShape() throws {
        let thresholds = try GateThresholds(json: thresholdsJSON)
        #expect(thresholds.alpha == 0.01)
        #expect(thresholds[.time] == MetricThreshold(regression: 0.05, improvement: 0.05, absolute: 2e-6))
        #expect(thresholds[.allocationRequests].absolute == 1)
    }

    @Test func theCheckedInFileParses() throws {
        // The test runs from the package root (swift test), where the file lives.
        _ = try GateThresholds(json: try JSONValue.parse(bytes: try #require(readBytes("Corpus/gate/thresholds.json"))))
    }

    /// The built-in defaults (used in a package without a thresholds file) are the checked-in file's values.
    @Test func theDefaultsEqualTheCheckedInFile() throws {
        let file = try GateThresholds(json: try JSONValue.parse(bytes: try #require(readBytes("Corpus/gate/thresholds.json"))))
        #expect(GateThresholds.defaults == file)
        #expect(GateThresholds.defaults.metrics.count == GateMetric.allCases.count)
    }

    @Test(arguments: [
        ("schema", JSONValue.string("other"), "schema"),
        ("alpha", JSONValue.double(1.5), "alpha"),
        ("improvementExitCode", JSONValue.integer(3), "improvementExitCode"),
        ("metrics", JSONValue.object(JSONObject()), "\"time\""),
    ])
    func rejectsBadFiles(field: String, value: JSONValue, mentions: String) throws {
        var object = try #require(thresholdsJSON.objectValue)
        object[field] = value
        #expect {
            try GateThresholds(json: .object(object))
        } throws: { error in
            (error as? GateError).map { "\($0)".contains(mentions) } ?? false
        }
    }

    @Test func rejectsANegativeThreshold() throws {
        var object = try #require(thresholdsJSON.objectValue)
        object["metrics"] = [
            "time": ["regression": -0.05, "improvement": 0.05, "absolute": 0],
            "instructions": ["regression": 0.01, "improvement": 0.01, "absolute": 0],
            "allocatedBytes": ["regression": 0.01, "improvement": 0.01, "absolute": 0],
            "allocationRequests": ["regression": 0, "improvement": 0, "absolute": 0],
        ]
        #expect(throws: GateError.badThresholds("\"metrics.time.regression\" must be a number from 0 to 10 (a fraction: 0.05 is 5%), not -0.05")) {
            try GateThresholds(json: .object(object))
        }
    }

    /// Issue 10: every number of the thresholds file is range-checked, and a typo (an unknown
    /// field, a string where a number belongs) is an error rather than a silently looser gate.
    @Test(arguments: [
        (["alpha"], JSONValue.integer(0), "\"alpha\" must be a number above 0 and at most 0.5, not 0"),
        (["alpha"], JSONValue.double(0.75), "\"alpha\" must be a number above 0 and at most 0.5, not 0.75"),
        (["alpha"], JSONValue.integer(2), "\"alpha\" must be a number above 0 and at most 0.5, not 2"),
        (["alpha"], JSONValue.string("0.01"), "\"alpha\" must be a number above 0 and at most 0.5, not \"0.01\""),
        (["alpha"], JSONValue.null, "\"alpha\" must be a number above 0 and at most 0.5, not null"),
        (["improvementExitCode"], JSONValue.string("4"), "\"improvementExitCode\" must be 0 or 4, not \"4\""),
        (["alfa"], JSONValue.double(0.5), "unknown field \"alfa\""),
        (["about"], JSONValue.integer(1), "\"about\" must be a string"),
        (["metrics", "instruction"], JSONValue.object(JSONObject()), "unknown field \"metrics.instruction\""),
        (["metrics", "time"], JSONValue.integer(5), "\"metrics.time\" must be an object"),
        (["metrics", "time", "improvement"], JSONValue.double(10.5), "\"metrics.time.improvement\" must be a number from 0 to 10"),
        (["metrics", "time", "absolute"], JSONValue.integer(-1), "\"metrics.time.absolute\" must be a number from 0 to 2^53"),
        (["metrics", "time", "absolute"], JSONValue.double(1e300), "\"metrics.time.absolute\" must be a number from 0 to 2^53"),
        (["metrics", "allocatedBytes", "regression"], JSONValue.bool(true), "\"metrics.allocatedBytes.regression\" must be a number"),
        (["metrics", "allocatedBytes", "slack"], JSONValue.integer(1), "unknown field \"metrics.allocatedBytes.slack\""),
    ])
    func outOfRangeOrMistypedThresholdsAreErrors(path: [String], value: JSONValue, message: String) {
        let json = setting(thresholdsJSON, path, to: value)
        #expect {
            try GateThresholds(json: json)
        } throws: { error in
            guard case .badThresholds(let reason) = error as? GateError else { return false }
            return reason.hasPrefix(message)
        }
    }

    @Test func aThresholdsFileMustBeAnObject() {
        #expect(throws: GateError.badThresholds("expected a JSON object, not array")) { try GateThresholds(json: [1, 2]) }
    }

    @Test func theEdgesOfTheRangesAreAccepted() throws {
        var json = setting(thresholdsJSON, ["alpha"], to: 0.5)
        json = setting(json, ["metrics", "time", "regression"], to: 10)
        json = setting(json, ["metrics", "time", "absolute"], to: .integer(1 << 53))
        json = setting(json, ["improvementExitCode"], to: 0)
        let thresholds = try GateThresholds(json: json)
        #expect(thresholds.alpha == 0.5 && thresholds[.time].regression == 10 && thresholds.improvementExitCode == 0)
    }
}

/// `rounds` rounds of 8 samples around `seconds`, with a per-round wobble that both builds share
/// (load that comes and goes) and a per-sample jitter.
func rounds(_ seconds: Double, factor: Double = 1, count: Int = 16, seed: UInt64 = 1) -> [[Double]] {
    var state = seed
    func unit() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { round in
        let load = 1 + 0.2 * Double(round % 5) / 5  // shared by both builds of a round
        return (0..<8).map { _ in seconds * factor * load * (1 + 0.02 * unit()) }
    }
}

@Suite struct VerdictTests {
    let thresholds: GateThresholds

    /// The committed thresholds; a file that does not parse fails every test of the suite (it
    /// used to fall back to empty thresholds silently).
    init() throws { thresholds = try GateThresholds(json: thresholdsJSON) }

    @Test func unchangedTimingsPass() {
        let result = compareTimes([TimeSamples(cell: "c", base: rounds(1e-3, seed: 1), head: rounds(1e-3, seed: 2))], thresholds: thresholds)
        #expect(result[0].verdict == .pass)
        #expect(abs((result[0].ratio ?? 0) - 1) < 0.02)
    }

    @Test(arguments: [(1.10, GateVerdict.regression), (0.90, .improvement), (1.03, .pass)])
    func shiftedTimings(factor: Double, expected: GateVerdict) {
        let result = compareTimes(
            [TimeSamples(cell: "c", base: rounds(1e-3, seed: 1), head: rounds(1e-3, factor: factor, seed: 2))], thresholds: thresholds)
        #expect(result[0].verdict == expected)
        #expect(result[0].rounds == 16)
        #expect(result[0].interval?.contains(result[0].ratio ?? 0) == true)
    }

    /// A consistent 10% shift seen in only 3 rounds is not enough evidence after correcting for
    /// 9 cells: 3 paired rounds can give at best p = 0.25.
    @Test func tooFewRoundsCannotRaiseAnAlarm() {
        let cells = (0..<9).map { TimeSamples(cell: "c\($0)", base: rounds(1e-3, count: 3), head: rounds(1e-3, factor: 1.1, count: 3, seed: 9)) }
        #expect(compareTimes(cells, thresholds: thresholds).allSatisfy { $0.verdict == .pass })
    }

    @Test func tinyAbsoluteChangesAreBelowTheFloor() {
        let result = compareTimes([TimeSamples(cell: "c", base: rounds(1e-6), head: rounds(1e-6, factor: 1.5, seed: 3))], thresholds: thresholds)
        #expect(result[0].verdict == .pass)  // 0.5 µs < the 2 µs absolute floor
    }

    @Test func missingRoundsAreNotGated() {
        let result = compareTimes([TimeSamples(cell: "c", base: [], head: rounds(1e-3))], thresholds: thresholds)
        #expect(result[0].verdict == .notGated)
    }

    @Test(arguments: [
        (GateMetric.allocationRequests, 38.0, 39.0, GateVerdict.regression),
        (.allocationRequests, 38, 38, .pass),
        (.allocationRequests, 38, 37, .improvement),
        (.allocatedBytes, 848_016, 852_000, .pass),  // +0.47%, under the 0.5% threshold
        (.allocatedBytes, 848_016, 930_000, .regression),
        (.instructions, 3_900_000, 3_930_000, .pass),  // +0.8%
        (.instructions, 3_900_000, 4_400_000, .regression),
        (.instructions, 50_000, 50_900, .pass),  // +1.8% but under the absolute floor of 1000
    ])
    func deterministicMetrics(metric: GateMetric, base: Double, head: Double, expected: GateVerdict) {
        let result = compareDeterministic(cell: "c", metric: metric, base: base, head: head, thresholds: thresholds)
        #expect(result.verdict == expected)
    }

    @Test func missingDeterministicValuesAreNotGatedAndSayWhy() {
        let result = compareDeterministic(cell: "c", metric: .instructions, base: nil, head: 5, thresholds: thresholds)
        #expect(result.verdict == .notGated)
        #expect(result.note.contains("baseline"))
    }
}

@Suite struct ReportTests {
    let thresholds: GateThresholds

    /// The committed thresholds; a file that does not parse fails every test of the suite (it
    /// used to fall back to empty thresholds silently).
    init() throws { thresholds = try GateThresholds(json: thresholdsJSON) }

    func report(_ verdicts: [GateVerdict], improvementExitCode: Int32 = 4) -> GateReport {
        var thresholds = thresholds
        thresholds.improvementExitCode = improvementExitCode
        let comparisons = verdicts.enumerated().map { index, verdict in
            GateComparison(cell: "hashmap:differencekit:int:\(index + 1)", metric: .allocationRequests, base: 38, head: 39, verdict: verdict)
        }
        return GateReport(comparisons: comparisons, thresholds: thresholds, context: [("baseline", "HEAD~1")], notes: ["a note"])
    }

    @Test(arguments: [
        ([GateVerdict.pass, .pass], false, Int32(0)),
        ([.pass, .improvement], false, 4),
        ([.pass, .improvement], true, 0),
        ([.improvement, .regression], true, 2),
        ([.notGated], false, 1),  // fails closed: nothing was compared
    ])
    func exitCodes(verdicts: [GateVerdict], improvementsPass: Bool, expected: Int32) {
        #expect(report(verdicts).exitCode(improvementsPass: improvementsPass) == expected)
    }

    @Test func improvementsCanPassFromTheThresholdsFile() {
        #expect(report([.improvement], improvementExitCode: 0).exitCode() == 0)
    }

    @Test func markdownNamesTheVerdictEveryFindingAndEveryCell() {
        let markdown = report([.regression, .pass]).markdown
        #expect(markdown.hasPrefix("## DiffLab regression gate: REGRESSION"))
        #expect(markdown.contains("### Regressions (1)"))
        #expect(markdown.contains("- `hashmap:differencekit:int:1` **allocationRequests**: 38 → 39 (1.026×) (threshold +0%)"))
        #expect(markdown.contains("| `hashmap:differencekit:int:2` |"))
        #expect(markdown.contains("- a note"))
        #expect(report([.pass]).markdown.hasPrefix("## DiffLab regression gate: PASS"))
    }

    @Test func jsonCarriesVerdictExitCodeAndComparisons() throws {
        let json = report([.pass, .improvement]).json()
        #expect(json["schema"]?.stringValue == GateReport.schema)
        #expect(json["verdict"]?.stringValue == "improvement")
        #expect(json["exitCode"]?.intValue == 4)
        #expect(json["comparisons"]?.arrayValue?.count == 2)
        #expect(json["comparisons"]?.arrayValue?.first?["ratio"]?.doubleValue.map { abs($0 - 39.0 / 38) < 1e-12 } == true)
        let text = json.serialized()
        #expect(try JSONValue.parse(bytes: Array(text.utf8)) == json)
        // The report's JSON is its record's, and reads back to it.
        var record = report([.pass, .improvement]).record()
        record.source = "g"
        #expect(try GateReportFile(json: json, source: "g") == record)
    }
}

/// The bytes of the file at `path` (relative to the package root, where `swift test` runs), or
/// `nil` when it cannot be opened.
func readBytes(_ path: String) -> [UInt8]? {
    // The repository's own files: far below the limit.
    FileSystem.contents(path, limit: 1 << 30)
}

/// `json` with the member at `path` (object keys) set to `value`, creating objects on the way.
func setting(_ json: JSONValue, _ path: [String], to value: JSONValue) -> JSONValue {
    guard let key = path.first else { return value }
    var object = json.objectValue ?? JSONObject()
    object[key] = setting(object[key] ?? .object(JSONObject()), Array(path.dropFirst()), to: value)
    return .object(object)
}

// MARK: - Failing closed (issue 10)

@Suite struct FailClosedTests {
    let thresholds: GateThresholds

    /// The committed thresholds; a file that does not parse fails every test of the suite (it
    /// used to fall back to empty thresholds silently).
    init() throws { thresholds = try GateThresholds(json: thresholdsJSON) }

    func report(_ comparisons: [GateComparison], notes: [String] = []) -> GateReport {
        GateReport(comparisons: comparisons, thresholds: thresholds, context: [], notes: notes)
    }

    /// Before the fix, a gate that compared nothing (no cells, or no value on one side) printed
    /// PASS and exited 0.
    @Test func aReportWithNoComparisonFails() throws {
        let empty = report([])
        #expect(empty.failure == .nothingCompared(reasons: ["no cells"]))
        #expect(empty.exitCode() == 1)
        #expect(empty.exitCode(improvementsPass: true) == 1)
        #expect(empty.markdown.hasPrefix("## DiffLab regression gate: ERROR"))
        let json = empty.json()
        #expect(json["verdict"]?.stringValue == "error")
        #expect(json["exitCode"]?.intValue == 1)
        #expect(json["error"]?.stringValue?.contains("compared nothing") == true)
    }

    @Test func aReportWhoseEveryComparisonLacksASideFailsAndSaysWhy() {
        let comparisons = [
            compareDeterministic(cell: "a", metric: .instructions, base: 5, head: nil, thresholds: thresholds, note: "instructions not measured"),
            compareDeterministic(cell: "a", metric: .allocatedBytes, base: nil, head: 7, thresholds: thresholds),
            compareDeterministic(cell: "b", metric: .allocatedBytes, base: nil, head: nil, thresholds: thresholds),
        ]
        let failure = report(comparisons, notes: ["valgrind not installed"]).failure
        #expect(
            failure
                == .nothingCompared(reasons: [
                    "valgrind not installed", "instructions not measured", "no allocatedBytes from the baseline",
                    "no allocatedBytes from both builds",
                ]))
        #expect(failure?.description.hasPrefix("the gate compared nothing, so it cannot pass: valgrind not installed;") == true)
    }

    @Test func aCellWithNothingComparedFailsTheRunEvenWhenOthersPass() {
        let comparisons = [
            compareDeterministic(cell: "a", metric: .allocationRequests, base: 38, head: 38, thresholds: thresholds),
            compareDeterministic(cell: "b", metric: .allocationRequests, base: nil, head: 38, thresholds: thresholds),
            compareDeterministic(cell: "b", metric: .allocatedBytes, base: nil, head: 10, thresholds: thresholds),
        ]
        let gate = report(comparisons)
        #expect(gate.verdict == .pass)
        #expect(gate.failure == .cellsNotCompared(["`b` (no allocationRequests from the baseline; no allocatedBytes from the baseline)"]))
        #expect(gate.exitCode() == 1)
        #expect(report(Array(comparisons.prefix(1))).failure == nil)
        #expect(report(Array(comparisons.prefix(1))).exitCode() == 0)
    }

    @Test func nonFiniteOrNegativeValuesAreNeverCompared() {
        for (base, head) in [(Double.nan, 5.0), (5, .nan), (.infinity, 5), (5, -1)] {
            let result = compareDeterministic(cell: "c", metric: .allocatedBytes, base: base, head: head, thresholds: thresholds)
            #expect(result.verdict == .notGated, "\(base) → \(head)")
            #expect(result.note.contains("not a finite count"))
        }
    }
}

// MARK: - Stored baselines

let storedJSON: JSONValue = [
    "schema": "difflab-gate-baseline/1", "createdAt": 1_795_981_370, "candidate": "HEAD abc", "toolchain": "Swift 6.3.1",
    "machine": ["cpu": "Xeon", "cores": "2"],
    "cells": [
        "hashmap:differencekit:int:10000": ["instructions": 3_902_459, "allocatedBytes": 848_016, "allocationRequests": 38],
        "myers:small-edit:int:10000": ["instructions": nil, "allocatedBytes": 1_412_304, "allocationRequests": nil],
    ],
]

@Suite struct StoredBaselineTests {
    @Test func readsAValidBaseline() throws {
        let stored = try StoredBaseline.read(storedJSON, source: "b.json")
        #expect(stored.cells.map(\.name) == ["hashmap:differencekit:int:10000", "myers:small-edit:int:10000"])
        #expect(stored.value("hashmap:differencekit:int:10000", .allocationRequests) == 38)
        #expect(stored.value("myers:small-edit:int:10000", .instructions) == nil)
        #expect(stored.value("nope", .instructions) == nil)
        #expect(stored.cpu == "Xeon" && stored.toolchain == "Swift 6.3.1" && stored.candidate == "HEAD abc")
        try stored.requireCells(["myers:small-edit:int:10000"])
    }

    @Test func theCommittedQuickBaselineIsValid() throws {
        let bytes = try #require(readBytes("results/baselines/gate-quick.json"))
        let stored = try StoredBaseline.read(try JSONValue.parse(bytes: bytes), source: "gate-quick.json")
        #expect(stored.cells.count == 12)
    }

    @Test func writtenBaselinesReadBack() throws {
        let written = StoredBaseline(
            measured: [("a:p:int:1", [.instructions: 10, .allocatedBytes: 0.5]), ("b:p:int:1", [.allocationRequests: 3])], candidate: "HEAD",
            createdAt: 5, machine: [DisplayField(name: "cpu", value: "x")], toolchain: "t", source: "s.json")
        let json = written.json
        let stored = try StoredBaseline.read(try JSONValue.parse(json.serialized()), source: "s.json")
        #expect(stored == written)
        #expect(
            stored.cells == [
                BaselineCell(name: "a:p:int:1", instructions: 10, allocatedBytes: 0), BaselineCell(name: "b:p:int:1", allocationRequests: 3),
            ])
        #expect(stored.value("b:p:int:1", .allocationRequests) == 3 && stored.value("b:p:int:1", .instructions) == nil)
        #expect(json["cells"]?["b:p:int:1"]?["instructions"] == .null)
    }

    /// Issue 10: a stored baseline with an empty or wrong `cells` object made the gate print
    /// PASS; every malformed field is now an error naming the file, the field and what it should be.
    @Test(arguments: [
        ([String](), JSONValue.array([]), "the document", "a JSON object, not an array"),
        (["schema"], JSONValue.string("difflab-gate-baseline/2"), "schema", "\"difflab-gate-baseline/1\""),
        (["cells"], JSONValue.object(JSONObject()), "cells", "a non-empty object: a baseline with no cells gates nothing"),
        (["cells"], JSONValue.array([]), "cells", "an object, not an array"),
        (["cells", "x:p:int:1"], JSONValue.integer(5), "cells[\"x:p:int:1\"]", "an object, not a number"),
        (
            ["cells", "x:p:int:1"], JSONValue.object(JSONObject([("instructions", .null), ("allocatedBytes", .null)])), "cells[\"x:p:int:1\"]",
            "an object with at least one of instructions, allocatedBytes, allocationRequests measured: this cell's are all null"
        ),
        (
            ["cells", "x:p:int:1", "instructions"], JSONValue.integer(-1), "cells[\"x:p:int:1\"].instructions",
            "null or an integer from 0 to 2^53, not -1"
        ),
        (
            ["cells", "x:p:int:1", "instructions"], JSONValue.double(1.5), "cells[\"x:p:int:1\"].instructions",
            "null or an integer from 0 to 2^53, not 1.5"
        ),
        (
            ["cells", "x:p:int:1", "instructions"], JSONValue.double(1e300), "cells[\"x:p:int:1\"].instructions",
            "null or an integer from 0 to 2^53, not 1e+300"
        ),
        (
            ["cells", "x:p:int:1", "instructions"], JSONValue.integer(1 << 60), "cells[\"x:p:int:1\"].instructions",
            "null or an integer from 0 to 2^53, not 1152921504606846976"
        ),
        (
            ["cells", "x:p:int:1", "allocatedBytes"], JSONValue.string("12"), "cells[\"x:p:int:1\"].allocatedBytes",
            "null or an integer from 0 to 2^53, not \"12\""
        ),
        (
            ["cells", "x:p:int:1", "time"], JSONValue.integer(1), "cells[\"x:p:int:1\"].time",
            "absent: a cell holds only instructions, allocatedBytes, allocationRequests"
        ),
        (["createdAt"], JSONValue.integer(-5), "createdAt", "0 to 253,402,300,799 (1970 to 9999, Unix seconds), not -5"),
        (["toolchain"], JSONValue.integer(6), "toolchain", "a string, not a number"),
        (["machine", "cpu"], JSONValue.integer(6), "machine.cpu", "a string, not a number"),
    ])
    func malformedBaselinesAreErrors(path: [String], value: JSONValue, field: String, expected: String) {
        #expect(throws: GateError.badBaseline(source: "b.json", field: field, expected: expected)) {
            try StoredBaseline.read(setting(storedJSON, path, to: value), source: "b.json")
        }
    }

    @Test func aBaselineMissingAMeasuredCellIsAnError() throws {
        let stored = try StoredBaseline.read(storedJSON, source: "b.json")
        let error = GateError.baselineMissingCells(source: "b.json", cells: ["heckel:p:int:1", "myers:p:int:2"])
        #expect(throws: error) { try stored.requireCells(["myers:small-edit:int:10000", "heckel:p:int:1", "myers:p:int:2"]) }
        #expect(error.description.hasPrefix("b.json: the stored baseline has no entry for 2 cells heckel:p:int:1, myers:p:int:2"))
    }
}

// MARK: - Worker answers

@Suite struct WorkerOutputTests {
    let good: JSONValue = [
        "protocol": "difflab-measure/1",
        "results": [
            ["cell": "a:p:int:1", "samples": [1e-6, 2e-6], "allocatedBytes": 64, "allocationRequests": 2],
            ["cell": "b:p:int:1", "samples": [0, 3e-6], "allocatedBytes": nil],
        ],
    ]

    func parse(_ json: JSONValue) throws(GateError) -> [MeasureCellResult] {
        try MeasureResponse.results(json, cells: ["a:p:int:1", "b:p:int:1"], samples: 2, worker: "the baseline's worker")
    }

    @Test func readsAValidAnswer() throws {
        #expect(
            try parse(good) == [
                MeasureCellResult(cell: "a:p:int:1", samples: [1e-6, 2e-6], allocatedBytes: 64, allocationRequests: 2),
                MeasureCellResult(cell: "b:p:int:1", samples: [0, 3e-6]),
            ])
    }

    @Test(arguments: [
        (["protocol"], JSONValue.string("other/1"), "protocol should be \"difflab-measure/1\", not \"other/1\""),
        (["results"], JSONValue.array([]), "results should be an array of 2 results"),
        (
            ["results"], JSONValue.array([["cell": "b:p:int:1", "samples": [1, 1]], ["cell": "a:p:int:1", "samples": [1, 1]]]),
            "results[0].cell should be \"a:p:int:1\""
        ),
        (
            ["results"], JSONValue.array([["cell": "a:p:int:1", "samples": [1]], ["cell": "b:p:int:1", "samples": [1, 1]]]),
            "results[0].samples should be an array of 2 numbers"
        ),
        (
            ["results"], JSONValue.array([["cell": "a:p:int:1", "samples": [1, -1]], ["cell": "b:p:int:1", "samples": [1, 1]]]),
            "results[0].samples[1] should be a number of seconds"
        ),
        (
            ["results"], JSONValue.array([["cell": "a:p:int:1", "samples": [1, 1e300]], ["cell": "b:p:int:1", "samples": [1, 1]]]),
            "results[0].samples[1] should be a number of seconds"
        ),
        (
            ["results"], JSONValue.array([["cell": "a:p:int:1", "samples": [1, "x"]], ["cell": "b:p:int:1", "samples": [1, 1]]]),
            "results[0].samples[1] should be a number of seconds"
        ),
        (
            ["results"],
            JSONValue.array([["cell": "a:p:int:1", "samples": [1, 1]], ["cell": "b:p:int:1", "samples": [1, 1], "allocatedBytes": -1]]),
            "results[1].allocatedBytes should be null or an integer from 0 to 2^53, not -1"
        ),
        (
            ["results"],
            JSONValue.array([["cell": "a:p:int:1", "samples": [1, 1], "allocationRequests": 2.5], ["cell": "b:p:int:1", "samples": [1, 1]]]),
            "results[0].allocationRequests should be null or an integer from 0 to 2^53, not 2.5"
        ),
    ])
    func badAnswersAreErrors(path: [String], value: JSONValue, message: String) {
        #expect {
            try parse(setting(good, path, to: value))
        } throws: { error in
            guard case .badMeasurements(let reason) = error as? GateError else { return false }
            return reason.hasPrefix("the baseline's worker: " + message)
        }
    }

    @Test(arguments: [
        ("events: Ir\ntotals: 3902459\n", Double?.some(3_902_459)), ("totals: 12 34\n", 12), ("summary: 5\n", nil), ("totals: inf\n", nil),
        ("totals: nan\n", nil), ("totals: -5\n", nil), ("totals: +5\n", nil), ("totals: 99999999999999999999\n", nil),
        ("totals: 9007199254740993\n", nil), ("totals: \n", nil),
    ])
    func callgrindTotalsAreIntegersInRange(text: String, expected: Double?) {
        #expect(callgrindTotal(text) == expected)
    }
}

/// A bench results file (a merged sharded run included) serves as a stored baseline: its jemalloc
/// cells' allocation figures; without any, it is refused.
@Suite struct BenchBaselineTests {
    static func bench(_ measurements: String) throws -> BenchResults {
        try BenchResults(
            json: try JSONValue.parse(
                #"{"schema":"difflab-bench/1","commit":"abcdef0123456789","machine":{"cpu":"Xeon"},"measurements":["# + measurements + "]}"),
            source: "b.json")
    }

    @Test func jemallocCellsBecomeBaselineCells() throws {
        let results = try Self.bench(
            #"{"engine":"hashmap","profile":"reverse","size":100,"kind":"int","allocator":"jemalloc","median":1e-6,"allocatedBytes":4096,"allocationRequests":3},"#
                + #"{"engine":"hashmap","profile":"reverse","size":100,"kind":"int","allocator":"system","median":1e-6},"#
                + #"{"engine":"stdlib","profile":"reverse","size":100,"kind":"int","allocator":"jemalloc","skipped":"too slow"}"#)
        let baseline = try StoredBaseline(bench: results)
        #expect(baseline.cells.map(\.name) == ["hashmap:reverse:int:100"])
        #expect(baseline.value("hashmap:reverse:int:100", .allocatedBytes) == 4096)
        #expect(baseline.value("hashmap:reverse:int:100", .allocationRequests) == 3)
        #expect(baseline.value("hashmap:reverse:int:100", .instructions) == nil)
        #expect(baseline.cpu == "Xeon" && baseline.candidate == "difflab bench results at abcdef012345")
        #expect(throws: GateError.self) { try baseline.requireCells(["hashmap:reverse:int:1000"]) }
    }

    @Test func aBenchFileWithoutJemallocCellsIsRefused() throws {
        let results = try Self.bench(#"{"engine":"hashmap","profile":"reverse","size":100,"kind":"int","allocator":"system","median":1e-6}"#)
        #expect(throws: GateError.self) { try StoredBaseline(bench: results) }
    }

    /// Another seed measured other lists; a cell twice cannot be gated without picking one.
    @Test func anotherSeedOrACellTwiceIsRefused() throws {
        let cell = #"{"engine":"hashmap","profile":"reverse","size":100,"kind":"int","allocator":"jemalloc","median":1e-6,"allocatedBytes":4096}"#
        let results = try Self.bench(cell)
        #expect(throws: Never.self) { try StoredBaseline(bench: results, seed: 42) }
        do {
            _ = try StoredBaseline(bench: results, seed: 7)
            Issue.record("accepted a bench file made with seed 42 for seed 7")
        } catch {
            #expect(error.description.contains("options.seed"), "\(error)")
        }
        #expect(throws: GateError.self) { try StoredBaseline(bench: try Self.bench(cell + "," + cell)) }
    }
}
