import DiffLabCore

/// An updater: the piece of an app that takes each new version of the list's data and brings the
/// collection view to it — diffing on the main queue or in the background as its policy says,
/// applying batch updates or reloads, and calling each request's completion.
///
/// DiffLab checks an updater under every interleaving of its queues (``UpdaterFuzzer``): each
/// batch it applies must be valid for what the view shows at that moment (UIKit raises
/// `NSInternalInconsistencyException` otherwise), the view must end on the last version asked for,
/// versions must not go back, each completion must run exactly once, and the data source must
/// agree with the view at every layout pass (``UpdaterProperty``).
///
/// Write an updater as an app would, against ``UpdaterContext``: its queues stand in for
/// `DispatchQueue.main` and background queues, its ``UpdaterContext/collectionView`` for
/// `UICollectionView` and its data source. Keep the updater's own state on the main queue (the
/// scheduler and the stress mode both run main-queue work one piece at a time); hand values, not
/// shared state, to background work. Such a class is `@unchecked Sendable`.
public protocol ListUpdater: AnyObject, Sendable {
    /// The app asks for `version` to be shown. Called on the main queue, with versions numbered
    /// 1, 2, … in order; `completion` must be called exactly once, on any queue, when the view
    /// shows `version` or a newer one (`true`), or when the request is given up (`false`).
    func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void)
}

/// What an updater promises beyond the properties every updater must keep.
public struct UpdaterPromises: Hashable, Sendable {
    /// The updater drops a diff whose target was superseded by a newer request before it was
    /// applied (Android's `AsyncListDiffer`): it never hands the data source a version once a
    /// newer one has been requested (``UpdaterProperty/dropsSuperseded``).
    public var dropsSupersededDiffs: Bool

    /// Promises; none by default.
    public init(dropsSupersededDiffs: Bool = false) { self.dropsSupersededDiffs = dropsSupersededDiffs }
}

/// An updater to check: its name, its promises, and how to make one for a run.
public struct UpdaterSubject: Sendable {
    /// The name in findings and reports (`iglistkit`, `my-updater`).
    public var name: String
    /// What it promises beyond the common properties.
    public var promises: UpdaterPromises
    /// One line on what it models, for tables and `--help`.
    public var summary: String
    /// Makes a fresh updater for one run, on that run's context.
    public var make: @Sendable (UpdaterContext) -> any ListUpdater

    /// A subject named `name`.
    public init(
        name: String, summary: String = "", promises: UpdaterPromises = UpdaterPromises(),
        make: @escaping @Sendable (UpdaterContext) -> any ListUpdater
    ) {
        self.name = name
        self.summary = summary
        self.promises = promises
        self.make = make
    }
}

/// What an updater works with in one run: queues, the clock, the collection view (with its data
/// source), the version on screen at the start, and the engine the app diffs with.
public final class UpdaterContext: Sendable {
    let runtime: any _UpdaterRuntime
    /// The main queue (`DispatchQueue.main`).
    public let main: UpdaterQueue
    /// The global concurrent queue (`DispatchQueue.global()`): work on it runs in any order.
    public let global: UpdaterQueue
    /// The collection view and its data source; use them on the main queue only.
    public let collectionView: CollectionViewModel
    /// The version on screen, and in the data source, when the run starts (number 0).
    public let initial: ListVersion
    /// The engine the app diffs with.
    public let engine: any DiffEngine

    package init(runtime: any _UpdaterRuntime, collectionView: CollectionViewModel, initial: ListVersion, engine: any DiffEngine) {
        self.runtime = runtime
        self.main = UpdaterQueue(runtime: runtime, id: .main, label: "main")
        self.global = UpdaterQueue(runtime: runtime, id: .global, label: "global")
        self.collectionView = collectionView
        self.initial = initial
        self.engine = engine
    }

    /// A new serial queue (`DispatchQueue(label:)`); make queues when the updater is made.
    public func makeSerialQueue(label: String) -> UpdaterQueue {
        UpdaterQueue(runtime: runtime, id: runtime._makeSerialQueue(label: label), label: label)
    }

    /// Seconds since the run started: virtual under the scheduler (it moves when a request
    /// arrives or a timer fires), real in the stress mode. Never decreases.
    public var now: Double { runtime._now() }

    /// Whether the caller runs on the main queue.
    public var isOnMain: Bool { runtime._isOnMain() }
}
