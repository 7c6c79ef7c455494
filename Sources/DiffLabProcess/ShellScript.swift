extension ProcessEngine {
    /// The script `/bin/sh -c` runs for `command`: `exec COMMAND`, so that a simple command replaces
    /// the shell and *is* the child (the process the lab stops and measures), not a shell around it.
    ///
    /// Leading environment assignments (`NAME=value` words, as in `PYTHONHASHSEED=0 python3 e.py`)
    /// stay before the `exec`: `PYTHONHASHSEED=0 exec python3 e.py`. `exec` is a special built-in,
    /// and assignments before it reach the command it runs (dash, bash and POSIX shells do so);
    /// after it, `NAME=value` would be taken for the program's name. An assignment's value may be
    /// quoted or hold substitutions (`A='x y' B="$(pwd)/lib"`). When an assignment cannot be read
    /// with confidence — an unclosed quote, or an operator or line break inside the word
    /// (`A=1;./e`), or substitutions nested deeper than 64 — the script is `exec COMMAND` as it is,
    /// and the shell reports what is wrong.
    ///
    /// - Complexity: O(command).
    package static func shellScript(for command: String) -> String {
        let bytes = Array(command.utf8)
        var index = 0
        var end = 0
        while true {
            while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
            guard ShellWords.isAssignment(bytes, at: index) else { break }
            guard let wordEnd = ShellWords.end(of: bytes, from: index) else { return "exec " + command }
            index = wordEnd
            end = wordEnd
        }
        guard end > 0 else { return "exec " + command }
        return String(decoding: bytes[..<end], as: UTF8.self) + " exec" + String(decoding: bytes[end...], as: UTF8.self)
    }
}

/// Just enough of the POSIX shell's word syntax to find where a leading assignment word ends
/// (``ProcessEngine/shellScript(for:)``).
private enum ShellWords {
    /// The deepest nesting of quotes and substitutions read.
    static let maxDepth = 64

    /// Whether the word at `index` starts with `NAME=` (a letter or `_`, then letters, digits or
    /// `_`, unquoted).
    static func isAssignment(_ s: [UInt8], at index: Int) -> Bool {
        func isNameByte(_ c: UInt8, first: Bool) -> Bool {
            c == UInt8(ascii: "_") || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
                || (!first && c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
        var i = index
        while i < s.count && isNameByte(s[i], first: i == index) { i += 1 }
        return i > index && i < s.count && s[i] == UInt8(ascii: "=")
    }

    /// The index just past the word starting at `start`: at an unquoted blank or the end.
    /// `nil` for an unquoted line break or operator (`;`, `&`, `|`, `(`, `)`, `<`, `>`), or
    /// anything ``skip(_:at:depth:)`` cannot read.
    static func end(of s: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < s.count {
            switch s[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): return i
            case UInt8(ascii: "\n"), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "<"), UInt8(ascii: ">"):
                return nil
            default:
                guard let next = skip(s, at: i, depth: 0) else { return nil }
                i = next
            }
        }
        return i
    }

    /// The index past the unit at `i`: a backslash and the byte it escapes, a single- or
    /// double-quoted string, a backquoted or `$(...)`, `$((...))` or `${...}` substitution, or one
    /// byte. `nil` when it is not closed, or nested deeper than ``maxDepth``.
    static func skip(_ s: [UInt8], at i: Int, depth: Int) -> Int? {
        guard depth < maxDepth else { return nil }
        switch s[i] {
        case UInt8(ascii: "\\"):
            return i + 1 < s.count ? i + 2 : nil
        case UInt8(ascii: "'"):
            guard let close = s[(i + 1)...].firstIndex(of: UInt8(ascii: "'")) else { return nil }
            return close + 1
        case UInt8(ascii: "\""):
            var j = i + 1
            while j < s.count {
                switch s[j] {
                case UInt8(ascii: "\""): return j + 1
                case UInt8(ascii: "\\"): j += 2
                case UInt8(ascii: "$"), UInt8(ascii: "`"):
                    guard let next = skip(s, at: j, depth: depth + 1) else { return nil }
                    j = next
                default: j += 1
                }
            }
            return nil
        case UInt8(ascii: "`"):
            var j = i + 1
            while j < s.count {
                if s[j] == UInt8(ascii: "`") { return j + 1 }
                j += s[j] == UInt8(ascii: "\\") ? 2 : 1
            }
            return nil
        case UInt8(ascii: "$") where i + 1 < s.count && (s[i + 1] == UInt8(ascii: "(") || s[i + 1] == UInt8(ascii: "{")):
            let (open, close) = s[i + 1] == UInt8(ascii: "(") ? (UInt8(ascii: "("), UInt8(ascii: ")")) : (UInt8(ascii: "{"), UInt8(ascii: "}"))
            var nesting = 0
            var j = i + 1
            while j < s.count {
                switch s[j] {
                case open:
                    nesting += 1
                    j += 1
                case close:
                    nesting -= 1
                    j += 1
                    if nesting == 0 { return j }
                case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "$"):
                    guard let next = skip(s, at: j, depth: depth + 1) else { return nil }
                    j = next
                default: j += 1
                }
            }
            return nil
        default:
            return i + 1
        }
    }
}
