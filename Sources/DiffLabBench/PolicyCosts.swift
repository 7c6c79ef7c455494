import DiffLabResults

/// The modelled main-thread costs of the policy lab: everything the lab does not measure.
///
/// Diffs are measured (real engines on real lists); applying an update to a collection view and
/// the app's other per-frame work cannot be measured off a device, so they are these named
/// parameters. ``parameters`` says where each default comes from, or that it is assumed;
/// `difflab policy --costs FILE` replaces any of them with figures measured on a device.
public struct PolicyCosts: Sendable, Equatable {
    /// Seconds to apply any update on main, whatever its size: the layout pass and animating the
    /// visible cells.
    public var applyBaseCost: Double
    /// Seconds per item in the list of the layout pass every update pays, batch or reload (a flow
    /// layout prepares every item's attributes).
    public var layoutCostPerItem: Double
    /// Seconds per change (insert, delete or move of the batch form) of a batch update.
    public var batchCostPerChange: Double
    /// Seconds per item in the list of a full reload, beyond the layout pass (`reloadData`
    /// re-queries the cells and rebuilds the layout from scratch).
    public var reloadCostPerItem: Double
    /// Seconds of the app's other main-thread work in every frame (layout, rendering commit).
    public var frameWork: Double

    /// Every cost: 0 to 1 s.
    public static let range: ClosedRange<Double> = 0...1

    /// The defaults: 1 ms per update, 0.02 µs of layout per item, 2 µs per change, 0.05 µs more
    /// per item for a reload, 4 ms of other work per frame.
    public static let defaults = PolicyCosts(
        applyBaseCost: 1e-3, layoutCostPerItem: 0.02e-6, batchCostPerChange: 2e-6, reloadCostPerItem: 0.05e-6, frameWork: 4e-3)

    /// Costs; see the properties. No check here: ``validate()`` does it.
    public init(applyBaseCost: Double, layoutCostPerItem: Double, batchCostPerChange: Double, reloadCostPerItem: Double, frameWork: Double) {
        self.applyBaseCost = applyBaseCost
        self.layoutCostPerItem = layoutCostPerItem
        self.batchCostPerChange = batchCostPerChange
        self.reloadCostPerItem = reloadCostPerItem
        self.frameWork = frameWork
    }

    /// The defaults with the costs `record` sets (a costs file) replacing them.
    public init(_ record: PolicyCostsRecord) {
        self = .defaults
        if let value = record.applyBaseCost { applyBaseCost = value }
        if let value = record.layoutCostPerItem { layoutCostPerItem = value }
        if let value = record.batchCostPerChange { batchCostPerChange = value }
        if let value = record.reloadCostPerItem { reloadCostPerItem = value }
        if let value = record.frameWork { frameWork = value }
    }

    /// The costs as a results record (every cost set).
    public func record(source: String, device: String? = nil) -> PolicyCostsRecord {
        var record = PolicyCostsRecord()
        record.applyBaseCost = applyBaseCost
        record.layoutCostPerItem = layoutCostPerItem
        record.batchCostPerChange = batchCostPerChange
        record.reloadCostPerItem = reloadCostPerItem
        record.frameWork = frameWork
        record.device = device
        record.source = source
        return record
    }

    /// Checks every cost against ``range``.
    ///
    /// - Throws: ``ConfigurationError`` naming the first cost out of range.
    /// - Complexity: O(1).
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.check(applyBaseCost, in: Self.range, "applyBaseCost")
        try ConfigurationError.check(layoutCostPerItem, in: Self.range, "layoutCostPerItem")
        try ConfigurationError.check(batchCostPerChange, in: Self.range, "batchCostPerChange")
        try ConfigurationError.check(reloadCostPerItem, in: Self.range, "reloadCostPerItem")
        try ConfigurationError.check(frameWork, in: Self.range, "frameWork")
    }

    /// Main-thread seconds to apply one update: ``applyBaseCost``, plus ``layoutCostPerItem`` per
    /// list item, plus ``batchCostPerChange`` per change of its batch form or, for a full reload,
    /// ``reloadCostPerItem`` per list item.
    ///
    /// - Complexity: O(1).
    public func applyCost(batchChanges: Int, listSize: Int, reload: Bool) -> Double {
        let items = Double(listSize)
        return applyBaseCost + items * layoutCostPerItem + (reload ? items * reloadCostPerItem : Double(batchChanges) * batchCostPerChange)
    }

    /// Where each default comes from.
    public static let parameters: [PolicyCostParameter] = [
        PolicyCostParameter(
            name: "applyBaseCost", meaning: "main-thread seconds to apply any update (layout pass, animating the visible cells)",
            value: "1 ms", source: "assumed: no public measurement of a batch update's fixed cost was found", url: nil),
        PolicyCostParameter(
            name: "layoutCostPerItem", meaning: "main-thread seconds per list item of the layout pass every update pays, batch or reload",
            value: "0.02 µs",
            source:
                "assumed: a flow layout's prepareLayout runs inside every performBatchUpdates (a stack trace in openradar 28167779) and its cost is linear in the items (\"has a hard time for 10k+ items\"), but no per-item figure is published",
            url: "https://openradar.appspot.com/28167779"),
        PolicyCostParameter(
            name: "batchCostPerChange", meaning: "main-thread seconds per insert, delete or move of a batch update",
            value: "2 µs",
            source:
                "assumed: IGListKit's fallback exists because \"massive updates (8k+ inserts/deletes)\" stalled the main thread, but no per-change figure is published",
            url: "https://github.com/Instagram/IGListKit/blob/main/Source/IGListKit/IGListAdapterUpdater.h"),
        PolicyCostParameter(
            name: "reloadCostPerItem", meaning: "main-thread seconds per list item of a full reload, beyond the layout pass",
            value: "0.05 µs",
            source:
                "assumed: IGListKit's fallback relayouts synchronously (layoutIfNeeded after reloadData), and a reload \"will re-query the cells and re-create the entire layout\" (IGListKit commit 032e1b0), but no per-item figure is published",
            url: "https://github.com/Instagram/IGListKit/blob/main/Source/IGListKit/Internal/IGListBatchUpdateTransaction.m"),
        PolicyCostParameter(
            name: "frameWork", meaning: "main-thread seconds of the app's other work in every frame",
            value: "4 ms",
            source: "assumed, within Apple's guidance that main-thread work under 5 ms per frame is usually ready in time",
            url: "https://developer.apple.com/documentation/xcode/improving-app-responsiveness"),
    ]
}

/// One modelled cost: its name, what it stands for, its default and where that comes from.
public struct PolicyCostParameter: Sendable, Equatable {
    /// The parameter's name, in `PolicyCosts` and costs files.
    public var name: String
    /// What it models.
    public var meaning: String
    /// The default, in words.
    public var value: String
    /// Where the default comes from (starts with `assumed` when nothing public supports it).
    public var source: String
    /// A link to the source, when there is one.
    public var url: String?
}
