import ArenaEngines
import DiffLab
import Foundation
import Testing

/// The counterexamples the arena found in the libraries (`Examples/Arena/Regressions/<engine>/`,
/// copied there by `Scripts/arena` from the run's corpus), replayed on the libraries as pinned.
///
/// Each case is a bug of the library at its pinned release, so the replay must still fail with the
/// same signature: a library release that fixes one makes its test fail, and the case (and the
/// bug report) then goes. IGListKit's cases need its engine program (`Scripts/build-iglistkit`):
/// they run when `DIFFLAB_ARENA_IGLISTKIT` names it, and are reported as skipped otherwise.
@Suite("Arena regressions")
struct RegressionTests {
    /// The regression folder beside this package's sources.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Regressions")

    /// Every saved case of an in-process contestant, as `engine/file`.
    static var cases: [String] { cases(of: Set(ArenaContestants.names)) }

    /// Every saved case of the real IGListKit, as `iglistkit/file`.
    static var igListKitCases: [String] { cases(of: ["iglistkit"]) }

    /// The cases saved for the engines `names`.
    static func cases(of names: Set<String>) -> [String] {
        let engines = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return engines.filter(names.contains).sorted().flatMap { engine in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(engine).path)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted().map { "\(engine)/\($0)" }
        }
    }

    @Test func thereAreCasesToReplay() {
        #expect(!Self.cases.isEmpty, "no regression case under \(Self.folder.path)")
    }

    @Test(arguments: cases)
    func theLibraryStillFailsTheSameWay(_ name: String) throws {
        try replay(name, on: ArenaContestants.inProcess.map(\.fuzz))
    }

    @Test(
        .enabled(if: IGListKitEngine.fromEnvironment() != nil, "needs DIFFLAB_ARENA_IGLISTKIT (Scripts/build-iglistkit)"), arguments: igListKitCases)
    func igListKitStillFailsTheSameWay(_ name: String) throws {
        let engine = try #require(IGListKitEngine.fromEnvironment())
        try replay(name, on: [FuzzSubject(engine)])
    }

    @Test func igListKitHasCases() {
        #expect(!Self.igListKitCases.isEmpty)
    }

    func replay(_ name: String, on subjects: [FuzzSubject]) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let regression = try RegressionCase(json: try JSONValue.parse(bytes: Array(data)))
        let failures = try regression.replay(on: subjects)
        #expect(
            failures.contains { $0.signature == regression.signature },
            "\(name): \(regression.signature) no longer reproduces (got \(failures.map(\.signature)))")
    }
}
