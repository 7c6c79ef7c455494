import DiffLabJSON
import DiffLabResults
import Foundation
import Testing

/// The regression file is one record, written and read by the same code: every committed case
/// reads and is written back as the same JSON value.
@Suite struct RegressionCaseFileTests {
    static let files: [String] =
        (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Corpus/regressions"))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    @Test func everyCommittedCaseReadsAndWritesBackWhatItHolds() throws {
        try #require(!Self.files.isEmpty, "no committed regression file was found: the check would compare nothing")
        for name in Self.files {
            let document = try committedJSON("Corpus/regressions/" + name)
            let file = try RegressionCaseFile(json: document)
            // Members at their defaults (`outsideContract` false, `elements` unknown) are left out,
            // as in every committed case: the file is written back as the same JSON value.
            #expect(file.json == document, "\(name) is not written back as read")
            #expect(try RegressionCaseFile(json: file.json) == file)
        }
    }

    @Test func outsideContractIsWrittenOnlyWhenTrue() throws {
        let document = try committedJSON("Corpus/regressions/" + (try #require(Self.files.first)))
        var file = try RegressionCaseFile(json: document)
        #expect(file.json["outsideContract"] == nil)
        file.outsideContract = true
        #expect(file.json["outsideContract"] == .bool(true))
        #expect(try RegressionCaseFile(json: file.json) == file)
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
