import DiffLabBench
import DiffLabCore
import DiffLabEngines
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Benchmark datasets and harness")
struct BenchTests {
    @Test(arguments: DatasetProfile.allCases)
    func datasetsAreDeterministicAndShaped(profile: DatasetProfile) {
        let a = AbstractDataset(profile, size: 2_000, seed: 1)
        let b = AbstractDataset(profile, size: 2_000, seed: 1)
        #expect(a.old.map(\.id) == b.old.map(\.id) && a.new.map(\.id) == b.new.map(\.id))
        #expect(a.new.map(\.revision) == b.new.map(\.revision))
        #expect(a.old.count == 2_000)
        if profile != .duplicates {
            #expect(Set(a.old.map(\.id)).count == a.old.count)
            #expect(Set(a.new.map(\.id)).count == a.new.count)
        }
        switch profile {
        case .differencekit:
            #expect(a.new.count == 2_000)
            #expect(Set(a.old.map(\.id)).subtracting(a.new.map(\.id)).count == 200)
        case .allUpdated:
            #expect(a.new.map(\.id) == a.old.map(\.id))
            #expect(a.new.allSatisfy { $0.revision == 1 })
        case .reverse:
            #expect(a.new.map(\.id) == a.old.map(\.id).reversed())
        case .reorderHeavy:
            #expect(Set(a.new.map(\.id)) == Set(a.old.map(\.id)))
            #expect(a.new.map(\.id) != a.old.map(\.id))
        case .feedRefresh:
            #expect(a.new.count == 2_000)
            #expect(a.new[100].id == a.old[0].id)
        case .duplicates:
            #expect(Set(a.old.map(\.id)).count <= 16)
        default:
            break
        }
    }

    @Test func elementKindsKeepIdentityAndContent() {
        let d = AbstractDataset(.smallEdit, size: 500, seed: 3)
        let ints = d.ints()
        let models = d.models()
        let objects = d.objects()
        let reference = HeckelEngine().diff(from: ints.old, to: ints.new)
        #expect(HeckelEngine().diff(from: models.old, to: models.new) == reference)
        #expect(HeckelEngine().diff(from: objects.old, to: objects.new, comparison: .identity) == reference)
    }

    @Test func statistics() {
        let s = SampleStatistics([5, 1, 4, 2, 3, 100, 3, 3, 2, 4])
        #expect(s.median == 3)
        #expect(s.min == 1)
        #expect(s.p90 == 5)
        #expect(s.p99 == 100)
        #expect(s.mad == 1)
    }

    @Test func growthExponentFitsAPowerLaw() {
        let points = [1_000.0, 10_000, 100_000].map { (x: $0, y: 3 * pow($0, 1.5)) }
        let exponent = growthExponent(points) ?? .nan
        #expect(abs(exponent - 1.5) < 1e-9)
        #expect(growthExponent([(x: 1, y: 1)]) == nil)
    }

    @Test func hashFloorCountsSharedIdentifiers() {
        let d = AbstractDataset(.differencekit, size: 1_000, seed: 2).ints()
        #expect(hashFloor(d.old, d.new) == 900)
        #expect(hashFloor([IntElement](), d.new) == 0)
    }

    @Test func measureKeepsEverySample() {
        var calls = 0
        let m = measure(budget: 0.001, minSamples: 5, maxSamples: 8) { calls += 1 }
        #expect(m.samples.count >= 5 && m.samples.count <= 8)
        #expect(m.cpuSamples.count == m.samples.count)
        #expect(calls >= m.samples.count * m.callsPerSample)
        #expect(m.peakRSSBytes > 0)
    }

    @Test func runBenchMeasuresReferenceAndFloorBesideEveryEngine() {
        var options = BenchOptions(engines: [.hashmap], profiles: [.differencekit, .reverse], sizes: [200, 400], budget: 0.002, maxSamples: 5)
        options.maxCallSeconds = 10
        let records = runBench(options, allocator: "system")
        #expect(records.count == 2 * 2 * 3)
        #expect(Set(records.map(\.engine)) == [hashFloorName, "hashmap", "stdlib"])
        let rows = addRatios(records.map(\.json)).compactMap(BenchRow.init)
        #expect(rows.count == records.count)
        let json = addRatios(records.map(\.json))
        let hashmap = json.first { $0["engine"]?.stringValue == "hashmap" }
        #expect(hashmap?["median"]?.doubleValue != nil)
        #expect(hashmap?["speedupOverStdlib"]?.doubleValue != nil)
        #expect(hashmap?["ratioToFloor"]?.doubleValue != nil)
        #expect(hashmap?["samples"]?.arrayValue?.isEmpty == false)
        #expect(hashmap?["offsetsMoves"]?.intValue != nil)
        #expect(scalingFits(rows).count == 6)  // 3 subjects × 2 profiles
        #expect(benchTable(rows).contains("differencekit · int · 200 items · system"))
    }

    @Test func slowMeasurementsAreSkippedWithAReason() {
        var options = BenchOptions(engines: [.myers], profiles: [.reverse], sizes: [300, 30_000], budget: 0.002, maxSamples: 3)
        options.maxCallSeconds = 0.001
        let records = runBench(options, allocator: "system")
        let skipped = records.filter { $0.size == 30_000 && ($0.engine == "myers" || $0.engine == "stdlib") }
        #expect(skipped.count == 2)
        #expect(skipped.allSatisfy { $0.measurement == nil && $0.skipped?.contains("projected") == true })
    }
}
