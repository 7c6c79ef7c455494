import DiffLabJSON

/// A saved counterexample's file (`Corpus/regressions/*.json`, written by `difflab fuzz`, read by
/// `difflab replay` and the test suite): the shape of the document, every field checked, written
/// and read by this one record. DiffLabFuzz's `RegressionCase` gives its fields their meaning (a
/// property, a mutation profile, an element kind, the corruptions) and replays it.
///
/// The file holds the input itself (lists, sections, corruptions), not only its choice sequence,
/// so it stays meaningful when the generators change; the choices and seed are kept for reference.
public struct RegressionCaseFile: Sendable, Hashable {
    /// One item of a list: its identifier, its content and its form (0 to 3; written only when
    /// not 0).
    public struct Item: Sendable, Hashable {
        /// The item's identifier.
        public var id: Int
        /// The item's content.
        public var content: Int
        /// The item's form, 0 to 3 (written only when not 0).
        public var form: Int
        /// An item.
        public init(id: Int, content: Int, form: Int = 0) {
            self.id = id
            self.content = content
            self.form = form
        }
    }

    /// One section: its identifier and items.
    public struct Section: Sendable, Hashable {
        /// The section's identifier.
        public var id: Int
        /// The section's items.
        public var items: [Item]
        /// A section.
        public init(id: Int, items: [Item]) {
            self.id = id
            self.items = items
        }
    }

    /// The failure's signature when it was found.
    public var signature: String
    /// The property's name.
    public var property: String
    /// The engine it failed on.
    public var subject: String
    /// Whether the input was outside the engine's contract when found (absent: `false`).
    public var outsideContract: Bool
    /// The message when it was found (absent: empty).
    public var message: String
    /// The mutation profile's name (absent: `nil`, read as `mixed`).
    public var profile: String?
    /// The element kind's name (absent: `nil`, read as `integers`).
    public var elements: String?
    /// The old flat list.
    public var old: [Item]
    /// The new flat list.
    public var new: [Item]
    /// The old sectioned list.
    public var oldSections: [Section]
    /// The new sectioned list.
    public var newSections: [Section]
    /// The corruptions, each in its file form `[tag, fields...]` (``corruptionFields(ofTag:)``).
    public var corruptions: [[Int]]
    /// The shrunk choice sequence (kept for reference).
    public var choices: [UInt64]
    /// The size the choice sequence decoded at (kept for reference).
    public var size: Int
    /// The seed before shrinking (kept for reference).
    public var seed: UInt64

    /// A file of these fields.
    public init(
        signature: String, property: String, subject: String, outsideContract: Bool, message: String, profile: String?, elements: String?,
        old: [Item], new: [Item], oldSections: [Section], newSections: [Section], corruptions: [[Int]], choices: [UInt64], size: Int,
        seed: UInt64
    ) {
        self.signature = signature
        self.property = property
        self.subject = subject
        self.outsideContract = outsideContract
        self.message = message
        self.profile = profile
        self.elements = elements
        self.old = old
        self.new = new
        self.oldSections = oldSections
        self.newSections = newSections
        self.corruptions = corruptions
        self.choices = choices
        self.size = size
        self.seed = seed
    }

    /// The most items an `old` or `new` list, or all the sections of `oldSections` or
    /// `newSections` together, may hold: 10,000 (the fuzzer's largest `--max-size`). Longer inputs
    /// would make replay slow (the properties include quadratic oracles), not more thorough.
    public static let maxItems = 10_000
    /// The most sections `oldSections` or `newSections` may hold: 10,000.
    public static let maxSections = 10_000
    /// The most corruptions a case may list: 1,000 (the generator makes at most 6). Each adds an
    /// operation the sanitizer must repair, and each repair re-validates the update.
    public static let maxCorruptions = 1_000
    /// The allowed `size`: 0 to 10,000.
    public static let sizeRange = 0...10_000

    /// The names of the fields that follow corruption tag `tag` (0 to 6) in the file form:
    /// duplicate and drop `[list, index]`, shift `[list, index, delta]`, reload, delete and insert
    /// `[item]`, section `[kind, section]`.
    public static func corruptionFields(ofTag tag: Int) -> [String] {
        switch tag {
        case 0, 1: ["list", "index"]
        case 2: ["list", "index", "delta"]
        case 3, 4, 5: ["item"]
        default: ["kind", "section"]
        }
    }

    /// The range of each field of a corruption: `list` and `kind` 0...3; `index`, `item` and
    /// `section` 0...1,000,000; `delta` −1,000,000...1,000,000. The generator draws far smaller
    /// values; the bounds keep a damaged file from asking for absurd work.
    public static func corruptionRange(of field: String) -> ClosedRange<Int> {
        switch field {
        case "list", "kind": 0...3
        case "delta": -1_000_000...1_000_000
        default: 0...1_000_000
        }
    }

    /// The document: every field, in the order the fuzzer has always written them; `outsideContract`
    /// only when `true` (absent reads `false`, as in every case saved before the field existed),
    /// `profile` and `elements` only when known.
    public var json: JSONValue {
        func items(_ list: [Item]) -> JSONValue {
            .array(list.map { .array([.integer($0.id), .integer($0.content)] + ($0.form == 0 ? [] : [.integer($0.form)])) })
        }
        func sections(_ list: [Section]) -> JSONValue {
            .array(list.map { .object(JSONObject([("id", .integer($0.id)), ("items", items($0.items))])) })
        }
        var members: [(String, JSONValue)] = [("signature", .string(signature)), ("property", .string(property)), ("subject", .string(subject))]
        if outsideContract { members.append(("outsideContract", .bool(true))) }
        members.append(("message", .string(message)))
        if let profile { members.append(("profile", .string(profile))) }
        if let elements { members.append(("elements", .string(elements))) }
        members += [
            ("old", items(old)), ("new", items(new)), ("oldSections", sections(oldSections)), ("newSections", sections(newSections)),
            ("corruptions", .array(corruptions.map { .array($0.map { .integer($0) }) })),
            ("choices", .array(choices.map { .string(String($0)) })), ("size", .integer(size)), ("seed", .string(String(seed))),
        ]
        return .object(JSONObject(members))
    }

    /// Reads a case file, checking every field, so a damaged file is an error, never a trap, a
    /// hang or a silently different case:
    /// - `signature`, `property`, `subject`: strings; `message`: a string (may be absent);
    ///   `outsideContract`: a boolean (absent: `false`); `profile`, `elements`: strings (may be
    ///   absent);
    /// - `old`, `new`: arrays of `[id, content]` integer pairs, or `[id, content, form]` with a
    ///   form from 0 to 3, at most ``maxItems`` each;
    /// - `oldSections`, `newSections`: arrays of `{"id": int, "items": [[id, content], ...]}`, at
    ///   most ``maxSections`` sections and ``maxItems`` items in all;
    /// - `corruptions`: at most ``maxCorruptions`` integer arrays `[tag, fields...]`, tag 0 to 6,
    ///   with as many fields as ``corruptionFields(ofTag:)`` names, each in
    ///   ``corruptionRange(of:)``;
    /// - `choices`, `seed`: decimal strings of unsigned 64-bit integers (may be absent); `size`:
    ///   an integer in ``sizeRange`` (absent: 0).
    ///
    /// - Throws: ``RegressionFileError`` naming the field (with its index) and what was expected.
    /// - Complexity: O(size of the JSON value).
    public init(json: JSONValue) throws(RegressionFileError) {
        var reader = _RegressionReader(json: json)
        signature = try reader.string("signature")
        property = try reader.string("property")
        subject = try reader.string("subject")
        corruptions = try reader.corruptions()
        old = try reader.items(try reader.field("old"), "\"old\"")
        new = try reader.items(try reader.field("new"), "\"new\"")
        profile = try reader.optionalString("profile")
        elements = try reader.optionalString("elements")
        message = json["message"] == nil ? "" : try reader.string("message")
        outsideContract = try reader.flag("outsideContract")
        choices =
            try json["choices"].map { value throws(RegressionFileError) in
                try reader.array(value, "\"choices\"", max: Int.max).enumerated().map { i, choice throws(RegressionFileError) in
                    try reader.unsigned(choice, "\"choices\"[\(i)]")
                }
            } ?? []
        oldSections = try reader.sections("oldSections")
        newSections = try reader.sections("newSections")
        size = try json["size"].map { value throws(RegressionFileError) in try reader.integer(value, "\"size\"", in: Self.sizeRange) } ?? 0
        seed = try json["seed"].map { value throws(RegressionFileError) in try reader.unsigned(value, "\"seed\"") } ?? 0
    }
}

/// A regression file that cannot be read: the field and what was expected.
public struct RegressionFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// The field readers of ``RegressionCaseFile/init(json:)``.
struct _RegressionReader {
    let json: JSONValue
    /// Items read so far in one sectioned list.
    var itemTotal = 0

    func field(_ key: String) throws(RegressionFileError) -> JSONValue {
        guard let value = json[key] else { throw RegressionFileError("missing \"\(key)\"") }
        return value
    }

    func string(_ key: String) throws(RegressionFileError) -> String {
        guard let text = try field(key).stringValue else { throw RegressionFileError("\"\(key)\" must be a string") }
        return text
    }

    func optionalString(_ key: String) throws(RegressionFileError) -> String? {
        guard let value = json[key] else { return nil }
        guard let text = value.stringValue else { throw RegressionFileError("\"\(key)\" must be a string, not \(value.briefDescription)") }
        return text
    }

    func flag(_ key: String) throws(RegressionFileError) -> Bool {
        guard let value = json[key] else { return false }
        guard case .bool(let flag) = value else {
            throw RegressionFileError("\"\(key)\" must be true or false, not \(value.briefDescription)")
        }
        return flag
    }

    func array(_ value: JSONValue, _ name: String, max: Int) throws(RegressionFileError) -> [JSONValue] {
        guard let array = value.arrayValue else { throw RegressionFileError("\(name) must be an array") }
        guard array.count <= max else {
            throw RegressionFileError("\(name) holds \(array.count) elements; at most \(max) are allowed")
        }
        return array
    }

    func integer(_ value: JSONValue, _ name: String, in range: ClosedRange<Int>? = nil) throws(RegressionFileError) -> Int {
        guard let i = value.intValue else {
            throw RegressionFileError(
                "\(name) must be an integer\(range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""), not \(value.briefDescription)")
        }
        if let range, !range.contains(i) {
            throw RegressionFileError("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not \(i)")
        }
        return i
    }

    func unsigned(_ value: JSONValue, _ name: String) throws(RegressionFileError) -> UInt64 {
        guard let text = value.stringValue, let number = UInt64(text) else {
            throw RegressionFileError("\(name) must be a string holding an integer from 0 to \(UInt64.max)")
        }
        return number
    }

    mutating func items(_ value: JSONValue, _ name: String) throws(RegressionFileError) -> [RegressionCaseFile.Item] {
        var result: [RegressionCaseFile.Item] = []
        for (i, element) in try array(value, name, max: RegressionCaseFile.maxItems).enumerated() {
            guard let pair = element.arrayValue, pair.count == 2 || pair.count == 3 else {
                throw RegressionFileError("\(name)[\(i)] must be an [id, content] or [id, content, form] array of integers")
            }
            let form = pair.count == 3 ? try integer(pair[2], "\(name)[\(i)][2] (form)", in: 0...3) : 0
            result.append(
                RegressionCaseFile.Item(
                    id: try integer(pair[0], "\(name)[\(i)][0] (id)"), content: try integer(pair[1], "\(name)[\(i)][1] (content)"), form: form))
        }
        itemTotal += result.count
        return result
    }

    mutating func sections(_ key: String) throws(RegressionFileError) -> [RegressionCaseFile.Section] {
        var result: [RegressionCaseFile.Section] = []
        itemTotal = 0
        for (s, section) in try array(try field(key), "\"\(key)\"", max: RegressionCaseFile.maxSections).enumerated() {
            let name = "\"\(key)\"[\(s)]"
            guard let id = section["id"], let list = section["items"] else {
                throw RegressionFileError("\(name) must be {\"id\": int, \"items\": [[id, content], ...]}")
            }
            result.append(RegressionCaseFile.Section(id: try integer(id, name + ".id"), items: try items(list, name + ".items")))
            guard itemTotal <= RegressionCaseFile.maxItems else {
                throw RegressionFileError("\"\(key)\" holds more than \(RegressionCaseFile.maxItems) items in all")
            }
        }
        return result
    }

    func corruptions() throws(RegressionFileError) -> [[Int]] {
        var corruptions: [[Int]] = []
        for (k, element) in try array(try field("corruptions"), "\"corruptions\"", max: RegressionCaseFile.maxCorruptions).enumerated() {
            let name = "\"corruptions\"[\(k)]"
            guard let fields = element.arrayValue, let tagValue = fields.first else {
                throw RegressionFileError("\(name) must be a non-empty array of integers")
            }
            let tag = try integer(tagValue, name + "[0] (kind of corruption)", in: 0...6)
            let names = RegressionCaseFile.corruptionFields(ofTag: tag)
            guard fields.count == names.count + 1 else {
                throw RegressionFileError(
                    "\(name) of kind \(tag) must hold \(names.count + 1) integers [\(tag), \(names.joined(separator: ", "))], not \(fields.count)")
            }
            var form = [tag]
            for (j, fieldName) in names.enumerated() {
                form.append(try integer(fields[j + 1], "\(name)[\(j + 1)] (\(fieldName))", in: RegressionCaseFile.corruptionRange(of: fieldName)))
            }
            corruptions.append(form)
        }
        return corruptions
    }
}
