/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// Used for reproducible data everywhere in DiffLab (fuzzing inputs, benchmark datasets).
/// Deterministic: the same seed gives the same sequence on every platform, which is what replay
/// from a seed needs. Not cryptographic.
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    @inlinable
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits. - Complexity: O(1).
    @inlinable
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// A uniform value in `0...bound`, without modulo bias (Lemire's method).
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    package mutating func next(upTo bound: UInt64) -> UInt64 {
        if bound == .max { return next() }
        let range = bound &+ 1
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold { product = next().multipliedFullWidth(by: range) }
        }
        return product.high
    }
}
