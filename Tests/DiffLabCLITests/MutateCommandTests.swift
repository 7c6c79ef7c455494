import DiffLabJSON
import DiffLabResults
import Testing

@testable import DiffLabCLI
@testable import DiffLabDev

/// `difflab mutate`: its catalogue, its results record and its command line. No mutant is built
/// here (that takes minutes each); `Scripts/mutate` does it.
@Suite("difflab mutate")
struct MutateCommandTests {
    func catalogue() throws -> MutantCatalogue {
        do throws(CommandError) { return try MutateCommand.readCatalogue(MutateCommand.defaultCatalogue) } catch {
            Issue.record("\(error.message)")
            throw error
        }
    }

    @Test func theCatalogueParsesAndCoversEveryArea() throws {
        let mutants = try catalogue().mutants
        #expect(mutants.count >= 30)
        #expect(Set(mutants.map(\.area)) == Set(MutantArea.allCases))
        // Every area has a mutant that is not marked equivalent, so every area is scored.
        #expect(Set(mutants.filter { $0.equivalent == nil }.map(\.area)) == Set(MutantArea.allCases))
        // Patches are numbered in catalogue order.
        for (index, mutant) in mutants.enumerated() {
            let number = index + 1
            #expect(mutant.patch == (number < 10 ? "0\(number)" : "\(number)") + "-\(mutant.name).patch")
        }
    }

    @Test func theQuickSubsetIsAboutFiveDiverseMutants() throws {
        let quick = try catalogue().mutants.filter(\.quick)
        #expect((4...6).contains(quick.count))
        #expect(Set(quick.map(\.area)).count == quick.count)
        #expect(quick.allSatisfy { $0.equivalent == nil })
    }

    @Test func everyPatchAppliesCleanlyAndChangesItsFile() throws {
        let mutants = try catalogue().mutants
        try #require(!mutants.isEmpty, "the catalogue lists no mutant: nothing would be checked")
        for mutant in mutants {
            let path = MutateCommand.defaultCatalogue + "/" + mutant.patch
            let status = try runProcess("git", ["apply", "--check", path], stdout: "/dev/null", stderr: "/dev/null")
            #expect(status == 0, "\(mutant.patch) does not apply to the tree")
            let text = String(decoding: try readInputFile(path), as: UTF8.self)
            #expect(text.contains("--- a/\(mutant.file)\n"), "\(mutant.patch) does not change \(mutant.file)")
            let changed = text.split(separator: "\n").filter {
                ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
            }
            #expect((1...8).contains(changed.count), "\(mutant.patch) is not minimal: \(changed.count) changed lines")
        }
    }

    @Test func checksAndClaimsAreComplete() throws {
        let mutants = try catalogue().mutants
        try #require(!mutants.isEmpty, "the catalogue lists no mutant: nothing would be checked")
        for mutant in mutants {
            #expect((mutant.check == .swiftTest) == (mutant.testFilter != nil))
            #expect(mutant.area != .libFuzzerDecoding || mutant.check == .swiftTest, "\(mutant.name): the fuzz run never decodes bytes")
            if let reason = mutant.equivalent { #expect(reason.count >= 40, "\(mutant.name): say why no property can kill it") }
        }
    }

    func document(_ text: String) throws -> JSONValue { try JSONValue.parse(bytes: Array(text.utf8)) }

    func catalogueError(_ mutant: String) throws -> String? {
        let json = try document(#"{"schema": "difflab-mutants/1", "mutants": ["# + mutant + "]}")
        return failure { () throws(ResultsError) in try MutantCatalogue(json: json, source: "c.json") }
    }

    static let good = #""name": "x-y", "patch": "01-x-y.patch", "file": "Sources/A.swift", "area": "heckel", "kind": "off-by-one", "bug": "b""#

    @Test(arguments: [
        (#"{"patch": "01-x.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b"}"#, "c.json: missing field mutants[0].name"),
        (#"{"name": "X!", "patch": "01-x.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b"}"#, "c.json: mutants[0].name should be"),
        (#"{"name": "x-y", "patch": "1-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b"}"#, "c.json: mutants[0].patch should be"),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "../a", "area": "heckel", "kind": "k", "bug": "b"}"#,
            "c.json: mutants[0].file should be"
        ),
        (#"{"name": "x-y", "patch": "01-x-y.patch", "file": "/a", "area": "heckel", "kind": "k", "bug": "b"}"#, "c.json: mutants[0].file should be"),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "dijkstra", "kind": "k", "bug": "b"}"#,
            "c.json: mutants[0].area should be \"heckel\""
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b", "check": "swift-test"}"#,
            "c.json: mutants[0].testFilter should be present"
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b", "testFilter": "T"}"#,
            "c.json: mutants[0].testFilter should be absent"
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b", "check": "swift-test", "testFilter": "a;rm"}"#,
            "c.json: mutants[0].testFilter should be 1 to 200"
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b", "check": "run"}"#,
            "c.json: mutants[0].check should be \"fuzz\" or \"swift-test\""
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b", "quick": 1}"#,
            "c.json: mutants[0].quick should be true or false, not a number"
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": "b", "equivalent": "no"}"#,
            "c.json: mutants[0].equivalent should be 10 to 2,000, not 2"
        ),
        (
            #"{"name": "x-y", "patch": "01-x-y.patch", "file": "a", "area": "heckel", "kind": "k", "bug": 3}"#,
            "c.json: mutants[0].bug should be a string, not a number"
        ),
        ("{" + good + "}, {" + good + "}", "c.json: mutants[1].name should be a name not used before"),
    ])
    func aBadCatalogueIsRefusedNamingTheField(mutant: String, message: String) throws {
        let error = try catalogueError(mutant)
        #expect(error?.hasPrefix(message) == true, "\(error ?? "accepted")")
    }

    @Test func aCatalogueWithoutMutantsOrSchemaIsRefused() throws {
        #expect(
            failure { () throws(ResultsError) in
                try MutantCatalogue(json: try! document(#"{"schema": "difflab-mutants/1", "mutants": []}"#), source: "c")
            }?.contains("mutants is 0 elements, outside its allowed range 1 to 1,000 (mutants)") == true)
        #expect(
            failure { () throws(ResultsError) in try MutantCatalogue(json: try! document(#"{"mutants": []}"#), source: "c") }
                == ResultsError.missingSchema(source: "c").description)
        #expect(
            failure { () throws(ResultsError) in try MutantCatalogue(json: try! document(#"{"schema": "difflab-mutants/1"}"#), source: "c") }
                == "c: missing field mutants")
    }

    @Test func aCatalogueRoundTrips() throws {
        let catalogue = try catalogue()
        #expect(try MutantCatalogue(json: try JSONValue.parse(catalogue.json.serialized()), source: catalogue.source) == catalogue)
    }

    func sampleFile() -> MutationFile {
        var file = MutationFile(source: "m.json", seconds: 30, seed: UInt64.max, catalogue: "Corpus/mutants")
        file.provenance.createdAt = 1_700_000_000
        file.provenance.machine = [DisplayField(name: "cpu", value: "x")]
        file.provenance.toolchain = "swift 6"
        file.provenance.commit = "abc"
        var killed = MutantResult(name: "a", area: .hashmap, check: .fuzz, equivalent: false, outcome: .killed)
        killed.secondsToKill = 1.25
        killed.inputsToKill = 300
        killed.signature = "differential/hashmap/heckel"
        killed.shrunkItems = 4
        killed.originalItems = 30
        killed.buildSeconds = 90
        killed.checkSeconds = 30
        var crashed = MutantResult(name: "b", area: .libFuzzerDecoding, check: .swiftTest, equivalent: false, outcome: .killed)
        crashed.crashed = true
        let survived = MutantResult(name: "c", area: .sanitizer, check: .fuzz, equivalent: false, outcome: .survived)
        var equivalent = MutantResult(name: "d", area: .myers, check: .fuzz, equivalent: true, outcome: .survived)
        equivalent.note = "n"
        let error = MutantResult(name: "e", area: .validator, check: .fuzz, equivalent: false, outcome: .error)
        file.results = [killed, crashed, survived, equivalent, error]
        return file
    }

    @Test func theMutationFileRoundTrips() throws {
        let file = sampleFile()
        #expect(file.killed == 2 && file.scored == 4 && file.score == 0.5)
        #expect(try MutationFile(json: try JSONValue.parse(file.json.serialized()), source: "m.json") == file)
        // The build configuration is recorded; a file without it was built in release mode.
        #expect(file.json["configuration"] == "release")
        var debug = file
        debug.configuration = .debug
        #expect(try MutationFile(json: try JSONValue.parse(debug.json.serialized()), source: "m.json").configuration == .debug)
        var older = file.json
        set(&older, "configuration", .null)
        guard case .object(var members) = older else {
            Issue.record("the file's JSON is not an object: \(older)")
            return
        }
        members["configuration"] = nil
        #expect(try MutationFile(json: .object(members), source: "m.json").configuration == .release)
    }

    /// The decoder reads a file as hostile: each bad field is named.
    @Test(arguments: [
        ("results[0].outcome", JSONValue.string("dead"), "m.json: results[0].outcome should be \"killed\", \"survived\" or \"error\", not \"dead\""),
        ("results[0].area", .string("x"), "m.json: results[0].area should be \"heckel\""),
        ("results[0].secondsToKill", .integer(-1), "m.json: results[0].secondsToKill is -1.0, outside its allowed range"),
        ("results[0].shrunkItems", .string("4"), "m.json: results[0].shrunkItems should be an integer, not a string"),
        ("results[2].crashed", .bool(true), "m.json: results[2].crashed should be false unless the outcome is killed"),
        ("results[0].name", .null, "m.json: missing field results[0].name"),
        ("seed", .string("-1"), "m.json: seed is \"-1\", outside its allowed range a decimal integer"),
        ("seed", .string("+1"), "m.json: seed is \"+1\", outside its allowed range a decimal integer"),
        ("seed", .integer(1), "m.json: seed should be a string, not a number"),
        ("seconds", .integer(100_000_000), "m.json: seconds is 100000000.0, outside its allowed range"),
        ("killed", .integer(3), "m.json: killed should be 2"),
        ("score", .integer(1), "m.json: score should be killed / scored = 0.5"),
        ("score", .integer(2), "m.json: score is 2.0, outside its allowed range 0 to 1"),
        ("schema", .string("difflab-mutation/2"), "m.json: unknown schema \"difflab-mutation/2\""),
        ("configuration", .string("fast"), "m.json: configuration should be \"release\" or \"debug\""),
    ])
    func theMutationFileDecoderRejectsBadFields(path: String, value: JSONValue, message: String) throws {
        var json = sampleFile().json
        set(&json, path, value)
        let error = failure { () throws(ResultsError) in try MutationFile(json: json, source: "m.json") }
        #expect(error?.hasPrefix(message) == true, "\(path): \(error ?? "accepted")")
    }

    /// Sets the member at `path` (`a.b`, `a[2].b`) of `json`; a path that names no object or array
    /// is an issue (the test would otherwise check an unchanged file).
    func set(_ json: inout JSONValue, _ path: String, _ value: JSONValue) {
        guard case .object(var object) = json else {
            Issue.record("\(path): not an object: \(json)")
            return
        }
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        var head = parts[0]
        if let open = head.firstIndex(of: "["), let index = Int(head[head.index(after: open)...].dropLast()) {
            head = String(head[..<open])
            guard case .array(var array) = object[head] ?? .null, array.indices.contains(index) else {
                Issue.record("\(path): \(head) has no element \(index)")
                return
            }
            if parts.count == 2 { set(&array[index], parts[1], value) } else { array[index] = value }
            object[head] = .array(array)
        } else if parts.count == 2 {
            var inner = object[head] ?? .null
            set(&inner, parts[1], value)
            object[head] = inner
        } else {
            object[head] = value
        }
        json = .object(object)
    }

    @Test(arguments: [
        ["mutate", "--seconds", "0"], ["mutate", "--seconds", "3601"], ["mutate", "--seconds", "nan"], ["mutate", "--seed", "-1"],
        ["mutate", "--jobs", "0"], ["mutate", "--jobs", "257"], ["mutate", "--quick", "--only", "heckel-lost-update-flag"],
        ["mutate", "--only", "no-such-mutant"], ["mutate", "--only", "a,,b"], ["mutate", "extra"], ["mutate", "--frobnicate"],
        ["mutate", "--seconds"], ["mutate", "--configuration", "fast"], ["mutate", "--configuration", ""],
    ])
    func flagErrorsExit64(arguments: [String]) {
        let r = runDev(arguments)
        #expect(r.status == 64, "\(arguments): \(r.err)")
        #expect(r.err.hasPrefix("difflab: "))
    }

    @Test func helpIsRegistered() {
        let r = runDev(["help", "mutate"])
        #expect(r.status == 0)
        #expect(r.out.contains("USAGE: difflab-dev mutate"))
        #expect(runDev(["--help"]).out.contains("mutate [options]"))
    }

    @Test func aBadCatalogueIsExit65AndAMissingOneExit66() {
        let files = Files(["catalogue.json": #"{"schema": "difflab-mutants/1", "mutants": [{"name": "x"}]}"#])
        let bad = runDev(["mutate", "--catalogue", files.directory])
        #expect(bad.status == 65)
        #expect(bad.err.contains("missing field mutants[0].patch"), "\(bad.err)")
        #expect(runDev(["mutate", "--catalogue", files.directory + "/none"]).status == 66)
    }
}

/// The message of the error `body` throws, or `nil`.
private func failure<T>(_ body: () throws(ResultsError) -> T) -> String? {
    do throws(ResultsError) {
        _ = try body()
        return nil
    } catch {
        return error.description
    }
}
