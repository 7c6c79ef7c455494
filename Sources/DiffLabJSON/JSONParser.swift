extension JSONValue {
    /// The maximum number of nested arrays/objects the parser accepts. `[[…]]` with 512 levels parses;
    /// 513 levels is an error. Containers are tracked on an explicit heap stack, so even hostile input
    /// (millions of `[`) cannot overflow the call stack.
    static let maximumNestingDepth = 512

    /// Parses a complete JSON document (RFC 8259) from a string.
    ///
    /// - Accepts exactly one value of any type (scalars at top level are fine), surrounded by optional
    ///   JSON whitespace (space, tab, LF, CR). A single leading byte-order mark U+FEFF is ignored, as
    ///   RFC 8259 §8.1 permits. Anything after the value is an error.
    /// - Strict grammar: no comments, no trailing commas, no single quotes, no `NaN`/`Infinity`, no
    ///   leading `+` or leading zeros, no `1.` or `.5`; raw control characters (< U+0020) in strings are
    ///   errors; `\uXXXX` escapes must pair surrogates correctly; duplicate keys in one object are errors.
    /// - Numbers are normalised (see ``JSONValue``): a number whose value is an integer — judged by its
    ///   decimal spelling, so `1.5e1` and `150e-1` are 15 — is exact: `.integer` if it fits `Int`
    ///   (including `Int.min`), else `.bigInteger` with its canonical digits (`-9223372036854775809`,
    ///   `1e22`, `1.8446744073709551615e19` are kept exactly). Other numbers are parsed to the correctly
    ///   rounded `Double`, normalised by ``init(_:)-(Double)`` (so `1e-400` underflows to `.integer(0)`).
    /// - Range: every number, integers included, must round to a finite `Double` (magnitude at most
    ///   about 1.8e308, i.e. integers of at most 309 digits); otherwise it is the error
    ///   `number out of range`. This bounds the work and memory per number: a 100,000-digit literal is
    ///   rejected after one scan, and `1e999999` is never expanded.
    /// - Nesting is limited to 512 levels.
    ///
    /// Never traps, whatever the input. Complexity: O(n) time in the input length; memory
    /// proportional to the result plus the nesting depth.
    ///
    /// - Throws: ``JSONParseError`` with the 1-based line and column (in Unicode scalars) of the problem.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { JSONParser.parse($0) }
        return try result.get()
    }

    /// Parses a complete JSON document from UTF-8 encoded bytes.
    ///
    /// Same grammar, normalisation and limits as ``parse(_:)``. In addition, the bytes must be valid
    /// UTF-8: overlong encodings, encoded surrogates, code points above U+10FFFF, stray continuation
    /// bytes and truncated sequences are reported as `invalid UTF-8 byte sequence` (inside strings) or
    /// as an unexpected character (elsewhere, where only ASCII is allowed anyway).
    ///
    /// Contiguous collections (`[UInt8]`, `ArraySlice`, `UnsafeBufferPointer`, …) are read in place;
    /// others are copied into an array first. Complexity: O(n).
    ///
    /// - Throws: ``JSONParseError``.
    public static func parse(bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable({ JSONParser.parse($0) }) {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { JSONParser.parse($0) }.get()
    }
}

// MARK: - Parser

private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Byte constants.
private enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let upperE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let lowerE: UInt8 = 0x65
    static let lowerF: UInt8 = 0x66
    static let lowerN: UInt8 = 0x6E
    static let lowerT: UInt8 = 0x74
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}

/// A single-use, non-recursive RFC 8259 parser over a UTF-8 buffer.
///
/// Every read is preceded by an explicit `pos < end` check, so no input can trap it.
struct JSONParser {
    private let buffer: UnsafeBufferPointer<UInt8>
    private let end: Int
    private var pos: Int
    /// Offset where line 1 starts (after a skipped BOM); used for column computation.
    private var origin: Int
    /// Reused storage for strings that need unescaping.
    private var scratch: [UInt8] = []

    /// An open array or object.
    private struct Frame {
        var isObject: Bool
        var elements: [JSONValue] = []
        var object = JSONObject()
        /// The key whose value is being parsed (objects only).
        var key = ""
    }

    private init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.end = buffer.count
        self.pos = 0
        self.origin = 0
    }

    /// Parses `buffer` as one JSON document.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(buffer)
        do {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // Optional UTF-8 byte-order mark EF BB BF.
        if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            pos = 3
            origin = 3
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if pos < end {
            throw error(at: pos, "unexpected trailing content after value")
        }
        return value
    }

    // MARK: Values (iterative)

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        var stack: [Frame] = []
        var value: JSONValue

        parsing: while true {
            // Invariant: whitespace before the value has been skipped.
            guard pos < end else {
                throw error(at: pos, "unexpected end of input, expected a value")
            }
            switch buffer[pos] {
            case ASCII.openBrace:
                guard stack.count < JSONValue.maximumNestingDepth else {
                    throw error(at: pos, "nesting depth exceeds the limit of \(JSONValue.maximumNestingDepth)")
                }
                pos += 1
                skipWhitespace()
                if pos < end, buffer[pos] == ASCII.closeBrace {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    var frame = Frame(isObject: true)
                    frame.key = try parseKey(in: frame.object, afterComma: false)
                    stack.append(frame)
                    continue parsing
                }
            case ASCII.openBracket:
                guard stack.count < JSONValue.maximumNestingDepth else {
                    throw error(at: pos, "nesting depth exceeds the limit of \(JSONValue.maximumNestingDepth)")
                }
                pos += 1
                skipWhitespace()
                if pos < end, buffer[pos] == ASCII.closeBracket {
                    pos += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false))
                    continue parsing
                }
            case ASCII.quote:
                value = .string(try parseString())
            case ASCII.minus, ASCII.zero...ASCII.nine:
                value = try parseNumber()
            case ASCII.lowerT:
                try expectLiteral("true")
                value = .bool(true)
            case ASCII.lowerF:
                try expectLiteral("false")
                value = .bool(false)
            case ASCII.lowerN:
                try expectLiteral("null")
                value = .null
            default:
                throw unexpectedCharacter(at: pos, expecting: "a value")
            }

            // A complete value: hand it to the enclosing containers, closing as many as end here.
            while let top = stack.indices.last {
                skipWhitespace()
                if stack[top].isObject {
                    let key = stack[top].key
                    stack[top].object.appendUnchecked(key: key, value: value)
                    if pos < end, buffer[pos] == ASCII.comma {
                        pos += 1
                        skipWhitespace()
                        let key = try parseKey(in: stack[top].object, afterComma: true)
                        stack[top].key = key
                        continue parsing
                    } else if pos < end, buffer[pos] == ASCII.closeBrace {
                        pos += 1
                        value = .object(stack.removeLast().object)
                    } else {
                        throw error(at: pos, "expected ',' or '}' after object member")
                    }
                } else {
                    stack[top].elements.append(value)
                    if pos < end, buffer[pos] == ASCII.comma {
                        pos += 1
                        skipWhitespace()
                        continue parsing
                    } else if pos < end, buffer[pos] == ASCII.closeBracket {
                        pos += 1
                        value = .array(stack.removeLast().elements)
                    } else {
                        throw error(at: pos, "expected ',' or ']' after array element")
                    }
                }
            }
            return value
        }
    }

    /// Parses `"key"` `:` and the whitespace after the colon. `object` holds the members so far.
    private mutating func parseKey(in object: JSONObject, afterComma: Bool) throws(JSONParseError) -> String {
        guard pos < end, buffer[pos] == ASCII.quote else {
            throw error(at: pos, afterComma ? "expected string key" : "expected string key or '}'")
        }
        let keyStart = pos
        let key = try parseString()
        if object.containsKey(key) {
            throw error(at: keyStart, "duplicate key \(JSONWriter.quoted(key)) in object")
        }
        skipWhitespace()
        guard pos < end, buffer[pos] == ASCII.colon else {
            throw error(at: pos, "expected ':' after object key")
        }
        pos += 1
        skipWhitespace()
        return key
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < end {
            switch buffer[pos] {
            case ASCII.space, ASCII.lineFeed, ASCII.carriageReturn, ASCII.tab:
                pos += 1
            default:
                return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = pos
        let matches = literal.withUTF8Buffer { bytes -> Bool in
            guard end - start >= bytes.count else { return false }
            for i in 0..<bytes.count where buffer[start + i] != bytes[i] {
                return false
            }
            return true
        }
        guard matches else {
            throw error(at: start, "invalid literal, expected '\(literal)'")
        }
        pos += literal.utf8CodeUnitCount
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = pos
        var negative = false
        if buffer[pos] == ASCII.minus {
            negative = true
            pos += 1
        }
        guard pos < end, isDigit(buffer[pos]) else {
            throw error(at: pos, "expected digit after '-'")
        }

        // Integer part.
        let integerStart = pos
        if buffer[pos] == ASCII.zero {
            pos += 1
            if pos < end, isDigit(buffer[pos]) {
                throw error(at: integerStart, "leading zeros are not allowed in numbers")
            }
        } else {
            while pos < end, isDigit(buffer[pos]) { pos += 1 }
        }
        let integerEnd = pos

        // Fraction.
        var fractionStart = pos
        var fractionEnd = pos
        var isInteger = true
        if pos < end, buffer[pos] == ASCII.period {
            isInteger = false
            pos += 1
            fractionStart = pos
            guard pos < end, isDigit(buffer[pos]) else {
                throw error(at: pos, "expected digit after decimal point")
            }
            while pos < end, isDigit(buffer[pos]) { pos += 1 }
            fractionEnd = pos
        }

        // Exponent. Accumulation stops once it is certainly out of range; `exponentSaturated` then
        // keeps the (now inexact) value away from the fast path.
        var exponent = 0
        var exponentSaturated = false
        if pos < end, buffer[pos] == ASCII.lowerE || buffer[pos] == ASCII.upperE {
            isInteger = false
            pos += 1
            var exponentNegative = false
            if pos < end, buffer[pos] == ASCII.plus || buffer[pos] == ASCII.minus {
                exponentNegative = buffer[pos] == ASCII.minus
                pos += 1
            }
            guard pos < end, isDigit(buffer[pos]) else {
                throw error(at: pos, "expected digit in exponent")
            }
            while pos < end, isDigit(buffer[pos]) {
                if exponent < 100_000_000 {
                    exponent = exponent * 10 + Int(buffer[pos] &- ASCII.zero)
                } else {
                    exponentSaturated = true
                }
                pos += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger {
            // Exact integer path.
            var magnitude: UInt64 = 0
            var overflow = false
            for i in integerStart..<integerEnd {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(buffer[i] &- ASCII.zero))
                if o1 || o2 {
                    overflow = true
                    break
                }
                magnitude = sum
            }
            if !overflow, let small = JSONParser.int(magnitude: magnitude, negative: negative) {
                return .integer(small)
            }
            // Beyond `Int`: exact digits (always integral, so never nil).
            if let exact = try integralValue(
                negative: negative, integerDigits: integerStart..<integerEnd, fractionDigits: fractionStart..<fractionEnd,
                exponent: 0, start: start)
            {
                return exact
            }
        } else {
            // An integral value however spelled (`1.5e3`, `1.8446744073709551615e19`) is kept exactly.
            // A saturated exponent is out of range or underflows; the general path handles both.
            if !exponentSaturated,
                let exact = try integralValue(
                    negative: negative, integerDigits: integerStart..<integerEnd, fractionDigits: fractionStart..<fractionEnd,
                    exponent: exponent, start: start)
            {
                return exact
            }
            // Clinger's fast path: ≤ 2^53 significand and |power of ten| ≤ 22 is one correctly
            // rounded IEEE operation on exact operands.
            var significand: UInt64 = 0
            var exact = !exponentSaturated
            // The significand stays ≤ 2^53 before each step, so `* 10 + digit` cannot overflow.
            if exact {
                for i in integerStart..<integerEnd {
                    significand = significand * 10 + UInt64(buffer[i] &- ASCII.zero)
                    if significand > 1 << 53 {
                        exact = false
                        break
                    }
                }
            }
            if exact {
                for i in fractionStart..<fractionEnd {
                    significand = significand * 10 + UInt64(buffer[i] &- ASCII.zero)
                    if significand > 1 << 53 {
                        exact = false
                        break
                    }
                }
            }
            let power = exponent - (fractionEnd - fractionStart)
            if exact, power >= -22, power <= 22 {
                let mantissa = Double(significand)
                let magnitude = power >= 0 ? mantissa * powersOfTen[power] : mantissa / powersOfTen[-power]
                return JSONValue(negative ? -magnitude : magnitude)
            }
        }

        // General path: correctly rounded conversion of the (already validated) token.
        let token = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<pos]), as: UTF8.self)
        guard let double = Double(token), double.isFinite else {
            throw error(at: start, JSONParser.outOfRange)
        }
        return JSONValue(double)
    }

    /// The message for numbers beyond `Double`'s range, naming the limit.
    static let outOfRange = "number out of range (magnitude above about 1.8e308, the largest double; integers have at most 309 digits)"

    /// The largest number of digits an in-range integer can have: 10^309 exceeds
    /// `Double.greatestFiniteMagnitude` (about 1.8 * 10^308).
    static let maximumIntegerDigits = 309

    /// `magnitude` with the sign applied, if that fits `Int` (`Int.min` included).
    @inline(__always)
    static func int(magnitude: UInt64, negative: Bool) -> Int? {
        if negative {
            if magnitude <= UInt64(Int.max) { return -Int(magnitude) }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : nil
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    /// The exact value of a validated number token, if it is an integer; `nil` if it is not.
    ///
    /// The value is digits × 10^(exponent − fraction length). With the significant digits running
    /// from the first to the last non-zero digit, it is an integer exactly when the power of ten left
    /// after the last significant digit is non-negative. Then it is `.integer` if it fits `Int`, else
    /// `.bigInteger` of its canonical digits (built in O(token + 309)).
    ///
    /// - Throws: `number out of range` for more than ``maximumIntegerDigits`` digits, or a
    ///   309-digit integer beyond `Double`'s range — checked before any digits are copied, so a
    ///   100,000-digit literal or `1e999999` costs one scan of the token.
    private func integralValue(
        negative: Bool, integerDigits: Range<Int>, fractionDigits: Range<Int>, exponent: Int, start: Int
    ) throws(JSONParseError) -> JSONValue? {
        let count = integerDigits.count + fractionDigits.count
        // The k-th digit of integer part + fraction, as a buffer offset.
        func offset(_ k: Int) -> Int {
            k < integerDigits.count ? integerDigits.lowerBound + k : fractionDigits.lowerBound + (k - integerDigits.count)
        }
        var first = 0
        while first < count, buffer[offset(first)] == ASCII.zero { first += 1 }
        guard first < count else { return .integer(0) }  // 0, -0.0, 0e5 … (-0 normalises to 0)
        var last = count - 1
        while buffer[offset(last)] == ASCII.zero { last -= 1 }
        let zeros = exponent - fractionDigits.count + (count - 1 - last)
        guard zeros >= 0 else { return nil }
        let digitCount = last - first + 1 + zeros
        guard digitCount <= JSONParser.maximumIntegerDigits else {
            throw error(at: start, JSONParser.outOfRange)
        }
        if digitCount <= 19 {  // < 10^19 < 2^64: no overflow
            var magnitude: UInt64 = 0
            for k in first...last { magnitude = magnitude * 10 + UInt64(buffer[offset(k)] &- ASCII.zero) }
            for _ in 0..<zeros { magnitude *= 10 }
            if let small = JSONParser.int(magnitude: magnitude, negative: negative) {
                return .integer(small)
            }
        }
        var text: [UInt8] = []
        text.reserveCapacity(digitCount + 1)
        if negative { text.append(ASCII.minus) }
        for k in first...last { text.append(buffer[offset(k)]) }
        text.append(contentsOf: repeatElement(ASCII.zero, count: zeros))
        let decimal = String(decoding: text, as: UTF8.self)
        if digitCount == JSONParser.maximumIntegerDigits {
            guard let double = Double(decimal), double.isFinite else {
                throw error(at: start, JSONParser.outOfRange)
            }
        }
        return .bigInteger(JSONBigInteger(canonical: decimal))
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- ASCII.zero < 10
    }

    // MARK: Strings

    /// Parses a string token starting at the opening quote; leaves `pos` after the closing quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let openingQuote = pos
        pos += 1
        let contentStart = pos
        try skipPlainRun()
        if pos < end, buffer[pos] == ASCII.quote {
            // Fast path: no escapes.
            let result = String(decoding: UnsafeBufferPointer(rebasing: buffer[contentStart..<pos]), as: UTF8.self)
            pos += 1
            return result
        }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[contentStart..<pos]))
        while true {
            guard pos < end else {
                throw error(at: openingQuote, "unterminated string")
            }
            let byte = buffer[pos]
            if byte == ASCII.quote {
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == ASCII.backslash {
                try parseEscape(openingQuote: openingQuote)
            } else {
                // skipPlainRun only stops at quote, backslash, control characters or the end.
                throw error(at: pos, "unescaped control character \(JSONParser.codePoint(UInt32(byte))) in string")
            }
            let runStart = pos
            try skipPlainRun()
            if pos > runStart {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<pos]))
            }
        }
    }

    /// Advances over bytes that stand for themselves in a string: ASCII other than `"`, `\` and
    /// controls, and well-formed UTF-8 multi-byte sequences.
    @inline(__always)
    private mutating func skipPlainRun() throws(JSONParseError) {
        while pos < end {
            let byte = buffer[pos]
            if byte < 0x80 {
                if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 { return }
                pos += 1
            } else {
                guard let (_, length) = decodeScalar(at: pos) else {
                    throw error(at: pos, "invalid UTF-8 byte sequence")
                }
                pos += length
            }
        }
    }

    /// Parses one escape sequence at `pos` (a backslash) and appends its UTF-8 to `scratch`.
    private mutating func parseEscape(openingQuote: Int) throws(JSONParseError) {
        let escapeStart = pos
        guard pos + 1 < end else {
            throw error(at: openingQuote, "unterminated string")
        }
        let simple: UInt8
        switch buffer[pos + 1] {
        case ASCII.quote: simple = ASCII.quote
        case ASCII.backslash: simple = ASCII.backslash
        case ASCII.slash: simple = ASCII.slash
        case 0x62: simple = 0x08  // b
        case 0x66: simple = 0x0C  // f
        case 0x6E: simple = 0x0A  // n
        case 0x72: simple = 0x0D  // r
        case 0x74: simple = 0x09  // t
        case 0x75:  // u
            try parseUnicodeEscape()
            return
        default:
            throw error(at: escapeStart, "invalid escape sequence \(describeEscape(at: pos + 1))")
        }
        scratch.append(simple)
        pos += 2
    }

    private mutating func parseUnicodeEscape() throws(JSONParseError) {
        let escapeStart = pos
        guard let unit = hex4(at: pos + 2) else {
            throw error(at: escapeStart, "invalid \\u escape, expected 4 hexadecimal digits")
        }
        pos += 6
        var scalarValue = unit
        switch unit {
        case 0xD800...0xDBFF:
            guard pos + 1 < end, buffer[pos] == ASCII.backslash, buffer[pos + 1] == 0x75 else {
                throw error(at: escapeStart, "lone surrogate \\u\(JSONParser.hex(unit, digits: 4)) in string")
            }
            guard let low = hex4(at: pos + 2) else {
                throw error(at: pos, "invalid \\u escape, expected 4 hexadecimal digits")
            }
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(at: escapeStart, "lone surrogate \\u\(JSONParser.hex(unit, digits: 4)) in string")
            }
            pos += 6
            scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error(at: escapeStart, "lone surrogate \\u\(JSONParser.hex(unit, digits: 4)) in string")
        default:
            break
        }
        appendUTF8(scalarValue)
    }

    /// Four hex digits at `offset`, or nil (also when the input ends).
    private func hex4(at offset: Int) -> UInt32? {
        guard offset >= 0, end - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for i in offset..<(offset + 4) {
            let byte = buffer[i]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Appends the UTF-8 encoding of a scalar value (never a surrogate, ≤ 0x10FFFF).
    private mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (v >> 6)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (v >> 12)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (v >> 18)))
            scratch.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    // MARK: UTF-8

    /// Decodes the well-formed UTF-8 sequence starting at `offset` (Unicode Table 3-7), returning the
    /// scalar value and its length, or nil for any ill-formed or truncated sequence.
    private func decodeScalar(at offset: Int) -> (UInt32, Int)? {
        guard offset < end else { return nil }
        let b0 = buffer[offset]
        func continuation(_ i: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> UInt32? {
            guard offset + i < end else { return nil }
            let byte = buffer[offset + i]
            return range.contains(byte) ? UInt32(byte & 0x3F) : nil
        }
        switch b0 {
        case 0x00...0x7F:
            return (UInt32(b0), 1)
        case 0xC2...0xDF:
            guard let c1 = continuation(1) else { return nil }
            return (UInt32(b0 & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            let secondRange: ClosedRange<UInt8> = b0 == 0xE0 ? 0xA0...0xBF : (b0 == 0xED ? 0x80...0x9F : 0x80...0xBF)
            guard let c1 = continuation(1, secondRange), let c2 = continuation(2) else { return nil }
            return (UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2, 3)
        case 0xF0...0xF4:
            let secondRange: ClosedRange<UInt8> = b0 == 0xF0 ? 0x90...0xBF : (b0 == 0xF4 ? 0x80...0x8F : 0x80...0xBF)
            guard let c1 = continuation(1, secondRange), let c2 = continuation(2), let c3 = continuation(3) else {
                return nil
            }
            return (UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3, 4)
        default:
            return nil
        }
    }

    // MARK: Errors

    /// Builds an error at a byte offset, computing line and column (in Unicode scalars) by rescanning
    /// the input once. Only called on failure, so the O(n) cost is paid once.
    private func error(at offset: Int, _ message: String) -> JSONParseError {
        var line = 1
        var column = 1
        var i = origin
        let limit = min(offset, end)
        while i < limit {
            let byte = buffer[i]
            if byte == ASCII.lineFeed {
                line += 1
                column = 1
            } else if byte == ASCII.carriageReturn {
                if !(i + 1 < end && buffer[i + 1] == ASCII.lineFeed) {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return JSONParseError(line: line, column: column, message: message)
    }

    /// "unexpected character 'x', expected …", or an end-of-input / invalid-UTF-8 message.
    private func unexpectedCharacter(at offset: Int, expecting: String) -> JSONParseError {
        guard offset < end else {
            return error(at: offset, "unexpected end of input, expected \(expecting)")
        }
        let byte = buffer[offset]
        if byte >= 0x80, decodeScalar(at: offset) == nil {
            return error(at: offset, "invalid UTF-8 byte sequence")
        }
        return error(at: offset, "unexpected character \(describeCharacter(at: offset)), expected \(expecting)")
    }

    /// `'x'` for printable characters, `U+XXXX` for controls, spaces and invalid bytes.
    private func describeCharacter(at offset: Int) -> String {
        guard let (value, _) = decodeScalar(at: offset) else {
            return offset < end ? "byte 0x\(JSONParser.hex(UInt32(buffer[offset]), digits: 2))" : "end of input"
        }
        if value > 0x20, value != 0x7F, !(0x80..<0xA0).contains(value), let scalar = Unicode.Scalar(value) {
            return "'\(Character(scalar))'"
        }
        return JSONParser.codePoint(value)
    }

    /// `'\x'` for a printable escape character, otherwise `'\' followed by U+XXXX`.
    private func describeEscape(at offset: Int) -> String {
        let description = describeCharacter(at: offset)
        if description.hasPrefix("'") {
            return "'\\" + description.dropFirst()
        }
        return "'\\' followed by \(description)"
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func codePoint(_ value: UInt32) -> String {
        "U+" + hex(value, digits: 4)
    }
}
