import DiffLabEngines
import DiffLabResults
import Testing

@testable import DiffLabBench

@Suite("Benchmark cells")
struct BenchCellTests {
    @Test func validateCellParsesAndRuns() throws {
        let cell = try BenchCell(parsing: "validate:differencekit:int:1000")
        #expect(cell.subject == validateSubjectName)
        #expect(cell.size == 1_000)
        #expect(cell.description == "validate:differencekit:int:1000")
        _ = try cell.makeCall(seed: 1).run()
    }

    /// An absurd size made the measure worker try to generate 10^12 items (a hang, then out of
    /// memory); sizes are now checked against a documented range.
    @Test(arguments: ["999999999999", "10000001", "0", "-5", "99999999999999999999999", "1e6", ""])
    func sizeOutsideTheRangeIsRejected(size: String) {
        #expect(throws: BenchCellError.badSize(size)) { try BenchCell(parsing: "hashmap:differencekit:int:" + size) }
        #expect(BenchCellError.badSize(size).description == "cell size '\(size)' is not an integer from 1 to 10000000")
    }

    @Test func sizesAtTheBoundsAreAccepted() throws {
        #expect(try BenchCell(parsing: "hashmap:differencekit:int:1").size == 1)
        #expect(try BenchCell(parsing: "hash-floor:reverse:model:10000000").size == BenchCell.allowedSizes.upperBound)
    }

    /// The benchmark's built-ins are the table's benchmarked rows, each with its growth class,
    /// and right after each staged row its staged form (issue 46: the staged cell).
    @Test func builtInsAreTheTablesBenchmarkedEngines() {
        var expected: [(String, Double)] = []
        for row in BuiltInEngines.entries {
            if row.uses.contains(.benchmarked) { expected.append((row.name, row.growth.exponent)) }
            if row.uses.contains(.staged) { expected.append((BuiltInEngines.Name.staged(row.name), row.growth.exponent)) }
        }
        #expect(BenchSubject.builtIns.map(\.name) == expected.map(\.0))
        #expect(BenchSubject.builtIns.map(\.growthExponent) == expected.map(\.1))
        #expect(BenchSubject.builtIns.map(\.name) == ["heckel", "hashmap", "hashmap-staged", "hashmap-parallel", "myers", "stdlib"])
    }

    @Test func unknownSubjectNamesTheSubjects() {
        #expect(throws: BenchCellError.unknownSubject("validator", known: BenchSubject.builtIns.map(\.name))) {
            try BenchCell(parsing: "validator:differencekit:int:10")
        }
        #expect(
            BenchCellError.unknownSubject("x", known: ["mine"]).description.contains(
                "mine, hash-floor, partitioned-floor, trim-floor, copy-floor, validate"))
    }
}

/// Found by an outside package's bench run (issue 11): `map(Double.init)` on the UInt64 allocation
/// counts picked `Double(bitPattern:)`, so 10,240 bytes were written as 5.06e-320 and every table
/// and report showed zero allocations.
@Suite("Bench records keep allocation counts")
struct AllocationRecordTests {
    @Test func allocationCountsAreConvertedByValue() throws {
        let measurement = SampledMeasurement(
            samples: [1e-3, 2e-3], cpuSamples: [], callsPerSample: 1, allocatedBytes: 10_240, allocationRequests: 3,
            peakRSSBytes: 1 << 20)
        var written = BenchMeasurement(engine: "hashmap", profile: "reverse", size: 100, kind: "int", allocator: .jemalloc)
        written.take(measurement)
        #expect(written.allocatedBytes == 10_240)
        #expect(written.allocationRequests == 3)
    }
}
