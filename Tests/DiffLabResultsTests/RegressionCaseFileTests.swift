import DiffLabJSON
import DiffLabResults
import Foundation
import Testing

/// The regression file is one record, written and read by the same code: every committed case
/// reads, and writes back every member it holds.
@Suite struct RegressionCaseFileTests {
    static let files: [String] =
        (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Corpus/regressions"))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    @Test func everyCommittedCaseReadsAndWritesBackWhatItHolds() throws {
        try #require(!Self.files.isEmpty, "no committed regression file was found: the check would compare nothing")
        for name in Self.files {
            let document = try committedJSON("Corpus/regressions/" + name)
            let file = try RegressionCaseFile(json: document)
            // Older cases leave out members that have defaults (`outsideContract`, `elements`):
            // every member the file has is written back with its value, and what is written
            // reads back to the same record.
            let written = try #require(file.json.objectValue)
            for (key, value) in try #require(document.objectValue) {
                #expect(written[key] == value, "\(name): \(key) is not written back as read")
            }
            #expect(try RegressionCaseFile(json: file.json) == file)
        }
    }

    @Test(arguments: [
        (#"{"signature":1}"#, #""signature" must be a string"#),
        (
            #"{"signature":"s","property":"p","subject":"x","corruptions":[[7]]}"#,
            #""corruptions"[0][0] (kind of corruption) must be an integer from 0 to 6, not 7"#
        ),
        (
            #"{"signature":"s","property":"p","subject":"x","corruptions":[[3]]}"#,
            #""corruptions"[0] of kind 3 must hold 2 integers [3, item], not 1"#
        ),
        (
            #"{"signature":"s","property":"p","subject":"x","corruptions":[],"old":[[1]]}"#,
            #""old"[0] must be an [id, content] or [id, content, form] array of integers"#
        ),
        (
            #"{"signature":"s","property":"p","subject":"x","corruptions":[],"old":[],"new":[[1,2,4]]}"#,
            #""new"[0][2] (form) must be an integer from 0 to 3, not 4"#
        ),
        (#"{"signature":"s","property":"p","subject":"x","corruptions":[],"old":[],"new":[],"profile":2}"#, #""profile" must be a string, not 2"#),
    ])
    func aDamagedFieldIsNamed(text: String, message: String) throws {
        let document = try JSONValue.parse(text)
        #expect(throws: RegressionFileError(message)) { try RegressionCaseFile(json: document) }
    }
}
