import DiffLabCore
import DiffLabJSON
import DiffLabResults

extension CommandError {
    /// A malformed input document: exit 65 with the decoder's line.
    init(_ error: InputFormatError) { self.init(.dataError, error.description) }
}

/// Reads and decodes a list file for a command.
///
/// - Throws: exit 66 when unreadable, exit 65 for malformed JSON or a wrong element shape.
func readList(_ path: String, _ decoder: inout ElementDecoder) throws(CommandError) -> [JSONElement] {
    let document = try readJSON(path)
    do { return try decoder.list(from: document, what: path) } catch { throw CommandError(error) }
}

/// Reads and parses a JSON file for a command.
///
/// - Throws: exit 66 when unreadable, exit 65 for malformed JSON.
package func readJSON(_ path: String) throws(CommandError) -> JSONValue {
    let bytes = try readInputFile(path)
    do {
        return try JSONValue.parse(bytes: bytes)
    } catch {
        throw .data("\(path): malformed JSON at \(error)")
    }
}
