import DiffLabCore
import DiffLabPlatform
import Testing

@testable import DiffLabProcess

/// `ProcessEngine`'s shell script: leading environment assignments stay before the `exec`.
@Suite("ProcessEngine's shell script")
struct ShellScriptTests {
    @Test(arguments: [
        ("./engine --flag", "exec ./engine --flag"),
        ("VAR=1 ./engine", "VAR=1 exec ./engine"),
        (
            "  A=1\tB='x y' C=\"$(echo \"a b\")\" D=$(printf '%s' 'x)') python3 e.py",
            "  A=1\tB='x y' C=\"$(echo \"a b\")\" D=$(printf '%s' 'x)') exec python3 e.py"
        ),
        ("A=${HOME:-a b}/x E=\\ z ./e", "A=${HOME:-a b}/x E=\\ z exec ./e"),
        ("A=1", "A=1 exec"),
        ("2>/dev/null ./e", "exec 2>/dev/null ./e"),
        ("A=1 2>/dev/null ./e", "A=1 exec 2>/dev/null ./e"),
        ("./a=b/engine", "exec ./a=b/engine"),
        ("=1 ./e", "exec =1 ./e"),
        // Read with no confidence: left to the shell as they are.
        ("A='unclosed ./e", "exec A='unclosed ./e"),
        ("A=1;./e", "exec A=1;./e"),
        ("A=1\n./e", "exec A=1\n./e"),
        ("A=1 B=2>x ./e", "exec A=1 B=2>x ./e"),
        ("A=\"$(echo ", "exec A=\"$(echo "),
        ("A=\\", "exec A=\\"),
    ])
    func assignmentsStayBeforeExec(command: String, script: String) {
        #expect(ProcessEngine.shellScript(for: command) == script)
    }

    @Test func deeplyNestedSubstitutionsAreLeftToTheShell() {
        let command = "A=" + String(repeating: "$(", count: 100_000) + " ./e"
        #expect(ProcessEngine.shellScript(for: command) == "exec " + command)
    }
}

/// Text another program wrote, quoted in DiffLab's messages (an engine's standard error): its lines
/// kept, nothing in it able to pass for a line of DiffLab's or to move a terminal's cursor.
@Suite("Quoting another program's output")
struct QuotingTests {
    @Test func linesAreQuotedAndControlsEscaped() {
        let bytes = Array("one\r\ntwo\u{0}\u{7f}\u{85}three\u{2028}four\tfive\n\n".utf8)
        #expect(quotedLines(bytes[...], limit: 600) == "\n    | one\n    | two\\u{0}\\u{7f}\n    | three\n    | four\tfive\n    | ")
        #expect(quotedLines([][...], limit: 600) == "")
        // Cut here, or before the bytes began: the first line says so.
        #expect(quotedLines(Array("abcdef\nxyz".utf8)[...], limit: 6) == "\n    | …ef\n    | xyz")
        #expect(quotedLines(Array("ef\nxyz".utf8)[...], limit: 600, cut: true) == "\n    | …ef\n    | xyz")
    }
}

/// The module's typed errors name what failed, in the words the command line prints.
@Suite("Process errors")
struct ProcessErrorTests {
    @Test func errorsNameWhatFailed() {
        #expect(
            ProcessError.cannotStart(executable: "nope", reason: "No such file or directory").description
                == "cannot start 'nope': No such file or directory")
        #expect(
            ProcessError.outputLimitExceeded(what: "the worker", maxBytes: 1 << 20).description
                == "the worker wrote more than 1 MiB of output; stopped")
        #expect(ProcessError.timeLimitExceeded(what: "the worker", seconds: 60).description == "the worker ran past its limit of 60 s; stopped")
        #expect(ProcessError.cannotFork(reason: "x").description == "cannot start a process: x")
    }

    @Test func aMissingExecutableIsCannotStart() {
        #expect(throws: ProcessError.self) { try runProcess("/nonexistent/difflab-test-program", []) }
    }

    @Test func readFileStopsAtItsLimit() throws {
        #expect(throws: FileReadError.tooLarge(path: "/dev/zero", limit: 10)) { try readFile("/dev/zero", limit: 10) }
        #expect(throws: FileReadError.isDirectory(path: "/")) { try readFile("/", limit: 10) }
        #expect(try readFile("/dev/null", limit: 10).isEmpty)
    }

    /// A child's output goes to the named file, never through a symbolic link (the link's target
    /// is left as it was and the start fails); `/dev/null` is written, not replaced.
    @Test func outputFilesAreNotFollowedThroughLinks() throws {
        let folder = try Cleanup.shared.makeTemporaryDirectory("difflab-process-test")
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        #expect(try runProcess("/bin/sh", ["-c", "echo out; echo err >&2"], stdout: folder + "/out", stderr: "/dev/null") == 0)
        #expect(try readFile(folder + "/out", limit: 100) == Array("out\n".utf8))
        let target = folder + "/target"
        #expect(try runProcess("/bin/sh", ["-c", "echo kept"], stdout: target) == 0)
        try FileSystem.makeSymbolicLink(at: folder + "/link", to: target)
        #expect(throws: ProcessError.self) { try runProcess("/bin/sh", ["-c", "echo replaced"], stdout: folder + "/link") }
        #expect(throws: ProcessError.self) { try runProcess("/bin/sh", ["-c", "echo replaced >&2"], stderr: folder + "/link") }
        #expect(try readFile(target, limit: 100) == Array("kept\n".utf8))
        #expect(try FileSystem.facts("/dev/null").kind == .characterDevice)
    }

    @Test func aChildThatRunsTooLongIsStopped() throws {
        let folder = try Cleanup.shared.makeTemporaryDirectory("difflab-process-test")
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let pid = try spawnProcess("sleep", ["10"], stdout: folder + "/out")
        #expect(throws: ProcessError.timeLimitExceeded(what: "sleep", seconds: 0.2)) {
            try waitProcess(pid, writing: folder + "/out", maxBytes: 100, seconds: 0.2, what: "sleep")
        }
    }
}

/// `commandOutput`: the first line of a shell command, through `posix_spawn` (no `popen`).
@Suite("commandOutput")
struct CommandOutputTests {
    @Test func theFirstLineOfASuccessfulCommand() {
        #expect(commandOutput("printf 'first\\nsecond\\n'") == "first")
        #expect(commandOutput("echo") == nil)
        #expect(commandOutput("echo out; exit 3") == nil)
        #expect(commandOutput("/no/such/program") == nil)
    }

    @Test func aFloodIsCutNotWaitedFor() throws {
        // 1 MiB of output on one line: at most 64 KiB is read, then the pipe is closed (the
        // pipeline dies of SIGPIPE; `; true` lets the command succeed, so what was read comes back).
        let output = try #require(commandOutput("head -c 1048576 /dev/zero | tr '\\000' y; true"))
        #expect(output.utf8.count > 0 && output.utf8.count <= 1 << 16, "read \(output.utf8.count) bytes")
        #expect(output.allSatisfy { $0 == "y" })
    }
}
