import DiffLabJSON
import Testing

@Suite("Serialisation")
struct WriterTests {
    static let compactCases: [(JSONValue, String)] = [
        (.null, "null"),
        (true, "true"),
        (false, "false"),
        (0, "0"),
        (-42, "-42"),
        (.integer(Int.min), "-9223372036854775808"),
        (.integer(Int.max), "9223372036854775807"),
        (0.5, "0.5"),
        (.double(0.1), "0.1"),
        (.double(1e-7), "1e-07"),
        (.double(1.5e-300), "1.5e-300"),
        // Hand-built integral doubles beyond Int are written exactly, so they parse back equal.
        (
            .double(1.5e300),
            "1500000000000000078757140382806630373056702871662238732373781173267703686983362293679557062620671796065556665749325817265413784853040645863467188277180060474272580801389863705606745350692182135089053429852456199917621678558451461320111979114170213741868888183230085264257173504208294580298189100810240"
        ),
        (.double(-1e19), "-10000000000000000000"),
        (.bigInteger(JSONBigInteger("18446744073709551615")!), "18446744073709551615"),
        (.bigInteger(JSONBigInteger("-00123456789012345678901234567890")!), "-123456789012345678901234567890"),
        (.double(-2.5), "-2.5"),
        (.double(2.0), "2.0"),
        (.double(.infinity), "null"),
        (.double(-.infinity), "null"),
        (.double(.nan), "null"),
        ("", #""""#),
        ([], "[]"),
        ([:], "{}"),
        (["a": 1, "b": [true, nil]], #"{"a":1,"b":[true,null]}"#),
        ([[], [:], [[]]], "[[],{},[[]]]"),
    ]

    @Test("compact output", arguments: compactCases)
    func compact(_ value: JSONValue, _ expected: String) {
        #expect(value.serialized() == expected)
        #expect(value.description == expected)
    }

    @Test(
        "string escaping",
        arguments: [
            ("plain", #""plain""#),
            ("quote\"back\\slash", #""quote\"back\\slash""#),
            ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
            ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001F""#),
            ("\u{7F}/é😀\u{2028}", "\"\u{7F}/é😀\u{2028}\""),
            ("a\u{1B}[0m", #""a\u001B[0m""#),
        ])
    func escaping(_ string: String, _ expected: String) throws {
        #expect(JSONValue.string(string).serialized() == expected)
        #expect(try JSONValue.parse(expected) == .string(string))
    }

    @Test("pretty output is 2-space indented and stable")
    func pretty() throws {
        let value: JSONValue = ["a": 1, "b": [true, nil, [:], []], "c": ["d": "e"], "f": [1.5]]
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                null,
                {},
                []
              ],
              "c": {
                "d": "e"
              },
              "f": [
                1.5
              ]
            }
            """
        #expect(value.serialized(pretty: true) == expected)
        #expect(try JSONValue.parse(expected) == value)
        #expect(try JSONValue.parse(expected).serialized(pretty: true) == expected)
        #expect(JSONValue.integer(3).serialized(pretty: true) == "3")
        #expect(JSONValue.array([]).serialized(pretty: true) == "[]")
        #expect(JSONValue.object([:]).serialized(pretty: true) == "{}")
    }

    @Test("parse then serialise reproduces canonical compact input")
    func canonicalRoundTrip() throws {
        let text = #"{"z":[1,-2,3.5,1e-07,"s\"\n"],"a":{"x":null,"y":false},"m":[]}"#
        #expect(try JSONValue.parse(text).serialized() == text)
    }
}
