import DiffLabJSON

/// Parses `text`, returning the error or `nil` when parsing succeeded.
func parseError(_ text: String) -> JSONParseError? {
    do {
        _ = try JSONValue.parse(text)
        return nil
    } catch {
        return error
    }
}

/// Parses `bytes`, returning the error or `nil` when parsing succeeded.
func parseError(bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONValue.parse(bytes: bytes)
        return nil
    } catch {
        return error
    }
}

/// SplitMix64: a tiny deterministic generator so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generates arbitrary normalised JSON values (no non-finite doubles), nested at most `depth` levels.
struct ValueGenerator {
    var rng: SplitMix64

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    mutating func value(depth: Int) -> JSONValue {
        let kinds = depth > 0 ? 10 : 8
        switch Int.random(in: 0..<kinds, using: &rng) {
        case 7: return .bigInteger(bigInteger())
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(integer())
        case 3, 4: return JSONValue(double())
        case 5, 6: return .string(string())
        case 8:
            let count = Int.random(in: 0...6, using: &rng)
            return .array((0..<count).map { _ in value(depth: depth - 1) })
        default:
            var object = JSONObject()
            let count = Int.random(in: 0...(Bool.random(using: &rng) ? 5 : 24), using: &rng)
            for _ in 0..<count {
                object[string()] = value(depth: depth - 1)
            }
            return .object(object)
        }
    }

    mutating func integer() -> Int {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return [Int.min, Int.max, 0, -1, 1, 1 << 53, -(1 << 53) - 1].randomElement(using: &rng) ?? 0
        case 1: return Int(truncatingIfNeeded: rng.next())
        default: return Int.random(in: -1000...1000, using: &rng)
        }
    }

    /// An integer outside Int's range with 20 to 309 digits (below 10^308 so always in range).
    mutating func bigInteger() -> JSONBigInteger {
        let count = Int.random(in: 20...308, using: &rng)
        var digits = String(Int.random(in: 1...9, using: &rng))
        for _ in 1..<count { digits += String(Int.random(in: 0...9, using: &rng)) }
        return JSONBigInteger((Bool.random(using: &rng) ? "-" : "") + digits)!
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            // Any finite bit pattern: subnormals, huge and tiny magnitudes.
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return d }
            }
        case 1:
            return [
                0.1, -0.0, 0.5, 1e-7, 1e300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 9.223372036854775808e18,
                -9.223372036854775808e18, 2.0, 1e22, 1e23,
            ].randomElement(using: &rng) ?? 0
        case 2:
            return Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 1000
        default:
            return Double.random(in: -1e6...1e6, using: &rng)
        }
    }

    mutating func string() -> String {
        let length = Int.random(in: 0...12, using: &rng)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let value: UInt32
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: value = UInt32.random(in: 0..<0x20, using: &rng)  // controls
            case 1: value = [0x22, 0x5C, 0x2F, 0x7F, 0x2028, 0xFEFF, 0x301, 0xE9, 0x65].randomElement(using: &rng) ?? 0x22
            case 2: value = UInt32.random(in: 0x80...0xFFFF, using: &rng)
            case 3: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
            default: value = UInt32.random(in: 0x20..<0x7F, using: &rng)
            }
            if let scalar = Unicode.Scalar(value) {  // skips surrogate code points
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
