import DiffLabJSON
import Foundation

/// Parses JSON text with DiffLab's parser.
func parseJSON(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }
