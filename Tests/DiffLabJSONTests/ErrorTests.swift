import DiffLabJSON
import Testing

struct ErrorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let line: Int
    let column: Int
    let message: String
    var testDescription: String { text.debugDescription }

    init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        self.text = text
        self.line = line
        self.column = column
        self.message = message
    }
}

@Suite("Parse errors: message, line and column")
struct ErrorTests {
    static let endOfInput = "unexpected end of input, expected a value"
    static let arrayContinuation = "expected ',' or ']' after array element"
    static let objectContinuation = "expected ',' or '}' after object member"
    static let trailing = "unexpected trailing content after value"
    static let outOfRange = "number out of range (magnitude above about 1.8e308, the largest double; integers have at most 309 digits)"

    static let structural: [ErrorCase] = [
        ErrorCase("", 1, 1, endOfInput),
        ErrorCase("   ", 1, 4, endOfInput),
        ErrorCase("\n\n", 3, 1, endOfInput),
        ErrorCase("[", 1, 2, endOfInput),
        ErrorCase("[1,", 1, 4, endOfInput),
        ErrorCase(#"{"a":"#, 1, 6, endOfInput),
        ErrorCase("[1,]", 1, 4, "unexpected character ']', expected a value"),
        ErrorCase("[1,,2]", 1, 4, "unexpected character ',', expected a value"),
        ErrorCase("+1", 1, 1, "unexpected character '+', expected a value"),
        ErrorCase(".5", 1, 1, "unexpected character '.', expected a value"),
        ErrorCase("NaN", 1, 1, "unexpected character 'N', expected a value"),
        ErrorCase("Infinity", 1, 1, "unexpected character 'I', expected a value"),
        ErrorCase("/* c */ 1", 1, 1, "unexpected character '/', expected a value"),
        ErrorCase("[\u{7F}]", 1, 2, "unexpected character U+007F, expected a value"),
        ErrorCase("é", 1, 1, "unexpected character 'é', expected a value"),
        ErrorCase("[1 2]", 1, 4, arrayContinuation),
        ErrorCase("[1", 1, 3, arrayContinuation),
        ErrorCase("[1}", 1, 3, arrayContinuation),
        ErrorCase(#"{"a":1 "b":2}"#, 1, 8, objectContinuation),
        ErrorCase(#"{"a":1"#, 1, 7, objectContinuation),
        ErrorCase(#"{"a":1]"#, 1, 7, objectContinuation),
        ErrorCase("{1:2}", 1, 2, "expected string key or '}'"),
        ErrorCase("{", 1, 2, "expected string key or '}'"),
        ErrorCase("{'a':1}", 1, 2, "expected string key or '}'"),
        ErrorCase(#"{"a":1,}"#, 1, 8, "expected string key"),
        ErrorCase(#"{"a" 1}"#, 1, 6, "expected ':' after object key"),
        ErrorCase(#"{"a"}"#, 1, 5, "expected ':' after object key"),
        ErrorCase(#"{"x":1,"x":2}"#, 1, 8, #"duplicate key "x" in object"#),
        ErrorCase(#"{"a":{"q\"":1,"q\"":2}}"#, 1, 15, #"duplicate key "q\"" in object"#),
        ErrorCase("tru", 1, 1, "invalid literal, expected 'true'"),
        ErrorCase("fals", 1, 1, "invalid literal, expected 'false'"),
        ErrorCase("[nul]", 1, 2, "invalid literal, expected 'null'"),
        ErrorCase("nulL", 1, 1, "invalid literal, expected 'null'"),
        ErrorCase("truex", 1, 5, trailing),
        ErrorCase("1 2", 1, 3, trailing),
        ErrorCase("{} x", 1, 4, trailing),
        ErrorCase("[1]]", 1, 4, trailing),
        ErrorCase("1 // comment", 1, 3, trailing),
    ]

    static let numbers: [ErrorCase] = [
        ErrorCase("01", 1, 1, "leading zeros are not allowed in numbers"),
        ErrorCase("-01", 1, 2, "leading zeros are not allowed in numbers"),
        ErrorCase("[00]", 1, 2, "leading zeros are not allowed in numbers"),
        ErrorCase("-", 1, 2, "expected digit after '-'"),
        ErrorCase("-a", 1, 2, "expected digit after '-'"),
        ErrorCase("- 1", 1, 2, "expected digit after '-'"),
        ErrorCase("1.", 1, 3, "expected digit after decimal point"),
        ErrorCase("1.e3", 1, 3, "expected digit after decimal point"),
        ErrorCase("[1.]", 1, 4, "expected digit after decimal point"),
        ErrorCase("1e", 1, 3, "expected digit in exponent"),
        ErrorCase("1e+", 1, 4, "expected digit in exponent"),
        ErrorCase("1E-x", 1, 4, "expected digit in exponent"),
        ErrorCase("1e400", 1, 1, outOfRange),
        ErrorCase("[0, -1e400]", 1, 5, outOfRange),
        ErrorCase("1e999999999999999999999", 1, 1, outOfRange),
        ErrorCase("1" + String(repeating: "0", count: 400), 1, 1, outOfRange),
        // Integers are exact but bounded by the Double range: at most 309 digits, below ~1.8e308.
        ErrorCase("1" + String(repeating: "0", count: 309), 1, 1, outOfRange),
        ErrorCase("[" + String(repeating: "9", count: 309) + "]", 1, 2, outOfRange),
        ErrorCase("1e309", 1, 1, outOfRange),
        ErrorCase("-0.1e310", 1, 1, outOfRange),
        ErrorCase("[1, " + String(repeating: "7", count: 100_000) + "]", 1, 5, outOfRange),
        ErrorCase("0x10", 1, 2, trailing),
        ErrorCase("1.5.2", 1, 4, trailing),
    ]

    static let strings: [ErrorCase] = [
        ErrorCase(#""abc"#, 1, 1, "unterminated string"),
        ErrorCase("[1,\n  \"abc\\\"]", 2, 3, "unterminated string"),
        ErrorCase(#""\"#, 1, 1, "unterminated string"),
        ErrorCase("\"a\nb\"", 1, 3, "unescaped control character U+000A in string"),
        ErrorCase("\"\t\"", 1, 2, "unescaped control character U+0009 in string"),
        ErrorCase("\"\u{01}\"", 1, 2, "unescaped control character U+0001 in string"),
        ErrorCase("\"a\\n\u{1F}\"", 1, 5, "unescaped control character U+001F in string"),
        ErrorCase(#""\x""#, 1, 2, #"invalid escape sequence '\x'"#),
        ErrorCase(#""ab\'""#, 1, 4, #"invalid escape sequence '\''"#),
        ErrorCase("\"\\\u{1}\"", 1, 2, #"invalid escape sequence '\' followed by U+0001"#),
        ErrorCase(#""\u12G4""#, 1, 2, #"invalid \u escape, expected 4 hexadecimal digits"#),
        ErrorCase(#""\u123""#, 1, 2, #"invalid \u escape, expected 4 hexadecimal digits"#),
        ErrorCase(#""\u"#, 1, 2, #"invalid \u escape, expected 4 hexadecimal digits"#),
        ErrorCase(#""\uD800""#, 1, 2, #"lone surrogate \uD800 in string"#),
        ErrorCase(#""\udbff x""#, 1, 2, #"lone surrogate \uDBFF in string"#),
        ErrorCase(#""\uDC00""#, 1, 2, #"lone surrogate \uDC00 in string"#),
        ErrorCase(#""a\uDFFF\uD800""#, 1, 3, #"lone surrogate \uDFFF in string"#),
        ErrorCase(#""\uD800\u0041""#, 1, 2, #"lone surrogate \uD800 in string"#),
        ErrorCase(#""\uD800\uD800""#, 1, 2, #"lone surrogate \uD800 in string"#),
        ErrorCase(#""\uD800\n""#, 1, 2, #"lone surrogate \uD800 in string"#),
        ErrorCase(#""\uD800\u12""#, 1, 8, #"invalid \u escape, expected 4 hexadecimal digits"#),
    ]

    static let positions: [ErrorCase] = [
        ErrorCase("[1,\n 2,\n 3 4]", 3, 4, arrayContinuation),
        ErrorCase("[1,\r\n2 x]", 2, 3, arrayContinuation),
        ErrorCase("[\r\r x]", 3, 2, "unexpected character 'x', expected a value"),
        ErrorCase("{\n  \"a\": 1,\n  \"b\": 2,\n  \"a\": 3\n}", 4, 3, #"duplicate key "a" in object"#),
        // Columns count Unicode scalars, not bytes: "é" is 2 bytes, "😀" is 4, each one column.
        ErrorCase("[\"é\", x]", 1, 7, "unexpected character 'x', expected a value"),
        ErrorCase("[\"😀😀\", x]", 1, 8, "unexpected character 'x', expected a value"),
        ErrorCase("\t\t@", 1, 3, "unexpected character '@', expected a value"),
        ErrorCase("\u{FEFF}  @", 1, 3, "unexpected character '@', expected a value"),
        // Keys compare literally: only the same code points make a duplicate.
        ErrorCase("{\"é\":1,\"e\u{301}\":2,\"é\":3}", 1, 15, "duplicate key \"é\" in object"),
    ]

    @Test("structural errors", arguments: structural)
    func structuralError(_ testCase: ErrorCase) {
        check(testCase)
    }

    @Test("number grammar errors", arguments: numbers)
    func numberError(_ testCase: ErrorCase) {
        check(testCase)
    }

    @Test("string errors", arguments: strings)
    func stringError(_ testCase: ErrorCase) {
        check(testCase)
    }

    @Test("line and column counting", arguments: positions)
    func positionError(_ testCase: ErrorCase) {
        check(testCase)
    }

    private func check(_ testCase: ErrorCase) {
        let expected = JSONParseError(line: testCase.line, column: testCase.column, message: testCase.message)
        #expect(parseError(testCase.text) == expected)
        #expect(parseError(bytes: Array(testCase.text.utf8)) == expected)
    }

    @Test("description format")
    func description() {
        let error = JSONParseError(line: 3, column: 7, message: "expected ',' or ']' after array element")
        #expect(error.description == "line 3, column 7: expected ',' or ']' after array element")
        #expect(parseError("[1,\n2,\n  3 4]")?.description == "line 3, column 5: expected ',' or ']' after array element")
    }

    @Test("typed throws can be caught as JSONParseError")
    func typedThrows() {
        #expect(throws: JSONParseError(line: 1, column: 1, message: "unexpected end of input, expected a value")) {
            try JSONValue.parse("")
        }
    }
}
