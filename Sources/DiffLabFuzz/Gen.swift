/// A generator: a rule that turns choices drawn from a ``DataSource`` into a value.
///
/// Generators are written so that smaller choices give simpler values, which is what lets the
/// shrinker work on choice sequences alone: an integer draws its offset from the lower bound, a
/// list draws a "one more?" flag before each element (0 stops it), a choice among alternatives
/// prefers the first.
package struct Gen<Value> {
    /// Draws one value.
    package let generate: (inout DataSource) -> Value

    /// A generator from a drawing function.
    package init(_ generate: @escaping (inout DataSource) -> Value) { self.generate = generate }

    /// Always `value`; draws nothing.
    package static func constant(_ value: Value) -> Gen { Gen { _ in value } }

    /// A generator of `transform` applied to this generator's values.
    package func map<T>(_ transform: @escaping (Value) -> T) -> Gen<T> {
        Gen<T> { source in transform(self.generate(&source)) }
    }

    /// A generator whose next step depends on this one's value.
    package func flatMap<T>(_ next: @escaping (Value) -> Gen<T>) -> Gen<T> {
        Gen<T> { source in next(self.generate(&source)).generate(&source) }
    }

    /// One of `alternatives`, the first being the simplest.
    package static func oneOf(_ alternatives: [Gen<Value>]) -> Gen<Value> {
        precondition(!alternatives.isEmpty, "oneOf needs at least one alternative")
        return Gen { source in alternatives[source.draw(upTo: alternatives.count - 1)].generate(&source) }
    }
}

extension Gen where Value == Int {
    /// An integer in `range`; its lower bound is the simplest.
    package static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        Gen { source in range.lowerBound + source.draw(upTo: range.upperBound - range.lowerBound) }
    }
}

extension Gen where Value == Bool {
    /// `true` with probability `odds / (odds + 1)`; `false` is simpler.
    package static func bool(odds: Int = 1) -> Gen<Bool> { Gen { source in source.flag(odds: odds) } }
}

extension Gen {
    /// A list of this generator's values, at most `maxCount` long, about `average` long.
    ///
    /// Each element is preceded by a "one more?" flag, so deleting a span of choices removes
    /// whole elements and a zero flag ends the list: both shrink it.
    package func list(maxCount: Int, average: Int) -> Gen<[Value]> {
        Gen<[Value]> { source in
            var values: [Value] = []
            while values.count < maxCount && source.flag(odds: max(average, 1)) {
                values.append(self.generate(&source))
            }
            return values
        }
    }
}
