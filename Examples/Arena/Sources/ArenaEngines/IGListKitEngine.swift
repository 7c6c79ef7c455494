import DiffLab
import Foundation
import Synchronization

/// The real IGListKit (`IGListDiff` and `-[IGListIndexSetResult resultForBatchUpdates]`), built
/// on Linux by `Scripts/build-iglistkit` into an engine program that speaks `difflab-engine/1`,
/// run in a process of its own (DiffLab's ``ProcessEngine``).
///
/// The process starts at the first diff, not when the runner registers the engine: a run that
/// never asks IGListKit (the arena fuzzes each contestant in a run of its own) keeps DiffLab's
/// crash isolation by forking, which a started engine process rules out.
///
/// Its name and promises are the ones the engine program says in its `hello`
/// (`IGListKit/engine/main.mm` quotes IGListKit's documentation for each); the first start checks
/// that they still are, and fails every request otherwise.
public struct IGListKitEngine: ChangesetEngine, OutOfProcessEngine {
    /// The environment variable naming the engine program (made by `Scripts/build-iglistkit`).
    public static let environmentVariable = "DIFFLAB_ARENA_IGLISTKIT"

    /// The engine program's path.
    public let program: String
    /// `iglistkit-engine --version`: `IGListKit <version> (<commit>), mechanical Linux build on GNUstep`.
    public let label: String
    private let process = StartedProcess()

    /// The engine at `program`, labelled by its own `--version`.
    ///
    /// - Returns: `nil` when `--version` does not answer with a label.
    public init?(program: String) {
        guard let label = Self.version(of: program) else { return nil }
        self.program = program
        self.label = label
    }

    /// The engine named by ``environmentVariable``, if set and answering.
    public static func fromEnvironment() -> IGListKitEngine? {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
        return IGListKitEngine(program: path)
    }

    public var name: String { "iglistkit" }
    public var promises: EnginePromises { EnginePromises(supportsDuplicates: false, minimalMoves: false, reference: .heckel) }
    public var about: EngineAbout? {
        EngineAbout(
            library: "IGListKit", version: label, source: "https://github.com/Instagram/IGListKit",
            build:
                "Scripts/build-iglistkit: IGListKit's own IGListDiff.mm and IGListIndexSetResult, mechanically rewritten for GNUstep's gcc runtime, compiled with clang; driven over difflab-engine/1",
            adapter:
                "IGListDiff(old, new, IGListDiffEquality) as the flat result; -[IGListIndexSetResult resultForBatchUpdates] handed to one performBatchUpdates, as IGListKit's updater does",
            promiseSources: [
                "\"Returns a key that uniquely identifies the object.\" — Source/IGListDiffKit/IGListDiffable.h",
                "\"Returns a copy of the provided array, with all duplicates of objects with the same `diffIdentifier` value removed.\" — Source/IGListKit/Internal/IGListArrayUtilsInternal.h (the adapter removes duplicates before it diffs)",
                "\"`IGListKit` uses an algorithm adapted from a paper titled A technique for isolating differences between files by Paul Heckel.\" — Guides/Getting Started.md",
            ])
    }

    public func changes<Element: Diffable>(
        from old: [Element], to new: [Element], comparison: ComparisonOption
    ) throws(EngineFailure) -> EngineChanges<Element> {
        try started().changes(from: old, to: new, comparison: comparison)
    }

    /// The peak resident memory of the engine's process so far (what `difflab bench` reports for
    /// it), or `nil` before it started.
    public func engineProcessPeakRSSBytes() -> Int? {
        process.slot.withLock { $0 }?.engineProcessPeakRSSBytes()
    }

    /// The engine process, started (and its `hello` checked against ``name`` and ``promises``)
    /// on first use.
    private func started() throws(EngineFailure) -> ProcessEngine {
        let result: Result<ProcessEngine, EngineFailure> = process.slot.withLock { slot in
            if let engine = slot { return .success(engine) }
            do throws(EngineFailure) {
                let engine = try ProcessEngine(command: "'" + program.replacingOccurrences(of: "'", with: "'\\''") + "'")
                guard engine.name == name, engine.promises == promises else {
                    return .failure(
                        EngineFailure(
                            .badAnswer,
                            "\(program) says it is '\(engine.name)' promising \(engine.promises); the arena registered '\(name)' promising \(promises)"
                        ))
                }
                slot = engine
                return .success(engine)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The engine process once started, shared by every copy of the engine value.
    private final class StartedProcess: Sendable {
        let slot = Mutex<ProcessEngine?>(nil)
    }

    /// The program's `--version` line, or `nil`.
    private static func version(of program: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: data, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty || line.count > 200 ? nil : line
    }
}
