import DiffLabCLI
import DiffLabCore
import DiffLabDev
import DiffLabJSON
import DiffLabPlatform
import Testing

/// Runs `difflab` in process and records what it writes.
final class Recorder: Sendable {
    let output = Locked("")
    let errors = Locked("")
    var console: Console {
        Console(out: { text in self.output.withLock { $0 += text } }, err: { text in self.errors.withLock { $0 += text } })
    }
    var out: String { output.withLock { $0 } }
    var err: String { errors.withLock { $0 } }
}

/// Runs `difflab-dev` in process and records what it writes.
func runDev(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let recorder = Recorder()
    let status = DevCommands.run(arguments, console: recorder.console)
    return (status, recorder.out, recorder.err)
}

func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let recorder = Recorder()
    let status = DiffLabCommand.run(arguments, console: recorder.console)
    return (status, recorder.out, recorder.err)
}

/// Writes `text` to a new or emptied file at `path` (a test fixture: a failure stops the run).
func writeTextFile(_ path: String, _ text: String) {
    do {
        let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: 0o644)
        defer { file.closeIgnoringErrors() }
        try file.writeAll(Array(text.utf8))
    } catch {
        preconditionFailure("cannot write the fixture \(path): \(error)")
    }
}

/// A temporary directory with the given files, removed with everything in it when the value is
/// destroyed, or when the test process exits (suites keep some as `static let`, which are never
/// destroyed).
struct Files: ~Copyable {
    let directory: String
    init(_ files: [String: String]) {
        do {
            directory = try FileSystem.makeTemporaryDirectory("difflab-cli")
        } catch {
            preconditionFailure("cannot make a fixture folder: \(error)")
        }
        fixtureFolders.register(directory)
        for (name, text) in files { writeTextFile(path(name), text) }
    }
    func path(_ name: String) -> String { directory + "/" + name }
    deinit {
        FileSystem.removeTree(directory)
        fixtureFolders.forget(directory)
    }
}

/// Every fixture folder still present, removed at process exit.
final class FixtureFolders: Sendable {
    private let folders = Locked<Set<String>>([])
    private let installed = Locked(false)

    func register(_ folder: String) {
        folders.withLock { _ = $0.insert(folder) }
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        if first { runAtExit { fixtureFolders.removeAll() } }
    }

    func forget(_ folder: String) { folders.withLock { _ = $0.remove(folder) } }

    func removeAll() {
        for folder in folders.withLock({ $0 }) { FileSystem.removeTree(folder) }
    }
}

let fixtureFolders = FixtureFolders()

@Suite("difflab diff")
struct DiffCommandTests {
    static let paper = Files([
        "old.json":
            #"["much","writing","is","like","snow",",","a","mass","of","long","words","and","phrases","falls","upon","the","relevant","facts","covering","up","the","details","."]"#,
        "new.json":
            #"["a","mass","of","latin","words","falls","upon","the","relevant","facts","like","soft","snow",",","covering","up","the","details","."]"#,
    ])

    @Test(arguments: EngineRegistry.builtIns.engines.map(\.name))
    func outputFormatIsExact(engine: String) {
        let result = run(["diff", Self.paper.path("old.json"), Self.paper.path("new.json"), "--engine", engine, "--moves", "minimal"])
        #expect(result.status == 0)
        #expect(result.err == "")
        #expect(
            result.out
                == #"{"inserts":[3,11],"deletes":[0,1,2,9,11,12],"updates":[],"moves":[{"from":3,"to":10},{"from":4,"to":12},{"from":5,"to":13}]}"#
                + "\n")
    }

    @Test func defaultEngineAndMovesAreHeckelOffsets() {
        let defaults = run(["diff", Self.paper.path("old.json"), Self.paper.path("new.json")])
        let explicit = run([
            "diff", "--engine=heckel", "--moves=offsets", Self.paper.path("old.json"), Self.paper.path("new.json"),
        ])
        #expect(defaults.status == 0)
        #expect(defaults.out == explicit.out)
        #expect(defaults.out.contains(#"{"from":6,"to":0}"#))
    }

    static let objects = Files([
        "old.json": #"[{"id":1,"content":{"t":"a","n":1}},{"id":2,"content":"x"},{"id":"2","content":null},{"id":3}]"#,
        "new.json": #"[{"id":3,"content":null},{"id":1,"content":{"n":1,"t":"a"}},{"id":2,"content":"y"},{"id":"2"}]"#,
    ])

    @Test func objectsCompareContentAsJSONValues() {
        let r = run(["diff", Self.objects.path("old.json"), Self.objects.path("new.json")])
        #expect(r.status == 0)
        // 1: key order differs only → not updated. 2: "x" → "y" → updated. "2" ≠ 2. 3: absent = null.
        #expect(
            r.out == #"{"inserts":[],"deletes":[],"updates":[1],"moves":[{"from":3,"to":0},{"from":0,"to":1},{"from":1,"to":2},{"from":2,"to":3}]}"#
                + "\n")
    }

    @Test func batchAndSections() {
        let r = run(["diff", Self.objects.path("old.json"), Self.objects.path("new.json"), "--batch", "--sections", "2,5"])
        #expect(r.status == 0)
        #expect(
            r.out
                == #"{"inserts":[[5,2]],"deletes":[[2,1]],"updates":[],"moves":[{"from":[2,3],"to":[5,0]},{"from":[2,0],"to":[5,1]},{"from":[2,2],"to":[5,3]}]}"#
                + "\n")
    }

    @Test func scalarsNumbersAndStringsAreDistinctIdentifiers() {
        let files = Files(["a.json": #"[1, "1", 2.5]"#, "b.json": #"["1", 1.0, 2.50]"#])
        let r = run(["diff", files.path("a.json"), files.path("b.json")])
        #expect(r.out == #"{"inserts":[],"deletes":[],"updates":[],"moves":[{"from":1,"to":0},{"from":0,"to":1}]}"# + "\n")
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let bad = Files([
        "ok.json": "[1,2]",
        "malformed.json": "[1, 2",
        "object.json": #"{"a": 1}"#,
        "bool.json": "[true]",
        "noid.json": #"[{"content": 1}]"#,
        "badid.json": #"[{"id": [1]}]"#,
        "extra.json": #"[{"id": 1, "colour": 2}]"#,
        "huge.json": "[1, " + String(repeating: "9", count: 100_000) + "]",
        "keys.json": #"[1, {"id": 2, "content": {"\u00e9": 1, "e\u0301": 2}}]"#,
    ])

    static let badInputs: [BadInput] = [
        BadInput(name: "missing file", arguments: ["diff", bad.path("nope.json"), bad.path("ok.json")], status: 66, message: "cannot open"),
        BadInput(name: "directory", arguments: ["diff", bad.directory, bad.path("ok.json")], status: 66, message: "is a directory"),
        BadInput(
            name: "malformed JSON", arguments: ["diff", bad.path("ok.json"), bad.path("malformed.json")], status: 65,
            message: "malformed JSON at line 1"),
        BadInput(
            name: "not an array", arguments: ["diff", bad.path("object.json"), bad.path("ok.json")], status: 65,
            message: "expected a JSON array of elements, not an object"),
        BadInput(
            name: "boolean element", arguments: ["diff", bad.path("bool.json"), bad.path("ok.json")], status: 65, message: "element 0 is a boolean"),
        BadInput(name: "object without id", arguments: ["diff", bad.path("noid.json"), bad.path("ok.json")], status: 65, message: "has no \"id\""),
        BadInput(
            name: "array id", arguments: ["diff", bad.path("badid.json"), bad.path("ok.json")], status: 65, message: "must be a string or a number"),
        BadInput(
            name: "unknown key", arguments: ["diff", bad.path("extra.json"), bad.path("ok.json")], status: 65, message: "unknown key \"colour\""),
        BadInput(
            name: "unknown engine", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--engine", "fast"], status: 64,
            message: "unknown engine 'fast'"),
        BadInput(
            name: "unknown moves", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--moves", "few"], status: 64,
            message: "--moves expects one of: offsets, minimal (got 'few')"),
        BadInput(
            name: "unknown flag", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--fast"], status: 64,
            message: "unknown option '--fast'"),
        BadInput(
            name: "missing value", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--engine"], status: 64, message: "needs a value"),
        BadInput(
            name: "flag with value", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--batch=yes"], status: 64,
            message: "takes no value"),
        BadInput(
            name: "bad --strings", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--strings", "nfc"], status: 64,
            message: "--strings expects one of: literal, canonical (got 'nfc')"),
        BadInput(
            name: "bad stages --strings", arguments: ["stages", bad.path("ok.json"), bad.path("ok.json"), "--strings=NFD"], status: 64,
            message: "--strings expects one of: literal, canonical (got 'NFD')"),
        BadInput(
            name: "integer beyond the Double range", arguments: ["diff", bad.path("huge.json"), bad.path("ok.json")], status: 65,
            message: "huge.json: malformed JSON at line 1, column 5: number out of range (magnitude above about 1.8e308"),
        BadInput(
            name: "canonically equivalent keys with --strings canonical",
            arguments: ["diff", bad.path("keys.json"), bad.path("ok.json"), "--strings", "canonical"], status: 65,
            message: #"keys.json: element 1: keys "\u00E9" and "e\u0301" of one object are canonically equivalent"#),
        BadInput(
            name: "bad sections", arguments: ["diff", bad.path("ok.json"), bad.path("ok.json"), "--sections", "1,-2"], status: 64,
            message: "--sections expects FROM,TO"),
        BadInput(name: "one file", arguments: ["diff", bad.path("ok.json")], status: 64, message: "needs two files"),
        BadInput(name: "unknown command", arguments: ["dif"], status: 64, message: "unknown command 'dif'"),
        BadInput(name: "no command", arguments: [], status: 64, message: "no command given"),
    ]

    @Test(arguments: badInputs)
    func badInputGivesOneClearLineAndStatus(bad: BadInput) {
        let r = run(bad.arguments)
        #expect(r.status == bad.status)
        #expect(r.out == "")
        #expect(r.err.contains("difflab: "))
        #expect(r.err.contains(bad.message), "stderr: \(r.err)")
    }

    @Test func helpDescribesEverything() {
        let top = run(["--help"])
        #expect(top.status == 0)
        #expect(top.out.contains("diff OLD.json NEW.json"))
        let diff = run(["diff", "--help"])
        #expect(diff.status == 0)
        for word in [
            "--engine", "heckel", "hashmap", "myers", "stdlib", "--moves", "offsets", "minimal", "--batch", "--sections", "\"content\"", "65",
            "66", "--strings", "literal", "canonical", "18446744073709551615", #""\u00e9""#, #""e\u0301""#,
        ] {
            #expect(diff.out.contains(word), "diff --help lacks \(word)")
        }
        #expect(run(["help", "diff"]).out == diff.out)
        let stages = run(["stages", "--help"])
        #expect(stages.out.contains("--strings") && stages.out.contains("canonical"))
        #expect(run(["--version"]).out.hasPrefix("difflab "))
    }
}

/// Identifiers and contents must never compare equal by accident (issue 10): integers are exact at
/// any size, strings literal unless `--strings canonical`.
@Suite("difflab diff: exact identifiers")
struct IdentifierTests {
    static let noChanges = #"{"inserts":[],"deletes":[],"updates":[],"moves":[]}"# + "\n"
    static let replaced = #"{"inserts":[0],"deletes":[0],"updates":[],"moves":[]}"# + "\n"
    static let updated = #"{"inserts":[],"deletes":[],"updates":[0],"moves":[]}"# + "\n"

    static let files = Files([
        "max.json": "[18446744073709551615]",
        "max-1.json": "[18446744073709551614]",
        "max-exp.json": "[1.8446744073709551615e19]",
        "content-max.json": #"[{"id": 7, "content": {"n": 18446744073709551615}}]"#,
        "content-max-1.json": #"[{"id": 7, "content": {"n": 18446744073709551614}}]"#,
        "content-max-exp.json": #"[{"id": 7.0, "content": {"n": 184467440737095516150e-1}}]"#,
        "nfc.json": #"["\u00e9"]"#,
        "nfd.json": #"["e\u0301"]"#,
        "content-nfc.json": #"[{"id": "k\u00e9", "content": ["\u00e9", {"\u00e9": 1}]}]"#,
        "content-nfd.json": #"[{"id": "ke\u0301", "content": ["e\u0301", {"e\u0301": 1}]}]"#,
        "sections-nfc.json": #"[{"id": "s\u00e9", "items": ["\u00e9", 18446744073709551615]}]"#,
        "sections-nfd.json": #"[{"id": "se\u0301", "items": ["e\u0301", 1.8446744073709551615e19]}]"#,
    ])

    func diff(_ old: String, _ new: String, _ options: String...) -> (status: Int32, out: String, err: String) {
        run(["diff", Self.files.path(old), Self.files.path(new)] + options)
    }

    @Test(arguments: EngineRegistry.builtIns.engines.map(\.name))
    func integersBeyond64BitsAreDistinct(engine: String) {
        let r = diff("max.json", "max-1.json", "--engine", engine)
        #expect(r.status == 0)
        #expect(r.err == "")
        #expect(r.out == Self.replaced)
    }

    @Test func oneIntegerSpelledTwoWaysIsOneItem() {
        #expect(diff("max.json", "max-exp.json").out == Self.noChanges)
        #expect(diff("max-exp.json", "max.json").out == Self.noChanges)
    }

    @Test func bigIntegersInContentAreExact() {
        #expect(diff("content-max.json", "content-max-1.json").out == Self.updated)
        #expect(diff("content-max.json", "content-max-exp.json").out == Self.noChanges)
    }

    @Test func stringsAreLiteralByDefault() {
        #expect(diff("nfc.json", "nfd.json").out == Self.replaced)
        #expect(diff("nfc.json", "nfd.json", "--strings", "literal").out == Self.replaced)
        #expect(diff("nfc.json", "nfc.json").out == Self.noChanges)
        // Identifiers and contents that differ only in composition: a different item, literally.
        #expect(diff("content-nfc.json", "content-nfd.json").out == Self.replaced)
    }

    @Test(arguments: EngineRegistry.builtIns.engines.map(\.name))
    func canonicalStringsTreatEquivalentSpellingsAsOne(engine: String) {
        let r = diff("nfc.json", "nfd.json", "--strings=canonical", "--engine", engine)
        #expect(r.status == 0)
        #expect(r.err == "")
        #expect(r.out == Self.noChanges)
        // Content strings and keys too.
        #expect(diff("content-nfc.json", "content-nfd.json", "--strings", "canonical", "--engine", engine).out == Self.noChanges)
    }

    @Test func stagesFollowTheSameRules() {
        let literal = run(["stages", Self.files.path("sections-nfc.json"), Self.files.path("sections-nfd.json")])
        #expect(literal.status == 0)
        #expect(literal.out.contains(#""deleteSections":[0]"#))
        let canonical = run(["stages", Self.files.path("sections-nfc.json"), Self.files.path("sections-nfd.json"), "--strings", "canonical"])
        #expect(canonical.status == 0)
        #expect(canonical.err == "")
        #expect(canonical.out == "[]\n")
        // The big integer item is exact in the output data.
        #expect(literal.out.contains("18446744073709551615"))
    }
}

/// Issue 11: a package's runner printed `difflab:` before its errors whatever it was called.
@Test func theProgramNameIsTheLastComponentOfArgv0() {
    #expect(programName(fromArgv0: "/x/y/.build/release/mylab") == "mylab")
    #expect(programName(fromArgv0: "custom-difflab") == "custom-difflab")
    #expect(programName(fromArgv0: "") == "difflab")
    #expect(programName(fromArgv0: nil) == "difflab")
    #expect(programName == "difflab", "in-process runs (tests) keep the default")
}
