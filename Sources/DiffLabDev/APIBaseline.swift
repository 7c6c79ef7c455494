import DiffLabCLI

/// The commit of each release, as `Corpus/releases.tsv` records it: one `NAME<TAB>COMMIT` line per
/// release, `#` lines and blank lines skipped.
///
/// The record lets the API check find its baseline in a clone that has the history but not the
/// tags (a CI checkout that fetched only the branch).
struct ReleaseRecord: Sendable, Equatable {
    /// Each release's name (`N.N.N`) and full 40-digit commit, in the file's order.
    var releases: [(name: String, commit: String)] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.releases.elementsEqual(rhs.releases) { $0.name == $1.name && $0.commit == $1.commit }
    }

    /// The most lines the file may hold.
    static let maxLines = 10_000

    /// Parses the file.
    ///
    /// - Throws: ``CommandError`` with status 65 naming the file and line when a line is not
    ///   `N.N.N<TAB>COMMIT` with a 40-digit lowercase hexadecimal commit, a release is recorded
    ///   twice, or the file has more than ``maxLines`` lines.
    /// - Complexity: O(text + releases²); there are few releases.
    init(parsing text: Substring, name: String) throws(CommandError) {
        var number = 0
        for line in textLines(text) {
            number += 1
            guard number <= Self.maxLines else { throw .data("\(name): more than \(Self.maxLines) lines") }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, isReleaseName(fields[0]) else {
                throw .data("\(name):\(number): expected \"N.N.N<TAB>COMMIT\" (a release name, a tab, its 40-digit commit)")
            }
            let commit = fields[1]
            guard commit.utf8.count == 40, commit.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw .data("\(name):\(number): the commit of \(fields[0]) must be 40 lowercase hexadecimal digits")
            }
            guard !releases.contains(where: { $0.name == fields[0] }) else {
                throw .data("\(name):\(number): release \(fields[0]) is recorded twice")
            }
            releases.append((String(fields[0]), String(commit)))
        }
    }

    /// The recorded commit of `release`, or `nil`.
    func commit(of release: String) -> String? { releases.first(where: { $0.name == release })?.commit }
}

/// Whether `character` ends a line of a text file: `\n`, or `\r\n` (one `Character` in Swift, so
/// splitting on `"\n"` alone would leave a CRLF file in one line).
func isLineBreak(_ character: Character) -> Bool { character == "\n" || character == "\r\n" }

/// The lines of `text`, LF or CRLF, without their breaks; a final break ends the last line and
/// leaves one empty line after it.
///
/// - Complexity: O(text).
func textLines(_ text: Substring) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak)
}

/// Whether `text` is a release name: three dot-separated runs of decimal digits.
func isReleaseName(_ text: Substring) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
}

/// The newest release a changelog names: the first `## [N.N.N]` heading.
///
/// - Returns: the release's name, or `nil` when the changelog names none.
/// - Complexity: O(changelog).
func newestRelease(in changelog: Substring) -> String? {
    for line in textLines(changelog) where line.hasPrefix("## [") {
        let rest = line.dropFirst(4)
        guard let close = rest.firstIndex(of: "]") else { continue }
        if isReleaseName(rest[..<close]) { return String(rest[..<close]) }
    }
    return nil
}

/// `difflab-dev api-baseline`: prints the newest release the changelog names and its recorded
/// commit, the baseline of `Scripts/api-check`.
enum APIBaselineCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let changelog = Option.text("changelog", "FILE", help: "the changelog whose first \"## [N.N.N]\" heading is the newest release").required()
        let releases = Option.text("releases", "FILE", help: "the record of each release's commit (NAME<TAB>COMMIT lines)").required()
        init() {}
    }

    static let name = "api-baseline"
    static let tool = "difflab-dev"
    static let abstract = "print the newest release and its recorded commit (the API check's baseline)"
    static let discussion = """
        Prints "NAME COMMIT": the newest release the changelog names (its first "## [N.N.N]"
        heading) and the commit the releases file records for it, or nothing when the changelog names
        no release yet. Scripts/api-check compares the public API with that commit, so a clone with
        the history but without the tags still has its baseline; where the tag is present it must
        name the same commit.
        """
    static let epilogue = """
        EXIT STATUS
          0 printed (or no release yet); 1 the newest release is not recorded; 64 bad command line;
          65 malformed releases file; 66 unreadable file
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let changelogPath = parsed.required(\.changelog)
        let releasesPath = parsed.required(\.releases)
        let changelog = Substring(decoding: try readInputFile(changelogPath), as: UTF8.self)
        let record = try ReleaseRecord(parsing: Substring(decoding: try readInputFile(releasesPath), as: UTF8.self), name: releasesPath)
        guard let release = newestRelease(in: changelog) else { return .success }
        guard let commit = record.commit(of: release) else {
            console.err(
                "api-baseline: \(changelogPath) names release \(release), but \(releasesPath) records no commit for it (add \"\(release)<TAB>COMMIT\")\n"
            )
            return .failure
        }
        console.out("\(release) \(commit)\n")
        return .success
    }
}
