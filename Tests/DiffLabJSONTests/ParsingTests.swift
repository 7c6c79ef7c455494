import DiffLabJSON
import Testing

struct ValidCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: JSONValue
    var testDescription: String { text.debugDescription }

    init(_ text: String, _ expected: JSONValue) {
        self.text = text
        self.expected = expected
    }
}

@Suite("Parsing valid documents")
struct ParsingTests {
    static let documents: [ValidCase] = [
        ValidCase("null", .null),
        ValidCase("true", .bool(true)),
        ValidCase("false", .bool(false)),
        ValidCase("0", .integer(0)),
        ValidCase("42", .integer(42)),
        ValidCase("-17", .integer(-17)),
        ValidCase("3.25", .double(3.25)),
        ValidCase("\"\"", .string("")),
        ValidCase("\"hello\"", .string("hello")),
        ValidCase("[]", .array([])),
        ValidCase("{}", .object(JSONObject())),
        ValidCase("[1,2,3]", [1, 2, 3]),
        ValidCase("[[],[[]],{}]", [[], [[]], [:]]),
        ValidCase(#"{"a":1,"b":[true,null]}"#, ["a": 1, "b": [true, nil]]),
        ValidCase(#"{"":""}"#, ["": ""]),
        ValidCase(
            #"{"nested":{"deeper":{"deepest":[1,{"x":"y"}]}}}"#,
            ["nested": ["deeper": ["deepest": [1, ["x": "y"]]]]]),
        ValidCase(" \t\r\n[ 1 , \"a\" ,\n\tnull ] \r\n ", [1, "a", nil]),
        ValidCase("{ \"k\" : \"v\" , \"n\" : -0.5 }", ["k": "v", "n": -0.5]),
        ValidCase("\u{FEFF}[1]", [1]),  // a leading byte-order mark is ignored
        ValidCase("[true,false,null]", [true, false, nil]),
        ValidCase(#"["a\"b", "\\", "\/"]"#, ["a\"b", "\\", "/"]),
    ]

    @Test("valid document parses to the expected value", arguments: documents)
    func validDocument(_ testCase: ValidCase) throws {
        let value = try JSONValue.parse(testCase.text)
        #expect(value == testCase.expected)
        // The same bytes through the byte-based entry point, contiguous and non-contiguous.
        let bytes = Array(testCase.text.utf8)
        #expect(try JSONValue.parse(bytes: bytes) == testCase.expected)
        #expect(try JSONValue.parse(bytes: bytes[...]) == testCase.expected)
        #expect(try JSONValue.parse(bytes: testCase.text.utf8) == testCase.expected)
    }

    @Test("object members keep document order")
    func objectOrder() throws {
        let value = try JSONValue.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value.serialized() == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test("large inputs parse correctly (200k elements)")
    func largeArray() throws {
        let count = 200_000
        var text = "["
        for i in 0..<count {
            if i > 0 { text += "," }
            text += i % 3 == 0 ? "\(i)" : (i % 3 == 1 ? "{\"id\":\(i),\"v\":\(i).5}" : "\"s\(i)\"")
        }
        text += "]"
        let value = try JSONValue.parse(text)
        let elements = try #require(value.arrayValue)
        #expect(elements.count == count)
        #expect(elements[3] == .integer(3))
        #expect(elements[4] == ["id": 4, "v": 4.5])
        #expect(elements[5] == "s5")
        #expect(value.serialized() == text)
    }

    @Test("large objects (beyond the linear-search threshold) parse and detect duplicates")
    func largeObject() throws {
        let members = (0..<1000).map { "\"k\($0)\":\($0)" }
        let value = try JSONValue.parse("{" + members.joined(separator: ",") + "}")
        let object = try #require(value.objectValue)
        #expect(object.count == 1000)
        #expect(object["k999"] == 999)
        #expect(object.keys.first == "k0" && object.keys.last == "k999")

        let duplicate = parseError("{" + members.joined(separator: ",") + ",\"k500\":0}")
        #expect(duplicate?.message == #"duplicate key "k500" in object"#)
    }
}

@Suite("Nesting depth limit")
struct DepthTests {
    @Test("512 nested containers are accepted", arguments: ["[", "{\"a\":"])
    func atLimit(_ opener: String) throws {
        let closer = opener == "[" ? "]" : "}"
        let text = String(repeating: opener, count: 512) + "0" + String(repeating: closer, count: 512)
        var value = try JSONValue.parse(text)
        var depth = 0
        while true {
            if let elements = value.arrayValue, let first = elements.first {
                value = first
            } else if let inner = value["a"] {
                value = inner
            } else {
                break
            }
            depth += 1
        }
        #expect(depth == 512)
        #expect(value == 0)
    }

    @Test("513 nested containers are rejected at the 513th opener", arguments: ["[", "{\"a\":"])
    func beyondLimit(_ opener: String) {
        let text = String(repeating: opener, count: 513) + "0"
        let error = parseError(text)
        #expect(
            error
                == JSONParseError(
                    line: 1, column: 512 * opener.count + 1,
                    message: "nesting depth exceeds the limit of 512"))
    }

    @Test("hostile nesting is an error, never a stack overflow")
    func hostile() {
        let error = parseError(String(repeating: "[", count: 1_000_000))
        #expect(error?.message == "nesting depth exceeds the limit of 512")
        #expect(
            parseError(String(repeating: "[{\"a\":", count: 300_000))?.message
                == "nesting depth exceeds the limit of 512")
    }

    @Test("mixed nesting at exactly 512 is accepted")
    func mixed() throws {
        let text = String(repeating: "[{\"k\":", count: 256) + "null" + String(repeating: "}]", count: 256)
        let value = try JSONValue.parse(text)
        #expect(value.serialized() == text)
    }
}
