import DiffLabBatch
import DiffLabCore
import DiffLabJSON
import DiffLabResults

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
    /// The engine it failed on (a ``FuzzSubject/name``); ``replay(on:)`` requires it among the
    /// subjects it checks.
    public var subject: String
    /// Whether the input was outside the engine's contract when found (see
    /// ``PropertyFailure/outsideContract``).
    public var outsideContract: Bool
    /// The message when it was found.
    public var message: String
    /// The input.
    public var input: FuzzCase
    /// The shrunk choice sequence, the size it decodes at, and the original seed.
    public var choices: [UInt64]
    /// The size the choices decoded at (kept for reference; replay uses ``input``).
    public var size: Int
    /// The seed of the input before shrinking (kept for reference; replay uses ``input``).
    public var seed: UInt64

    /// The case of a fuzzer failure.
    public init(_ failure: FuzzFailure) {
        signature = failure.failure.signature
        property = failure.property
        subject = failure.subject
        outsideContract = failure.outsideContract
        message = failure.failure.message
        input = failure.input
        choices = failure.choices
        size = failure.size
        seed = failure.seed
    }

    /// A file name for the case: its signature with every character outside `[A-Za-z0-9-]` as `_`,
    /// and `_outside-contract` for a case outside the engine's contract (so it never overwrites
    /// the in-contract case of the same signature).
    public var fileName: String {
        String(signature.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
            + (outsideContract ? "_outside-contract" : "") + ".json"
    }

    /// Checks the case's property on every subject in `subjects` (a counterexample is a good input
    /// for all of them).
    ///
    /// Each failure is marked ``PropertyFailure/outsideContract`` for the subject it came from; a
    /// caller that passes or fails a replay counts only the others.
    ///
    /// - Throws: ``UnknownEngineError`` when the engine the case names (``subject``) is not among
    ///   `subjects`: a case is never silently replayed without its own engine.
    /// - Returns: the failures; empty when the regression is fixed.
    /// - Complexity: the properties' cost on the input, per subject.
    public func replay(on subjects: [FuzzSubject]) throws(UnknownEngineError) -> [PropertyFailure] {
        guard subjects.contains(where: { $0.name == subject }) else {
            throw UnknownEngineError(name: subject, known: subjects.map(\.name))
        }
        return subjects.compactMap { property.check(input, $0) }
    }
}

/// A regression case names an engine that is not among the subjects it is replayed on.
public struct UnknownEngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The engine the case names.
    public var name: String
    /// The engines it could have named.
    public var known: [String]

    /// The error for a case naming `name` when only `known` are under test.
    public init(name: String, known: [String]) {
        self.name = name
        self.known = known
    }

    /// `"subject" 'x' is not an engine under test (expected one of: heckel, ...)`.
    public var description: String {
        "\"subject\" '\(name)' is not an engine under test (expected one of: \(known.joined(separator: ", ")))"
    }
}

// MARK: The file

extension RegressionCase {
    /// The case's file (``RegressionCaseFile``, DiffLabResults): its fields in their file form.
    public var file: RegressionCaseFile {
        func items(_ list: [FuzzItem]) -> [RegressionCaseFile.Item] { list.map { .init(id: $0.id, content: $0.content, form: $0.form) } }
        func sections(_ list: SectionedList<Int, FuzzItem>) -> [RegressionCaseFile.Section] {
            list.sections.map { .init(id: $0.id, items: items($0.items)) }
        }
        return RegressionCaseFile(
            signature: signature, property: property.rawValue, subject: subject, outsideContract: outsideContract, message: message,
            profile: input.profile.description, elements: input.elements.rawValue, old: items(input.old), new: items(input.new),
            oldSections: sections(input.oldSections), newSections: sections(input.newSections), corruptions: input.corruptions.map(\.fileForm),
            choices: choices, size: size, seed: seed)
    }

    /// The case as JSON (its ``file``'s document).
    public var json: JSONValue { file.json }

    /// The most items a regression file's list may hold (``RegressionCaseFile/maxItems``: 10,000,
    /// the fuzzer's largest `--max-size`).
    public static let maxItems = RegressionCaseFile.maxItems
    /// The most sections a sectioned list may hold (``RegressionCaseFile/maxSections``).
    public static let maxSections = RegressionCaseFile.maxSections
    /// The most corruptions a case may list (``RegressionCaseFile/maxCorruptions``).
    public static let maxCorruptions = RegressionCaseFile.maxCorruptions

    /// Reads a case from JSON: the file's every field checked (``RegressionCaseFile/init(json:)``),
    /// then given its meaning: `property` a ``Property`` name, `profile` a ``MutationProfile`` name
    /// (absent: `mixed`), `elements` a ``FuzzElementKind`` name (absent: `integers`).
    ///
    /// - Throws: ``RegressionFormatError`` naming the field (with its index) and what was expected.
    /// - Complexity: O(size of the JSON value).
    public init(json: JSONValue) throws(RegressionFormatError) {
        let file: RegressionCaseFile
        do { file = try RegressionCaseFile(json: json) } catch { throw RegressionFormatError(error.description) }
        try self.init(file: file)
    }

    /// The case a checked file holds.
    ///
    /// - Throws: ``RegressionFormatError`` for a property, profile or element kind that is not one
    ///   of DiffLab's.
    public init(file: RegressionCaseFile) throws(RegressionFormatError) {
        guard let property = Property(rawValue: file.property) else {
            throw RegressionFormatError(
                "\"property\" '\(file.property)' is not one of: \(Property.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var profile = MutationProfile.mixed
        if let name = file.profile {
            guard let found = MutationProfile.allCases.first(where: { $0.description == name }) else {
                throw RegressionFormatError("\"profile\" must be one of: \(MutationProfile.allCases.map(\.description).joined(separator: ", "))")
            }
            profile = found
        }
        var elements = FuzzElementKind.integers
        if let name = file.elements {
            guard let found = FuzzElementKind(rawValue: name) else {
                throw RegressionFormatError("\"elements\" must be one of: \(FuzzElementKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            elements = found
        }
        func items(_ list: [RegressionCaseFile.Item]) -> [FuzzItem] { list.map { FuzzItem($0.id, $0.content, form: $0.form) } }
        func sections(_ list: [RegressionCaseFile.Section]) -> SectionedList<Int, FuzzItem> {
            SectionedList(list.map { .init(id: $0.id, items: items($0.items)) })
        }
        self.signature = file.signature
        self.property = property
        self.subject = file.subject
        self.outsideContract = file.outsideContract
        self.message = file.message
        self.input = FuzzCase(
            old: items(file.old), new: items(file.new), profile: profile, duplicates: false, oldSections: sections(file.oldSections),
            newSections: sections(file.newSections), corruptions: file.corruptions.map { Corruption(tag: $0[0], fields: Array($0.dropFirst())) })
        self.input.duplicates = !self.input.hasUniqueIdentifiers
        self.input.elements = elements
        self.choices = file.choices
        self.size = file.size
        self.seed = file.seed
    }
}

/// A regression file that cannot be read.
public struct RegressionFormatError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}

// MARK: Corruptions in files

extension Corruption {
    /// The range of each field of a corruption read from a regression file
    /// (``RegressionCaseFile/corruptionRange(of:)``); ``corrupt(_:with:)`` is total for any values
    /// anyway.
    package static func range(of field: String) -> ClosedRange<Int> { RegressionCaseFile.corruptionRange(of: field) }

    /// The corruption of tag `tag` (0...6) with `fields` (as many as ``fieldNames(ofTag:)``).
    init(tag: Int, fields f: [Int]) {
        switch tag {
        case 0: self = .duplicate(list: f[0], index: f[1])
        case 1: self = .drop(list: f[0], index: f[1])
        case 2: self = .shift(list: f[0], index: f[1], delta: f[2])
        case 3: self = .reload(item: f[0])
        case 4: self = .delete(item: f[0])
        case 5: self = .insert(item: f[0])
        default: self = .section(kind: f[0], section: f[1])
        }
    }

    /// The file form: `[tag, fields...]`.
    var fileForm: [Int] {
        switch self {
        case let .duplicate(list, index): [0, list, index]
        case let .drop(list, index): [1, list, index]
        case let .shift(list, index, delta): [2, list, index, delta]
        case let .reload(item): [3, item]
        case let .delete(item): [4, item]
        case let .insert(item): [5, item]
        case let .section(kind, section): [6, kind, section]
        }
    }
}
