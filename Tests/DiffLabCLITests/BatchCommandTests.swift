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
        ("float.json", "must be an integer"), ("negative.json", "negative item count"),
        ("not-object.json", "expected a JSON object"), ("malformed.json", "malformed JSON"),
    ])
    func malformedUpdateIsExit65(file: String, message: String) {
        let r = run(["validate", Self.files.path(file)])
        #expect(r.status == 65)
        #expect(r.out == "")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
    }

    @Test func validateUsageErrors() {
        #expect(run(["validate"]).status == 64)
        #expect(run(["validate", Self.files.path("nope.json")]).status == 66)
        #expect(run(["validate", "--help"]).out.contains("moveSections"))
    }

    @Test(arguments: ["heckel", "hashmap", "myers", "stdlib"])
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
        #expect(previous == (try JSONValue.parse(#"[{"id":"C","items":[5,3]},{"id":"D","items":[8]},{"id":"A","items":[{"id":2,"content":"final"},6]}]"#)))
    }

    @Test func stagesExactOutputForTheUpdateStage() throws {
        let r = run(["stages", Self.files.path("old.json"), Self.files.path("new.json")])
        let first = try #require(try JSONValue.parse(r.out).arrayValue?.first)
        #expect(
            first["changes"]?.serialized()
                == #"{"insertSections":[],"deleteSections":[],"reloadSections":[],"moveSections":[],"insertItems":[],"deleteItems":[],"reloadItems":[[0,1]],"moveItems":[]}"#)
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
