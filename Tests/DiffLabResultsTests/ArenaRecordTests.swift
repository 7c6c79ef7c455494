import DiffLabCore
import DiffLabJSON
import DiffLabResults
import Testing

// `difflab-arena/1`: the arena's results file, its record, its refusals and its verdict rules.

/// A failure of `property` with the given shape.
func arenaFailure(
    _ property: String = "batch-valid", scope: ArenaScope = .flat, duplicates: Bool = false, outsideContract: Bool = false,
    old: String = "[0:1]", new: String = "[0, 0:1]", kind: ArenaFailureKind = .failure
) -> ArenaFailure {
    ArenaFailure(
        signature: "\(property)/engine/detail", property: property, scope: scope, kind: kind, outsideContract: outsideContract,
        duplicates: duplicates, old: old, new: new, message: "1 old − 1 deletes + 1 inserts ≠ 2 new")
}

/// A contestant with `failures`.
func arenaContestant(
    _ engine: String, role: ArenaRole = .library, duplicates: Bool = true, sectioned: Bool = true, failures: [ArenaFailure] = []
) -> ArenaContestant {
    ArenaContestant(
        engine: engine, role: role, about: EngineAbout(library: engine.uppercased(), version: "1.0"),
        promises: EnginePromises(supportsDuplicates: duplicates, minimalMoves: false, reference: .none), sectioned: sectioned,
        fuzz: ArenaFuzzCounts(seconds: 60, inputs: 100, cases: 700), failures: failures)
}

/// An arena file with every member set.
func fullArenaResults() -> ArenaResults {
    var bench = fullBenchResults()
    bench.source = "a.json"
    var library = ArenaContestant(
        engine: "differencekit", role: .library,
        about: EngineAbout(
            library: "DifferenceKit", version: "1.3.0", revision: "073b96a", source: "https://github.com/ra1028/DifferenceKit",
            build: "SwiftPM, by URL at 1.3.0", adapter: "StagedChangeset, stage by stage",
            promiseSources: ["\"Differentiable elements must be unique\" — README.md"]),
        promises: EnginePromises(supportsDuplicates: false, minimalMoves: false, reference: .uniqueIdentifiers), sectioned: true,
        fuzz: ArenaFuzzCounts(seconds: 60.2, inputs: 12_345, cases: 234_567))
    library.about.native = true
    library.failures = [
        ArenaFailure(
            signature: "batch-valid/differencekit/batch-malformed", property: "batch-valid", scope: .flat, kind: .failure, outsideContract: true,
            duplicates: true, old: "[0:1, 0]", new: "[0]", message: "1 old − 1 deletes + 1 inserts ≠ 2 new", elementKind: "int",
            batch: "deletes [0] inserts [1]", validBatch: "deletes [1]", replay: "difflab replay x.json"),
        arenaFailure("deterministic", scope: .sectioned, kind: .hang),
    ]
    var results = ArenaResults(
        source: "a.json", options: ArenaOptions(fuzzSeconds: 60, seed: "18446744073709551615", workers: 2, baselines: ["hashmap"]),
        contestants: [library, arenaContestant("hashmap", role: .difflab), arenaContestant("identity", role: .identityAdapter)], bench: bench)
    results.provenance = fullProvenance(seconds: 600.5, dirty: true)
    return results
}

@Suite struct ArenaRecordTests {
    /// Serialised and parsed again, as a file would be.
    func reparsed(_ json: JSONValue) throws -> JSONValue { try JSONValue.parse(json.serialized()) }

    @Test func roundTripsThroughItsDocument() throws {
        let results = fullArenaResults()
        let document = try reparsed(results.json)
        #expect(try ArenaResults(json: document, source: "a.json") == results)
        #expect(try ResultsFile(document, source: "a.json") == .arena(results))
        #expect(ResultsFile.arena(results).schema == "difflab-arena/1" && ResultsFile.arena(results).source == "a.json")
        // Provenance as a bench file has it, in its order; no bench member when there is none.
        #expect(document.objectValue?.keys.prefix(7) == ["schema", "createdAt", "seconds", "machine", "toolchain", "commit", "dirty"])
        var bare = results
        bare.bench = nil
        bare.provenance.commit = nil
        #expect(bare.json["bench"] == nil && bare.json["commit"] == .null)
        #expect(try ArenaResults(json: reparsed(bare.json), source: "a.json") == bare)
    }

    @Test func unknownMembersAreIgnoredAndTheBenchMayMeasureOtherEngines() throws {
        var object = try #require(fullArenaResults().json.objectValue)
        object["future"] = [1, ["x": 2]]
        var contestants = try #require(object["contestants"]?.arrayValue)
        var first = try #require(contestants[0].objectValue)
        first["newFigure"] = "x"
        contestants[0] = .object(first)
        object["contestants"] = .array(contestants)
        let results = try ArenaResults(json: reparsed(.object(object)), source: "a.json")
        #expect(results == fullArenaResults())
        // fullBenchResults measures `stdlib`, which is no contestant.
        #expect(results.bench?.measurements.contains { $0.engine == "stdlib" } == true)
    }
}

// MARK: - Refusals

/// A valid arena document with `contestant` (one object) as its only contestant unless
/// `contestants` is given, the options given, and `extra` members.
func arenaDocument(
    contestant: String = arenaContestantJSON(), contestants: String? = nil,
    options: String = #"{"fuzzSeconds":60,"seed":"42","workers":2,"baselines":["differencekit"]}"#, createdAt: String = "1795979336",
    extra: String = ""
) -> String {
    #"{"schema":"difflab-arena/1","createdAt":"# + createdAt + #","options":"# + options + #","contestants":"#
        + (contestants ?? "[" + contestant + "]")
        + extra + "}"
}

/// A contestant object with `failure` as its only failure, and members replaced or added.
func arenaContestantJSON(
    engine: String = #""differencekit""#, failures: String? = nil, failure: String = arenaFailureJSON(),
    fuzz: String = #"{"seconds":60.2,"inputs":12345,"cases":234567}"#,
    library: String = #""DifferenceKit""#, role: String = #""library""#, reference: String = #""none""#, sectioned: String = "true",
    extra: String = ""
) -> String {
    #"{"engine":"# + engine + #","role":"# + role + #","library":"# + library
        + #","version":"1.3.0","promises":{"duplicates":false,"minimalMoves":false,"reference":"#
        + reference + #"},"sectioned":"# + sectioned + #","fuzz":"# + fuzz + #","failures":"# + (failures ?? "[" + failure + "]") + extra + "}"
}

/// A failure object with members replaced.
func arenaFailureJSON(scope: String = #""flat""#, kind: String = #""failure""#, old: String = #""[0:1]""#, message: String = #""m""#) -> String {
    #"{"signature":"batch-valid/differencekit/x","property":"batch-valid","scope":"# + scope + #","kind":"# + kind
        + #","outsideContract":false,"duplicates":false,"old":"# + old + #","new":"[0, 0:1]","message":"# + message + "}"
}

struct ArenaRefusal: CustomTestStringConvertible, Sendable {
    var document: String
    var message: String
    var testDescription: String { String(message.prefix(80)) }
}

let longLibrary = "\"" + String(repeating: "x", count: 201) + "\""
let longMessage = "\"" + String(repeating: "m", count: 100_001) + "\""

let arenaRefusals: [ArenaRefusal] = [
    ArenaRefusal(document: "[]", message: "a.json: expected a JSON object with a \"schema\" field, not an array"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(fuzz: #"{"seconds":-1,"inputs":1,"cases":1}"#)),
        message: "a.json: contestants[0].fuzz.seconds is -1.0, outside its allowed range 0 to 86,400 (seconds)"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(fuzz: #"{"seconds":1,"inputs":9007199254740993,"cases":1}"#)),
        message: "a.json: contestants[0].fuzz.inputs is 9007199254740993, outside its allowed range 0 to 9,007,199,254,740,992 (2^53)"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(fuzz: #"{"seconds":1,"inputs":1,"cases":2.5}"#)),
        message: "a.json: contestants[0].fuzz.cases should be an integer, not a number"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(fuzz: #"{"seconds":1,"inputs":1}"#)),
        message: "a.json: missing field contestants[0].fuzz.cases"),
    ArenaRefusal(
        document: arenaDocument(options: #"{"fuzzSeconds":60,"seed":"42","workers":0,"baselines":[]}"#),
        message: "a.json: options.workers is 0, outside its allowed range 1 to 1,024 (worker processes)"),
    ArenaRefusal(
        document: arenaDocument(options: #"{"fuzzSeconds":"60","seed":"42","workers":2}"#),
        message: "a.json: options.fuzzSeconds should be a number, not a string"),
    ArenaRefusal(
        document: arenaDocument(options: #"{"fuzzSeconds":1e6,"seed":"42","workers":2}"#),
        message: "a.json: options.fuzzSeconds is 1000000.0, outside its allowed range 0 to 86,400 (seconds)"),
    ArenaRefusal(document: arenaDocument(options: #"{"fuzzSeconds":60,"workers":2}"#), message: "a.json: missing field options.seed"),
    ArenaRefusal(
        document: arenaDocument(options: #"{"fuzzSeconds":60,"seed":"42","workers":2,"baselines":["differencekit","myers"]}"#),
        message: "a.json: options.baselines[1] should be a contestant's engine name; \"myers\" names no contestant"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(library: longLibrary)),
        message: "a.json: contestants[0].library should be at most 200 characters, not 201"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(failure: arenaFailureJSON(message: longMessage))),
        message: "a.json: contestants[0].failures[0].message should be at most 100,000 characters, not 100001"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(library: "7")),
        message: "a.json: contestants[0].library should be a string, not a number"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(role: #""vendor""#)),
        message: "a.json: contestants[0].role should be \"library\", \"difflab\" or \"identity-adapter\", not \"vendor\""),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(reference: #""myers""#)),
        message:
            "a.json: contestants[0].promises.reference should be \"none\", \"unique-identifiers\", \"minimal-script\" or \"heckel\", not \"myers\""
    ),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(failure: arenaFailureJSON(scope: #""nested""#))),
        message: "a.json: contestants[0].failures[0].scope should be \"flat\" or \"sectioned\", not \"nested\""),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(failure: arenaFailureJSON(kind: "true"))),
        message: "a.json: contestants[0].failures[0].kind should be a string, not a boolean"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(engine: #""Differ Kit""#)),
        message:
            "a.json: contestants[0].engine should be an engine name of 1 to 64 lower-case letters, digits, '-', '_' and '.', starting with a letter or digit, not \"Differ Kit\""
    ),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(engine: "\"" + String(repeating: "a", count: 65) + "\"")),
        message:
            "a.json: contestants[0].engine should be an engine name of 1 to 64 lower-case letters, digits, '-', '_' and '.', starting with a letter or digit, not a string"
    ),
    ArenaRefusal(
        document: arenaDocument(contestants: "[" + arenaContestantJSON() + "," + arenaContestantJSON(failures: "[]") + "]"),
        message: "a.json: contestants[1].engine should be an engine name no other contestant has (\"differencekit\" is also contestants[0]'s)"),
    ArenaRefusal(
        document: arenaDocument(
            contestant: arenaContestantJSON(failures: "[" + Array(repeating: arenaFailureJSON(), count: 1_001).joined(separator: ",") + "]")),
        message: "a.json: contestants[0].failures is 1001 elements, outside its allowed range 0 to 1,000 failures"),
    ArenaRefusal(
        document: arenaDocument(contestants: "[]", options: #"{"fuzzSeconds":60,"seed":"42","workers":2}"#),
        message: "a.json: contestants is 0 elements, outside its allowed range 1 to 64 contestants"),
    ArenaRefusal(
        document: arenaDocument(
            contestants: "[" + (0..<65).map { arenaContestantJSON(engine: "\"e\($0)\"", failures: "[]") }.joined(separator: ",") + "]",
            options: #"{"fuzzSeconds":60,"seed":"42","workers":2}"#),
        message: "a.json: contestants is 65 elements, outside its allowed range 1 to 64 contestants"),
    ArenaRefusal(
        document: #"{"schema":"difflab-arena/1","options":{"fuzzSeconds":60,"seed":"42","workers":2}}"#, message: "a.json: missing field contestants"),
    ArenaRefusal(
        document: arenaDocument(
            contestant: arenaContestantJSON(extra: #","promiseSources":["# + Array(repeating: #""s""#, count: 33).joined(separator: ",") + "]")),
        message: "a.json: contestants[0].promiseSources is 33 elements, outside its allowed range 0 to 32 sources"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(failure: arenaFailureJSON(scope: #""sectioned""#), sectioned: "false")),
        message: "a.json: contestants[0].failures[0].scope should be \"flat\": the contestant's sectioned is false"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(sectioned: #""yes""#)),
        message: "a.json: contestants[0].sectioned should be true or false, not a string"),
    ArenaRefusal(
        document: arenaDocument(contestant: arenaContestantJSON(failure: arenaFailureJSON(old: "null"))),
        message: "a.json: missing field contestants[0].failures[0].old"),
    ArenaRefusal(
        document: arenaDocument(createdAt: "-5"),
        message: "a.json: createdAt is -5, outside its allowed range 0 to 253,402,300,799 (1970 to 9999, Unix seconds)"),
    ArenaRefusal(
        document: arenaDocument(extra: #","seconds":1e8"#),
        message: "a.json: seconds is 100000000.0, outside its allowed range 0 to 10,000,000 (seconds)"),
    ArenaRefusal(document: arenaDocument(extra: #","bench":[]"#), message: "a.json: bench should be a JSON object, not an array"),
    ArenaRefusal(
        document: arenaDocument(extra: #","bench":{"schema":"difflab-policy/1"}"#),
        message: "a.json: bench.schema should be the schema \"difflab-bench/1\", not \"difflab-policy/1\""),
    ArenaRefusal(document: arenaDocument(extra: #","bench":{"measurements":[]}"#), message: "a.json: missing field bench.schema"),
    ArenaRefusal(
        document: arenaDocument(
            extra:
                #","bench":{"schema":"difflab-bench/1","measurements":[{"engine":"e","profile":"p","size":5,"kind":"k","allocator":"system","median":-1}]}"#
        ),
        message: "a.json: bench.measurements[0].median is -1.0, outside its allowed range 0 to 86,400 (seconds)"),
]

@Test(arguments: arenaRefusals)
func arenaRefusalsNameTheField(_ refusal: ArenaRefusal) throws {
    let document = try JSONValue.parse(refusal.document)
    #expect(failure { () throws(ResultsError) in try ArenaResults(json: document, source: "a.json") } == refusal.message)
    // `difflab report` reads through ResultsFile: the same error.
    #expect(failure { () throws(ResultsError) in try ResultsFile(document, source: "a.json") } == refusal.message)
}

@Test func theRefusalsTemplateIsAValidDocument() throws {
    let results = try ArenaResults(json: JSONValue.parse(arenaDocument()), source: "a.json")
    #expect(results.contestants.map(\.engine) == ["differencekit"] && results.contestants[0].failures.count == 1)
    #expect(results.options.baselines == ["differencekit"] && results.bench == nil)
    // At the limits: accepted.
    let atLimits = arenaDocument(
        contestant: arenaContestantJSON(
            failures: "["
                + Array(repeating: arenaFailureJSON(message: "\"" + String(repeating: "m", count: 100_000) + "\""), count: 2).joined(separator: ",")
                + "]",
            library: "\"" + String(repeating: "é", count: 200) + "\""))
    #expect(try ArenaResults(json: JSONValue.parse(atLimits), source: "a.json").contestants[0].about.library.unicodeScalars.count == 200)
}

// MARK: - Verdict rules

@Suite struct ArenaVerdictTests {
    @Test func noFailureHoldsEverywhere() {
        let verdict = ArenaVerdict(arenaContestant("a"))
        #expect(verdict.uniqueIdentifiers.holds && verdict.duplicates.holds && verdict.promisesKept.holds)
        #expect(verdict.sectioned == ArenaCheck())
        #expect(verdict.shortestCounterexample == nil)
    }

    @Test func validityFailuresCountByScopeAndDuplicates() {
        let verdict = ArenaVerdict(
            arenaContestant(
                "a",
                failures: [
                    arenaFailure("batch-valid"), arenaFailure("raw-sound"), arenaFailure("staged-valid", duplicates: true),
                    arenaFailure("batch-valid", scope: .sectioned, duplicates: true), arenaFailure("batch-valid", kind: .crash),
                ]))
        #expect(verdict.uniqueIdentifiers == ArenaCheck(failures: 3))
        #expect(verdict.duplicates == ArenaCheck(failures: 1))
        #expect(verdict.sectioned == ArenaCheck(failures: 1))
        #expect(verdict.promisesKept.holds)
    }

    @Test func otherPropertiesBreakPromisesOnlyInsideTheContract() {
        let verdict = ArenaVerdict(
            arenaContestant(
                "a", duplicates: false,
                failures: [
                    arenaFailure("differential", duplicates: true, outsideContract: true), arenaFailure("metamorphic", scope: .sectioned),
                    arenaFailure("batch-valid", duplicates: true, outsideContract: true),
                ]))
        #expect(verdict.promisesKept == ArenaCheck(failures: 1))
        #expect(verdict.uniqueIdentifiers.holds)
        #expect(verdict.duplicates == ArenaCheck(failures: 1, outsideContract: 1) && !verdict.duplicatesPromised)
        #expect(verdict.sectioned == ArenaCheck())
    }

    @Test func sectionedIsNilWhenNotFuzzedAndTheShortestCounterexampleIsTheFirstOfTheShortest() {
        let first = arenaFailure("differential", old: "[1]", new: "[2]")
        let verdict = ArenaVerdict(
            arenaContestant(
                "a", sectioned: false,
                failures: [
                    arenaFailure(old: "[0, 1, 2]", new: "[2]"), first, arenaFailure("metamorphic", old: "[3]", new: "[4]"),
                    arenaFailure("batch-valid", scope: .sectioned),
                ]))
        #expect(verdict.sectioned == nil)
        #expect(verdict.shortestCounterexample == first)
    }
}
