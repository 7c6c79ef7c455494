import Testing
import DiffLabJSON

@Suite("Number parsing and normalisation")
struct NumberTests {
    static let cases: [ValidCase] = [
        ValidCase("0", .integer(0)),
        ValidCase("-0", .integer(0)),
        ValidCase("-0.0", .integer(0)),
        ValidCase("0e5", .integer(0)),
        ValidCase("-0E-3", .integer(0)),
        ValidCase("1", .integer(1)),
        ValidCase("1.0", .integer(1)),
        ValidCase("1e0", .integer(1)),
        ValidCase("1E+0", .integer(1)),
        ValidCase("1.000000000000000000000000000", .integer(1)),
        ValidCase("10e-1", .integer(1)),
        ValidCase("100E-2", .integer(1)),
        ValidCase("1e2", .integer(100)),
        ValidCase("1e00002", .integer(100)),
        ValidCase("2.5E+1", .integer(25)),
        ValidCase("-1.5e3", .integer(-1500)),
        ValidCase("-1e-0", .integer(-1)),
        ValidCase("1e18", .integer(1_000_000_000_000_000_000)),
        ValidCase("9223372036854775807", .integer(Int.max)),
        ValidCase("-9223372036854775808", .integer(Int.min)),
        ValidCase("9007199254740993", .integer(9_007_199_254_740_993)),  // 2^53 + 1 stays exact
        ValidCase("-9007199254740993", .integer(-9_007_199_254_740_993)),
        ValidCase("9223372036854775808", .double(9_223_372_036_854_775_808.0)),  // Int.max + 1
        ValidCase("18446744073709551616", .double(18_446_744_073_709_551_616.0)),
        ValidCase("12345678901234567890123", .double(1.2345678901234568e22)),
        // Rounds to exactly -2^63 == Int.min, so it normalises (documented edge case).
        ValidCase("-9223372036854775809", .integer(Int.min)),
        ValidCase("1e22", .double(1e22)),
        ValidCase("0.5", .double(0.5)),
        ValidCase("-0.5", .double(-0.5)),
        ValidCase("0.1", .double(0.1)),
        ValidCase("0.30000000000000004", .double(0.30000000000000004)),
        ValidCase("4.35", .double(4.35)),
        ValidCase("123.456e1", .double(1234.56)),
        ValidCase("1e-7", .double(1e-7)),
        ValidCase("1E-7", .double(1e-7)),
        ValidCase("3.141592653589793238462643383279", .double(Double.pi)),
        ValidCase("5e-324", .double(Double.leastNonzeroMagnitude)),
        ValidCase("2.2250738585072014e-308", .double(Double.leastNormalMagnitude)),
        ValidCase("1.7976931348623157e308", .double(Double.greatestFiniteMagnitude)),
        ValidCase("-1.7976931348623157E+308", .double(-Double.greatestFiniteMagnitude)),
        ValidCase("1e-400", .integer(0)),  // underflows to zero
        ValidCase("1e-99999999999999999999", .integer(0)),
        ValidCase("0.0e99999999999999999999", .integer(0)),
        ValidCase("0." + String(repeating: "0", count: 400) + "1e401", .integer(1)),
        ValidCase("0." + String(repeating: "0", count: 400) + "15e401", .double(1.5)),
    ]

    @Test("numbers parse to the normalised value", arguments: cases)
    func parsesNumber(_ testCase: ValidCase) throws {
        let value = try JSONValue.parse(testCase.text)
        // Compare the exact case, not just numeric equality.
        switch (value, testCase.expected) {
        case let (.integer(a), .integer(b)):
            #expect(a == b)
        case let (.double(a), .double(b)):
            #expect(a.bitPattern == b.bitPattern)
        default:
            Issue.record("\(testCase.text) parsed to \(value) (\(value)) but expected \(testCase.expected)")
        }
    }

    @Test("1 == 1.0 == 1e0, and different types are never equal")
    func equalitySemantics() throws {
        let one = try JSONValue.parse("1")
        #expect(one == (try JSONValue.parse("1.0")))
        #expect(one == (try JSONValue.parse("1e0")))
        #expect(one == (try JSONValue.parse("0.1e1")))
        #expect(one != (try JSONValue.parse("\"1\"")))
        #expect(one != .bool(true))
        #expect(JSONValue.integer(0) != .bool(false))
        #expect(JSONValue.null != .array([]))
        #expect(JSONValue.string("") != .null)
        #expect(Set([one, try JSONValue.parse("1.0"), try JSONValue.parse("100e-2")]).count == 1)
    }

    @Test("hand-built .double holding an integral value equals and hashes like .integer")
    func handBuiltDouble() {
        #expect(JSONValue.double(1.0) == .integer(1))
        #expect(JSONValue.integer(1) == .double(1.0))
        #expect(JSONValue.double(-0.0) == .integer(0))
        #expect(JSONValue.double(1.5) != .integer(1))
        #expect(JSONValue.double(9.223372036854775808e18) != .integer(Int.max))
        #expect(JSONValue.double(-9.223372036854775808e18) == .integer(Int.min))
        // Int -> Double rounding must not create false equality.
        #expect(JSONValue.double(9_007_199_254_740_992.0) != .integer(9_007_199_254_740_993))
        #expect(Set<JSONValue>([.double(2.0), .integer(2)]).count == 1)
        #expect(JSONValue.double(.nan) != .double(.nan))
    }

    @Test("init(_ double:) and float literals normalise", arguments: [
        (0.0, JSONValue.integer(0)), (-0.0, .integer(0)), (2.0, .integer(2)), (-3e5, .integer(-300_000)),
        (2.5, .double(2.5)), (1e19, .double(1e19)), (-9.223372036854775808e18, .integer(Int.min)),
        (9.223372036854775808e18, .double(9.223372036854775808e18)), (Double.infinity, .double(.infinity)),
    ])
    func normalisingInit(_ input: Double, _ expected: JSONValue) {
        let value = JSONValue(input)
        switch (value, expected) {
        case let (.integer(a), .integer(b)): #expect(a == b)
        case let (.double(a), .double(b)): #expect(a == b)
        default: Issue.record("JSONValue(\(input)) == \(value), expected \(expected)")
        }
    }

    @Test("float literals go through the same normalisation")
    func floatLiterals() {
        let two: JSONValue = 2.0
        let half: JSONValue = 0.5
        #expect(two.intValue == 2)
        #expect(half.intValue == nil)
        #expect(half.doubleValue == 0.5)
    }

    @Test("fast decimal path agrees with Double(String) on random decimals")
    func fastPathAgreesWithStandardLibrary() throws {
        var rng = SplitMix64(seed: 0xDEC1_3A15)
        for _ in 0..<5000 {
            let integerDigits = Int.random(in: 1...10, using: &rng)
            let fractionDigits = Int.random(in: 0...12, using: &rng)
            var text = Bool.random(using: &rng) ? "-" : ""
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<integerDigits { text += String(Int.random(in: 0...9, using: &rng)) }
            if fractionDigits > 0 {
                text += "."
                for _ in 0..<fractionDigits { text += String(Int.random(in: 0...9, using: &rng)) }
            }
            if Bool.random(using: &rng) {
                text += "e" + String(Int.random(in: -30...30, using: &rng))
            }
            let expected = JSONValue(try #require(Double(text)))
            let parsed = try JSONValue.parse(text)
            #expect(parsed == expected, "\(text)")
            if case .double(let a) = parsed, case .double(let b) = expected {
                #expect(a.bitPattern == b.bitPattern, "\(text)")
            }
        }
    }
}
