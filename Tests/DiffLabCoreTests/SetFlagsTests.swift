import DiffLabCore
import Testing

/// Flags read eight at a time (`_countSetFlags`, `_forEachSetFlag`): the same flags as a
/// byte-by-byte scan, over every alignment and length around a word, with words all clear, all
/// set and mixed.
@Suite("Set flags, a word at a time")
struct SetFlagsTests {
    @Test func countsAndListsTheFlagsAByteScanFinds() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let count = Int(rng.next(upTo: 40))
            // Runs of one value, so whole words come out clear or set.
            var flags: [Bool] = []
            while flags.count < count {
                let value = rng.next(upTo: 1) == 1
                flags += Array(repeating: value, count: min(count - flags.count, Int(rng.next(upTo: 12)) + 1))
            }
            let lower = Int(rng.next(upTo: UInt64(count)))
            let upper = lower + Int(rng.next(upTo: UInt64(count - lower)))
            let expected = (lower..<upper).filter { flags[$0] }
            flags.withUnsafeBufferPointer { buffer in
                #expect(_countSetFlags(buffer, in: lower..<upper) == expected.count, "\(flags) \(lower)..<\(upper)")
                var listed: [Int] = []
                _forEachSetFlag(buffer, in: lower..<upper) { listed.append($0) }
                #expect(listed == expected, "\(flags) \(lower)..<\(upper)")
            }
        }
    }

    /// A byte that is not 0 or 1 (no valid `Bool` is) is read by its low bit in both: the count
    /// and the listing agree, so the derivation, which appends as many updates as counted and
    /// then writes those listed, never writes past them. Eight bytes of 0x80 summed to 1,024,
    /// whose top byte is 0, before the mask.
    @Test func aStrayByteIsCountedAsItIsListed() {
        let bytes: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 3, 2, 0xff, 1, 0, 0x81, 0x80, 7, 5]
        bytes.withUnsafeBytes { raw in
            let flags = UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Bool.self), count: raw.count)
            let odd = bytes.indices.filter { bytes[$0] & 1 != 0 }
            #expect(_countSetFlags(flags, in: 0..<bytes.count) == odd.count)
            var listed: [Int] = []
            _forEachSetFlag(flags, in: 0..<bytes.count) { listed.append($0) }
            #expect(listed == odd)
        }
    }
}
