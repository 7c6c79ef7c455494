import DiffLabJSON
import Testing

@Suite("Exact integers beyond Int")
struct BigIntegerTests {
    @Test("integers differing only beyond Double precision stay different")
    func distinctBeyondDoublePrecision() throws {
        let a = try JSONValue.parse("18446744073709551615")
        let b = try JSONValue.parse("18446744073709551614")
        #expect(a != b)
        #expect(a.hashValue != b.hashValue)  // Different canonical digits; SipHash collides with negligible probability.
        #expect(Set([a, b]).count == 2)
        // Their Doubles are equal: the reason a Double model collapses them.
        #expect(a.doubleValue == b.doubleValue)
        #expect(a.intValue == nil)
        #expect(a.bigIntegerValue?.decimal == "18446744073709551615")
        #expect(a.typeName == "number")
    }

    @Test(
        "every spelling of one integer is the same canonical value",
        arguments: [
            "18446744073709551615", "1.8446744073709551615e19", "1.8446744073709551615E+19",
            "184467440737095516150e-1", "0.18446744073709551615e20", "18446744073709551615.000",
            "1844674407370955161500000e-5",
        ])
    func spellings(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(value == big("18446744073709551615"))
        #expect(value.hashValue == big("18446744073709551615").hashValue)
        #expect(value.serialized() == "18446744073709551615")
    }

    @Test("content comparison sees big integers inside arrays and objects exactly")
    func nested() throws {
        let a = try JSONValue.parse(#"{"n":[1,18446744073709551615]}"#)
        let b = try JSONValue.parse(#"{"n":[1,18446744073709551614]}"#)
        let c = try JSONValue.parse(#"{"n":[1.0,1.8446744073709551615e19]}"#)
        #expect(a != b)
        #expect(a == c)
        #expect(a.hashValue == c.hashValue)
    }

    @Test(
        "JSONBigInteger text initialiser canonicalises and rejects non-integers",
        arguments: [
            ("0", "0"), ("-0", "0"), ("000", "0"), ("-000", "0"), ("007", "7"), ("-0012", "-12"),
            ("123456789012345678901234567890", "123456789012345678901234567890"),
        ])
    func textInit(_ text: String, _ canonical: String) throws {
        let value = try #require(JSONBigInteger(text))
        #expect(value.decimal == canonical)
        #expect(value.description == canonical)
        #expect(value == JSONBigInteger(canonical))
    }

    @Test(
        "JSONBigInteger text initialiser rejects malformed text",
        arguments: [
            "", "-", "+1", "1.0", "1e3", " 1", "1 ", "--1", "0x10", "١٢",
        ])
    func textInitRejects(_ text: String) {
        #expect(JSONBigInteger(text) == nil)
    }

    @Test(
        "exact expansion of doubles",
        arguments: [
            (0x1p63, "9223372036854775808"),
            (-0x1p63, "-9223372036854775808"),
            (1e23, "99999999999999991611392"),
            (0x1p64, "18446744073709551616"),
            (
                Double.greatestFiniteMagnitude,
                "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"
            ),
            (42.0, "42"), (-0.0, "0"),
        ])
    func exactlyDouble(_ double: Double, _ expected: String) throws {
        let value = try #require(JSONBigInteger(exactly: double))
        #expect(value.decimal == expected)
        #expect(value.doubleValue == double)
    }

    @Test(
        "non-integral and non-finite doubles have no exact integer", arguments: [0.5, -1.25, 1e-300, Double.infinity, -Double.infinity, Double.nan])
    func exactlyRejects(_ double: Double) {
        #expect(JSONBigInteger(exactly: double) == nil)
    }

    @Test("accessors: intValue, isNegative, doubleValue")
    func accessors() throws {
        #expect(JSONBigInteger("9223372036854775807")?.intValue == Int.max)
        #expect(JSONBigInteger("-9223372036854775808")?.intValue == Int.min)
        #expect(JSONBigInteger("9223372036854775808")?.intValue == nil)
        #expect(JSONBigInteger("-5")?.isNegative == true)
        #expect(JSONBigInteger("0")?.isNegative == false)
        #expect(JSONBigInteger("1" + String(repeating: "0", count: 400))?.doubleValue == .infinity)
        #expect(JSONBigInteger("-1" + String(repeating: "0", count: 400))?.doubleValue == -.infinity)
        #expect(JSONValue(try #require(JSONBigInteger("-12"))) == .integer(-12))
        #expect(JSONValue(try #require(JSONBigInteger("-12"))).intValue == -12)
    }

    @Test("round trip: big integers are written as their exact digits and read back equal")
    func roundTrip() throws {
        var generator = ValueGenerator(seed: 0xB16)
        for _ in 0..<500 {
            let integer = generator.bigInteger()
            let value = JSONValue.bigInteger(integer)
            let text = value.serialized()
            #expect(text == integer.decimal)
            let parsed = try JSONValue.parse(text)
            #expect(parsed.bigIntegerValue == integer)
            #expect(parsed.hashValue == value.hashValue)
        }
    }

    @Test("the largest in-range integers parse; one past the Double range does not")
    func rangeBoundary() throws {
        let maximum = try #require(JSONBigInteger(exactly: .greatestFiniteMagnitude))
        #expect(try JSONValue.parse(maximum.decimal) == .double(.greatestFiniteMagnitude))
        // 2^1024 is beyond even the rounding band of the largest Double.
        let twoTo1024 =
            "179769313486231590772930519078902473361797697894230657273430081157732675805500963132708477322407536021120113879871393357658789768814416622492847430639474124377767893424865485276302219601246094119453082952085005768838150682342462881473913110540827237163350510684586298239947245938479716304835356329624224137216"
        #expect(parseError(twoTo1024) == JSONParseError(line: 1, column: 1, message: ErrorTests.outOfRange))
    }
}
