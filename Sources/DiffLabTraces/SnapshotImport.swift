import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// Where a folder importer finds each snapshot's time.
public enum SnapshotTimes: Sendable, Equatable {
    /// The trace has no times.
    case none
    /// Each snapshot is an object whose member of this name is its time: an integer number of
    /// milliseconds.
    case field(String)
    /// Each file name's first run of decimal digits is its time in milliseconds (e.g.
    /// `feed-1733270400250.json`).
    case fileNames
}

/// How importers turn a snapshot's identifiers and contents into a trace's strings.
public enum SnapshotStrings: Sendable, Equatable {
    /// The hash (``traceHash(_:)``) of each value's canonical JSON text: shareable without the data.
    case hashed
    /// The canonical JSON text itself (each at most ``Trace/maxStringBytes`` bytes).
    case text

    /// The provenance's words for it.
    var provenance: String {
        switch self {
        case .hashed: "FNV-1a 64 (hex) of the value's canonical JSON text (object keys sorted, integral numbers as integers)"
        case .text: "the value's canonical JSON text (object keys sorted, integral numbers as integers)"
        }
    }
}

/// Importers that make a ``Trace`` from snapshots of a list: a folder of JSON files, or JSON lines
/// an app logged, one snapshot per line.
///
/// A snapshot is a list in `difflab diff`'s input format (a JSON array of elements: a scalar is its
/// own identifier and content; `{"id": scalar, "content": any}` otherwise), a sectioned list in
/// `difflab stages`' (an array of `{"id": scalar, "items": [...]}`), or an object holding either
/// under `"items"` or `"sections"`, with its time beside them. Identifiers and contents become
/// strings by their canonical JSON text (object keys sorted; `1` and `"1"` stay distinct), hashed
/// unless asked otherwise.
public enum SnapshotImport {
    /// The most files a folder import reads: 1,000,000.
    public static let maxFiles = 1_000_000

    /// Imports every `*.json` file of `folder`, ordered by name (byte order), one version each.
    /// An entry that is not a regular file (a FIFO, a device, a socket) is refused without
    /// waiting on it.
    ///
    /// - Parameters:
    ///   - folder: the folder whose `*.json` files are the snapshots.
    ///   - times: where each snapshot's time is, if anywhere; times must not decrease in name order.
    ///   - strings: whether identifiers and contents are kept as hashes or as their text.
    ///   - maxBytes: the most bytes read from one file.
    ///   - provenance: the trace's provenance except `ids` and `contents`, which are filled in.
    /// - Throws: ``TraceImportError`` naming the folder, or the file and what is wrong with it.
    /// - Complexity: O(total bytes read).
    public static func folder(
        _ folder: String, times: SnapshotTimes, strings: SnapshotStrings, maxBytes: Int, provenance: TraceProvenance
    ) throws(TraceImportError) -> Trace {
        guard let entries = FileSystem.directoryEntries(folder) else {
            throw TraceImportError("'\(folder)': cannot be read as a folder: \(PlatformError.current("opendir").message)", missingInput: true)
        }
        let names = entries.filter { $0.hasSuffix(".json") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard !names.isEmpty else { throw TraceImportError("'\(folder)': no *.json snapshot files") }
        guard names.count <= maxFiles else { throw TraceImportError("'\(folder)': \(names.count) snapshot files; at most \(maxFiles) are read") }
        var builder = Builder(strings: strings, provenance: provenance)
        for name in names {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let bytes: [UInt8]
            do { bytes = try readFile(path, limit: maxBytes, regularOnly: true) } catch {
                throw TraceImportError("\(error)", missingInput: error.isMissing)
            }
            let value: JSONValue
            do { value = try JSONValue.parse(bytes: bytes) } catch { throw TraceImportError("'\(path)': not JSON: \(error)") }
            var time: Int?
            var timeField: String?
            switch times {
            case .none: break
            case .field(let field): timeField = field
            case .fileNames:
                guard let digits = Self.firstNumber(in: name), let ms = Int(digits), ms <= Trace.maxTimestampMs else {
                    throw TraceImportError(
                        "'\(path)': the file name has no run of digits that is a time in milliseconds from 0 to \(Trace.maxTimestampMs)")
                }
                time = ms
            }
            try builder.add(value, what: "'\(path)'", timeField: timeField, time: time)
        }
        return builder.trace
    }

    /// Imports JSON lines an app logged: one snapshot per line, oldest first, each optionally an
    /// object with an integer `"timestampMs"` beside its `"items"` or `"sections"`. A final empty
    /// line is allowed; `\r` before a line's end is ignored.
    ///
    /// - Parameters:
    ///   - bytes: the log's contents.
    ///   - source: names the input in errors.
    ///   - strings: whether identifiers and contents are kept as hashes or as their text.
    ///   - provenance: the trace's provenance except `ids` and `contents`, which are filled in.
    /// - Throws: ``TraceImportError`` naming the input and the line.
    /// - Complexity: O(bytes); memory O(longest line + the trace).
    public static func appLog(
        _ bytes: some Collection<UInt8>, source: String, strings: SnapshotStrings, provenance: TraceProvenance
    ) throws(TraceImportError) -> Trace {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw TraceImportError("\(source): is empty; expected one JSON snapshot per line") }
        var builder = Builder(strings: strings, provenance: provenance)
        for (index, line) in lines.enumerated() {
            var text = ArraySlice(line)
            if text.last == UInt8(ascii: "\r") { text.removeLast() }
            let what = "\(source):\(index + 1)"
            let value: JSONValue
            do { value = try JSONValue.parse(bytes: text) } catch { throw TraceImportError("\(what): not JSON: \(error)") }
            let logsTime: Bool
            if case .object(let object) = value { logsTime = object["timestampMs"] != nil } else { logsTime = false }
            try builder.add(value, what: what, timeField: logsTime ? "timestampMs" : nil, time: nil)
        }
        return builder.trace
    }

    /// The first run of ASCII digits in `name`, at most 16 of them.
    static func firstNumber(in name: String) -> Substring? {
        guard let start = name.firstIndex(where: \.isASCIIDigit) else { return nil }
        let digits = name[start...].prefix(while: \.isASCIIDigit)
        return digits.count <= 16 ? digits : nil
    }

    /// Accumulates versions, checking that times are given for all or none and never decrease.
    struct Builder {
        var trace: Trace
        let strings: SnapshotStrings
        private var previousTime: Int?
        private var decoder = ElementDecoder(strings: .literal)

        init(strings: SnapshotStrings, provenance: TraceProvenance) {
            var provenance = provenance
            provenance.ids = strings.provenance
            provenance.contents = strings.provenance
            trace = Trace(provenance: provenance)
            self.strings = strings
        }

        /// Adds the snapshot `value`; its time is `time`, or the member `timeField` of an object.
        mutating func add(_ value: JSONValue, what: String, timeField: String?, time given: Int?) throws(TraceImportError) {
            var time = given
            var list = value
            if case .object(let object) = value {
                let items = object["items"]
                let sections = object["sections"]
                guard (items == nil) != (sections == nil) else {
                    throw TraceImportError(
                        "\(what): an object snapshot holds its list under \"items\" or its sections under \"sections\" (one of them)")
                }
                if let timeField {
                    guard case .integer(let ms)? = object[timeField], ms >= 0, ms <= Trace.maxTimestampMs else {
                        throw TraceImportError(
                            "\(what): \"\(timeField)\" should be an integer time in milliseconds from 0 to \(Trace.maxTimestampMs), not \(object[timeField].map { $0.serialized() } ?? "missing")"
                        )
                    }
                    time = ms
                }
                if let sections {
                    try addSections(sections, what: what, time: time)
                    return
                }
                list = items ?? .null
            } else if let timeField {
                throw TraceImportError(
                    "\(what): expected an object with the time \"\(timeField)\" beside \"items\" or \"sections\", not \(value.typeNameWithArticle)")
            }
            guard case .array(let elements) = list else {
                throw TraceImportError("\(what): expected a list (a JSON array of elements) or sections, not \(list.typeNameWithArticle)")
            }
            if case .object(let first)? = elements.first, first["items"] != nil {
                try addSections(list, what: what, time: time)
                return
            }
            let decoded: [JSONElement]
            do { decoded = try decoder.list(from: list, what: what) } catch { throw TraceImportError(error.description) }
            try checkTime(time, what: what)
            trace.append(try decoded.map { element throws(TraceImportError) in try pair(element, what) }, timestampMs: time)
        }

        private mutating func addSections(_ value: JSONValue, what: String, time: Int?) throws(TraceImportError) {
            let sections: JSONSections
            do { sections = try JSONSections(json: value, what: what, decoder: &decoder) } catch { throw TraceImportError(error.description) }
            try checkTime(time, what: what)
            var converted: [(id: String, items: [(id: String, content: String)])] = []
            for section in sections.sections {
                converted.append(
                    (try string(section.id, what), try section.items.map { element throws(TraceImportError) in try pair(element, what) }))
            }
            trace.append(sections: converted, timestampMs: time)
        }

        private mutating func checkTime(_ time: Int?, what: String) throws(TraceImportError) {
            guard !trace.versions.isEmpty else {
                previousTime = time
                return
            }
            switch (time, previousTime) {
            case (nil, nil): break
            case (let time?, let previous?):
                guard time >= previous else {
                    throw TraceImportError(
                        "\(what): its time \(time) ms is earlier than the previous snapshot's \(previous) ms; snapshots must be in time order")
                }
                previousTime = time
            default:
                throw TraceImportError(
                    "\(what): \(time == nil ? "has no time, but earlier snapshots have one" : "has a time, but earlier snapshots have none"); either every snapshot has a time or none has"
                )
            }
        }

        private func pair(_ element: JSONElement, _ what: String) throws(TraceImportError) -> (id: String, content: String) {
            (try string(element.id, what), try string(element.content, what))
        }

        private func string(_ value: JSONValue, _ what: String) throws(TraceImportError) -> String {
            let text = canonicalJSON(value)
            switch strings {
            case .hashed: return traceHash(text)
            case .text:
                guard text.utf8.count <= Trace.maxStringBytes else {
                    throw TraceImportError(
                        "\(what): a value's JSON text is \(text.utf8.count) bytes, over the \(Trace.maxStringBytes) a trace keeps; import it hashed")
                }
                return text
            }
        }
    }
}

/// `value`'s canonical JSON text: object keys sorted by their UTF-8 bytes, integral numbers within
/// ±2⁶³ written as integers (so `1` and `1.0`, equal as JSON values, have one text); strings and
/// other numbers as ``JSONValue/serialized(pretty:)`` writes them. Equal values (as ``JSONValue``
/// compares them) have equal texts for every number the parser keeps exactly.
///
/// - Complexity: O(size · log(keys per object)).
public func canonicalJSON(_ value: JSONValue) -> String {
    switch value {
    case .double(let d) where d.rounded() == d && abs(d) < 9.2e18:
        return String(Int(d))
    case .array(let items):
        return "[" + items.map(canonicalJSON).joined(separator: ",") + "]"
    case .object(let object):
        let keys = object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return "{" + keys.map { JSONValue.string($0).serialized() + ":" + canonicalJSON(object[$0] ?? .null) }.joined(separator: ",") + "}"
    default:
        return value.serialized()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension FileReadError {
    /// Whether the file could not be opened at all.
    var isMissing: Bool {
        switch self {
        case .cannotOpen, .isDirectory: true
        default: false
        }
    }
}
