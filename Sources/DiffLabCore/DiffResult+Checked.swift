/// Why a hand-built ``DiffResult`` was rejected.
public struct DiffResultError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public var description: String
    init(_ description: String) { self.description = description }
}

extension DiffResult {
    /// Builds a result by hand, checking that it describes a consistent change of an `oldCount`
    /// list into a `newCount` list.
    ///
    /// Lists may come in any order; they are stored sorted (moves by destination). Checked:
    /// counts are non-negative; indices are in range (old indices below `oldCount`, new indices
    /// below `newCount`); no index repeats inside inserts, deletes, updates, move sources or move
    /// destinations; no move starts at a deleted index or ends at an inserted one; every update has
    /// a destination; and `oldCount − deletes + inserts == newCount`.
    ///
    /// - Throws: ``DiffResultError`` naming the first problem found.
    /// - Complexity: O(k log k) for k listed changes, plus O(oldCount + newCount).
    public init(
        oldCount: Int, newCount: Int, inserts: [Int], deletes: [Int], updates: [Int] = [],
        updateDestinations: [Int] = [], moves: [Move] = []
    ) throws(DiffResultError) {
        guard oldCount >= 0, newCount >= 0 else {
            throw .init("list lengths must be non-negative (old \(oldCount), new \(newCount))")
        }
        guard updates.count == updateDestinations.count else {
            throw .init("\(updates.count) updates but \(updateDestinations.count) update destinations")
        }
        func checkDistinct(_ indices: [Int], bound: Int, _ what: String) throws(DiffResultError) -> [Bool] {
            var seen = [Bool](repeating: false, count: bound)
            for i in indices {
                guard i >= 0, i < bound else { throw .init("\(what) index \(i) is outside 0..<\(bound)") }
                guard !seen[i] else { throw .init("\(what) index \(i) appears twice") }
                seen[i] = true
            }
            return seen
        }
        let deleted = try checkDistinct(deletes, bound: oldCount, "delete")
        let inserted = try checkDistinct(inserts, bound: newCount, "insert")
        _ = try checkDistinct(updates, bound: oldCount, "update")
        for n in updateDestinations where n < 0 || n >= newCount {
            throw .init("update destination \(n) is outside 0..<\(newCount)")
        }
        _ = try checkDistinct(moves.map { $0.from }, bound: oldCount, "move source")
        _ = try checkDistinct(moves.map { $0.to }, bound: newCount, "move destination")
        for move in moves {
            if deleted[move.from] { throw .init("move \(move) starts at deleted index \(move.from)") }
            if inserted[move.to] { throw .init("move \(move) ends at inserted index \(move.to)") }
        }
        guard oldCount - deletes.count + inserts.count == newCount else {
            throw .init(
                "\(oldCount) old − \(deletes.count) deletes + \(inserts.count) inserts ≠ \(newCount) new")
        }
        let updatePairs = zip(updates, updateDestinations).sorted { $0.0 < $1.0 }
        self.init(
            unchecked: oldCount, newCount: newCount, inserts: inserts.sorted(), deletes: deletes.sorted(),
            updates: updatePairs.map { $0.0 }, updateDestinations: updatePairs.map { $0.1 }, moves: moves.sorted())
    }
}
