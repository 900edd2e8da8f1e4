import Foundation

/// The hall at a glance: the counts `seatmap info` prints.
public struct HallSummary: Sendable, Equatable {
    public struct SectionCount: Sendable, Equatable {
        public var id: Int
        public var name: String
        public var seats: Int
    }
    public struct PriceTier: Sendable, Equatable {
        public var price: Decimal
        public var seats: Int
    }

    public var cinemaName: String
    /// The ISO 4217 code of every price.
    public var currency: String = Currency.defaultCode
    public var hallName: String
    public var movieStartTime: String
    public var maxSelectCount: Int
    public var gridRows: Int
    public var gridColumns: Int
    public var rows: Int
    /// Seats with status 0–2 (aisles are not seats).
    public var seats: Int
    public var available: Int
    public var locked: Int
    public var sold: Int
    public var aisles: Int
    public var couplePairs: Int
    public var wheelchair: Int
    /// Sections in id order: declared ones, plus any used but undeclared.
    public var sections: [SectionCount]
    /// Distinct prices of seats, ascending.
    public var priceTiers: [PriceTier]

    public init(_ hall: Hall) {
        cinemaName = hall.cinemaName
        hallName = hall.hallName
        movieStartTime = hall.movieStartTime
        maxSelectCount = hall.maxSelectCount
        gridRows = hall.gridRows
        gridColumns = hall.gridColumns
        rows = hall.rows.count
        var counts: [CellKind: Int] = [:]
        var couples = 0
        var wheel = 0
        var bySection: [Int: Int] = [:]
        var byPrice: [Decimal: Int] = [:]
        for s in hall.sections { bySection[s.id] = 0 }
        for cell in hall.cells {
            counts[cell.seat.kind, default: 0] += 1
            guard cell.seat.isSeat else { continue }
            bySection[cell.row.section, default: 0] += 1
            if let p = cell.price { byPrice[p, default: 0] += 1 }
            if cell.seat.type == .coupleLeft { couples += 1 }
            if cell.seat.type == .wheelchair { wheel += 1 }
        }
        available = counts[.seat(.available)] ?? 0
        locked = counts[.seat(.locked)] ?? 0
        sold = counts[.seat(.sold)] ?? 0
        aisles = counts[.aisle] ?? 0
        seats = available + locked + sold
        couplePairs = couples
        wheelchair = wheel
        sections = bySection.keys.sorted().map { SectionCount(id: $0, name: hall.sectionName($0), seats: bySection[$0] ?? 0) }
        priceTiers = byPrice.keys.sorted().map { PriceTier(price: $0, seats: byPrice[$0] ?? 0) }
        currency = hall.currency
    }

    /// The `info --json` document, keys in the documented order.
    public var json: JSONNode {
        .object([
            ("cinemaName", .string(cinemaName)), ("hallName", .string(hallName)),
            ("movieStartTime", .string(movieStartTime)), ("maxSelectCount", .int(maxSelectCount)),
            ("gridRows", .int(gridRows)), ("gridColumns", .int(gridColumns)), ("rows", .int(rows)),
            ("seats", .int(seats)), ("available", .int(available)), ("locked", .int(locked)), ("sold", .int(sold)),
            ("aisles", .int(aisles)), ("couplePairs", .int(couplePairs)), ("wheelchair", .int(wheelchair)),
            ("sections", .array(sections.map { .object([("id", .int($0.id)), ("name", .string($0.name)), ("seats", .int($0.seats))]) })),
            ("priceTiers", .array(priceTiers.map { .object([("price", .string($0.price.plainText)), ("seats", .int($0.seats))]) })),
            ("currency", .string(currency)),
        ])
    }
}

/// The distinct seat prices of a hall, ascending: tier 0 is the cheapest.
/// Themes colour available seats by tier, the legend lists the tiers.
public struct PriceTiers: Sendable, Equatable {
    public let prices: [Decimal]
    /// Each tier's colour from the hall's categories (the first category
    /// of that price with a colour), nil where the theme's palette decides.
    public let colors: [String?]

    public init(_ hall: Hall) {
        var set = Set<Decimal>()
        for row in hall.rows {
            var usesRowPrice = false
            for seat in row.seats where seat.isSeat {
                if let p = seat.price { set.insert(p) } else { usesRowPrice = true }
            }
            if usesRowPrice, let p = row.price { set.insert(p) }
        }
        for area in hall.areas where area.isStanding {
            if let p = area.price { set.insert(p) }
        }
        prices = set.sorted()
        colors = prices.map { p in hall.categories.first(where: { $0.price == p && $0.color != nil })?.color }
    }

    /// The tier index of a price, or nil.
    public func tier(of price: Decimal?) -> Int? {
        guard let price else { return nil }
        return prices.firstIndex(of: price)
    }
}
