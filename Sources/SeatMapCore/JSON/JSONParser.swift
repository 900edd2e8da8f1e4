/// A strict RFC 8259 JSON parser over raw bytes.
///
/// Written for SeatMap rather than using `JSONSerialization` because hall
/// files need three things Foundation does not give: the `line:column` of
/// every value for error messages, numbers kept as text (exact `Decimal`
/// prices), and members in source order (duplicate and unknown keys are
/// reported). It never traps: every malformed input ends in `JSONSyntaxError`.
public struct JSONParser {
    /// Nesting deeper than this is refused (no hall needs more than a handful
    /// of levels, and unbounded recursion could exhaust the stack).
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var pos = 0
    private var depth = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a whole document: exactly one value, optionally preceded by a
    /// UTF-8 byte order mark and surrounded by white space.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        if let bad = UTF8Check.firstInvalidOffset(in: bytes) {
            throw JSONSyntaxError(offset: bad, message: "not valid UTF-8 (byte 0x\(hex(bytes[bad])))")
        }
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.pos = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.pos < bytes.count {
            throw JSONSyntaxError(offset: parser.pos, message: "unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return node
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0x0F)]])
    }

    private var current: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    private func describeCurrent() -> String {
        guard let c = current else { return "end of input" }
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(JSONParser.hex(c))"
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: pos, message: message)
    }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { pos += 1 }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard let c = current else { throw error("unexpected end of input, expected a value") }
        let start = pos
        switch c {
        case UInt8(ascii: "{"): return JSONNode(try parseObject(), offset: start)
        case UInt8(ascii: "["): return JSONNode(try parseArray(), offset: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), offset: start)
        default:
            throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        for b in word.utf8 {
            guard current == b else { throw error("invalid literal, expected '\(word)'") }
            pos += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        pos += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after key \"\(key)\"")
            }
            pos += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key, value))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            if current == UInt8(ascii: "}") {
                pos += 1
                depth -= 1
                return .object(members)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or '}' in object")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode.Value {
        try enter()
        pos += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            if current == UInt8(ascii: "]") {
                pos += 1
                depth -= 1
                return .array(items)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or ']' in array")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = pos
        if current == UInt8(ascii: "-") { pos += 1 }
        guard let first = current, isDigit(first) else { throw error("invalid number: expected a digit") }
        if first == UInt8(ascii: "0") {
            pos += 1
            if let c = current, isDigit(c) { throw error("invalid number: leading zero") }
        } else {
            while let c = current, isDigit(c) { pos += 1 }
        }
        if current == UInt8(ascii: ".") {
            pos += 1
            guard let c = current, isDigit(c) else { throw error("invalid number: expected a digit after '.'") }
            while let c = current, isDigit(c) { pos += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            pos += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { pos += 1 }
            guard let c = current, isDigit(c) else { throw error("invalid number: expected a digit in the exponent") }
            while let c = current, isDigit(c) { pos += 1 }
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        pos += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw error("unterminated string") }
            if c == UInt8(ascii: "\"") {
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw error("control character in string (escape it)") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                pos += 1
                continue
            }
            pos += 1
            guard let e = current else { throw error("unterminated escape sequence") }
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard current == UInt8(ascii: "\\"), pos + 1 < bytes.count, bytes[pos + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    pos += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                pos -= 1
                throw error("invalid escape sequence \\\(describeCurrent())")
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current else { throw error("unterminated \\u escape") }
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            pos += 1
        }
        return v
    }
}

/// A JSON document that does not parse, with the byte offset of the problem.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public let offset: Int
    public let message: String
}

/// UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
enum UTF8Check {
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let need: Int
            var lo: UInt8 = 0x80
            var hi: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; hi = 0x9F
            case 0xF0: need = 3; lo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; hi = 0x8F
            default: return i
            }
            guard i + need < n else { return i }
            let second = bytes[i + 1]
            if second < lo || second > hi { return i }
            var k = 2
            while k <= need {
                let c = bytes[i + k]
                if c < 0x80 || c > 0xBF { return i }
                k += 1
            }
            i += need + 1
        }
        return nil
    }
}
