import DiffLabCore
import DiffLabEngines
import DiffLabTestSupport
import Foundation
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

    /// The gate's and the arena's default engines are sets of the table (issue 44), not lists
    /// typed where they are used.
    @Test func theGatesAndTheArenasDefaultsAreSetsOfTheTable() {
        #expect(BuiltInEngines.names(in: .gated) == ["heckel", "hashmap", "myers"])
        #expect(BuiltInEngines.names(in: .contested) == ["heckel", "hashmap", "myers", "stdlib"])
        #expect(BuiltInEngines.names(in: [.gated, .contested]) == ["heckel", "hashmap", "myers"])
        #expect(BuiltInEngines.names(in: []) == BuiltInEngines.entries.map(\.name))
        #expect(BuiltInEngines.Uses.all == [.fuzzed, .benchmarked, .gated, .contested])
        #expect(BuiltInEngines.names(in: .staged) == ["hashmap"])
        #expect(BuiltInEngines.Name.staged("hashmap") == "hashmap-staged")
        #expect(BuiltInEngines.reference == "stdlib")
        #expect(BuiltInEngines.arenaBaseline == "hashmap")
        #expect(BuiltInEngines.floors == ["hash-floor", "partitioned-floor", "trim-floor", "copy-floor"])
        // The reference and the baseline are engines of the table; the floors are not.
        let names = Set(BuiltInEngines.entries.map(\.name))
        #expect(names.contains(BuiltInEngines.reference) && names.contains(BuiltInEngines.arenaBaseline))
        #expect(names.isDisjoint(with: BuiltInEngines.floors))
    }

    /// Each engine's own name is its constant, so a name is written once.
    @Test func theEnginesNamesAreTheNameConstants() {
        typealias Name = BuiltInEngines.Name
        #expect(HeckelEngine().name == Name.heckel)
        #expect(HashMapEngine().name == Name.hashmap)
        #expect(HashMapEngine.parallel(threads: 3).name == Name.hashmapParallel)
        #expect(HashMapEngine.partitionedEverywhere.name == Name.hashmapPartitioned)
        #expect(HashMapEngine.untrimmed.name == Name.hashmapUntrimmed)
        #expect(HashMapEngine.reusedEverywhere.name == Name.hashmapReused)
        #expect(MyersEngine().name == Name.myers)
        #expect(StdlibEngine().name == Name.stdlib)
        #expect(
            BuiltInEngines.entries.map(\.name) == [
                Name.heckel, Name.hashmap, Name.hashmapParallel, Name.hashmapPartitioned, Name.hashmapUntrimmed, Name.hashmapReused, Name.myers,
                Name.stdlib,
            ])
    }

    /// `hashmap-<t>t` is made and read by one pair of functions.
    @Test func hashmapsThreadNamesRoundTrip() {
        typealias Name = BuiltInEngines.Name
        #expect(HashMapEngine(partitioning: .measured, threads: 4).name == "hashmap-4t")
        #expect(HashMapEngine(partitioning: .measured, threads: 1).name == "hashmap")
        #expect(HashMapEngine(partitioning: .measured, threads: 500).name == "hashmap-64t")
        #expect(Name.hashmap(threads: 0) == "hashmap")
        for threads in [2, 8, 64] { #expect(Name.hashmapThreads(named: Name.hashmap(threads: threads), cores: 1) == threads) }
        #expect(Name.hashmapThreads(named: "hashmap", cores: 16) == 1)
        #expect(Name.hashmapThreads(named: "hashmap-parallel", cores: 16) == 16)
        #expect(Name.hashmapThreads(named: "hashmap-parallel", cores: 1000) == HashMapEngine.threadRange.upperBound)
        #expect(Name.hashmapThreads(named: "hashmap-parallel", cores: 0) == 1)
        #expect(Name.hashmapThreads(named: "hashmap-128t", cores: 1) == 128)  // as a results file may name it
        for other in ["hashmap-0t", "hashmap-t", "hashmap-xt", "hashmap-4", "hashmap-untrimmed", "heckel", "", "hashmap-4tt"] {
            #expect(Name.hashmapThreads(named: other, cores: 4) == nil, "\(other)")
        }
    }

    /// The table in `BuiltInEngines`' documentation is the table `visitAll` visits: same names,
    /// order, growth and uses.
    @Test func theDocumentedTableIsTheTable() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/DiffLabEngines/BuiltInEngines.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        var rows: [(name: String, growth: String, uses: String)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("/// | `") {
            let cells = line.dropFirst(4).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { continue }
            rows.append((cells[0].trimmingCharacters(in: ["`"]), cells[2], cells[3]))
        }
        func growthText(_ growth: EngineGrowth) -> String {
            switch growth {
            case .nearLinear: "near-linear"
            case .quadratic: "quadratic"
            }
        }
        func usesText(_ uses: BuiltInEngines.Uses) -> String {
            let named: [(BuiltInEngines.Uses, String)] = [
                (.fuzzed, "fuzzed"), (.benchmarked, "benchmarked"), (.gated, "gated"), (.contested, "contested"),
            ]
            let words = named.filter { uses.contains($0.0) }.map(\.1)
            return words.isEmpty ? "by name only" : words.joined(separator: ", ")
        }
        let entries = BuiltInEngines.entries
        try #require(rows.count == entries.count, "the documented table has \(rows.count) rows, the table \(entries.count)")
        for (row, entry) in zip(rows, entries) {
            #expect(row.name == entry.name)
            #expect(row.growth == growthText(entry.growth), "\(entry.name)")
            #expect(row.uses == usesText(entry.uses), "\(entry.name)")
        }
    }

    @Test func growthClassesProjectWithTheBenchmarksExponents() {
        #expect(EngineGrowth.nearLinear.exponent == 1.2)
        #expect(EngineGrowth.quadratic.exponent == 2)
    }

    @Test func theTestsEnginesAreTheTables() {
        #expect(builtInEngines.map(\.name) == BuiltInEngines.entries.map(\.name))
    }
}
