import DiffLabCore
import DiffLabEngines

/// The built-in engines as existentials, for parameterized tests (a test needs no
/// specialization; the benchmark and the runner's registry keep it).
package let builtInEngines: [any DiffEngine] = [HeckelEngine(), HashMapEngine(), MyersEngine(), StdlibEngine()]

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
