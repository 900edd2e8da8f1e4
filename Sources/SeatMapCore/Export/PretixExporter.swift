import Foundation

/// Writes a hall as a pretix seating plan that validates against pretix's
/// newer schema (`shape` areas, `row_number_position`, seat `radius`) and
/// that `PretixImporter` reads back to the same seats (labels, positions and
/// categories).
///
/// What a plan cannot say is left out: statuses (pretix keeps them apart),
/// standing capacities and prices (categories carry no prices), levels and
/// zone rotation (each seat is written at its turned position), seat shapes
/// (pretix seats are circles: a rect seat becomes the circle of half its
/// smaller side) and aisles. Section (zone) positions are kept. Seats
/// without a category get one per price, named "Price P". `seat_guid` is the
/// seat's external id when it has one, else its SeatMap id. Numbers the
/// schema wants whole (sizes, radii, text sizes) are rounded.
public enum PretixExporter {
    /// - Parameters:
    ///   - pitch: a line row's spacing where it gives none, and the grid's column pitch (points).
    ///   - rowPitch: the grid's row pitch (points).
    ///   - seatSize: the seat size where a seat gives none (points).
    public static func plan(_ hall: Hall, pitch: Double, rowPitch: Double, seatSize: (w: Double, h: Double)) -> JSONNode {
        let resolved = VenueGeometry.seats(of: hall, pitch: pitch)
        var categories = hall.categories
        var byPrice: [Decimal: String] = [:]
        func category(of seat: Seat, _ row: Row) -> String {
            if let c = seat.category { return c }
            let price = seat.price ?? row.price ?? 0
            if let name = byPrice[price] { return name }
            var name = "Price \(price.plainText)"
            while categories.contains(where: { $0.name == name }) { name += "'" }
            categories.append(SeatCategory(name: name, price: price))
            byPrice[price] = name
            return name
        }
        let zones = Dictionary(hall.sections.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // A hall imported from a plan writes ids only where the plan had them.
        let fromPlan = hall.planSize != nil
        var zoneIDs = Set(hall.rows.map(\.section))
        for a in hall.areas { zoneIDs.insert(a.section ?? 1) }
        // The content's extent in the hall's frame (seats with their radius, areas' corners).
        var maxX = 1.0, maxY = 1.0, minX = Double.infinity, minY = Double.infinity
        func grow(_ x: Double, _ y: Double) {
            maxX = max(maxX, x)
            maxY = max(maxY, y)
            minX = min(minX, x)
            minY = min(minY, y)
        }
        var zoneOrigins: [Point] = []
        var zoneNodes: [JSONNode] = []
        for id in zoneIDs.sorted() {
            let section = zones[id]
            let place = section?.place ?? ZonePlace()
            let origin = Point(x: place.x, y: place.y)
            var rowNodes: [JSONNode] = []
            for (r, row) in hall.rows.enumerated() where row.section == id {
                // Labels made from the plan's templates are written as the plan's
                // numbers and templates while those still give every label.
                let rowTemplate = row.pretix?.string("row_label"), seatTemplate = row.pretix?.string("seat_label")
                let rowNumber = row.pretix?.string("row_number").flatMap { PretixImporter.fill(rowTemplate, $0) == row.label ? $0 : nil }
                let seatNumbers = seatTemplate.map { t in
                    row.seats.filter(\.isSeat).allSatisfy { s in s.pretix?.string("seat_number").map { PretixImporter.fill(t, $0) == s.label } ?? false }
                } ?? false
                var rowDropped: Set<String> = rowNumber == nil ? ["row_label", "row_number"] : []
                if seatTemplate != nil && !seatNumbers { rowDropped.insert("seat_label") }
                var seatNodes: [JSONNode] = []
                for (j, seat) in row.seats.enumerated() where seat.isSeat {
                    let centre: Point
                    var radius = min(seatSize.w, seatSize.h) / 2
                    if row.path != nil || seat.place != nil, j < resolved[r].count {
                        let rs = resolved[r][j]
                        centre = rs.centre
                        switch rs.shape {
                        case .circle(let rr): radius = rr
                        case .rect(let w, let h): radius = min(w ?? seatSize.w, h ?? seatSize.h) / 2
                        }
                    } else {
                        centre = place.apply(Point(x: Double(seat.column - 1) * pitch + seatSize.w / 2,
                                                   y: Double(row.number - 1) * rowPitch + seatSize.h / 2))
                    }
                    grow(centre.x + radius, centre.y + radius)
                    grow(centre.x - radius, centre.y - radius)
                    let id = SeatID(section: row.section, row: row.number, column: seat.column)
                    // Relative to the row's own position when the plan gave one (an unturned zone).
                    let rowAt = place.rotation == 0 ? (row.origin ?? Point(x: 0, y: 0)) : Point(x: 0, y: 0)
                    var node: [(String, JSONNode)] = [
                        ("seat_guid", .string(seat.externalID ?? id.description)),
                        ("seat_number", .string(seatNumbers ? seat.pretix?.string("seat_number") ?? seat.label : seat.label)),
                        ("position", point(centre.x - origin.x - rowAt.x, centre.y - origin.y - rowAt.y)),
                    ]
                    // pretix's default radius is 10: said only when it differs (or the plan said it).
                    if radius != 10 { node.append(("radius", HallFormat.num(radius))) }
                    // A category the plan wrote but the hall could not use (empty, undeclared) is written back as it was.
                    if seat.category != nil || seat.pretix?["category"] == nil { node.append(("category", .string(category(of: seat, row)))) }
                    node += seat.pretix?.members(besides: node, dropping: seatNumbers ? [] : ["seat_number"]) ?? []
                    seatNodes.append(.object(node))
                }
                let labels: JSONNode
                switch row.path != nil || row.seats.contains(where: { $0.place != nil }) ? row.labelPosition : .start {
                case .none: labels = .null
                case let p: labels = .string(p.rawValue)
                }
                // No row labels: said by leaving row_number_position out (null means the same).
                let rowAt = place.rotation == 0 ? (row.origin ?? Point(x: 0, y: 0)) : Point(x: 0, y: 0)
                var rowNode: [(String, JSONNode)] = [("row_number", .string(rowNumber ?? row.label)), ("position", point(rowAt.x, rowAt.y))]
                if labels != .null { rowNode.append(("row_number_position", labels)) }
                rowNode.append(("seats", .array(seatNodes)))
                rowNode += row.pretix?.members(besides: rowNode, dropping: rowDropped) ?? []
                rowNodes.append(.object(rowNode))
            }
            var areaNodes: [JSONNode] = []
            for area in hall.areas where (area.section ?? 1) == id {
                areaNodes.append(areaNode(area, place: place, origin: origin, grow: grow, fromPlan: fromPlan))
            }
            // An imported plan's zone ids as it wrote them (none where it gave none).
            var zone: [(String, JSONNode)] = [("name", .string(section?.name ?? "Zone \(id)"))]
            if let zid = section?.externalID ?? (fromPlan ? nil : String(id)) { zone.append(("zone_id", .string(zid))) }
            zone.append(("position", point(origin.x, origin.y)))
            zoneOrigins.append(origin)
            zone.append(("rows", .array(rowNodes)))
            if !areaNodes.isEmpty { zone.append(("areas", .array(areaNodes))) }
            zone += section?.pretix?.members(besides: zone) ?? []
            zoneNodes.append(.object(zone))
        }
        // A hall written as such may reach left of or above 0 (a venue drawn
        // about its centre); pretix's canvas starts at 0: every zone moves
        // by the same amount so the content starts 10 points in, and the
        // canvas is the content plus that margin on each side. A plan's own
        // canvas and positions are kept as they were.
        var shift = Point(x: 0, y: 0)
        if hall.planSize == nil, minX.isFinite, minY.isFinite, minX < 0 || minY < 0 {
            shift = Point(x: minX < 0 ? 10 - minX : 0, y: minY < 0 ? 10 - minY : 0)
            for (k, origin) in zoneOrigins.enumerated() {
                guard case .object(var members) = zoneNodes[k].value, let i = members.firstIndex(where: { $0.key == "position" }) else { continue }
                members[i] = JSONMember("position", point(origin.x + shift.x, origin.y + shift.y))
                zoneNodes[k] = JSONNode(.object(members))
            }
        }
        let name = [hall.cinemaName, hall.hallName].filter { !$0.isEmpty }.joined(separator: " · ")
        let top: [(String, JSONNode)] = [
            ("name", .string(name.isEmpty ? "SeatMap hall" : name)),
            ("categories", .array(categories.map { c in
                var m: [(String, JSONNode)] = [("name", .string(c.name))]
                if let color = c.color { m.append(("color", .string(color))) }
                return .object(m + (c.pretix?.members(besides: m) ?? []))
            })),
            ("zones", .array(zoneNodes)),
            // The plan's own canvas, else one around the content.
            ("size", hall.planSize.map { .object([("width", HallFormat.num($0.width)), ("height", HallFormat.num($0.height))]) }
                ?? .object([("width", .int(Int((maxX + shift.x).rounded(.up)) + 10)), ("height", .int(Int((maxY + shift.y).rounded(.up)) + 10))])),
        ]
        return .object(top + (hall.pretix?.members(besides: top) ?? []))
    }

    /// A position; turning it there and back leaves float dust (40.00000000000001):
    /// written to nine decimals, which holds every position a plan writes.
    static func point(_ x: Double, _ y: Double) -> JSONNode {
        func clean(_ v: Double) -> Double { abs(v) < 1e6 ? (v * 1e9).rounded() / 1e9 : v }
        return .object([("x", HallFormat.num(clean(x))), ("y", HallFormat.num(clean(y)))])
    }

    /// An area in pretix's newer form: `position` is a rectangle's top-left
    /// corner (turned about it), a circle's or ellipse's centre, the origin
    /// of polygon points and of text.
    static func areaNode(_ area: Area, place: ZonePlace, origin: Point, grow: (Double, Double) -> Void, fromPlan: Bool = false) -> JSONNode {
        // Positions relative to the zone's origin, with the zone's turn applied.
        func rel(_ p: Point) -> Point {
            let q = place.apply(p)
            grow(q.x, q.y)
            return Point(x: q.x - origin.x, y: q.y - origin.y)
        }
        let turn = area.rotation + place.rotation
        // The canvas must hold the whole shape: its corners (a round shape's box), turned as drawn.
        let c0 = area.shape.centre
        let corners: [Point]
        switch area.shape {
        case .rect(let x, let y, let w, let h): corners = [Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x, y: y + h), Point(x: x + w, y: y + h)]
        case .circle(let cx, let cy, let r): corners = [Point(x: cx - r, y: cy - r), Point(x: cx + r, y: cy + r), Point(x: cx - r, y: cy + r), Point(x: cx + r, y: cy - r)]
        case .ellipse(let cx, let cy, let rx, let ry):
            corners = [Point(x: cx - rx, y: cy - ry), Point(x: cx + rx, y: cy + ry), Point(x: cx - rx, y: cy + ry), Point(x: cx + rx, y: cy - ry)]
        case .polygon(let ps): corners = ps
        case .text(let x, let y, _): corners = [Point(x: x, y: y)]
        }
        for p in corners {
            let q = place.apply(VenueGeometry.turn(p, about: c0, by: area.rotation))
            grow(q.x, q.y)
        }
        var m: [(String, JSONNode)] = []
        var pos = Point(x: 0, y: 0)
        switch area.shape {
        case .rect(let x, let y, let w, let h):
            // Top-left corner P with P + R·(w/2, h/2) = the centre.
            let c = rel(Point(x: x + w / 2, y: y + h / 2))
            let (co, si) = VenueGeometry.cosSin(turn)
            pos = Point(x: c.x - (w / 2 * co - h / 2 * si), y: c.y - (w / 2 * si + h / 2 * co))
            m.append(("shape", .string("rectangle")))
            m.append(("rectangle", .object([("width", HallFormat.num(w)), ("height", HallFormat.num(h))])))
            if turn != 0 { m.append(("rotation", HallFormat.num(turn))) }
        case .circle(let cx, let cy, let r):
            pos = rel(Point(x: cx, y: cy))
            m.append(("shape", .string("circle")))
            m.append(("circle", .object([("radius", HallFormat.num(r))])))
        case .ellipse(let cx, let cy, let rx, let ry):
            pos = rel(Point(x: cx, y: cy))
            m.append(("shape", .string("ellipse")))
            m.append(("ellipse", .object([("radius", point(rx, ry))])))
            if turn != 0 { m.append(("rotation", HallFormat.num(turn))) }
        case .polygon(let ps):
            let c = area.shape.centre
            let turned = ps.map { rel(VenueGeometry.turn($0, about: c, by: area.rotation)) }
            pos = turned.first ?? Point(x: 0, y: 0)
            m.append(("shape", .string("polygon")))
            m.append(("polygon", .object([("points", .array(turned.map { point($0.x - pos.x, $0.y - pos.y) }))])))
        case .text(let x, let y, let size):
            pos = rel(Point(x: x, y: y))
            var t: [(String, JSONNode)] = [("text", .string(area.label)), ("position", point(0, 0)), ("size", HallFormat.num(size))]
            if let f = area.fill { t.append(("color", .string(f))) }
            m.append(("shape", .string("text")))
            m.append(("text", .object(t)))
            if turn != 0 { m.append(("rotation", HallFormat.num(turn))) }
        }
        if case .text = area.shape {} else {
            if let f = area.fill { m.append(("color", .string(f))) }
            if let b = area.border { m.append(("border_color", .string(b))) }
            if !area.label.isEmpty {
                // The label's place relative to `position`, in the area's unturned frame.
                let at = rel(area.labelAt ?? area.shape.centre)
                let (co, si) = VenueGeometry.cosSin(-turn)
                let dx = at.x - pos.x, dy = at.y - pos.y
                let local = Point(x: dx * co - dy * si, y: dx * si + dy * co)
                var t: [(String, JSONNode)] = [("text", .string(area.label)), ("position", point(local.x, local.y))]
                if let size = area.labelSize { t.append(("size", HallFormat.num(size))) }
                if let c = area.labelColor { t.append(("color", .string(c))) }
                m.append(("text", .object(t)))
            }
        }
        if let uuid = area.externalID ?? (fromPlan ? nil : area.id) { m.insert(("uuid", .string(uuid)), at: 0) }
        m.append(("position", point(pos.x, pos.y)))
        // An area imported from a plan and not changed since is written as the plan wrote it
        // (its own position, rotation and text offsets); else as built here, with
        // the keys SeatMap does not read.
        // (The older flat form is written in the newer one, which the schema wants.)
        if let kept = area.pretix, kept["shape"] != nil, var again = PretixImporter.area(written: kept, section: area.section ?? 1) {
            again.id = area.id
            again.externalID = area.externalID
            again.section = area.section
            again.pretix = area.pretix
            again.capacity = area.capacity
            again.available = area.available
            again.price = area.price
            if again == area { return JSONNode(.object(kept.members)) }
        }
        return .object(m + (area.pretix?.members(besides: m, dropping: PretixImporter.areaKeys) ?? []))
    }
}
