import DiffLabCore

/// A result-level engine that also diffs sectioned lists, answering in stages: the socket for
/// libraries such as DifferenceKit (`StagedChangeset` of `ArraySection`s) and RxDataSources'
/// Differentiator (`Changeset`s of section models).
///
/// DiffLab checks each stage as one UIKit batch update (sections and items) on the previous
/// stage's data, identity and content, and that the last stage's data is the new model
/// (the fuzzer's `staged-valid` property, on the sectioned lists of every case). Nothing is
/// checked in the adapter: an engine under test may answer anything.
///
/// Conforming types document their contract, complexity and how they treat repeated section or
/// item identifiers; an engine that does not promise ``EnginePromises/supportsDuplicates`` has
/// failures on inputs that repeat either reported as outside its contract.
public protocol SectionedChangesetEngine: ChangesetEngine {
    /// The engine's staged changeset turning `old` into `new`.
    ///
    /// - Parameters:
    ///   - old: the sectioned list before the change.
    ///   - new: the sectioned list after the change.
    ///   - comparison: how a paired item is judged updated (`Diffable._isUpdated(from:comparison:)`).
    /// - Throws: ``EngineFailure`` when the engine gives no answer; never for a wrong answer.
    func stagedChanges<SectionID: Hashable, Element: Diffable>(
        from old: SectionedList<SectionID, Element>, to new: SectionedList<SectionID, Element>,
        comparison: ComparisonOption
    ) throws(EngineFailure) -> StagedChangeset<SectionID, Element>
}
