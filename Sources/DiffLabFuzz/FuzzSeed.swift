import DiffLabResults

/// A pair of lists the fuzzer starts from instead of generating them: a recorded trace's
/// consecutive versions, cut down to the fuzzer's sizes (``FuzzOptions/seeds``).
///
/// Identifiers and contents are renumbered densely in order of first appearance (equal stays
/// equal, duplicates stay duplicates), so any source fits ``FuzzItem``.
public struct FuzzSeed: Sendable, Hashable {
    /// The old list.
    public var old: [FuzzItem]
    /// The new list.
    public var new: [FuzzItem]
    /// Where it came from, e.g. `pair 3 of trace.jsonl, items 40..<64`.
    public var origin: String

    /// A seed of the given lists.
    public init(old: [FuzzItem], new: [FuzzItem], origin: String) {
        self.old = old
        self.new = new
        self.origin = origin
    }

    /// The seeds of `trace`: one per consecutive pair of versions that differ, each cut to at
    /// most `maxSize` items per list, at most `limit` of them (evenly spaced over the trace).
    ///
    /// A pair longer than `maxSize` keeps a window around its first difference: from a few items
    /// before the first position where the lists differ (or the start), `maxSize` items of each
    /// list. Versions with identical lists give no seed.
    ///
    /// - Parameters:
    ///   - trace: the recorded trace whose versions are paired.
    ///   - name: names the trace in each seed's ``origin``.
    ///   - maxSize: the most items each list of a seed keeps.
    ///   - limit: the most seeds returned.
    /// - Complexity: O(items of the trace).
    public static func seeds(of trace: Trace, name: String, maxSize: Int, limit: Int = 10_000) -> [FuzzSeed] {
        let size = max(maxSize, 1)
        var seeds: [FuzzSeed] = []
        for index in 0..<max(trace.versions.count - 1, 0) {
            let old = trace.versions[index].items
            let new = trace.versions[index + 1].items
            guard old != new else { continue }
            let common = zip(old, new).prefix { $0 == $1 }.count
            let start = max(0, min(common - 2, max(old.count, new.count) - size))
            let oldWindow = old.dropFirst(min(start, old.count)).prefix(size)
            let newWindow = new.dropFirst(min(start, new.count)).prefix(size)
            var ids: [Int: Int] = [:]
            var contents: [Int: Int] = [:]
            func item(_ traced: TraceItem) -> FuzzItem {
                let id = ids[traced.id] ?? ids.count
                ids[traced.id] = id
                let content = contents[traced.content] ?? contents.count
                contents[traced.content] = content
                return FuzzItem(id, content)
            }
            let seed = FuzzSeed(
                old: oldWindow.map(item), new: newWindow.map(item),
                origin: "pair \(index) of \(name), items \(start)..<\(start + size)")
            seeds.append(seed)
        }
        guard seeds.count > limit, limit > 0 else { return seeds }
        return (0..<limit).map { seeds[$0 * seeds.count / limit] }
    }
}
