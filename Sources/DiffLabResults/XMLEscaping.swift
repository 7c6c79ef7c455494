/// `text` made safe for XML character data and attribute values (single- or double-quoted).
///
/// - `&`, `<`, `>`, `"` and `'` become entity references.
/// - Characters XML 1.0 forbids (controls below U+0020 other than tab, line feed and carriage
///   return, and U+FFFE / U+FFFF) become U+FFFD, so any input string yields well-formed markup.
/// - Everything else, including non-ASCII text such as `µ` or `×`, is kept as is (documents are UTF-8).
///
/// - Complexity: O(n) in the number of Unicode scalars.
package func xmlEscaped(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out.append(contentsOf: "&amp;".unicodeScalars)
        case "<": out.append(contentsOf: "&lt;".unicodeScalars)
        case ">": out.append(contentsOf: "&gt;".unicodeScalars)
        case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
        case "'": out.append(contentsOf: "&apos;".unicodeScalars)
        case "\t", "\n", "\r": out.append(scalar)
        default:
            if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                out.append("\u{FFFD}")
            } else {
                out.append(scalar)
            }
        }
    }
    return String(out)
}
