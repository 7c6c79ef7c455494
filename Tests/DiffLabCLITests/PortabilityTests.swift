import Foundation
import Testing

@testable import DiffLabDev

/// `difflab-dev portability`: each rule refuses its construct on a planted line and accepts the
/// portable way to write it, and the repository holds nothing a Mac lacks. The planted lines are
/// string literals here, so those naming a GNU-only command line opt out of the Swift rule.
@Suite struct PortabilityTests {
    /// The names of the rules `script` breaks, in line order.
    static func shell(_ script: String) -> [String] {
        Portability.shellFindings(Array(script.utf8), file: "planted.sh").map(\.rule.name)
    }

    /// The names of the rules a Swift file `source` breaks.
    static func swift(_ source: String) -> [String] {
        Portability.swiftFindings(Array(source.utf8), file: "Planted.swift").map(\.rule.name)
    }

    @Test func bash4ConstructsFailAndTheirBash3EquivalentsPass() {
        #expect(Self.shell("mapfile -t files < <(git ls-files '*.swift')\n") == ["mapfile"])
        #expect(Self.shell("readarray -t files < list\n") == ["mapfile"])
        #expect(Self.shell("files=()\nwhile IFS= read -r f; do files+=(\"$f\"); done < <(git ls-files '*.swift')\n").isEmpty)
        #expect(Self.shell("declare -A seen\n") == ["bash4-declare"])
        #expect(Self.shell("f() { local -n ref=$1; }\n") == ["bash4-declare"])
        #expect(Self.shell("declare -a list\nlocal -r x=1\n").isEmpty)
        #expect(Self.shell("echo \"${a[-1]}\"\n") == ["negative-subscript"])
        #expect(Self.shell("a[-1]=x\n") == ["negative-subscript"])
        #expect(Self.shell("echo \"${a[${#a[@]}-1]}\"\n").isEmpty)
        #expect(Self.shell("echo \"${name,,}\" ${name^^} ${name^}\n") == ["case-modification", "case-modification", "case-modification"])
        #expect(Self.shell("echo \"$(printf '%s' \"$name\" | tr '[:upper:]' '[:lower:]')\"\n").isEmpty)
        #expect(Self.shell("echo ${x@Q}\n") == ["expansion-transform"])
        #expect(Self.shell("make &>> log\nmake |& tee log\n") == ["bash4-operator", "bash4-operator"])
        #expect(Self.shell("make >> log 2>&1\nmake 2>&1 | tee log\n").isEmpty)
        #expect(
            Self.shell("coproc cat\nwait -n\n[[ -v HOME ]]\nshopt -s globstar\necho $EPOCHSECONDS\n") == [
                "coproc", "wait-n", "test-v", "bash4-shopt", "bash4-variable",
            ])
    }

    /// bash 3.2 calls "${a[@]}" of an empty array unbound under `set -u`.
    @Test func anArrayThatMayBeEmptyIsExpandedWithItsGuard() {
        #expect(Self.shell("set -u\nextra=()\nrun \"${extra[@]}\"\n") == ["empty-array-under-nounset"])
        #expect(Self.shell("set -u\nextra=()\nrun ${extra[@]+\"${extra[@]}\"}\necho ${#extra[@]}\n").isEmpty)
        #expect(Self.shell("modules=(a b)\nrun \"${modules[@]}\"\n").isEmpty)
    }

    @Test func gnuOnlyFlagsAndToolsFailAndTheirBSDEquivalentsPass() {
        #expect(Self.shell("sed -i 's/a/b/' file\n") == ["gnu-sed-in-place"])
        #expect(Self.shell("sed -E -i '' 's/a/b/' file\n") == ["gnu-sed-in-place"])
        #expect(Self.shell("sed -i.bak 's/a/b/' file && rm file.bak\n").isEmpty)
        #expect(Self.shell("env -C \"$dir\" make\n") == ["gnu-env-C"])  // portable: a planted line
        #expect(Self.shell("(cd \"$dir\" && exec make)\nenv -u GITHUB_STEP_SUMMARY swift test\n").isEmpty)
        #expect(
            Self.shell("date -d @0\nstat -c %s f\nreadlink -f x\ngrep -oP 'a+' f\nls | xargs -r rm\n") == [  // portable: a planted line
                "gnu-date-d", "gnu-stat-c", "gnu-readlink-f", "gnu-grep-P", "gnu-xargs-r",
            ])
        #expect(Self.shell("find . -printf '%p'\nsort -V list\ncp --reflink=auto a b\n") == ["gnu-find-printf", "gnu-sort-V", "gnu-cp-reflink"])
        #expect(Self.shell("date -u +%s\ngrep -oE 'a+' f\nfind . -name x\nsort -n list\n").isEmpty)
        #expect(Self.shell("n=$(nproc)\nsha256sum f\ntimeout 5 make\n") == ["gnu-nproc", "gnu-sha256sum", "gnu-timeout"])
        #expect(Self.shell("n=$(sysctl -n hw.ncpu)\nshasum -a 256 f\n").isEmpty)
        // A line that tests for the tool is guarded.
        #expect(Self.shell("if command -v timeout >/dev/null; then timeout 5 make; else make; fi\n").isEmpty)
    }

    @Test func aptGetRunsOnlyInALinuxBranch() {
        #expect(Self.shell("apt-get install -y git\n") == ["linux-only-outside-linux-branch"])
        #expect(
            Self.shell("sudo=sudo\n$sudo apt-get update -qq\nldconfig -p\n") == [
                "linux-only-outside-linux-branch", "linux-only-outside-linux-branch",
            ])
        let caseArms = """
            case "$(uname -s)" in
              Linux) apt-get install -y git ;;
              Darwin)
                apt-get install -y git
                ;;
            esac
            apt-get install -y git

            """
        #expect(Portability.shellFindings(Array(caseArms.utf8), file: "x").map(\.line) == [4, 7])
        let ifBranches = """
            if [ "$(uname -s)" = Linux ]; then
              if command -v apt-get >/dev/null; then apt-get install -y git; fi
            elif [ "$platform" = Darwin ]; then
              apt-get install -y git
            else
              apt-get install -y git
            fi
            if [ "$platform" != Linux ]; then apt-get install -y git; fi

            """
        #expect(Portability.shellFindings(Array(ifBranches.utf8), file: "x").map(\.line) == [4, 6, 8])
        let functions = "install_linux() {\n  apt-get install -y git\n}\ninstall() {\n  apt-get install -y git\n}\n"
        #expect(Portability.shellFindings(Array(functions.utf8), file: "x").map(\.line) == [5])
        // A look-up, a message and a comment are not calls.
        #expect(Self.shell("command -v apt-get >/dev/null || echo \"no apt-get here\" # apt-get\n").isEmpty)
    }

    @Test func commentsQuotedTextAndHereDocumentsAreNotCode() {
        #expect(Self.shell("# mapfile and declare -A are bash 4\necho 'mapfile' \"declare -A\"\n").isEmpty)
        #expect(Self.shell("python3 - <<'PY'\nmapfile = 1\nPY\ncat <<-EOF\n\tsed -i x\n\tEOF\necho ${#a[@]} $#\n").isEmpty)
        #expect(Self.shell("python3 - <<'PY'\nmapfile = 1\nPY\nmapfile -t x < f\n") == ["mapfile"])
        // Code inside a double-quoted command substitution is code.
        #expect(Self.shell("echo \"cores: $(nproc)\"\n") == ["gnu-nproc"])
        // A continued line is one command: its flags are found on the line they are on.
        #expect(Portability.shellFindings(Array("sed \\\n  -i 's/a/b/' f\n".utf8), file: "x").map(\.line) == [2])
    }

    @Test func aLineOptsOutOnlyWithAReason() {
        #expect(Self.shell("timeout 5 make # portable: Linux-only CI step\n").isEmpty)
        #expect(Self.shell("timeout 5 make # portable:\n") == ["gnu-timeout", "opt-out-without-reason"])
        #expect(Self.shell("timeout 5 make # portable: a reason\nnproc\n") == ["gnu-nproc"])
    }

    @Test func swiftStringsNameNoProcPathAndNoGNUCommand() {
        let proc = ["", "proc", "self", "exe"].joined(separator: "/")
        #expect(Self.swift("let path = \"\(proc)\"\n") == ["swift-proc-path"])
        #expect(Self.swift("let path = \"/proc/\\(pid)/cmdline\"\n") == ["swift-proc-path"])  // portable: a planted line
        #expect(Self.swift("entries(\"/proc\")\n") == ["swift-proc-path"])  // portable: a planted line
        #expect(Self.swift("let argv = [\"env\", \"-C\", directory, \"true\"]\n") == ["swift-gnu-command"])
        #expect(Self.swift("let command = \"readlink -f x\"\n") == ["swift-gnu-command"])  // portable: a planted line
        let commented = "// reads /proc/self/exe through env -C\n/* \"/proc/self/exe\" */\nlet a = \"procfs\"\n"  // portable: planted
        #expect(Self.swift(commented).isEmpty)
        let optedOut = "let path = \"/proc/self/status\" // portable: Linux's affinity mask; elsewhere nil\n"  // portable: planted
        #expect(Self.swift(optedOut).isEmpty)
        let noReason = "let path = \"/proc/self/status\" //  portable:  \n"  // portable: planted
        #expect(Self.swift(noReason) == ["opt-out-without-reason", "swift-proc-path"])
        // A multi-line literal opts out after its closing quotes.
        let multiline = "let help = \"\"\"\n    reads /proc/meminfo\n    \"\"\"  // portable: help text\n"  // portable: planted
        #expect(Self.swift(multiline).isEmpty)
        let notOptedOut = String(multiline.prefix { $0 != "/" }) + "/proc/meminfo\n    \"\"\"\n"  // portable: planted
        #expect(Self.swift(notOptedOut) == ["swift-proc-path"])
        #expect(Portability.isCheckedSwiftFile("Tests/DiffLabHostileTests/Harness.swift"))
        #expect(!Portability.isCheckedSwiftFile("Sources/DiffLabPlatform/Processes.swift"))
    }

    @Test func theShebangOrTheNameMakesAShellScript() {
        #expect(Portability.isShellScript("Scripts/test", head: ArraySlice("#!/usr/bin/env bash\nset -e\n".utf8)))
        #expect(Portability.isShellScript(".clusterfuzzlite/build.sh", head: ArraySlice("#!/bin/bash -eu\n".utf8)))
        #expect(Portability.isShellScript("x", head: ArraySlice("#!/bin/sh\n".utf8)))
        #expect(!Portability.isShellScript("Scripts/lib/tool", head: ArraySlice("#!/usr/bin/env python3\n".utf8)))
        #expect(!Portability.isShellScript("README", head: ArraySlice("# DiffLab\n".utf8)))
    }

    /// The command fails on a planted script, names file, line and rule, and fails when it read
    /// nothing at all.
    @Test func theCommandFailsOnPlantedLinesAndOnNothingRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("difflab-portability-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "#!/usr/bin/env bash\nmapfile -t x < f\n".write(toFile: folder + "/script", atomically: true, encoding: .utf8)
        try "let argv = [\"env\", \"-C\", dir]\n".write(toFile: folder + "/Harness.swift", atomically: true, encoding: .utf8)
        try "notes\n".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let failed = runDev(["portability", folder + "/script", folder + "/Harness.swift"])
        #expect(failed.status == 1, "\(failed.err)")
        #expect(failed.err.contains("\(folder)/script:2: mapfile: mapfile"), "\(failed.err)")
        #expect(failed.err.contains("\(folder)/Harness.swift:1: swift-gnu-command"), "\(failed.err)")
        let nothing = runDev(["portability", folder + "/notes.txt"])
        #expect(nothing.status == 1 && nothing.err.contains("nothing was checked"), "\(nothing.err)")
        let notARepository = runDev(["portability", "--root", folder])
        #expect(notARepository.status == 1 && notARepository.err.contains("git ls-files"), "\(notARepository.err)")
    }

    /// Every script git tracks: a check that read nothing fails. (The Swift files are checked by
    /// LayeringTests, beside the other layering rules.)
    @Test func theRepositorysScriptsHoldNothingAMacLacks() throws {
        let scripts = try Portability.trackedFiles(root: cliPackageRoot).filter { !$0.hasSuffix(".swift") }
        let report = try Portability.check(root: cliPackageRoot, paths: scripts)
        #expect(report.shellScripts.contains("Scripts/test") && report.shellScripts.contains("Scripts/lib/env.sh"), "\(report.shellScripts)")
        #expect(report.shellScripts.count >= 15, "read \(report.shellScripts.count) shell scripts")
        #expect(report.swiftFiles.isEmpty)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.description).joined(separator: "\n"))")
    }
}
