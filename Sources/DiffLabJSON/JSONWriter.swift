extension JSONValue {
    /// Serialises the value as JSON text.
    ///
    /// **Compact** (`pretty: false`, the default): no whitespace at all, e.g. `{"a":1,"b":[true,null]}`.
    ///
    /// **Pretty** (`pretty: true`): 2-space indentation, every array element and object member on its
    /// own line, `"key": value` with one space after the colon, empty containers as `[]` / `{}`,
    /// no trailing newline:
    /// ```
    /// {
    ///   "a": 1,
    ///   "b": [
    ///     true,
    ///     null
    ///   ]
    /// }
    /// ```
    ///
    /// Details (both modes):
    /// - Object members are written in insertion order.
    /// - Strings: `"` `\` and the controls `\b \f \n \r \t` use short escapes, other code points below
    ///   U+0020 are written as `\u00XX` (uppercase hex); everything else, including `/`, DEL and all
    ///   non-ASCII characters, is written verbatim as UTF-8.
    /// - `.integer` is written in decimal; `.bigInteger` as its exact canonical digits (never rounded).
    ///   `.double` uses Swift's shortest round-trip `description` (e.g. `0.1`, `1e-07`, `1.5e-300`,
    ///   `2.0` for a hand-built `.double(2.0)`), which is always valid JSON for finite values — except
    ///   that a hand-built `.double` of magnitude 2^63 or more (always an integer) is written as its
    ///   exact integer digits (`.double(1e23)` as `99999999999999991611392`), because the parser reads
    ///   integral spellings such as `1e+23` exactly. Non-finite doubles (only possible in hand-built
    ///   values) are written as `null`.
    ///
    /// Round trip: `try JSONValue.parse(v.serialized(pretty: p)) == v` for every value without
    /// non-finite doubles, nested at most 512 deep. Output is deterministic.
    ///
    /// Complexity: O(size of the output). Recursion depth equals the nesting depth of the value.
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, depth: 0)
        return String(decoding: writer.output, as: UTF8.self)
    }
}

/// Serialises `JSONValue`s into a UTF-8 byte buffer.
struct JSONWriter {
    private(set) var output: [UInt8] = []
    private let pretty: Bool

    init(pretty: Bool) {
        self.pretty = pretty
    }

    /// `s` as a JSON string literal, quotes included (used in error messages).
    static func quoted(_ s: String) -> String {
        var writer = JSONWriter(pretty: false)
        writer.writeString(s)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// `s` as a JSON string literal in pure ASCII: non-ASCII code points are written as `\u` escapes
    /// (UTF-16 surrogate pairs above U+FFFF), so that look-alike spellings differ visibly in messages.
    static func asciiQuoted(_ s: String) -> String {
        var result = ""
        for scalar in quoted(s).unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else if scalar.value <= 0xFFFF {
                result += "\\u" + JSONParser.hex(scalar.value, digits: 4)
            } else {
                let offset = scalar.value - 0x10000
                result += "\\u" + JSONParser.hex(0xD800 + offset >> 10, digits: 4)
                result += "\\u" + JSONParser.hex(0xDC00 + offset & 0x3FF, digits: 4)
            }
        }
        return result
    }

    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null:
            appendASCII("null")
        case .bool(let b):
            appendASCII(b ? "true" : "false")
        case .integer(let i):
            writeInteger(i)
        case .bigInteger(let b):
            output.append(contentsOf: b.decimal.utf8)
        case .double(let d):
            if let big = JSONValue.exactInt(d) == nil ? JSONBigInteger(exactly: d) : nil {
                // A hand-built integral double beyond `Int`: its shortest form (`1e+23`) would parse
                // back as a different exact integer, so write its exact value.
                output.append(contentsOf: big.decimal.utf8)
            } else if d.isFinite {
                output.append(contentsOf: d.description.utf8)
            } else {
                appendASCII("null")
            }
        case .string(let s):
            writeString(s)
        case .array(let elements):
            guard !elements.isEmpty else {
                appendASCII("[]")
                return
            }
            output.append(0x5B)  // [
            for (i, element) in elements.enumerated() {
                if i > 0 { output.append(0x2C) }  // ,
                newline(depth: depth + 1)
                write(element, depth: depth + 1)
            }
            newline(depth: depth)
            output.append(0x5D)  // ]
        case .object(let object):
            guard object.count > 0 else {
                appendASCII("{}")
                return
            }
            output.append(0x7B)  // {
            var first = true
            for (key, member) in object {
                if !first { output.append(0x2C) }
                first = false
                newline(depth: depth + 1)
                writeString(key)
                output.append(0x3A)  // :
                if pretty { output.append(0x20) }
                write(member, depth: depth + 1)
            }
            newline(depth: depth)
            output.append(0x7D)  // }
        }
    }

    /// In pretty mode: a line feed and `2 * depth` spaces. Nothing in compact mode.
    @inline(__always)
    private mutating func newline(depth: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20 as UInt8, count: 2 * depth))
    }

    private mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private mutating func writeInteger(_ value: Int) {
        // `magnitude` is a UInt, so Int.min needs no special case. Digits are appended least
        // significant first, then reversed in place.
        if value < 0 { output.append(0x2D) }  // -
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(0x30 + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        output[start...].reverse()
    }

    mutating func writeString(_ s: String) {
        output.append(0x22)
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                if i > runStart {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                }
                runStart = i + 1
                output.append(0x5C)  // backslash
                switch byte {
                case 0x22: output.append(0x22)
                case 0x5C: output.append(0x5C)
                case 0x08: output.append(0x62)  // b
                case 0x0C: output.append(0x66)  // f
                case 0x0A: output.append(0x6E)  // n
                case 0x0D: output.append(0x72)  // r
                case 0x09: output.append(0x74)  // t
                default:
                    let hexDigits: StaticString = "0123456789ABCDEF"
                    output.append(0x75)  // u
                    output.append(0x30)
                    output.append(0x30)
                    hexDigits.withUTF8Buffer { hex in
                        output.append(hex[Int(byte >> 4)])
                        output.append(hex[Int(byte & 0x0F)])
                    }
                }
            }
            if bytes.count > runStart {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            }
        }
        output.append(0x22)
    }
}
