// The staged changeset's default engine. DiffLabBatch (UIKit's batch-update model) does not
// depend on the engines, so the initialiser that picks one for the caller lives here, where both
// modules are in scope; code that imports only DiffLabBatch passes an engine.
import DiffLabBatch
import DiffLabCore
import DiffLabEngines

extension StagedChangeset {
    /// Computes the stages that turn `old` into `new`, with ``HashMapEngine`` pairing sections and
    /// items: `StagedChangeset(from: old, to: new, engine: HashMapEngine(), comparison: comparison)`.
    ///
    /// Available with `import DiffLab`; with `import DiffLabBatch` alone, pass the engine
    /// (``StagedChangeset/init(from:to:engine:comparison:)``).
    ///
    /// - Complexity: as ``StagedChangeset/init(from:to:engine:comparison:)``.
    @inlinable
    public init(
        from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption = .equality
    ) {
        self.init(from: old, to: new, engine: HashMapEngine(), comparison: comparison)
    }
}
