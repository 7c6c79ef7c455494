import DiffLabCore
import DiffLabEngines

/// The two lists of one benchmark input, in one of the element kinds the bench generates.
public enum BenchLists: Sendable {
    /// ``IntElement`` lists, compared by content.
    case ints([IntElement], [IntElement])
    /// ``ModelElement`` lists, compared by content.
    case models([ModelElement], [ModelElement])
    /// ``ObjectElement`` lists, compared by identity (IGListKit's pointer personality).
    case objects([ObjectElement], [ObjectElement])

    /// The lists of `dataset` as `kind`.
    ///
    /// - Complexity: O(size).
    public init(_ dataset: AbstractDataset, kind: ElementKind) {
        switch kind {
        case .int:
            let lists = dataset.ints()
            self = .ints(lists.old, lists.new)
        case .model:
            let lists = dataset.models()
            self = .models(lists.old, lists.new)
        case .object:
            let lists = dataset.objects()
            self = .objects(lists.old, lists.new)
        }
    }
}

/// What a subject reported about its output on one input, from one extra call (not timed).
public struct BenchCounts: Sendable, Hashable {
    /// Changes reported (for a pairing engine: with IGListKit's offsets moves).
    public var changeCount: Int
    /// Moves with ``MoveStrategy/offsets``; `nil` for a changeset engine, whose moves are its own.
    public var offsetsMoves: Int?
    /// Moves with ``MoveStrategy/minimal``; `nil` for a changeset engine.
    public var minimalMoves: Int?
    /// Moves handed to UIKit: those of the batch update the engine's answer is applied as. For a
    /// pairing engine, the moves of ``DiffResult/forBatchUpdates()`` of its offsets result (as
    /// IGListKit applies it); for a changeset engine, ``EngineChanges/batchMoveCount``: its moves
    /// summed over its stages when it has stages, else those of its own batch form when it has
    /// one, else those of DiffLab's batch form of its result.
    public var batchMoves: Int?

    /// Counts; see the properties.
    public init(changeCount: Int, offsetsMoves: Int? = nil, minimalMoves: Int? = nil, batchMoves: Int? = nil) {
        self.changeCount = changeCount
        self.offsetsMoves = offsetsMoves
        self.minimalMoves = minimalMoves
        self.batchMoves = batchMoves
    }
}

/// One subject's call prepared on one input: the lists are built before, outside any timing.
public struct BenchCall {
    /// Performs the call once. Returns the seconds the engine reported for it when the subject
    /// times itself (``BenchSubject/isSelfTimed``), `nil` otherwise.
    public let run: () throws(EngineFailure) -> Double?
    /// The change and move counts, from one extra call; `nil` when the subject is not an engine
    /// (the hash floor, the validator).
    public let counts: (() throws(EngineFailure) -> BenchCounts)?

    /// A call and its counts.
    @inlinable
    public init(run: @escaping () throws(EngineFailure) -> Double?, counts: (() throws(EngineFailure) -> BenchCounts)?) {
        self.run = run
        self.counts = counts
    }
}

/// An engine whose work runs in a process of its own, such as the command line's `ProcessEngine`
/// (`--engine-command`). The benchmark cannot see into that process with its own counters: for
/// such an engine it leaves out the figures it takes in its own process (allocations, page faults,
/// resident memory per call, CPU time) and reports the engine process's peak resident memory
/// instead (``SampledMeasurement/peakRSSBytes``).
public protocol OutOfProcessEngine: Sendable {
    /// The peak resident set size of the engine's process over its life so far (`VmHWM` in
    /// `/proc/PID/status`: from its start, or its last restart), in bytes; `nil` when no process
    /// runs or Linux does not say.
    func engineProcessPeakRSSBytes() -> Int?
}

/// Something the benchmark times on its generated inputs: an engine, built-in or third-party,
/// or the hash floor.
///
/// A subject is built from an engine with ``init(_:growthExponent:)`` (pairing level),
/// ``init(changes:selfTimed:growthExponent:)`` (result level) or ``init(staged:growthExponent:)``
/// (a pairing engine's staged changeset on one section). All are generic and `@inlinable`: the call
/// a subject prepares is specialized for the engine's concrete type and for each element kind
/// (no existential in the timed loop), so a built-in engine costs the same through a subject as
/// called directly.
public struct BenchSubject: Sendable {
    /// The name in results and cell names (`name:profile:kind:size`).
    public let name: String
    /// The exponent the per-call limit projects this subject's call time with (time ∝ size^e
    /// between sizes): 1.2 for the hashing engines, 2 for those quadratic on heavy edits, and 2
    /// for engines DiffLab does not know, to stay on the safe side.
    public let growthExponent: Double
    /// Whether the engine times itself (an engine in another process): its samples are the times
    /// it reported, and results mark them as self-timed.
    public let isSelfTimed: Bool
    /// Whether the subject is a diff engine (the hash floor is not).
    public let isEngine: Bool
    /// For an engine in a process of its own (``OutOfProcessEngine``), that process's peak resident
    /// memory so far; `nil` for a subject in this process.
    public let engineProcessPeakRSS: (@Sendable () -> Int?)?
    @usableFromInline let _prepare: @Sendable (BenchLists) -> BenchCall

    /// A subject from its parts; see the properties. `prepare` builds the call for one input.
    @inlinable
    public init(
        name: String, growthExponent: Double, isSelfTimed: Bool = false, isEngine: Bool = true,
        engineProcessPeakRSS: (@Sendable () -> Int?)? = nil, prepare: @escaping @Sendable (BenchLists) -> BenchCall
    ) {
        self.name = name
        self.growthExponent = growthExponent
        self.isSelfTimed = isSelfTimed
        self.isEngine = isEngine
        self.engineProcessPeakRSS = engineProcessPeakRSS
        self._prepare = prepare
    }

    /// The call on `lists`, ready to be timed.
    ///
    /// - Complexity: O(1); the lists are captured, not copied.
    public func prepare(_ lists: BenchLists) -> BenchCall { _prepare(lists) }
}

extension BenchSubject {
    /// A pairing-level engine: times ``DiffEngine/diff(from:to:comparison:moves:)`` with IGListKit's
    /// offsets moves; counts come from one matching under both move strategies.
    ///
    /// - Parameters:
    ///   - engine: the engine timed; the subject takes its name.
    ///   - growthExponent: see ``growthExponent`` (default 2).
    @inlinable
    public init<Engine: DiffEngine>(_ engine: Engine, growthExponent: Double = 2) {
        self.init(name: engine.name, growthExponent: growthExponent) { lists in
            switch lists {
            case .ints(let old, let new): BenchCall(pairing: engine, old, new, .equality)
            case .models(let old, let new): BenchCall(pairing: engine, old, new, .equality)
            case .objects(let old, let new): BenchCall(pairing: engine, old, new, .identity)
            }
        }
    }

    /// A result-level engine: times ``ChangesetEngine/changes(from:to:comparison:)``. When
    /// `selfTimed`, the samples are the engine's own ``EngineChanges/reportedSeconds``. An
    /// ``OutOfProcessEngine`` is measured as such (``engineProcessPeakRSS``).
    ///
    /// - Parameters:
    ///   - engine: the engine timed; the subject takes its name.
    ///   - selfTimed: whether the samples are the engine's own reported times (default `false`).
    ///   - growthExponent: see ``growthExponent`` (default 2).
    @inlinable
    public init<Engine: ChangesetEngine>(changes engine: Engine, selfTimed: Bool = false, growthExponent: Double = 2) {
        let outOfProcess = (engine as? any OutOfProcessEngine).map { process in { @Sendable in process.engineProcessPeakRSSBytes() } }
        self.init(name: engine.name, growthExponent: growthExponent, isSelfTimed: selfTimed, engineProcessPeakRSS: outOfProcess) { lists in
            switch lists {
            case .ints(let old, let new): BenchCall(changes: engine, old, new, .equality)
            case .models(let old, let new): BenchCall(changes: engine, old, new, .equality)
            case .objects(let old, let new): BenchCall(changes: engine, old, new, .identity)
            }
        }
    }

    /// The hash floor (`hashFloor(_:_:)`): the least work any hashing diff does.
    public static let hashFloor = floor(hashFloorName, _HashFloor())

    /// The partitioned floor (`partitionedFloor(_:_:)`): the least work a radix-partitioned
    /// hashing diff does.
    public static let partitionedFloor = floor(partitionedFloorName, _PartitionedFloor())

    /// The trim floor (`trimFloor(_:_:)`): the least work a diff that first sets aside the
    /// lists' common ends does.
    public static let trimFloor = floor(trimFloorName, _TrimFloor())

    /// A floor's subject: `floor` called on each element kind's lists, specialized for it.
    static func floor<Floor: _FloorFunction>(_ name: String, _ floor: Floor) -> BenchSubject {
        BenchSubject(name: name, growthExponent: 1.2, isEngine: false) { lists in
            switch lists {
            case .ints(let old, let new): BenchCall(floor, old, new)
            case .models(let old, let new): BenchCall(floor, old, new)
            case .objects(let old, let new): BenchCall(floor, old, new)
            }
        }
    }

    /// The floors every bench run measures in each cell: ``hashFloor``, ``partitionedFloor`` and
    /// ``trimFloor``.
    public static let floors: [BenchSubject] = [hashFloor, partitionedFloor, trimFloor]

    /// The copy floor (`copyFloor(_:_:)`): one copy of the old list into a new array, and its
    /// release: the staging's own linear pass where an item is reloaded (its reload stage's data
    /// is a copy of the list). Measured in each cell of a run that times a staged form
    /// (``BenchOptions/subjects``).
    public static let copyFloor = floor(copyFloorName, _CopyFloor())

    /// Every floor a cell can name: ``floors`` and ``copyFloor``.
    public static let namedFloors: [BenchSubject] = floors + [copyFloor]

    /// The `stdlib` reference every engine's speed-up is measured against.
    public static let stdlib = BenchSubject(StdlibEngine(), growthExponent: EngineGrowth.quadratic.exponent)

    /// The engines DiffLab ships and benchmarks, from the one table (``BuiltInEngines``), each with
    /// its growth class's exponent: `heckel`, `hashmap`, `hashmap-staged` (``init(staged:growthExponent:)``),
    /// `hashmap-parallel`, `myers`, `stdlib`.
    /// `hashmap-partitioned`, a fuzzing aid that partitions every list on purpose, is not
    /// ``BuiltInEngines/Uses/benchmarked``: it is benchmarked only when named.
    public static let builtIns: [BenchSubject] = {
        var visitor = _BenchSubjects()
        BuiltInEngines.visitAll(&visitor)
        return visitor.subjects
    }()
}

/// Builds ``BenchSubject/builtIns`` from the table, each subject specialized for its engine.
private struct _BenchSubjects: BuiltInEngineVisitor {
    var subjects: [BenchSubject] = []

    mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
        if uses.contains(.benchmarked) { subjects.append(BenchSubject(engine, growthExponent: growth.exponent)) }
        if uses.contains(.staged) { subjects.append(BenchSubject(staged: engine, growthExponent: growth.exponent)) }
    }
}

extension BenchCall {
    @inlinable
    init<Engine: DiffEngine, Element: Diffable>(
        pairing engine: Engine, _ old: [Element], _ new: [Element], _ comparison: ComparisonOption
    ) {
        self.init(
            run: {
                blackHole(engine.diff(from: old, to: new, comparison: comparison))
                return nil
            },
            counts: {
                let matching = engine.matching(from: old, to: new, comparison: comparison)
                let offsets = DiffResult(matching: matching, moves: .offsets)
                return BenchCounts(
                    changeCount: offsets.changeCount, offsetsMoves: offsets.moves.count,
                    minimalMoves: DiffResult(matching: matching, moves: .minimal).moves.count,
                    batchMoves: offsets.forBatchUpdates().moves.count)
            })
    }

    @inlinable
    init<Engine: ChangesetEngine, Element: Diffable>(
        changes engine: Engine, _ old: [Element], _ new: [Element], _ comparison: ComparisonOption
    ) {
        self.init(
            run: { () throws(EngineFailure) -> Double? in
                let answer = try engine.changes(from: old, to: new, comparison: comparison)
                let seconds = answer.reportedSeconds
                blackHole(answer)
                return seconds
            },
            counts: { () throws(EngineFailure) -> BenchCounts in
                let answer = try engine.changes(from: old, to: new, comparison: comparison)
                return BenchCounts(changeCount: answer.result.changeCount, batchMoves: answer.batchMoveCount)
            })
    }

    @inlinable
    init<Floor: _FloorFunction, Element: Diffable>(_ floor: Floor, _ old: [Element], _ new: [Element]) {
        self.init(
            run: {
                blackHole(floor(old, new))
                return nil
            }, counts: nil)
    }
}

/// A floor: a function generic over the element type (a protocol, since a closure cannot be).
@usableFromInline
protocol _FloorFunction: Sendable {
    /// The floor's work on two lists; returns its hits.
    func callAsFunction<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int
}

/// ``hashFloor(_:_:)``.
@usableFromInline
struct _HashFloor: _FloorFunction {
    @inlinable init() {}
    @inlinable func callAsFunction<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int { hashFloor(old, new) }
}

/// ``trimFloor(_:_:)``.
@usableFromInline
struct _TrimFloor: _FloorFunction {
    @inlinable init() {}
    @inlinable func callAsFunction<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int { trimFloor(old, new) }
}

/// ``copyFloor(_:_:)``.
@usableFromInline
struct _CopyFloor: _FloorFunction {
    @inlinable init() {}
    @inlinable func callAsFunction<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int { copyFloor(old, new) }
}

/// ``partitionedFloor(_:_:)``.
@usableFromInline
struct _PartitionedFloor: _FloorFunction {
    @inlinable init() {}
    @inlinable func callAsFunction<Element: Diffable>(_ old: [Element], _ new: [Element]) -> Int { partitionedFloor(old, new) }
}
