import DiffLabDev
import Foundation
import Testing

/// The layering is drawn in one place, `docs/architecture.md`; Package.swift's targets and every
/// `import` in Sources must agree with it.
@Suite struct LayeringTests {
    /// `name: [dependencies]` of every target in Package.swift (`.target`, `.executableTarget`;
    /// with `tests`, `.testTarget` instead), read from its text.
    static func packageTargets(tests: Bool = false) throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: cliPackageRoot + "/Package.swift", encoding: .utf8)
        let kinds = tests ? "testTarget" : "(?:target|executableTarget)"
        let pattern = try NSRegularExpression(
            pattern: #"\."# + kinds + #"\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        var targets: [String: Set<String>] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let list = Range(match.range(at: 2), in: text).map { String(text[$0]) } ?? ""
            targets[name] = Set(
                list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: ["\""]) }.filter {
                    !$0.isEmpty
                })
        }
        return targets
    }

    /// The table of `docs/architecture.md`: `| Module | depends on |` rows, the dependencies as
    /// backquoted names or `—` for none.
    static func drawnLayers() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: cliPackageRoot + "/docs/architecture.md", encoding: .utf8)
        var layers: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let name = cells[0].trimmingCharacters(in: ["`"])
            let dependencies = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) }
            layers[name] = Set(dependencies.filter { !$0.isEmpty && $0 != "—" })
        }
        return layers
    }

    /// The DiffLab modules each Swift file under `Sources/<target>` imports.
    static func imports(of target: String, at path: String) throws -> Set<String> {
        let folder = cliPackageRoot + "/" + path
        var found: Set<String> = []
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "package" || $0 == "public" })
                else { continue }
                let module = String(words[index + 1])
                if module.hasPrefix("DiffLab") { found.insert(module) }
            }
        }
        return found
    }

    @Test func packageSwiftAndTheArchitecturePageDrawTheSameLayers() throws {
        let targets = try Self.packageTargets()
        let drawn = try Self.drawnLayers()
        let libraries = targets.filter { $0.key.hasPrefix("DiffLab") && $0.key != "DiffLabTestSupport" }
        try #require(!libraries.isEmpty && !drawn.isEmpty)
        for (name, dependencies) in libraries where !name.hasSuffix("Target") {
            #expect(
                drawn[name] == dependencies,
                "\(name): Package.swift says \(dependencies.sorted()), docs/architecture.md \(drawn[name]?.sorted() ?? [])")
        }
        #expect(Set(drawn.keys) == Set(libraries.keys.filter { !$0.hasSuffix("Target") }))
    }

    /// A module imports only what its target declares, and declares nothing it does not import
    /// (the umbrella `DiffLab` re-exports them all).
    @Test func everyImportFollowsTheLayers() throws {
        let targets = try Self.packageTargets()
        var compared = 0
        for (name, dependencies) in targets where name.hasPrefix("DiffLab") && name != "DiffLabTestSupport" {
            let imported = try Self.imports(of: name, at: "Sources/" + name)
            #expect(
                imported.subtracting(dependencies).isEmpty, "\(name) imports \(imported.subtracting(dependencies).sorted()) without depending on them"
            )
            if name != "DiffLab" {
                let declared = dependencies.filter { $0.hasPrefix("DiffLab") }
                #expect(
                    declared.subtracting(imported).isEmpty, "\(name) depends on \(declared.subtracting(imported).sorted()) without importing them")
            }
            compared += 1
        }
        #expect(compared >= 10, "the layering check compared \(compared) targets")
    }

    /// A test target (or the test support library) imports only DiffLab modules it declares. A
    /// module it reaches only through another target's dependencies may be built after it: a clean
    /// build on more cores then fails with "no such module" (stop 51: `DiffLabFuzzTests` imported
    /// `DiffLabTestSupport` undeclared for twenty issues, until CI's build order changed).
    @Test func everyTestTargetDeclaresWhatItImports() throws {
        var targets = try Self.packageTargets(tests: true).map { (name: $0.key, path: "Tests/" + $0.key, dependencies: $0.value) }
        let support = try #require(try Self.packageTargets()["DiffLabTestSupport"], "Package.swift has no DiffLabTestSupport target")
        targets.append((name: "DiffLabTestSupport", path: "Tests/Support", dependencies: support))
        var compared = 0
        for target in targets {
            let imported = try Self.imports(of: target.name, at: target.path)
            let undeclared = imported.subtracting(target.dependencies).subtracting([target.name])
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without depending on them in Package.swift")
            if !imported.isEmpty { compared += 1 }
        }
        #expect(compared >= 15, "the check compared the imports of \(compared) test targets")
    }

    /// The C library modules a Swift file can import to make system calls.
    static let platformModules: Set<String> = [
        "Glibc", "Musl", "Darwin", "Android", "Bionic", "WASILibc", "ucrt", "WinSDK", "CRT", "SwiftGlibc", "MachO",
    ]

    /// Every `import` of a module named in `modules` in the Swift files under `Sources/<target>`
    /// (any attributes before it, conditional or not), as `file: module` lines, and how many files
    /// were read.
    static func platformImports(in target: String, of modules: Set<String>, under root: String = "Sources") throws -> (found: [String], files: Int) {
        let folder = cliPackageRoot + "/" + root + "/" + target
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "package" || $0 == "public" || $0 == "internal" })
                else { continue }
                // `import struct Glibc.timespec` names the module after the kind.
                let named =
                    index + 2 < words.count
                        && ["struct", "func", "class", "enum", "var", "let", "typealias", "protocol"].contains(String(words[index + 1]))
                    ? words[index + 2] : words[index + 1]
                let module = String(named.split(separator: ".").first ?? named)
                if modules.contains(module) { found.append("\(target)/\(file): \(module)") }
            }
        }
        return (found, files.count)
    }

    /// Every system call goes through one layer: no file outside `Sources/DiffLabPlatform` imports
    /// a C library module, and DiffLabPlatform does (so the check can see an import at all).
    @Test func onlyThePlatformLayerImportsACLibraryModule() throws {
        let targets = try Self.packageTargets().keys.filter { $0.hasPrefix("DiffLab") && $0 != "DiffLabTestSupport" }
        try #require(targets.contains("DiffLabPlatform"), "Package.swift has no DiffLabPlatform target")
        var files = 0
        for target in targets.sorted() where target != "DiffLabPlatform" {
            let (found, count) = try Self.platformImports(in: target, of: Self.platformModules)
            #expect(found.isEmpty, "imports a C library module outside DiffLabPlatform: \(found)")
            files += count
        }
        #expect(files >= 100, "the check read \(files) files outside DiffLabPlatform")
        let platform = try Self.platformImports(in: "DiffLabPlatform", of: Self.platformModules)
        #expect(Set(platform.found.map { $0.split(separator: " ").last.map(String.init) ?? "" }).isSuperset(of: ["Glibc", "Darwin"]))
    }

    /// The C library modules that `text` re-exports (`@_exported import Glibc`, with any other
    /// attributes or an import kind), in the order found.
    static func reexportedPlatformModules(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let index = words.firstIndex(of: "import"), words[..<index].contains("@_exported"), index + 1 < words.count else { return nil }
            let named =
                words.count > index + 2 && !words[index + 1].contains(".") && words[index + 2].contains(".") ? words[index + 2] : words[index + 1]
            let module = String(named.split(separator: ".").first ?? named)
            return platformModules.contains(module) ? module : nil
        }
    }

    /// The platform layer keeps the C library to itself: no file of DiffLab re-exports a C library
    /// module, so a C name in a module or test that does not import Foundation does not compile
    /// (issue 42: the re-export let `errno`, `O_*` and `SIG*` spread to 21 files).
    @Test func thePlatformLayerReexportsNoCLibraryModule() throws {
        #expect(Self.reexportedPlatformModules("#if canImport(Glibc)\n@_exported import Glibc\n#endif") == ["Glibc"])
        #expect(Self.reexportedPlatformModules("@_exported import struct Darwin.timespec\nimport Glibc") == ["Darwin"])
        #expect(Self.reexportedPlatformModules("@_exported import DiffLabCore\nimport Darwin") == [])
        let sources = cliPackageRoot + "/Sources"
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var found: [String] = []
        for file in files {
            found += Self.reexportedPlatformModules(try String(contentsOfFile: sources + "/" + file, encoding: .utf8)).map { "\(file): \($0)" }
        }
        try #require(files.contains { $0.hasPrefix("DiffLabPlatform/") } && files.count >= 100, "read \(files.count) files")
        #expect(found.isEmpty, "re-exports a C library module: \(found)")
    }

    /// DiffLab's own tests reach the C library through the platform layer too, so they compile on
    /// Darwin as on Linux (the macOS job builds every test target).
    @Test func testsReachTheCLibraryThroughThePlatformLayer() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: cliPackageRoot + "/Tests").filter { !$0.hasPrefix(".") }
        var files = 0
        for target in targets.sorted() {
            let (found, count) = try Self.platformImports(in: target, of: Self.platformModules, under: "Tests")
            #expect(found.isEmpty, "a test imports a C library module instead of DiffLabPlatform: \(found)")
            files += count
        }
        #expect(targets.count >= 14 && files >= 80, "the check read \(files) files in \(targets.count) test targets")
    }

    /// The platform conditions of `text` (`#if` on `os(...)` or on importing a C library module)
    /// that have no `#elseif` or `#else`: code for one platform with nothing for the others.
    /// Nesting-aware; returns each such `#if` line with its line number.
    static func platformConditionsWithoutOtherBranch(_ text: String) -> [String] {
        var open: [(line: String, platform: Bool, otherBranch: Bool)] = []
        var missing: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                let platform = line.contains("os(") || platformModules.contains { line.contains("canImport(\($0))") }
                open.append(("\(number + 1): \(line)", platform, false))
            } else if line.hasPrefix("#elseif") || line.hasPrefix("#else") {
                if !open.isEmpty { open[open.count - 1].otherBranch = true }
            } else if line.hasPrefix("#endif"), let block = open.popLast(), block.platform, !block.otherBranch {
                missing.append(block.line)
            }
        }
        return missing + open.filter(\.platform).map { $0.line + " (no #endif)" }
    }

    /// No Swift file outside the platform layer names a Linux-only path or a GNU-only command
    /// line in a string: no `/proc`, `env -C`, `readlink -f`, `stat -c`, `date -d`, `grep -P` or
    /// `xargs -r` (`difflab-dev portability`'s Swift rules; PortabilityTests plants each). A
    /// Linux-only fallback that is right to keep says why with a `// portable:` comment.
    @Test func noLinuxOnlyPathOrGNUCommandOutsideThePlatformLayer() throws {
        let swiftFiles = try Portability.trackedFiles(root: cliPackageRoot).filter { $0.hasSuffix(".swift") }
        let report = try Portability.check(root: cliPackageRoot, paths: swiftFiles)
        #expect(
            report.swiftFiles.count >= 200 && report.swiftFiles.contains { $0.hasPrefix("Tests/") }, "read \(report.swiftFiles.count) Swift files")
        #expect(report.findings.isEmpty, "\(report.findings.map(\.description).joined(separator: "\n"))")
    }

    /// Every platform condition in the platform layer has a branch for the other platforms (a
    /// `#if os(Linux)` with no `#else` leaves Darwin without the declaration), and the check
    /// finds the one-sided conditions it is meant to.
    @Test func everyPlatformConditionHasABranchForTheOthers() throws {
        #expect(Self.platformConditionsWithoutOtherBranch("#if os(Linux)\nlet a = 1\n#endif\n") == ["1: #if os(Linux)"])
        #expect(Self.platformConditionsWithoutOtherBranch("#if canImport(Darwin)\n#if DEBUG\n#endif\n#endif") == ["1: #if canImport(Darwin)"])
        #expect(Self.platformConditionsWithoutOtherBranch("#if os(Linux)\n#if DEBUG\n#endif\n#else\n#endif").isEmpty)
        #expect(Self.platformConditionsWithoutOtherBranch("#if DEBUG\n#endif").isEmpty)
        let folder = cliPackageRoot + "/Sources/DiffLabPlatform"
        var conditions = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            conditions += text.split(separator: "\n").count { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#if ") }
            #expect(
                Self.platformConditionsWithoutOtherBranch(text).isEmpty, "DiffLabPlatform/\(file): \(Self.platformConditionsWithoutOtherBranch(text))"
            )
        }
        #expect(conditions >= 20, "the check read \(conditions) conditions in DiffLabPlatform")
    }

    /// The vocabulary, the engines, the batch model, the updaters and the formatters are pure
    /// Swift: no C library module, not the platform layer either (an iOS test target links them
    /// with nothing of it). Package.swift agrees: none of the five depends on DiffLabPlatform.
    @Test func coreEnginesAndBatchUseNoPlatformModule() throws {
        let targets = try Self.packageTargets()
        var files = 0
        for target in ["DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabUpdaters", "DiffLabFormatting"] {
            let dependencies = try #require(targets[target], "Package.swift has no target \(target)")
            #expect(!dependencies.contains("DiffLabPlatform"), "\(target) depends on DiffLabPlatform")
            let (found, count) = try Self.platformImports(in: target, of: Self.platformModules.union(["DiffLabPlatform"]))
            #expect(found.isEmpty, "\(target) imports \(found)")
            #expect(count > 0, "no Swift file read in Sources/\(target)")
            files += count
        }
        #expect(files >= 30, "the check read \(files) files")
    }

    /// What a package depends on is what it imports: every library product is named after its
    /// one target (the product `DiffLabRunner` over the module `DiffLabCLI` made
    /// `import DiffLabRunner` impossible).
    @Test func everyLibraryProductIsNamedAfterItsModule() throws {
        let text = try String(contentsOfFile: cliPackageRoot + "/Package.swift", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.library\(\s*name:\s*"([^"]+)",\s*targets:\s*\[([^\]]*)\]"#)
        var products = 0
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let targets = String(text[Range(match.range(at: 2), in: text)!]).split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: ["\""])
            }
            #expect(targets == [name], "the product \(name) builds \(targets)")
            products += 1
        }
        #expect(products >= 12, "Package.swift declared \(products) library products")
    }

    /// The package names its oldest Apple systems (what its Swift runtime needs), and each example
    /// package that depends on it names the same: SwiftPM refuses a dependent that declares older
    /// ones, and without a declaration a macOS build targets 10.13.
    @Test func examplePackagesDeclareDiffLabsPlatforms() throws {
        let pattern = try NSRegularExpression(pattern: #"platforms:\s*\[([^\]]*)\]"#)
        func platforms(_ path: String) throws -> String? {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
            return String(text[Range(match.range(at: 1), in: text)!]).filter { !$0.isWhitespace }
        }
        let declared = try #require(try platforms(cliPackageRoot + "/Package.swift"), "Package.swift declares no platforms")
        #expect(declared.contains(".macOS(") && declared.contains(".iOS("), "Package.swift declares \(declared)")
        var examples = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: cliPackageRoot + "/Examples").sorted() {
            let manifest = cliPackageRoot + "/Examples/" + folder + "/Package.swift"
            guard FileManager.default.fileExists(atPath: manifest) else { continue }
            examples += 1
            #expect(try platforms(manifest) == declared, "Examples/\(folder)/Package.swift")
        }
        #expect(examples >= 1, "no example package read")
    }
}
