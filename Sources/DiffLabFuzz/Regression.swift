import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import DiffLabJSON

/// A saved counterexample: the shrunk input of a failure, replayed by `difflab replay` and by the
/// test suite on every run.
///
/// The file holds the input itself (lists, sections, corruptions), not only its choice sequence,
/// so it stays meaningful when the generators change; the choices and seed are kept for reference.
public struct RegressionCase: Sendable, Hashable {
    /// The failure's signature when it was found.
    public var signature: String
    /// The property to check.
    public var property: Property
    /// The subject it failed on (an engine name, or a variant's name).
    public var subject: String
    /// The message when it was found.
    public var message: String
    /// The input.
    public var input: FuzzCase
    /// The shrunk choice sequence, the size it decodes at, and the original seed.
    public var choices: [UInt64]
    public var size: Int
    public var seed: UInt64

    /// The case of a fuzzer failure.
    public init(_ failure: FuzzFailure) {
        signature = failure.failure.signature
        property = failure.property
        subject = failure.subject
        message = failure.failure.message
        input = failure.input
        choices = failure.choices
        size = failure.size
        seed = failure.seed
    }

    /// A file name for the case: its signature with every character outside `[A-Za-z0-9-]` as `_`.
    public var fileName: String {
        String(signature.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" }) + ".json"
    }

    /// Checks the case's property on every shipped engine (a counterexample is a good input for
    /// all of them).
    ///
    /// - Returns: the failures; empty when the regression is fixed.
    public func replay() -> [PropertyFailure] {
        EngineKind.allCases.compactMap { property.check(input, .engine($0)) }
    }
}

// MARK: JSON

extension RegressionCase {
    /// The case as JSON.
    public var json: JSONValue {
        func items(_ list: [FuzzItem]) -> JSONValue { .array(list.map { .array([.integer($0.id), .integer($0.content)]) }) }
        func sections(_ list: SectionedList<Int, FuzzItem>) -> JSONValue {
            .array(list.sections.map { .object(JSONObject([("id", .integer($0.id)), ("items", items($0.items))])) })
        }
        func corruption(_ c: Corruption) -> JSONValue {
            let fields: [Int] =
                switch c {
                case let .duplicate(list, index): [0, list, index]
                case let .drop(list, index): [1, list, index]
                case let .shift(list, index, delta): [2, list, index, delta]
                case let .reload(item): [3, item]
                case let .delete(item): [4, item]
                case let .insert(item): [5, item]
                case let .section(kind, section): [6, kind, section]
                }
            return .array(fields.map { .integer($0) })
        }
        return .object(
            JSONObject([
                ("signature", .string(signature)),
                ("property", .string(property.rawValue)),
                ("subject", .string(subject)),
                ("message", .string(message)),
                ("profile", .string(input.profile.description)),
                ("old", items(input.old)),
                ("new", items(input.new)),
                ("oldSections", sections(input.oldSections)),
                ("newSections", sections(input.newSections)),
                ("corruptions", .array(input.corruptions.map(corruption))),
                ("choices", .array(choices.map { .string(String($0)) })),
                ("size", .integer(size)),
                ("seed", .string(String(seed))),
            ]))
    }

    /// Reads a case from JSON.
    ///
    /// - Throws: ``RegressionFormatError`` naming the field that is missing or malformed.
    public init(json: JSONValue) throws(RegressionFormatError) {
        func field(_ key: String) throws(RegressionFormatError) -> JSONValue {
            guard let value = json[key] else { throw RegressionFormatError("missing \"\(key)\"") }
            return value
        }
        func ints(_ value: JSONValue, _ key: String) throws(RegressionFormatError) -> [Int] {
            guard let array = value.arrayValue else { throw RegressionFormatError("\"\(key)\" must be an array") }
            var result: [Int] = []
            for element in array {
                guard let i = element.intValue else { throw RegressionFormatError("\"\(key)\" must hold integers") }
                result.append(i)
            }
            return result
        }
        func items(_ value: JSONValue, _ key: String) throws(RegressionFormatError) -> [FuzzItem] {
            guard let array = value.arrayValue else { throw RegressionFormatError("\"\(key)\" must be an array") }
            var result: [FuzzItem] = []
            for element in array {
                let pair = try ints(element, key)
                guard pair.count == 2 else { throw RegressionFormatError("\"\(key)\" items must be [id, content]") }
                result.append(FuzzItem(pair[0], pair[1]))
            }
            return result
        }
        func sections(_ key: String) throws(RegressionFormatError) -> SectionedList<Int, FuzzItem> {
            guard let array = try field(key).arrayValue else { throw RegressionFormatError("\"\(key)\" must be an array") }
            var result: [SectionedList<Int, FuzzItem>.Section] = []
            for section in array {
                guard let id = section["id"]?.intValue, let list = section["items"] else {
                    throw RegressionFormatError("\"\(key)\" sections must be {\"id\": int, \"items\": [...]}")
                }
                result.append(.init(id: id, items: try items(list, key)))
            }
            return SectionedList(result)
        }
        guard let signature = try field("signature").stringValue,
            let propertyName = try field("property").stringValue, let property = Property(rawValue: propertyName),
            let subject = try field("subject").stringValue
        else { throw RegressionFormatError("\"signature\", \"property\" and \"subject\" must be strings naming a property") }
        var corruptions: [Corruption] = []
        guard let corruptionList = try field("corruptions").arrayValue else {
            throw RegressionFormatError("\"corruptions\" must be an array")
        }
        for element in corruptionList {
            let f = try ints(element, "corruptions")
            guard let tag = f.first else { throw RegressionFormatError("empty corruption") }
            let c: Corruption? =
                switch (tag, f.count) {
                case (0, 3): .duplicate(list: f[1], index: f[2])
                case (1, 3): .drop(list: f[1], index: f[2])
                case (2, 4): .shift(list: f[1], index: f[2], delta: f[3])
                case (3, 2): .reload(item: f[1])
                case (4, 2): .delete(item: f[1])
                case (5, 2): .insert(item: f[1])
                case (6, 3): .section(kind: f[1], section: f[2])
                default: nil
                }
            guard let c else { throw RegressionFormatError("unknown corruption \(f)") }
            corruptions.append(c)
        }
        let old = try items(try field("old"), "old")
        let new = try items(try field("new"), "new")
        let profile = MutationProfile.allCases.first { $0.description == json["profile"]?.stringValue } ?? .mixed
        self.signature = signature
        self.property = property
        self.subject = subject
        self.message = json["message"]?.stringValue ?? ""
        self.input = FuzzCase(
            old: old, new: new, profile: profile, duplicates: false, oldSections: try sections("oldSections"),
            newSections: try sections("newSections"), corruptions: corruptions)
        self.input.duplicates = !self.input.hasUniqueIdentifiers
        self.choices = (json["choices"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { UInt64($0) } }
        self.size = json["size"]?.intValue ?? 0
        self.seed = json["seed"]?.stringValue.flatMap { UInt64($0) } ?? 0
    }
}

/// A regression file that cannot be read.
public struct RegressionFormatError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}
