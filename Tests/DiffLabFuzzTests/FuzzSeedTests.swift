import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabResults
import Testing

@Suite("Fuzzing from a recorded trace's pairs")
struct FuzzSeedTests {
    static func trace(_ versions: [[String]]) -> Trace {
        var trace = Trace(provenance: TraceProvenance(source: "s", tool: "t", date: "d", ids: "i", contents: "c"))
        for version in versions { trace.append(version.map { (id: $0, content: $0 == "b" ? "changed" : "") }) }
        return trace
    }

    @Test func seedsAreConsecutiveDifferingPairsRenumbered() {
        let trace = Self.trace([["a", "x", "a"], ["a", "x", "a"], ["x", "a", "b", "a"]])
        let seeds = FuzzSeed.seeds(of: trace, name: "t", maxSize: 10)
        #expect(seeds.count == 1, "identical versions give no seed")
        #expect(seeds[0].old.map(\.id) == [0, 1, 0], "identifiers in order of first appearance; duplicates kept")
        #expect(seeds[0].new.map(\.id) == [1, 0, 2, 0])
        #expect(seeds[0].new[2].content != seeds[0].new[0].content)
        #expect(seeds[0].origin.contains("pair 1 of t"))
    }

    @Test func longPairsAreCutAroundTheirFirstDifference() {
        let old = (0..<100).map { "i\($0)" }
        var new = old
        new[60] = "changed-line"
        let seeds = FuzzSeed.seeds(of: Self.trace([old, new]), name: "t", maxSize: 8)
        #expect(seeds[0].old.count == 8 && seeds[0].new.count == 8)
        #expect(seeds[0].origin.contains("items 58..<66"))
        #expect(seeds[0].old != seeds[0].new, "the window holds the difference")
        let many = FuzzSeed.seeds(of: Self.trace((0..<50).map { ["v\($0)"] }), name: "t", maxSize: 4, limit: 7)
        #expect(many.count == 7)
    }

    @Test func theFirstInputsAreTheSeedsThenMutatedSeedsAndGeneratedOnes() {
        var options = FuzzOptions(seed: 3)
        // Six items or more: generated inputs of the first 200 (sizes up to 4) cannot look like them.
        options.seeds = FuzzSeed.seeds(
            of: Self.trace([["a", "b", "c", "e", "f", "g"], ["c", "a", "d", "e", "f", "g", "h"], ["d", "c", "e", "f", "g", "h"]]), name: "t",
            maxSize: 24)
        #expect(options.seeds.count == 2)
        for (index, seed) in options.seeds.enumerated() {
            var source = options.source(ofInput: index)
            let input = options.input(&source, size: options.size(ofInput: index))
            #expect(input.old == seed.old && input.new == seed.new, "input \(index) is seed \(index) as it is")
            #expect(input.corruptions.isEmpty && input.oldSections.sections.count == 1)
            // Replaying its choices gives the same input (how failures are shrunk and crashes replayed).
            var replay = DataSource(replaying: source.choices)
            #expect(options.input(&replay, size: options.size(ofInput: index)) == input)
        }
        var fromSeeds = 0
        for index in 2..<200 {
            var source = options.source(ofInput: index)
            let input = options.input(&source, size: options.size(ofInput: index))
            if options.seeds.contains(where: { $0.old.map(\.id) == input.old.map(\.id) }) { fromSeeds += 1 }
            var replay = DataSource(replaying: source.choices)
            #expect(options.input(&replay, size: options.size(ofInput: index)) == input)
        }
        #expect(fromSeeds == 99, "every other input starts from a seed (\(fromSeeds) of 198)")
    }

    /// An engine broken only on lists of 20 items or more: generation reaches such sizes only after
    /// 1,216 inputs (sizes grow by one every 64), the trace's seeds at once.
    @Test func seedsReachWhatGenerationReachesLate() {
        let heckel = HeckelEngine()
        let broken = FuzzSubject(
            name: "broken-on-long-lists", promises: EnginePromises(reference: .heckel),
            matching: { old, new in
                var matching = heckel.matching(from: old, to: new, comparison: .equality)
                if old.count >= 20, new.count >= 20, let n = matching.newToOld.firstIndex(where: { $0 >= 0 }) {
                    matching.oldToNew[matching.newToOld[n]] = -1
                    matching.newToOld[n] = -1
                    matching.updated[n] = false
                }
                return matching
            },
            derive: { DiffResult(matching: $0, moves: $1) })
        let old = (0..<30).map { "line\($0)" }
        var new = old
        new.insert("added", at: 12)
        let seeds = FuzzSeed.seeds(of: Self.trace([old, new]), name: "t", maxSize: 24)
        var options = FuzzOptions(inputs: 40, subjects: [broken], properties: [.differential], workers: 1)
        options.largeSize = 0
        #expect(runFuzzer(options).failures.isEmpty, "without seeds, 40 inputs of sizes 1 miss it")
        options.seeds = seeds
        let report = runFuzzer(options)
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.inputsToFind == 1)
    }
}
