import DiffLabPlatform

/// One of `count` parts of a benchmark matrix (`difflab bench --shard K/N`), for CI job matrices.
///
/// The unit of sharding is a *series*: one element kind × one profile, with every size and every
/// subject (engines, `stdlib`, the floors). A series stays whole because the bench decides to
/// skip a cell from the same subject's smaller sizes in that series, and computes each cell's
/// ratios from the references of the same size: a shard measures exactly what the unsharded run
/// would, cell for cell.
public struct BenchShard: Sendable, Hashable, CustomStringConvertible {
    /// Which part, from 1 to ``count``.
    public var index: Int
    /// How many parts, in ``countRange``.
    public var count: Int

    /// Parts: 1 to 64.
    public static let countRange = 1...64

    /// Part `index` of `count`.
    ///
    /// - Throws: ``ConfigurationError`` unless `count` is in ``countRange`` and `index` in 1…`count`.
    public init(_ index: Int, of count: Int) throws(ConfigurationError) {
        try ConfigurationError.check(count, in: Self.countRange, "shard count")
        try ConfigurationError.check(index, in: 1...count, "shard index")
        self.index = index
        self.count = count
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}

/// A series of the matrix: one element kind and one profile.
public struct BenchSeries: Sendable, Hashable {
    /// The element kind.
    public var kind: ElementKind
    /// The dataset profile.
    public var profile: DatasetProfile
}

extension BenchOptions {
    /// Every series of the matrix that has at least one size, kinds then profiles in option order.
    public var series: [BenchSeries] {
        var result: [BenchSeries] = []
        for kind in kinds {
            for profile in profiles where sizes.contains(where: { includes(profile, kind, $0) }) {
                result.append(BenchSeries(kind: kind, profile: profile))
            }
        }
        return result
    }

    /// The predicted seconds one allocator spends on `series`: per cell, the sample budget, or
    /// the minimum samples of a call predicted from its size and the subject's growth exponent
    /// (1 ns per item at the exponent, a deliberately rough scale: only the ratios between
    /// series matter), capped at the per-call limit, whichever is larger; objects count twice
    /// and models one and a half times ints.
    ///
    /// - Complexity: O(sizes × subjects).
    public func predictedSeconds(_ series: BenchSeries) -> Double {
        let kindFactor: Double = series.kind == .object ? 2 : series.kind == .model ? 1.5 : 1
        var total = 0.0
        // Sizes in order, so the sum (and so the plan) is the same in every process.
        for size in Set(sizes).sorted() where includes(series.profile, series.kind, size) {
            for subject in subjects {
                let call = min(1e-9 * Double.pow(Double(size), subject.growthExponent) * kindFactor, maxCallSeconds)
                total += max(budget, Double(minSamples) * call)
            }
        }
        return total
    }

    /// The series of part `shard`: the series sorted by predicted cost (largest first, ties in
    /// matrix order), each given to the part with the least predicted cost so far (ties to the
    /// lower index). Deterministic: the same options always give the same parts, whatever the
    /// machine; every series is in exactly one part.
    ///
    /// - Complexity: O(series × (log series + parts) + the predictions).
    public func series(in shard: BenchShard) -> [BenchSeries] {
        let all = series
        let costs = all.map(predictedSeconds)
        let order = all.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        var load = [Double](repeating: 0, count: shard.count)
        var owner = [Int](repeating: 0, count: all.count)
        for index in order {
            let part = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 } ?? 0
            owner[index] = part
            load[part] += costs[index]
        }
        return all.indices.filter { owner[$0] == shard.index - 1 }.map { all[$0] }
    }
}
