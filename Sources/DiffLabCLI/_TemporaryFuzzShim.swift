// Temporary until the fuzz branch lands: deleted at merge.
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz

extension FuzzSubject {
    @inlinable
    public init<E: DiffEngine>(_ engine: E) {
        let semantics: Semantics = switch engine.promises.reference {
        case .heckel: .heckel
        case .minimalScript: .minimalScript
        default: .none
        }
        self.init(name: engine.name, engine: EngineKind(rawValue: engine.name), semantics: semantics, matching: { engine.matching(from: $0, to: $1, comparison: .equality) })
    }
    @inlinable
    public init<E: ChangesetEngine>(_ engine: E) {
        self.init(name: engine.name, semantics: .none, matching: { Matching(oldCount: $0.count, newCount: $1.count) })
    }
}
