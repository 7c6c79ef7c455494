import DiffLabEngines

// The parallel pairing's figures, read from bench measurements: shared by `difflab bench`'s
// printed table and targets and by the report.

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
/// (`HashMapEngine.Partitioning.measured.parallelThreshold`): below it
/// a threaded variant runs `hashmap`'s code on the calling thread, and its "speed-up" is noise.
package let hashmapParallelThreshold = HashMapEngine.Partitioning.measured.parallelThreshold

/// The speed-up and efficiency of every threaded `hashmap` measurement (see
/// `BuiltInEngines.Name.hashmapThreads(named:cores:)`) over `hashmap` on the same cell, in row order; only cells of at
/// least `minimumSize` elements (the parallel threshold, where threads are used, by default).
package func parallelSpeedups(_ rows: [BenchMeasurement], cores: Int, minimumSize: Int = hashmapParallelThreshold) -> [ParallelSpeedup] {
    func cell(_ m: BenchMeasurement) -> String { "\(m.profile)|\(m.kind)|\(m.size)|\(m.allocator)" }
    var single: [String: Double] = [:]
    for row in rows where row.engine == BuiltInEngines.Name.hashmap { if let m = row.median { single[cell(row)] = m } }
    return rows.compactMap { row in
        guard row.engine != BuiltInEngines.Name.hashmap, row.size >= minimumSize,
            let threads = BuiltInEngines.Name.hashmapThreads(named: row.engine, cores: cores), let median = row.median,
            median > 0,
            let one = single[cell(row)]
        else { return nil }
        return ParallelSpeedup(
            engine: row.engine, profile: row.profile, kind: row.kind, size: row.size, allocator: row.allocator, threads: threads,
            speedup: one / median)
    }
}
