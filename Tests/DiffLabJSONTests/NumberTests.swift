import DiffLabJSON
import Testing

/// `.bigInteger` of canonical decimal text (the tests only pass canonical literals).
func big(_ text: String) -> JSONValue {
    .bigInteger(JSONBigInteger(text)!)
}

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
        // Integers beyond Int are exact, never rounded through Double.
        ValidCase("9223372036854775808", big("9223372036854775808")),  // Int.max + 1
        ValidCase("18446744073709551616", big("18446744073709551616")),
        ValidCase("18446744073709551615", big("18446744073709551615")),
        ValidCase("12345678901234567890123", big("12345678901234567890123")),
        ValidCase("-9223372036854775809", big("-9223372036854775809")),  // Int.min - 1
        ValidCase("1e22", big("10000000000000000000000")),
        ValidCase("1.8446744073709551615e19", big("18446744073709551615")),
        ValidCase("184467440737095516150e-1", big("18446744073709551615")),
        ValidCase("-0.00018446744073709551615E+23", big("-18446744073709551615")),
        ValidCase("1.5e1", .integer(15)),
        ValidCase("92233720368547758.07e2", .integer(Int.max)),
        ValidCase("-92233720368547758.08e2", .integer(Int.min)),
        // Integral spellings up to the Double range are exact integers.
        ValidCase("1.7976931348623157e308", big("17976931348623157" + String(repeating: "0", count: 292))),
        ValidCase("-1.7976931348623157E+308", big("-17976931348623157" + String(repeating: "0", count: 292))),
        ValidCase(String(repeating: "9", count: 308), big(String(repeating: "9", count: 308))),
        // Non-integral spellings go through Double; one whose nearest Double is integral becomes it.
        ValidCase("9007199254740993.5", .integer(9_007_199_254_740_994)),
        ValidCase("100000000000000000000000.5", big("100000000000000008388608")),
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
        case let (.bigInteger(a), .bigInteger(b)):
            #expect(a.decimal == b.decimal)
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

    @Test(
        "init(_ double:) and float literals normalise",
        arguments: [
            (0.0, JSONValue.integer(0)), (-0.0, .integer(0)), (2.0, .integer(2)), (-3e5, .integer(-300_000)),
            (2.5, .double(2.5)), (1e19, big("10000000000000000000")), (-9.223372036854775808e18, .integer(Int.min)),
            (9.223372036854775808e18, big("9223372036854775808")), (1e23, big("99999999999999991611392")),
            (-9.3e18, big("-9300000000000000000")), (Double.infinity, .double(.infinity)),
        ])
    func normalisingInit(_ input: Double, _ expected: JSONValue) {
        let value = JSONValue(input)
        switch (value, expected) {
        case let (.integer(a), .integer(b)): #expect(a == b)
        case let (.double(a), .double(b)): #expect(a == b)
        case let (.bigInteger(a), .bigInteger(b)): #expect(a == b)
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

    @Test("hand-built .double and .bigInteger compare and hash by exact value")
    func handBuiltBigValues() {
        #expect(JSONValue.double(1e23) == big("99999999999999991611392"))
        #expect(big("99999999999999991611392") == .double(1e23))
        #expect(JSONValue.double(1e23) != big("100000000000000000000000"))
        #expect(Set<JSONValue>([.double(1e23), big("99999999999999991611392")]).count == 1)
        // A .bigInteger holding an Int-sized value equals the .integer.
        let small = JSONValue.bigInteger(JSONBigInteger(42))
        #expect(small == .integer(42))
        #expect(JSONValue.integer(42) == small)
        #expect(small == .double(42.0))
        #expect(Set<JSONValue>([small, .integer(42), .double(42)]).count == 1)
        #expect(JSONValue.double(0.5) != big("18446744073709551615"))
        #expect(JSONValue.integer(1) != big("18446744073709551615"))
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
            let expected = try #require(Double(text))
            let parsed = try JSONValue.parse(text)
            // Integral values are exact (possibly .bigInteger); every number's doubleValue is the
            // correctly rounded Double of its spelling.
            #expect(parsed.doubleValue?.bitPattern == expected.bitPattern, "\(text)")
            if case .double = parsed {
                #expect(parsed == JSONValue(expected), "\(text)")
            }
        }
    }
}
