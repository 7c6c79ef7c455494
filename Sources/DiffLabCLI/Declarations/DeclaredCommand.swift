/// One command of a DiffLab command line: its name, its declared options, its prose, and what
/// runs it. Its help is generated: the usage line and the OPTIONS section from the declarations,
/// between them and after them the command's own prose.
package protocol DeclaredCommand: SendableMetatype {
    associatedtype Options: DeclaredOptions
    /// The words that select it, e.g. `diff` or `policy real-time`.
    static var name: String { get }
    /// The program it belongs to: `difflab` (default) or `difflab-dev`.
    static var tool: String { get }
    /// What it does, in a few words, for the list of commands.
    static var abstract: String { get }
    /// Other forms of the command, each the options it requires and those it accepts; the main
    /// usage line lists every option no other form requires.
    static var otherForms: [UsageForm<Options>] { get }
    /// The first usage line's options, when not every option no other form requires.
    static var mainForm: UsageForm<Options>? { get }
    /// Prose between the usage lines and OPTIONS (what the command does).
    static var discussion: String { get }
    /// Prose after OPTIONS (further sections: EXIT STATUS, ...).
    static var epilogue: String { get }
    /// Runs the command with its parsed arguments (help already handled).
    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus
    /// Parses the arguments after the command's words and runs it (or prints its help); a
    /// command whose errors all have one exit status (the gate's 1) maps them here.
    static func main(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus
}

extension DeclaredCommand {
    package static var otherForms: [UsageForm<Options>] { [] }
    package static var mainForm: UsageForm<Options>? { nil }
    package static var tool: String { "difflab" }
    package static var epilogue: String { "" }

    /// Parses `arguments` (those after the command's name) and runs the command, or prints its
    /// help when asked.
    package static func main(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        try parseAndRun(arguments, console: console)
    }

    /// ``main(_:console:)``'s default: parse, then print the help or run.
    package static func parseAndRun(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        let parsed = try Options.parse(arguments)
        if parsed.wantsHelp {
            console.out(help + "\n")
            return .success
        }
        return try run(parsed, console: console)
    }

    /// The help text: usage lines, the discussion, OPTIONS, the epilogue.
    package static var help: String {
        let declarations = Options.declarations
        let required = Set(otherForms.flatMap { $0.required(in: declarations) })
        let main = mainForm.map {
            usageLine("USAGE: \(tool) \(name)", $0.declarations(in: declarations), requiring: Set($0.required(in: declarations)))
        }
        var usage = [main ?? usageLine("USAGE: \(tool) \(name)", declarations.filter { !required.contains($0.name) }, requiring: [])]
        for form in otherForms {
            usage.append(usageLine("       \(tool) \(name)", form.declarations(in: declarations), requiring: Set(form.required(in: declarations))))
        }
        var text = usage.joined(separator: "\n") + "\n\n" + discussion
        text += "\n\nOPTIONS\n" + optionsSection(declarations + [helpDeclaration])
        if !epilogue.isEmpty { text += "\n\n" + epilogue }
        return text
    }
}

/// One more form of a command: the options it requires and those it accepts, in order.
package struct UsageForm<Options: DeclaredOptions>: Sendable {
    private let requiredKeys: [PartialKeyPath<Options> & Sendable]
    private let optionalKeys: [PartialKeyPath<Options> & Sendable]

    /// A form requiring `required` and accepting `optional`.
    package init(required: [PartialKeyPath<Options> & Sendable], optional: [PartialKeyPath<Options> & Sendable] = []) {
        self.requiredKeys = required
        self.optionalKeys = optional
    }

    func required(in declarations: [any Declaration]) -> [String] { names(requiredKeys) }

    func declarations(in declarations: [any Declaration]) -> [any Declaration] {
        let wanted = names(requiredKeys + optionalKeys)
        return wanted.compactMap { name in declarations.first { $0.name == name } }
    }

    private func names(_ keys: [PartialKeyPath<Options> & Sendable]) -> [String] {
        let options = Options()
        return keys.compactMap { (options[keyPath: $0] as? any Declaration)?.name }
    }
}

/// `-h, --help`, listed last under every command's OPTIONS.
let helpDeclaration: any Declaration = Flag("help", help: "show this help")

/// The widest a help line runs.
let helpWidth = 100

/// `prefix` and then each visible declaration as the usage line shows it (`[--engine NAME]`,
/// `OLD.json NEW.json`), wrapped at ``helpWidth`` with continued lines aligned after `prefix`.
func usageLine(_ prefix: String, _ declarations: [any Declaration], requiring required: Set<String>) -> String {
    var words: [String] = []
    for declaration in declarations where !declaration.isHidden {
        let plain: String
        switch declaration.shape {
        case .valued(let value): plain = "--\(declaration.name) \(value)"
        case .repeated(let value): plain = "--\(declaration.name) \(value)"
        case .flag: plain = "--\(declaration.name)"
        case .positionals:
            words.insert(declaration.name, at: 0)
            continue
        }
        words.append(
            required.contains(declaration.name) || declaration.isRequired ? plain : "[\(plain)]" + (declaration.shape.isRepeated ? "..." : ""))
    }
    let indent = String(repeating: " ", count: prefix.count + 1)
    var lines: [String] = [prefix]
    for word in words {
        if lines[lines.count - 1].count + 1 + word.count > helpWidth && lines[lines.count - 1] != prefix && lines[lines.count - 1] != indent {
            lines.append(indent + word)
        } else {
            lines[lines.count - 1] += (lines[lines.count - 1] == indent ? "" : " ") + word
        }
    }
    return lines.joined(separator: "\n")
}

/// The OPTIONS section: each visible option's label (`--engine NAME`; `-h, --help`) and its help
/// text wrapped in a column after the widest label (at most 22 characters: a longer label has its
/// text start on the next line).
func optionsSection(_ declarations: [any Declaration]) -> String {
    func label(_ declaration: any Declaration) -> String? {
        switch declaration.shape {
        case .valued(let value), .repeated(let value): "--\(declaration.name) \(value)"
        case .flag: declaration.name == "help" ? "-h, --help" : "--\(declaration.name)"
        case .positionals: nil
        }
    }
    let visible = declarations.filter { !$0.isHidden }.compactMap { declaration in label(declaration).map { ($0, declaration.helpText) } }
    let column = 2 + min(22, visible.map(\.0.count).max() ?? 0) + 2
    var lines: [String] = []
    for (label, text) in visible {
        let body = wrapped(text, width: helpWidth - column)
        let head = "  " + label
        if head.count + 2 <= column {
            lines.append(head + String(repeating: " ", count: column - head.count) + (body.first ?? ""))
        } else {
            lines.append(head)
            lines.append(String(repeating: " ", count: column) + (body.first ?? ""))
        }
        lines += body.dropFirst().map { String(repeating: " ", count: column) + $0 }
    }
    return lines.joined(separator: "\n")
}

/// `text` wrapped at `width`: each of its lines (split at `\n`) is a paragraph; a paragraph that
/// fits stays as it is (so a small table in help keeps its columns), a longer one is wrapped at
/// spaces, its leading spaces indenting every line it wraps to.
func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        guard paragraph.count > width else {
            // A short line keeps its spacing (the columns of a small table).
            lines.append(String(paragraph))
            continue
        }
        let indent = String(paragraph.prefix { $0 == " " })
        var line = indent
        for word in paragraph.dropFirst(indent.count).split(separator: " ") {
            if line.count > indent.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
    }
    return lines
}
