/// Writes `JSONNode`s as text: members in the order given, numbers as their
/// stored text, so the same node always gives the same bytes.
public enum JSONWriter {
    /// `pretty` indents with two spaces and puts each member on its own line;
    /// otherwise the output is a single line with no spaces.
    public static func write(_ node: JSONNode, pretty: Bool = true) -> String {
        var out = ""
        emit(node, into: &out, indent: pretty ? 0 : nil)
        if pretty { out += "\n" }
        return out
    }

    private static func emit(_ node: JSONNode, into out: inout String, indent: Int?) {
        switch node.value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let text): out += text
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent.map { $0 + 1 })
                emit(item, into: &out, indent: indent.map { $0 + 1 })
            }
            newline(&out, indent)
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent.map { $0 + 1 })
                writeString(m.key, into: &out)
                out += indent == nil ? ":" : ": "
                emit(m.node, into: &out, indent: indent.map { $0 + 1 })
            }
            newline(&out, indent)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int?) {
        guard let indent else { return }
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Escapes quotes, backslashes and control characters; everything else
    /// is written as UTF-8 (CJK labels stay readable).
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
