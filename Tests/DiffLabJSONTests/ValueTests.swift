import DiffLabJSON
import Testing

@Suite("JSONValue accessors and literals")
struct ValueTests {
    @Test(
        "typeName",
        arguments: [
            (JSONValue.null, "null"), (.bool(true), "boolean"), (.integer(1), "number"), (.double(1.5), "number"),
            (.string("s"), "string"), (.array([]), "array"), (.object([:]), "object"),
        ])
    func typeName(_ value: JSONValue, _ name: String) {
        #expect(value.typeName == name)
    }

    @Test("accessors return nil on type mismatch")
    func accessors() {
        let string: JSONValue = "s"
        #expect(string.stringValue == "s")
        #expect(string.intValue == nil && string.doubleValue == nil && string.boolValue == nil)
        #expect(string.arrayValue == nil && string.objectValue == nil && string["k"] == nil)

        let integer: JSONValue = 7
        #expect(integer.intValue == 7)
        #expect(integer.doubleValue == 7.0)
        #expect(integer.stringValue == nil)

        let double: JSONValue = 7.25
        #expect(double.intValue == nil)
        #expect(double.doubleValue == 7.25)

        let bool: JSONValue = false
        #expect(bool.boolValue == false)
        #expect(bool.intValue == nil)

        let array: JSONValue = [1, "two"]
        #expect(array.arrayValue == [1, "two"])
        #expect(array["0"] == nil)

        let object: JSONValue = ["k": nil, "n": ["m": 1]]
        #expect(object["k"] == .null)
        #expect(object["n"]?["m"] == 1)
        #expect(object["missing"] == nil)
        #expect(object.objectValue?.keys == ["k", "n"])
        #expect(JSONValue.null.stringValue == nil)
    }

    @Test("literals build the expected cases")
    func literals() {
        let value: JSONValue = ["null": nil, "t": true, "i": 1, "d": 1.5, "whole": 3.0, "s": "x", "a": [1], "o": ["k": 2]]
        #expect(value["null"] == .null)
        #expect(value["t"] == .bool(true))
        #expect(value["i"]?.intValue == 1)
        #expect(value["d"]?.doubleValue == 1.5)
        #expect(value["whole"]?.intValue == 3)
        #expect(value["s"] == .string("x"))
        #expect(value["a"] == .array([.integer(1)]))
        #expect(value["o"] == .object(JSONObject([("k", .integer(2))])))
    }
}
