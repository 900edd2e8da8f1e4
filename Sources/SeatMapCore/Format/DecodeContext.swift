import Foundation

/// Walks a parsed JSON document, collecting every problem instead of
/// stopping at the first, with the JSON path and source position of each.
///
/// Shared by every reader of JSON input (hall files, status batches,
/// importers) so they report problems the same way.
public struct DecodeContext {
    public let source: SourceText
    /// Turns node offsets into line:column in linear time over a file.
    public private(set) var locator: SourceLocator
    public private(set) var errors: [Diagnostic] = []
    /// Unknown keys (reported by `validate --strict`).
    public private(set) var warnings: [Diagnostic] = []

    public init(source: SourceText) {
        self.source = source
        locator = SourceLocator(source)
    }

    /// The line and column of a byte offset of the source.
    public mutating func location(of offset: Int) -> (line: Int, column: Int) {
        locator.location(of: offset)
    }

    /// Parses the source; on a syntax error records it and returns nil.
    public mutating func parse() -> JSONNode? {
        do {
            return try JSONParser.parse(source.bytes)
        } catch {
            let loc = location(of: error.offset)
            let prefix = error.message.hasPrefix("not valid UTF-8") ? "" : "malformed JSON: "
            errors.append(Diagnostic(path: "", message: .init(verbatim: prefix + error.message), line: loc.line, column: loc.column))
            return nil
        }
    }

    public mutating func error(_ node: JSONNode?, _ path: String, _ message: Diagnostic.Text) {
        errors.append(diagnostic(node, path, message))
    }

    public mutating func warning(_ node: JSONNode?, _ path: String, _ message: Diagnostic.Text) {
        warnings.append(diagnostic(node, path, message))
    }

    private mutating func diagnostic(_ node: JSONNode?, _ path: String, _ message: Diagnostic.Text) -> Diagnostic {
        guard let node else { return Diagnostic(path: path, message: message) }
        let loc = location(of: node.offset)
        return Diagnostic(path: path, message: message, line: loc.line, column: loc.column)
    }

    /// Puts the errors in the order of their positions in the source (a
    /// reader's own errors and a validator's are found in separate passes).
    public mutating func sortErrorsByPosition() {
        errors = errors.enumerated().sorted { a, b in
            (a.element.line ?? Int.max, a.element.column ?? Int.max, a.offset)
                < (b.element.line ?? Int.max, b.element.column ?? Int.max, b.offset)
        }.map(\.element)
    }

    /// Joins a path and a key: `rows[3]` + `seats` → `rows[3].seats`.
    public static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The members of an object by key; nil (with an error) for other types.
    /// Keys not in `known` become warnings; a repeated key is an error.
    public mutating func object(_ node: JSONNode, _ path: String, known: Set<String>, unknownAre fate: String = "ignored") -> [String: JSONNode]? {
        guard case .object(let members) = node.value else {
            error(node, path, "expected an object, found \(node.typeName)")
            return nil
        }
        var out: [String: JSONNode] = [:]
        for m in members {
            let memberPath = DecodeContext.join(path, m.key)
            if out[m.key] != nil {
                error(m.node, memberPath, "duplicate key \"\(m.key)\"")
                continue
            }
            if !known.contains(m.key) {
                warning(m.node, memberPath, "unknown key \"\(m.key)\" (\(fate))")
                // Ignored, but still JSON SeatMap reads: a repeated key is an error anywhere.
                duplicates(in: m.node, memberPath)
            }
            out[m.key] = m.node
        }
        return out
    }

    /// Reports every repeated key inside `node` (a member nobody decodes).
    mutating func duplicates(in node: JSONNode, _ path: String) {
        switch node.value {
        case .object(let members):
            var seen = Set<String>()
            for m in members {
                let memberPath = DecodeContext.join(path, m.key)
                if !seen.insert(m.key).inserted { error(m.node, memberPath, "duplicate key \"\(m.key)\"") }
                duplicates(in: m.node, memberPath)
            }
        case .array(let items):
            for (i, item) in items.enumerated() { duplicates(in: item, "\(path)[\(i)]") }
        default:
            break
        }
    }

    /// The required member `key`, or nil with a "missing required field" error
    /// located at the object.
    public mutating func required(_ members: [String: JSONNode], _ key: String, in object: JSONNode, _ path: String) -> JSONNode? {
        if let node = members[key] { return node }
        error(object, path.isEmpty ? key : path, "missing required field \"\(key)\"")
        return nil
    }

    public mutating func array(_ node: JSONNode, _ path: String) -> [JSONNode]? {
        guard case .array(let items) = node.value else {
            error(node, path, "expected an array, found \(node.typeName)")
            return nil
        }
        return items
    }

    public mutating func string(_ node: JSONNode, _ path: String) -> String? {
        guard case .string(let s) = node.value else {
            error(node, path, "expected a string, found \(node.typeName)")
            return nil
        }
        return s
    }

    /// A label: a string, or a whole number written as one.
    public mutating func label(_ node: JSONNode, _ path: String) -> String? {
        switch node.value {
        case .string(let s): return s
        case .number(let text) where Int(text) != nil: return text
        default:
            error(node, path, "expected a string, found \(node.typeName)")
            return nil
        }
    }

    /// A whole number within `range`.
    public mutating func int(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>? = nil, what: String = "value") -> Int? {
        guard case .number(let text) = node.value else {
            error(node, path, "expected a whole number, found \(node.typeName)")
            return nil
        }
        guard let v = Int(text) else {
            let digitsOnly = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") }
            error(node, path, digitsOnly ? "number \(text) is out of range" : "expected a whole number, found \(text)")
            return nil
        }
        if let range, !range.contains(v) {
            error(node, path, .init(verbatim: HallValidator.rangeMessage(what, v, range)))
            return nil
        }
        return v
    }

    /// A coordinate or size: any JSON number that is a finite `Double`.
    public mutating func double(_ node: JSONNode, _ path: String) -> Double? {
        guard case .number(let text) = node.value else {
            error(node, path, "expected a number, found \(node.typeName)")
            return nil
        }
        guard let v = Double(text), v.isFinite else {
            error(node, path, "number \(text) is out of range")
            return nil
        }
        return v
    }

    public mutating func bool(_ node: JSONNode, _ path: String) -> Bool? {
        guard case .bool(let b) = node.value else {
            error(node, path, "expected true or false, found \(node.typeName)")
            return nil
        }
        return b
    }

    /// An exact decimal from a JSON number (never through `Double`).
    public mutating func decimal(_ node: JSONNode, _ path: String) -> Decimal? {
        guard case .number(let text) = node.value else {
            error(node, path, "expected a number, found \(node.typeName)")
            return nil
        }
        guard let d = DecodeContext.exactDecimal(text) else {
            error(node, path, "number \(text) is out of range")
            return nil
        }
        return d
    }

    /// Whether the whole text is a decimal number as JSON writes one:
    /// `-?digits(.digits)?([eE][+-]?digits)?` (no `+`, hex, separators,
    /// units or trailing text).
    public static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Bool {
            let start = bytes.startIndex
            while let b = bytes.first, b >= 0x30 && b <= 0x39 { bytes = bytes.dropFirst() }
            return bytes.startIndex != start
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    /// `Decimal` of a decimal number text (the whole text, see
    /// `isDecimalNumber`), nil when it is not one or cannot be held exactly
    /// (more than 30 significant digits or an exponent beyond ±20).
    public static func exactDecimal(_ text: String) -> Decimal? {
        guard isDecimalNumber(text) else { return nil }
        let lower = text.lowercased()
        var mantissa = Substring(lower)
        if let e = lower.firstIndex(of: "e") {
            guard let exp = Int(lower[lower.index(after: e)...]), abs(exp) <= 20 else { return nil }
            mantissa = lower[..<e]
        }
        guard mantissa.filter(\.isNumber).count <= 30 else { return nil }
        // No locale: the separator is then "." (as in en_US_POSIX) and
        // Foundation loads no locale data (ICU's number formatter took
        // milliseconds on a command's first price).
        guard let d = Decimal(string: text), !d.isNaN else { return nil }
        return d
    }
}
