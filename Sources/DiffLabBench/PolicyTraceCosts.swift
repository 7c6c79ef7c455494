import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabResults

/// Why a trace-driven policy run stopped: an engine gave no usable answer on a pair of the
/// trace's versions, or measuring the pairs the simulation needed passed the work limit.
public enum PolicyTraceFailure: Error, Sendable, CustomStringConvertible {
    /// The engine failed diffing version `from` into `to`.
    case engine(EngineFailure, engine: String, from: Int, to: Int)
    /// Measuring would have handled more than `limit` items (list items over every diff).
    case workLimit(Double)
    /// One call of `engine` (an edit-distance engine) on versions `from` → `to` could take about
    /// `work` steps, more than `limit`.
    case callLimit(engine: String, from: Int, to: Int, work: Double, limit: Double)

    /// The failure in words.
    public var description: String {
        switch self {
        case .engine(let failure, let engine, let from, let to): "engine '\(engine)' failed on versions \(from) → \(to): \(failure)"
        case .workLimit(let limit): "measuring the trace's pairs would handle more than \(formatPlain(limit)) items"
        case .callLimit(let engine, let from, let to, let work, let limit):
            "engine '\(engine)' could take about \(formatPlain(work.rounded())) steps on versions \(from) → \(to) "
                + "(lists × edit distance); at most \(formatPlain(limit)) per call"
        }
    }
}

/// The measured diff costs of pairs of a trace's versions, measured when first needed and kept,
/// by (from, to, move strategy, engine): what a trace-driven simulation's diffs cost.
///
/// Measuring a pair diffs its two versions (every section's items in order, as ``IntElement``s:
/// the identifier's index as the id, the content's as the revision) once to count its changes
/// and batch changes (and warm up), then, per round, ``samples`` times, the round's cost being the
/// median of those calls.
///
/// Work, in items: a call of a linear engine handles both lists (n + m). A call of an
/// edit-distance engine (``editDistanceEngines``: a Myers search, O((n + m) · D) for an edit
/// distance D, like `myers` and `stdlib`, whose search trace also takes O(D²) memory) counts
/// (n + m) · (D + 1), D bounded from above by a linear diff (`hashmap`'s inserts, deletes and
/// twice its moves, which is an insert/delete script), itself counted as n + m; such a call is not
/// made when that exceeds ``maxCallWork``. Measuring stops, with ``failure`` set, before a call
/// over that limit, before the total would pass ``maxWork``, and after an engine's first failure.
/// Once failed, every cost is zero: the caller checks ``failure`` after each simulation.
///
/// A class: the simulation's two cost functions share one cache.
final class PolicyTraceCosts {
    struct Key: Hashable {
        var from: Int
        var to: Int
        var moves: MoveStrategy
        var engine: String
    }

    struct Entry {
        var changes: Int
        var batchChanges: Int
        /// Per round.
        var seconds: [Double]
    }

    let trace: Trace
    let rounds: Int
    let samples: Int
    let maxWork: Double
    let editDistanceEngines: Set<String>
    let maxCallWork: Double
    /// Upper bounds of the edit distance of pairs (for edit-distance engines).
    private var distances: [Pair: Int] = [:]

    struct Pair: Hashable {
        var from: Int
        var to: Int
    }
    /// Items handled so far (list items over every diff).
    private(set) var work = 0.0
    private(set) var failure: PolicyTraceFailure?
    /// The pairs measured, in order of measuring.
    private(set) var order: [Key] = []
    private(set) var entries: [Key: Entry] = [:]

    /// A cache measuring on `trace`: `rounds` rounds of `samples` calls per pair, at most
    /// `maxWork` items handled in all, at most `maxCallWork` steps per call of the
    /// `editDistanceEngines`.
    init(trace: Trace, rounds: Int, samples: Int, maxWork: Double, editDistanceEngines: Set<String> = [], maxCallWork: Double = .infinity) {
        precondition(rounds >= 1 && samples >= 1, "PolicyTraceCosts: at least one round and one sample")
        (self.trace, self.rounds, self.samples, self.maxWork) = (trace, rounds, samples, maxWork)
        (self.editDistanceEngines, self.maxCallWork) = (editDistanceEngines, maxCallWork)
    }

    /// The work of measuring `from` → `to` with `engine`: per call, and for the whole pair (every
    /// call, and bounding the edit distance if that is still to do).
    ///
    /// - Complexity: O(1), or a linear diff of the pair the first time an edit-distance engine asks.
    func measuringWork(from: Int, to: Int, engine: String) -> (call: Double, pair: Double) {
        let items = Double(trace.versions[from].items.count + trace.versions[to].items.count)
        guard editDistanceEngines.contains(engine) else { return (items, items * Double(1 + rounds * samples)) }
        let pair = Pair(from: from, to: to)
        let bounding = distances[pair] == nil ? items : 0
        let distance = distances[pair] ?? EditDistanceGuard.distanceBound(AbstractDataset(trace, from: from, to: to))
        distances[pair] = distance
        let call = EditDistanceGuard.callWork(items: Int(items), distance: distance)
        return (call, bounding + call * Double(1 + rounds * samples))
    }

    /// The cost of diffing version `from` into `to` with `engine` and `moves` in round `round`
    /// (modulo the rounds), measured now if it was not.
    ///
    /// - Complexity: O(1) when measured; else `1 + rounds × samples` diffs of the pair.
    func cost(from: Int, to: Int, moves: MoveStrategy, engine: PolicyEngine, round: Int) -> SimulatedDiff {
        let key = Key(from: from, to: to, moves: moves, engine: engine.name)
        guard let entry = entries[key] ?? measure(key, engine) else { return SimulatedDiff(seconds: 0, changes: 0, batchChanges: 0) }
        return SimulatedDiff(seconds: entry.seconds[round % entry.seconds.count], changes: entry.changes, batchChanges: entry.batchChanges)
    }

    /// The measured entry of `key`, or `nil` (``failure`` set) when it cannot be measured.
    private func measure(_ key: Key, _ engine: PolicyEngine) -> Entry? {
        guard failure == nil else { return nil }
        let needed = measuringWork(from: key.from, to: key.to, engine: engine.name)
        guard !EditDistanceGuard(maxCallWork: maxCallWork).refuses(needed.call) else {
            failure = .callLimit(engine: engine.name, from: key.from, to: key.to, work: needed.call, limit: maxCallWork)
            return nil
        }
        guard work + needed.pair <= maxWork else {
            failure = .workLimit(maxWork)
            return nil
        }
        work += needed.pair
        let lists = AbstractDataset(trace, from: key.from, to: key.to).ints()
        do throws(EngineFailure) {
            let first = try engine.diff(from: lists.old, to: lists.new, moves: key.moves)
            var entry = Entry(changes: first.changes, batchChanges: first.batch.changeCount, seconds: [])
            for _ in 0..<rounds {
                var calls: [Double] = []
                for _ in 0..<samples {
                    let start = monotonicNow()
                    let diff = try engine.diff(from: lists.old, to: lists.new, moves: key.moves)
                    calls.append(monotonicNow() - start)
                    blackHole(diff)
                }
                entry.seconds.append(median(calls) ?? 0)
            }
            entries[key] = entry
            order.append(key)
            return entry
        } catch {
            failure = .engine(error, engine: engine.name, from: key.from, to: key.to)
            return nil
        }
    }

    /// Every pair measured, as results rows, in order of measuring.
    var rows: [PolicyTracePairRow] {
        order.compactMap { key in
            entries[key].map {
                PolicyTracePairRow(
                    engine: key.engine, moves: key.moves.rawValue, from: key.from, to: key.to, changes: $0.changes, batchChanges: $0.batchChanges,
                    seconds: $0.seconds)
            }
        }
    }
}
