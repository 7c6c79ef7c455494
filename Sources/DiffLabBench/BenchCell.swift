import DiffLabBatch
import DiffLabCore
import DiffLabEngines

/// The subject name of the batch-update validator's cells: `validate:profile:kind:size`.
package let validateSubjectName = "validate"

/// One benchmark cell: a subject (an engine, a floor (``BenchSubject/floors``), or the
/// ``validateSubjectName``) on one generated input.
///
/// Cells are named `subject:profile:kind:size`, e.g. `hashmap:differencekit:int:10000`; that
/// name is the stable key the regression gate uses to pair a baseline build's measurement with
/// the candidate's. `size` lies in ``allowedSizes`` (1 to 10,000,000).
///
/// A `validate` cell times ``BatchUpdate/violations()`` on the update of
/// ``validationWorkload(size:)``: `size` sections, a quarter of them swapped pairwise by section
/// moves, the other half's items reloaded. Its profile and kind must name a dataset like any
/// cell's, but do not change the update (it is not a list diff). The cell keeps the validator
/// linear: a pass over the moves per item (the bug of issue 10) makes it quadratic in `size`.
package struct BenchCell: Sendable, Hashable, CustomStringConvertible {
    /// The sizes a cell may have: 1 to 10,000,000. A larger dataset would not fit in memory, or
    /// take hours to generate; the bound turns that into an error naming the range.
    package static let allowedSizes = 1...10_000_000

    /// An engine's name (a ``BenchSubject``'s), a floor's or ``validateSubjectName``.
    package var subject: String
    package var profile: DatasetProfile
    package var kind: ElementKind
    package var size: Int

    /// A cell. Does not check `subject` or `size`; ``init(parsing:)`` does.
    package init(subject: String, profile: DatasetProfile, kind: ElementKind, size: Int) {
        self.subject = subject
        self.profile = profile
        self.kind = kind
        self.size = size
    }

    /// Parses `subject:profile:kind:size`, where `subject` names one of `engines`, a floor or the
    /// validator.
    ///
    /// - Throws: ``BenchCellError`` saying which part is wrong; a size that is not a decimal
    ///   integer in ``allowedSizes`` is ``BenchCellError/badSize(_:)``, naming the range.
    package init(parsing text: String, engines: [BenchSubject] = BenchSubject.builtIns) throws(BenchCellError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else { throw .malformed(text) }
        guard
            BenchSubject.namedFloors.contains(where: { $0.name == parts[0] }) || parts[0] == validateSubjectName
                || engines.contains(where: { $0.name == parts[0] })
        else {
            throw .unknownSubject(parts[0], known: engines.map(\.name))
        }
        guard let profile = DatasetProfile(rawValue: parts[1]) else { throw .unknownProfile(parts[1]) }
        guard let kind = ElementKind(rawValue: parts[2]) else { throw .unknownKind(parts[2]) }
        guard let size = Int(parts[3]), Self.allowedSizes.contains(size) else { throw .badSize(parts[3]) }
        self.init(subject: parts[0], profile: profile, kind: kind, size: size)
    }

    /// `subject:profile:kind:size`.
    package var description: String { "\(subject):\(profile.rawValue):\(kind.rawValue):\(size)" }

    /// Generates the cell's dataset (seeded, so every build sees the same lists) and returns the
    /// call to measure: one diff of old → new by the engine named ``subject`` among `engines`
    /// (identity comparison for object elements, equality otherwise), one pass of a floor, or one
    /// validation of ``validationWorkload(size:)``. The input is generated once, here, not in the
    /// call.
    ///
    /// - Throws: ``BenchCellError/unknownSubject(_:known:)`` when no subject has that name.
    /// - Complexity: O(size) to generate; the call costs what the subject costs.
    package func makeCall(seed: UInt64, engines: [BenchSubject] = BenchSubject.builtIns) throws(BenchCellError) -> BenchCall {
        if subject == validateSubjectName {
            let update = Self.validationWorkload(size: size)
            return BenchCall(
                run: {
                    blackHole(update.violations())
                    return nil
                }, counts: nil)
        }
        let all = BenchSubject.namedFloors + engines
        guard let subject = all.first(where: { $0.name == self.subject }) else {
            throw .unknownSubject(self.subject, known: engines.map(\.name))
        }
        return subject.prepare(BenchLists(AbstractDataset(profile, size: size, seed: seed), kind: kind))
    }
}

extension BenchCell {
    /// The update a `validate` cell validates: `size` sections of 4 items each; sections
    /// `0..<size/2` are swapped in pairs by section moves (2i ↔ 2i+1, so `size/2` rounded down to
    /// even moves), and item 0 of every section from `size/2` on is reloaded (about `size/2`
    /// reloads). The update is valid. A validator that scans the item operations once per section
    /// move costs O(size²) on it; a linear one O(size log size).
    ///
    /// - Complexity: O(size).
    package static func validationWorkload(size: Int) -> BatchUpdate {
        let half = size / 2
        var moves: [SectionMove] = []
        moves.reserveCapacity(half)
        for s in stride(from: 0, to: half - 1, by: 2) {
            moves.append(SectionMove(from: s, to: s + 1))
            moves.append(SectionMove(from: s + 1, to: s))
        }
        let counts = [Int](repeating: 4, count: size)
        return BatchUpdate(
            itemCountsBefore: counts, itemCountsAfter: counts, moveSections: moves,
            reloadItems: (half..<size).map { ItemIndexPath(section: $0, item: 0) })
    }
}

/// Why a cell name was rejected.
package enum BenchCellError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    /// The subject is not one of the `known` engines, the hash floor or the validator.
    case unknownSubject(String, known: [String])
    case unknownProfile(String)
    case unknownKind(String)
    case badSize(String)

    package var description: String {
        switch self {
        case .malformed(let text): "cell '\(text)' is not subject:profile:kind:size"
        case .unknownSubject(let name, let known):
            "unknown subject '\(name)' (expected \((known + BenchSubject.namedFloors.map(\.name) + [validateSubjectName]).joined(separator: ", ")))"
        case .unknownProfile(let name):
            "unknown profile '\(name)' (expected one of: \(DatasetProfile.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownKind(let name):
            "unknown element kind '\(name)' (expected one of: \(ElementKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .badSize(let text):
            "cell size '\(text)' is not an integer from \(BenchCell.allowedSizes.lowerBound) to \(BenchCell.allowedSizes.upperBound)"
        }
    }
}

/// Runs `call` once, in a function of its own whose symbol contains `difflabMeasuredCall`, so
/// valgrind's callgrind can count exactly its instructions with
/// `--collect-atstart=no --toggle-collect=*difflabMeasuredCall*`. Outside valgrind it is just a call.
@inline(never)
package func difflabMeasuredCall(_ call: () -> Void) {
    call()
}
