import DiffLabJSON

// The `difflab-policy-costs/1` file (`difflab policy --costs FILE`): the modelled costs of the
// policy lab, also held as the `costs` member of a `difflab-policy/2` file (PolicyGridFile.swift).

/// The modelled costs a grid ran with, and where they came from.
public struct PolicyCostsRecord: Sendable, Equatable {
    enum Key: String, CaseIterable { case schema, applyBaseCost, layoutCostPerItem, batchCostPerChange, reloadCostPerItem, frameWork, device, source }

    /// The schema of a costs file (`difflab policy --costs FILE`).
    public static let schema = "difflab-policy-costs/1"
    /// The cost parameters a file may set, in order.
    public static let parameterNames = ["applyBaseCost", "layoutCostPerItem", "batchCostPerChange", "reloadCostPerItem", "frameWork"]
    /// What each cost may be: 0 to 1 second.
    public static let costRange = FieldRange<Double>(0...1, "0 to 1 (seconds)")

    /// Seconds to apply any update, in ``costRange``.
    public var applyBaseCost: Double?
    /// Seconds per list item of every update's layout pass, in ``costRange``.
    public var layoutCostPerItem: Double?
    /// Seconds per change of a batch update, in ``costRange``.
    public var batchCostPerChange: Double?
    /// Seconds per item of a full reload beyond the layout pass, in ``costRange``.
    public var reloadCostPerItem: Double?
    /// Seconds of other main-thread work per frame, in ``costRange``.
    public var frameWork: Double?
    /// The device the figures were measured on (free text).
    public var device: String?
    /// Where the costs came from: `defaults`, or the costs file's path (results files only).
    public var source: String?

    /// No cost set.
    public init() {}

    /// As a costs file or a results file's `costs` member (`schema` written only for a file). O(1).
    public func json(asFile: Bool) -> JSONValue {
        var w = FieldWriter<Key>()
        if asFile { w.set(.schema, Self.schema) }
        w.set(.applyBaseCost, applyBaseCost)
        w.set(.layoutCostPerItem, layoutCostPerItem)
        w.set(.batchCostPerChange, batchCostPerChange)
        w.set(.reloadCostPerItem, reloadCostPerItem)
        w.set(.frameWork, frameWork)
        w.set(.device, device)
        if !asFile { w.set(.source, source) }
        return w.json
    }

    /// Reads a costs file (`{"schema":"difflab-policy-costs/1","batchCostPerChange":3e-6,...}`):
    /// every member optional but `schema`; an unknown member is an error, so a misspelt cost is
    /// never silently ignored.
    ///
    /// - Throws: ``ResultsError``: a missing or other schema, an unknown member (`invalid`,
    ///   naming it), a cost of the wrong type or outside ``costRange``.
    /// - Complexity: O(size of the document).
    public init(costsFile document: JSONValue, source: String) throws(ResultsError) {
        try checkSchema(document, Self.schema, source: source)
        let row = try FieldReader<Key>(document, source: source, path: "")
        for key in row.object.keys where Key(rawValue: key) == nil || key == Key.source.rawValue {
            throw .invalid(
                source: source, field: String(key.unicodeScalars.prefix(60)),
                expected: "a known member: schema, " + Self.parameterNames.joined(separator: ", ") + " or device")
        }
        try self.init(row)
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        applyBaseCost = try row.optionalDouble(.applyBaseCost, in: Self.costRange)
        layoutCostPerItem = try row.optionalDouble(.layoutCostPerItem, in: Self.costRange)
        batchCostPerChange = try row.optionalDouble(.batchCostPerChange, in: Self.costRange)
        reloadCostPerItem = try row.optionalDouble(.reloadCostPerItem, in: Self.costRange)
        frameWork = try row.optionalDouble(.frameWork, in: Self.costRange)
        device = try row.optionalString(.device)
        source = try row.optionalString(.source)
    }
}
