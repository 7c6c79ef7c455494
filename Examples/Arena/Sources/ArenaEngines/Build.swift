/// How the arena's libraries were built, for ``EngineAbout/build``: decided when the package was
/// built (Package.swift defines `ARENA_LOCAL_CHECKOUTS` when `DIFFLAB_ARENA_CHECKOUTS` was set).
enum ArenaBuild {
    /// `SwiftPM, by URL at <version>` or `SwiftPM, local checkout of <version>`.
    static func swiftPM(_ version: String) -> String {
        #if ARENA_LOCAL_CHECKOUTS
        return "SwiftPM, local checkout of \(version) (DIFFLAB_ARENA_CHECKOUTS)"
        #else
        return "SwiftPM, by URL at \(version)"
        #endif
    }
}
