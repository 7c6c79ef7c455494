import DiffLabJSON
import Testing

@Suite("JSONObject")
struct ObjectTests {
    @Test("equality and hashing ignore key order")
    func orderInsensitiveEquality() throws {
        let a = try JSONValue.parse(#"{"x":1,"y":[1,2],"z":{"p":true,"q":null}}"#)
        let b = try JSONValue.parse(#"{"z":{"q":null,"p":true},"x":1.0,"y":[1,2]}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        // ...but serialisation keeps each one's own order.
        #expect(a.serialized() == #"{"x":1,"y":[1,2],"z":{"p":true,"q":null}}"#)
        #expect(b.serialized() == #"{"z":{"q":null,"p":true},"x":1,"y":[1,2]}"#)
        // Arrays stay order-sensitive.
        #expect(try JSONValue.parse("[1,2]") != (try JSONValue.parse("[2,1]")))
    }

    @Test(
        "unequal objects",
        arguments: [
            (#"{"a":1}"#, #"{"a":2}"#),
            (#"{"a":1}"#, #"{"b":1}"#),
            (#"{"a":1}"#, #"{"a":1,"b":1}"#),
            (#"{}"#, #"{"a":null}"#),
            (#"{"a":"1"}"#, #"{"a":1}"#),
        ])
    func unequal(_ lhs: String, _ rhs: String) throws {
        let a = try JSONValue.parse(lhs)
        let b = try JSONValue.parse(rhs)
        #expect(a != b)
        #expect(b != a)
    }

    @Test("init(_:) keeps the first position and the last value of duplicate keys")
    func duplicatePairs() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3), ("c", 4)])
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == 3)
        #expect(object.count == 3)
        let literal: JSONObject = ["k": 1, "j": 2, "k": 5]
        #expect(literal.keys == ["k", "j"])
        #expect(literal["k"] == 5)
    }

    @Test("subscript set appends, replaces in place, and removes with nil", arguments: [4, 40])
    func subscriptMutation(_ size: Int) {
        var object = JSONObject()
        for i in 0..<size { object["k\(i)"] = .integer(i) }
        #expect(object.count == size)
        object["k1"] = "replaced"
        #expect(object.keys[1] == "k1")
        #expect(object["k1"] == "replaced")
        object["new"] = true
        #expect(object.keys.last == "new")
        object["k0"] = nil
        #expect(object["k0"] == nil)
        #expect(object.count == size)
        #expect(object.keys.first == "k1")
        object["absent"] = nil
        #expect(object.count == size)
        // Every remaining key is still found after the removal shifted positions.
        for i in 1..<size { #expect(object["k\(i)"] != nil) }
        #expect(object["new"] == true)
        // Shrink below the index threshold and grow again.
        for i in 1..<size { object["k\(i)"] = nil }
        #expect(object.keys == ["new"])
        for i in 0..<size { object["again\(i)"] = .integer(i) }
        #expect(object["again\(size - 1)"] == .integer(size - 1))
        #expect(object.count == size + 1)
    }

    @Test("iteration is in insertion order")
    func iteration() {
        let object: JSONObject = ["b": 1, "a": 2, "c": 3]
        #expect(object.map(\.key) == ["b", "a", "c"])
        #expect(object.map(\.value) == [1, 2, 3])
        var seen: [String] = []
        for (key, _) in object { seen.append(key) }
        #expect(seen == ["b", "a", "c"])
        #expect(JSONObject().underestimatedCount == 0)
        #expect(object.description == #"{"b":1,"a":2,"c":3}"#)
    }

    @Test("large objects compare order-insensitively too")
    func largeEquality() {
        let keys = (0..<100).map { "key\($0)" }
        let forward = JSONObject(keys.map { ($0, JSONValue.string($0)) })
        let backward = JSONObject(keys.reversed().map { ($0, JSONValue.string($0)) })
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        var changed = backward
        changed["key50"] = "other"
        #expect(forward != changed)
    }
}
