import Testing

@testable import DiffLabCLI

/// A package's own runner (`custom-difflab`, calling `DiffLabRunner.main(engines:)`) printed
/// `USAGE: difflab ...` in its help. Every usage line and pointer to help now names the program
/// running.
@Suite("The running program's name in help texts")
struct ProgramNameTests {
    /// What `arguments` print on standard output when the program runs as `program`.
    private func output(_ arguments: [String], program: String = "custom-difflab") throws -> String {
        let recorder = Recorder()
        #expect(try DiffLabCommand.dispatch(arguments, console: recorder.console, program: program) == .success)
        return recorder.out
    }

    @Test func theMainHelpNamesTheProgram() throws {
        let help = try output(["--help"])
        #expect(help.hasPrefix("USAGE: custom-difflab <command> [options]\n"), "\(help)")
        #expect(help.contains("see custom-difflab help measure"), "\(help)")
        // DiffLab itself, its protocol and its schemas keep their names.
        #expect(help.contains("DiffLab: a performance lab") && help.contains("difflab-engine/1"))
        #expect(try output(["help"]) == help)
        #expect(try output(["--help"], program: "difflab").hasPrefix("USAGE: difflab <command> [options]\n"))
    }

    /// Every command's help, through `help NAME` and through `NAME --help` (which the command
    /// prints itself): every usage line names the program, and no pointer to help names
    /// `difflab`.
    @Test(arguments: DiffLabCommand.commands.map(\.name))
    func everyCommandsHelpNamesTheProgram(name: String) throws {
        let viaHelp = try output(["help", name])
        let viaFlag = try output([name, "--help"])
        #expect(viaHelp == viaFlag)
        let usage = viaFlag.split(separator: "\n\n").first ?? ""
        #expect(usage.hasPrefix("USAGE: custom-difflab \(name)"), "\(viaFlag)")
        // Continued lines stay aligned past the program word (7 characters longer here).
        let plain = try output([name, "--help"], program: "difflab").split(separator: "\n\n").first ?? ""
        for (line, original) in zip(usage.split(separator: "\n"), plain.split(separator: "\n")) where original.hasPrefix("        ") {
            #expect(line == "       " + original, "\(line)")
        }
        for line in usage.split(separator: "\n") {
            #expect(!line.contains(" difflab "), "\(line)")
        }
        let others = viaFlag.replacing("custom-difflab", with: "PROGRAM")
        for pointer in ["difflab --help", "difflab help", "see difflab ", "see: difflab "] {
            #expect(!others.contains(pointer), "\(viaFlag)")
        }
        #expect(try output([name, "--help"], program: "difflab").hasPrefix("USAGE: difflab \(name)"))
    }

    /// Each line of a help text and what it becomes for `mine`.
    @Test func onlyUsageLinesAndPointersToHelpAreRenamed() {
        let lines = [
            ("USAGE: difflab policy [--quick]", "USAGE: mine policy [--quick]"),
            (
                "       difflab policy real-time ... (see difflab policy real-time --help)",
                "       mine policy real-time ... (see mine policy real-time --help)"
            ),
            // Options continued past the program word stay aligned under it.
            ("                     [--seed S]", "                  [--seed S]"),
            ("       [--out FILE]", "       [--out FILE]"),
            ("", ""),
            // After the usage lines, only pointers to help.
            ("difflab policy is the lab.", "difflab policy is the lab."),
            (
                "Writes a difflab-policy/2 file; `difflab merge` joins the parts (see 'difflab help merge').",
                "Writes a difflab-policy/2 file; `difflab merge` joins the parts (see 'mine help merge')."
            ),
            (
                "  --product NAME  (default difflab); the mutant's `difflab fuzz --seconds N`",
                "  --product NAME  (default difflab); the mutant's `difflab fuzz --seconds N`"
            ),
            ("Run 'difflab --help' for usage. A custom-difflab --help stays.", "Run 'mine --help' for usage. A custom-difflab --help stays."),
        ]
        let text = lines.map(\.0).joined(separator: "\n")
        #expect(DiffLabCommand.helpText(text, program: "mine") == lines.map(\.1).joined(separator: "\n"))
        #expect(DiffLabCommand.helpText(text, program: "difflab") == text)
    }
}
