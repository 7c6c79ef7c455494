import DiffLabCore
import DiffLabJSON

/// `hashmap`'s diff phase by phase in one bench cell, on some number of threads: the median
/// seconds of each phase over ``calls`` timed diffs (`HashMapEngine.timedDiff`), an element of a
/// measurement's `phases` array in a `difflab-bench/1` file.
public struct BenchPhases: ResultsRecord, Equatable {

    /// The phases in the order they run: `trim`, `partition`, `join`, `verify`, `assemble`,
    /// `derive`, `batch` (`HashMapEngine.Phase`'s cases, which a test keeps equal).
    public static let phaseNames = ["trim", "partition", "join", "verify", "assemble", "derive", "batch"]

    /// Threads the engine used (1 to 64).
    public var threads: Int
    /// The move strategy the result was derived with: it decides what the `derive` phase does
    /// (``MoveStrategy/minimal`` finds a longest increasing run). Files written before the field
    /// existed measured ``MoveStrategy/offsets``, which is what an absent member reads as.
    public var moves: MoveStrategy
    /// Timed diffs the medians are taken over, in ``FieldRange/callsPerSample``.
    public var calls: Int
    /// The median seconds of each phase, in ``phaseNames`` order, each in ``FieldRange/seconds``.
    public private(set) var seconds: [Double]

    /// Phases measured on `threads` threads over `calls` diffs derived with `moves`.
    ///
    /// - Precondition: `seconds` has one value per phase name.
    public init(threads: Int, moves: MoveStrategy = .offsets, calls: Int, seconds: [Double]) {
        precondition(seconds.count == Self.phaseNames.count, "BenchPhases: one value per phase")
        self.threads = threads
        self.moves = moves
        self.calls = calls
        self.seconds = seconds
    }

    /// The median seconds of the phase named `name`, or `nil` for a name that is not a phase.
    public subscript(name: String) -> Double? { Self.phaseNames.firstIndex(of: name).map { seconds[$0] } }

    /// The sum of the phases' medians.
    public var total: Double { seconds.reduce(0, +) }

    @_spi(Records) public static let blank = BenchPhases(threads: 1, calls: 1, seconds: phaseNames.map { _ in 0 })

    /// The declaration table: `threads`, `moves` (absent for ``MoveStrategy/offsets``, so files
    /// written before the field existed read and write back the same), `calls`, then one member
    /// per phase.
    @_spi(Records) public static let fields: [RecordField<BenchPhases>] =
        [
            .required("threads", \.threads, .int(.threads), "threads the engine used"),
            .defaulted("moves", \.moves, .cases(), default: .offsets, "the move strategy the result was derived with"),
            .required("calls", \.calls, .int(.callsPerSample), "timed diffs the medians are taken over"),
        ] + phaseNames.indices.map { .required(phaseNames[$0], \.seconds[$0], .seconds, "the median seconds of this phase") }
}
