import DiffLabBatch
import DiffLabCore
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

// MARK: JSON

extension RegressionCase {
    /// The case as JSON.
    public var json: JSONValue {
        func items(_ list: [FuzzItem]) -> JSONValue {
            .array(list.map { .array([.integer($0.id), .integer($0.content)] + ($0.form == 0 ? [] : [.integer($0.form)])) })
        }
        func sections(_ list: SectionedList<Int, FuzzItem>) -> JSONValue {
            .array(list.sections.map { .object(JSONObject([("id", .integer($0.id)), ("items", items($0.items))])) })
        }
        func corruption(_ c: Corruption) -> JSONValue { .array(c.fileForm.map { .integer($0) }) }
        return .object(
            JSONObject([
                ("signature", .string(signature)),
                ("property", .string(property.rawValue)),
                ("subject", .string(subject)),
                ("outsideContract", .bool(outsideContract)),
                ("message", .string(message)),
                ("profile", .string(input.profile.description)),
                ("elements", .string(input.elements.rawValue)),
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

    /// The most items a regression file's `old` or `new` list, or all the sections of
    /// `oldSections` or `newSections` together, may hold: 10,000 (the fuzzer's largest
    /// `--max-size`; see ``FuzzOptions/allowedMaxSize``). Longer inputs would make replay slow
    /// (the properties include quadratic oracles), not more thorough.
    public static let maxItems = FuzzOptions.allowedMaxSize.upperBound
    /// The most sections `oldSections` or `newSections` may hold: 10,000.
    public static let maxSections = FuzzOptions.allowedMaxSize.upperBound
    /// The most corruptions a case may list: 1,000 (the generator makes at most 6). Each adds an
    /// operation the sanitizer must repair, and each repair re-validates the update.
    public static let maxCorruptions = 1_000

    /// Reads a case from JSON.
    ///
    /// Every field is checked, so a damaged file is an error, never a trap, a hang or a silently
    /// different case:
    /// - `signature`, `property` (a ``Property`` name), `subject` (the engine's name): strings;
    ///   `message`: a string (may be absent); `outsideContract`: a boolean (absent: `false`); `profile`: a ``MutationProfile`` name (absent: `mixed`);
    ///   `elements`: an ``FuzzElementKind`` name (absent: `integers`);
    /// - `old`, `new`: arrays of `[id, content]` integer pairs, or `[id, content, form]` with a
    ///   ``FuzzItem/form`` from 0 to 3, at most ``maxItems`` each;
    /// - `oldSections`, `newSections`: arrays of `{"id": int, "items": [[id, content], ...]}`, at
    ///   most ``maxSections`` sections and ``maxItems`` items in all;
    /// - `corruptions`: at most ``maxCorruptions`` integer arrays, each a ``Corruption`` in its
    ///   file form, with fields in ``Corruption``'s documented ranges;
    /// - `choices`, `seed`: decimal strings of unsigned 64-bit integers (`choices` may be absent);
    ///   `size`: an integer in `0...`10,000 (absent: 0).
    ///
    /// - Throws: ``RegressionFormatError`` naming the field (with its index) and what was expected.
    /// - Complexity: O(size of the JSON value).
    public init(json: JSONValue) throws(RegressionFormatError) {
        func field(_ key: String) throws(RegressionFormatError) -> JSONValue {
            guard let value = json[key] else { throw RegressionFormatError("missing \"\(key)\"") }
            return value
        }
        func string(_ key: String) throws(RegressionFormatError) -> String {
            guard let text = try field(key).stringValue else { throw RegressionFormatError("\"\(key)\" must be a string") }
            return text
        }
        func array(_ value: JSONValue, _ name: String, max: Int) throws(RegressionFormatError) -> [JSONValue] {
            guard let array = value.arrayValue else { throw RegressionFormatError("\(name) must be an array") }
            guard array.count <= max else {
                throw RegressionFormatError("\(name) holds \(array.count) elements; at most \(max) are allowed")
            }
            return array
        }
        func integer(_ value: JSONValue, _ name: String, in range: ClosedRange<Int>? = nil) throws(RegressionFormatError) -> Int {
            guard let i = value.intValue else {
                throw RegressionFormatError(
                    "\(name) must be an integer\(range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""), not \(value.briefDescription)")
            }
            if let range, !range.contains(i) {
                throw RegressionFormatError("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not \(i)")
            }
            return i
        }
        func unsigned(_ value: JSONValue, _ name: String) throws(RegressionFormatError) -> UInt64 {
            guard let text = value.stringValue, let number = UInt64(text) else {
                throw RegressionFormatError("\(name) must be a string holding an integer from 0 to \(UInt64.max)")
            }
            return number
        }
        var itemTotal = 0
        func items(_ value: JSONValue, _ name: String) throws(RegressionFormatError) -> [FuzzItem] {
            var result: [FuzzItem] = []
            for (i, element) in try array(value, name, max: Self.maxItems).enumerated() {
                guard let pair = element.arrayValue, pair.count == 2 || pair.count == 3 else {
                    throw RegressionFormatError("\(name)[\(i)] must be an [id, content] or [id, content, form] array of integers")
                }
                let form = pair.count == 3 ? try integer(pair[2], "\(name)[\(i)][2] (form)", in: 0...3) : 0
                result.append(
                    FuzzItem(
                        try integer(pair[0], "\(name)[\(i)][0] (id)"), try integer(pair[1], "\(name)[\(i)][1] (content)"),
                        form: form))
            }
            itemTotal += result.count
            return result
        }
        func sections(_ key: String) throws(RegressionFormatError) -> SectionedList<Int, FuzzItem> {
            var result: [SectionedList<Int, FuzzItem>.Section] = []
            itemTotal = 0
            for (s, section) in try array(try field(key), "\"\(key)\"", max: Self.maxSections).enumerated() {
                let name = "\"\(key)\"[\(s)]"
                guard let id = section["id"], let list = section["items"] else {
                    throw RegressionFormatError("\(name) must be {\"id\": int, \"items\": [[id, content], ...]}")
                }
                result.append(.init(id: try integer(id, name + ".id"), items: try items(list, name + ".items")))
                guard itemTotal <= Self.maxItems else {
                    throw RegressionFormatError("\"\(key)\" holds more than \(Self.maxItems) items in all")
                }
            }
            return SectionedList(result)
        }
        let signature = try string("signature")
        let propertyName = try string("property")
        guard let property = Property(rawValue: propertyName) else {
            throw RegressionFormatError(
                "\"property\" '\(propertyName)' is not one of: \(Property.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let subject = try string("subject")
        var corruptions: [Corruption] = []
        for (k, element) in try array(try field("corruptions"), "\"corruptions\"", max: Self.maxCorruptions).enumerated() {
            let name = "\"corruptions\"[\(k)]"
            guard let fields = element.arrayValue, let tagValue = fields.first else {
                throw RegressionFormatError("\(name) must be a non-empty array of integers")
            }
            let tag = try integer(tagValue, name + "[0] (kind of corruption)", in: 0...6)
            let names = Corruption.fieldNames(ofTag: tag)
            guard fields.count == names.count + 1 else {
                throw RegressionFormatError("\(name) of kind \(tag) must hold \(names.count + 1) integers [\(tag), \(names.joined(separator: ", "))], not \(fields.count)")
            }
            var f: [Int] = []
            for (j, fieldName) in names.enumerated() {
                f.append(try integer(fields[j + 1], "\(name)[\(j + 1)] (\(fieldName))", in: Corruption.range(of: fieldName)))
            }
            corruptions.append(Corruption(tag: tag, fields: f))
        }
        let old = try items(try field("old"), "\"old\"")
        let new = try items(try field("new"), "\"new\"")
        let profile: MutationProfile
        if let value = json["profile"] {
            guard let found = MutationProfile.allCases.first(where: { $0.description == value.stringValue }) else {
                throw RegressionFormatError(
                    "\"profile\" must be one of: \(MutationProfile.allCases.map(\.description).joined(separator: ", "))")
            }
            profile = found
        } else {
            profile = .mixed
        }
        var elements = FuzzElementKind.integers
        if let value = json["elements"] {
            guard let found = FuzzElementKind(rawValue: value.stringValue ?? "") else {
                throw RegressionFormatError(
                    "\"elements\" must be one of: \(FuzzElementKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            elements = found
        }
        var message = ""
        if json["message"] != nil { message = try string("message") }
        var outsideContract = false
        if let value = json["outsideContract"] {
            guard case .bool(let flag) = value else {
                throw RegressionFormatError("\"outsideContract\" must be true or false, not \(value.briefDescription)")
            }
            outsideContract = flag
        }
        var choices: [UInt64] = []
        if let value = json["choices"] {
            for (i, choice) in try array(value, "\"choices\"", max: Int.max).enumerated() {
                choices.append(try unsigned(choice, "\"choices\"[\(i)]"))
            }
        }
        self.signature = signature
        self.property = property
        self.subject = subject
        self.outsideContract = outsideContract
        self.message = message
        self.input = FuzzCase(
            old: old, new: new, profile: profile, duplicates: false, oldSections: try sections("oldSections"),
            newSections: try sections("newSections"), corruptions: corruptions)
        self.input.duplicates = !self.input.hasUniqueIdentifiers
        self.input.elements = elements
        self.choices = choices
        self.size = try json["size"].map { value throws(RegressionFormatError) in
            try integer(value, "\"size\"", in: 0...FuzzOptions.allowedMaxSize.upperBound)
        } ?? 0
        self.seed = try json["seed"].map { value throws(RegressionFormatError) in try unsigned(value, "\"seed\"") } ?? 0
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
    /// The range of each field of a corruption read from a regression file: `list` and `kind`
    /// 0...3; `index`, `item` and `section` 0...1,000,000; `delta` −1,000,000...1,000,000. The
    /// generator draws far smaller values (see ``FuzzCase``); the bounds keep a damaged file from
    /// asking for absurd work, and ``corrupt(_:with:)`` is total for any values anyway.
    package static func range(of field: String) -> ClosedRange<Int> {
        switch field {
        case "list", "kind": 0...3
        case "delta": -1_000_000...1_000_000
        default: 0...1_000_000
        }
    }

    /// The names of the fields that follow tag `tag` (0...6) in the file form.
    static func fieldNames(ofTag tag: Int) -> [String] {
        switch tag {
        case 0, 1: ["list", "index"]
        case 2: ["list", "index", "delta"]
        case 3, 4, 5: ["item"]
        default: ["kind", "section"]
        }
    }

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
