/// The bytes of an input file and its name, used to turn byte offsets into
/// `line:column` for error messages.
public struct SourceText: Sendable {
    /// The name shown in messages: a file path, or `<stdin>`.
    public let name: String
    public let bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    public func location(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let end = min(max(offset, 0), bytes.count)
        var i = 0
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }
}
