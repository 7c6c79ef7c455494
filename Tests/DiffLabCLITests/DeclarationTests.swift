import DiffLabDev
import Foundation
import Testing

@testable import DiffLabCLI

/// Every command's options are declared once, and that declaration is the parsing, the typed
/// value and the help: these tests hold the declarations to it and the committed command-line
/// reference to the code.
@Suite struct DeclarationTests {
    static let commands = (DiffLabCommand.commands + DevCommands.commands).flatMap(\.all)
    static let devNames = Set(DevCommands.commands.map(\.name))

    /// Every stored property of a command's options is a declaration (a property of another type
    /// would be an option nobody can give), every name is given once, none is `help` or a global
    /// option's, and at most one declaration holds the positionals.
    @Test(arguments: commands.map(\.name))
    func everyOptionIsDeclaredOnceUnderItsOwnName(command name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name })
        let declarations = command.declarations()
        #expect(declarations.count == command.storedPropertyCount(), "\(name) has a stored property that is not a declaration")
        let names = declarations.filter { !$0.shape.isPositionals }.map(\.name)
        #expect(Set(names).count == names.count, "\(name) declares a name twice: \(names)")
        let reserved = Set(["help", "version"] + GlobalOptions.declarations.map(\.name))
        #expect(names.allSatisfy { !reserved.contains($0) }, "\(name) declares a reserved or global name: \(names)")
        #expect(declarations.filter(\.shape.isPositionals).count <= 1)
        for declaration in declarations where !declaration.shape.isPositionals {
            #expect(!declaration.helpText.isEmpty, "\(name) --\(declaration.name) has no help")
            #expect(declaration.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(declaration.name)")
        }
    }

    /// The help lists every visible option under OPTIONS with the range its parser enforces, and
    /// names each in the usage lines.
    @Test(arguments: commands.map(\.name))
    func helpListsEveryDeclaredOption(command name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name })
        let help = command.help()
        let sections = help.components(separatedBy: "\nOPTIONS\n")
        try #require(sections.count == 2, "\(name)'s help has no OPTIONS section")
        let usage = help.components(separatedBy: "\n\n")[0]
        for declaration in command.declarations() where !declaration.isHidden && !declaration.shape.isPositionals {
            #expect(usage.contains("--\(declaration.name)"), "\(name)'s usage lacks --\(declaration.name)")
            #expect(sections[1].contains("  --\(declaration.name)"), "\(name)'s OPTIONS lack --\(declaration.name)")
            if let constraint = (declaration as? any ConstrainedDeclaration)?.constraintText {
                // The range the parser enforces, as the help states it (wrapping may break it
                // across lines: compare without line breaks and indentation).
                let flat = sections[1].split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(
                    flat.contains(constraint.split(whereSeparator: \.isWhitespace).joined(separator: " ")),
                    "\(name) --\(declaration.name): \(constraint)")
            }
        }
        #expect(help.hasPrefix("USAGE: \(Self.devNames.contains(name) ? "difflab-dev" : "difflab") \(name)"))
    }

    /// The committed reference is what the declarations generate; regenerate it with
    /// `swift run difflab help --reference > docs/command-line.md`.
    @Test func theCommittedCommandLineReferenceIsGenerated() throws {
        let committed = try String(contentsOfFile: cliPackageRoot + "/docs/command-line.md", encoding: .utf8)
        let generated = DiffLabCommand.reference()
        #expect(
            committed == generated,
            "docs/command-line.md differs from the declarations: run swift run difflab help --reference > docs/command-line.md")
        #expect(run(["help", "--reference"]).out == generated)
        for command in DiffLabCommand.commands.flatMap(\.all) { #expect(generated.contains("## difflab \(command.name)\n")) }
        let dev = try String(contentsOfFile: cliPackageRoot + "/docs/difflab-dev.md", encoding: .utf8)
        let generatedDev = DiffLabCommand.reference(commands: DevCommands.commands, tool: "difflab-dev")
        #expect(
            dev == generatedDev, "docs/difflab-dev.md differs from the declarations: run swift run difflab-dev help --reference > docs/difflab-dev.md"
        )
        #expect(runDev(["help", "--reference"]).out == generatedDev)
    }

    // MARK: The parser

    struct Sample: DeclaredOptions {
        let files = Positionals("A B", count: 1...2) { "sample needs one or two files (got \($0))" }
        let count = Option.integer("count", in: 1...10, default: 3, help: "how many")
        let name = Option.text("name", "NAME", help: "a name")
        let words = RepeatedOption("word", "W", help: "a word") { text throws(CommandError) in text.uppercased() }
        let loud = Flag("loud", help: "shout")
        let mode = Option<SampleMode>.choice("mode", "MODE", help: "a mode").required()
        init() {}
    }

    enum SampleMode: String, CaseIterable, Sendable { case fast, slow }

    @Test func valuesAreTypedDefaultedAndInOrder() throws {
        let parsed = try Sample.parse(["a", "--count=7", "--word", "x", "--mode", "slow", "--word=y", "--loud", "--", "--b"])
        #expect(parsed[\.files] == ["a", "--b"])
        #expect(parsed[\.count] == 7)
        #expect(parsed[\.words] == ["X", "Y"])
        #expect(parsed[\.loud])
        #expect(parsed.required(\.mode) == .slow)
        #expect(parsed[\.name] == nil)
        #expect(!parsed.isGiven(\.name) && parsed.isGiven(\.count))
        #expect(parsed.raw(\.count) == "7")
        let defaults = try Sample.parse(["a", "--mode", "fast"])
        #expect(defaults[\.count] == 3 && !defaults.isGiven(\.count) && !defaults[\.loud] && defaults[\.words].isEmpty)
    }

    @Test(arguments: [
        (["a", "--mode", "fast", "--bogus"], "unknown option '--bogus'"),
        (["a", "--mode", "fast", "-x"], "unknown option '-x'"),
        (["a", "--mode", "fast", "--count", "11"], "--count expects an integer from 1 to 10 (got '11')"),
        (["a", "--mode", "fast", "--count", "2", "--count", "3"], "option '--count' given twice"),
        (["a", "--mode", "fast", "--loud=yes"], "option '--loud' takes no value"),
        (["a", "--mode", "fast", "--name"], "option '--name' needs a value"),
        (["a", "--mode", "medium"], "--mode expects one of: fast, slow (got 'medium')"),
        (["a"], "missing --mode MODE (one of: fast, slow)"),
        (["--mode", "fast"], "sample needs one or two files (got 0)"),
        (["a", "b", "c", "--mode", "fast"], "sample needs one or two files (got 3)"),
    ])
    func everyMistakeIsAUsageErrorNamingIt(arguments: [String], message: String) {
        #expect(throws: CommandError.usage(message)) { try Sample.parse(arguments) }
    }

    @Test func helpIsAnsweredWhateverElseIsWrong() throws {
        #expect(try Sample.parse(["--help", "--bogus", "--count", "99"]).wantsHelp)
        #expect(try Sample.parse(["-h"]).wantsHelp)
    }

    // MARK: Commands

    /// The real-time lab is a subcommand of `policy`, with its own help; the old flag is gone.
    @Test func policyRealTimeIsASubcommand() {
        let viaHelp = run(["help", "policy", "real-time"])
        let viaFlag = run(["policy", "real-time", "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0 && viaHelp.out == viaFlag.out)
        #expect(viaFlag.out.hasPrefix("USAGE: difflab policy real-time [--quick]"))
        for option in ["--edits", "--background-engine", "--frame-work"] { #expect(viaFlag.out.contains(option)) }
        let old = run(["policy", "--real-time", "--help"])
        #expect(old.status == 0 && old.out.hasPrefix("USAGE: difflab policy [--quick]"), "help wins")
        let refused = run(["policy", "--real-time", "--sizes", "1000"])
        #expect(refused.status == 64 && refused.err.contains("unknown option '--real-time'"), "\(refused.err)")
    }

    /// The global options parse by their declarations, anywhere before `--`.
    @Test func globalOptionsAreDeclaredAndChecked() {
        let early = run(["--engine-name", "x", "diff", "--help"])
        #expect(early.status == 64 && early.err.contains("--engine-name must follow the --engine-command it applies to"), "\(early.err)")
        let twice = run(["--max-input-bytes", "10", "diff", "--max-input-bytes=20", "--help"])
        #expect(twice.status == 64 && twice.err.contains("option '--max-input-bytes' given twice"), "\(twice.err)")
        let range = run(["diff", "--help", "--max-input-bytes", "0"])
        #expect(range.status == 64 && range.err.contains("--max-input-bytes expects an integer"), "\(range.err)")
        let fine = run(["diff", "--max-input-bytes", "100", "--help"])
        #expect(fine.status == 0)
        let empty = run(["--engine-command", " ", "diff", "--help"])
        #expect(empty.status == 64 && empty.err.contains("--engine-command needs a command"), "\(empty.err)")
    }
}

/// The package's root folder (two levels above this file's folder).
let cliPackageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()
