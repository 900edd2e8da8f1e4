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

    /// 1-based line and column (in Unicode scalars) of a byte offset. Scans
    /// from the start: for one position. Readers that report many use a
    /// `SourceLocator`, which keeps its place.
    public func location(of offset: Int) -> (line: Int, column: Int) {
        var locator = SourceLocator(self)
        return locator.location(of: offset)
    }
}

/// Turns many byte offsets of one source into line:column in linear time:
/// it remembers where the last answer was and scans on from there when the
/// next offset is later (readers report in file order), and jumps to the
/// start of the line otherwise (a table of line starts, built once).
public struct SourceLocator: Sendable {
    private let bytes: [UInt8]
    private var lineStarts: [Int]? = nil
    private var cursor = (offset: 0, line: 1, column: 1)
    /// Bytes scanned so far (to test that locating stays linear).
    public private(set) var scanned = 0

    public init(_ source: SourceText) {
        bytes = source.bytes
    }

    public mutating func location(of offset: Int) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        if end < cursor.offset {
            let starts = lineStarts ?? SourceLocator.lineStarts(bytes)
            lineStarts = starts
            // The last line start at or before `end` (binary search).
            var lo = 0, hi = starts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= end { lo = mid } else { hi = mid - 1 }
            }
            cursor = (starts[lo], lo + 1, 1)
        }
        var (i, line, column) = cursor
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
        scanned += end - cursor.offset
        cursor = (end, line, column)
        return (line, column)
    }

    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        return starts
    }
}
