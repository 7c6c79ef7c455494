import DiffLabJSON
import Testing

@Suite("Strings, escapes and UTF-8")
struct StringTests {
    static let escapes: [ValidCase] = [
        ValidCase(#""\"""#, "\""),
        ValidCase(#""\\""#, "\\"),
        ValidCase(#""\/""#, "/"),
        ValidCase(#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
        ValidCase(#""a\nb""#, "a\nb"),
        ValidCase(#""\u0041\u00e9\u00E9""#, "Aéé"),
        ValidCase(#""\u0000""#, "\u{0}"),
        ValidCase(#""\u001f\u007F""#, "\u{1F}\u{7F}"),
        ValidCase(#""\u20AC""#, "€"),
        ValidCase(#""\uFFFF""#, "\u{FFFF}"),
        ValidCase(#""\uD83D\uDE00""#, "😀"),
        ValidCase(#""\ud83d\ude00""#, "😀"),
        ValidCase(#""\uD800\uDC00""#, "\u{10000}"),
        ValidCase(#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
        ValidCase(#""x\uD83D\uDE00y\u00e9z""#, "x😀yéz"),
        ValidCase(#""\\u0041""#, "\\u0041"),
        ValidCase("\"é😀€\u{10FFFF}\"", "é😀€\u{10FFFF}"),
        ValidCase("\"\u{7F}\u{2028}\"", "\u{7F}\u{2028}"),
        ValidCase(#""mixed é\t😀\"end""#, "mixed é\t😀\"end"),
    ]

    @Test("escapes and raw UTF-8 decode correctly", arguments: escapes)
    func decodes(_ testCase: ValidCase) throws {
        #expect(try JSONValue.parse(testCase.text) == testCase.expected)
    }

    @Test("escaped and raw forms produce identical strings (scalar for scalar)")
    func scalarsPreserved() throws {
        let parsed = try #require(try JSONValue.parse(#""e\u0301 \u00e9""#).stringValue)
        #expect(Array(parsed.unicodeScalars.map(\.value)) == [0x65, 0x301, 0x20, 0xE9])
    }

    static let invalidUTF8: [(String, [UInt8], Int)] = [
        ("lone 0xFF", [0x22, 0xFF, 0x22], 2),
        ("lone continuation", [0x22, 0x61, 0x80, 0x22], 3),
        ("truncated 2-byte", [0x22, 0xC3, 0x22], 2),
        ("truncated at end", [0x22, 0xE2, 0x82], 2),
        ("overlong 2-byte '/'", [0x22, 0xC0, 0xAF, 0x22], 2),
        ("overlong C1", [0x22, 0xC1, 0xBF, 0x22], 2),
        ("overlong 3-byte", [0x22, 0xE0, 0x80, 0xAF, 0x22], 2),
        ("encoded surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], 2),
        ("overlong 4-byte", [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 2),
        ("above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),
        ("F5 lead byte", [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 2),
        ("after valid é", [0x22, 0xC3, 0xA9, 0xFE, 0x22], 3),
        ("outside a string", [0x5B, 0xFF, 0x5D], 2),
        ("as an object key", [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], 3),
    ]

    @Test("invalid UTF-8 is rejected with its position", arguments: invalidUTF8)
    func invalidBytes(_ name: String, _ bytes: [UInt8], _ column: Int) {
        #expect(
            parseError(bytes: bytes) == JSONParseError(line: 1, column: column, message: "invalid UTF-8 byte sequence"),
            "\(name)")
    }

    @Test("valid multi-byte UTF-8 bytes are accepted")
    func validBytes() throws {
        let bytes: [UInt8] = [0x5B, 0x22, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22, 0x5D]
        #expect(try JSONValue.parse(bytes: bytes) == ["é€😀\u{10FFFF}"])
        // A UTF-8 byte-order mark is skipped.
        #expect(try JSONValue.parse(bytes: [0xEF, 0xBB, 0xBF, 0x31]) == 1)
    }

    @Test("the parser never traps on arbitrary bytes")
    func fuzzBytes() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array(#"{}[],:"\ u0123456789abcdefABCDEFtrufalsn.-+eE"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xF0, 0xFF]
        var parsed = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &rng)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &rng) ?? 0 }
            if (try? JSONValue.parse(bytes: bytes)) != nil { parsed += 1 }
        }
        // Mostly errors, but some random inputs are valid; the point is that nothing crashed.
        #expect(parsed > 0)
    }

    @Test("mutated valid documents never trap and errors stay in range")
    func fuzzMutations() throws {
        var generator = ValueGenerator(seed: 7)
        for _ in 0..<300 {
            let text = generator.value(depth: 3).serialized(pretty: Bool.random(using: &generator.rng))
            var bytes = Array(text.utf8)
            guard !bytes.isEmpty else { continue }
            for _ in 0..<Int.random(in: 1...3, using: &generator.rng) {
                let index = Int.random(in: 0..<bytes.count, using: &generator.rng)
                switch Int.random(in: 0..<3, using: &generator.rng) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator.rng)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator.rng), at: index)
                }
                if bytes.isEmpty { break }
            }
            if let error = parseError(bytes: bytes) {
                #expect(error.line >= 1 && error.column >= 1)
                #expect(error.line <= bytes.count + 1 && error.column <= bytes.count + 1)
            }
        }
    }
}
