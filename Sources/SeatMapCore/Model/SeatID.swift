/// A seat's identity: its section, grid row and grid column.
///
/// A value, compared and hashed as three integers; the text form
/// `"<section>-<row>-<column>"` (e.g. `1-3-5`) is used only at the edges:
/// JSON, the command line, SVG ids and the selection store.
public struct SeatID: Sendable, Hashable, Comparable, CustomStringConvertible, LosslessStringConvertible {
    public var section: Int
    public var row: Int
    public var column: Int

    public init(section: Int, row: Int, column: Int) {
        self.section = section
        self.row = row
        self.column = column
    }

    /// Parses `"1-3-5"`: three runs of at most nine digits, without leading
    /// zeros (one text per id, as `description` writes it); nil otherwise.
    public init?(_ text: String) {
        var values: [Int] = []
        values.reserveCapacity(3)
        for part in text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.count <= 9, part.count == 1 || part.first != UInt8(ascii: "0") else { return nil }
            var v = 0
            for b in part {
                guard b >= 0x30 && b <= 0x39 else { return nil }
                v = v * 10 + Int(b - 0x30)
            }
            values.append(v)
        }
        guard values.count == 3 else { return nil }
        self.init(section: values[0], row: values[1], column: values[2])
    }

    public var description: String { "\(section)-\(row)-\(column)" }

    /// Grid order: row, then column, then section.
    public static func < (a: SeatID, b: SeatID) -> Bool {
        (a.row, a.column, a.section) < (b.row, b.column, b.section)
    }
}
