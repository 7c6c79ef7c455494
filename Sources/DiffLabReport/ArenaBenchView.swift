import DiffLabCore
import DiffLabPlatform
import DiffLabResults

/// The geometric mean of `values`: exp of the mean of their logarithms, so that a ratio twice as
/// large and one half as large cancel. `nil` when `values` is empty or holds a value that is not
/// positive and finite, or when the mean is beyond `Double`'s range.
/// - Complexity: O(n).
package func geometricMean(_ values: [Double]) -> Double? {
    guard values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
    return geometricMean(logarithms: values.map { Double.log($0) })
}

/// exp of the mean of `logarithms` (natural): the geometric mean of the values they are the
/// logarithms of, e.g. of ratios given as differences of logarithms, which cannot overflow where
/// the ratios themselves could. `nil` when empty or when the result is not positive and finite.
/// - Complexity: O(n).
package func geometricMean(logarithms: [Double]) -> Double? {
    guard !logarithms.isEmpty else { return nil }
    let mean = Double.exp(logarithms.reduce(0, +) / Double(logarithms.count))
    return mean > 0 && mean.isFinite ? mean : nil
}

/// A value aggregated over the profiles of one size, with how many profiles it is over.
struct ProfileAggregate: Equatable {
    var value: Double
    var profiles: Int
}

/// The embedded benchmark of an arena file, seen the way the arena section shows it: one element
/// kind (`int`, else the first in the file) under one allocator (`jemalloc`, else the first), cells
/// by engine, profile and size.
struct ArenaBenchView {
    private struct Key: Hashable {
        var engine: String
        var profile: String
        var size: Int
    }

    let kind: String
    let allocator: MemoryAllocator
    /// Sizes of the view, ascending.
    let sizes: [Int]
    /// Profiles of the view, in file order.
    let profiles: [String]
    /// The contestants that have a cell in the view, in contestant order.
    let engines: [String]
    private let cells: [Key: BenchMeasurement]

    /// The view of `bench` for `contestants` (engine names, in order). O(cells).
    init(bench: BenchResults, contestants: [String]) {
        func ordered<T: Hashable>(_ values: [T]) -> [T] {
            var seen: Set<T> = []
            return values.filter { seen.insert($0).inserted }
        }
        let kinds = ordered(bench.measurements.map(\.kind))
        let allocators = ordered(bench.measurements.map(\.allocator))
        let kind = kinds.contains("int") ? "int" : kinds.first ?? "int"
        let allocator: MemoryAllocator = allocators.contains(.jemalloc) ? .jemalloc : allocators.first ?? .jemalloc
        (self.kind, self.allocator) = (kind, allocator)
        let shown = bench.measurements.filter { $0.kind == kind && $0.allocator == allocator }
        var cells: [Key: BenchMeasurement] = [:]
        for m in shown { cells[Key(engine: m.engine, profile: m.profile, size: m.size)] = m }
        self.cells = cells
        sizes = Set(shown.map(\.size)).sorted()
        profiles = ordered(shown.map(\.profile))
        let present = Set(shown.map(\.engine))
        engines = contestants.filter { present.contains($0) }
    }

    /// Whether any measured cell of `engine` in the view was timed by the engine itself (its
    /// answers' `seconds`, `BenchTiming.selfTimed`). O(cells).
    func isSelfTimed(_ engine: String) -> Bool {
        cells.contains { $0.key.engine == engine && $0.value.isMeasured && $0.value.timing == .selfTimed }
    }

    /// The cell of `engine` on `profile` at `size`, if the view has it.
    func cell(_ engine: String, _ profile: String, _ size: Int) -> BenchMeasurement? {
        cells[Key(engine: engine, profile: profile, size: size)]
    }

    /// A positive median of `engine` on `profile` at `size` (a zero median cannot enter a geometric mean).
    func median(_ engine: String, _ profile: String, _ size: Int) -> Double? {
        cell(engine, profile, size)?.median.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `engine`'s median ÷ `baseline`'s at `size`: the geometric mean over the profiles where
    /// both have a positive median. O(profiles).
    func ratio(_ engine: String, to baseline: String, size: Int) -> ProfileAggregate? {
        // As logarithms: a ÷ b of two in-range medians can overflow, their log difference cannot.
        let logRatios = profiles.compactMap { p -> Double? in
            guard let a = median(engine, p, size), let b = median(baseline, p, size) else { return nil }
            return Double.log(a) - Double.log(b)
        }
        return geometricMean(logarithms: logRatios).map { ProfileAggregate(value: $0, profiles: logRatios.count) }
    }

    /// `engine`'s median time at `size`: the geometric mean over the profiles where it has a
    /// positive median. O(profiles).
    func time(_ engine: String, size: Int) -> ProfileAggregate? {
        let medians = profiles.compactMap { median(engine, $0, size) }
        return geometricMean(medians).map { ProfileAggregate(value: $0, profiles: medians.count) }
    }

    /// DiffLab's one median of `metric` over the profiles where `engine` has it at `size`. O(profiles log profiles).
    func median(_ engine: String, size: Int, _ metric: (BenchMeasurement) -> Double?) -> ProfileAggregate? {
        let values = profiles.compactMap { cell(engine, $0, size).flatMap(metric) }
        return DiffLabCore.median(values).map { ProfileAggregate(value: $0, profiles: values.count) }
    }

    /// The engine of `engines` with the smallest positive median on `profile` at `size`, and that
    /// median; the first in `engines` among equals, `nil` when none has one. O(engines).
    func fastest(of engines: [String], _ profile: String, _ size: Int) -> (engine: String, median: Double)? {
        var best: (engine: String, median: Double)?
        for engine in engines {
            guard let median = median(engine, profile, size), median < best?.median ?? .infinity else { continue }
            best = (engine, median)
        }
        return best
    }

    /// Whether `engine` has a measured cell at `size` on some profile.
    func measured(_ engine: String, size: Int) -> Bool {
        profiles.contains { cell(engine, $0, size)?.isMeasured ?? false }
    }
}
