/// A property every run of an updater is checked against; its raw value names it in findings.
public enum UpdaterProperty: String, CaseIterable, Sendable, Hashable, Comparable {
    /// Every batch update the updater applies is valid for what the collection view shows at
    /// that moment (UIKit's rules, ``BatchUpdate/violations()``), and afterwards the
    /// view shows exactly the data source's items and contents. The message is UIKit's.
    case batchValid = "batch-valid"
    /// When the run is over, the view shows the last version the app asked for, and the data
    /// source holds it: nothing is lost.
    case lastVersionShown = "last-version-shown"
    /// No version reaches the data source after a newer one did.
    case versionsInOrder = "versions-in-order"
    /// Every request's completion runs exactly once.
    case completionOnce = "completion-once"
    /// An updater that promises to drop superseded diffs (``UpdaterPromises/dropsSupersededDiffs``)
    /// never hands the data source a version once a newer one was requested.
    case dropsSuperseded = "drops-superseded"
    /// At every layout pass the data source's item counts equal what the view shows (UIKit reads
    /// the data source while laying out; a mismatch crashes or shows the wrong cells).
    case countsMatchAtLayout = "counts-match-at-layout"
    /// The collection view and its data source are used on the main queue only.
    case mainOnly = "main-only"
    /// The run ends: the updater neither loops forever nor deadlocks (a step budget under the
    /// scheduler, a time limit in the stress mode).
    case ends

    /// Order of declaration.
    public static func < (a: UpdaterProperty, b: UpdaterProperty) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// What the property asks, in one line.
    public var meaning: String {
        switch self {
        case .batchValid: "every applied batch is valid for what the view shows at that moment"
        case .lastVersionShown: "the view ends showing the last version requested"
        case .versionsInOrder: "no version is applied after a newer one"
        case .completionOnce: "every completion runs exactly once"
        case .dropsSuperseded: "a superseded diff is never applied (when promised)"
        case .countsMatchAtLayout: "the data source's counts equal the view's at every layout pass"
        case .mainOnly: "the view and data source are used on the main queue only"
        case .ends: "the run ends (no endless loop, no deadlock)"
        }
    }
}

/// A broken property: which, where in the run, and what happened.
public struct UpdaterFailure: Hashable, Sendable, CustomStringConvertible {
    /// The property broken.
    public var property: UpdaterProperty
    /// What happened; for ``UpdaterProperty/batchValid`` UIKit's exception reason.
    public var message: String
    /// The step (1-based) of the run's timeline at which it broke; 0 for a check at the end.
    public var step: Int

    /// A failure of `property` at `step`.
    public init(property: UpdaterProperty, message: String, step: Int) {
        self.property = property
        self.message = message
        self.step = step
    }

    /// `batch-valid at step 7: Invalid update: …`.
    public var description: String {
        step > 0 ? "\(property.rawValue) at step \(step): \(message)" : "\(property.rawValue) at the end: \(message)"
    }
}

/// One step of a run: the lane that ran, what it ran, and what it did to the view.
///
/// A run keeps what it records within bounds, whatever an updater passes it: a label is cut to
/// ``maxLabelLength`` characters, each note and a failure's message to ``maxTextLength``, a lane
/// name to ``maxLaneLength`` (findings files hold the same bounds).
public struct UpdaterEvent: Hashable, Sendable {
    /// The longest label kept: 2,000 characters.
    public static let maxLabelLength = 2_000
    /// The longest note or failure message kept: 100,000 characters.
    public static let maxTextLength = 100_000
    /// The longest lane (queue) name kept: 200 characters.
    public static let maxLaneLength = 200

    /// 1-based.
    public var step: Int
    /// Seconds since the start of the run when the step ran.
    public var time: Double
    /// The lane: `main`, `app` (the app's requests), `layout`, `timers`, `global`, or a serial
    /// queue's label.
    public var lane: String
    /// Whether the lane's work runs on the main thread (main, app, layout, timers firing).
    public var onMain: Bool
    /// What ran (`app requests v2`, `diff v0→v2`).
    public var label: String
    /// What it did to the view and data source, in order (`setData v2 (5 items)`).
    public var notes: [String]

    /// An event; see the properties.
    public init(step: Int, time: Double, lane: String, onMain: Bool, label: String, notes: [String] = []) {
        self.step = step
        self.time = time
        self.lane = lane
        self.onMain = onMain
        self.label = label
        self.notes = notes
    }
}

extension String {
    /// The first `length` characters (all of them when shorter), `…` marking a cut.
    func _cut(_ length: Int) -> String { count <= length ? self : String(prefix(max(0, length - 1))) + "…" }
}
