/// A syntax error found by ``JSONValue/parse(_:)`` or ``JSONValue/parse(bytes:)``.
///
/// ## Position
/// - ``line`` is 1-based. A line ends at `\n`, at `\r\n` (counted once) or at a lone `\r`.
/// - ``column`` is 1-based and counts **Unicode scalars** (code points) from the start of the line —
///   not UTF-8 bytes and not grapheme clusters. A tab counts as one column. A leading byte-order mark
///   (which the parser skips) is not counted.
///
/// The position is where the problem is detected: the offending character, or the end of the input
/// (one past the last character) when the document stops early. Exceptions, chosen for readability:
/// "unterminated string" points at the opening quote; escape errors point at the backslash of the
/// offending escape; "duplicate key" points at the opening quote of the repeated key; "invalid literal"
/// and "number out of range" point at the first character of the token; "leading zeros" points at the
/// leading `0` digit.
///
/// ## Messages
/// | message | cause |
/// |---|---|
/// | `unexpected end of input, expected a value` | empty input, `[1,`, `{"a":` |
/// | `unexpected character 'x', expected a value` | `+1`, `.5`, `[,]`, `'a'` (non-printable shown as `U+0001`) |
/// | `expected ',' or ']' after array element` | `[1 2]`, `[1` |
/// | `expected ',' or '}' after object member` | `{"a":1 "b":2}` |
/// | `expected string key or '}'` | `{1:2}`, `{` |
/// | `expected string key` | `{"a":1,}` |
/// | `expected ':' after object key` | `{"a" 1}` |
/// | `duplicate key "x" in object` | `{"x":1,"x":2}` (key shown JSON-escaped; keys compare literally, code point for code point, so precomposed and decomposed `é` are two different keys, not duplicates) |
/// | `invalid literal, expected 'true'` (or `'false'`, `'null'`) | `tru`, `nul`, `fals e` |
/// | `leading zeros are not allowed in numbers` | `01`, `-00` |
/// | `expected digit after '-'` | `-`, `-a` |
/// | `expected digit after decimal point` | `1.`, `1.e3` |
/// | `expected digit in exponent` | `1e`, `1e+` |
/// | `number out of range (magnitude above about 1.8e308, the largest double; integers have at most 309 digits)` | `1e400`, `-1e400`, a 310-digit integer: the magnitude must round to a finite `Double`, integers included |
/// | `unterminated string` | `"abc` |
/// | `unescaped control character U+000A in string` | a raw newline inside a string |
/// | `invalid escape sequence '\x'` | `"\x"` |
/// | `invalid \u escape, expected 4 hexadecimal digits` | `"\u12G4"` |
/// | `lone surrogate \uD800 in string` | unpaired high or low surrogate escape |
/// | `invalid UTF-8 byte sequence` | bad bytes in ``JSONValue/parse(bytes:)`` input |
/// | `nesting depth exceeds the limit of 512` | more than 512 nested arrays/objects |
/// | `unexpected trailing content after value` | `1 2`, `{} x` |
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the error position.
    public var line: Int
    /// 1-based column of the error position, counted in Unicode scalars (see the type documentation).
    public var column: Int
    /// What went wrong, without position, e.g. `expected ',' or ']' after array element`.
    public var message: String

    /// Creates an error value (mainly useful for comparing against parser results in tests).
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `"line L, column C: message"`, e.g. `line 3, column 7: expected ',' or ']' after array element`.
    public var description: String {
        "line \(line), column \(column): \(message)"
    }
}
