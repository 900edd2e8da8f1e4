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
    /// A free venue (seats at positions), not the cinema grid.
    public var isFree = false
    /// Areas in all; standing ones, their places in all and still for sale.
    public var areas = 0
    public var standingAreas = 0
    public var standingCapacity = 0
    public var standingAvailable = 0
    /// Levels drawn one above the other, and seat groups (tables, boxes).
    public var levels = 1
    public var groups = 0

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
        isFree = hall.isFree
        areas = hall.areas.count
        let standing = hall.areas.filter(\.isStanding)
        standingAreas = standing.count
        standingCapacity = standing.reduce(0) { $0 + ($1.capacity ?? 0) }
        standingAvailable = standing.reduce(0) { $0 + $1.remaining }
        levels = max(1, hall.levels.count)
        groups = hall.groups.count
    }

    /// The hall's kind and extent in words: the grid's size, or a free
    /// venue's rows, areas, standing places, levels and groups.
    public var shape: String {
        guard isFree else { return "grid: \(gridRows) rows × \(gridColumns) columns (\(rows) rows listed)" }
        var parts = ["free venue: \(rows) rows", "\(areas) areas"]
        if standingAreas > 0 { parts.append("\(standingAreas) standing (\(standingAvailable) of \(standingCapacity) places for sale)") }
        if levels > 1 { parts.append("\(levels) levels") }
        if groups > 0 { parts.append("\(groups) groups") }
        return parts.joined(separator: ", ")
    }

    /// The `info --json` document, keys in the documented order.
    /// A free venue has no grid: `gridRows` and `gridColumns` are left out.
    public var json: JSONNode {
        let grid: [(String, JSONNode)] = isFree ? [] : [("gridRows", .int(gridRows)), ("gridColumns", .int(gridColumns))]
        return .object([
            ("cinemaName", .string(cinemaName)), ("hallName", .string(hallName)),
            ("movieStartTime", .string(movieStartTime)), ("maxSelectCount", .int(maxSelectCount)),
        ] + grid + [
            ("rows", .int(rows)),
            ("seats", .int(seats)), ("available", .int(available)), ("locked", .int(locked)), ("sold", .int(sold)),
            ("aisles", .int(aisles)), ("couplePairs", .int(couplePairs)), ("wheelchair", .int(wheelchair)),
            ("sections", .array(sections.map { .object([("id", .int($0.id)), ("name", .string($0.name)), ("seats", .int($0.seats))]) })),
            ("priceTiers", .array(priceTiers.map { .object([("price", .string($0.price.plainText)), ("seats", .int($0.seats))]) })),
            ("currency", .string(currency)),
            ("free", .bool(isFree)), ("areas", .int(areas)), ("standingAreas", .int(standingAreas)),
            ("standingCapacity", .int(standingCapacity)), ("standingAvailable", .int(standingAvailable)),
            ("levels", .int(levels)), ("groups", .int(groups)),
        ])
    }
}

/// The kinds of seat a hall sells, each drawn in one colour and listed once
/// in the legend: its declared categories (pretix plans), each with its
/// price and its own colour whatever the other categories cost; and for
/// seats without a category, their distinct prices. Ascending by price
/// (then a price's own tier before its categories, by name): tier 0 is the
/// cheapest. A hall without categories has one tier per price.
public struct PriceTiers: Sendable, Equatable {
    public let prices: [Decimal]
    /// Each tier's category name, nil for a tier of seats without one.
    public let categories: [String?]
    /// Each tier's colour as the hall writes it (its category's), nil where
    /// the theme's palette decides.
    public let colors: [String?]
    /// Each tier's range of prices over its category's ticket types, nil
    /// for a tier of one price.
    public let ranges: [ClosedRange<Decimal>?]

    public init(_ hall: Hall) {
        let declared = Dictionary(hall.categories.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        struct Key: Hashable { var price: Decimal; var category: String? }
        var set = Set<Key>()
        for row in hall.rows {
            for seat in row.seats where seat.isSeat {
                guard let p = seat.price ?? row.price else { continue }
                set.insert(Key(price: p, category: seat.category.flatMap { declared[$0] == nil ? nil : $0 }))
            }
        }
        for area in hall.areas where area.isStanding {
            if let p = area.price { set.insert(Key(price: p, category: nil)) }
        }
        let keys = set.sorted { a, b in
            if a.price != b.price { return a.price < b.price }
            switch (a.category, b.category) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x < y
            }
        }
        prices = keys.map(\.price)
        categories = keys.map(\.category)
        colors = keys.map { k in k.category.flatMap { declared[$0]?.color } }
        ranges = keys.map { k in
            guard let c = k.category.flatMap({ declared[$0] }), !c.ticketTypes.isEmpty, let r = c.priceRange, r.lowerBound < r.upperBound else { return nil }
            return r
        }
    }

    /// The tier of seats of this price without a category (else the first
    /// of this price), or nil.
    public func tier(of price: Decimal?) -> Int? {
        guard let price else { return nil }
        return prices.indices.first { prices[$0] == price && categories[$0] == nil } ?? prices.firstIndex(of: price)
    }

    /// The tier of a seat of this price and category (a category the hall
    /// does not declare counts as none).
    public func tier(of price: Decimal?, category: String?) -> Int? {
        guard let price else { return nil }
        if let category, let t = prices.indices.first(where: { prices[$0] == price && categories[$0] == category }) { return t }
        return tier(of: price)
    }

    /// The tiers drawn in one colour with tier `t` (its own colour as the
    /// hall writes it, compared as a colour): listed as one legend entry.
    /// Tiers without a colour of their own share nothing.
    public func sharingColor(with t: Int) -> [Int] {
        guard colors.indices.contains(t), let mine = colors[t].flatMap(CSSColor.init) else { return [t] }
        return colors.indices.filter { colors[$0].flatMap(CSSColor.init) == mine }
    }
}
