import DiffLabFormatting
import DiffLabResults

/// Small helpers for writing GitHub-flavoured markdown.
enum Markdown {
    /// `text` safe inside a table cell: `|` escaped, line breaks turned into spaces.
    static func cell(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "|": out += "\\|"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` as inline code (backticks inside become `'`, so the span cannot break).
    static func code(_ text: String) -> String {
        "`" + text.replacingBackticks() + "`"
    }

    /// A table with `header` and `rows`; `rightAligned` marks numeric columns by index. Rows shorter
    /// than the header are padded with empty cells. No rows → a single "(none)" line.
    static func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        guard !rows.isEmpty else { return "(none)\n" }
        var lines = ["| " + header.map(cell).joined(separator: " | ") + " |"]
        lines.append("|" + header.indices.map { rightAligned.contains($0) ? "---:" : "---" }.joined(separator: "|") + "|")
        for row in rows {
            let padded = (0..<header.count).map { $0 < row.count ? cell(row[$0]) : "" }
            lines.append("| " + padded.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A collapsible block (GitHub renders `<details>`), for long tables.
    static func details(_ summary: String, _ body: String) -> String {
        "<details><summary>\(xmlEscaped(summary))</summary>\n\n" + body + "\n</details>\n"
    }

    /// The rows every section's header starts with: when the run was made, on what machine, with
    /// which toolchain, at which commit (clean or not) and how long it took (those the file has).
    /// `text` formats the date, machine and toolchain cells; the commit is a literal. O(machine).
    static func provenanceRows(_ provenance: RunProvenance, text: (String) -> String = { $0 }) -> [[String]] {
        var rows: [[String]] = []
        if let createdAt = provenance.createdAt { rows.append(["date", utcDateTime(createdAt)]) }
        for field in provenance.machine { rows.append(["machine: " + field.name, machineValue(field)]) }
        if let toolchain = provenance.toolchain { rows.append(["toolchain", toolchain]) }
        rows = rows.map { $0.map(text) }
        if let commit = provenance.commit {
            rows.append(["commit", literal(commit) + (provenance.dirty.map { $0 ? " (with uncommitted changes)" : " (clean)" } ?? "")])
        }
        if let seconds = provenance.seconds { rows.append(["run time", NumberStyle.seconds.format(seconds)]) }
        return rows
    }

    /// A machine field for display: byte counts (names ending in `Bytes`) also in SI units,
    /// e.g. `25276514304 (25.3 GB)`; anything else as it is.
    static func machineValue(_ field: DisplayField) -> String {
        if field.name.hasSuffix("Bytes"), let bytes = Double(field.value) {
            return field.value + " (" + NumberStyle.bytes.format(bytes) + ")"
        }
        return field.value
    }

    /// An image reference to a file beside the report, with its caption below.
    static func figure(_ file: String, alt: String, caption: String) -> String {
        "![\(alt.replacingBrackets())](\(file))\n\n" + caption + "\n"
    }
}

extension String {
    fileprivate func replacingBackticks() -> String {
        String(map { $0 == "`" ? "'" : $0 })
    }

    fileprivate func replacingBrackets() -> String {
        String(map { $0 == "[" ? "(" : $0 == "]" ? ")" : $0 })
    }
}
