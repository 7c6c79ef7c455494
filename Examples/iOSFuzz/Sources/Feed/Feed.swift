import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// One post of a feed, as a collection view shows it: identified by ``id``, updated when its
/// ``title`` or ``likes`` change.
public struct Post: Diffable, Hashable, Sendable, CustomStringConvertible {
    /// The post's identifier: stable across versions of the feed.
    public var id: String
    /// The title shown in the cell.
    public var title: String
    /// The like count shown in the cell.
    public var likes: Int

    /// A post `id` titled `title` (default: the identifier) with `likes` likes.
    public init(_ id: String, title: String? = nil, likes: Int = 0) {
        self.id = id
        self.title = title ?? id
        self.likes = likes
    }

    /// ``id``.
    public var diffIdentifier: String { id }

    /// `id`, or `id:likes` when the post has likes.
    public var description: String { likes == 0 ? id : "\(id):\(likes)" }
}

/// The feed's posts grouped by day: the model of a sectioned collection view.
public typealias DayFeed = SectionedList<String, Post>

/// What the feed hands to `performBatchUpdates`.
public enum FeedUpdates {
    /// The batch update that turns the one-section feed `old` into `new`, computed by `engine`
    /// (default: DiffLab's `HashMapEngine`, IGListKit's move rule).
    ///
    /// Repeated identifiers are allowed (the engine pairs occurrences); updated posts are reloads
    /// in the batch form's terms (a delete and an insert, as UIKit requires of a moved and
    /// changed cell).
    ///
    /// - Complexity: the engine's cost on `old.count + new.count` posts (O(n + m) expected for
    ///   `HashMapEngine`), plus O(changes) to build the update.
    public static func batch<Engine: DiffEngine>(
        from old: [Post], to new: [Post], engine: Engine = HashMapEngine()
    ) -> BatchUpdate {
        BatchUpdate(engine.diff(from: old, to: new).forBatchUpdates())
    }

    /// The stages that turn the sectioned feed `old` into `new` (reloads; deletes; sections;
    /// items), each a batch update valid on the previous stage's data.
    ///
    /// - Complexity: the engine's cost on the sections and on all posts, plus O(n log n).
    public static func stages<Engine: DiffEngine>(
        from old: DayFeed, to new: DayFeed, engine: Engine = HashMapEngine()
    ) -> StagedChangeset<String, Post> {
        StagedChangeset(from: old, to: new, engine: engine)
    }
}
