import DiffLabBatch
import DiffLabCore
import DiffLabJSON
import DiffLabPlatform
import Testing

@testable import DiffLabFuzz

/// The `.json` files of `Corpus/regressions`, parsed.
func regressionCorpus() throws -> [(name: String, json: JSONValue)] {
    let directory = repositoryRoot + "/Corpus/regressions"
    guard let entries = FileSystem.directoryEntries(directory) else { return [] }
    let names = entries.filter { $0.hasSuffix(".json") }
    return try names.sorted().map { name in
        (name, try parseJSON(try String(contentsOfFile: directory + "/" + name, encoding: .utf8)))
    }
}

/// Every copy of `value` with exactly one node replaced by a hostile value: numbers by out-of-range
/// integers, huge and fractional numbers and wrong types; strings and containers by wrong types.
func singleFieldMutations(of value: JSONValue, isRoot: Bool = true) -> [(path: String, value: JSONValue)] {
    var result: [(path: String, value: JSONValue)] = []
    switch value {
    case .integer, .double, .bigInteger:
        for replacement: JSONValue in [
            -1, .integer(1 << 62), .integer(Int.max), .integer(Int.min), .double(1e300), .double(-1e300), 0.5, "x", nil, [], [:],
            JSONValue(0x1p64),
        ] {
            result.append(("", replacement))
        }
    case .string, .bool, .null:
        for replacement: JSONValue in [7, .integer(Int.max), nil, [], "", "18446744073709551616", "-1"] { result.append(("", replacement)) }
    case .array(let elements):
        if !isRoot { for replacement: JSONValue in [7, "x", nil, [:]] { result.append(("", replacement)) } }
        for (i, element) in elements.enumerated() {
            for (path, mutated) in singleFieldMutations(of: element, isRoot: false) {
                var copy = elements
                copy[i] = mutated
                result.append(("[\(i)]" + path, .array(copy)))
            }
        }
    case .object(let object):
        if !isRoot { for replacement: JSONValue in [7, "x", nil, []] { result.append(("", replacement)) } }
        for key in object.keys {
            var removed = object
            removed[key] = nil
            result.append((".\(key) removed", .object(removed)))
            for (path, mutated) in singleFieldMutations(of: object[key]!, isRoot: false) {
                var copy = object
                copy[key] = mutated
                result.append((".\(key)" + path, .object(copy)))
            }
        }
    }
    return result
}

@Suite("Regression files on hostile input")
struct RegressionDecodingTests {
    /// Every single-field mutation of every corpus file either is rejected with an error naming a
    /// field, or decodes to a case that replays (with or without failures) — never a trap or a
    /// hang. Before the fix, a corruption index of -1 or a shift by Int.max trapped in replay.
    @Test func mutatedCorpusFilesNeverTrap() throws {
        let corpus = try regressionCorpus()
        #expect(corpus.count >= 10)
        var rejected = 0
        var replayed = 0
        var unknownEngines = 0
        for (name, json) in corpus {
            for (path, mutated) in singleFieldMutations(of: json) {
                do {
                    let regression = try RegressionCase(json: mutated)
                    do {
                        _ = try regression.replay(on: FuzzSubject.builtIns)
                        replayed += 1
                    } catch {
                        // A mutated "subject" names no engine: a typed error naming the field.
                        #expect(error.description.hasPrefix("\"subject\""), "\(name)\(path): \(error)")
                        unknownEngines += 1
                    }
                } catch {
                    #expect(error.description.contains("\""), "\(name)\(path): \(error)")
                    rejected += 1
                }
            }
        }
        #expect(rejected > 1000)
        #expect(replayed > 100)
        #expect(unknownEngines > 0)
    }

    static let valid =
        #"{"signature":"sanitizer/heckel/x","property":"sanitizer","subject":"heckel","message":"","profile":"mixed","old":[[0,0],[1,0]],"new":[[1,0]],"oldSections":[{"id":0,"items":[[0,0],[1,0]]}],"newSections":[{"id":0,"items":[[1,0]]}],"corruptions":[[1,1,0],[3,0]],"choices":["1"],"size":1,"seed":"7"}"#

    static func replacing(_ key: String, with value: JSONValue) throws -> JSONValue {
        var object = try #require(try parseJSON(valid).objectValue)
        object[key] = value
        return .object(object)
    }

    @Test(arguments: [
        ("corruptions", "[[0,0,-1]]", #""corruptions"[0][2] (index) must be an integer from 0 to 1000000, not -1"#),
        ("corruptions", "[[2,1,0,9223372036854775807]]", #""corruptions"[0][3] (delta) must be an integer from -1000000 to 1000000"#),
        ("corruptions", "[[6,0,-3]]", #""corruptions"[0][2] (section) must be an integer from 0 to 1000000, not -3"#),
        ("corruptions", "[[1,9,0]]", #""corruptions"[0][1] (list) must be an integer from 0 to 3, not 9"#),
        ("corruptions", "[[3,1e300]]", #""corruptions"[0][1] (item) must be an integer from 0 to 1000000, not 1e+300"#),
        ("corruptions", "[[7,1]]", #""corruptions"[0][0] (kind of corruption) must be an integer from 0 to 6, not 7"#),
        ("corruptions", "[[0,1]]", #""corruptions"[0] of kind 0 must hold 3 integers [0, list, index], not 2"#),
        ("corruptions", "[[]]", #""corruptions"[0] must be a non-empty array of integers"#),
        ("corruptions", #""x""#, #""corruptions" must be an array"#),
        ("size", "9223372036854775807", #""size" must be an integer from 0 to 10000"#),
        ("seed", #""-1""#, #""seed" must be a string holding an integer from 0 to 18446744073709551615"#),
        ("choices", #"["1",2]"#, #""choices"[1] must be a string holding an integer"#),
        ("profile", #""wild""#, #""profile" must be one of: mixed"#),
        ("elements", #""pointers""#, #""elements" must be one of: integers, colliding-hashes"#),
        ("elements", "3", #""elements" must be a string, not 3"#),
        ("old", "[[0,0,4]]", #""old"[0][2] (form) must be an integer from 0 to 3, not 4"#),
        ("old", "[[0,0,1,2]]", #""old"[0] must be an [id, content] or [id, content, form] array of integers"#),
        ("old", "[[0,0.5]]", #""old"[0][1] (content) must be an integer, not 0.5"#),
        ("newSections", #"[{"id":"A","items":[]}]"#, #""newSections"[0].id must be an integer, not "A""#),
    ])
    func damagedFieldIsNamed(key: String, text: String, message: String) throws {
        let value = try parseJSON(text)
        let json = try Self.replacing(key, with: value)
        do {
            _ = try RegressionCase(json: json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func oversizedListsAndCorruptionListsAreRejected() throws {
        let items = JSONValue.array((0...RegressionCase.maxItems).map { [.integer($0), 0] })
        #expect(throws: RegressionFormatError.self) { try RegressionCase(json: try Self.replacing("old", with: items)) }
        let corruptions = JSONValue.array((0...RegressionCase.maxCorruptions).map { _ in [3, 0] })
        #expect(throws: RegressionFormatError.self) { try RegressionCase(json: try Self.replacing("corruptions", with: corruptions)) }
        // At the limits themselves the case reads.
        let most = JSONValue.array((0..<RegressionCase.maxCorruptions).map { _ in [3, 0] })
        #expect(try RegressionCase(json: try Self.replacing("corruptions", with: most)).input.corruptions.count == 1_000)
    }

    @Test func validCaseRoundTrips() throws {
        let regression = try RegressionCase(json: try parseJSON(Self.valid))
        #expect(regression.input.corruptions == [.drop(list: 1, index: 0), .reload(item: 0)])
        #expect(try RegressionCase(json: regression.json) == regression)
    }

    /// `corrupt` is total: negative indices, shifts by Int.max and negative section inserts, which
    /// trapped (a negative remainder as an index, an overflowing add, a negative insert position).
    @Test func corruptIsTotal() {
        let clean = BatchUpdate(
            itemCountsBefore: [3], itemCountsAfter: [3], insertItems: [p(0, 1)], deleteItems: [p(0, 2)],
            moveItems: [IndexPathMove(from: p(0, 0), to: p(0, 2))])
        let hostile: [Corruption] = [
            .duplicate(list: 0, index: -1), .duplicate(list: 3, index: Int.min), .drop(list: -5, index: -7),
            .shift(list: 1, index: Int.min, delta: Int.max), .shift(list: 3, index: -1, delta: Int.max),
            .shift(list: 0, index: 0, delta: Int.min), .shift(list: 0, index: 0, delta: Int.min),
            .section(kind: 0, section: -4), .section(kind: 1, section: Int.min), .section(kind: 3, section: Int.max),
            .reload(item: Int.max), .insert(item: Int.min),
        ]
        let corrupted = corrupt(clean, with: hostile)
        #expect(corrupted.insertSections == [-4])
        #expect(corrupted.itemCountsAfter == [0, 3])
        #expect(corrupted.moveItems.last?.to.item == Int.max)
        #expect(corrupted.insertItems.first?.item == Int.min)
        // The sanitizer copes with the result too.
        _ = corrupted.sanitized()
    }
}

private func p(_ section: Int, _ item: Int) -> ItemIndexPath { ItemIndexPath(section: section, item: item) }
