import Foundation

/// A cinema hall: its rows of seats and what the show is.
///
/// A value: rules, layout and rendering take a hall and never change it in
/// place. Rows are kept sorted by number and seats by column, so iteration
/// order (and so every output) is deterministic.
public struct Hall: Sendable, Equatable {
    public var cinemaName: String
    public var hallName: String
    public var movieStartTime: String
    /// How many seats one order may hold (the seed's `maxSelectCount`).
    public var maxSelectCount: Int
    /// Text on the screen band.
    public var screenLabel: String
    /// Declared sections; empty when the file declares none.
    public var sections: [Section]
    /// Rows sorted by number.
    public private(set) var rows: [Row]
    private var index: [String: CellPosition]

    public static let defaultMaxSelectCount = 4
    public static let defaultScreenLabel = "银幕中央"

    public init(
        cinemaName: String = "", hallName: String = "", movieStartTime: String = "",
        maxSelectCount: Int = Hall.defaultMaxSelectCount, screenLabel: String = Hall.defaultScreenLabel,
        sections: [Section] = [], rows: [Row]
    ) {
        self.cinemaName = cinemaName
        self.hallName = hallName
        self.movieStartTime = movieStartTime
        self.maxSelectCount = maxSelectCount
        self.screenLabel = screenLabel
        self.sections = sections.sorted { $0.id < $1.id }
        self.rows = rows.sorted { $0.number < $1.number }
        self.index = Hall.buildIndex(self.rows)
    }

    private static func buildIndex(_ rows: [Row]) -> [String: CellPosition] {
        var index: [String: CellPosition] = [:]
        for (r, row) in rows.enumerated() {
            for (s, seat) in row.seats.enumerated() {
                index[Hall.seatID(section: row.section, row: row.number, column: seat.column)] = CellPosition(row: r, seat: s)
            }
        }
        return index
    }

    public static func == (a: Hall, b: Hall) -> Bool {
        a.cinemaName == b.cinemaName && a.hallName == b.hallName && a.movieStartTime == b.movieStartTime
            && a.maxSelectCount == b.maxSelectCount && a.screenLabel == b.screenLabel
            && a.sections == b.sections && a.rows == b.rows
    }

    /// `"<section>-<row>-<column>"`, e.g. `"1-3-5"`.
    public static func seatID(section: Int, row: Int, column: Int) -> String {
        "\(section)-\(row)-\(column)"
    }

    /// The section, row and column of a well-formed seat id, or nil.
    public static func parseSeatID(_ id: String) -> (section: Int, row: Int, column: Int)? {
        let parts = id.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var values: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9 else { return nil }
            var v = 0
            for b in part {
                guard b >= 0x30 && b <= 0x39 else { return nil }
                v = v * 10 + Int(b - 0x30)
            }
            values.append(v)
        }
        return (values[0], values[1], values[2])
    }

    /// Largest row number (the grid's height in rows).
    public var gridRows: Int { rows.last?.number ?? 0 }
    /// Largest column used by any row (the grid's width in columns).
    public var gridColumns: Int { rows.map { $0.seats.last?.column ?? 0 }.max() ?? 0 }

    /// The name of a section id: the declared name, or "" when undeclared.
    public func sectionName(_ id: Int) -> String {
        sections.first(where: { $0.id == id })?.name ?? ""
    }

    /// Every cell (seats and aisles) in row, then column order.
    public var cells: [HallCell] {
        var out: [HallCell] = []
        out.reserveCapacity(rows.reduce(0) { $0 + $1.seats.count })
        for row in rows {
            for seat in row.seats { out.append(HallCell(row: row, seat: seat)) }
        }
        return out
    }

    /// The cell with this id (seat or aisle), or nil.
    public func cell(id: String) -> HallCell? {
        guard let p = index[id] else { return nil }
        return HallCell(row: rows[p.row], seat: rows[p.row].seats[p.seat])
    }

    /// The cell at a grid position, or nil for empty floor.
    public func cell(row: Int, column: Int) -> HallCell? {
        guard let r = rows.firstIndex(where: { $0.number == row }),
              let s = rows[r].seats.firstIndex(where: { $0.column == column }) else { return nil }
        return HallCell(row: rows[r], seat: rows[r].seats[s])
    }

    /// Sets the status of the cell with this id; false when there is none.
    @discardableResult
    public mutating func setStatus(_ status: SeatStatus, of id: String) -> Bool {
        guard let p = index[id] else { return false }
        rows[p.row].seats[p.seat].status = status
        return true
    }
}

struct CellPosition: Sendable {
    var row: Int
    var seat: Int
}

/// A cell seen together with its row: everything needed to describe a seat.
public struct HallCell: Sendable, Equatable {
    public let row: Row
    public let seat: Seat

    public init(row: Row, seat: Seat) {
        self.row = row
        self.seat = seat
    }

    public var id: String { Hall.seatID(section: row.section, row: row.number, column: seat.column) }
    /// The seat's own price, else its row's; nil for aisles.
    public var price: Decimal? { seat.status == .aisle ? nil : (seat.price ?? row.price) }
    /// The couple partner's id for a couple half, else nil.
    public var partnerID: String? {
        switch seat.type {
        case .coupleLeft: return Hall.seatID(section: row.section, row: row.number, column: seat.column + 1)
        case .coupleRight: return Hall.seatID(section: row.section, row: row.number, column: seat.column - 1)
        default: return nil
        }
    }
    /// "3排5座" with the display labels.
    public var chineseDescription: String { "\(row.label)排\(seat.label)座" }
    /// "Row 3 Seat 5" with the display labels.
    public var englishDescription: String { "Row \(row.label) Seat \(seat.label)" }
}

extension Decimal {
    /// The plain decimal text of a price ("45", "28.88"), as used in JSON
    /// strings and labels; never scientific notation.
    public var plainText: String { "\(self)" }
}
