import DiffLabCLI
import DiffLabProcess

/// A rule of the portability check: what it refuses and why a Mac fails on it.
package struct PortabilityRule: Sendable, Hashable {
    /// The rule's name, as findings print it (`mapfile`, `gnu-sed-in-place`, ...).
    package var name: String
    /// Why the construct breaks on macOS (its `/bin/bash` 3.2 and BSD tools), and what to write
    /// instead.
    package var why: String
}

/// One place that breaks on a Mac: a file, a line, the rule and what was found there.
package struct PortabilityFinding: Sendable, Equatable, CustomStringConvertible {
    /// The file, as given (relative to the checked root for a repository check).
    package var file: String
    /// The line, from 1.
    package var line: Int
    /// The rule broken.
    package var rule: PortabilityRule
    /// What was found (`sed -i`, `${a[-1]}`, `apt-get`).
    package var found: String

    package var description: String { "\(file):\(line): \(rule.name): \(found): \(rule.why)" }
}

/// The rules, each refusing one construct that macOS's `/bin/bash` 3.2 or its BSD tools lack.
///
/// Shell scripts (`#!` naming bash or sh, `*.sh`, `*.bash`) are lexed: comments, quoted text and
/// here-document bodies are not code, except `$(...)`, `${...}` and backquotes inside double
/// quotes. Swift files under `Sources/` and `Tests/` (not `Sources/DiffLabPlatform`, the one layer
/// that may name Linux's paths) are checked in their string literals only; comments are ignored.
///
/// A line opts out of every rule with a trailing `# portable: <reason>` comment (`// portable:
/// <reason>` in Swift) whose reason is not empty; an empty reason is a finding of its own.
///
/// A *Linux branch*, where `apt-get`, `apt`, `dpkg` and `ldconfig` may run, is one of: a `case` arm
/// whose whole pattern is `Linux)`; the `then` part of an `if` (or `elif`) whose condition compares
/// something with `=` or `==` to `Linux` (`if [ "$(uname -s)" = Linux ]; then`); or the body of a
/// function whose name ends in `_linux`.
package enum Portability {
    static func rule(_ name: String, _ why: String) -> PortabilityRule { PortabilityRule(name: name, why: why) }

    static let mapfile = rule("mapfile", "bash 4 builtin (macOS's /bin/bash is 3.2): read lines with `while IFS= read -r line; do ...; done`")
    static let coproc = rule("coproc", "bash 4 keyword (macOS's /bin/bash is 3.2): use a named pipe or a background job")
    static let declare = rule(
        "bash4-declare",
        "declare/local/typeset -A (associative), -n (nameref), -l/-u (case) and -g (global) are bash 4: macOS's bash 3.2 refuses them")
    static let caseModification = rule(
        "case-modification", "${x,,} ${x^^} ${x,} ${x^} are bash 4: convert case with `tr '[:upper:]' '[:lower:]'`")
    static let transformation = rule("expansion-transform", "${x@Q} and the other @ transformations are bash 4.4: quote with printf %q")
    static let negativeSubscript = rule("negative-subscript", "negative array subscripts are bash 4.3: use ${a[${#a[@]}-1]}")
    static let operators = rule("bash4-operator", "&>>, |&, ;& and ;;& are bash 4: write >>file 2>&1, 2>&1 |, and separate case arms")
    static let waitN = rule("wait-n", "wait -n is bash 4.3: wait for each process id")
    static let testV = rule("test-v", "[[ -v NAME ]] is bash 4.2: test ${NAME+set}")
    static let shopt = rule("bash4-shopt", "globstar, lastpipe and the other bash 4 shell options do not exist in macOS's bash 3.2")
    static let variable = rule("bash4-variable", "EPOCHSECONDS, EPOCHREALTIME, SRANDOM, BASHPID and BASH_ARGV0 are unset in macOS's bash 3.2")
    static let emptyArray = rule(
        "empty-array-under-nounset",
        "bash before 4.4 (macOS's 3.2) calls \"${a[@]}\" of an empty array unbound under set -u: write ${a[@]+\"${a[@]}\"}")
    static let sedInPlace = rule(
        "gnu-sed-in-place", "GNU sed takes -i with no suffix, BSD sed needs one as the next argument: `sed -i.bak ... && rm FILE.bak` works with both"
    )
    static let linuxOnly = rule(
        "linux-only-outside-linux-branch",
        "apt-get, apt, dpkg and ldconfig exist on Debian only: call them in a Linux branch (a `Linux)` case arm, "
            + "`if [ ... = Linux ]; then`, or a function named *_linux) and give Darwin its own (brew, or a skip line)")
    static let optOut = rule("opt-out-without-reason", "a `portable:` comment opts a line out only with a reason after the colon")
    static let swiftProc = rule(
        "swift-proc-path", "/proc exists on Linux only: ask DiffLabPlatform, which has a Darwin branch (or opt out naming the Linux-only fallback)")
    static let swiftGNU = rule(
        "swift-gnu-command", "a command line with a GNU-only flag fails on macOS's BSD tools: do it in Swift through DiffLabPlatform")

    /// A GNU-only flag of a tool: the short letters and long options BSD's tool lacks.
    struct FlagRule {
        var tool: String
        var letters: String
        var long: [String]
        var rule: PortabilityRule
    }

    static let flagRules: [FlagRule] = [
        FlagRule(tool: "date", letters: "d", long: ["--date"], rule: rule("gnu-date-d", "BSD date has no -d: parse with `date -j -f` or in Swift")),
        FlagRule(
            tool: "stat", letters: "c", long: ["--format", "--printf"],
            rule: rule("gnu-stat-c", "BSD stat has no -c (it spells formats -f): avoid stat, or branch on the platform")),
        FlagRule(
            tool: "readlink", letters: "fem", long: ["--canonicalize"],
            rule: rule("gnu-readlink-f", "BSD readlink has no -f, -e or -m: use `cd \"$(dirname \"$f\")\" && pwd -P`")),
        FlagRule(tool: "env", letters: "C", long: ["--chdir"], rule: rule("gnu-env-C", "BSD env has no -C: `(cd DIR && exec COMMAND)`")),
        FlagRule(tool: "grep", letters: "P", long: ["--perl-regexp"], rule: rule("gnu-grep-P", "BSD grep has no -P: use -E")),
        FlagRule(tool: "xargs", letters: "r", long: ["--no-run-if-empty"], rule: rule("gnu-xargs-r", "BSD xargs has no -r: test for input first")),
        FlagRule(
            tool: "sort", letters: "V", long: ["--version-sort"], rule: rule("gnu-sort-V", "sort -V is missing from older BSD sort: compare in Swift")
        ),
        FlagRule(tool: "cp", letters: "", long: ["--reflink"], rule: rule("gnu-cp-reflink", "BSD cp has no --reflink (macOS clones with cp -c)")),
        FlagRule(
            tool: "find", letters: "", long: ["-printf", "-fprintf"], rule: rule("gnu-find-printf", "BSD find has no -printf: use -exec or stat")),
    ]

    /// Tools macOS does not have at all, each with what to use instead. A line that tests for the
    /// tool (`command -v TOOL`) is guarded.
    static let missingTools: [String: PortabilityRule] = [
        "nproc": rule("gnu-nproc", "macOS has no nproc: `getconf _NPROCESSORS_ONLN` works on both"),
        "timeout": rule("gnu-timeout", "macOS has no timeout (GNU coreutils): guard it with `command -v timeout` or let the program time itself"),
        "sha256sum": rule("gnu-sha256sum", "macOS has no sha256sum: `shasum -a 256`"),
        "sha1sum": rule("gnu-sha1sum", "macOS has no sha1sum: `shasum -a 1`"),
        "md5sum": rule("gnu-md5sum", "macOS has no md5sum: `md5 -r`"),
        "tac": rule("gnu-tac", "macOS has no tac: `tail -r`"),
    ]

    static let linuxOnlyCommands: Set<String> = ["apt-get", "apt", "dpkg", "ldconfig"]
    static let bash4Options: Set<String> = [
        "globstar", "lastpipe", "autocd", "checkjobs", "direxpand", "dirspell", "globasciiranges", "inherit_errexit", "localvar_inherit",
        "localvar_unset", "assoc_expand_once", "patsub_replacement",
    ]
    static let bash4Variables = ["EPOCHSECONDS", "EPOCHREALTIME", "SRANDOM", "BASHPID", "BASH_ARGV0"]
    /// Substrings of a Swift string literal (or of a line's literals joined by spaces, so
    /// `["env", "-C", dir]` counts) that name a GNU-only command line.
    static let swiftGNUCommands = ["env -C", "readlink -f", "stat -c", "date -d", "grep -P", "xargs -r"]  // portable: the rule's own patterns

    /// Every rule, for the documentation and the tests.
    package static var rules: [PortabilityRule] {
        [
            mapfile, coproc, declare, caseModification, transformation, negativeSubscript, operators, waitN, testV, shopt, variable, emptyArray,
            sedInPlace,
        ]
            + flagRules.map(\.rule) + missingTools.values.sorted { $0.name < $1.name } + [linuxOnly, optOut, swiftProc, swiftGNU]
    }
}

// MARK: - Shell scripts

/// A token of a shell script: a word (quoted text masked with `_`, so words inside strings never
/// look like commands), a control operator (`;`, `&&`, `|`, newline, `(`, `$(`...), or a
/// redirection operator.
struct ShellToken: Equatable {
    enum Kind { case word, control, redirect }
    var kind: Kind
    /// The text, quoted contents masked (`'abc'` is `'___'`), `${...}` and `$name` kept.
    var text: String
    /// The text as written.
    var raw: String
    var line: Int
}

/// A shell script lexed: its tokens, its `${...}` expansions and its comments by line.
struct ShellLexer {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var word: [UInt8] = []
    private var rawWord: [UInt8] = []
    private var wordLine = 1
    private var pendingHeredocs: [(delimiter: [UInt8], stripTabs: Bool)] = []
    private(set) var tokens: [ShellToken] = []
    private(set) var expansions: [(text: String, line: Int)] = []
    private(set) var comments: [Int: String] = [:]

    /// Lexes `bytes`. - Complexity: O(bytes).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        code(until: nil)
        endWord()
    }

    private func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    private mutating func append(_ masked: UInt8, raw: UInt8) {
        if word.isEmpty && rawWord.isEmpty { wordLine = line }
        word.append(masked)
        rawWord.append(raw)
    }

    private mutating func appendVerbatim(_ text: ArraySlice<UInt8>) {
        for byte in text { append(byte, raw: byte) }
    }

    private mutating func endWord() {
        guard !rawWord.isEmpty else { return }
        tokens.append(
            ShellToken(kind: .word, text: String(decoding: word, as: UTF8.self), raw: String(decoding: rawWord, as: UTF8.self), line: wordLine))
        word = []
        rawWord = []
    }

    private mutating func emit(_ kind: ShellToken.Kind, _ text: String) {
        endWord()
        tokens.append(ShellToken(kind: kind, text: text, raw: text, line: line))
    }

    /// Consumes a newline: counts it, then skips the bodies of the here-documents it starts.
    private mutating func newline() {
        index += 1
        line += 1
        let heredocs = pendingHeredocs
        pendingHeredocs = []
        for heredoc in heredocs {
            while index < bytes.count {
                let start = index
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                var text = bytes[start..<index]
                if index < bytes.count {
                    index += 1
                    line += 1
                }
                if heredoc.stripTabs { text = text.drop { $0 == 0x09 } }
                if text.elementsEqual(heredoc.delimiter) { break }
            }
        }
    }

    /// Code, until the byte `terminator` (a `)` closing `$(` at depth 0, or a backquote) or the end.
    private mutating func code(until terminator: UInt8?) {
        var depth = 0
        while let byte = peek() {
            switch byte {
            case 0x20, 0x09, 0x0D:
                endWord()
                index += 1
            case 0x0A:
                emit(.control, "\n")
                newline()
            case UInt8(ascii: "#") where rawWord.isEmpty:
                let start = index + 1
                while let next = peek(), next != 0x0A { index += 1 }
                comments[line] = String(decoding: bytes[start..<index], as: UTF8.self)
            case UInt8(ascii: "\\"):
                if peek(1) == 0x0A {
                    index += 2
                    line += 1
                } else {
                    appendVerbatim(bytes[index..<min(index + 2, bytes.count)])
                    index += 2
                }
            case UInt8(ascii: "'"): quoted(closing: UInt8(ascii: "'"), escapes: false)
            case UInt8(ascii: "\""): doubleQuoted()
            case UInt8(ascii: "`"):
                index += 1
                if terminator == UInt8(ascii: "`") {
                    endWord()
                    return
                }
                substitution("`", until: UInt8(ascii: "`"))
            case UInt8(ascii: "$"): dollar()
            case UInt8(ascii: "(") where peek(1) == UInt8(ascii: "(") && rawWord.isEmpty: balanced(from: index)
            case UInt8(ascii: "("):
                index += 1
                depth += 1
                emit(.control, "(")
            case UInt8(ascii: ")"):
                index += 1
                if terminator == UInt8(ascii: ")") && depth == 0 {
                    endWord()
                    return
                }
                depth = max(0, depth - 1)
                emit(.control, ")")
            case UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "<"), UInt8(ascii: ">"): operatorToken()
            default:
                append(byte, raw: byte)
                index += 1
            }
        }
    }

    /// `$(...)` or a backquoted command: a control token, the code, a closing control token.
    private mutating func substitution(_ opening: String, until terminator: UInt8) {
        emit(.control, opening)
        code(until: terminator)
        emit(.control, terminator == UInt8(ascii: ")") ? ")" : "`")
    }

    private mutating func dollar() {
        switch peek(1) {
        case UInt8(ascii: "("):
            if peek(2) == UInt8(ascii: "(") {
                balanced(from: index + 1)
            } else {
                index += 2
                substitution("$(", until: UInt8(ascii: ")"))
            }
        case UInt8(ascii: "{"):
            let start = index
            var depth = 0
            let line = self.line
            while let byte = peek() {
                index += 1
                if byte == 0x0A { self.line += 1 }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "{") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
            let text = bytes[start..<min(index, bytes.count)]
            expansions.append((String(decoding: text, as: UTF8.self), line))
            appendVerbatim(text)
        case UInt8(ascii: "'"):
            append(UInt8(ascii: "$"), raw: UInt8(ascii: "$"))
            index += 1
            quoted(closing: UInt8(ascii: "'"), escapes: true)
        default:
            append(UInt8(ascii: "$"), raw: UInt8(ascii: "$"))
            index += 1
            while let byte = peek(), isNameByte(byte) {
                append(byte, raw: byte)
                index += 1
            }
        }
    }

    /// `((...))` or `$((...))` from `start`: arithmetic, kept verbatim as part of a word.
    private mutating func balanced(from start: Int) {
        if start > index { appendVerbatim(bytes[index..<start]) }
        index = start
        var depth = 0
        while let byte = peek() {
            append(byte, raw: byte)
            index += 1
            if byte == 0x0A { line += 1 }
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { break }
            }
        }
    }

    /// Single-quoted text (or `$'...'` with `escapes`): masked.
    private mutating func quoted(closing: UInt8, escapes: Bool) {
        append(bytes[index], raw: bytes[index])
        index += 1
        while let byte = peek() {
            index += 1
            if byte == closing {
                append(byte, raw: byte)
                return
            }
            if byte == 0x0A { line += 1 }
            append(UInt8(ascii: "_"), raw: byte)
            if escapes && byte == UInt8(ascii: "\\"), let next = peek() {
                append(UInt8(ascii: "_"), raw: next)
                index += 1
            }
        }
    }

    /// Double-quoted text: literal text masked; expansions and substitutions kept as code.
    private mutating func doubleQuoted() {
        append(UInt8(ascii: "\""), raw: UInt8(ascii: "\""))
        index += 1
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                append(byte, raw: byte)
                index += 1
                return
            case UInt8(ascii: "\\"):
                if peek(1) == 0x0A { line += 1 }
                append(UInt8(ascii: "_"), raw: byte)
                if let next = peek(1) { append(UInt8(ascii: "_"), raw: next) }
                index += 2
            case UInt8(ascii: "$"): dollar()
            case UInt8(ascii: "`"):
                index += 1
                substitution("`", until: UInt8(ascii: "`"))
            default:
                if byte == 0x0A { line += 1 }
                append(UInt8(ascii: "_"), raw: byte)
                index += 1
            }
        }
    }

    private static let operators: [String] = [
        ";;&", ";;", ";&", ";", "&&", "&>>", "&>", "&", "||", "|&", "|", "<<<", "<<-", "<<", "<>", "<&", "<(", ">>", ">&", ">|", ">(", ">", "<",
    ]

    private mutating func operatorToken() {
        let rest = bytes[index...]
        guard let op = Self.operators.first(where: { rest.starts(with: $0.utf8) }) else { return }
        index += op.utf8.count
        let redirect = op.hasPrefix("<") || op.hasPrefix(">") || op.hasPrefix("&>")
        if op == "<(" || op == ">(" {
            substitution(op, until: UInt8(ascii: ")"))
            return
        }
        emit(redirect ? .redirect : .control, op)
        if op == "<<" || op == "<<-" {
            while let byte = peek(), byte == 0x20 || byte == 0x09 { index += 1 }
            var delimiter: [UInt8] = []
            while let byte = peek(), !" \t\n;&|<>()".utf8.contains(byte) {
                if byte != UInt8(ascii: "'") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { delimiter.append(byte) }
                index += 1
            }
            pendingHeredocs.append((delimiter, op == "<<-"))
        }
    }
}

func isNameByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
}

extension Portability {
    /// The short-option letters of `word` (`-Ei` gives `Ei`), or `nil` when it is not a cluster of
    /// short options. Quotes are dropped first (`-i''` is `-i`).
    static func shortOptions(_ word: String) -> Substring? {
        let bare = word.filter { $0 != "'" && $0 != "\"" }
        guard bare.hasPrefix("-"), !bare.hasPrefix("--"), bare.count > 1 else { return nil }
        let letters = bare.dropFirst()
        return letters.allSatisfy { $0.isLetter || $0.isNumber } ? Substring(letters) : nil
    }

    /// The findings of one shell script.
    ///
    /// - Complexity: O(text × rules).
    package static func shellFindings(_ bytes: [UInt8], file: String) -> [PortabilityFinding] {
        let lexed = ShellLexer(bytes)
        let tokens = lexed.tokens
        let linux = linuxBranches(tokens)
        var found: [PortabilityFinding] = []
        func report(_ line: Int, _ rule: PortabilityRule, _ what: String) {
            found.append(PortabilityFinding(file: file, line: line, rule: rule, found: what))
        }
        // The arguments of the command word at `index`: the words after it up to a control operator.
        func arguments(_ index: Int) -> [ShellToken] {
            Array(tokens[(index + 1)...].prefix { $0.kind != .control }.filter { $0.kind == .word })
        }
        // `command -v NAME`, `type NAME`, `which NAME`, `hash NAME`: a look-up, not a call.
        func isLookUp(_ index: Int) -> Bool {
            guard index > 0, tokens[index - 1].kind == .word else { return false }
            let previous = tokens[index - 1].text
            if ["type", "which", "hash"].contains(previous) { return true }
            return ["-v", "-V"].contains(previous) && index > 1 && tokens[index - 2].text == "command"
        }
        let guarded = Set(
            tokens.indices.filter { isLookUp($0) && tokens[$0 - 1].text != "type" }.map { "\(tokens[$0].line) \(tokens[$0].text)" })
        var emptyArrays = Set<String>()
        for index in tokens.indices.dropLast(2) where tokens[index].kind == .word && tokens[index].text.hasSuffix("=") {
            let name = tokens[index].text.dropLast()
            if !name.isEmpty, name.utf8.allSatisfy(isNameByte), tokens[index + 1].text == "(", tokens[index + 2].text == ")" {
                emptyArrays.insert(String(name))
            }
        }

        for (index, token) in tokens.enumerated() {
            if token.kind != .word {
                if ["&>>", "|&", ";&", ";;&"].contains(token.text) { report(token.line, operators, token.text) }
                continue
            }
            let word = token.text
            switch word {
            case "mapfile", "readarray", "coproc":
                if !isLookUp(index) { report(token.line, word == "coproc" ? coproc : mapfile, word) }
            case "declare", "local", "typeset":
                for argument in arguments(index) {
                    guard let letters = shortOptions(argument.text) else { continue }
                    for letter in letters where "Anlug".contains(letter) { report(argument.line, declare, "\(word) -\(letter)") }
                }
            case "wait" where arguments(index).contains { shortOptions($0.text)?.contains("n") ?? false }:
                report(token.line, waitN, "wait -n")
            case "[[", "[", "test":
                let next = arguments(index).drop { $0.text == "!" }.first
                if next?.text == "-v" { report(token.line, testV, "\(word) -v") }
            case "shopt":
                for argument in arguments(index) where bash4Options.contains(argument.text) { report(argument.line, shopt, "shopt \(argument.text)") }
            case "sed":
                for argument in arguments(index) {
                    let inPlace = shortOptions(argument.text).map { $0.hasSuffix("i") } ?? (argument.text == "--in-place")
                    if inPlace { report(argument.line, sedInPlace, "sed \(argument.raw)") }
                }
            default:
                if let tool = flagRules.first(where: { $0.tool == word }) {
                    for argument in arguments(index) {
                        let letters = shortOptions(argument.text) ?? ""
                        if letters.contains(where: { tool.letters.contains($0) }) || tool.long.contains(where: { argument.text.hasPrefix($0) }) {
                            report(argument.line, tool.rule, "\(word) \(argument.raw)")
                        }
                    }
                } else if let rule = missingTools[word], !isLookUp(index), !guarded.contains("\(token.line) \(word)") {
                    report(token.line, rule, word)
                } else if linuxOnlyCommands.contains(word), !isLookUp(index), !linux[index] {
                    report(token.line, linuxOnly, word)
                }
            }
            if let name = word.split(separator: "[", maxSplits: 1).first, word.contains("[-"), name.utf8.allSatisfy(isNameByte),
                word.hasPrefix(name + "[-")
            {
                report(token.line, negativeSubscript, word)
            }
            for name in bash4Variables where word.contains("$" + name) && !word.contains("${") {
                report(token.line, variable, "$" + name)
            }
        }
        for expansion in lexed.expansions {
            found += expansionFindings(expansion.text, line: expansion.line, file: file, emptyArrays: emptyArrays)
        }
        return applyOptOuts(found, comments: lexed.comments, marker: "#", file: file)
    }

    /// The findings of one `${...}` expansion and those nested in it.
    static func expansionFindings(_ text: String, line: Int, file: String, emptyArrays: Set<String>) -> [PortabilityFinding] {
        var found: [PortabilityFinding] = []
        let utf8 = Array(text.utf8)
        var start = 0
        while let open = utf8[start...].firstIndex(of: UInt8(ascii: "$")), open + 1 < utf8.count {
            start = open + 1
            guard utf8[open + 1] == UInt8(ascii: "{") else { continue }
            var cursor = open + 2
            let counted = cursor < utf8.count && (utf8[cursor] == UInt8(ascii: "#") || utf8[cursor] == UInt8(ascii: "!"))
            if counted { cursor += 1 }
            let nameStart = cursor
            while cursor < utf8.count && isNameByte(utf8[cursor]) { cursor += 1 }
            if cursor == nameStart, cursor < utf8.count, "@*#?-$!".utf8.contains(utf8[cursor]) { cursor += 1 }
            let name = String(decoding: utf8[nameStart..<cursor], as: UTF8.self)
            guard !name.isEmpty else { continue }
            var subscriptText = ""
            if cursor < utf8.count, utf8[cursor] == UInt8(ascii: "["), let close = utf8[cursor...].firstIndex(of: UInt8(ascii: "]")) {
                subscriptText = String(decoding: utf8[(cursor + 1)..<close], as: UTF8.self)
                cursor = close + 1
            }
            let next = cursor < utf8.count ? utf8[cursor] : nil
            let shown = String(decoding: utf8[open..<min(cursor + 1, utf8.count)], as: UTF8.self)
            func report(_ rule: PortabilityRule) { found.append(PortabilityFinding(file: file, line: line, rule: rule, found: shown)) }
            if !counted, next == UInt8(ascii: ",") || next == UInt8(ascii: "^") { report(caseModification) }
            if next == UInt8(ascii: "@"), cursor + 2 < utf8.count, (0x41...0x7A).contains(utf8[cursor + 1]), utf8[cursor + 2] == UInt8(ascii: "}") {
                report(transformation)
            }
            if subscriptText.drop(while: { $0 == " " }).hasPrefix("-") { report(negativeSubscript) }
            if bash4Variables.contains(name) { report(variable) }
            if open == 0, !counted, ["@", "*"].contains(subscriptText), next == UInt8(ascii: "}"), emptyArrays.contains(name) { report(emptyArray) }
        }
        return found
    }

    /// For each token, whether it is inside a Linux branch (see ``Portability``).
    static func linuxBranches(_ tokens: [ShellToken]) -> [Bool] {
        enum CaseState { case header, pattern, arm }
        enum Frame {
            case ifBlock(start: Int, linux: Bool)
            case caseBlock(CaseState, pattern: [String], linux: Bool)
            case brace(linux: Bool)
            var isLinux: Bool {
                switch self {
                case .ifBlock(_, let linux), .brace(let linux): linux
                case .caseBlock(let state, _, let linux): state == .arm && linux
                }
            }
        }
        func unquoted(_ text: String) -> String { text.filter { $0 != "'" && $0 != "\"" } }
        var stack: [Frame] = []
        var atCommand = true
        var functionLinux: Bool?
        var inLinux = [Bool](repeating: false, count: tokens.count)
        for (index, token) in tokens.enumerated() {
            inLinux[index] = stack.contains { $0.isLinux }
            if case .caseBlock(.pattern, var pattern, _) = stack.last {
                switch (token.kind, token.text) {
                case (.word, "esac") where pattern.isEmpty: stack.removeLast()
                case (.word, _):
                    pattern.append(unquoted(token.raw))
                    stack[stack.count - 1] = .caseBlock(.pattern, pattern: pattern, linux: false)
                case (.control, ")"):
                    stack[stack.count - 1] = .caseBlock(.arm, pattern: [], linux: pattern == ["Linux"])
                    atCommand = true
                default: break
                }
                continue
            }
            if token.kind == .control {
                if [";;", ";&", ";;&"].contains(token.text), case .caseBlock = stack.last {
                    stack[stack.count - 1] = .caseBlock(.pattern, pattern: [], linux: false)
                } else if token.text == ")", index >= 2, tokens[index - 1].text == "(", tokens[index - 2].kind == .word {
                    functionLinux = tokens[index - 2].text.hasSuffix("_linux")
                }
                atCommand = true
                continue
            }
            guard token.kind == .word else { continue }
            if token.text == "in", case .caseBlock(.header, _, _) = stack.last {
                stack[stack.count - 1] = .caseBlock(.pattern, pattern: [], linux: false)
                continue
            }
            guard atCommand else { continue }
            atCommand = ["then", "do", "else", "elif", "if", "while", "until", "!", "{", "time"].contains(token.text)
            switch token.text {
            case "if": stack.append(.ifBlock(start: index, linux: false))
            case "elif", "then", "else":
                guard case .ifBlock(let start, _) = stack.last else { break }
                let condition = tokens[start..<index].map { unquoted($0.raw) }
                let isLinuxTest =
                    token.text == "then" && zip(condition, condition.dropFirst()).contains { ["=", "=="].contains($0) && $1 == "Linux" }
                stack[stack.count - 1] = .ifBlock(start: index, linux: isLinuxTest)
            case "fi": if case .ifBlock = stack.last { stack.removeLast() }
            case "case": stack.append(.caseBlock(.header, pattern: [], linux: false))
            case "esac": if case .caseBlock = stack.last { stack.removeLast() }
            case "{":
                stack.append(.brace(linux: functionLinux ?? false))
                functionLinux = nil
            case "}": if case .brace = stack.last { stack.removeLast() }
            case "function":
                if index + 1 < tokens.count { functionLinux = tokens[index + 1].text.hasSuffix("_linux") }
            default: break
            }
        }
        return inLinux
    }

    /// Whether a comment's text is an opt-out with a reason: `portable: REASON`.
    static func isOptOut(_ comment: String) -> Bool {
        let text = comment.drop { $0 == " " || $0 == "\t" }
        return text.hasPrefix("portable:") && !text.dropFirst("portable:".count).allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// Drops the findings on lines that opt out with a reason (a comment beginning `portable:`
    /// after `marker`'s comment syntax), and adds one for each opt-out without a reason.
    static func applyOptOuts(_ found: [PortabilityFinding], comments: [Int: String], marker: String, file: String) -> [PortabilityFinding] {
        var optedOut = Set<Int>()
        var result: [PortabilityFinding] = []
        for (line, comment) in comments.sorted(by: { $0.key < $1.key }) {
            if isOptOut(comment) {
                optedOut.insert(line)
            } else if comment.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("portable:") {
                result.append(PortabilityFinding(file: file, line: line, rule: optOut, found: "\(marker) portable:"))
            }
        }
        return (result + found.filter { !optedOut.contains($0.line) }).sorted { ($0.line, $0.rule.name) < ($1.line, $1.rule.name) }
    }
}

// MARK: - Swift files

extension Portability {
    /// The string literals of a Swift file, as (line, text) pieces (a multi-line literal gives one
    /// per line), and its `//` comments by line. Block comments are skipped.
    struct SwiftLiterals {
        private let bytes: [UInt8]
        private var index = 0
        private var line = 1
        /// Each piece's line, text, and the line its literal ends on (where a multi-line literal's
        /// opt-out comment goes, after the closing quotes).
        private(set) var pieces: [(line: Int, text: String, end: Int)] = []
        private(set) var comments: [Int: String] = [:]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            code(untilParen: false)
        }

        private func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        private mutating func code(untilParen: Bool) {
            var depth = 0
            while let byte = peek() {
                switch byte {
                case 0x0A:
                    line += 1
                    index += 1
                case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                    let start = index + 2
                    while let next = peek(), next != 0x0A { index += 1 }
                    comments[line] = String(decoding: bytes[start..<index], as: UTF8.self)
                case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                    var nesting = 0
                    while let next = peek() {
                        if next == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                            nesting += 1
                            index += 2
                        } else if next == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                            nesting -= 1
                            index += 2
                            if nesting == 0 { break }
                        } else {
                            if next == 0x0A { line += 1 }
                            index += 1
                        }
                    }
                case UInt8(ascii: "#"), UInt8(ascii: "\""):
                    var hashes = 0
                    while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
                    guard peek(hashes) == UInt8(ascii: "\"") else {
                        index += max(hashes, 1)
                        continue
                    }
                    index += hashes
                    literal(hashes: hashes)
                case UInt8(ascii: "("):
                    depth += 1
                    index += 1
                case UInt8(ascii: ")"):
                    index += 1
                    if untilParen && depth == 0 { return }
                    depth -= 1
                default: index += 1
                }
            }
        }

        /// A string literal from its opening quote(s), `hashes` `#` before it (a raw string).
        private mutating func literal(hashes: Int) {
            let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
            let quote = Array(repeating: UInt8(ascii: "\""), count: multiline ? 3 : 1)
            let closing = quote + Array(repeating: UInt8(ascii: "#"), count: hashes)
            index += quote.count
            var piece: [UInt8] = []
            var pieceLine = line
            var found: [(line: Int, text: String)] = []
            func flush() {
                if !piece.isEmpty { found.append((pieceLine, String(decoding: piece, as: UTF8.self))) }
                piece = []
            }
            defer { pieces += found.map { ($0.line, $0.text, line) } }
            while let byte = peek() {
                if bytes[index...].starts(with: closing) {
                    index += closing.count
                    break
                }
                let escape = [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "#"), count: hashes)
                if bytes[index...].starts(with: escape) {
                    index += escape.count
                    if peek() == UInt8(ascii: "(") {
                        index += 1
                        flush()
                        code(untilParen: true)
                        pieceLine = line
                    } else if let next = peek() {
                        if next == 0x0A { line += 1 }
                        piece.append(next)
                        index += 1
                    }
                    continue
                }
                index += 1
                if byte == 0x0A {
                    flush()
                    line += 1
                    pieceLine = line
                    if !multiline { break }
                    continue
                }
                piece.append(byte)
            }
            flush()
        }
    }

    /// The findings of one Swift file: its string literals name no `/proc` path and no GNU-only
    /// command line. A multi-line literal's lines opt out by a comment after its closing quotes.
    ///
    /// - Complexity: O(text).
    package static func swiftFindings(_ bytes: [UInt8], file: String) -> [PortabilityFinding] {
        let literals = SwiftLiterals(bytes)
        var found: [PortabilityFinding] = []
        var byLine: [Int: [String]] = [:]
        let optedOut = Set(literals.comments.filter { isOptOut($0.value) }.keys)
        for piece in literals.pieces where !optedOut.contains(piece.end) {
            byLine[piece.line, default: []].append(piece.text)
            if piece.text.contains("/proc/") || piece.text.hasSuffix("/proc") {  // portable: the rule's own pattern
                found.append(PortabilityFinding(file: file, line: piece.line, rule: swiftProc, found: piece.text))
            }
        }
        for (line, pieces) in byLine {
            let joined = pieces.joined(separator: " ")
            for command in swiftGNUCommands where joined.contains(command) {
                found.append(PortabilityFinding(file: file, line: line, rule: swiftGNU, found: command))
            }
        }
        return applyOptOuts(found, comments: literals.comments, marker: "//", file: file)
    }
}

// MARK: - The repository

/// What the portability check read and found.
package struct PortabilityReport: Sendable, Equatable {
    /// The shell scripts read.
    package var shellScripts: [String] = []
    /// The Swift files read.
    package var swiftFiles: [String] = []
    /// Every finding, by file and line.
    package var findings: [PortabilityFinding] = []
}

extension Portability {
    /// Whether `path`, whose first bytes are `head`, is a shell script: named `*.sh` or `*.bash`,
    /// or starting with a `#!` line that runs bash or sh.
    static func isShellScript(_ path: String, head: ArraySlice<UInt8>) -> Bool {
        if path.hasSuffix(".sh") || path.hasSuffix(".bash") { return true }
        guard head.starts(with: "#!".utf8) else { return false }
        let firstLine = String(decoding: head.prefix { $0 != 0x0A }.dropFirst(2), as: UTF8.self)
        let words = firstLine.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let program = words.first?.split(separator: "/").last else { return false }
        let interpreter = program == "env" ? words.dropFirst().first { !$0.hasPrefix("-") } : program
        return interpreter == "bash" || interpreter == "sh"
    }

    /// Whether the Swift rule applies to `path` (relative to the package root): a Swift file under
    /// `Sources/` or `Tests/`, not in the platform layer.
    static func isCheckedSwiftFile(_ path: String) -> Bool {
        path.hasSuffix(".swift") && (path.hasPrefix("Sources/") || path.hasPrefix("Tests/")) && !path.hasPrefix("Sources/DiffLabPlatform/")
    }

    /// Checks `paths` (relative to `root`): the shell scripts among them by the shell rules, the
    /// Swift files under `Sources/` and `Tests/` outside the platform layer by the Swift rules;
    /// other files are not read (a file without an extension is read for its `#!` line).
    ///
    /// - Throws: ``CommandError`` (66) when a file cannot be read.
    /// - Complexity: O(total size of the files read).
    package static func check(root: String, paths: [String]) throws(CommandError) -> PortabilityReport {
        var report = PortabilityReport()
        for path in paths.sorted() {
            let name = path.split(separator: "/").last ?? ""
            if isCheckedSwiftFile(path) {
                report.swiftFiles.append(path)
                report.findings += swiftFindings(try readInputFile(root + "/" + path), file: path)
            } else if path.hasSuffix(".sh") || path.hasSuffix(".bash") || !name.contains(".") {
                let bytes = try readInputFile(root + "/" + path)
                guard isShellScript(path, head: bytes.prefix(256)) else { continue }
                report.shellScripts.append(path)
                report.findings += shellFindings(bytes, file: path)
            }
        }
        return report
    }

    /// The files git tracks under `root` (`git ls-files`), relative to it.
    ///
    /// - Throws: ``CommandError`` (1) when git cannot list them (not a repository, no git).
    package static func trackedFiles(root: String) throws(CommandError) -> [String] {
        let folder = try asCommandError { () throws(ProcessError) in try Cleanup.shared.makeTemporaryDirectory("difflab-portability") }
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let list = folder + "/files"
        let status = try asCommandError { () throws(ProcessError) in
            try runProcess("git", ["-C", root, "ls-files", "-z"], stdout: list, stderr: folder + "/errors")
        }
        guard status == 0 else {
            let errors = (try? readInputFile(folder + "/errors")).map { oneLine(String(decoding: $0, as: UTF8.self)) } ?? ""
            throw CommandError(.failure, "portability: git ls-files in \(root) exited \(status): \(errors)")
        }
        return try readInputFile(list).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// `difflab-dev portability`: the scripts and the Swift files hold nothing a Mac lacks.
enum PortabilityCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let paths = Positionals("[PATH...]", count: 0...Int.max) { "portability takes any number of paths (got \($0))" }
        let root = Option.text("root", "DIR", help: "the repository whose tracked files are checked when no PATH is given (default: .)")
        let list = Flag("list", help: "print the shell scripts the check reads, one a line (Scripts/test runs shellcheck on them), and exit 0")
        init() {}
    }

    static let name = "portability"
    static let tool = "difflab-dev"
    static let abstract = "fail on shell and Swift code that breaks on macOS (bash 3.2, BSD tools)"
    static let discussion = """
        Checks every shell script git tracks (named *.sh or *.bash, or starting with a #! line that
        runs bash or sh) and every Swift file under Sources/ and Tests/ outside
        Sources/DiffLabPlatform, or the PATHs given. Scripts fail on bash 4 constructs (mapfile,
        readarray, coproc, declare -A/-n/-l/-u/-g, ${x,,} ${x^^} ${x,} ${x^}, ${x@Q}, negative
        subscripts, &>> |& ;& ;;&, wait -n, [[ -v ]], bash 4 shopt options and variables, and
        "${a[@]}" of an array assigned () somewhere: unbound under set -u before bash 4.4), on
        GNU-only flags and tools (sed -i without an attached suffix, date -d, stat -c, readlink
        -f, env -C, grep -P, xargs -r, find -printf, sort -V, cp --reflink; nproc, timeout,
        sha256sum, sha1sum, md5sum, tac unless the line tests `command -v TOOL`), and on apt-get,
        apt, dpkg or ldconfig outside a Linux branch: a `Linux)` case arm, the then-part of an if
        whose condition compares with = or == to Linux, or a function named *_linux. Comments,
        quoted text and here-document bodies are not code. Swift files fail on a string literal
        holding a /proc path or a GNU-only command line (env -C, readlink -f, stat -c, date -d,
        grep -P, xargs -r; the literals of a line are also read joined, so ["env", "-C"] counts).
        A line opts out with a trailing `# portable: REASON` (`// portable: REASON` in Swift, after
        the closing quotes for a multi-line literal); an empty reason is itself a finding.
        Scripts/test runs it, then shellcheck on the scripts --list prints.
        """  // portable: the help names the constructs the check refuses
    static let epilogue = """
        EXIT STATUS
          0 nothing found (with --list: scripts listed), 1 findings (or no file was checked), 64 bad
          command line, 66 unreadable file
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let root = parsed[\.root] ?? "."
        let given = parsed[\.paths]
        let report: PortabilityReport
        if given.isEmpty {
            report = try Portability.check(root: root, paths: try Portability.trackedFiles(root: root))
        } else {
            // Given paths are checked as they are: a Swift file wherever it is, unless it is in the platform layer.
            var result = PortabilityReport()
            for path in given {
                let bytes = try readInputFile(path)
                if path.hasSuffix(".swift") {
                    guard !path.contains("Sources/DiffLabPlatform/") else { continue }
                    result.swiftFiles.append(path)
                    result.findings += Portability.swiftFindings(bytes, file: path)
                } else if Portability.isShellScript(path, head: bytes.prefix(256)) {
                    result.shellScripts.append(path)
                    result.findings += Portability.shellFindings(bytes, file: path)
                }
            }
            report = result
        }
        if parsed[\.list] {
            for script in report.shellScripts { console.out(script + "\n") }
            return report.shellScripts.isEmpty ? .failure : .success
        }
        for finding in report.findings { console.err("\(finding)\n") }
        let read = "\(report.shellScripts.count) shell scripts and \(report.swiftFiles.count) Swift files"
        guard !report.shellScripts.isEmpty || !report.swiftFiles.isEmpty else {
            console.err("portability: no shell script or Swift file was read: nothing was checked\n")
            return .failure
        }
        if report.findings.isEmpty {
            console.out("portability: \(read) checked, nothing a Mac lacks\n")
            return .success
        }
        console.err("portability: \(report.findings.count) findings in \(read)\n")
        return .failure
    }
}
