import DiffLabCore
import DiffLabEngines
import DiffLabFormatting
import DiffLabResults

extension BenchMeasurement {
    /// The dataset cell: profile, kind, size and allocator.
    var datasetCell: String { "\(profile)|\(kind)|\(size)|\(allocator)" }
}

/// Adds to every measurement its speed-up over the `stdlib` reference (`speedupOverStdlib` =
/// stdlib median / median) and its ratios to the hash floor (`ratioToFloor` = median / floor
/// median), the partitioned floor (`ratioToPartitionedFloor`) and the trim floor
/// (`ratioToTrimFloor`), all on the same dataset and allocator.
package func addRatios(_ measurements: [BenchMeasurement]) -> [BenchMeasurement] {
    var stdlib: [String: Double] = [:]
    var floor: [String: Double] = [:]
    var partitioned: [String: Double] = [:]
    var trim: [String: Double] = [:]
    for row in measurements {
        if row.engine == BuiltInEngines.reference, let m = row.median { stdlib[row.datasetCell] = m }
        if row.engine == hashFloorName, let m = row.median { floor[row.datasetCell] = m }
        if row.engine == partitionedFloorName, let m = row.median { partitioned[row.datasetCell] = m }
        if row.engine == trimFloorName, let m = row.median { trim[row.datasetCell] = m }
    }
    return measurements.map { row in
        guard let median = row.median else { return row }
        var row = row
        if let s = stdlib[row.datasetCell] { row.speedupOverStdlib = s / median }
        if let f = floor[row.datasetCell] { row.ratioToFloor = median / f }
        if let f = partitioned[row.datasetCell] { row.ratioToPartitionedFloor = median / f }
        if let f = trim[row.datasetCell] { row.ratioToTrimFloor = median / f }
        return row
    }
}

/// Growth exponents (log-log slope of median time against size) per engine, profile, kind and
/// allocator, over all measured sizes, plus `hashmap`'s from 10k to 1M.
package func scalingFits(_ rows: [BenchMeasurement]) -> [BenchScaling] {
    var groups: [String: [BenchMeasurement]] = [:]
    for row in rows where row.median != nil {
        groups["\(row.engine)|\(row.profile)|\(row.kind)|\(row.allocator)", default: []].append(row)
    }
    return groups.keys.sorted().compactMap { key in
        let group = groups[key]!.sorted { $0.size < $1.size }
        guard let exponent = growthExponent(group.map { (Double($0.size), $0.median!) }) else { return nil }
        let bytes = group.filter { $0.allocatedBytes != nil }
        let bytesExponent = growthExponent(bytes.map { (Double($0.size), max($0.allocatedBytes!, 1)) })
        return BenchScaling(
            engine: group[0].engine, profile: group[0].profile, kind: group[0].kind, allocator: group[0].allocator,
            sizes: group.map(\.size), timeExponent: exponent, bytesExponent: bytesExponent)
    }
}

/// The targets (issue 13's), measured on `differencekit` under `allocator` (`int` elements unless
/// named): `hashmap` against the naive and the partitioned floor at 1M, its growth exponent from
/// 10k to 1M, its time at 1M under each allocator (context), the 2-thread speed-up at 1M, the
/// bytes one call allocates per element at 1M, and the older targets at 100k.
package func benchTargets(_ rows: [BenchMeasurement], allocator: MemoryAllocator, cores: Int = availableCores()) -> [BenchTarget] {
    let (hashmap, myers, stdlib) = (BuiltInEngines.Name.hashmap, BuiltInEngines.Name.myers, BuiltInEngines.reference)
    let differencekit = DatasetProfile.differencekit.rawValue
    func row(_ engine: String, _ size: Int, kind: String = "int", allocator: MemoryAllocator = allocator) -> BenchMeasurement? {
        rows.first { $0.engine == engine && $0.profile == differencekit && $0.size == size && $0.kind == kind && $0.allocator == allocator }
    }
    func median(_ engine: String, _ size: Int, kind: String = "int") -> Double? { row(engine, size, kind: kind)?.median }
    var targets: [BenchTarget] = []
    func add(_ name: String, _ goal: String, _ value: Double?, _ met: (Double) -> Bool, note: String = "") {
        guard let value else { return }
        targets.append(BenchTarget(name: name, goal: goal, value: value, met: met(value), note: note))
    }
    let million = 1_000_000
    for kind in ["int", "model"] {
        let label = kind == "int" ? "int ids" : "UUID ids"
        if let h = median(hashmap, million, kind: kind) {
            add("\(hashmap) / hash floor, \(differencekit) 1M, \(label)", "≤ 0.7", median(hashFloorName, million, kind: kind).map { h / $0 }) {
                $0 <= 0.7
            }
            add(
                "\(hashmap) / partitioned floor, \(differencekit) 1M, \(label)", "≤ 1.5",
                median(partitionedFloorName, million, kind: kind).map { h / $0 }
            ) {
                $0 <= 1.5
            }
        }
    }
    // Growth exponents of hashmap's median on differencekit, int ids, under each allocator:
    // 10k→1M and 1M→10M (issue 30's).
    let tenMillion = 10_000_000
    for other in Set(rows.map(\.allocator)).sorted() {
        let growthRows = rows.filter {
            $0.engine == hashmap && $0.profile == differencekit && $0.kind == "int" && $0.allocator == other && $0.median != nil
        }
        func exponent(_ sizes: ClosedRange<Int>) -> Double? {
            let points = growthRows.filter { sizes.contains($0.size) }
            guard points.contains(where: { $0.size == sizes.lowerBound }), points.contains(where: { $0.size == sizes.upperBound }) else {
                return nil
            }
            return growthExponent(points.map { (Double($0.size), $0.median!) })
        }
        add("\(hashmap) growth exponent, \(differencekit) 10k→1M, \(other)", "≤ 1.15", exponent(10_000...million)) { $0 <= 1.15 }
        add("\(hashmap) growth exponent, \(differencekit) 1M→10M, \(other)", "≤ 1.10", exponent(million...tenMillion)) { $0 <= 1.10 }
        if let h = row(hashmap, million, allocator: other)?.median {
            add("\(hashmap) median ms, \(differencekit) 1M, \(other) allocator", "< 100 (context)", h * 1000) { $0 < 100 }
        }
        if let h = row(hashmap, tenMillion, allocator: other)?.median {
            add("\(hashmap) median ms, \(differencekit) 10M, \(other) allocator", "< 1000", h * 1000) { $0 < 1000 }
            add(
                "\(hashmap) / partitioned floor, \(differencekit) 10M, \(other)", "≤ 1.3",
                row(partitionedFloorName, tenMillion, allocator: other)?.median.map { h / $0 }
            ) { $0 <= 1.3 }
        }
    }
    for size in [million, tenMillion] {
        if let two = parallelSpeedups(rows, cores: cores).first(where: {
            $0.threads == 2 && $0.profile == differencekit && $0.kind == "int" && $0.size == size && $0.allocator == allocator
        }) {
            add(
                "\(two.engine) speed-up over \(hashmap), \(differencekit) \(formatCount(Double(size))) (2 threads)", "≥ 1.6", two.speedup,
                { $0 >= 1.6 }, note: "efficiency \(round2(two.efficiency * 100))%")
        }
        if let bytes = rows.first(where: {
            $0.engine == hashmap && $0.profile == differencekit && $0.size == size && $0.kind == "int" && $0.allocatedBytes != nil
        })?.allocatedBytes {
            add("\(hashmap) bytes allocated per element, \(differencekit) \(formatCount(Double(size)))", "≤ 48", bytes / Double(size)) {
                $0 <= 48
            }
        }
    }
    let n = 100_000
    if let h = median(hashmap, n) {
        add("\(hashmap) / hash floor, \(differencekit) 100k", "≤ 2", median(hashFloorName, n).map { h / $0 }) { $0 <= 2 }
        add("\(stdlib) / \(hashmap), \(differencekit) 100k", "≥ 100", median(stdlib, n).map { $0 / h }) { $0 >= 100 }
    }
    if let m = median(myers, n) {
        add("\(stdlib) / \(myers), \(differencekit) 100k", "≥ 10", median(stdlib, n).map { $0 / m }) { $0 >= 10 }
    }
    // myers never slower than stdlib: the worst ratio over every cell where both were measured.
    var worst: (ratio: Double, cell: String)?
    for row in rows where row.engine == myers && row.allocator == allocator {
        guard let m = row.median,
            let s = rows.first(where: { $0.engine == stdlib && $0.datasetCell == row.datasetCell })?.median
        else { continue }
        if worst == nil || m / s > worst!.ratio { worst = (m / s, "\(row.profile) \(row.kind) \(row.size)") }
    }
    if let worst {
        add("\(myers) / \(stdlib), worst cell", "≤ 1 (never slower)", worst.ratio, { $0 <= 1 }, note: worst.cell)
    }
    // hashmap never slower than another engine (its own threaded variants aside) in any cell of
    // the run under this allocator: every profile, element kind and size (issue 46's; issue 30's
    // checked 100k and 1M only).
    var slowest: (ratio: Double, cell: String)?
    for row in rows where row.engine == hashmap && row.allocator == allocator {
        guard let h = row.median else { continue }
        for other in rows
        where other.datasetCell == row.datasetCell && !other.engine.hasPrefix(hashmap) && !BuiltInEngines.floors.contains(other.engine)
            && !other.engine.hasSuffix(BuiltInEngines.Name.stagedSuffix)
        {
            guard let o = other.median, o > 0 else { continue }
            if slowest == nil || h / o > slowest!.ratio {
                slowest = (h / o, "\(row.profile) \(row.kind) \(formatCount(Double(row.size))) against \(other.engine)")
            }
        }
    }
    if let slowest {
        add("\(hashmap) / fastest other engine, worst cell", "≤ 1 (never slower)", slowest.ratio, { $0 <= 1 }, note: slowest.cell)
    }
    // The staged form (issue 46's): within 1.5× of the flat engine plus the staging's own linear
    // pass where the lists keep their ends and nearly nothing changed, the worst cell of the run
    // under this allocator, every kind and size. The staging's own pass is nothing on
    // `unchanged` and `append-one` (no stage copies anything) and one copy of the list on
    // `update-one` (its reload stage's data): the copy floor, measured in the same cell.
    let staged = BuiltInEngines.Name.staged(hashmap)
    let copied = Set([DatasetProfile.updateOne.rawValue])
    let endKeeping = Set([DatasetProfile.unchanged.rawValue, DatasetProfile.appendOne.rawValue]).union(copied)
    var stagedWorst: (ratio: Double, cell: String)?
    for row in rows where row.engine == staged && row.allocator == allocator && endKeeping.contains(row.profile) {
        func median(_ engine: String) -> Double? { rows.first(where: { $0.engine == engine && $0.datasetCell == row.datasetCell })?.median }
        guard let s = row.median, let h = median(hashmap), h > 0 else { continue }
        var allowed = h
        if copied.contains(row.profile) {
            guard let copy = median(copyFloorName) else { continue }
            allowed += copy
        }
        if stagedWorst == nil || s / allowed > stagedWorst!.ratio {
            stagedWorst = (s / allowed, "\(row.profile) \(row.kind) \(formatCount(Double(row.size)))")
        }
    }
    if let worst = stagedWorst {
        add(
            "\(staged) / (\(hashmap) + its own pass), unchanged, append-one, update-one, worst cell", "≤ 1.5", worst.ratio, { $0 <= 1.5 },
            note: worst.cell)
    }
    // Within 1.2× of the trim floor where the lists keep their ends, at 100k and 1M (issue 30's).
    for size in [100_000, million] {
        for row in rows where row.engine == hashmap && row.allocator == allocator && row.size == size {
            let keepsItsEnds = [DatasetProfile.chatAppend, .allUpdated].contains { $0.rawValue == row.profile }
            if keepsItsEnds, let ratio = row.ratioToTrimFloor {
                add("\(hashmap) / trim floor, \(row.profile) \(formatCount(Double(size))), \(row.kind)", "≤ 1.2", ratio) { $0 <= 1.2 }
            }
        }
    }
    // The repeated mode at 1M, on one thread, under each allocator: the worst profile of each
    // figure (issue 30's).
    for other in Set(rows.map(\.allocator)).sorted() {
        let repeated = rows.filter { $0.engine == hashmap && $0.allocator == other && $0.size == million && $0.kind == "int" }
            .flatMap { row in row.repeated.filter { $0.threads == 1 }.map { (row.profile, $0) } }
        func worst(_ value: (BenchRepeated) -> Double?) -> (Double, String)? {
            repeated.compactMap { profile, entry in value(entry).map { ($0, profile) } }.max { $0.0 < $1.0 }
        }
        if let (faults, profile) = worst({ Double($0.reusedFaults) }) {
            add("\(hashmap) repeated, page faults per call at 1M, worst profile, \(other)", "0", faults, { $0 == 0 }, note: profile)
        }
        if let (allocations, profile) = worst({ $0.reusedAllocations.map(Double.init) }) {
            add("\(hashmap) repeated, allocations per call at 1M, worst profile, \(other)", "≤ 4", allocations, { $0 <= 4 }, note: profile)
        }
        if let (ratio, profile) = worst({ $0.ratio }) {
            add("\(hashmap) repeated / one-off call at 1M, worst profile, \(other)", "≤ 0.85", ratio, { $0 <= 0.85 }, note: profile)
        }
    }
    return targets
}

/// The threaded `hashmap` rows (``parallelSpeedups(_:cores:minimumSize:)``) as text: one line
/// per cell of at least the parallel threshold, where threads are used. When threaded rows were
/// measured only below it (a quick run), one line says so instead of printing noise.
package func parallelTable(_ rows: [BenchMeasurement], cores: Int) -> String {
    let speedups = parallelSpeedups(rows, cores: cores)
    guard !speedups.isEmpty else {
        let below = parallelSpeedups(rows, cores: cores, minimumSize: 0)
        guard let largest = below.map(\.size).max() else { return "" }
        return
            "Parallel pairing: not shown. The threaded \(BuiltInEngines.Name.hashmap) variants use threads from \(formatGrouped(Double(hashmapParallelThreshold))) "
            + "old elements; at the sizes measured here (up to \(formatGrouped(Double(largest)))) they run \(BuiltInEngines.Name.hashmap)'s code on the calling thread, "
            + "so a speed-up would measure only noise."
    }
    var lines = [
        "Parallel pairing (speed-up over \(BuiltInEngines.Name.hashmap) on one thread, in the same process; sizes from the parallel threshold, \(formatGrouped(Double(hashmapParallelThreshold))) old elements):"
    ]
    for s in speedups {
        lines.append(
            "  \(s.profile) · \(s.kind) · \(s.size) items · \(s.allocator): \(s.engine) (\(s.threads) threads) ×\(round2(s.speedup)), efficiency \(round2(s.efficiency * 100))%"
        )
    }
    return lines.joined(separator: "\n")
}

/// `hashmap`'s phase table (``BenchMeasurement/phases``): per measured cell, move strategy and
/// thread count, each phase's median in milliseconds and their sum, so the bottleneck is read
/// off, not guessed. Empty when no cell has phases.
///
/// - Complexity: O(rows).
package func phaseTable(_ rows: [BenchMeasurement]) -> String {
    let measured = rows.filter { !$0.phases.isEmpty }
    guard !measured.isEmpty else { return "" }
    let cellWidth = max(8, (measured.map { "\($0.profile) · \($0.kind) · \($0.size) · \($0.allocator)".count }.max() ?? 0) + 2)
    var lines = [
        "\(BuiltInEngines.Name.hashmap) phase by phase (median ms over the calls shown; HashMapEngine.timedDiff):",
        "  " + padded("cell", cellWidth) + padded("moves", 9) + padded("threads", 9) + padded("calls", 7)
            + (BenchPhases.phaseNames + ["total"]).map { padded($0, 11) }.joined(),
    ]
    for row in measured {
        for phases in row.phases {
            let cell = "\(row.profile) · \(row.kind) · \(row.size) · \(row.allocator)"
            let figures = (phases.seconds + [phases.total]).map { padded(formatFixed($0 * 1000, decimals: 3), 11) }.joined()
            lines.append(
                "  " + padded(cell, cellWidth) + padded(phases.moves.rawValue, 9) + padded(String(phases.threads), 9)
                    + padded(String(phases.calls), 7) + figures)
        }
    }
    return lines.joined(separator: "\n")
}

/// The repeated mode's table (``BenchMeasurement/repeated``): per measured cell and thread
/// count, a call through one reused workspace against a one-off call: median milliseconds, their
/// ratio, page faults and allocation requests per call (`-` where not counted), and the bytes
/// the workspace holds. Empty when no cell has the mode.
///
/// - Complexity: O(rows).
package func repeatedTable(_ rows: [BenchMeasurement]) -> String {
    let measured = rows.filter { !$0.repeated.isEmpty }
    guard !measured.isEmpty else { return "" }
    let cellWidth = max(8, (measured.map { "\($0.profile) · \($0.kind) · \($0.size) · \($0.allocator)".count }.max() ?? 0) + 2)
    let columns = ["one-off ms", "reused ms", "ratio", "faults", "reused", "allocs", "reused", "held MB"]
    var lines = [
        "\(BuiltInEngines.Name.hashmap) repeated: one reused HashMapEngine.Workspace against one-off calls (medians per call, interleaved):",
        "  " + padded("cell", cellWidth) + padded("threads", 9) + padded("calls", 7) + columns.map { padded($0, 12) }.joined(),
    ]
    for row in measured {
        for entry in row.repeated {
            let cell = "\(row.profile) · \(row.kind) · \(row.size) · \(row.allocator)"
            let figures = [
                formatFixed(entry.oneOffSeconds * 1000, decimals: 3), formatFixed(entry.reusedSeconds * 1000, decimals: 3),
                entry.ratio.map { formatFixed($0, decimals: 2) } ?? "-", String(entry.oneOffFaults), String(entry.reusedFaults),
                entry.oneOffAllocations.map(String.init) ?? "-", entry.reusedAllocations.map(String.init) ?? "-",
                formatFixed(Double(entry.retainedBytes) / 1_000_000, decimals: 1),
            ]
            lines.append(
                "  " + padded(cell, cellWidth) + padded(String(entry.threads), 9) + padded(String(entry.calls), 7)
                    + figures.map { padded($0, 12) }.joined())
        }
    }
    return lines.joined(separator: "\n")
}

/// A readable table: per dataset cell, each engine's median (± MAD), speed-up over `stdlib`,
/// ratio to the hash floor, and allocation figures.
package func benchTable(_ rows: [BenchMeasurement]) -> String {
    let time = formatSeconds
    let pad = padded
    // The name column fits the longest name (a user's engine may have a long one).
    let nameWidth = max(11, (rows.map(\.engine.count).max() ?? 0) + 1)
    var lines: [String] = []
    var cells: [String] = []
    for row in rows where !cells.contains(row.datasetCell) { cells.append(row.datasetCell) }
    for cell in cells {
        let group = rows.filter { $0.datasetCell == cell }
        let first = group[0]
        lines.append("\(first.profile) · \(first.kind) · \(first.size) items · \(first.allocator)")
        let stdlib = group.first { $0.engine == BuiltInEngines.reference }?.median
        let floor = group.first { $0.engine == hashFloorName }?.median
        for row in group {
            guard let median = row.median else {
                lines.append("  " + pad(row.engine, nameWidth) + "skipped: \(row.skipped ?? "")")
                continue
            }
            var text =
                "  " + pad(row.engine, nameWidth) + pad(time(median) + (row.timing == .selfTimed ? " †" : ""), 11)
                + pad("± \(time(row.mad ?? 0))", 13)
            text += pad(stdlib.map { "×\(round2($0 / median)) vs \(BuiltInEngines.reference)" } ?? "", 20)
            text += pad(floor.map { "\(round2(median / $0))× floor" } ?? "", 14)
            if let bytes = row.allocatedBytes, let requests = row.allocationRequests {
                text += "\(formatBytes(bytes)) in \(formatGrouped(requests)) allocations"
            }
            lines.append(text)
        }
    }
    if rows.contains(where: { $0.isMeasured && $0.timing == .selfTimed }) { lines.append(BenchTiming.footnote) }
    return lines.joined(separator: "\n")
}

/// `x` rounded to three significant digits, as text (for tables): ``formatSignificant(_:_:)``.
package func round2(_ x: Double) -> String { formatSignificant(x) }
