import DiffLabCore
import DiffLabEngines

/// One benchmark cell: a subject (an engine, or the ``hashFloorName``) on one generated dataset.
///
/// Cells are named `subject:profile:kind:size`, e.g. `hashmap:differencekit:int:10000`; that
/// name is the stable key the regression gate uses to pair a baseline build's measurement with
/// the candidate's.
public struct BenchCell: Sendable, Hashable, CustomStringConvertible {
    /// An engine name (``EngineKind``'s raw value) or ``hashFloorName``.
    public var subject: String
    public var profile: DatasetProfile
    public var kind: ElementKind
    public var size: Int

    /// A cell. Does not check `subject`; ``init(parsing:)`` does.
    public init(subject: String, profile: DatasetProfile, kind: ElementKind, size: Int) {
        self.subject = subject
        self.profile = profile
        self.kind = kind
        self.size = size
    }

    /// Parses `subject:profile:kind:size`.
    ///
    /// - Throws: ``BenchCellError`` saying which part is wrong.
    public init(parsing text: String) throws(BenchCellError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else { throw .malformed(text) }
        guard parts[0] == hashFloorName || EngineKind(rawValue: parts[0]) != nil else { throw .unknownSubject(parts[0]) }
        guard let profile = DatasetProfile(rawValue: parts[1]) else { throw .unknownProfile(parts[1]) }
        guard let kind = ElementKind(rawValue: parts[2]) else { throw .unknownKind(parts[2]) }
        guard let size = Int(parts[3]), size > 0 else { throw .badSize(parts[3]) }
        self.init(subject: parts[0], profile: profile, kind: kind, size: size)
    }

    /// `subject:profile:kind:size`.
    public var description: String { "\(subject):\(profile.rawValue):\(kind.rawValue):\(size)" }

    /// Generates the cell's dataset (seeded, so every build sees the same lists) and returns the
    /// call to measure: one diff of old → new (identity comparison for object elements, equality
    /// otherwise), or one hash-floor pass. The lists are generated once, here, not in the call.
    ///
    /// - Complexity: O(size) to generate; the call costs what the subject costs.
    public func makeCall(seed: UInt64) -> () -> Void {
        let dataset = AbstractDataset(profile, size: size, seed: seed)
        switch kind {
        case .int:
            let lists = dataset.ints()
            return benchCall(subject, lists.old, lists.new, .equality)
        case .model:
            let lists = dataset.models()
            return benchCall(subject, lists.old, lists.new, .equality)
        case .object:
            let lists = dataset.objects()
            return benchCall(subject, lists.old, lists.new, .identity)
        }
    }
}

/// Why a cell name was rejected.
public enum BenchCellError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case unknownSubject(String)
    case unknownProfile(String)
    case unknownKind(String)
    case badSize(String)

    public var description: String {
        switch self {
        case .malformed(let text): "cell '\(text)' is not subject:profile:kind:size"
        case .unknownSubject(let name): "unknown subject '\(name)' (expected \(EngineKind.allNames) or \(hashFloorName))"
        case .unknownProfile(let name): "unknown profile '\(name)' (expected one of: \(DatasetProfile.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownKind(let name): "unknown element kind '\(name)' (expected one of: \(ElementKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .badSize(let text): "cell size '\(text)' is not a positive integer"
        }
    }
}

/// The call a benchmark times for `subject` on `old` → `new`: a diff with the named engine, or the
/// hash floor. Shared by ``runBench(_:allocator:progress:)`` and ``BenchCell/makeCall(seed:)``.
func benchCall<Element: Diffable>(
    _ subject: String, _ old: [Element], _ new: [Element], _ comparison: ComparisonOption
) -> () -> Void {
    if subject == hashFloorName { return { blackHole(hashFloor(old, new)) } }
    let engine = EngineKind(rawValue: subject) ?? .hashmap
    return { blackHole(engine.diff(from: old, to: new, comparison: comparison)) }
}

/// Runs `call` once, in a function of its own whose symbol contains `difflabMeasuredCall`, so
/// valgrind's callgrind can count exactly its instructions with
/// `--collect-atstart=no --toggle-collect=*difflabMeasuredCall*`. Outside valgrind it is just a call.
@inline(never)
public func difflabMeasuredCall(_ call: () -> Void) {
    call()
}
