import DiffLabJSON
import Testing

@Suite("Round trip")
struct RoundTripTests {
    @Test("parse(serialized(v)) == v for generated values", arguments: [1, 2, 3, 4] as [UInt64])
    func generated(_ seed: UInt64) throws {
        var generator = ValueGenerator(seed: seed)
        for _ in 0..<100 {
            let value = generator.value(depth: 4)
            for pretty in [false, true] {
                let text = value.serialized(pretty: pretty)
                let parsed = try JSONValue.parse(text)
                #expect(parsed == value, "\(text)")
                #expect(parsed.hashValue == value.hashValue)
                // Output is stable: re-serialising the parsed value gives identical text.
                #expect(parsed.serialized(pretty: pretty) == text)
                #expect(try JSONValue.parse(bytes: Array(text.utf8)) == value)
            }
        }
    }

    @Test("every double round-trips bit for bit")
    func doubles() throws {
        var generator = ValueGenerator(seed: 99)
        for _ in 0..<2000 {
            let double = generator.double()
            let value = JSONValue(double)
            let parsed = try JSONValue.parse(value.serialized())
            switch (parsed, value) {
            case let (.double(a), .double(b)):
                #expect(a.bitPattern == b.bitPattern, "\(double)")
            case let (.integer(a), .integer(b)):
                #expect(a == b)
            case let (.bigInteger(a), .bigInteger(b)):
                #expect(a == b)
                #expect(a.doubleValue.bitPattern == double.bitPattern, "\(double)")
            default:
                Issue.record("\(double) round-tripped to \(parsed)")
            }
        }
    }

    @Test("strings with every kind of character round-trip", arguments: [10, 11, 12] as [UInt64])
    func strings(_ seed: UInt64) throws {
        var generator = ValueGenerator(seed: seed)
        for _ in 0..<200 {
            let string = generator.string()
            let parsed = try JSONValue.parse(JSONValue.string(string).serialized())
            let back = try #require(parsed.stringValue)
            #expect(Array(back.unicodeScalars) == Array(string.unicodeScalars))
        }
    }
}
