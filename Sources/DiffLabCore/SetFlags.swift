// Scanning `Bool` flags eight at a time: the update flags of a matching are mostly all clear
// (lists that keep their content) or all set (every item updated), and both are found a word at
// a time instead of a byte at a time.

/// How many of `flags[range]` are `true`.
///
/// A `Bool` is one byte holding 0 or 1, so the bytes of a word sum to the flags it sets: the
/// flags are read eight at a time.
///
/// - Precondition: `range` lies within `flags`.
/// - Complexity: O(range.count / 8).
@inlinable
package func _countSetFlags(_ flags: UnsafeBufferPointer<Bool>, in range: Range<Int>) -> Int {
    let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(flags)[range])
    let words = bytes.count / 8
    var count = 0
    for w in 0..<words {
        // Each byte's low bit alone (a `Bool` is 0 or 1; the mask keeps a stray byte from
        // carrying into its neighbours, so this count and `_forEachSetFlag` always agree): a sum
        // of eight bits fits the top byte of the product.
        let word = bytes.loadUnaligned(fromByteOffset: w &* 8, as: UInt64.self) & 0x0101_0101_0101_0101
        if word != 0 { count &+= Int(truncatingIfNeeded: (word &* 0x0101_0101_0101_0101) >> 56) }
    }
    for k in (words &* 8)..<bytes.count where bytes[k] & 1 != 0 { count &+= 1 }
    return count
}

/// Calls `body` with each index of `flags[range]` that is `true` (a byte's low bit, as
/// ``_countSetFlags(_:in:)`` counts), in ascending order; words of eight clear flags are skipped
/// at once, and words of eight set ones need no test per flag.
///
/// - Precondition: `range` lies within `flags`.
/// - Complexity: O(range.count / 8 + the flags set).
@inlinable
package func _forEachSetFlag(_ flags: UnsafeBufferPointer<Bool>, in range: Range<Int>, _ body: (Int) -> Void) {
    let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(flags)[range])
    let words = bytes.count / 8
    let base = range.lowerBound
    for w in 0..<words {
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: w &* 8, as: UInt64.self)) & 0x0101_0101_0101_0101
        if word == 0 { continue }
        let first = base &+ w &* 8
        if word == 0x0101_0101_0101_0101 {
            for b in 0..<8 { body(first &+ b) }
        } else {
            // Byte b of a little-endian word is its bits 8b to 8b + 7.
            for b in 0..<8 where (word >> (b &* 8)) & 1 != 0 { body(first &+ b) }
        }
    }
    for k in (words &* 8)..<bytes.count where bytes[k] & 1 != 0 { body(base &+ k) }
}
