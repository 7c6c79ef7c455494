#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

// The C library's elementary functions DiffLab uses, as static members of `Double` (the Swift
// standard library has `squareRoot()` and `rounded(_:)` but no logarithm, exponential or power).
// Each is the C function of the same name (libm on Linux, libsystem_m on Darwin; both C99), so a
// value is what it was when the C module was imported directly. Static members, so they never
// collide with the C functions where a file imports Foundation (which re-exports the C module).

extension Double {
    /// The natural logarithm (`log`): `-infinity` for 0, NaN for a negative `x`. - Complexity: O(1).
    package static func log(_ x: Double) -> Double { _log(x) }

    /// The base-10 logarithm (`log10`), exact at powers of ten on glibc and Darwin alike;
    /// `-infinity` for 0, NaN for a negative `x`. - Complexity: O(1).
    package static func log10(_ x: Double) -> Double { _log10(x) }

    /// `e` to the power `x` (`exp`): `+infinity` past about 709.78. - Complexity: O(1).
    package static func exp(_ x: Double) -> Double { _exp(x) }

    /// `base` to the power `exponent` (`pow`, C99's special cases: `pow(x, 0)` is 1 for every
    /// `x`, NaN included). - Complexity: O(1).
    package static func pow(_ base: Double, _ exponent: Double) -> Double { _pow(base, exponent) }
}

// The C functions, under names the members above do not shadow.
private func _log(_ x: Double) -> Double { log(x) }
private func _log10(_ x: Double) -> Double { log10(x) }
private func _exp(_ x: Double) -> Double { exp(x) }
private func _pow(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }
