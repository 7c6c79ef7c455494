import DiffLabCore
import DiffLabEngines
import DiffLabTestSupport
import Testing

/// The one table of built-in engines (issue 27): every list of built-ins reads it.
@Suite struct BuiltInEnginesTests {
    @Test func theTableListsEveryEngineOnceWithItsGrowthAndUses() {
        let entries = BuiltInEngines.entries
        #expect(
            entries.map(\.name) == [
                "heckel", "hashmap", "hashmap-parallel", "hashmap-partitioned", "hashmap-untrimmed", "hashmap-reused", "myers", "stdlib",
            ])
        #expect(Set(entries.map(\.name)).count == entries.count)
        #expect(entries.map(\.growth) == [.nearLinear, .nearLinear, .nearLinear, .nearLinear, .nearLinear, .nearLinear, .quadratic, .quadratic])
        // hashmap-untrimmed is in no default set: it is measured beside hashmap by name.
        #expect(entries.first { $0.name == "hashmap-untrimmed" }?.uses == [])
        #expect(
            entries.filter { $0.uses.contains(.fuzzed) }.map(\.name) == [
                "heckel", "hashmap", "hashmap-partitioned", "hashmap-reused", "myers", "stdlib",
            ])
        #expect(entries.filter { $0.uses.contains(.benchmarked) }.map(\.name) == ["heckel", "hashmap", "hashmap-parallel", "myers", "stdlib"])
    }

    @Test func growthClassesProjectWithTheBenchmarksExponents() {
        #expect(EngineGrowth.nearLinear.exponent == 1.2)
        #expect(EngineGrowth.quadratic.exponent == 2)
    }

    @Test func theTestsEnginesAreTheTables() {
        #expect(builtInEngines.map(\.name) == BuiltInEngines.entries.map(\.name))
    }
}
