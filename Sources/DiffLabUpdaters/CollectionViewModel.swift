import DiffLabBatch

/// A collection view and its data source, as UIKit behaves: the data source holds the app's
/// current data (``setData(_:)``); the view shows what it last laid out, and moves to new data
/// only through ``performBatchUpdates(_:updates:completion:)`` or ``reloadData()``.
///
/// `performBatchUpdates` takes the counts before the update from what the view shows (after a
/// pending `reloadData`, from the data source, as UIKit lays out first), runs `updates` (where the
/// app hands its data source the new data), takes the counts after from the data source, and
/// checks the batch against both with DiffLabBatch's UIKit rules. An invalid batch breaks
/// ``UpdaterProperty/batchValid`` with UIKit's exception message and ends the run, as the
/// exception ends the app. Its completion runs on the main queue once the animation is over
/// (a timer of ``animationSeconds``).
///
/// Use it on the main queue only: a call from another queue breaks ``UpdaterProperty/mainOnly``
/// and is ignored. Once a property is broken, every call is ignored.
public final class CollectionViewModel: @unchecked Sendable {
    let runtime: any _UpdaterRuntime
    let monitor: UpdaterMonitor
    // Main-queue state.
    var _shown: UpdaterData
    var _dataSource: ListVersion
    var _needsReload = false
    var _layoutDirty = false

    /// How long a batch update's animation lasts: its completion runs that much later.
    public static let animationSeconds = 0.3

    package init(runtime: any _UpdaterRuntime, monitor: UpdaterMonitor, initial: ListVersion) {
        self.runtime = runtime
        self.monitor = monitor
        _shown = initial.data
        _dataSource = initial
    }

    /// Whether the call may go on: on main, and the run still healthy.
    func admit(_ call: String) -> Bool {
        guard !monitor.failed else { return false }
        guard runtime._isOnMain() else {
            monitor.fail(.mainOnly, "\(call) was called off the main queue")
            return false
        }
        return true
    }

    /// The data the view shows (as laid out last). Main queue only; off it, the initial data's
    /// shape is not guaranteed and ``UpdaterProperty/mainOnly`` breaks.
    public var shown: UpdaterData {
        guard admit("shown") else { return UpdaterData([]) }
        return _shown
    }

    /// The data source's current data.
    public var dataSource: ListVersion {
        guard admit("dataSource") else { return ListVersion(number: -1, data: UpdaterData([])) }
        return _dataSource
    }

    /// Hands the data source new data (an app's `self.items = newItems`). Versions must not go
    /// back (``UpdaterProperty/versionsInOrder``). The view does not change until a batch update
    /// or reload; a layout pass before then finds the counts disagree unless they happen to match.
    public func setData(_ version: ListVersion) {
        guard admit("setData") else { return }
        monitor.note("setData \(version) (\(itemsText(version.itemCount)))")
        _dataSource = version
        _layoutDirty = true
        monitor.dataSet(version.number)
    }

    /// `UICollectionView.performBatchUpdates(_:completion:)`: the operations of `update` (its
    /// item counts are ignored: UIKit takes them from the view and the data source), with
    /// `updates` run inside the block.
    public func performBatchUpdates(_ update: BatchUpdate, updates: () -> Void, completion: (@Sendable (Bool) -> Void)? = nil) {
        guard admit("performBatchUpdates") else { return }
        if _needsReload {
            _shown = _dataSource.data
            _needsReload = false
        }
        var batch = update
        batch.itemCountsBefore = _shown.itemCounts
        updates()
        guard !monitor.failed else { return }
        batch.itemCountsAfter = _dataSource.data.itemCounts
        _layoutDirty = true
        let operations = batch.operationCount
        let target = _dataSource
        do {
            let application = try batch.apply(to: _shown, expecting: target.data)
            if let mismatch = application.mismatches.first {
                monitor.note("performBatchUpdates → \(target) (\(operations) operations)")
                monitor.fail(.batchValid, "the batch is valid, but then \(mismatch) (\(target) in the data source)")
                return
            }
            _shown = application.outcome
            monitor.note("performBatchUpdates → \(target) (\(operations) operations): valid")
        } catch {
            monitor.note("performBatchUpdates → \(target) (\(operations) operations)")
            monitor.fail(.batchValid, error.violations.first.map(\.message) ?? "\(error)")
            return
        }
        if let completion {
            let monitor = self.monitor
            UpdaterQueue(runtime: runtime, id: .main, label: "main").asyncAfter(seconds: Self.animationSeconds, "batch animation ends → \(target)") {
                guard !monitor.failed else { return }
                completion(true)
            }
        }
    }

    /// `UICollectionView.reloadData()`: the view shows the data source's data from its next
    /// layout pass on (or from the next batch update, which lays out first).
    public func reloadData() {
        guard admit("reloadData") else { return }
        monitor.note("reloadData (data source: \(_dataSource))")
        _needsReload = true
        _layoutDirty = true
    }

    /// Whether something changed since the last layout pass.
    package var _needsLayout: Bool { _layoutDirty && !monitor.failed }

    /// A layout pass (UIKit's, between two turns of the main run loop): a pending reload takes the
    /// data source's data; otherwise the data source's counts must equal the view's.
    package func _layout() {
        guard !monitor.failed else { return }
        _layoutDirty = false
        if _needsReload {
            _shown = _dataSource.data
            _needsReload = false
            monitor.note("layout: reloaded, shows \(_dataSource) (\(itemsText(_dataSource.itemCount)))")
            return
        }
        let (shownCounts, sourceCounts) = (_shown.itemCounts, _dataSource.data.itemCounts)
        if shownCounts != sourceCounts {
            monitor.fail(
                .countsMatchAtLayout,
                "the view shows \(counts(shownCounts)) but the data source (\(_dataSource)) reports \(counts(sourceCounts))")
        } else {
            monitor.note("layout: counts agree (\(counts(shownCounts)))")
        }
    }

    /// The end of a run: a last layout pass, then what the view and data source must hold.
    package func _finish(last: ListVersion) {
        _layout()
        guard !monitor.failed else { return }
        if _dataSource.number != last.number || _dataSource.data != last.data {
            monitor.fail(.lastVersionShown, "the data source ends on \(_dataSource), not the last version requested, \(last)", atEnd: true)
        } else if _shown != last.data {
            monitor.fail(
                .lastVersionShown,
                "the view ends showing other data than the last version requested, \(last): \(describeDifference(_shown, last.data))", atEnd: true)
        }
    }
}

/// `[3]` or `[3, 0, 2]` items per section.
func counts(_ counts: [Int]) -> String {
    counts.count == 1 ? itemsText(counts[0]) : "\(counts) items per section"
}

/// `1 item`, `3 items`.
func itemsText(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

/// The first place two data differ, in words.
func describeDifference(_ a: UpdaterData, _ b: UpdaterData) -> String {
    guard a.sections.count == b.sections.count else { return "\(a.sections.count) sections, expected \(b.sections.count)" }
    for (s, (x, y)) in zip(a.sections, b.sections).enumerated() {
        guard x.id == y.id else { return "section \(s) is \(x.id), expected \(y.id)" }
        guard x.items.count == y.items.count else { return "section \(s) has \(x.items.count) items, expected \(y.items.count)" }
        for (i, (p, q)) in zip(x.items, y.items).enumerated() where p != q {
            return "item \(s)-\(i) is \(p), expected \(q)"
        }
    }
    return "no difference"
}
