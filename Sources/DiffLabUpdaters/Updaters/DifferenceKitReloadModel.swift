/// A model of an app using DifferenceKit's `UICollectionView.reload(using:interrupt:setData:)` as
/// DifferenceKit documents it:
///
/// ```swift
/// let changeset = StagedChangeset(source: data, target: newData)
/// collectionView.reload(using: changeset) { data in self.data = data }
/// ```
///
/// What it models (DifferenceKit's README and the doc comment of `reload(using:interrupt:setData:)`,
/// https://github.com/ra1028/DifferenceKit: "The data of the data-source needs to be updated
/// synchronously before `performBatchUpdates` in every stages"; `interrupt`: "A closure that takes
/// an changeset as its argument and returns `true` if the animated updates should be stopped and
/// performed reloadData"):
/// - on the main queue, at the request, the app computes the staged changeset from the data its
///   data source holds to the new version (``ListVersion/stagedChangeset(to:engine:)``);
/// - the stages are applied in order, each a `performBatchUpdates` whose block hands the data
///   source that stage's data (under the version's number: the stages belong to one request);
/// - before a stage, `interrupt` is asked: when it says stop (here: the stage has more than
///   ``interruptThreshold`` operations), the last stage's data is set and `reloadData` called;
/// - `reload` has no completion of its own: the app calls the request's completion (`true`) once
///   `reload` returns, when the view shows the version.
///
/// Simplified: the not-in-a-window shortcut (`setData` of the last stage + `reloadData`) and
/// DifferenceKit's own differ (DiffLab's ``StagedChangeset`` stands in for it) are not modelled.
///
/// Used as documented — synchronously on main — it is safe: each changeset starts from what the
/// view shows, and nothing runs between the stages. The races users report (DifferenceKit #132, an
/// update issued while another is in flight) come from computing the changeset off main or from a
/// stale source: that is ``BackgroundDiffUpdater``.
public final class DifferenceKitReloadModel: ListUpdater, @unchecked Sendable {
    let context: UpdaterContext
    /// A stage with more operations than this interrupts the reload (`reloadData` instead);
    /// `nil`: never.
    public let interruptThreshold: Int?

    /// An app on `context` whose `interrupt` stops at stages of more than `interruptThreshold`
    /// operations (`nil`: no `interrupt`; a negative threshold counts as 0).
    public init(context: UpdaterContext, interruptThreshold: Int? = nil) {
        self.context = context
        self.interruptThreshold = interruptThreshold.map { max(0, $0) }
    }

    /// `differencekit`: an `interrupt` that stops at stages of more than 3 operations, so that the
    /// fuzzer's runs take both the staged path and the reload path.
    public static let subject = UpdaterSubject(
        name: "differencekit", summary: "DifferenceKit's reload(using:interrupt:setData:), staged, on main",
        make: { DifferenceKitReloadModel(context: $0, interruptThreshold: 3) })

    public func performUpdate(to version: ListVersion, completion: @escaping @Sendable (Bool) -> Void) {
        let view = context.collectionView
        let source = view.dataSource
        let changeset = source.stagedChangeset(to: version, engine: context.engine)
        for stage in changeset.stages {
            if let interruptThreshold, stage.changes.operationCount > interruptThreshold {
                context.collectionView.setData(ListVersion(number: version.number, data: changeset.stages.last?.data ?? version.data))
                view.reloadData()
                break
            }
            view.performBatchUpdates(stage.changes, updates: { view.setData(ListVersion(number: version.number, data: stage.data)) })
        }
        if changeset.stages.isEmpty, source.number != version.number {
            // Equal data: DifferenceKit performs nothing; the app's data still takes the new version.
            view.setData(version)
        }
        completion(true)
    }
}
