/// The updaters DiffLab models, in one table: what `difflab updaters` checks by default, what the
/// report's table lists, and where a name given on the command line is looked up.
///
/// | name | models | promises |
/// | --- | --- | --- |
/// | `background-diff` | the hand-written "diff on a background queue, apply on main" (unsafe) | — |
public enum BuiltInUpdaters {
    /// Every built-in updater, in the table's order.
    public static let all: [UpdaterSubject] = [
        BackgroundDiffUpdater.subject
    ]

    /// The built-in updater named `name`, or `nil`.
    ///
    /// - Complexity: O(updaters).
    public static func named(_ name: String) -> UpdaterSubject? { all.first { $0.name == name } }

    /// Every built-in updater's name, in the table's order.
    public static var names: [String] { all.map(\.name) }
}
