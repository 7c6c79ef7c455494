import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabTestSupport
import Testing

/// Cases worked out by hand. Unique identifiers, so every engine must give these exact answers.
@Suite("Hand-derived cases, every engine")
struct HandDerivedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var old: [Int]
        var new: [Int]
        var inserts: [Int] = []
        var deletes: [Int] = []
        var offsetMoves: [Move] = []
        var minimalMoves: [Move] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty → empty", old: [], new: []),
        Case(name: "empty → x", old: [], new: [1, 2, 3], inserts: [0, 1, 2]),
        Case(name: "x → empty", old: [1, 2, 3], new: [], deletes: [0, 1, 2]),
        Case(name: "identical", old: [1, 2, 3], new: [1, 2, 3]),
        Case(
            name: "swap", old: [1, 2], new: [2, 1],
            offsetMoves: [Move(from: 1, to: 0), Move(from: 0, to: 1)], minimalMoves: [Move(from: 1, to: 0)]),
        Case(
            name: "rotate left", old: [1, 2, 3, 4], new: [2, 3, 4, 1],
            offsetMoves: [Move(from: 1, to: 0), Move(from: 2, to: 1), Move(from: 3, to: 2), Move(from: 0, to: 3)],
            minimalMoves: [Move(from: 0, to: 3)]),
        Case(name: "replace middle", old: [1, 2, 3], new: [1, 4, 3], inserts: [1], deletes: [1]),
        Case(name: "insert at front shifts nothing", old: [1, 2], new: [0, 1, 2], inserts: [0]),
        Case(name: "delete at front shifts nothing", old: [0, 1, 2], new: [1, 2], deletes: [0]),
        Case(
            name: "delete and insert around a swap", old: [1, 2, 3, 4], new: [5, 3, 2],
            inserts: [0], deletes: [0, 3],
            // Minimal moves keep one of 3 and 2. The run is found from both ends of the new list
            // ([5] forward, [3, 2] backward): the second half's run starting with the largest
            // old index, 3, stays.
            offsetMoves: [Move(from: 2, to: 1), Move(from: 1, to: 2)], minimalMoves: [Move(from: 1, to: 2)]),
    ]

    @Test(arguments: builtInEngines, cases)
    func offsets(engine: any DiffEngine, c: Case) {
        let r = engine.diff(from: c.old, to: c.new)
        #expect(r.inserts == c.inserts)
        #expect(r.deletes == c.deletes)
        #expect(r.updates == [])
        #expect(r.moves == c.offsetMoves)
        #expect(r.changeCount == c.inserts.count + c.deletes.count + c.offsetMoves.count)
        #expect(r.hasChanges == (r.changeCount > 0))
        #expect(uikitApplicationProblems(r, old: c.old, new: c.new).isEmpty)
    }

    @Test(arguments: builtInEngines, cases)
    func minimal(engine: any DiffEngine, c: Case) {
        let r = engine.diff(from: c.old, to: c.new, moves: .minimal)
        #expect(r.inserts == c.inserts)
        #expect(r.deletes == c.deletes)
        #expect(r.moves == c.minimalMoves)
        #expect(uikitApplicationProblems(r, old: c.old, new: c.new).isEmpty)
    }

    static let paperOld =
        "much writing is like snow , a mass of long words and phrases falls upon the relevant facts covering up the details ."
    static let paperNew =
        "a mass of latin words falls upon the relevant facts like soft snow , covering up the details ."

    /// Heckel's own example (CACM 1978), split on spaces. "the" occurs twice in each text.
    @Test(arguments: builtInEngines, MoveStrategy.allCases)
    func heckelPaperExample(engine: any DiffEngine, moves: MoveStrategy) {
        let old = Self.paperOld.split(separator: " ").map(String.init)
        let new = Self.paperNew.split(separator: " ").map(String.init)
        let r = engine.diff(from: old, to: new, moves: moves)
        #expect(r.deletes == [0, 1, 2, 9, 11, 12])
        #expect(r.inserts == [3, 11])
        #expect(r.updates == [])
        #expect(uikitApplicationProblems(r, old: old, new: new).isEmpty)
    }

    /// IGListKit's offsets rule on the paper example: "like snow ," moved behind "facts", which
    /// shifts the items between them; worked out from the rule by hand.
    @Test(arguments: builtInEngines("heckel", "hashmap"))
    func heckelPaperExampleMoves(engine: any DiffEngine) {
        let old = Self.paperOld.split(separator: " ").map(String.init)
        let new = Self.paperNew.split(separator: " ").map(String.init)
        let r = engine.diff(from: old, to: new)
        // Survivor ranks: like 0, snow 1, "," 2, a 3, mass 4, of 5, words 6, falls 7 ... and in new
        // order, less inserts: a 0, mass 1, of 2, words 3, falls 4, upon 5, the 6, relevant 7,
        // facts 8, like 9, snow 10, "," 11, covering 12 ... Every item before "covering" moves.
        let expected: [Move] = [
            Move(from: 6, to: 0), Move(from: 7, to: 1), Move(from: 8, to: 2), Move(from: 10, to: 4),
            Move(from: 13, to: 5), Move(from: 14, to: 6), Move(from: 15, to: 7), Move(from: 16, to: 8),
            Move(from: 17, to: 9), Move(from: 3, to: 10), Move(from: 4, to: 12), Move(from: 5, to: 13),
        ]
        #expect(r.moves == expected)
        let minimal = engine.diff(from: old, to: new, moves: .minimal)
        #expect(minimal.moves == [Move(from: 3, to: 10), Move(from: 4, to: 12), Move(from: 5, to: 13)])
    }
}
