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
    /// A free seat's position, shape and rotation (nil on the grid). For a
    /// free seat `column` is its order in the row.
    public var place: SeatPlace?
    /// An identifier from elsewhere (a pretix `seat_guid`), kept as given.
    public var externalID: String?
    /// The name of the hall's category the seat belongs to.
    public var category: String?
    /// What the plan it came from wrote on it besides (kept for export).
    public var pretix: PlanMembers? = nil

    public init(column: Int, kind: CellKind, label: String? = nil, price: Decimal? = nil, type: SeatType = .standard,
                place: SeatPlace? = nil, externalID: String? = nil, category: String? = nil) {
        self.category = category
        self.column = column
        self.kind = kind
        self.label = label ?? String(column)
        self.price = price
        self.type = type
        self.place = place
        self.externalID = externalID
    }

    /// A seat with a sale status.
    public init(column: Int, status: SeatStatus, label: String? = nil, price: Decimal? = nil, type: SeatType = .standard,
                place: SeatPlace? = nil, externalID: String? = nil, category: String? = nil) {
        self.init(column: column, kind: .seat(status), label: label, price: price, type: type, place: place, externalID: externalID,
                  category: category)
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
    /// A free row that places its seats along an arc or a line.
    public var path: RowPath?
    /// Where a free row's labels are drawn (grid rows: beside the grid).
    public var labelPosition: RowLabelPosition
    /// The row's own position in its zone as an imported plan writes it
    /// (pretix: its seats' positions are relative to it); kept for export.
    /// The seats' places already include it.
    public var origin: Point? = nil
    /// What the plan it came from wrote on it besides (kept for export).
    public var pretix: PlanMembers? = nil

    public init(number: Int, label: String? = nil, section: Int = 1, price: Decimal? = nil, seats: [Seat],
                path: RowPath? = nil, labelPosition: RowLabelPosition = .start) {
        self.number = number
        self.label = label ?? String(number)
        self.section = section
        self.price = price
        self.seats = seats
        self.path = path
        self.labelPosition = labelPosition
    }
}

/// A named pricing or seating zone (IMAX halls price A/B/C differently).
public struct Section: Sendable, Equatable {
    public var id: Int
    public var name: String
    /// A zone's place (free venues); nil for a plain section.
    public var place: ZonePlace?
    /// The zone's id in the system it came from (pretix `zone_id`), kept for export.
    public var externalID: String? = nil
    /// What the plan it came from wrote on the zone besides (kept for export).
    public var pretix: PlanMembers? = nil
    public init(id: Int, name: String, place: ZonePlace? = nil, externalID: String? = nil) {
        self.id = id
        self.name = name
        self.place = place
        self.externalID = externalID
    }
}
