import DiffLabCore
import DiffLabJSON

/// An identifier as an out-of-process engine sees it: a JSON integer or string (see
/// `docs/engine-protocol.md`). `.integer(1)` and `.string("1")` are different identifiers.
public enum WireValue: Hashable, Sendable {
    /// A JSON integer (written in decimal).
    case integer(Int)
    /// A JSON string.
    case string(String)
}

/// An element that can be sent to an engine in another process (``ProcessEngine``).
///
/// On the wire every element is a pair `[ID, TOKEN]`. The lab computes both for a whole request:
/// - `ID` is ``wireIdentifier``, when every element of the request has one; otherwise the lab
///   numbers the request's distinct ``Diffable/diffIdentifier``s `0, 1, 2, …` in order of first
///   appearance (old list first) and sends those numbers instead.
/// - `TOKEN` is an integer whose inequality between two paired elements means "updated": under
///   ``ComparisonOption/identity`` for class instances, the instance's number (the request's
///   distinct instances numbered in order of first appearance), so pointer identity is preserved;
///   otherwise the number of ``wireContent``'s value, numbered the same way.
///
/// Conformances must keep the encoding faithful, because the engine sees nothing else:
/// - two elements' ``wireIdentifier``s (when both are non-`nil`) are equal exactly when their
///   `diffIdentifier`s are;
/// - for two elements with equal identifiers, ``wireContent``s are equal exactly when
///   ``Diffable/isContentEqual(to:)`` is `true`. (`self` qualifies for a `Hashable` type whose
///   `==` compares the identifier and the content, which is the default content check.)
public protocol WireElement: Diffable {
    /// What the lab compares to number contents; see the protocol's contract.
    associatedtype WireContent: Hashable

    /// The identifier as sent, or `nil` when it has no faithful integer or string form (the lab
    /// then numbers the request's identifiers). - Complexity: O(1) or the identifier's length.
    var wireIdentifier: WireValue? { get }

    /// A value equal for two versions of one item exactly when their contents are equal.
    var wireContent: WireContent { get }
}

extension Int: WireElement {
    /// The integer itself.
    public var wireIdentifier: WireValue? { .integer(self) }
    /// The integer itself (its own content).
    public var wireContent: Int { self }
}

extension String: WireElement {
    /// The string itself when it is ASCII, else `nil`. Swift compares strings by canonical
    /// equivalence (`"K"` equals the Kelvin sign U+212A), an engine by code points; only ASCII
    /// spellings are equal in both senses, so a request holding other strings is numbered (by
    /// Swift's equality).
    public var wireIdentifier: WireValue? { utf8.allSatisfy { $0 < 0x80 } ? .string(self) : nil }
    /// The string itself (its own content).
    public var wireContent: String { self }
}

/// What an engine said in its `hello`.
struct EngineHello: Hashable, Sendable {
    var name: String
    var promises: EnginePromises
    var batch: Bool
    /// Where the engine comes from, when its `hello` says (the optional `about` object).
    var about: EngineAbout?
}

/// One answer to a `diff` request.
enum EngineAnswer: Sendable {
    /// A result: the flat form, the engine's batch form when it announced one, and its time.
    case result(EngineResult, batch: EngineResult?, seconds: Double)
    /// The engine's own error message.
    case error(String)
}

/// The `difflab-engine/1` protocol's messages: requests written, answers read strictly.
package enum EngineWire {
    /// The protocol's name and version.
    package static let version = "difflab-engine/1"

    /// The lab's `hello` line.
    static func helloLine() -> [UInt8] {
        Array(#"{"type":"hello","protocol":"\#(version)"}"#.utf8) + [0x0a]
    }

    /// The `diff` request `id` for `old` → `new` under `comparison`, newline included.
    ///
    /// - Complexity: O(n) expected (hashing), plus the length of the identifiers.
    package static func diffLine<Element: WireElement>(
        id: Int, old: [Element], new: [Element], comparison: ComparisonOption
    ) -> [UInt8] {
        let all = [old, new].joined()
        var identifiers = all.map(\.wireIdentifier)
        if identifiers.contains(where: { $0 == nil }) {
            var numbers: [Element.DiffIdentifier: Int] = [:]
            identifiers = all.map { element in .integer(number(element.diffIdentifier, in: &numbers)) }
        }
        var tokens: [Int]
        if Element.self is AnyObject.Type && comparison == .identity {
            var numbers: [ObjectIdentifier: Int] = [:]
            tokens = all.map { number(ObjectIdentifier($0 as AnyObject), in: &numbers) }
        } else {
            var numbers: [Element.WireContent: Int] = [:]
            tokens = all.map { number($0.wireContent, in: &numbers) }
        }
        var line: [UInt8] = []
        line.reserveCapacity(64 + 12 * identifiers.count)
        line += #"{"type":"diff","id":\#(id),"old":["#.utf8
        for index in identifiers.indices {
            if index == old.count {
                line += #"],"new":["#.utf8
            } else if index > 0 {
                line.append(UInt8(ascii: ","))
            }
            line.append(UInt8(ascii: "["))
            switch identifiers[index] {
            case .integer(let value)?: line += String(value).utf8
            case .string(let text)?: line += JSONValue.string(text).serialized().utf8
            case nil: preconditionFailure("identifiers were numbered")
            }
            line.append(UInt8(ascii: ","))
            line += String(tokens[index]).utf8
            line.append(UInt8(ascii: "]"))
        }
        if new.isEmpty { line += #"],"new":["#.utf8 }
        line += "]}\n".utf8
        return line
    }

    /// `value`'s number among the values seen so far (a new value gets the next number).
    private static func number<Value: Hashable>(_ value: Value, in numbers: inout [Value: Int]) -> Int {
        if let known = numbers[value] { return known }
        let next = numbers.count
        numbers[value] = next
        return next
    }

    /// Reads the engine's `hello`.
    ///
    /// - Throws: a description of the first problem (the caller makes it a bad answer).
    static func hello(from line: ArraySlice<UInt8>) throws(WireProblem) -> EngineHello {
        let object = try message(line, keys: ["type", "protocol", "name", "promises", "batch", "about"])
        guard object["type"]?.stringValue == "hello" else {
            throw WireProblem("the first line must be a hello, not \(describe(object["type"]))")
        }
        guard let spoken = object["protocol"]?.stringValue else {
            throw WireProblem("hello needs \"protocol\": \"\(version)\"")
        }
        guard spoken == version else { throw WireProblem("the engine speaks \(quoted(spoken)), not \(version)") }
        guard let name = object["name"]?.stringValue, ProcessEngine.isValidName(name) else {
            throw WireProblem(
                "hello's \"name\" must be 1 to \(ProcessEngine.maxNameLength) lower-case letters, digits, '-', '_' or '.', starting with a letter or digit (got \(describe(object["name"])))"
            )
        }
        guard case .object(let promises)? = object["promises"] else {
            throw WireProblem("hello's \"promises\" must be an object, not \(describe(object["promises"]))")
        }
        try only(["duplicates", "minimalMoves", "reference"], in: promises, at: "hello's \"promises\"")
        guard let duplicates = promises["duplicates"]?.boolValue, let minimal = promises["minimalMoves"]?.boolValue else {
            throw WireProblem("hello's \"promises\" needs \"duplicates\" and \"minimalMoves\" as true or false")
        }
        let references = EngineReference.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = promises["reference"]?.stringValue, let reference = EngineReference(rawValue: text) else {
            throw WireProblem("hello's \"reference\" must be one of \(references) (got \(describe(promises["reference"])))")
        }
        guard let batch = object["batch"]?.boolValue else {
            throw WireProblem("hello's \"batch\" must be true or false (got \(describe(object["batch"])))")
        }
        return EngineHello(
            name: name, promises: EnginePromises(supportsDuplicates: duplicates, minimalMoves: minimal, reference: reference),
            batch: batch, about: try object["about"].map { value throws(WireProblem) in try about(value) })
    }

    /// The most bytes of one `about` field, and the most promise sources.
    static let maxAboutText = 4_096
    static let maxPromiseSources = 64

    /// Reads a `hello`'s optional `about`: `library` and `version` (strings) required; `revision`,
    /// `source`, `build`, `adapter` (strings), `native` (a boolean) and `promiseSources` (an array
    /// of strings) optional; each string 1 to ``maxAboutText`` bytes, at most
    /// ``maxPromiseSources`` sources.
    ///
    /// - Throws: a description naming the field and what was expected.
    /// - Complexity: O(size of the object).
    static func about(_ value: JSONValue) throws(WireProblem) -> EngineAbout {
        guard case .object(let fields) = value else { throw WireProblem("hello's \"about\" must be an object, not \(describe(value))") }
        let optional = ["revision", "source", "build", "adapter"]
        try only(Set(["library", "version", "native", "promiseSources"] + optional), in: fields, at: "hello's \"about\"")
        func text(_ key: String, _ value: JSONValue?) throws(WireProblem) -> String {
            guard let text = value?.stringValue, !text.isEmpty, text.utf8.count <= maxAboutText else {
                throw WireProblem("hello's \"about\".\(key) must be a string of 1 to \(maxAboutText) bytes (got \(describe(value)))")
            }
            return text
        }
        var about = EngineAbout(library: try text("library", fields["library"]), version: try text("version", fields["version"]))
        var given: [String: String] = [:]
        for key in optional where fields[key] != nil { given[key] = try text(key, fields[key]) }
        (about.revision, about.source, about.build, about.adapter) = (given["revision"], given["source"], given["build"], given["adapter"])
        if let native = fields["native"] {
            guard let flag = native.boolValue else { throw WireProblem("hello's \"about\".native must be true or false (got \(describe(native)))") }
            about.native = flag
        }
        if let sources = fields["promiseSources"] {
            guard case .array(let items) = sources, items.count <= maxPromiseSources else {
                throw WireProblem(
                    "hello's \"about\".promiseSources must be an array of at most \(maxPromiseSources) strings (got \(describe(sources)))")
            }
            for item in items { about.promiseSources.append(try text("promiseSources", item)) }
        }
        return about
    }

    /// Reads the answer to request `id`; `batch` says whether the engine announced a batch form
    /// (then every result carries one, otherwise none may).
    ///
    /// Checks the shape only — integers where integers belong, pairs where pairs belong — never
    /// whether the indices make sense (the fuzzer checks that, with the input).
    ///
    /// - Throws: a description of the first problem.
    static func answer(from line: ArraySlice<UInt8>, id: Int, batch: Bool) throws(WireProblem) -> EngineAnswer {
        let object = try message(line, keys: ["type", "id", "inserts", "deletes", "updates", "moves", "batch", "seconds", "message"])
        let type = object["type"]?.stringValue
        guard type == "result" || type == "error" else {
            throw WireProblem("\"type\" must be \"result\" or \"error\", not \(describe(object["type"]))")
        }
        guard case .integer(let answered)? = object["id"] else {
            throw WireProblem("\"id\" must be the request's integer id \(id), not \(describe(object["id"]))")
        }
        guard answered == id else { throw WireProblem("answered id \(answered) to request \(id)") }
        if type == "error" {
            try only(["type", "id", "message"], in: object, at: "an error")
            guard let text = object["message"]?.stringValue else {
                throw WireProblem("an error's \"message\" must be a string, not \(describe(object["message"]))")
            }
            return .error(text)
        }
        guard object["message"] == nil else { throw WireProblem("a result has no \"message\"") }
        let result = try self.result(object, at: "the result")
        var batchResult: EngineResult?
        switch (batch, object["batch"]) {
        case (true, .object(let form)?):
            try only(["inserts", "deletes", "updates", "moves"], in: form, at: "\"batch\"")
            batchResult = try self.result(form, at: "\"batch\"")
        case (true, let other):
            throw WireProblem("the engine announced a batch form, so \"batch\" must be an object, not \(describe(other))")
        case (false, nil):
            break
        case (false, _):
            throw WireProblem("\"batch\" was not announced in the hello (\"batch\": false)")
        }
        guard let seconds = object["seconds"]?.doubleValue, seconds.isFinite, seconds >= 0 else {
            throw WireProblem("\"seconds\" must be a number of seconds, 0 or more (got \(describe(object["seconds"])))")
        }
        return .result(result, batch: batchResult, seconds: seconds)
    }

    /// The four lists of a result object.
    private static func result(_ object: JSONObject, at context: String) throws(WireProblem) -> EngineResult {
        EngineResult(
            inserts: try integers(object, "inserts", context), deletes: try integers(object, "deletes", context),
            updates: try pairs(object, "updates", context).map { Update(from: $0, to: $1) },
            moves: try pairs(object, "moves", context).map { Move(from: $0, to: $1) })
    }

    private static func integers(_ object: JSONObject, _ key: String, _ context: String) throws(WireProblem) -> [Int] {
        guard case .array(let items)? = object[key] else {
            throw WireProblem("\(context)'s \"\(key)\" must be an array of integers, not \(describe(object[key]))")
        }
        var values: [Int] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .integer(let value) = item else {
                throw WireProblem("\(context)'s \"\(key)\"[\(index)] must be an integer, not \(describe(item))")
            }
            values.append(value)
        }
        return values
    }

    private static func pairs(_ object: JSONObject, _ key: String, _ context: String) throws(WireProblem) -> [(Int, Int)] {
        guard case .array(let items)? = object[key] else {
            throw WireProblem("\(context)'s \"\(key)\" must be an array of [old, new] pairs, not \(describe(object[key]))")
        }
        var values: [(Int, Int)] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .array(let pair) = item, pair.count == 2, case .integer(let old) = pair[0], case .integer(let new) = pair[1] else {
                throw WireProblem("\(context)'s \"\(key)\"[\(index)] must be a pair of integers [old, new], not \(describe(item))")
            }
            values.append((old, new))
        }
        return values
    }

    /// Parses one line as a JSON object holding only `keys`.
    private static func message(_ line: ArraySlice<UInt8>, keys: Set<String>) throws(WireProblem) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes: line)
        } catch {
            throw WireProblem("not a JSON line (\(error)): \(excerpt(line))")
        }
        guard case .object(let object) = value else { throw WireProblem("not a JSON object: \(excerpt(line))") }
        try only(keys, in: object, at: "the message")
        return object
    }

    private static func only(_ keys: Set<String>, in object: JSONObject, at context: String) throws(WireProblem) {
        for key in object.keys where !keys.contains(key) {
            throw WireProblem("\(context) has unknown key \(quoted(key))")
        }
    }

    /// A value as it appears in messages: `"abc"`, `1.5`, `an array`, `nothing`.
    private static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "nothing"
        case .string(let text)?: quoted(text)
        case let other?:
            switch other {
            case .array, .object: other.typeNameWithArticle
            default: excerpt(Array(other.serialized().utf8)[...])
            }
        }
    }

    private static func quoted(_ text: String) -> String { excerpt(Array(JSONValue.string(text).serialized().utf8)[...]) }
}

/// What is wrong with a message from an engine.
struct WireProblem: Error {
    var text: String
    init(_ text: String) { self.text = text }
}
