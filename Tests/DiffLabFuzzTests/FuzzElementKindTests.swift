import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabJSON
import Testing

/// Engines with bugs that only an element kind other than plain integers can reveal: each must
/// survive integer-only fuzzing and be caught, shrunk, once its kind is in the mix.
enum KindBug: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Pairs by hash value alone, as a hash table that forgets its equality check on a tag match.
    case pairsByHashValue = "pairs-by-hash-value"
    /// Compares string identifiers by their UTF-8 bytes (not canonical equivalence).
    case comparesStringBytes = "compares-string-bytes"
    /// Ignores `.identity` and compares contents (loses pointer personality).
    case ignoresIdentity = "ignores-identity"

    var testDescription: String { rawValue }

    /// The kind that reveals the bug.
    var kind: FuzzElementKind {
        switch self {
        case .pairsByHashValue: .collidingHashes
        case .comparesStringBytes: .strings
        case .ignoresIdentity: .objectIdentity
        }
    }

    var engine: KindBugEngine { KindBugEngine(bug: self) }
}

/// Heckel's pairing with one kind bug.
struct KindBugEngine: DiffEngine {
    var bug: KindBug
    var name: String { bug.rawValue }
    var promises: EnginePromises { EnginePromises(supportsDuplicates: true, reference: .heckel) }

    /// The identifier the bug keys by.
    struct Key<Element: Diffable>: Diffable {
        var element: Element
        var key: AnyHashable
        var diffIdentifier: AnyHashable { key }
        func isContentEqual(to other: Key) -> Bool { element.isContentEqual(to: other.element) }
    }

    func matching<Element: Diffable>(from old: [Element], to new: [Element], comparison: ComparisonOption) -> Matching {
        func key(_ e: Element) -> Key<Element> {
            switch bug {
            case .pairsByHashValue: return Key(element: e, key: AnyHashable(e.diffIdentifier.hashValue))
            case .comparesStringBytes:
                if let s = e.diffIdentifier as? String { return Key(element: e, key: AnyHashable(Array(s.utf8))) }
                return Key(element: e, key: AnyHashable(e.diffIdentifier))
            case .ignoresIdentity: return Key(element: e, key: AnyHashable(e.diffIdentifier))
            }
        }
        let heckel = HeckelEngine()
        if bug == .ignoresIdentity { return heckel.matching(from: old, to: new, comparison: .equality) }
        // The wrapper is a value: it keeps the elements' content rule, not their identity.
        return heckel.matching(from: old.map(key), to: new.map(key), comparison: comparison)
    }
}

@Suite("Element kinds")
struct ElementKindTests {
    @Test(arguments: KindBug.allCases)
    func aKindBugSurvivesIntegersAndIsCaughtByItsKind(bug: KindBug) throws {
        let subject = FuzzSubject(bug.engine)
        var integers = FuzzOptions(inputs: 3_000, seed: 5, subjects: [subject], maxSize: 16, workers: 1)
        integers.elements = [.integers]
        integers.largeSize = 0
        #expect(runFuzzer(integers).failures.isEmpty, "\(bug) should pass on integers")

        var options = FuzzOptions(inputs: 3_000, seed: 5, subjects: [subject], maxSize: 16, workers: 1)
        options.stopAtFirstFailure = true
        let failure = try #require(runFuzzer(options).failures.first, "\(bug) not found")
        #expect(failure.input.elements == bug.kind)
        #expect(failure.shrunkItems <= 8, "shrunk too little: \(failure.input.old) → \(failure.input.new)")
        print(
            "kinds: \(bug) — \(failure.signature) after \(failure.inputsToFind) inputs, shrunk to \(failure.shrunkItems) items: \(failure.input.old) → \(failure.input.new)"
        )
        // The saved case keeps its kind and forms, and replays the same failure.
        let saved = try RegressionCase(json: try JSONValue.parse(failure.regressionJSON))
        #expect(saved.input == failure.input)
        #expect(saved.input.elements == bug.kind)
        #expect(saved.input.old.map(\.form) == failure.input.old.map(\.form))
        #expect(try saved.replay(on: [subject]).map(\.signature) == [failure.signature])
    }

    @Test func theBuiltInsPassEveryKind() {
        for kind in FuzzElementKind.allCases {
            var options = FuzzOptions(inputs: 400, seed: 3, maxSize: 20, workers: 1)
            options.elements = [kind]
            options.largeEvery = 100
            options.largeSize = 300
            let report = runFuzzer(options)
            #expect(report.failures.isEmpty, "\(kind): \(report.failures.map(\.description))")
            #expect(report.inputsByKind[kind] == 400)
            #expect(report.largeInputs == 4)
        }
    }

    @Test func stringFormsAreEqualWithDifferentBytes() {
        for id in [0, 1, 3, 4, 7, 12, 12345, 12348] {
            let forms = (0..<4).map { FuzzString.identifier(id, form: $0) }
            #expect(Set(forms).count == 1, "forms of \(id) are canonically equivalent")
            let spellings = Set(forms.map { Array($0.utf8) })
            #expect(spellings.count == (id % 4 == 0 ? 4 : 1), "forms of \(id) differ in bytes exactly when non-ASCII")
            #expect(forms.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } == (id % 4 != 0))
            #expect(Set(forms.map(\.hashValue)).count == 1)
            #expect(FuzzString.identifier(id, form: 0) != FuzzString.identifier(id + 1, form: 0))
        }
        let distinct = (0..<64).map { FuzzString.identifier($0, form: $0) }
        #expect(Set(distinct).count == 64, "distinct ids stay distinct identifiers across ASCII and non-ASCII")
        #expect(FuzzString.identifier(3, form: 0).utf8.count > 15, "some identifiers are not small strings")
        #expect(FuzzString.identifier(12, form: 1).utf8.count > 15, "some non-ASCII identifiers are not small strings")
    }

    @Test func collidingKeysShareHashesButNotEquality() {
        #expect(CollidingKey(4).hashValue == CollidingKey(7).hashValue)
        #expect(CollidingKey(4) != CollidingKey(7))
        #expect(CollidingKey(3).hashValue != CollidingKey(4).hashValue)
    }

    @Test func objectsShareAnInstancePerIdContentAndForm() {
        let (old, new) = FuzzObject.instances(
            [FuzzItem(1, 0), FuzzItem(2, 0, form: 1)], [FuzzItem(1, 0), FuzzItem(2, 0, form: 0), FuzzItem(1, 0, form: 1)])
        #expect(old[0] === new[0])
        #expect(old[1] !== new[1])
        #expect(old[0] !== new[2])
        #expect(FuzzItem(2, 0, form: 1) == FuzzItem(2, 0), "form is not part of equality")
    }

    @Test func identityCasesFoldTheFormIntoTheContent() {
        var source = DataSource(seed: 9)
        for _ in 0..<200 {
            let c = FuzzCase.generator(maxSize: 12, elements: [.objectIdentity]).generate(&source)
            #expect(c.elements == .objectIdentity)
            #expect((c.old + c.new).allSatisfy { $0.content & 1 == $0.form })
            #expect(c.oldSections.sections.flatMap(\.items).map(\.form) == c.old.map(\.form))
            #expect(c.newSections.sections.flatMap(\.items).map(\.form) == c.new.map(\.form))
        }
    }

    @Test func choicesFromBeforeKindsDecodeToTheSameIntegerCase() {
        // The kind and forms are drawn last and 0 is `integers`: a recorded prefix decodes as before.
        var source = DataSource(seed: 4)
        let c = FuzzCase.generator(maxSize: 10, elements: [.integers]).generate(&source)
        var replay = DataSource(replaying: Array(source.choices.dropLast()))
        let again = FuzzCase.generator(maxSize: 10).generate(&replay)
        #expect(again == c)
        #expect(again.elements == .integers)
    }

    @Test func largeListsComeAtTheirPeriodWithSizesInRange() {
        var options = FuzzOptions(maxSize: 24)
        options.largeEvery = 16
        options.largeSize = 2_000
        let sizes = (0..<1_600).map(options.size(ofInput:))
        for (i, size) in sizes.enumerated() {
            if i % 16 == 15 {
                #expect((100...2_000).contains(size))
            } else {
                #expect((1...24).contains(size))
            }
        }
        #expect(sizes == (0..<1_600).map(options.size(ofInput:)), "deterministic")
        #expect(Set(sizes.filter { $0 > 24 }).count > 50, "spread over the range")
        options.largeSize = 0
        #expect((0..<1_600).allSatisfy { options.size(ofInput: $0) <= 24 })
    }

    /// The minimal-moves oracle above 9 pairs is independent of the derivation's run.
    @Test func patienceSortingLengthEqualsEverySubsetTried() {
        var random = SplitMix64(seed: 31)
        for _ in 0..<2_000 {
            let values = (0...random.next(upTo: 9)).map { _ in Int(random.next(upTo: 12)) - 3 }
            #expect(patienceLongestIncreasing(values) == bruteForceLongestIncreasing(values), "\(values)")
        }
        #expect(patienceLongestIncreasing([]) == 0)
        #expect(patienceLongestIncreasing([5, 5, 5]) == 1, "strictly increasing")
    }

    @Test func bitParallelLCSEqualsTheDynamicProgram() {
        var random = SplitMix64(seed: 77)
        for _ in 0..<300 {
            let n = Int(random.next(upTo: 150))
            let m = Int(random.next(upTo: 150))
            let alphabet = 1 + random.next(upTo: 40)
            let a = (0..<n).map { _ in Int(random.next(upTo: alphabet)) }
            let b = (0..<m).map { _ in Int(random.next(upTo: alphabet)) }
            #expect(bitParallelLCSLength(a, b) == lcsLength(a, b), "\(a) \(b)")
        }
    }
}
