import Foundation

// Free venues: seats at positions instead of grid columns, rows along arcs
// and lines, zones with their own offset, rotation and level, and areas
// (stages, standing floors, tables, text). All lengths are points before
// zoom and scale; y grows downwards and angles are degrees clockwise from
// the +x axis (as on screen).

/// A point in points.
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A free seat's shape: a rect (`w` × `h`, the style's seat size where
/// absent) or a circle of radius `r`.
public enum SeatShape: Sendable, Equatable {
    case rect(w: Double?, h: Double?)
    case circle(r: Double)
}

/// Where a free seat stands: its centre relative to its zone, its shape and
/// its rotation (degrees).
public struct SeatPlace: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var shape: SeatShape
    public var rotation: Double

    public init(x: Double, y: Double, shape: SeatShape = .rect(w: nil, h: nil), rotation: Double = 0) {
        self.x = x
        self.y = y
        self.shape = shape
        self.rotation = rotation
    }
}

/// A row that places its own seats, in their order: along an arc or along a
/// straight line. Seats of such a row give no `x`/`y`; their shape and
/// rotation still come from the seat (`SeatPlace.shape`, added rotation).
public enum RowPath: Sendable, Equatable {
    /// Seats evenly spaced on the circle around (cx, cy) from angle `start`
    /// to `end` (degrees; the first seat at `start`, the last at `end`; a
    /// single seat halfway). `facing`: each seat is turned to face the
    /// centre (a seat straight below the centre is not turned).
    case arc(cx: Double, cy: Double, radius: Double, start: Double, end: Double, facing: Bool)
    /// Seats from (x, y) in direction `angle` (degrees), `spacing` points
    /// apart (centre to centre; the style's column pitch where absent).
    case line(x: Double, y: Double, angle: Double, spacing: Double?)
}

/// Where a row's labels are drawn (pretix's `row_number_position`).
public enum RowLabelPosition: String, Sendable, CaseIterable {
    case start, end, both, none
}

/// A zone's place: every seat and area of the section is given relative to
/// it (turned by `rotation` degrees about the zone's origin, then moved to
/// (x, y)). `level` is the floor (0 the lowest); `outline` draws the box
/// around the zone's seats and `showName` its name.
public struct ZonePlace: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var rotation: Double
    public var level: Int
    public var outline: Bool
    public var showName: Bool

    public init(x: Double = 0, y: Double = 0, rotation: Double = 0, level: Int = 0, outline: Bool = false, showName: Bool = false) {
        self.x = x
        self.y = y
        self.rotation = rotation
        self.level = level
        self.outline = outline
        self.showName = showName
    }

    /// A point given in the zone's frame, in the hall's frame.
    public func apply(_ p: Point) -> Point {
        guard rotation != 0 else { return Point(x: p.x + x, y: p.y + y) }
        let (c, s) = VenueGeometry.cosSin(rotation)
        return Point(x: x + p.x * c - p.y * s, y: y + p.x * s + p.y * c)
    }
}

/// The outline of an area, relative to its zone.
public enum AreaShape: Sendable, Equatable {
    case rect(x: Double, y: Double, w: Double, h: Double)
    case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
    case circle(cx: Double, cy: Double, r: Double)
    case polygon([Point])
    /// Only text (the area's `label`), centred at (x, y), `size` points high.
    case text(x: Double, y: Double, size: Double)

    public var name: String {
        switch self {
        case .rect: return "rect"
        case .ellipse: return "ellipse"
        case .circle: return "circle"
        case .polygon: return "polygon"
        case .text: return "text"
        }
    }

    /// The centre the shape turns about (its box's centre).
    public var centre: Point {
        switch self {
        case .rect(let x, let y, let w, let h): return Point(x: x + w / 2, y: y + h / 2)
        case .ellipse(let cx, let cy, _, _), .circle(let cx, let cy, _): return Point(x: cx, y: cy)
        case .polygon(let ps):
            let xs = ps.map(\.x), ys = ps.map(\.y)
            return Point(x: ((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, y: ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        case .text(let x, let y, _): return Point(x: x, y: y)
        }
    }
}

/// A drawn part of the venue that is not a seat: a stage, a bar, a table, a
/// text, or, with a `capacity` and a `price`, a standing (general admission)
/// area sold by quantity.
public struct Area: Sendable, Equatable {
    /// Unique in the hall; the SVG group is `area-<id>`.
    public var id: String
    /// The zone (section) it is placed in; nil for the hall's own frame.
    public var section: Int?
    public var shape: AreaShape
    /// Degrees about the shape's centre.
    public var rotation: Double
    /// A colour as `CSSColor` reads it (`transparent`: none); the theme's
    /// colours where absent.
    public var fill: String?
    public var border: String?
    /// Text drawn in the area (a text area's text).
    public var label: String
    /// Where the label is centred (zone frame); the shape's centre when nil.
    public var labelAt: Point?
    /// The label's size in points as the plan writes it (it is fitted to
    /// the shape only when it would leave it); nil: sized to the shape.
    public var labelSize: Double?
    /// The label's colour as written; nil: whichever of the theme's text
    /// colours reads better on the fill.
    public var labelColor: String?
    /// The area's id in the system it came from (pretix `uuid`; `id` is
    /// made up when the plan gives none), kept for export.
    public var externalID: String? = nil
    /// What the plan it came from wrote on it besides (kept for export).
    public var pretix: PlanMembers? = nil
    /// Standing places in all, and how many are still for sale.
    public var capacity: Int?
    public var available: Int?
    public var price: Decimal?
    /// Places one order takes of a standing area at least and at most
    /// (nil: 1, and the hall's `maxSelectCount`).
    public var minPerOrder: Int? = nil
    public var maxPerOrder: Int? = nil

    public init(id: String, section: Int? = nil, shape: AreaShape, rotation: Double = 0, fill: String? = nil,
                border: String? = nil, label: String = "", labelAt: Point? = nil, capacity: Int? = nil, available: Int? = nil,
                price: Decimal? = nil, labelSize: Double? = nil, labelColor: String? = nil, externalID: String? = nil) {
        self.labelAt = labelAt
        self.externalID = externalID
        self.labelSize = labelSize
        self.labelColor = labelColor
        self.id = id
        self.section = section
        self.shape = shape
        self.rotation = rotation
        self.fill = fill
        self.border = border
        self.label = label
        self.capacity = capacity
        self.available = available
        self.price = price
    }

    /// A standing area: sold by quantity up to `capacity`.
    public var isStanding: Bool { capacity != nil }
    /// Places still for sale (all of them when not given).
    public var remaining: Int { available ?? capacity ?? 0 }
}

/// Seats booked together (a box, a whole table): selecting or selling one
/// selects or sells all. Couples are two-seat groups of their own (their
/// `coupleLeft`/`coupleRight` types), not listed here.
public struct SeatGroup: Sendable, Equatable {
    public var id: String
    public var seats: [SeatID]

    public init(id: String, seats: [SeatID]) {
        self.id = id
        self.seats = seats
    }
}

/// A seat category (a pretix category): a name seats refer to, an optional
/// price (seats of the category without a price of their own take it) and an
/// optional colour for its price tier (the theme's where absent).
public struct SeatCategory: Sendable, Equatable {
    public var name: String
    public var price: Decimal?
    public var color: String?
    /// The kinds of ticket its seats are sold as (adult, child, concession),
    /// each with its price; a selected seat is the first unless the buyer
    /// picks another. Empty: one kind, at the seat's price.
    public var ticketTypes: [TicketType] = []
    /// What the plan it came from wrote on it besides (kept for export).
    public var pretix: PlanMembers? = nil

    public init(name: String, price: Decimal? = nil, color: String? = nil) {
        self.name = name
        self.price = price
        self.color = color
    }
}

/// A kind of ticket a category's seats are sold as: its name and price.
public struct TicketType: Sendable, Equatable {
    public var name: String
    public var price: Decimal

    public init(name: String, price: Decimal) {
        self.name = name
        self.price = price
    }
}

extension SeatCategory {
    /// The lowest and highest price its seats sell at: over its ticket
    /// types when it has them, else its price; nil when it has neither.
    public var priceRange: ClosedRange<Decimal>? {
        let prices = ticketTypes.isEmpty ? (price.map { [$0] } ?? []) : ticketTypes.map(\.price)
        guard let low = prices.min(), let high = prices.max() else { return nil }
        return low...high
    }

    /// Rows with every seat of a priced category that sets no price of its
    /// own given the category's price (done before validation, so a seat's
    /// price is always its own or its row's).
    public static func resolvePrices(_ rows: [Row], _ categories: [SeatCategory]) -> [Row] {
        guard !categories.isEmpty else { return rows }
        var prices: [String: Decimal] = [:]
        // A category with ticket types sells at its first type's price by default.
        for c in categories where prices[c.name] == nil { if let p = c.ticketTypes.first?.price ?? c.price { prices[c.name] = p } }
        guard !prices.isEmpty else { return rows }
        return rows.map { row in
            var r = row
            for j in r.seats.indices where r.seats[j].price == nil {
                if let name = r.seats[j].category, let p = prices[name] { r.seats[j].price = p }
            }
            return r
        }
    }
}

/// A free seat's resolved place in the hall's frame: centre, shape and
/// rotation (zone, row path and seat rotations added up).
public struct ResolvedSeat: Sendable, Equatable {
    public var centre: Point
    public var shape: SeatShape
    public var rotation: Double
}

/// The hall's free geometry in points: where each free seat and area stands
/// once zones and row paths are applied. The layout turns these numbers into
/// pixels; the rules use them for neighbours and distances.
public enum VenueGeometry {
    /// Every free row's seats resolved, by row index then seat index (empty
    /// arrays for grid rows). `pitch` is the line spacing where a row gives none.
    public static func seats(of hall: Hall, pitch: Double) -> [[ResolvedSeat]] {
        let zones = Dictionary(hall.sections.map { ($0.id, $0.place ?? ZonePlace()) }, uniquingKeysWith: { a, _ in a })
        return hall.rows.map { row in
            let zone = zones[row.section] ?? ZonePlace()
            let n = row.seats.count
            return row.seats.enumerated().compactMap { j, seat -> ResolvedSeat? in
                let shape = seat.place?.shape ?? .rect(w: nil, h: nil)
                let own = seat.place?.rotation ?? 0
                var local: Point
                var turn = own
                switch row.path {
                case .arc(let cx, let cy, let r, let a0, let a1, let facing)?:
                    let a = n <= 1 ? (a0 + a1) / 2 : a0 + (a1 - a0) * Double(j) / Double(n - 1)
                    let (c, s) = cosSin(a)
                    local = Point(x: cx + r * c, y: cy + r * s)
                    if facing { turn += a - 90 }
                case .line(let x, let y, let angle, let spacing)?:
                    let (c, s) = cosSin(angle)
                    let d = (spacing ?? pitch) * Double(j)
                    local = Point(x: x + d * c, y: y + d * s)
                case nil:
                    guard let p = seat.place else { return nil }
                    local = Point(x: p.x, y: p.y)
                }
                return ResolvedSeat(centre: zone.apply(local), shape: shape, rotation: turn + zone.rotation)
            }
        }
    }

    /// Cosine and sine of an angle in degrees, exact at multiples of 90° (so
    /// a row or zone turned a quarter keeps whole-number positions).
    /// The distances between consecutive seat centres of a row.
    public static func gaps(_ centres: [Point]) -> [Double] {
        guard centres.count > 1 else { return [] }
        return (0..<(centres.count - 1)).map { j in
            let dx = centres[j + 1].x - centres[j].x, dy = centres[j + 1].y - centres[j].y
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// A row's seat pitch as the layout sizes row labels from it: the median
    /// distance between consecutive seats that do not coincide (nil when
    /// there are none).
    public static func pitch(_ centres: [Point]) -> Double? {
        let d = gaps(centres).filter { $0 > 0 }.sorted()
        return d.isEmpty ? nil : d[d.count / 2]
    }

    public static func cosSin(_ degrees: Double) -> (Double, Double) {
        let q = degrees / 90
        if q == q.rounded(), abs(q) < 1e9 {
            switch ((Int(q) % 4) + 4) % 4 {
            case 0: return (1, 0)
            case 1: return (0, 1)
            case 2: return (-1, 0)
            default: return (0, -1)
            }
        }
        let a = degrees * .pi / 180
        return (cos(a), sin(a))
    }

    /// A point turned `degrees` clockwise about `c`.
    public static func turn(_ p: Point, about c: Point, by degrees: Double) -> Point {
        guard degrees != 0 else { return p }
        let (co, si) = cosSin(degrees)
        let dx = p.x - c.x, dy = p.y - c.y
        return Point(x: c.x + dx * co - dy * si, y: c.y + dx * si + dy * co)
    }

    /// The zone an area is placed in.
    public static func zone(of area: Area, in hall: Hall) -> ZonePlace {
        guard let id = area.section else { return ZonePlace() }
        return hall.sections.first(where: { $0.id == id })?.place ?? ZonePlace()
    }

    /// The level of a row's seats (its zone's level; 0 without one).
    public static func level(ofSection id: Int?, in hall: Hall) -> Int {
        guard let id else { return 0 }
        return hall.sections.first(where: { $0.id == id })?.place?.level ?? 0
    }
}

extension Hall {
    /// Whether rows and areas make a free venue (seats at positions, row
    /// paths or areas) rather than a cinema grid (`isFree`, worked out once).
    static func isFree(rows: [Row], areas: [Area]) -> Bool {
        !areas.isEmpty || rows.contains { row in row.path != nil || row.seats.indices.contains { row.seats[$0].place != nil } }
    }

    /// The levels used by the hall's zones, ascending (`[0]` for a hall
    /// without levels).
    public var levels: [Int] {
        var used = Set(rows.map { VenueGeometry.level(ofSection: $0.section, in: self) })
        for a in areas { used.insert(VenueGeometry.level(ofSection: a.section, in: self)) }
        return used.sorted()
    }

    /// A level's name as a buyer reads it: its named sections' names
    /// ("Stalls", "Balcony"), else "Level N" in the locale.
    public func levelName(_ level: Int, in locale: SeatMapLocale) -> String {
        let names = sections.filter { ($0.place?.level ?? 0) == level && !$0.name.isEmpty }.map(\.name)
        return names.isEmpty ? locale.text("level", ["level": String(level)]) : names.joined(separator: " · ")
    }

    /// The standing area with this id.
    public func area(id: String) -> Area? { areas.first(where: { $0.id == id }) }
}
