import DiffLabJSON

// The `difflab-policy-costs/1` file (`difflab policy --costs FILE`): the modelled costs of the
// policy lab, also held as the `costs` member of a `difflab-policy/2` file (PolicyGridFile.swift).

/// The modelled costs a grid ran with, and where they came from.
public struct PolicyCostsRecord: ResultsRecord, Equatable {
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

    @_spi(Records) public static let blank = PolicyCostsRecord()

    /// The declaration table, as a results file's `costs` member (every member optional, absent
    /// ones not written); a costs file has `schema` first and no `source`.
    @_spi(Records) public static let fields: [RecordField<PolicyCostsRecord>] = [
        .optional("applyBaseCost", \.applyBaseCost, .double(costRange), "seconds to apply any update"),
        .optional("layoutCostPerItem", \.layoutCostPerItem, .double(costRange), "seconds per list item of every layout pass"),
        .optional("batchCostPerChange", \.batchCostPerChange, .double(costRange), "seconds per change of a batch update"),
        .optional("reloadCostPerItem", \.reloadCostPerItem, .double(costRange), "seconds per item of a full reload beyond the layout"),
        .optional("frameWork", \.frameWork, .double(costRange), "seconds of other main-thread work per frame"),
        .optional("device", \.device, .string, "the device the figures were measured on"),
        .optional("source", \.source, .string, "where the costs came from: `defaults` or the costs file (results files only)"),
    ]

    /// The fields a costs file has (all but `source`).
    private static let fileFields = fields.filter { $0.description.key != "source" }

    /// The costs file's format table (`fields` but `source`, under its own ``schema``).
    static var fileSchema: RecordSchema {
        RecordSchema(name: "PolicyCostsRecord (costs file)", documentSchema: schema, fields: fileFields.map(\.description), records: { [] })
    }

    /// As a costs file (`schema` first, no `source`) or a results file's `costs` member (``json``). O(1).
    public func json(asFile: Bool) -> JSONValue {
        guard asFile else { return json }
        var object: JSONObject = [SchemaKey.schema.rawValue: .string(Self.schema)]
        for field in Self.fileFields { field.write(self, &object) }
        return .object(object)
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
        let known = Set([SchemaKey.schema.rawValue] + Self.fileFields.map(\.description.key))
        for key in document.objectValue?.keys ?? [] where !known.contains(key) {
            throw .invalid(
                source: source, field: String(key.unicodeScalars.prefix(60)),
                expected: "a known member: schema, " + Self.parameterNames.joined(separator: ", ") + " or device")
        }
        try self.init(json: document, source: source)
    }
}
