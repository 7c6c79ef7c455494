import DiffLabBatch
import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabJSON
import DiffLabResults
import DiffLabUpdaters

/// One engine the command line can select by name, adapted once to every layer that uses it.
///
/// Built from a pairing-level ``DiffEngine`` or a result-level ``ChangesetEngine``. The
/// initialisers are generic and `@inlinable`, so each layer's subject (the fuzzer's, the
/// benchmark's, the policy lab's and the commands' own) calls the engine's concrete type,
/// specialized for that layer's element type: an engine registered here runs as fast as one
/// called directly. The built-in engines are registered the same way (``EngineRegistry/builtIns``).
public struct RegisteredEngine: Sendable {
    /// Whether DiffLab sees the engine's pairing or only its results.
    public enum Level: String, Sendable, Hashable {
        /// A ``DiffEngine``: DiffLab derives results from its pairing under either
        /// ``MoveStrategy`` and checks the pairing itself too.
        case pairing
        /// A ``ChangesetEngine``: DiffLab checks what it answers.
        case changeset
    }

    /// The name on the command line, in results and in cell names.
    public let name: String
    /// What the engine promises.
    public let promises: EnginePromises
    /// Pairing or result level.
    public let level: Level
    /// Where the engine comes from (``ChangesetEngine/about``); `nil` for a pairing engine and an
    /// adapter that says nothing.
    public let about: EngineAbout?
    /// The fuzzer's subject.
    public let fuzz: FuzzSubject
    /// The benchmark's subject.
    public let bench: BenchSubject
    /// The benchmark's subject for the engine's staged form, `<name>-staged`
    /// (``BenchSubject/init(staged:growthExponent:)``); `nil` for a changeset engine, whose
    /// pairing DiffLab cannot see.
    public let stagedBench: BenchSubject?
    /// The policy lab's engine.
    public let policy: PolicyEngine
    @usableFromInline let _diff: @Sendable ([JSONElement], [JSONElement], MoveStrategy, Bool) throws(CommandError) -> DiffResult
    @usableFromInline var _stages: (@Sendable (JSONSections, JSONSections) throws(CommandError) -> StagedChangeset<JSONValue, JSONElement>)?

    /// A pairing-level engine.
    ///
    /// - Parameters:
    ///   - engine: the engine registered; it keeps its name and promises.
    ///   - growthExponent: how the benchmark projects its call time between sizes
    ///     (``BenchSubject/growthExponent``); 2 unless the engine is known to be near-linear.
    @inlinable
    public init<Engine: DiffEngine>(_ engine: Engine, growthExponent: Double = 2) {
        name = engine.name
        promises = engine.promises
        level = .pairing
        about = nil
        fuzz = FuzzSubject(engine)
        bench = BenchSubject(engine, growthExponent: growthExponent)
        stagedBench = BenchSubject(staged: engine, growthExponent: growthExponent)
        policy = PolicyEngine(engine)
        _diff = { old, new, moves, batch in
            let result = engine.diff(from: old, to: new, moves: moves)
            return batch ? result.forBatchUpdates() : result
        }
        _stages = { old, new in StagedChangeset(from: old, to: new, engine: engine) }
    }

    /// A result-level engine.
    ///
    /// - Parameters:
    ///   - engine: the engine registered; it keeps its name, promises and `about`.
    ///   - selfTimed: whether the engine reports its own time per call (``EngineChanges/reportedSeconds``),
    ///     which the benchmark then uses and marks as self-timed.
    ///   - growthExponent: as for a pairing engine.
    @inlinable
    public init<Engine: ChangesetEngine>(_ engine: Engine, selfTimed: Bool = false, growthExponent: Double = 2) {
        self.init(changes: engine, fuzz: FuzzSubject(engine), selfTimed: selfTimed, growthExponent: growthExponent)
        _stages = nil
    }

    /// A result-level engine that also stages sectioned lists: as a ``ChangesetEngine``, and its
    /// own staged changesets are fuzzed on sectioned input and answer `difflab stages`.
    @inlinable
    public init<Engine: SectionedChangesetEngine>(_ engine: Engine, selfTimed: Bool = false, growthExponent: Double = 2) {
        self.init(changes: engine, fuzz: FuzzSubject(engine), selfTimed: selfTimed, growthExponent: growthExponent)
        _stages = { old, new throws(CommandError) in
            do throws(EngineFailure) { return try engine.stagedChanges(from: old, to: new, comparison: .equality) } catch {
                throw CommandError(.failure, "engine '\(engine.name)' failed: \(error)")
            }
        }
    }

    /// The parts every result-level engine shares; `_stages` is left for the caller.
    @inlinable
    init<Engine: ChangesetEngine>(changes engine: Engine, fuzz: FuzzSubject, selfTimed: Bool, growthExponent: Double) {
        name = engine.name
        promises = engine.promises
        level = .changeset
        about = engine.about
        self.fuzz = fuzz
        bench = BenchSubject(changes: engine, selfTimed: selfTimed, growthExponent: growthExponent)
        stagedBench = nil
        policy = PolicyEngine(changes: engine)
        _diff = { old, new, _, batch throws(CommandError) in
            let answer: EngineChanges<JSONElement>
            do throws(EngineFailure) { answer = try engine.changes(from: old, to: new, comparison: .equality) } catch {
                throw CommandError(.failure, "engine '\(engine.name)' failed: \(error)")
            }
            do throws(DiffResultError) {
                return batch
                    ? try answer.checkedBatch(oldCount: old.count, newCount: new.count)
                    : try answer.checkedResult(oldCount: old.count, newCount: new.count)
            } catch {
                throw CommandError(.failure, "engine '\(engine.name)' answered an inconsistent result: \(error)")
            }
        }
    }

    /// The engine's result for two lists from the command line (`difflab diff`): with `batch`,
    /// the batch form. `moves` applies to pairing engines; a changeset engine chooses its own.
    ///
    /// - Throws: ``CommandError`` (exit 1) when the engine fails or answers an inconsistent result.
    func diff(_ old: [JSONElement], _ new: [JSONElement], moves: MoveStrategy, batch: Bool) throws(CommandError) -> DiffResult {
        try _diff(old, new, moves, batch)
    }

    /// The staged changeset of two sectioned lists from the command line (`difflab stages`).
    /// Staging pairs sections and items across sections, so it needs the engine's pairing.
    ///
    /// - Throws: a usage error for a changeset engine.
    func stages(_ old: JSONSections, _ new: JSONSections) throws(CommandError) -> StagedChangeset<JSONValue, JSONElement> {
        guard let stages = _stages else {
            throw .usage(
                "stages pairs sections and items across sections, so it needs an engine that exposes its pairing (a DiffEngine) or stages sectioned lists itself (a SectionedChangesetEngine); '\(name)' reports flat results only"
            )
        }
        return try stages(old, new)
    }
}

/// A sectioned list from the command line: JSON section identifiers, JSON elements.

/// The engines one `difflab` program can select by name: the built-ins, then the program's own.
///
/// There is one registry per run (`current`, task-local); every command resolves engine names through it,
/// so an engine registered by ``DiffLabRunner/main(engines:updaters:)`` or given with `--engine-command`
/// is selectable everywhere a built-in is.
public struct EngineRegistry: Sendable {
    /// The engines, built-ins first, in registration order.
    public let engines: [RegisteredEngine]
    /// The updaters `difflab updaters` can check: ``BuiltInUpdaters``, then the
    /// program's own (``DiffLabRunner/main(engines:updaters:)``), in registration order.
    public let updaters: [UpdaterSubject]

    /// A registry of `engines`.
    ///
    /// - Throws: ``CommandError`` (usage) when a name is repeated, is reserved (`hash-floor`, `partitioned-floor`,
    ///   `trim-floor`, `copy-floor`, `validate`, or ends with `-staged`), or is not 1–64 characters of lower-case ASCII letters, digits, `-`, `_`
    ///   and `.` starting with a letter or digit (names appear in cell names, file names and
    ///   reports).
    ///
    /// `updaters` (by default the built-in ones) follow the same naming rule, and must be distinct
    /// too.
    public init(_ engines: [RegisteredEngine], updaters: [UpdaterSubject] = BuiltInUpdaters.all) throws(CommandError) {
        var seen = Set<String>()
        for engine in engines {
            try Self.checkName(engine.name)
            guard seen.insert(engine.name).inserted else {
                throw .usage("two engines are named '\(engine.name)'; engine names must be distinct")
            }
        }
        var updaterNames = Set<String>()
        for updater in updaters {
            guard Self.isValidName(updater.name) else {
                throw .usage(
                    "updater name '\(updater.name)' must be 1 to 64 characters: lower-case letters, digits, '-', '_' and '.', starting with a letter or digit"
                )
            }
            guard updaterNames.insert(updater.name).inserted else {
                throw .usage("two updaters are named '\(updater.name)'; updater names must be distinct")
            }
        }
        self.engines = engines
        self.updaters = updaters
    }

    /// The updater named `name`, or `nil`.
    ///
    /// - Complexity: O(updaters).
    public func updater(named name: String) -> UpdaterSubject? { updaters.first { $0.name == name } }

    /// Whether `name` can name an engine: 1 to 64 lower-case ASCII letters, digits, `-`, `_` and
    /// `.`, starting with a letter or digit (names appear in cell names, file names and reports).
    public static func isValidName(_ name: String) -> Bool { isEngineSlug(name) }

    /// Checks an engine name; see ``init(_:)``.
    static func checkName(_ name: String) throws(CommandError) {
        guard isValidName(name) else {
            throw .usage(
                "engine name '\(name)' must be 1 to 64 characters: lower-case letters, digits, '-', '_' and '.', starting with a letter or digit")
        }
        guard !BenchSubject.namedFloors.contains(where: { $0.name == name }), name != validateSubjectName else {
            throw .usage("engine name '\(name)' is reserved for a benchmark subject")
        }
        guard !name.hasSuffix(BuiltInEngines.Name.stagedSuffix) else {
            throw .usage(
                "engine name '\(name)' ends with '\(BuiltInEngines.Name.stagedSuffix)', which names an engine's staged form in the benchmark")
        }
    }

    /// The engines DiffLab ships, every row of the one table (``BuiltInEngines``) with its growth
    /// class: `heckel`, `hashmap`, `hashmap-parallel` (on every core), `hashmap-partitioned`
    /// (partitioned at every size, for fuzzing), `hashmap-untrimmed` (without the common-ends
    /// fast path, for measuring it), `hashmap-reused` (through one reused workspace, for fuzzing),
    /// `myers`, `stdlib`.
    public static let builtInEngines: [RegisteredEngine] = {
        var visitor = _RegisteredBuiltIns()
        BuiltInEngines.visitAll(&visitor)
        return visitor.engines
    }()

    /// A registry of the built-in engines only.
    public static let builtIns: EngineRegistry = {
        do throws(CommandError) { return try EngineRegistry(builtInEngines) } catch {
            preconditionFailure("the built-in engines' names are valid and distinct: \(error)")
        }
    }()

    /// The registry of the running command (``builtIns`` unless a runner registered more).
    @TaskLocal static var current: EngineRegistry = builtIns

    /// The engines' names, comma-separated, for help and messages.
    public var names: String { engines.map(\.name).joined(separator: ", ") }

    /// The engine named `name`.
    ///
    /// - Throws: a usage error listing the engines.
    public func engine(named name: String) throws(CommandError) -> RegisteredEngine {
        guard let engine = engines.first(where: { $0.name == name }) else {
            throw .usage("unknown engine '\(name)' (expected one of: \(names))")
        }
        return engine
    }

    /// The benchmark subjects of all engines: each engine's, then its staged form's when it has
    /// one (a pairing engine), in registration order.
    var benchSubjects: [BenchSubject] { engines.flatMap { [$0.bench] + ($0.stagedBench.map { [$0] } ?? []) } }

    /// The benchmark subject named `name`: an engine's, or a pairing engine's staged form
    /// (`<engine>-staged`).
    ///
    /// - Throws: a usage error listing the subjects.
    /// - Complexity: O(engines).
    func benchSubject(named name: String) throws(CommandError) -> BenchSubject {
        let subjects = benchSubjects
        guard let subject = subjects.first(where: { $0.name == name }) else {
            throw .usage("unknown engine '\(name)' (expected one of: \(subjects.map(\.name).joined(separator: ", ")))")
        }
        return subject
    }
}

/// Builds ``EngineRegistry/builtInEngines`` from the table, each engine adapted by its concrete type.
private struct _RegisteredBuiltIns: BuiltInEngineVisitor {
    var engines: [RegisteredEngine] = []

    mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
        engines.append(RegisteredEngine(engine, growthExponent: growth.exponent))
    }
}
