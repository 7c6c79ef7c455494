import DiffLabCore
import DiffLabResults

/// Why a trace-driven policy run stopped: an engine gave no usable answer on a pair of the
/// trace's versions, or measuring the pairs the simulation needed passed the work limit.
public enum PolicyTraceFailure: Error, Sendable, CustomStringConvertible {
    /// The engine failed diffing version `from` into `to`.
    case engine(EngineFailure, engine: String, from: Int, to: Int)
    /// Measuring would have handled more than `limit` items (list items over every diff).
    case workLimit(Double)

    /// The failure in words.
    public var description: String {
        switch self {
        case .engine(let failure, let engine, let from, let to): "engine '\(engine)' failed on versions \(from) → \(to): \(failure)"
        case .workLimit(let limit): "measuring the trace's pairs would handle more than \(formatPlain(limit)) items"
        }
    }
}

/// The measured diff costs of pairs of a trace's versions, measured when first needed and kept,
/// by (from, to, move strategy, engine): what a trace-driven simulation's diffs cost.
///
/// Measuring a pair diffs its two versions (every section's items in order, as ``IntElement``s:
/// the identifier's index as the id, the content's as the revision) once to count its changes
/// and batch changes (and warm up), then, per round, ``samples`` times, the round's cost being the
/// median of those calls. Each call handles both lists' items; measuring stops, with
/// ``failure`` set, before the total would pass ``maxWork``, and after an engine's first failure.
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
    /// Items handled so far (list items over every diff).
    private(set) var work = 0.0
    private(set) var failure: PolicyTraceFailure?
    /// The pairs measured, in order of measuring.
    private(set) var order: [Key] = []
    private(set) var entries: [Key: Entry] = [:]

    /// A cache measuring on `trace`: `rounds` rounds of `samples` calls per pair, at most
    /// `maxWork` items handled in all.
    init(trace: Trace, rounds: Int, samples: Int, maxWork: Double) {
        precondition(rounds >= 1 && samples >= 1, "PolicyTraceCosts: at least one round and one sample")
        (self.trace, self.rounds, self.samples, self.maxWork) = (trace, rounds, samples, maxWork)
    }

    /// Items measuring one pair of `trace` handles in `rounds` rounds of `samples` calls: both
    /// lists, once per call (and once more to count). O(1).
    static func work(_ trace: Trace, from: Int, to: Int, rounds: Int, samples: Int) -> Double {
        Double(trace.versions[from].items.count + trace.versions[to].items.count) * Double(1 + rounds * samples)
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
        let needed = Self.work(trace, from: key.from, to: key.to, rounds: rounds, samples: samples)
        guard work + needed <= maxWork else {
            failure = .workLimit(maxWork)
            return nil
        }
        work += needed
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
