import DiffLabCore
import DiffLabFuzz
import Testing

@Suite("Property-testing engine")
struct PropertyEngineTests {
    @Test func splitMixIsDeterministicAndBounded() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        for _ in 0..<100 { #expect(a.next() == b.next()) }
        var histogram = [Int](repeating: 0, count: 5)
        for _ in 0..<5000 {
            let v = a.next(upTo: 4)
            #expect(v <= 4)
            histogram[Int(v)] += 1
        }
        #expect(histogram.allSatisfy { $0 > 800 })  // roughly uniform: 1000 expected each
    }

    @Test func dataSourceRecordsReplaysClampsAndPadsWithZeros() {
        var random = DataSource(seed: 9)
        let drawn = (0..<20).map { _ in random.draw(upTo: 1000 as UInt64) }
        var replay = DataSource(replaying: random.choices)
        #expect((0..<20).map { _ in replay.draw(upTo: 1000 as UInt64) } == drawn)
        #expect(replay.draw(upTo: 7 as UInt64) == 0)  // past the prefix: zeros
        var clamped = DataSource(replaying: [17])
        #expect(clamped.draw(upTo: 4 as UInt64) == 17 % 5)
        var capped = DataSource(seed: 1, maxChoices: 2)
        _ = capped.draw(upTo: 3 as UInt64)
        _ = capped.draw(upTo: 3 as UInt64)
        #expect(capped.draw(upTo: 3 as UInt64) == 0)
        #expect(capped.overrun)
    }

    @Test func bytesDecodeAsBigEndianChoicesSizedByTheirBound() {
        var source = DataSource(bytes: [7, 0x01, 0x02, 0xFF])
        #expect(source.draw(upTo: 255 as UInt64) == 7)  // one byte
        #expect(source.draw(upTo: 65535 as UInt64) == 0x0102)  // two bytes
        #expect(source.draw(upTo: 9 as UInt64) == 0xFF % 10)  // reduced into range
        #expect(source.draw(upTo: 9 as UInt64) == 0)  // bytes exhausted
    }

    @Test func shrinkingFindsTheMinimalCounterexample() {
        // Fails when some element is at least 50: the minimal failing list is [50].
        let gen = Gen.int(in: 0...100).list(maxCount: 20, average: 8)
        var source = DataSource(seed: 3)
        var failing: [Int] = []
        var seed: UInt64 = 3
        while !failing.contains(where: { $0 >= 50 }) {
            seed += 1
            source = DataSource(seed: seed)
            failing = gen.generate(&source)
        }
        let (shrunk, attempts) = shrink(source.choices) { candidate in
            var replay = DataSource(replaying: candidate)
            let value = gen.generate(&replay)
            return value.contains { $0 >= 50 } ? replay.choices : nil
        }
        var replay = DataSource(replaying: shrunk)
        #expect(gen.generate(&replay) == [50])
        #expect(attempts > 0)
    }

    @Test func shortlexOrder() {
        #expect(isSimpler([9, 9], than: [0, 0, 0]))
        #expect(isSimpler([0, 1], than: [1, 0]))
        #expect(!isSimpler([1, 0], than: [1, 0]))
    }

    @Test(arguments: [1, 5, 24])
    func generatedCasesAreConsistent(size: Int) {
        for seed in 0..<300 as Range<UInt64> {
            var source = DataSource(seed: seed)
            let c = FuzzCase.draw(&source, maxSize: size)
            #expect(c.old.count <= size)
            #expect(c.oldSections.sections.flatMap(\.items) == c.old)
            #expect(c.newSections.sections.flatMap(\.items) == c.new)
            if !c.duplicates { #expect(c.hasUniqueIdentifiers) }
            // Replaying its choices regenerates the same case.
            var replay = DataSource(replaying: source.choices)
            #expect(FuzzCase.draw(&replay, maxSize: size) == c)
        }
    }

    @Test func everyProfileAndDuplicatesAreGenerated() {
        var profiles = Set<MutationProfile>()
        var duplicates = false
        for seed in 0..<400 as Range<UInt64> {
            var source = DataSource(seed: seed)
            let c = FuzzCase.draw(&source, maxSize: 12)
            profiles.insert(c.profile)
            duplicates = duplicates || !c.hasUniqueIdentifiers
        }
        #expect(profiles == Set(MutationProfile.allCases))
        #expect(duplicates)
    }
}

extension FuzzCase {
    static func draw(_ source: inout DataSource, maxSize: Int) -> FuzzCase {
        FuzzCase.generator(maxSize: maxSize).generate(&source)
    }
}

@Suite("libFuzzer bytes")
struct ByteEncodingTests {
    @Test func byteEncodingDecodesToTheSameCase() {
        for seed in 0..<200 as Range<UInt64> {
            var source = DataSource(seed: seed)
            let original = FuzzCase.draw(&source, maxSize: fuzzTargetMaxSize)
            var bytes = DataSource(bytes: source.byteEncoding)
            #expect(FuzzCase.draw(&bytes, maxSize: fuzzTargetMaxSize) == original)
        }
    }

    @Test func everyEngineAndPropertyIsOneSelectorByteAway() {
        #expect(fuzzTargetChecks.count == FuzzSubject.builtIns.count * Property.allCases.count)
        let pairs = Set(fuzzTargetChecks.map { "\($0.subject.name)/\($0.property)" })
        #expect(pairs.count == fuzzTargetChecks.count)
        // A seed is its selector byte and the byte encoding of its input.
        let options = FuzzOptions(seed: 3)
        for index in 0..<40 {
            let seed = fuzzTargetSeed(index, options: options)
            #expect(Int(seed[0]) == index % fuzzTargetChecks.count)
            var source = DataSource(seed: options.seed(ofInput: index))
            let original = FuzzCase.generator(maxSize: fuzzTargetMaxSize).generate(&source)
            var bytes = DataSource(bytes: Array(seed.dropFirst()))
            #expect(FuzzCase.generator(maxSize: fuzzTargetMaxSize).generate(&bytes) == original)
            #expect(checkFuzzerInput(seed) == nil)
        }
    }

    @Test func fuzzerEntryAcceptsAnyBytes() {
        var rng = SplitMix64(seed: 5)
        for length in [0, 1, 7, 64, 512] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(checkFuzzerInput(bytes) == nil)
        }
    }
}
