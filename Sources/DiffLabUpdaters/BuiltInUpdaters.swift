/// The updaters DiffLab models, in one table: what `difflab updaters` checks by default, what the
/// report's table lists, and where a name given on the command line is looked up.
///
/// | name | models | promises |
/// | --- | --- | --- |
/// | `background-diff` | the hand-written "diff on a background queue, apply on main" (unsafe) | — |
/// | `iglistkit` | IGListKit's `IGListAdapterUpdater`, diffing on main | — |
/// | `iglistkit-background` | the same, diffing in the background | — |
/// | `iglistkit-adaptive` | the same, adaptive diffing (on main below 4 items) | — |
/// | `iglistkit-coalescing` | the same, background diffing and adaptive coalescing (50 + 25 … 250 ms) | — |
/// | `differencekit` | DifferenceKit's `reload(using:interrupt:setData:)` on main, interrupting above 3 operations | — |
/// | `diffable` | UIKit's diffable data source `apply`, serialized | — |
/// | `async-list-differ` | Android's `AsyncListDiffer.submitList` with its generation check | drops superseded diffs |
///
/// Each model's documentation gives its sources and what it simplifies.
public enum BuiltInUpdaters {
    /// Every built-in updater, in the table's order.
    public static let all: [UpdaterSubject] = [
        BackgroundDiffUpdater.subject,
        IGListAdapterUpdaterModel.subject,
        IGListAdapterUpdaterModel.backgroundSubject,
        IGListAdapterUpdaterModel.adaptiveSubject,
        IGListAdapterUpdaterModel.coalescingSubject,
        DifferenceKitReloadModel.subject,
        DiffableDataSourceModel.subject,
        AsyncListDifferModel.subject,
    ]

    /// The built-in updater named `name`, or `nil`.
    ///
    /// - Complexity: O(updaters).
    public static func named(_ name: String) -> UpdaterSubject? { all.first { $0.name == name } }

    /// Every built-in updater's name, in the table's order.
    public static var names: [String] { all.map(\.name) }
}
