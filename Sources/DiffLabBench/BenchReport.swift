import DiffLabJSON

/// The JSON schema of `difflab bench` results.
public let benchSchema = "difflab-bench/1"

extension BenchRecord {
    /// The record as a JSON measurement object: names its `engine`, `profile`, `size`, element
    /// `kind` and `allocator`, carries its `median` time in seconds, the other statistics, every
    /// sample, CPU time, allocation figures and move counts; or the `skipped` reason.
    public var json: JSONValue {
        var object = JSONObject([
            ("engine", .string(engine)), ("profile", .string(profile.rawValue)), ("size", .integer(size)),
            ("kind", .string(kind.rawValue)), ("allocator", .string(allocator)),
        ])
        if let skipped { object["skipped"] = .string(skipped) }
        if let m = measurement {
            let s = m.statistics
            object["median"] = JSONValue(s.median)
            object["min"] = JSONValue(s.min)
            object["p90"] = JSONValue(s.p90)
            object["p99"] = JSONValue(s.p99)
            object["mad"] = JSONValue(s.mad)
            object["cpuMedian"] = JSONValue(SampleStatistics(m.cpuSamples).median)
            object["callsPerSample"] = .integer(m.callsPerSample)
            object["allocatedBytes"] = m.allocatedBytes.map { .integer(Int($0)) } ?? .null
            object["allocationRequests"] = m.allocationRequests.map { .integer(Int($0)) } ?? .null
            object["peakRSSBytes"] = .integer(m.peakRSSBytes)
            object["samples"] = .array(m.samples.map { JSONValue($0) })
            object["cpuSamples"] = .array(m.cpuSamples.map { JSONValue($0) })
        }
        if let changeCount { object["changeCount"] = .integer(changeCount) }
        if let offsetsMoves { object["offsetsMoves"] = .integer(offsetsMoves) }
        if let minimalMoves { object["minimalMoves"] = .integer(minimalMoves) }
        return .object(object)
    }
}

/// A measurement read back from JSON, for ratios, scaling fits, targets and the table.
public struct BenchRow: Sendable {
    public var engine: String
    public var profile: String
    public var size: Int
    public var kind: String
    public var allocator: String
    public var median: Double?
    public var mad: Double?
    public var allocatedBytes: Int?
    public var allocationRequests: Int?
    public var skipped: String?

    /// Reads a measurement object; `nil` when it lacks the naming fields.
    public init?(_ json: JSONValue) {
        guard let engine = json["engine"]?.stringValue, let profile = json["profile"]?.stringValue,
            let size = json["size"]?.intValue, let kind = json["kind"]?.stringValue,
            let allocator = json["allocator"]?.stringValue
        else { return nil }
        self.engine = engine
        self.profile = profile
        self.size = size
        self.kind = kind
        self.allocator = allocator
        median = json["median"]?.doubleValue
        mad = json["mad"]?.doubleValue
        allocatedBytes = json["allocatedBytes"]?.intValue
        allocationRequests = json["allocationRequests"]?.intValue
        skipped = json["skipped"]?.stringValue
    }

    /// The dataset cell: profile, kind, size and allocator.
    var cell: String { "\(profile)|\(kind)|\(size)|\(allocator)" }
}

/// Adds to every measurement its speed-up over the `stdlib` reference (`speedupOverStdlib` =
/// stdlib median / median) and its ratio to the hash floor (`ratioToFloor` = median / floor
/// median), both from the same process and dataset.
public func addRatios(_ measurements: [JSONValue]) -> [JSONValue] {
    let rows = measurements.compactMap(BenchRow.init)
    var stdlib: [String: Double] = [:]
    var floor: [String: Double] = [:]
    for row in rows {
        if row.engine == "stdlib", let m = row.median { stdlib[row.cell] = m }
        if row.engine == hashFloorName, let m = row.median { floor[row.cell] = m }
    }
    return measurements.map { json in
        guard var object = json.objectValue, let row = BenchRow(json), let median = row.median else { return json }
        if let s = stdlib[row.cell] { object["speedupOverStdlib"] = JSONValue(s / median) }
        if let f = floor[row.cell] { object["ratioToFloor"] = JSONValue(median / f) }
        return .object(object)
    }
}

/// Growth exponents (log-log slope of median time against size) per engine, profile, kind and
/// allocator, over all measured sizes, plus `hashmap`'s from 10k to 1M.
public func scalingFits(_ rows: [BenchRow]) -> [JSONValue] {
    var groups: [String: [BenchRow]] = [:]
    for row in rows where row.median != nil {
        groups["\(row.engine)|\(row.profile)|\(row.kind)|\(row.allocator)", default: []].append(row)
    }
    return groups.keys.sorted().compactMap { key in
        let group = groups[key]!.sorted { $0.size < $1.size }
        guard let exponent = growthExponent(group.map { (Double($0.size), $0.median!) }) else { return nil }
        let bytes = group.filter { $0.allocatedBytes != nil }
        let bytesExponent = growthExponent(bytes.map { (Double($0.size), Double(max($0.allocatedBytes!, 1))) })
        return .object(
            JSONObject([
                ("engine", .string(group[0].engine)), ("profile", .string(group[0].profile)),
                ("kind", .string(group[0].kind)), ("allocator", .string(group[0].allocator)),
                ("sizes", .array(group.map { .integer($0.size) })), ("timeExponent", JSONValue(exponent)),
                ("bytesExponent", bytesExponent.map { JSONValue($0) } ?? .null),
            ]))
    }
}

/// One of the bench issue's targets, as measured.
public struct BenchTarget: Sendable {
    public var name: String
    public var goal: String
    public var value: Double?
    public var met: Bool?
    public var note: String
}

/// The targets, measured on `int` elements of `differencekit` under `allocator`.
public func benchTargets(_ rows: [BenchRow], allocator: String) -> [BenchTarget] {
    func median(_ engine: String, _ size: Int, _ profile: String = "differencekit") -> Double? {
        rows.first { $0.engine == engine && $0.profile == profile && $0.size == size && $0.kind == "int" && $0.allocator == allocator }?.median
    }
    var targets: [BenchTarget] = []
    let n = 100_000
    if let h = median("hashmap", n), let f = median(hashFloorName, n) {
        targets.append(BenchTarget(name: "hashmap / hash floor, differencekit 100k", goal: "≤ 2", value: h / f, met: h / f <= 2, note: ""))
    }
    if let h = median("hashmap", n), let s = median("stdlib", n) {
        targets.append(BenchTarget(name: "stdlib / hashmap, differencekit 100k", goal: "≥ 100", value: s / h, met: s / h >= 100, note: ""))
    }
    if let h = median("hashmap", 1_000_000) {
        targets.append(BenchTarget(name: "hashmap median ms, differencekit 1M", goal: "< 150", value: h * 1000, met: h < 0.150, note: ""))
    }
    let hashmapRows = rows.filter {
        $0.engine == "hashmap" && $0.profile == "differencekit" && $0.kind == "int" && $0.allocator == allocator
            && $0.size >= 10_000 && $0.median != nil
    }
    if hashmapRows.contains(where: { $0.size == 1_000_000 }), let e = growthExponent(hashmapRows.map { (Double($0.size), $0.median!) }) {
        targets.append(BenchTarget(name: "hashmap growth exponent, differencekit 10k→1M", goal: "≤ 1.1", value: e, met: e <= 1.1, note: ""))
    }
    if let m = median("myers", n), let s = median("stdlib", n) {
        targets.append(BenchTarget(name: "stdlib / myers, differencekit 100k", goal: "≥ 10", value: s / m, met: s / m >= 10, note: ""))
    }
    // myers never slower than stdlib: the worst ratio over every cell where both were measured.
    var worst: (ratio: Double, cell: String)?
    for row in rows where row.engine == "myers" && row.allocator == allocator {
        guard let m = row.median,
            let s = rows.first(where: { $0.engine == "stdlib" && $0.cell == row.cell })?.median
        else { continue }
        if worst == nil || m / s > worst!.ratio { worst = (m / s, "\(row.profile) \(row.kind) \(row.size)") }
    }
    if let worst {
        targets.append(
            BenchTarget(
                name: "myers / stdlib, worst cell", goal: "≤ 1 (never slower)", value: worst.ratio, met: worst.ratio <= 1,
                note: worst.cell))
    }
    return targets
}

extension BenchTarget {
    /// The target as JSON.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("name", .string(name)), ("goal", .string(goal)), ("value", value.map { JSONValue($0) } ?? .null),
                ("met", met.map { .bool($0) } ?? .null), ("note", .string(note)),
            ]))
    }
}

/// A readable table: per dataset cell, each engine's median (± MAD), speed-up over `stdlib`,
/// ratio to the hash floor, and allocation figures.
public func benchTable(_ rows: [BenchRow]) -> String {
    func time(_ seconds: Double) -> String {
        if seconds >= 1 { return "\(round2(seconds)) s" }
        if seconds >= 1e-3 { return "\(round2(seconds * 1e3)) ms" }
        return "\(round2(seconds * 1e6)) µs"
    }
    func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
    var lines: [String] = []
    var cells: [String] = []
    for row in rows where !cells.contains(row.cell) { cells.append(row.cell) }
    for cell in cells {
        let group = rows.filter { $0.cell == cell }
        let first = group[0]
        lines.append("\(first.profile) · \(first.kind) · \(first.size) items · \(first.allocator)")
        let stdlib = group.first { $0.engine == "stdlib" }?.median
        let floor = group.first { $0.engine == hashFloorName }?.median
        for row in group {
            guard let median = row.median else {
                lines.append("  " + pad(row.engine, 11) + "skipped: \(row.skipped ?? "")")
                continue
            }
            var text = "  " + pad(row.engine, 11) + pad(time(median), 11) + pad("± \(time(row.mad ?? 0))", 13)
            text += pad(stdlib.map { "×\(round2($0 / median)) vs stdlib" } ?? "", 20)
            text += pad(floor.map { "\(round2(median / $0))× floor" } ?? "", 14)
            if let bytes = row.allocatedBytes, let requests = row.allocationRequests {
                text += "\(bytes / 1024) KiB in \(requests) allocations"
            }
            lines.append(text)
        }
    }
    return lines.joined(separator: "\n")
}

/// `x` rounded to about three significant digits, as text (for tables).
public func round2(_ x: Double) -> String {
    let digits = x >= 100 ? 0 : x >= 10 ? 1 : 2
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (x * scale).rounded() / scale
    if digits == 0 { return String(Int(rounded)) }
    var text = String(rounded)
    if text.hasSuffix(".0") && digits > 0 { text = String(text.dropLast(2)) }
    return text
}
