import DiffLabCore

/// Where a generator's decisions come from, and the record of them: the choice sequence.
///
/// Every random decision a generator makes is one call to ``draw(upTo:)``, which returns a value in
/// `0...bound` and appends it to ``choices``. Generators are written so that smaller choices give
/// simpler values (0 is the simplest), so shrinking works on the choice sequence alone and every
/// shrunk sequence decodes to a valid input by construction (Hypothesis's "internal reduction").
///
/// A source answers draws, in order, from:
/// 1. a **prefix** of recorded choices (a value above the bound is reduced modulo `bound + 1`);
/// 2. then a seeded ``SplitMix64``, when one is given (generation), or zeros (replay, shrinking);
/// or from raw **bytes** (libFuzzer): each draw takes as many bytes as its bound needs, big-endian,
/// and zeros once the bytes run out — so libFuzzer's mutations of bytes are mutations of choices.
package struct DataSource {
    @usableFromInline var prefix: [UInt64]
    @usableFromInline var random: SplitMix64?
    @usableFromInline var bytes: [UInt8]?
    @usableFromInline var byteOffset = 0
    /// The choices made so far.
    package private(set) var choices: [UInt64] = []
    /// How many bytes each choice takes in the byte encoding (by its bound).
    @usableFromInline var widths: [UInt8] = []
    /// The most draws allowed; later draws return 0 and set ``overrun``.
    package let maxChoices: Int
    /// Whether a generator drew more than ``maxChoices`` times.
    package private(set) var overrun = false

    /// A source that draws from a seeded generator (after `prefix`).
    package init(seed: UInt64, prefix: [UInt64] = [], maxChoices: Int = 100_000) {
        self.prefix = prefix
        self.random = SplitMix64(seed: seed)
        self.maxChoices = maxChoices
        choices.reserveCapacity(256)
    }

    /// A source that replays `choices` and then answers 0.
    package init(replaying choices: [UInt64], maxChoices: Int = 100_000) {
        self.prefix = choices
        self.maxChoices = maxChoices
        self.choices.reserveCapacity(choices.count)
    }

    /// A source that decodes `bytes` (from libFuzzer) as choices.
    package init(bytes: [UInt8], maxChoices: Int = 100_000) {
        self.prefix = []
        self.bytes = bytes
        self.maxChoices = maxChoices
    }

    /// A value in `0...bound`; 0 is the simplest answer.
    ///
    /// - Complexity: O(1).
    package mutating func draw(upTo bound: UInt64) -> UInt64 {
        guard choices.count < maxChoices else {
            overrun = true
            return 0
        }
        var value: UInt64
        let index = choices.count
        if index < prefix.count {
            value = prefix[index]
        } else if random != nil {
            value = random!.next(upTo: bound)
        } else if let bytes {
            value = 0
            var width = bound
            while width > 0 {
                value <<= 8
                if byteOffset < bytes.count { value |= UInt64(bytes[byteOffset]) }
                byteOffset += 1
                width >>= 8
            }
        } else {
            value = 0
        }
        if value > bound { value = bound == .max ? value : value % (bound &+ 1) }
        choices.append(value)
        widths.append(UInt8((UInt64.bitWidth - bound.leadingZeroBitCount + 7) / 8))
        return value
    }

    /// The choices made so far as bytes that ``init(bytes:maxChoices:)`` decodes back into the
    /// same choices: each one big-endian in as many bytes as its bound needs. Used to write seed
    /// inputs for libFuzzer.
    ///
    /// - Complexity: O(choices).
    package var byteEncoding: [UInt8] {
        var bytes: [UInt8] = []
        for (value, width) in zip(choices, widths) {
            for shift in stride(from: Int(width) - 1, through: 0, by: -1) {
                bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))))
            }
        }
        return bytes
    }

    /// A value in `0...bound` as an `Int`.
    package mutating func draw(upTo bound: Int) -> Int { Int(draw(upTo: UInt64(max(bound, 0)))) }

    /// `true` with probability about `1 − 1/(odds + 1)` when random; `false` is simpler.
    package mutating func flag(odds: Int = 1) -> Bool { draw(upTo: odds) != 0 }
}
