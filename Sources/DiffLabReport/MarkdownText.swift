// Hostile text in markdown: names, messages and counterexamples that come from engines and
// third-party libraries, shown so that they read as what they are and nothing else — no table
// broken by a pipe or a line break, no HTML, link, image, emphasis or math, no control or
// bidirectional-override character reordering what a reader sees.

extension Markdown {
    /// `text` as plain inline markdown, shown literally.
    ///
    /// - `&`, `<` and `>` become entity references (no HTML element can start);
    /// - markdown punctuation that could start emphasis, a link, an image, code, a strike-through,
    ///   math or a heading (`\` `` ` `` `*` `_` `[` `]` `(` `)` `!` `~` `$` `#`) is backslash-escaped, so
    ///   `](` never appears;
    /// - line breaks and tabs become spaces; other control characters and bidirectional
    ///   overrides/isolates become U+FFFD (see ``displayable(_:keepingLineBreaks:)``).
    ///
    /// `|` is left as it is: ``table(_:_:rightAligned:)`` escapes it in cells, and outside a table
    /// it is plain text. - Complexity: O(n) in the number of Unicode scalars.
    static func text(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in displayable(text, keepingLineBreaks: false).unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\\", "`", "*", "_", "[", "]", "(", ")", "!", "~", "$", "#":
                out.append("\\")
                out.append(scalar)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` as inline code (``code(_:)``) after ``displayable(_:keepingLineBreaks:)``: for lists,
    /// signatures and batch updates in tables. O(n).
    static func literal(_ text: String) -> String {
        code(displayable(text, keepingLineBreaks: false))
    }

    /// A fenced code block showing `text` exactly (after ``displayable(_:keepingLineBreaks:)``
    /// with line breaks kept as `\n`): the fence is one backtick longer than the longest run of
    /// backticks in `text`, and at least three, so no line of `text` can close it. Ends with a
    /// line break. O(n).
    static func codeBlock(_ text: String) -> String {
        let shown = displayable(text, keepingLineBreaks: true)
        var longest = 0
        var run = 0
        for scalar in shown.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = Swift.max(longest, run)
        }
        let fence = String(repeating: "`", count: Swift.max(3, longest + 1))
        return fence + "text\n" + shown + "\n" + fence + "\n"
    }

    /// `text` cut to its first `limit` Unicode scalars followed by `…` when it is longer, for
    /// table cells (the full text is in the results file, or a bug report). O(limit).
    static func brief(_ text: String, _ limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: Swift.max(0, limit), limitedBy: scalars.endIndex), cut != scalars.endIndex
        else { return text }
        return String(scalars[..<cut]) + "…"
    }

    /// `text` without what could change how a reader sees it: control characters (C0 but tab
    /// and line breaks, DEL, C1), bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069) and non-characters U+FFFE/U+FFFF become U+FFFD; tabs become spaces; line
    /// breaks (CR LF, CR, LF, U+2028, U+2029) become `\n` when `keepingLineBreaks`, else spaces.
    /// O(n).
    static func displayable(_ text: String, keepingLineBreaks: Bool) -> String {
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar.value {
            case 0x0A where afterCR: continue  // the LF of a CR LF
            case 0x0A, 0x0D, 0x2028, 0x2029: out.append(keepingLineBreaks ? "\n" : " ")
            case 0x09: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
