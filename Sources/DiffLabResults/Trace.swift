import DiffLabJSON

// `difflab-trace/1`: a recorded history of one list, as JSON lines.
//
//   {"schema": "difflab-trace/1", "source": "...", "tool": "...", "date": "...", "ids": "...", "contents": "..."}
//   {"items": [["id", "content"], "id-that-is-its-own-content", ...], "timestampMs": 1733270400000}
//   {"sections": [{"id": "s", "items": [...]}, ...], "timestampMs": 1733270400250}
//
// The first line is the header (the schema and the provenance); every further line is one version
// of the list, oldest first. Identifiers and contents are strings, often hashes, so a trace can be
// shared without the data it came from.

/// Where a trace's data came from and how its identifiers and contents were derived: the trace
/// file's header line.
public struct TraceProvenance: Sendable, Equatable {
    /// What was recorded, in words a reader can follow back: a repository, a file and its path, an
    /// app's build, e.g. `git https://github.com/ra1028/DifferenceKit Sources/Algorithm.swift`.
    public var source: String
    /// What made the trace, e.g. `difflab trace git`.
    public var tool: String
    /// When the trace was made, e.g. `2026-12-04 11:00:00 UTC`.
    public var date: String
    /// How identifiers were derived, e.g. `FNV-1a 64 of the line's text, hex`.
    public var ids: String
    /// How contents were derived, e.g. `the identifier (a line is its own content)`.
    public var contents: String

    /// A provenance; every member should be a non-empty line of text.
    public init(source: String, tool: String, date: String, ids: String, contents: String) {
        self.source = source
        self.tool = tool
        self.date = date
        self.ids = ids
        self.contents = contents
    }
}

/// One element of a trace version: indices into the trace's ``Trace/ids`` and ``Trace/contents``
/// tables. Two items have the same identifier exactly when their `id` indices are equal.
public struct TraceItem: Sendable, Hashable {
    /// The identifier's index in ``Trace/ids``.
    public var id: Int
    /// The content's index in ``Trace/contents``.
    public var content: Int

    /// An item of identifier index `id` and content index `content`.
    public init(id: Int, content: Int) {
        self.id = id
        self.content = content
    }
}

/// A section of a sectioned version: its identifier (an index in ``Trace/sectionIDs``) and how
/// many of the version's items, in order, it holds.
public struct TraceSection: Sendable, Hashable {
    /// The section identifier's index in ``Trace/sectionIDs``.
    public var id: Int
    /// Its number of items.
    public var count: Int

    /// A section; see the properties.
    public init(id: Int, count: Int) {
        self.id = id
        self.count = count
    }
}

/// One recorded version of the list.
public struct TraceVersion: Sendable, Equatable {
    /// The items, in order (every section's, one after the other, for a sectioned version).
    public var items: [TraceItem]
    /// The sections, whose counts add up to `items.count`; `nil` for a flat list.
    public var sections: [TraceSection]?
    /// When the version was recorded, in milliseconds (since the Unix epoch or any fixed origin);
    /// `nil` when the trace has no times.
    public var timestampMs: Int?

    /// A version; see the properties.
    public init(items: [TraceItem], sections: [TraceSection]? = nil, timestampMs: Int? = nil) {
        self.items = items
        self.sections = sections
        self.timestampMs = timestampMs
    }
}

/// Why a trace file cannot be read: the input, the 1-based line, the field and what was expected.
public struct TraceFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input's name, usually its path.
    public var source: String
    /// The 1-based line of the file (0 for the file as a whole).
    public var line: Int
    /// The field, e.g. `items[3][1]`; empty for the line as a whole.
    public var field: String
    /// What is wrong, e.g. `should be a string, not 12`.
    public var problem: String

    /// An error; see the properties.
    public init(source: String, line: Int, field: String = "", _ problem: String) {
        self.source = source
        self.line = line
        self.field = field
        self.problem = problem
    }

    /// `SOURCE:LINE: FIELD PROBLEM`, e.g. `t.jsonl:3: items[2] should be a string or an [id, content] pair, not 7`.
    public var description: String {
        let place = line > 0 ? "\(source):\(line)" : source
        return field.isEmpty ? "\(place): \(problem)" : "\(place): \(field) \(problem)"
    }
}

/// A recorded history of one list (`difflab-trace/1`): its provenance and its versions, oldest
/// first, with identifiers, contents and section identifiers interned into tables.
///
/// Read with ``init(jsonLines:source:)`` and written with ``jsonLines``: one JSON object per line,
/// the header first (see the file's comment and `Corpus/traces/README.md`). The reader treats the
/// file as hostile: every line is parsed alone (memory is the largest line plus the tables), every
/// field is type-checked, and every failure names the line and the field. The caller bounds the
/// bytes (the command line reads at most `--max-input-bytes`).
public struct Trace: Sendable, Equatable {
    /// The schema name, `difflab-trace/1`.
    public static let schema = "difflab-trace/1"
    /// The longest identifier, content or section identifier accepted: 4,096 bytes of UTF-8
    /// (hashes are 16; a longer value is almost certainly a mistake, such as logging a whole model).
    public static let maxStringBytes = 4_096
    /// The largest timestamp accepted, in milliseconds: 2^53 (exact as a double, past year 285,000).
    public static let maxTimestampMs = 1 << 53

    /// Where the data came from.
    public var provenance: TraceProvenance
    /// The versions, oldest first.
    public private(set) var versions: [TraceVersion] = []
    /// The distinct identifiers, in order of first appearance.
    public private(set) var ids: [String] = []
    /// The distinct contents, in order of first appearance.
    public private(set) var contents: [String] = []
    /// The distinct section identifiers, in order of first appearance.
    public private(set) var sectionIDs: [String] = []
    private var idIndex: [String: Int] = [:]
    private var contentIndex: [String: Int] = [:]
    private var sectionIndex: [String: Int] = [:]

    /// An empty trace with `provenance`.
    public init(provenance: TraceProvenance) { self.provenance = provenance }

    /// Whether `a` and `b` have the same provenance, versions and string tables (identifiers,
    /// contents, section identifiers).
    public static func == (a: Trace, b: Trace) -> Bool {
        a.provenance == b.provenance && a.versions == b.versions && a.ids == b.ids && a.contents == b.contents
            && a.sectionIDs == b.sectionIDs
    }

    /// Whether every version carries a timestamp (and there is at least one version).
    public var hasTimestamps: Bool { !versions.isEmpty && versions.allSatisfy { $0.timestampMs != nil } }

    /// The total number of items over all versions.
    public var itemCount: Int { versions.reduce(0) { $0 + $1.items.count } }

    /// Appends a flat version of `items` (identifier and content strings), interning the strings.
    ///
    /// - Complexity: O(items), amortized.
    public mutating func append(_ items: [(id: String, content: String)], timestampMs: Int? = nil) {
        versions.append(TraceVersion(items: items.map { intern($0) }, timestampMs: timestampMs))
    }

    /// Appends a sectioned version: each section's identifier and items, in order.
    ///
    /// - Complexity: O(items), amortized.
    public mutating func append(sections: [(id: String, items: [(id: String, content: String)])], timestampMs: Int? = nil) {
        var version = TraceVersion(items: [], sections: [], timestampMs: timestampMs)
        for section in sections {
            version.sections?.append(TraceSection(id: Self.intern(section.id, &sectionIDs, &sectionIndex), count: section.items.count))
            version.items += section.items.map { intern($0) }
        }
        versions.append(version)
    }

    private mutating func intern(_ item: (id: String, content: String)) -> TraceItem {
        TraceItem(id: Self.intern(item.id, &ids, &idIndex), content: Self.intern(item.content, &contents, &contentIndex))
    }

    private static func intern(_ text: String, _ table: inout [String], _ index: inout [String: Int]) -> Int {
        if let known = index[text] { return known }
        table.append(text)
        index[text] = table.count - 1
        return table.count - 1
    }
}

// MARK: - Writing

extension Trace {
    private enum Key: String {
        case schema, source, tool, date, ids, contents, items, sections, id, timestampMs
    }

    /// The trace as `difflab-trace/1` JSON lines: the header, then one line per version (an item
    /// whose content equals its identifier is written as the identifier alone). Reading it back
    /// gives an equal trace.
    ///
    /// - Complexity: O(size of the output).
    public var jsonLines: String {
        var header = JSONObject()
        header[Key.schema.rawValue] = .string(Self.schema)
        header[Key.source.rawValue] = .string(provenance.source)
        header[Key.tool.rawValue] = .string(provenance.tool)
        header[Key.date.rawValue] = .string(provenance.date)
        header[Key.ids.rawValue] = .string(provenance.ids)
        header[Key.contents.rawValue] = .string(provenance.contents)
        var text = JSONValue.object(header).serialized() + "\n"
        for version in versions {
            var line = JSONObject()
            func items(_ slice: ArraySlice<TraceItem>) -> JSONValue {
                .array(
                    slice.map { item in
                        let id = ids[item.id]
                        let content = contents[item.content]
                        return id == content ? .string(id) : .array([.string(id), .string(content)])
                    })
            }
            if let sections = version.sections {
                var start = 0
                line[Key.sections.rawValue] = .array(
                    sections.map { section in
                        defer { start += section.count }
                        return .object(
                            JSONObject([
                                (Key.id.rawValue, .string(sectionIDs[section.id])),
                                (Key.items.rawValue, items(version.items[start..<start + section.count])),
                            ]))
                    })
            } else {
                line[Key.items.rawValue] = items(version.items[...])
            }
            if let time = version.timestampMs { line[Key.timestampMs.rawValue] = .integer(time) }
            text += JSONValue.object(line).serialized() + "\n"
        }
        return text
    }
}

// MARK: - Reading

extension Trace {
    /// Reads a `difflab-trace/1` file.
    ///
    /// Rules: the first line is the header, with `"schema": "difflab-trace/1"` and the non-empty
    /// strings `source`, `tool`, `date`, `ids` and `contents`; every further line is a version, an
    /// object with either `items` (an array of items) or `sections` (an array of `{"id": string,
    /// "items": [...]}`), and an optional integer `timestampMs` from 0 to ``maxTimestampMs``. An
    /// item is a string (its own content) or an array of two strings, `[id, content]`; every string
    /// is non-empty and at most ``maxStringBytes`` bytes. Either every version has a timestamp or
    /// none has, and timestamps never decrease. Lines end with `\n` (a `\r` before it is ignored);
    /// a final empty line is allowed, an empty line elsewhere is not. Unknown keys are ignored.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - source: names the input in errors, usually its path.
    /// - Throws: ``TraceFormatError`` naming the line and the field.
    /// - Complexity: O(bytes); memory O(longest line + distinct strings + items).
    public init(jsonLines bytes: some Collection<UInt8>, source: String) throws(TraceFormatError) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw TraceFormatError(source: source, line: 0, "is empty; expected a \(Self.schema) header line") }
        let header = try Self.object(first, source: source, line: 1)
        func headerString(_ key: Key) throws(TraceFormatError) -> String {
            guard case .string(let text)? = header[key.rawValue] else {
                throw TraceFormatError(source: source, line: 1, field: key.rawValue, Self.expected("a non-empty string", header[key.rawValue]))
            }
            guard !text.isEmpty else { throw TraceFormatError(source: source, line: 1, field: key.rawValue, "should be a non-empty string") }
            return text
        }
        guard case .string(let schema)? = header[Key.schema.rawValue] else {
            throw TraceFormatError(
                source: source, line: 1, field: Key.schema.rawValue, Self.expected("\"\(Self.schema)\"", header[Key.schema.rawValue]))
        }
        guard schema == Self.schema else {
            throw TraceFormatError(source: source, line: 1, field: Key.schema.rawValue, "is \"\(schema)\"; expected \"\(Self.schema)\"")
        }
        self.init(
            provenance: TraceProvenance(
                source: try headerString(.source), tool: try headerString(.tool), date: try headerString(.date),
                ids: try headerString(.ids), contents: try headerString(.contents)))
        var previousTime: Int?
        for (offset, bytes) in lines.enumerated().dropFirst() {
            let line = offset + 1
            let object = try Self.object(bytes, source: source, line: line)
            func fail(_ field: String, _ problem: String) -> TraceFormatError { TraceFormatError(source: source, line: line, field: field, problem) }
            var version = TraceVersion(items: [])
            switch (object[Key.items.rawValue], object[Key.sections.rawValue]) {
            case (.array(let items)?, nil):
                version.items = try readItems(items, field: Key.items.rawValue, fail)
            case (nil, .array(let sections)?):
                version.sections = []
                for (s, section) in sections.enumerated() {
                    let field = "sections[\(s)]"
                    guard case .object(let members) = section else {
                        throw fail(field, Self.expected("an object {\"id\": string, \"items\": [...]}", section))
                    }
                    let id = try Self.string(members[Key.id.rawValue], field: field + ".id", fail)
                    guard case .array(let items)? = members[Key.items.rawValue] else {
                        throw fail(field + ".items", Self.expected("an array of items", members[Key.items.rawValue]))
                    }
                    let read = try readItems(items, field: field + ".items", fail)
                    version.sections?.append(TraceSection(id: Self.intern(id, &sectionIDs, &sectionIndex), count: read.count))
                    version.items += read
                }
            case (.some, .some):
                throw fail("", "has both \"items\" and \"sections\"; a version is one or the other")
            case (nil, nil):
                throw fail("", "has neither \"items\" nor \"sections\"; expected a version such as {\"items\": [[\"id\", \"content\"]]}")
            case (let items, let sections):
                throw items != nil
                    ? fail(Key.items.rawValue, Self.expected("an array of items", items))
                    : fail(Key.sections.rawValue, Self.expected("an array of sections", sections))
            }
            if let time = object[Key.timestampMs.rawValue] {
                guard case .integer(let ms) = time, ms >= 0, ms <= Self.maxTimestampMs else {
                    throw fail(Key.timestampMs.rawValue, Self.expected("an integer from 0 to \(Self.maxTimestampMs) (milliseconds)", time))
                }
                if let previousTime, ms < previousTime {
                    throw fail(Key.timestampMs.rawValue, "is \(ms), earlier than the previous version's \(previousTime); versions are oldest first")
                }
                guard versions.isEmpty || previousTime != nil else {
                    throw fail(Key.timestampMs.rawValue, "is given, but earlier versions have none; either every version has a timestamp or none has")
                }
                previousTime = ms
                version.timestampMs = ms
            } else if previousTime != nil {
                throw fail(Key.timestampMs.rawValue, "is missing, but earlier versions have one; either every version has a timestamp or none has")
            }
            versions.append(version)
        }
    }

    private mutating func readItems(
        _ items: [JSONValue], field: String, _ fail: (String, String) -> TraceFormatError
    ) throws(TraceFormatError) -> [TraceItem] {
        var read: [TraceItem] = []
        read.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let path = "\(field)[\(i)]"
            switch item {
            case .string:
                let id = try Self.string(item, field: path, fail)
                read.append(intern((id, id)))
            case .array(let pair) where pair.count == 2:
                read.append(intern((try Self.string(pair[0], field: path + "[0]", fail), try Self.string(pair[1], field: path + "[1]", fail))))
            default:
                throw fail(path, Self.expected("a string or an [id, content] pair of strings", item))
            }
        }
        return read
    }

    private static func string(
        _ value: JSONValue?, field: String, _ fail: (String, String) -> TraceFormatError
    ) throws(TraceFormatError) -> String {
        guard case .string(let text)? = value else { throw fail(field, expected("a string", value)) }
        guard !text.isEmpty else { throw fail(field, "should be a non-empty string") }
        guard text.utf8.count <= maxStringBytes else { throw fail(field, "is \(text.utf8.count) bytes long; at most \(maxStringBytes) are allowed") }
        return text
    }

    private static func object(_ bytes: some Collection<UInt8>, source: String, line: Int) throws(TraceFormatError) -> JSONObject {
        var bytes = ArraySlice(bytes)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw TraceFormatError(source: source, line: line, "is empty; expected one JSON object per line") }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes: bytes)
        } catch {
            throw TraceFormatError(source: source, line: line, "is not JSON: column \(error.column): \(error.message)")
        }
        guard case .object(let object) = value else { throw TraceFormatError(source: source, line: line, expected("a JSON object", value)) }
        return object
    }

    private static func expected(_ what: String, _ value: JSONValue?) -> String {
        guard let value else { return "is missing; expected \(what)" }
        let shown = value.serialized()
        return "should be \(what), not \(shown.count > 60 ? String(shown.prefix(57)) + "..." : shown)"
    }
}

/// A 64-bit FNV-1a hash of `text`'s UTF-8 bytes, as 16 lowercase hexadecimal digits: how DiffLab's
/// importers turn text into shareable identifiers and contents (see ``traceHash(bytes:)``).
///
/// - Complexity: O(bytes).
public func traceHash(_ text: some StringProtocol) -> String { traceHash(bytes: text.utf8) }

/// A 64-bit FNV-1a hash of `bytes`, as 16 lowercase hexadecimal digits. Equal byte strings hash
/// alike; distinct ones collide with probability about n²/2⁶⁵ among n distinct values (about
/// 10⁻¹¹ for 10,000). A hash hides the text from a casual reader, not from someone who can guess
/// it: it is not encryption.
///
/// - Complexity: O(bytes).
public func traceHash(bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
