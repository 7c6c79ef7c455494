import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Foundation
import Testing

/// Every committed gate report, stored baseline, mutation results file and mutant catalogue
/// decodes with its record and re-encodes to the same JSON value, members in the same order (issue 44: the declaration
/// tables write what the hand-written writers wrote).
@Suite struct GateMutationFilesRoundTripTests {
    /// The committed JSON files under `results/` and `Corpus/` whose `schema` is `schema`.
    static func committed(_ schema: String) -> [String] {
        var paths: [String] = []
        for folder in ["results", "Corpus"] {
            let root = packageRoot + "/" + folder
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".json") {
                // The schema is the first member: big files of other schemas are not parsed.
                guard let text = readText(root + "/" + relative), text.prefix(300).contains("\"" + schema + "\""),
                    let document = try? JSONValue.parse(text)
                else { continue }
                if document["schema"]?.stringValue == schema { paths.append(folder + "/" + relative) }
            }
        }
        return paths.sorted()
    }

    @Test(arguments: [
        (GateReportFile.schema, 4), (StoredBaseline.schema, 1), (MutationFile.schema, 15), (MutantCatalogue.schema, 1),
    ])
    func everyCommittedFileReadsAndWritesBackWhatItHolds(schema: String, count: Int) throws {
        let paths = Self.committed(schema)
        #expect(paths.count == count, "\(schema): \(paths)")
        for path in paths {
            let document = try committedJSON(path)
            let written: JSONValue =
                switch schema {
                case GateReportFile.schema: try GateReportFile(json: document, source: path).json
                case StoredBaseline.schema: try StoredBaseline(json: document, source: path).json
                case MutationFile.schema: try MutationFile(json: document, source: path).json
                default: try MutantCatalogue(json: document, source: path).json
                }
            #expect(written == document, "\(path) does not write back what it holds")
            // Member order too: the table's order is the old writer's.
            #expect(written.serialized() == document.serialized(), "\(path) writes its members in another order")
        }
    }
}
