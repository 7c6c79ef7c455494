import DiffLabPlatform

// Text another program wrote, made safe to quote in one of DiffLab's messages (shared with the
// command line's own messages).

/// At most `limit` bytes of `bytes` (the first ones, or the last with `tail`) as one line of text:
/// invalid UTF-8 replaced, controls escaped (``oneLine(_:)``), `…` marking a cut.
package func excerpt(_ bytes: ArraySlice<UInt8>, limit: Int = 160, tail: Bool = false) -> String {
    guard bytes.count > limit else { return oneLine(String(decoding: bytes, as: UTF8.self)) }
    let text = oneLine(String(decoding: tail ? bytes.suffix(limit) : bytes.prefix(limit), as: UTF8.self))
    return tail ? "…" + text : text + "…"
}

/// The marker that starts every line ``quotedLines(_:limit:cut:)`` quotes: a line break, four spaces
/// and a bar. A message is one line, followed by such lines only (``errorText(_:)`` keeps them).
package let quotedLinePrefix = "\n    | "

/// The last `limit` bytes of `bytes` — text another program wrote, such as an engine's standard
/// error — as lines of their own for a message: each line starts with ``quotedLinePrefix``
/// (`\n    | `), so it reads as a quote and can never pass for a line of DiffLab's; `…` marks a
/// first line cut here, or (`cut`) before `bytes` began. Invalid UTF-8 is replaced; every line break Swift knows (LF, CRLF, a lone CR, VT,
/// FF, NEL, the Unicode line and paragraph separators) ends a line; tabs stay; every other control
/// character is escaped as `\u{…}` (``harmlessLine(_:)``), so the quote cannot move a terminal's
/// cursor, and the outputs a message reaches (CSV, JUnit, markdown, JSON) quote its line breaks
/// as they quote any. A last empty line (the text ended with a line break) is left out. Empty for
/// no bytes.
///
/// - Complexity: O(limit).
package func quotedLines(_ bytes: ArraySlice<UInt8>, limit: Int, cut: Bool = false) -> String {
    let cut = cut || bytes.count > limit
    let text = String(decoding: bytes.suffix(limit), as: UTF8.self)
    var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    if lines.last?.isEmpty == true { lines.removeLast() }
    if cut, !lines.isEmpty { lines[0] = "…" + lines[0] }
    return lines.map { quotedLinePrefix + harmlessLine($0) }.joined()
}

/// `line` with every control character but the tab, and the Unicode line and paragraph
/// separators, escaped as `\u{…}` (``oneLine(_:)``'s rule, tabs kept, no length limit).
package func harmlessLine(_ line: some StringProtocol) -> String {
    var result = ""
    for scalar in line.unicodeScalars { appendHarmless(scalar, to: &result, keepingTabs: true) }
    return result
}

/// Appends `scalar` to `text`, or `\u{…}` for a control character (C0, DEL, C1; a tab only
/// without `keepingTabs`) or a Unicode line or paragraph separator: the one rule of
/// ``oneLine(_:)`` and ``harmlessLine(_:)``.
package func appendHarmless(_ scalar: Unicode.Scalar, to text: inout String, keepingTabs: Bool) {
    let value = scalar.value
    let control = (value < 0x20 && !(keepingTabs && value == 0x09)) || value == 0x7f || (0x80..<0xa0).contains(value)
    if control || value == 0x2028 || value == 0x2029 {
        text += "\\u{\(String(value, radix: 16))}"
    } else {
        text.unicodeScalars.append(scalar)
    }
}

/// `message` as one line of at most 1,000 characters: control characters and line or paragraph
/// separators (which a file's own strings may carry into a message) are escaped as `\u{…}`, and a
/// longer message is cut with `…`.
package func oneLine(_ message: String) -> String {
    var result = ""
    var count = 0
    for scalar in message.unicodeScalars {
        guard count < 1_000 else {
            result += "…"
            break
        }
        appendHarmless(scalar, to: &result, keepingTabs: false)
        count += 1
    }
    return result
}
