import DiffLabCore
import DiffLabEngines

/// Every built-in engine of the one table (``BuiltInEngines``) as an existential, for
/// parameterized tests (a test needs no specialization; the benchmark and the runner's registry
/// keep it).
package let builtInEngines: [any DiffEngine] = {
    struct Collect: BuiltInEngineVisitor {
        var engines: [any DiffEngine] = []
        mutating func visit<Engine: DiffEngine>(_ engine: Engine, growth: EngineGrowth, uses: BuiltInEngines.Uses) {
            engines.append(engine)
        }
    }
    var collect = Collect()
    BuiltInEngines.visitAll(&collect)
    return collect.engines
}()

/// The built-in engines named `names`, in that order.
package func builtInEngines(_ names: String...) -> [any DiffEngine] {
    names.map { name in builtInEngines.first { $0.name == name }! }
}

extension DiffEngine {
    /// The pairing under ``ComparisonOption/equality``.
    package func matching<Element: Diffable>(from old: [Element], to new: [Element]) -> Matching {
        matching(from: old, to: new, comparison: .equality)
    }
}
