import DiffLabCLI
import DiffLabJSON
import Testing

@Suite("difflab validate and difflab stages")
struct BatchCommandTests {
    static let files = Files([
        "valid.json": #"{"before":[2,1],"after":[1,2],"moveItems":[{"from":[0,0],"to":[1,0]}]}"#,
        "empty.json": "{}",
        "invalid.json": #"{"before":[40],"after":[40],"deleteItems":[[0,3]],"reloadItems":[[0,3]]}"#,
        "unknown-key.json": #"{"befor":[1]}"#,
        "bad-path.json": #"{"before":[1],"after":[1],"deleteItems":[[0]]}"#,
        "float.json": #"{"before":[1.5],"after":[1]}"#,
        "negative.json": #"{"before":[-1],"after":[1]}"#,
        "not-object.json": "[1]",
        "malformed.json": "{",
        "int-max.json": #"{"before":[9223372036854775807],"after":[9223372036854775807],"insertItems":[[0,0]]}"#,
        "int-max-valid.json":
            #"{"before":[9223372036854775807,0],"after":[9223372036854775806,1],"moveItems":[{"from":[0,9223372036854775806],"to":[1,0]}]}"#,
        "count-too-big.json": #"{"before":[1],"after":[9223372036854775808]}"#,
        "index-too-big.json": #"{"before":[1],"after":[1],"insertItems":[[0,1e300]]}"#,
        "index-wrong-type.json": #"{"before":[1,1],"after":[1,1],"moveSections":[{"from":0,"to":"1"}]}"#,
        "old.json": #"[{"id":"A","items":[1,{"id":2,"content":"draft"},3]},{"id":"B","items":[4]},{"id":"C","items":[5]}]"#,
        "new.json": #"[{"id":"C","items":[5,3]},{"id":"D","items":[8]},{"id":"A","items":[{"id":2,"content":"final"},6]}]"#,
        "bad-section.json": #"[{"id":"A","items":[1],"title":"x"}]"#,
        "bad-items.json": #"[{"id":"A","items":{}}]"#,
    ])

    @Test func validUpdatePrintsValid() {
        let r = run(["validate", Self.files.path("valid.json")])
        #expect(r.status == 0)
        #expect(r.out == "valid\n")
        #expect(run(["validate", Self.files.path("empty.json")]).out == "valid\n")
    }

    @Test func invalidUpdatePrintsOneLinePerViolation() {
        let r = run(["validate", Self.files.path("invalid.json")])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == "attempt to delete and reload the same index path (<NSIndexPath> {length = 2, path = 0 - 3})")
        #expect(lines[1].hasPrefix("Invalid update: invalid number of items in section 0.  The number of items"))
    }

    @Test(arguments: [
        ("unknown-key.json", "unknown key \"befor\""), ("bad-path.json", "must be a [section, item] pair"),
        ("float.json", #""before"[0] (an item count) must be an integer from 0 to 9223372036854775807, not 1.5"#),
        ("negative.json", #""before"[0] (an item count) must be an integer from 0 to 9223372036854775807, not -1"#),
        ("count-too-big.json", #""after"[0] (an item count) must be an integer from 0 to 9223372036854775807, not 9223372036854775808"#),
        ("index-too-big.json", #""insertItems"[0] must be an integer from -9223372036854775808 to 9223372036854775807, not 1e+300"#),
        ("index-wrong-type.json", #""moveSections"[0].to must be an integer from -9223372036854775808 to 9223372036854775807, not "1""#),
        ("not-object.json", "expected a JSON object"), ("malformed.json", "malformed JSON"),
    ])
    func malformedUpdateIsExit65(file: String, message: String) {
        let r = run(["validate", Self.files.path(file)])
        #expect(r.status == 65)
        #expect(r.out == "")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
    }

    /// Item counts near Int.max trapped (SIGILL) in the item-count rule's arithmetic.
    @Test func countsNearIntMaxAreViolationsNotTraps() {
        let r = run(["validate", Self.files.path("int-max.json")])
        #expect(r.status == 1)
        #expect(
            r.out
                == "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (9223372036854775807) must be equal to the number of items contained in that section before the update (9223372036854775807), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).\n"
        )
        let valid = run(["validate", Self.files.path("int-max-valid.json")])
        #expect(valid.status == 0, "\(valid.out)")
        #expect(valid.out == "valid\n")
    }

    @Test func validateUsageErrors() {
        #expect(run(["validate"]).status == 64)
        #expect(run(["validate", Self.files.path("nope.json")]).status == 66)
        #expect(run(["validate", "--help"]).out.contains("moveSections"))
    }

    @Test(arguments: EngineRegistry.builtIns.engines.map(\.name))
    func stagesAreValidStageByStageAndEndAtNew(engine: String) throws {
        let r = run(["stages", Self.files.path("old.json"), Self.files.path("new.json"), "--engine", engine])
        #expect(r.status == 0, "\(r.err)")
        let stages = try #require(try JSONValue.parse(r.out).arrayValue)
        #expect(stages.count == 4)
        var previous = try JSONValue.parse(#"[{"id":"A","items":[1,{"id":2,"content":"draft"},3]},{"id":"B","items":[4]},{"id":"C","items":[5]}]"#)
        for stage in stages {
            let data = try #require(stage["data"])
            var update = try #require(stage["changes"]?.objectValue)
            update["before"] = .array(previous.arrayValue!.map { .integer($0["items"]!.arrayValue!.count) })
            update["after"] = .array(data.arrayValue!.map { .integer($0["items"]!.arrayValue!.count) })
            let files = Files(["update.json": JSONValue.object(update).serialized()])
            #expect(run(["validate", files.path("update.json")]).out == "valid\n")
            previous = data
        }
        #expect(
            previous == (try JSONValue.parse(#"[{"id":"C","items":[5,3]},{"id":"D","items":[8]},{"id":"A","items":[{"id":2,"content":"final"},6]}]"#))
        )
    }

    @Test func stagesExactOutputForTheUpdateStage() throws {
        let r = run(["stages", Self.files.path("old.json"), Self.files.path("new.json")])
        let first = try #require(try JSONValue.parse(r.out).arrayValue?.first)
        #expect(
            first["changes"]?.serialized()
                == #"{"insertSections":[],"deleteSections":[],"reloadSections":[],"moveSections":[],"insertItems":[],"deleteItems":[],"reloadItems":[[0,1]],"moveItems":[]}"#
        )
    }

    @Test func stagesOfEqualModelsIsEmpty() {
        let r = run(["stages", Self.files.path("old.json"), Self.files.path("old.json")])
        #expect(r.out == "[]\n")
    }

    @Test func stagesBadInput() {
        #expect(run(["stages", Self.files.path("bad-section.json"), Self.files.path("old.json")]).status == 65)
        #expect(run(["stages", Self.files.path("bad-items.json"), Self.files.path("old.json")]).status == 65)
        #expect(run(["stages", Self.files.path("old.json"), Self.files.path("new.json"), "--engine", "x"]).status == 64)
        #expect(run(["stages", Self.files.path("old.json")]).status == 64)
        #expect(run(["stages", Self.files.path("old.json"), Self.files.path("missing.json")]).status == 66)
    }
}

/// `difflab measure` on the validator's bench cell, and its range checks.
@Suite("difflab measure: the validate cell and ranges")
struct MeasureValidateCellTests {
    @Test func validateCellIsMeasured() throws {
        let r = run(["measure", "--cells", "validate:differencekit:int:10000", "--samples", "2"])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONValue.parse(r.out)
        let result = try #require(json["results"]?.arrayValue?.first)
        #expect(result["cell"]?.stringValue == "validate:differencekit:int:10000")
        #expect(result["samples"]?.arrayValue?.count == 2)
    }

    @Test(arguments: [
        (["--cells", "hashmap:differencekit:int:999999999999"], "cell size '999999999999' is not an integer from 1 to 10000000"),
        (["--cells", "validate:differencekit:int:0"], "cell size '0' is not an integer from 1 to 10000000"),
        (["--cells", "hashmap:differencekit:int:10", "--samples", "0"], "--samples expects an integer from 1 to 10000 (got '0')"),
        (["--cells", "hashmap:differencekit:int:10", "--samples", "100001"], "--samples expects an integer from 1 to 10000 (got '100001')"),
        (["--cells", "hashmap:differencekit:int:10", "--seed", "-1"], "--seed expects an integer from 0 to 18446744073709551615"),
    ])
    func outOfRangeIsAUsageError(arguments: [String], message: String) {
        let r = run(["measure"] + arguments)
        #expect(r.status == 64)
        #expect(r.out == "")
        #expect(r.err.contains(message), "\(r.err)")
    }
}
