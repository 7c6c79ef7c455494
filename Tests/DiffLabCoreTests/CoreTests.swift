import DiffLabCore
import DiffLabFuzz
import DiffLabTestSupport
import Testing

@Suite("Core vocabulary")
struct CoreTests {
    @Test func matchingValidationNamesTheBrokenInvariant() throws {
        var m = Matching(oldCount: 2, newCount: 2)
        m.pair(old: 0, new: 1)
        try m.validate()
        var oneSided = m
        oneSided.oldToNew[1] = 0
        #expect(throws: MatchingError.self) { try oneSided.validate() }
        var outOfRange = m
        outOfRange.newToOld[0] = 5
        #expect(throws: MatchingError.self) { try outOfRange.validate() }
        var flaggedInsert = m
        flaggedInsert.updated[0] = true
        #expect(throws: MatchingError.self) { try flaggedInsert.validate() }
        var shortFlags = m
        shortFlags.updated = [false]
        #expect(throws: MatchingError.self) { try shortFlags.validate() }
    }

    @Test func derivationFromAMatching() {
        // old [a b c d] → new [d x a b]: c deleted, x inserted, d moved, a and b shift.
        var m = Matching(oldCount: 4, newCount: 4)
        m.pair(old: 3, new: 0, updated: true)
        m.pair(old: 0, new: 2)
        m.pair(old: 1, new: 3)
        let offsets = DiffResult(matching: m, moves: .offsets)
        #expect(offsets.deletes == [2])
        #expect(offsets.inserts == [1])
        #expect(offsets.updates == [3])
        #expect(offsets.updateDestinations == [0])
        // survivor ranks a0 b1 d2; new ranks d0 a1 b2: all three move under the offsets rule.
        #expect(offsets.moves == [Move(from: 3, to: 0), Move(from: 0, to: 2), Move(from: 1, to: 3)])
        let minimal = DiffResult(matching: m, moves: .minimal)
        #expect(minimal.moves == [Move(from: 3, to: 0)])
        #expect(minimal.changeCount == 4)
        #expect(offsets.changeCount == 6)
    }

    @Test func emptyMatchingHasNoChanges() {
        let r = DiffResult(matching: Matching(oldCount: 0, newCount: 0))
        #expect(!r.hasChanges)
        #expect(r.changeCount == 0)
        #expect(r.forBatchUpdates() == r)
    }

    struct BadResult: Sendable, CustomTestStringConvertible {
        var why: String
        var old: Int
        var new: Int
        var inserts: [Int] = []
        var deletes: [Int] = []
        var updates: [Int] = []
        var destinations: [Int] = []
        var moves: [Move] = []
        var testDescription: String { why }
    }

    static let badResults: [BadResult] = [
        BadResult(why: "negative length", old: -1, new: 0),
        BadResult(why: "delete out of range", old: 2, new: 1, deletes: [2]),
        BadResult(why: "insert twice", old: 0, new: 2, inserts: [1, 1]),
        BadResult(why: "update without destination", old: 1, new: 1, updates: [0]),
        BadResult(why: "update destination out of range", old: 1, new: 1, updates: [0], destinations: [3]),
        BadResult(why: "move from a deleted index", old: 2, new: 1, deletes: [0], moves: [Move(from: 0, to: 0)]),
        BadResult(why: "move to an inserted index", old: 1, new: 2, inserts: [0], moves: [Move(from: 0, to: 0)]),
        BadResult(why: "two moves to one index", old: 2, new: 2, moves: [Move(from: 0, to: 1), Move(from: 1, to: 1)]),
        BadResult(why: "counts do not add up", old: 3, new: 3, inserts: [0]),
        BadResult(why: "update destination twice", old: 2, new: 2, updates: [0, 1], destinations: [1, 1]),
        BadResult(why: "update of a deleted index", old: 2, new: 1, deletes: [0], updates: [0], destinations: [0]),
        BadResult(why: "update ending at an inserted index", old: 1, new: 2, inserts: [1], updates: [0], destinations: [1]),
        BadResult(
            why: "update and move of one element disagree", old: 2, new: 2, updates: [0], destinations: [0],
            moves: [Move(from: 0, to: 1), Move(from: 1, to: 0)]),
        BadResult(why: "update ending where another element moves", old: 2, new: 2, updates: [0], destinations: [1], moves: [Move(from: 1, to: 1)]),
        BadResult(why: "an updated element that does not move ending elsewhere", old: 2, new: 2, updates: [0], destinations: [1]),
        BadResult(
            why: "an updated element past a move ending where the others do not leave it", old: 3, new: 3, updates: [1], destinations: [2],
            moves: [Move(from: 0, to: 1)]),
        BadResult(why: "counts that overflow", old: Int.max, new: 1, inserts: [0]),
        BadResult(why: "an index past a huge length", old: Int.max, new: Int.max, inserts: [-1], deletes: [-1]),
    ]

    @Test(arguments: badResults)
    func checkedInitRejects(bad: BadResult) {
        #expect(throws: DiffResultError.self) {
            try DiffResult(
                oldCount: bad.old, newCount: bad.new, inserts: bad.inserts, deletes: bad.deletes,
                updates: bad.updates, updateDestinations: bad.destinations, moves: bad.moves)
        }
    }

    /// Lengths near Int.max are checked without allocating in proportion to them (the checks
    /// once allocated a flag per index: a trap on hostile lengths).
    @Test func hugeLengthsAreCheckedWithoutAllocating() throws {
        let huge = try DiffResult(oldCount: Int.max - 1, newCount: Int.max, inserts: [Int.max - 1], deletes: [], moves: [Move(from: 7, to: 3)])
        #expect(huge.inserts == [Int.max - 1] && huge.moves == [Move(from: 7, to: 3)])
    }

    /// Elements that do not move keep their order and fill the new indices that inserts and
    /// moves leave: an update's destination must be that index.
    @Test func anUnmovedUpdateEndsWhereTheOthersLeaveIt() throws {
        // Old [a b c], delete a, insert at 2: b stays at 0, c at 1.
        let shifted = try DiffResult(oldCount: 3, newCount: 3, inserts: [2], deletes: [0], updates: [1, 2], updateDestinations: [0, 1])
        #expect(shifted.updateDestinations == [0, 1])
        // Old [a b c], move c to 0: a and b fill 1 and 2.
        let around = try DiffResult(
            oldCount: 3, newCount: 3, inserts: [], deletes: [], updates: [0, 2], updateDestinations: [1, 0], moves: [Move(from: 2, to: 0)])
        #expect(around.updates == [0, 2] && around.updateDestinations == [1, 0])
    }

    @Test func checkedInitSortsAndAccepts() throws {
        let r = try DiffResult(
            oldCount: 3, newCount: 3, inserts: [2, 0], deletes: [1, 0], updates: [2], updateDestinations: [1],
            moves: [Move(from: 2, to: 1)])
        #expect(r.inserts == [0, 2])
        #expect(r.deletes == [0, 1])
        // Each update keeps its destination when sorted; moves sort by destination.
        let sorted = try DiffResult(
            oldCount: 4, newCount: 4, inserts: [], deletes: [], updates: [3, 0, 2], updateDestinations: [0, 3, 1],
            moves: [Move(from: 3, to: 0), Move(from: 1, to: 2), Move(from: 0, to: 3), Move(from: 2, to: 1)])
        #expect(sorted.updates == [0, 2, 3] && sorted.updateDestinations == [3, 1, 0])
        #expect(sorted.moves == [Move(from: 3, to: 0), Move(from: 2, to: 1), Move(from: 1, to: 2), Move(from: 0, to: 3)])
        let batch = r.forBatchUpdates()
        #expect(batch.moves.isEmpty)
        #expect(batch.inserts == [0, 1, 2])
        #expect(batch.deletes == [0, 1, 2])
    }

    @Test func updateJudgement() {
        let a = Box(1, 0)
        #expect(!a._isUpdated(from: a, comparison: .identity))
        #expect(!a._isUpdated(from: a, comparison: .equality))
        #expect(Box(1, 0)._isUpdated(from: a, comparison: .identity))
        #expect(!Box(1, 0)._isUpdated(from: a, comparison: .equality))
        #expect(Box(1, 2)._isUpdated(from: a, comparison: .equality))
        #expect(!Item(1, 0)._isUpdated(from: Item(1, 0), comparison: .identity))
        #expect(Item(1, 1)._isUpdated(from: Item(1, 0), comparison: .identity))
    }

    /// Engines ask through a generic `Element: Diffable`: a class's conformance must have picked
    /// the class default of the `_isUpdated` requirement (identity), a value type's the plain one.
    @Test func updateJudgementInGenericCode() {
        func judged<Element: Diffable>(_ new: Element, _ old: Element, _ comparison: ComparisonOption) -> Bool {
            new._isUpdated(from: old, comparison: comparison)
        }
        let a = Box(1, 0)
        #expect(!judged(a, a, .identity))
        #expect(judged(Box(1, 0), a, .identity), "another instance with equal content is updated under identity")
        #expect(!judged(Box(1, 0), a, .equality))
        #expect(judged(Box(1, 2), a, .equality))
        #expect(!judged(Item(1, 0), Item(1, 0), .identity), "a value type under identity falls back to equality")
        #expect(judged(Item(1, 1), Item(1, 0), .identity))
    }

    @Test func selfIdentifiedConformances() {
        #expect("a".diffIdentifier == "a")
        #expect(42.diffIdentifier == 42)
        #expect(UInt8(7).isContentEqual(to: 7))
        #expect(!"a".isContentEqual(to: "b"))
    }

    @Test func indexPathOrdering() {
        #expect(ItemIndexPath(section: 0, item: 9) < ItemIndexPath(section: 1, item: 0))
        #expect(Move(from: 9, to: 0) < Move(from: 0, to: 1))
        #expect(ItemIndexPath(section: 1, item: 2).description == "[1, 2]")
    }
}

/// DiffLab's one median (bench, gate and report use it).
@Suite struct MedianTests {
    @Test(arguments: [([3.0, 1, 2], 2.0), ([4.0, 1, 3, 2], 2.5), ([7.0], 7.0), ([2.0, .nan, 1], 1.5), ([-1.0, .infinity], .infinity)])
    func medianOf(values: [Double], expected: Double) {
        #expect(median(values) == expected)
    }

    @Test func nothingOrOnlyNaNHasNoMedian() {
        #expect(median([]) == nil)
        #expect(median([.nan, .nan]) == nil)
    }

    /// The two middle values are halved before they are added: no overflow to infinity.
    @Test func twoHugeMiddleValuesDoNotOverflow() {
        #expect(median([.greatestFiniteMagnitude, .greatestFiniteMagnitude]) == .greatestFiniteMagnitude)
    }
}

/// `availableCores()` reads the affinity mask without a C library (Foundation reads the file).
@Suite struct AvailableCoresTests {
    @Test func theAffinityMaskIsCountedBitByBit() {
        #expect(_affinityCount("Name:\tx\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(_affinityCount("Cpus_allowed:\tff,ffffffff\n") == 40)
        #expect(_affinityCount("Cpus_allowed:\t00000000,00000001") == 1)
        #expect(_affinityCount("Cpus_allowed:\t0\n") == nil)
        #expect(_affinityCount("Cpus_allowed:\tzz\n") == nil)
        #expect(_affinityCount("VmRSS:\t1 kB\n") == nil)
        #expect(_affinityCount("") == nil)
    }

    @Test func atLeastOneCoreAndNoMoreThanTheMachineHas() {
        let cores = availableCores()
        #expect(cores >= 1)
        #if os(Linux)
        // The mask of this process, as the kernel reports it.
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""  // portable: inside #if os(Linux)
        #expect(_affinityCount(status) == cores)
        #endif
    }
}
