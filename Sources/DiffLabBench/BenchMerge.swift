import DiffLabCore
import DiffLabResults

/// Why `difflab merge` refused its inputs.
public struct BenchMergeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each reason, naming the file and the field that differs.
    public var reasons: [String]
    /// Whether `--force` would merge anyway (false for a cell measured twice, which no merge can
    /// resolve).
    public var forcible: Bool

    /// `cannot merge: …; …`.
    public var description: String {
        "cannot merge: " + reasons.joined(separator: "; ") + (forcible ? " (--force merges anyway)" : "")
    }
}

/// Joins the parts of a sharded benchmark run (`difflab bench --shard K/N`) into one results
/// file, equal to what the unsharded run would have written in cells, options and schema.
///
/// The parts must come from one run: the same commit, toolchain, machine (its CPU model, cores
/// and memory: CI jobs run on different hosts and kernels), allocators, options (but the shard
/// fields) and shard count,
/// each part once, every part present. Unless `force`, any difference is refused, naming the
/// files and the field; with `force` the merge goes on and the result's options keep the parts
/// it holds. A cell measured in two inputs is always refused.
///
/// The result: the inputs' measurements in the unsharded run's order (allocators, then kinds,
/// profiles and sizes in option order), ratios recomputed from the same references, growth fits
/// and targets computed over every size, allocators joined, `seconds` the sum of the parts'
/// (machine time, not wall time), `createdAt` the latest.
///
/// - Throws: ``BenchMergeError``.
/// - Complexity: O(total measurements log total measurements).
public func mergeBenchResults(_ parts: [BenchResults], force: Bool = false) throws(BenchMergeError) -> BenchResults {
    guard let first = parts.first else { throw BenchMergeError(reasons: ["no files"], forcible: false) }
    var reasons = provenanceDifferences(parts, first)
    let counts = Set(parts.map(\.options.shardCount))
    if counts.count > 1 {
        reasons.append(
            "the files were sharded differently (shardCount \(counts.map { $0.map(String.init) ?? "none" }.sorted().joined(separator: ", ")))")
    }
    let given = parts.flatMap { $0.options.shardParts ?? [] }
    var seen: Set<Int> = []
    let repeated = given.filter { !seen.insert($0).inserted }
    if !repeated.isEmpty { reasons.append("part \(repeated.map(String.init).joined(separator: ", ")) given twice") }
    let count = first.options.shardCount
    let missing = count.map { Array(Set(1...$0).subtracting(seen)).sorted() } ?? []
    if !missing.isEmpty, let count { reasons.append("part \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing") }
    var cells: [String: String] = [:]
    for part in parts {
        for m in part.measurements {
            if let other = cells.updateValue(part.source, forKey: m.exportName) {
                throw BenchMergeError(reasons: ["\(m.exportName) is in both \(other) and \(part.source)"], forcible: false)
            }
        }
    }
    if !reasons.isEmpty && !force { throw BenchMergeError(reasons: reasons, forcible: true) }

    var merged = BenchResults()
    merged.provenance = first.provenance
    merged.options = first.options.unsharded
    if !missing.isEmpty || !repeated.isEmpty || counts.count > 1 {
        // A forced merge keeps the parts it holds, counted against the largest shard count, so
        // the file reads back (every part at most the count).
        let largest = counts.compactMap { $0 }.max()
        merged.options.shardParts = largest == nil ? nil : Array(seen).sorted()
        merged.options.shardCount = largest
    }
    merged.provenance.createdAt = parts.compactMap(\.provenance.createdAt).max()
    // Machine time, capped at the field's range (a file whose sum exceeded it could not be read).
    merged.provenance.seconds =
        parts.allSatisfy { $0.provenance.seconds != nil } ? min(parts.compactMap(\.provenance.seconds).reduce(0, +), 1e7) : nil
    for allocator in parts.flatMap(\.allocators) where !merged.allocators.contains(where: { $0.name == allocator.name }) {
        merged.allocators.append(allocator)
    }
    merged.measurements = addRatios(canonicalOrder(parts.flatMap(\.measurements), options: merged.options, allocators: merged.allocators))
    merged.scaling = scalingFits(merged.measurements)
    let cores = first.provenance.machine.first { $0.name == "cores" }.flatMap { Int($0.value) } ?? availableCores()
    merged.targets = benchTargets(merged.measurements, allocator: merged.allocators.first?.name ?? .jemalloc, cores: cores)
    return merged
}

/// What differs between `parts` and `first` besides the shard fields, naming the files.
private func provenanceDifferences(_ parts: [BenchResults], _ first: BenchResults) -> [String] {
    var reasons: [String] = []
    func differ(_ field: String, _ value: (BenchResults) -> String) {
        for part in parts.dropFirst() where value(part) != value(first) {
            reasons.append("\(field) differs: \(first.source) has \(value(first)), \(part.source) has \(value(part))")
        }
    }
    differ("commit") { $0.provenance.commit ?? "none" }
    differ("dirty") { $0.provenance.dirty.map { "\($0)" } ?? "unknown" }
    differ("toolchain") { $0.provenance.toolchain ?? "none" }
    differ("machine") { results in
        results.provenance.machine.filter { ["cpu", "cores", "memoryBytes"].contains($0.name) }.map { "\($0.name)=\($0.value)" }.joined(
            separator: ", ")
    }
    differ("allocators") { $0.allocators.map(\.name.rawValue).joined(separator: ", ") }
    // Options: name the members that differ, not the whole objects.
    for part in parts.dropFirst() {
        let keys = first.options.unsharded.differingMembers(from: part.options.unsharded)
        if !keys.isEmpty {
            reasons.append("options differ in \(keys.joined(separator: ", ")): \(first.source) and \(part.source)")
        }
    }
    return reasons
}

/// `measurements` in the unsharded run's order: allocators, then kinds, profiles and sizes in
/// the options' order; within one cell group, the order they came in (the subjects' order).
private func canonicalOrder(_ measurements: [BenchMeasurement], options: BenchRunOptions, allocators: [BenchAllocator]) -> [BenchMeasurement] {
    func rank<T: Equatable>(_ list: [T]?, _ value: T) -> Int { list?.firstIndex(of: value) ?? Int.max }
    let allocatorNames = allocators.map(\.name)
    let keyed = measurements.enumerated().map { index, m in
        ([rank(allocatorNames, m.allocator), rank(options.kinds, m.kind), rank(options.profiles, m.profile), m.size, index], m)
    }
    return keyed.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
}
