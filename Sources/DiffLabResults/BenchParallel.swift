// The parallel pairing's figures, read from bench measurements: shared by `difflab bench`'s
// printed table and targets and by the report.

/// The threads an engine's pairing uses, from its name: `hashmap-parallel` uses `cores`,
/// (at most 64, the engine's bound), `hashmap-<t>t` uses t, `hashmap` 1; `nil` for every other subject.
package func hashmapThreads(_ engine: String, cores: Int) -> Int? {
    if engine == "hashmap" { return 1 }
    if engine == "hashmap-parallel" { return min(max(1, cores), 64) }  // HashMapEngine's bound
    guard engine.hasPrefix("hashmap-"), engine.hasSuffix("t") else { return nil }
    guard let t = Int(engine.dropFirst("hashmap-".count).dropLast()), t >= 1 else { return nil }
    return t
}

/// One threaded `hashmap` measurement against the 1-thread one on the same dataset cell.
package struct ParallelSpeedup: Sendable, Equatable {
    package var engine: String
    package var profile: String
    package var kind: String
    package var size: Int
    package var allocator: MemoryAllocator
    package var threads: Int
    /// `hashmap`'s median ÷ this engine's median.
    package var speedup: Double
    /// ``speedup`` ÷ ``threads``.
    package var efficiency: Double { speedup / Double(threads) }
}

/// The least list size at which the built-in `hashmap` variants use more than one thread
/// (`HashMapEngine.Partitioning.measured.parallelThreshold`, which a test keeps equal): below it
/// a threaded variant runs `hashmap`'s code on the calling thread, and its "speed-up" is noise.
package let hashmapParallelThreshold = 262_144

/// The speed-up and efficiency of every threaded `hashmap` measurement (see
/// ``hashmapThreads(_:cores:)``) over `hashmap` on the same cell, in row order; only cells of at
/// least `minimumSize` elements (the parallel threshold, where threads are used, by default).
package func parallelSpeedups(_ rows: [BenchMeasurement], cores: Int, minimumSize: Int = hashmapParallelThreshold) -> [ParallelSpeedup] {
    func cell(_ m: BenchMeasurement) -> String { "\(m.profile)|\(m.kind)|\(m.size)|\(m.allocator)" }
    var single: [String: Double] = [:]
    for row in rows where row.engine == "hashmap" { if let m = row.median { single[cell(row)] = m } }
    return rows.compactMap { row in
        guard row.engine != "hashmap", row.size >= minimumSize, let threads = hashmapThreads(row.engine, cores: cores), let median = row.median,
            median > 0,
            let one = single[cell(row)]
        else { return nil }
        return ParallelSpeedup(
            engine: row.engine, profile: row.profile, kind: row.kind, size: row.size, allocator: row.allocator, threads: threads,
            speedup: one / median)
    }
}
