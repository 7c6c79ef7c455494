import CustomEngine
import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import Feed
import Testing

/// The feed's batch updates on fixed cases, checked with DiffLab's model of UIKit's rules: valid
/// (UIKit would not raise), and applied to the old feed they show the new one, identity and content.
@Suite struct FeedUpdatesByHand {
    /// Old and new feeds with a move, an update in place, an update of a moved post, a delete and
    /// an insert; and a feed of one repeated identifier.
    static let cases: [(old: [Post], new: [Post])] = [
        ([Post("a"), Post("b"), Post("c"), Post("d")], [Post("c", likes: 3), Post("a"), Post("b", likes: 1), Post("e")]),
        ([], [Post("a"), Post("b")]),
        ([Post("a"), Post("b")], []),
        ([Post("x"), Post("x", likes: 1), Post("y")], [Post("y"), Post("x", likes: 1), Post("x", likes: 2), Post("x")]),
    ]

    /// Whether `update` is what UIKit accepts and shows `new` when applied to `old`.
    static func check(_ update: BatchUpdate, _ old: [Post], _ new: [Post], _ engine: String) throws {
        #expect(update.violations().isEmpty, "\(engine): \(update.violations().map(\.message))")
        let application = try update.apply(to: DayFeed([.init(id: "today", items: old)]), expecting: DayFeed([.init(id: "today", items: new)]))
        #expect(application.mismatches.isEmpty, "\(engine): \(old) → \(new): \(application.mismatches)")
    }

    @Test(arguments: cases.indices) func everyBuiltInEngineGivesAValidRightUpdate(index: Int) throws {
        let (old, new) = Self.cases[index]
        try Self.check(FeedUpdates.batch(from: old, to: new, engine: HeckelEngine()), old, new, "heckel")
        try Self.check(FeedUpdates.batch(from: old, to: new, engine: HashMapEngine()), old, new, "hashmap")
        try Self.check(FeedUpdates.batch(from: old, to: new, engine: MyersEngine()), old, new, "myers")
        try Self.check(FeedUpdates.batch(from: old, to: new, engine: StdlibEngine()), old, new, "stdlib")
    }

    /// CustomEngine's `OccurrenceEngine` answers with a flat result; its checked batch form is what
    /// the app would hand to UIKit.
    @Test(arguments: cases.indices) func occurrenceEngineGivesAValidRightUpdate(index: Int) throws {
        let (old, new) = Self.cases[index]
        let changes = try OccurrenceEngine().changes(from: old, to: new, comparison: .equality)
        try Self.check(BatchUpdate(try changes.checkedBatch(oldCount: old.count, newCount: new.count)), old, new, "occurrence")
    }

    /// The first case by hand. Paired: a (0→1), b (1→2, changed), c (2→0, changed); by
    /// IGListKit's rule all three move (each one's rank among the paired posts changes). The batch
    /// form keeps a's move and makes each changed, moved post a delete and an insert: delete b, c
    /// and d (1, 2, 3), insert c, b and e (0, 2, 3), move a from 0 to 1.
    @Test func theFirstCaseIsTheUpdateAPersonWouldWrite() {
        let (old, new) = Self.cases[0]
        let update = FeedUpdates.batch(from: old, to: new).normalized()
        #expect(update.itemCountsBefore == [4] && update.itemCountsAfter == [4])
        #expect(update.deleteItems.map(\.item) == [1, 2, 3])
        #expect(update.insertItems.map(\.item) == [0, 2, 3])
        #expect(update.moveItems.map { [$0.from.item, $0.to.item] } == [[0, 1]])
        #expect(update.reloadItems.isEmpty)
    }

    /// A hand-written update with the usual mistakes (an index past the end, an insert twice, a
    /// count that does not add up) is refused, as UIKit would, and the sanitizer's repair is valid.
    @Test func aHandWrittenMistakeIsRefusedAndRepaired() throws {
        let wrong = BatchUpdate(
            itemCountsBefore: [2], itemCountsAfter: [3], insertItems: [ItemIndexPath(section: 0, item: 0), ItemIndexPath(section: 0, item: 0)],
            deleteItems: [ItemIndexPath(section: 0, item: 5)])
        #expect(throws: InvalidBatchUpdate.self) { try wrong.validate() }
        #expect(!wrong.violations().isEmpty)
        let repaired = wrong.sanitized()
        #expect(repaired.violations().isEmpty, "\(repaired.violations().map(\.message))")
    }

    /// The feed grouped by day: a post moves to another day, a day is deleted and another inserted;
    /// every stage is valid on the previous stage's data and the last one is the new feed.
    @Test func stagedDaysAreEachValidAndEndAtTheNewFeed() throws {
        let old = DayFeed([
            .init(id: "mon", items: [Post("a"), Post("b")]), .init(id: "tue", items: [Post("c")]), .init(id: "wed", items: [Post("d")]),
        ])
        let new = DayFeed([
            .init(id: "thu", items: [Post("e")]), .init(id: "mon", items: [Post("b", likes: 2)]),
            .init(id: "wed", items: [Post("d"), Post("a")]),
        ])
        for (name, changeset) in [
            ("hashmap", FeedUpdates.stages(from: old, to: new)), ("heckel", FeedUpdates.stages(from: old, to: new, engine: HeckelEngine())),
        ] {
            var previous = old
            for (index, stage) in changeset.stages.enumerated() {
                #expect(stage.changes.violations().isEmpty, "\(name), stage \(index): \(stage.changes.violations().map(\.message))")
                let application = try stage.changes.apply(to: previous, expecting: stage.data)
                #expect(application.mismatches.isEmpty, "\(name), stage \(index): \(application.mismatches)")
                previous = stage.data
            }
            #expect(previous.sections.map(\.id) == new.sections.map(\.id), "\(name)")
            #expect(previous.sections.map(\.items) == new.sections.map(\.items), "\(name)")
            #expect(changeset.stages.count == 4, "\(name): \(changeset.stages.count) stages")
        }
    }
}
