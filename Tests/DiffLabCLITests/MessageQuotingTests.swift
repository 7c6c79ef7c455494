import Testing

@testable import DiffLabCLI

/// Text another program wrote, quoted in DiffLab's messages (an engine's standard error): its lines
/// kept, nothing in it able to pass for a line of DiffLab's or to move a terminal's cursor.
@Suite("Quoting another program's output in messages")
struct MessageQuotingTests {
    /// On standard error a message is one line of DiffLab's and the quoted lines under it; any
    /// other line break, or a control character smuggled into a quoted line, stays escaped.
    @Test func anErrorIsOneLineAndItsQuotes() {
        let quoted = "engine failed; its standard error ends:" + quotedLines(Array("a\nb".utf8)[...], limit: 600)
        #expect(errorText(quoted) == "engine failed; its standard error ends:\n    | a\n    | b")
        #expect(errorText("bad\nname\r\n    | \u{1b}[2J") == "bad\\u{a}name\\u{d}\\u{a}    | \\u{1b}[2J")
        #expect(errorText("x\n    | \u{1b}[2J\nnot a quote") == "x\n    | \\u{1b}[2J\\u{a}not a quote")
        let flood = "x" + String(repeating: "\n    | " + String(repeating: "y", count: 2_000), count: 500)
        let lines = errorText(flood).split(separator: "\n")
        #expect(lines.count == 1 + maxQuotedLines + 1)
        #expect(lines.dropFirst().allSatisfy { $0.count <= "    | ".count + 1_001 })
        #expect(lines.last == "    | …")
    }
}
