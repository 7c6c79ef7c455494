import Foundation
import Testing

/// No public or package type of DiffLab's modules shares its name with a type that Foundation or
/// the C headers Darwin brings in declare at the top level. On Apple platforms a file that imports
/// a DiffLab module and Foundation (every app's test target does) then sees two types of one name,
/// and a bare use of it fails to compile as ambiguous. Linux's Foundation lacks several of them, so
/// the build here cannot tell: this list is the guard (issue 42 renamed `Measurement` and `Rect`).
@Suite struct AppleNameCollisionTests {
    /// Top-level type names that `import Foundation` brings in on Darwin and that read like names a
    /// library could pick. Foundation's value types and classes (Apple's Foundation reference,
    /// https://developer.apple.com/documentation/foundation), the Swift standard library's and
    /// Synchronization's general names, and MacTypes.h's typedefs (CoreServices' MacTypes.h, which
    /// Darwin's Foundation imports: `Rect`, `Point`, `Size`, `Style`, `Fixed`, ...).
    static let appleTopLevelNames: Set<String> = [
        // Foundation
        "AffineTransform", "AttributedString", "Bundle", "ByteCountFormatter", "Calendar", "CharacterSet",
        "CocoaError", "Data", "Date", "DateComponents", "DateFormatter", "DateInterval", "Decimal", "Dimension",
        "Expression", "FileHandle", "FileManager", "FormatStyle", "Formatter", "Host", "IndexPath", "IndexSet",
        "InputStream", "JSONDecoder", "JSONEncoder", "Locale", "Measurement", "Morphology", "Notification",
        "NotificationCenter", "NumberFormatter", "Operation", "OperationQueue", "OutputStream", "ParseStrategy",
        "PersonNameComponents", "Pipe", "Port", "Predicate", "Process", "ProcessInfo", "Progress",
        "PropertyListDecoder", "PropertyListEncoder", "RunLoop", "Scanner", "SortDescriptor", "Stream", "Thread",
        "TimeZone", "Timer", "Unit", "URL", "URLComponents", "URLError", "URLRequest", "URLSession", "UserDefaults",
        "UUID",
        // The standard library and Synchronization
        "Duration", "Mutex", "Result", "Span",
        // MacTypes.h
        "AbsoluteTime", "Boolean", "Byte", "ByteCount", "ByteOffset", "Fixed", "FixedPoint", "FixedRect", "Fract",
        "Handle", "ItemCount", "LangCode", "NumVersion", "OptionBits", "OSErr", "OSStatus", "OSType", "Point",
        "ProcPtr", "Ptr", "Rect", "RegionCode", "ResType", "ScriptCode", "ShortFixed", "SignedByte", "Size",
        "Style", "StyleField", "TimeBase", "TimeRecord", "TimeScale", "TimeValue", "UniChar", "VersionRec",
    ]

    /// The names of the `public`, `package` and `open` types declared at the top level of `text`
    /// (a line that starts with the modifier: nested types cannot collide with a module's names).
    static func topLevelTypeNames(in text: String) -> [String] {
        var names: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var words = line.split(separator: " ")[...]
            guard line.first?.isLetter == true, let first = words.first, ["public", "package", "open"].contains(first) else { continue }
            words = words.drop { ["public", "package", "open", "final", "indirect", "nonisolated"].contains($0) || $0.hasPrefix("@") }
            guard let keyword = words.first, ["struct", "enum", "class", "protocol", "typealias", "actor"].contains(keyword),
                let name = words.dropFirst().first
            else { continue }
            names.append(String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
        }
        return names
    }

    @Test func theScanFindsTopLevelDeclarationsOnly() {
        let text = """
            public struct Measurement: Sendable {
                public struct Rect {}
            }
            package final class Thread {}
            @usableFromInline package enum Kept {}
            public typealias Point<T> = [T]
            // public struct Size {}
            """
        #expect(Self.topLevelTypeNames(in: text) == ["Measurement", "Thread", "Point"])
        #expect(Self.topLevelTypeNames(in: text).filter(Self.appleTopLevelNames.contains) == ["Measurement", "Thread", "Point"])
    }

    @Test func noModuleDeclaresATypeNamedLikeFoundationsOrMacTypes() throws {
        let sources = cliPackageRoot + "/Sources"
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var declared: [(file: String, name: String)] = []
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            declared += Self.topLevelTypeNames(in: text).map { (file, $0) }
        }
        // A scan that read nothing would pass: it must see the renamed types.
        let names = Set(declared.map(\.name))
        try #require(files.count > 100 && names.isSuperset(of: ["SampledMeasurement", "PlotRect", "DiffResult"]))
        let colliding = declared.filter { Self.appleTopLevelNames.contains($0.name) }
        #expect(colliding.isEmpty, "named like a Foundation or MacTypes type: \(colliding.map { "\($0.name) (Sources/\($0.file))" })")
    }
}
