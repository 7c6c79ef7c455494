/// Where an engine comes from, for reports that compare libraries (`difflab arena`): the library,
/// its exact version, how it was built, how the adapter applies it, and the sources of the
/// promises the adapter declares.
///
/// Only what an adapter states: nothing here is checked, and nothing here changes what DiffLab
/// checks (that is ``EnginePromises``). Every field is plain text, shown escaped in reports.
public struct EngineAbout: Sendable, Hashable {
    /// The library's name, as its authors write it (`DifferenceKit`).
    public var library: String
    /// The version the engine was built from: a release (`1.3.0`) or a longer label
    /// (`git 2.39.5, Debian's package`).
    public var version: String
    /// The commit the version resolves to, when known.
    public var revision: String?
    /// Where the library lives (a repository address).
    public var source: String?
    /// How it was built (`SwiftPM, by URL at 1.3.0`, or a local checkout).
    public var build: String?
    /// How the adapter applies the library, in one sentence (the API it calls and the form it
    /// hands to UIKit).
    public var adapter: String?
    /// Whether the library's diff runs as compiled machine code (C, C++, Rust, Swift, Cython), not
    /// in an interpreter; `nil` when the adapter does not say. The arena report compares DiffLab's
    /// engines with the fastest library that says `true`.
    public var native: Bool?
    /// For each promise the adapter declares, the library's own words (a doc comment, README line
    /// or test) with the file it is quoted from.
    public var promiseSources: [String]

    /// A description of an engine's origin; see each property.
    public init(
        library: String, version: String, revision: String? = nil, source: String? = nil, build: String? = nil,
        adapter: String? = nil, promiseSources: [String] = []
    ) {
        self.library = library
        self.version = version
        self.revision = revision
        self.source = source
        self.build = build
        self.adapter = adapter
        self.promiseSources = promiseSources
    }
}

extension ChangesetEngine {
    /// No description by default.
    public var about: EngineAbout? { nil }
}
