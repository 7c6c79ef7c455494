import DiffLabCore
import DiffLabFuzz
import DiffLabJSON
import Foundation
import Testing

/// The counterexamples the arena found in other libraries (`Examples/Arena/Regressions/<engine>/`,
/// kept as published findings: the libraries themselves are not built here any more).
///
/// Each is a shrunk input on which a library broke a promise DiffLab checks. Replayed on DiffLab's
/// own engines, every property must hold: what broke there is handled here. `difflab replay FILE`
/// with the library behind `--engine-command` replays a case on the library itself.
@Suite("Arena regressions, on DiffLab's engines")
struct ArenaRegressionTests {
    static let folder = repositoryRoot + "/Examples/Arena/Regressions"

    /// Every saved case, as `engine/file`.
    static let cases: [String] = {
        let engines = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return engines.sorted().flatMap { engine in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + engine)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted().map { "\(engine)/\($0)" }
        }
    }()

    @Test func theLibrariesFindingsAreKept() {
        // IGListKit's and ListDiff's four each, Differentiator's crash on a repeated section.
        #expect(Self.cases.count == 9, "\(Self.cases)")
        #expect(Set(Self.cases.map { $0.split(separator: "/")[0] }) == ["differentiator", "iglistkit", "listdiff"])
    }

    @Test(arguments: cases)
    func diffLabsEnginesHoldOnTheCase(_ name: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
        let regression = try RegressionCase(json: try JSONValue.parse(bytes: Array(data)))
        #expect(name.hasPrefix(regression.subject + "/"), "the case is filed under its engine")
        #expect(throws: UnknownEngineError.self, "the library is not an engine here") {
            _ = try regression.replay(on: FuzzSubject.builtIns)
        }
        for subject in FuzzSubject.builtIns {
            let failure = regression.property.check(regression.input, subject)
            #expect(failure == nil, "\(name) on \(subject.name): \(String(describing: failure))")
        }
        #expect(try RegressionCase(json: regression.json) == regression)
    }
}
