import DiffLabCore
import DiffLabPlatform
import DiffLabResults

/// What the policy lab concludes from a grid's runs: crossovers and recommendations.
///
/// Both work on the runs alone (``PolicyGridRun`` records, as written to and read from a
/// `difflab-policy/2` file), so a file's conclusions can be recomputed and tested on synthetic
/// runs.
public enum PolicyAnalysis {
    /// Hitch time ratios closer than this (ms per second) are a tie: 0.1.
    public static let hitchTolerance = 0.1
    /// p99 latencies closer than this (seconds) are a tie: 1 ms.
    public static let latencyTolerance = 0.001
    /// Background diffing clearly beats main-thread diffing at a size when its hitch time ratio is
    /// lower by at least this many ms per second: 1 …
    public static let crossoverAbsoluteMargin = 1.0
    /// … and by at least this share of main's: 20%.
    public static let crossoverRelativeMargin = 0.2

    /// How far `background`'s hitch time ratio is below `main`'s beyond the margins: positive
    /// when background clearly wins (by ``crossoverAbsoluteMargin`` and
    /// ``crossoverRelativeMargin``). The one rule of every crossover, the grid's and the
    /// real-time lab's. O(1).
    public static func clearWinExcess(main: Double, background: Double) -> Double {
        main - background - max(crossoverAbsoluteMargin, crossoverRelativeMargin * main)
    }

    // MARK: Crossovers

    /// The crossover of every frame rate × move strategy × reload threshold present: the smallest
    /// list size from which `background` clearly beats `main` on hitch time (by
    /// ``crossoverAbsoluteMargin`` and ``crossoverRelativeMargin``, the hitch time ratio averaged
    /// over the workloads of that size) at that size and every larger one.
    ///
    /// Each repeat gives its own crossover: the first size run of that clear win, the true
    /// crossover lying above the size run before it. Every repeat finding one: `belowSmallest`
    /// when every repeat's is the smallest size run; else `clear`, with `size` the median of the
    /// repeats' crossovers and the interval from `low` (exclusive: the largest size run below
    /// every repeat's crossover; `nil` when some repeat's is the smallest size run) to `high`
    /// (the largest repeat's crossover). Some but not all: within the noise,
    /// `noClearCrossover`, no number; none: `none`. No size is interpolated: the grid's sizes
    /// are what was run.
    ///
    /// - Complexity: O(runs · (repeats + log runs)): the runs are grouped once by mode.
    public static func crossovers(_ runs: [PolicyGridRun]) -> [PolicyCrossoverRow] {
        struct Mode: Hashable {
            var frameRate: Double
            var moves: MoveStrategy
            var reloadThreshold: Int?
        }
        var order: [Mode] = []
        var groups: [Mode: [PolicyGridRun]] = [:]
        for run in runs {
            let mode = Mode(frameRate: run.workload.frameRate, moves: run.setting.moves, reloadThreshold: run.setting.reloadThreshold)
            if groups[mode] == nil { order.append(mode) }
            groups[mode, default: []].append(run)
        }
        // Frame rates, then move strategies, then thresholds, each in first-appearance order.
        let rates = unique(order.map(\.frameRate))
        let moves = unique(order.map(\.moves))
        let thresholds = unique(order.map(\.reloadThreshold))
        order.sort { a, b in
            let ka = [rates.firstIndex(of: a.frameRate) ?? 0, moves.firstIndex(of: a.moves) ?? 0, thresholds.firstIndex(of: a.reloadThreshold) ?? 0]
            let kb = [rates.firstIndex(of: b.frameRate) ?? 0, moves.firstIndex(of: b.moves) ?? 0, thresholds.firstIndex(of: b.reloadThreshold) ?? 0]
            return ka.lexicographicallyPrecedes(kb)
        }
        return order.compactMap { mode in
            crossover(groups[mode] ?? [], frameRate: mode.frameRate, moves: mode.moves, reloadThreshold: mode.reloadThreshold)
        }
    }

    /// The crossover of one mode's runs, `nil` when it has no `main` and `background` runs at a
    /// common size.
    static func crossover(_ runs: [PolicyGridRun], frameRate: Double, moves: MoveStrategy, reloadThreshold: Int?) -> PolicyCrossoverRow? {
        let main = runs.filter { $0.setting.policy == .main }
        let background = runs.filter { $0.setting.policy == .background }
        let sizes = unique(main.map(\.workload.listSize)).filter { size in background.contains { $0.workload.listSize == size } }.sorted()
        let repeats = min(main.map(\.repeats).min() ?? 0, background.map(\.repeats).min() ?? 0)
        guard !sizes.isEmpty, repeats > 0 else { return nil }
        // Per repeat: the index of the first size of the clear win.
        var found: [Int] = []
        for r in 0..<repeats {
            // The advantage over the margin at each size: positive is a clear win.
            let excess = sizes.map { size -> Double in
                let m = meanHitch(main, size: size, repeat: r)
                let b = meanHitch(background, size: size, repeat: r)
                return clearWinExcess(main: m, background: b)
            }
            guard let last = excess.last, last > 0 else { continue }
            found.append((excess.lastIndex { $0 <= 0 } ?? -1) + 1)
        }
        var row = PolicyCrossoverRow(
            frameRate: frameRate, moves: moves, reloadThreshold: reloadThreshold, verdict: .none, size: nil, low: nil, high: nil,
            repeatsWithCrossover: found.count, repeats: repeats)
        guard !found.isEmpty else { return row }
        guard found.count == repeats else {
            row.verdict = .noClearCrossover
            return row
        }
        row.size = Int(SampleStatistics(found.map { Double(sizes[$0]) }).median)
        row.high = found.max().map { sizes[$0] }
        if found.allSatisfy({ $0 == 0 }) {
            row.verdict = .belowSmallest
            row.low = sizes[0]
            return row
        }
        row.verdict = .clear
        // Some repeat found it at the smallest size run: nothing run lies below it.
        row.low = found.min().flatMap { $0 > 0 ? sizes[$0 - 1] : nil }
        return row
    }

    /// The mean over `runs` of one size of their hitch time ratio in repeat `r`.
    private static func meanHitch(_ runs: [PolicyGridRun], size: Int, repeat r: Int) -> Double {
        let values = runs.filter { $0.workload.listSize == size && r < $0.repeats }.map { $0.hitchTimeRatio[r] }
        return values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    // MARK: Recommendations

    /// One setting's figures over the workloads of one size and frame rate.
    struct Candidate {
        var setting: PolicySetting
        /// Per repeat: the mean hitch time ratio over the workloads.
        var hitch: [Double]
        /// Per repeat: the worst workload's p99 latency.
        var p99: [Double]
        var dropped: Int
        /// Per repeat: the share of updates shown through a full reload, the mean over the workloads.
        var reloads: [Double]

        var medianHitch: Double { SampleStatistics(hitch).median }
        var medianP99: Double { SampleStatistics(p99).median }
        var medianReloads: Double { SampleStatistics(reloads).median }

        func row() -> PolicyCandidateRow {
            PolicyCandidateRow(
                setting: setting, hitchTimeRatio: medianHitch, hitchLow: hitch.min() ?? 0, hitchHigh: hitch.max() ?? 0, latencyP99: medianP99,
                dropped: dropped, reloads: Int((medianReloads * 100).rounded(.up)))
        }
    }

    /// The recommendation for every list size and frame rate present.
    ///
    /// For each, every setting is a candidate, judged over the workloads of that size and frame
    /// rate (update intervals and edits): its hitch time ratio is the mean over them (the median
    /// over repeats of that mean), its latency the worst workload's p99 (median over repeats).
    /// A candidate is feasible when that latency is at most `latencyBound` and it dropped no
    /// update. The winner is the feasible candidate with the least hitch time; candidates within
    /// ``hitchTolerance`` of it tie, and a tie goes to fewer full reloads (a reload loses the
    /// batch update's animation), then to the lower p99 latency (within ``latencyTolerance``:
    /// a tie), then to the simpler setting (policies in `DiffPolicy` order, offsets before minimal, no fallback first,
    /// smaller thresholds and intervals first). The runner-up is chosen the same way among the
    /// feasible candidates that behave as another policy at that size (`adaptive` behaves as
    /// `main` below its threshold and as `background` above it). With nothing feasible there is no winner, and
    /// the runner-up is the candidate with the lowest p99 latency, as evidence.
    ///
    /// Bands: each size stands for the sizes from the geometric mean with the next smaller size
    /// to that with the next larger one (the smallest from 1 item, the largest up to
    /// ``PolicyConfig/listSizeRange``'s end).
    ///
    /// A setting in `exclusions` (its updater broke a property: ``PolicyUpdaterCheck``) is never
    /// the winner or the runner-up; the row lists it, with why, in
    /// ``PolicyRecommendationRow/excluded``.
    ///
    /// - Precondition: `latencyBound` is finite.
    /// - Complexity: O(runs · repeats + candidates log candidates) per size and frame rate.
    public static func recommendations(
        _ runs: [PolicyGridRun], latencyBound: Double, exclusions: [PolicySetting: PolicyExclusion] = [:]
    ) -> [PolicyRecommendationRow] {
        precondition(latencyBound.isFinite, "recommendations: latencyBound must be finite")
        let sizes = unique(runs.map(\.workload.listSize)).sorted()
        var rows: [PolicyRecommendationRow] = []
        for (index, size) in sizes.enumerated() {
            let low = index == 0 ? 1 : Int((Double(sizes[index - 1]) * Double(size)).squareRoot().rounded(.up))
            let high =
                index == sizes.count - 1
                ? PolicyConfig.listSizeRange.upperBound : Int((Double(size) * Double(sizes[index + 1])).squareRoot().rounded(.down))
            for frameRate in unique(runs.map(\.workload.frameRate)) {
                let all = self.candidates(runs.filter { $0.workload.listSize == size && $0.workload.frameRate == frameRate })
                guard !all.isEmpty else { continue }
                let excluded = all.compactMap { exclusions[$0.setting] }
                let candidates = all.filter { exclusions[$0.setting] == nil }
                let feasible = candidates.filter { $0.medianP99 <= latencyBound && $0.dropped == 0 }
                let winner = best(feasible)
                var runnerUp = winner.flatMap { w in
                    best(feasible.filter { effectivePolicy($0.setting, size: size) != effectivePolicy(w.setting, size: size) })
                }
                if winner == nil {
                    runnerUp = candidates.min { lowerLatency($0, $1) }
                }
                rows.append(
                    PolicyRecommendationRow(
                        listSize: size, bandLow: max(1, min(low, size)), bandHigh: max(high, size), frameRate: frameRate, latencyBound: latencyBound,
                        candidates: all.count, feasible: feasible.count, winner: winner?.row(), runnerUp: runnerUp?.row(), excluded: excluded))
            }
        }
        return rows
    }

    /// What `setting` does at `size`: `adaptive` is `main` below its threshold, else `background`.
    static func effectivePolicy(_ setting: PolicySetting, size: Int) -> DiffPolicy {
        guard setting.policy == .adaptive else { return setting.policy }
        return setting.diffsOnMain(listSize: size) ? .main : .background
    }

    /// Every setting's figures over `runs` (one size and frame rate), in first-appearance order.
    static func candidates(_ runs: [PolicyGridRun]) -> [Candidate] {
        var order: [PolicySetting] = []
        var groups: [PolicySetting: [PolicyGridRun]] = [:]
        for run in runs {
            if groups[run.setting] == nil { order.append(run.setting) }
            groups[run.setting, default: []].append(run)
        }
        return order.compactMap { setting in
            guard let group = groups[setting], let repeats = group.map(\.repeats).min(), repeats > 0 else { return nil }
            let hitch = (0..<repeats).map { r in group.map { $0.hitchTimeRatio[r] }.reduce(0, +) / Double(group.count) }
            let p99 = (0..<repeats).map { r in group.map { $0.latencyP99[r] }.max() ?? 0 }
            // Summed as doubles and capped: a hostile file's counts (each up to 2^53) cannot overflow.
            let dropped = Int(min(group.reduce(0.0) { total, run in total + run.dropped.reduce(0.0) { $0 + Double($1) } }, 9_007_199_254_740_992))
            let reloads = (0..<repeats).map { r in
                group.map { Double($0.reloads[r]) / Double(max(1, $0.requested)) }.reduce(0, +) / Double(group.count)
            }
            return Candidate(setting: setting, hitch: hitch, p99: p99, dropped: dropped, reloads: reloads)
        }
    }

    /// The winner among `candidates`, in stages: those within ``hitchTolerance`` of the least
    /// hitch; of those, the ones with the fewest full reloads (more updates keep their animation);
    /// of those, the ones within ``latencyTolerance`` of the lowest p99 latency; of those, the
    /// simplest setting.
    static func best(_ candidates: [Candidate]) -> Candidate? {
        guard let least = candidates.map(\.medianHitch).min() else { return nil }
        let smooth = candidates.filter { $0.medianHitch <= least + hitchTolerance }
        guard let fewest = smooth.map(\.medianReloads).min() else { return nil }
        let animated = smooth.filter { $0.medianReloads == fewest }
        guard let fastest = animated.map(\.medianP99).min() else { return nil }
        return animated.filter { $0.medianP99 <= fastest + latencyTolerance }.min { simpler($0.setting, $1.setting) }
    }

    /// Whether `a` is the simpler setting (``simplicity``, then the label: total, so the choice
    /// never depends on input order).
    static func simpler(_ a: PolicySetting, _ b: PolicySetting) -> Bool {
        let (sa, sb) = (simplicity(a), simplicity(b))
        if sa != sb { return sa.lexicographicallyPrecedes(sb) }
        return a.label < b.label
    }

    /// Whether `a` ranks before `b` by p99 latency, then hitch, then simplicity.
    static func lowerLatency(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.medianP99 != b.medianP99 { return a.medianP99 < b.medianP99 }
        if a.medianHitch != b.medianHitch { return a.medianHitch < b.medianHitch }
        return simpler(a.setting, b.setting)
    }

    /// A record's tie-breaking rank (``PolicySetting``'s order).
    static func simplicity(_ setting: PolicySetting) -> [Double] {
        let policy = DiffPolicy.allCases.firstIndex(of: setting.policy) ?? DiffPolicy.allCases.count
        let moves = MoveStrategy.allCases.firstIndex(of: setting.moves) ?? MoveStrategy.allCases.count
        return [
            Double(policy), Double(moves), setting.reloadThreshold == nil ? 0 : 1, Double(setting.reloadThreshold ?? 0),
            Double(setting.maxItemCountToRunOnMain ?? 0), setting.coalescing?.minimum ?? 0, setting.coalescing?.maximum ?? 0,
        ]
    }

    /// `values` without repeats, in first-appearance order.
    static func unique<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }
}
