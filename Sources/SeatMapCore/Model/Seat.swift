import Foundation

/// One cell of a row: a seat or an explicit aisle (see `CellKind`).
public struct Seat: Sendable, Equatable {
    /// 1-based grid column; column 1 is leftmost seen from the seats.
    public var column: Int
    public var kind: CellKind
    /// Display seat number ("5" in 3排5座).
    public var label: String
    /// Overrides the row's price when present.
    public var price: Decimal?
    public var type: SeatType

    public init(column: Int, kind: CellKind, label: String? = nil, price: Decimal? = nil, type: SeatType = .standard) {
        self.column = column
        self.kind = kind
        self.label = label ?? String(column)
        self.price = price
        self.type = type
    }

    /// A seat with a sale status.
    public init(column: Int, status: SeatStatus, label: String? = nil, price: Decimal? = nil, type: SeatType = .standard) {
        self.init(column: column, kind: .seat(status), label: label, price: price, type: type)
    }

    /// An aisle placeholder.
    public static func aisle(column: Int, label: String? = nil) -> Seat {
        Seat(column: column, kind: .aisle, label: label)
    }

    /// The sale status of a seat; nil for an aisle.
    public var status: SeatStatus? { kind.status }
    public var isSeat: Bool { kind.isSeat }
}

/// A row of the grid.
public struct Row: Sendable, Equatable {
    /// 1-based grid row; row 1 is nearest the screen.
    public var number: Int
    /// Display row name ("3" in 3排5座).
    public var label: String
    public var section: Int
    /// The price of the row's seats that set none of their own.
    public var price: Decimal?
    /// Cells; in a `Hall`, sorted by column.
    public var seats: [Seat]

    public init(number: Int, label: String? = nil, section: Int = 1, price: Decimal? = nil, seats: [Seat]) {
        self.number = number
        self.label = label ?? String(number)
        self.section = section
        self.price = price
        self.seats = seats
    }
}

/// A named pricing or seating zone (IMAX halls price A/B/C differently).
public struct Section: Sendable, Equatable {
    public var id: Int
    public var name: String
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}
