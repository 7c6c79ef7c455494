import DiffLabCore
import DiffLabEngines
import DiffLabFormatting

/// The one bound on a call of an edit-distance engine, checked before the call is made.
///
/// An edit-distance engine (a Myers search, like `myers` and `stdlib`, and any engine whose
/// ``BenchSubject/growthExponent`` is 2 or more) takes O((n + m) · D) steps on lists of n and m
/// items with an edit distance D; `stdlib` also keeps O(D²) of search trace. One such call on a
/// recorded pair can run for minutes (a 200,000-item reversed pair took 261 s), and a projection
/// from smaller probes cannot see it coming: a pair's edit distance is not a prefix's. So before
/// the call, D is bounded from above by a linear diff of the pair (`hashmap`'s inserts, deletes
/// and twice its moves, an insert/delete script), and a call whose `(n + m) · (D + 1)` passes
/// ``maxCallWork`` is not made. `difflab policy --trace` and `difflab bench --trace` both use it.
public struct EditDistanceGuard: Sendable, Hashable {
    /// The most steps one call may take: ``defaultMaxCallWork`` unless set.
    public var maxCallWork: Double

    /// The default bound: 250,000,000 steps (under a second of a Myers search here; for `stdlib`
    /// an edit distance of at most about 16,000, so its search trace stays near a gigabyte).
    public static let defaultMaxCallWork = 250_000_000.0

    /// A guard refusing calls over `maxCallWork` steps.
    public init(maxCallWork: Double = Self.defaultMaxCallWork) { self.maxCallWork = maxCallWork }

    /// Whether `subject` is bounded by the guard: its projection exponent is 2 or more (an
    /// edit-distance engine, or one DiffLab does not know).
    ///
    /// - Complexity: O(1).
    public static func bounds(_ subject: BenchSubject) -> Bool { subject.growthExponent >= 2 }

    /// An upper bound of the edit distance of `dataset`'s lists: a linear diff's inserts, deletes
    /// and twice its moves.
    ///
    /// - Complexity: O(n + m), one `hashmap` diff.
    public static func distanceBound(_ dataset: AbstractDataset) -> Int {
        let lists = dataset.ints()
        let linear = HashMapEngine().diff(from: lists.old, to: lists.new, moves: .offsets)
        return linear.inserts.count + linear.deletes.count + 2 * linear.moves.count
    }

    /// The steps a call on lists of `items` items in all with an edit distance of at most
    /// `distance` may take: `items · (distance + 1)`, in floating point (no overflow).
    ///
    /// - Complexity: O(1).
    public static func callWork(items: Int, distance: Int) -> Double { Double(items) * (Double(distance) + 1) }

    /// Whether a call of `callWork` steps is over the bound.
    ///
    /// - Complexity: O(1).
    public func refuses(_ callWork: Double) -> Bool { !(callWork <= maxCallWork) }

    /// The reason a call of `work` steps is refused, in words.
    ///
    /// - Complexity: O(1).
    public func reason(work: Double) -> String {
        "could take about \(formatPlain(work.rounded())) steps (lists × edit distance); at most \(formatPlain(maxCallWork)) per call"
    }
}
