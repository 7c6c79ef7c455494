import DiffLabResults

extension PolicyAnalysis {
    /// The crossover of a real-time run (`difflab policy real-time`), as the scenario grid
    /// defines it: the smallest of `sizes` from which `background` beats `main` on hitch time
    /// beyond noise (``clearWinExcess(main:background:)`` > 0: 20% and 1 ms/s lower) at that size
    /// and every larger one, among the runs with (`fallback`) or without IGListKit's reload
    /// fallback.
    ///
    /// - Returns: that size, or `nil` when background diffing wins at no size from which it keeps
    ///   winning (a size with either run missing counts as no win).
    /// - Complexity: O(sizes² × results).
    public static func realTimeCrossover(_ results: [PolicyResult], _ sizes: [Int], fallback: Bool) -> Int? {
        func hitch(_ policy: DiffPolicy, _ size: Int) -> Double? {
            results.first {
                $0.config.policy == policy && $0.config.listSize == size && $0.config.allowsReloadingOnTooManyUpdates == fallback
            }?.hitchTimeRatio
        }
        func wins(_ size: Int) -> Bool {
            guard let main = hitch(.main, size), let background = hitch(.background, size) else { return false }
            return clearWinExcess(main: main, background: background) > 0
        }
        return sizes.indices.first { index in sizes[index...].allSatisfy(wins) }.map { sizes[$0] }
    }
}
