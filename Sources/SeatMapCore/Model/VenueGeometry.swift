import Foundation

// Free venues: seats at positions instead of grid columns, rows along arcs
// and lines, zones with their own offset, rotation and level, and areas
// (stages, standing floors, tables, text). All lengths are points before
// zoom and scale; y grows downwards and angles are degrees clockwise from
// the +x axis (as on screen).

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
        return hall.rows.map { row in seats(of: row, zone: zones[row.section] ?? ZonePlace(), pitch: pitch) }
    }

    /// One row's seats resolved (empty for a grid row): what `seats(of:pitch:)`
    /// gives for it, without resolving the rest of the hall.
    public static func seats(of row: Row, in hall: Hall, pitch: Double) -> [ResolvedSeat] {
        seats(of: row, zone: hall.sections.first(where: { $0.id == row.section })?.place ?? ZonePlace(), pitch: pitch)
    }

    static func seats(of row: Row, zone: ZonePlace, pitch: Double) -> [ResolvedSeat] {
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
