import Foundation
import Testing

/// The lists of DiffLab's modules outside Package.swift follow it (issue 44): Scripts/api-check
/// and Scripts/docs read theirs from `swift package dump-package` (`difflab_package_modules` in
/// Scripts/lib/env.sh), and the umbrella's re-exports, which are Swift, are held to it here.
@Suite struct ModuleListTests {
    /// The library products of Package.swift, in order, read from its text, each with its targets.
    static func libraryProducts() throws -> [(name: String, targets: [String])] {
        let text = try String(contentsOfFile: cliPackageRoot + "/Package.swift", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.library\(\s*name:\s*"([^"]+)"\s*,\s*targets:\s*\[([^\]]*)\]"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let targets = String(text[Range(match.range(at: 2), in: text)!]).split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: ["\""])
            }
            return (name, targets)
        }
    }

    /// The modules `text` re-exports (`@_exported import M`), in order.
    static func reexports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "@_exported", words[1] == "import" else { return nil }
            return String(words[2])
        }
    }

    /// `import DiffLab` re-exports every library product, and the umbrella target depends on
    /// exactly those: a product added to Package.swift and not to the umbrella (its target or
    /// Sources/DiffLab/DiffLab.swift) fails here.
    @Test func theUmbrellaReexportsEveryLibraryProduct() throws {
        let products = try Self.libraryProducts()
        try #require(products.count >= 10, "read \(products.count) library products from Package.swift")
        // Each product is one module of its own name (what the scripts' lists assume).
        for product in products { #expect(product.targets == [product.name], "\(product.name): \(product.targets)") }
        let libraries = Set(products.map(\.name)).subtracting(["DiffLab"])
        let umbrella = try #require(try LayeringTests.packageTargets()["DiffLab"])
        #expect(umbrella == libraries, "the DiffLab target depends on \(umbrella.sorted()); the library products are \(libraries.sorted())")
        let source = try String(contentsOfFile: cliPackageRoot + "/Sources/DiffLab/DiffLab.swift", encoding: .utf8)
        let reexported = Self.reexports(source)
        #expect(Set(reexported) == libraries, "DiffLab.swift re-exports \(reexported); the library products are \(libraries.sorted())")
        #expect(reexported.count == Set(reexported).count)
    }

    /// No script types a list of DiffLab's modules: a line naming four or more library products
    /// is a list that Package.swift would have to be kept in step with by hand. (A deliberate
    /// choice of a few, such as the three modules Scripts/fuzz-coverage measures, is not one.)
    @Test func noScriptTypesAModuleList() throws {
        let libraries = Set(try Self.libraryProducts().map(\.name))
        try #require(libraries.count >= 10)
        let folder = cliPackageRoot + "/Scripts"
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        var read = 0
        var found: [String] = []
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue,
                let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            else { continue }
            read += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = Set(line.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
                if words.intersection(libraries).count >= 4 { found.append("Scripts/\(file):\(number + 1)") }
            }
        }
        #expect(read >= 10, "read \(read) scripts")
        #expect(found.isEmpty, "module lists typed in scripts: \(found)")
        // The check sees a typed list (so it can fail).
        let typed = "modules=DiffLab,DiffLabCore,DiffLabEngines,DiffLabBatch"
        #expect(Set(typed.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)).intersection(libraries).count >= 4)
    }
}
