import DiffLabJSON
import Testing

@Suite("String comparison: literal by default, canonical on request")
struct StringComparisonTests {
    static let precomposed = "\u{E9}"  // é
    static let decomposed = "e\u{301}"  // e + combining acute accent

    @Test("canonically equivalent spellings are different JSON strings")
    func literalStrings() throws {
        // Swift itself calls them equal...
        #expect(Self.precomposed == Self.decomposed)
        // ...JSON values do not, whether built or parsed, and they hash apart.
        let a = try JSONValue.parse(#""\u00e9""#)
        let b = try JSONValue.parse(#""e\u0301""#)
        #expect(a != b)
        #expect(JSONValue.string(Self.precomposed) != .string(Self.decomposed))
        #expect(Set([a, b]).count == 2)
        #expect(a == .string(Self.precomposed))
        #expect(a.hashValue == JSONValue.string(Self.precomposed).hashValue)
        // Inside containers too.
        #expect(JSONValue.array([a]) != .array([b]))
        #expect(JSONValue.object(["k": a]) != .object(["k": b]))
    }

    @Test("object keys are literal: two spellings are two keys")
    func literalKeys() throws {
        let object = try #require(try JSONValue.parse(#"{"\u00e9":1,"e\u0301":2}"#).objectValue)
        #expect(object.count == 2)
        #expect(object[Self.precomposed] == 1)
        #expect(object[Self.decomposed] == 2)
        #expect(JSONValue.object(["\u{E9}": 1]) != .object(["e\u{301}": 1]))
        // The same holds for large (hash-indexed) objects.
        var large = JSONObject()
        for i in 0..<40 { large["k\(i)"] = .integer(i) }
        large[Self.precomposed] = 1
        #expect(large[Self.decomposed] == nil)
        large[Self.decomposed] = 2
        #expect(large.count == 42)
        #expect(large[Self.precomposed] == 1)
    }

    @Test("strings that differ only in length or a prefix are unequal")
    func prefixes() {
        #expect(JSONValue.string("ab") != .string("abc"))
        #expect(JSONValue.array(["ab", "c"]) != .array(["a", "bc"]))
        #expect(JSONValue.array(["ab", "c"]).hashValue != JSONValue.array(["a", "bc"]).hashValue)
        #expect(JSONValue.string("") == .string(""))
    }

    @Test("the canonicaliser maps equivalent spellings to the first one seen")
    func canonicalizer() throws {
        var canonicalizer = JSONStringCanonicalizer()
        let a = try canonicalizer.canonicalize(.array([.string(Self.decomposed), ["k\u{E9}": .string(Self.precomposed)], 1]))
        let b = try canonicalizer.canonicalize(.array([.string(Self.precomposed), ["ke\u{301}": .string(Self.decomposed)], 1]))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        // The first spelling seen (decomposed) wins everywhere.
        #expect(b.arrayValue?[0].stringValue.map { Array($0.unicodeScalars) } == Array(Self.decomposed.unicodeScalars))
        #expect(canonicalizer.representative(of: Self.precomposed).unicodeScalars.count == 2)
        // Other strings are untouched.
        #expect(canonicalizer.representative(of: "x") == "x")
        #expect(
            try canonicalizer.canonicalize(["a": [nil, true, 2.5, .bigInteger(JSONBigInteger("-99999999999999999999")!)]])
                == ["a": [nil, true, 2.5, .bigInteger(JSONBigInteger("-99999999999999999999")!)]])
    }

    @Test("canonically equivalent keys in one object are reported")
    func keyCollision() throws {
        var canonicalizer = JSONStringCanonicalizer()
        let value = try JSONValue.parse(#"[{"a":{"\u00e9":1,"x":0,"e\u0301":2}}]"#)
        #expect(throws: JSONCanonicalKeyCollision(first: Self.precomposed, second: Self.decomposed)) {
            try canonicalizer.canonicalize(value)
        }
        let error = JSONCanonicalKeyCollision(first: Self.precomposed, second: Self.decomposed)
        #expect(error.description == #"keys "\u00E9" and "e\u0301" of one object are canonically equivalent"#)
        #expect(JSONCanonicalKeyCollision(first: "\u{1F600}", second: "b").description.hasPrefix(#"keys "\uD83D\uDE00" and "b""#))
        #expect(error != JSONCanonicalKeyCollision(first: Self.decomposed, second: Self.decomposed))
    }

    @Test("JSONStringComparison names")
    func names() {
        #expect(JSONStringComparison.allCases.map(\.rawValue) == ["literal", "canonical"])
    }
}
