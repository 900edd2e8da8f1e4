import Foundation

/// Turns pretix seating plans (pretix's open seating-plan JSON) into halls.
///
/// Mapping:
/// - zone k (0-based) → section k + 1 named by `name` (else `zone_id`, else
///   "Zone k+1"), placed at the zone's `position`;
/// - rows → rows numbered 1, 2, … through the plan (a pretix `row_number`
///   may repeat: one row split into segments stays several rows); label:
///   `row_label` with `%s` replaced by `row_number`, else `row_number`;
///   `row_number_position` start/end/both → where labels are drawn, null or
///   absent → none;
/// - seats → round seats (`radius`, default 10) at row position + seat
///   position (relative to the zone), in the row's order; label: `seat_label`
///   with `%s` replaced by `seat_number`, else `seat_number`; `seat_guid` kept
///   as the seat's external id (a repeated guid is kept on every seat that
///   has it, the first seat answers to it, and the import says once how many
///   repeat; SeatMap's own ids are section-row-order, unique by construction);
///   `category` → the seat's category and its price (an empty or missing
///   category takes `--price`);
/// - categories → categories with the prices given and their colours (as the
///   tiers' colours; a colour `CSSColor` cannot read is dropped with a
///   warning);
/// - areas, both forms: the older flat one (`width`, `height`, `text` as a
///   string) and the newer `shape` with `rectangle`/`ellipse`/`circle`/
///   `polygon`/`text` objects. `position` is a rectangle's top-left corner,
///   a circle's or ellipse's centre, and the origin of polygon points and text
///   positions; `rotation` (degrees clockwise) turns the shape about
///   `position`. An area's `text` becomes its label, drawn at its centre.
///   Degenerate shapes (a polygon of fewer than 3 points, a zero size) are
///   skipped with a warning.
/// Every position may be fractional or negative. Seat statuses are not part
/// of a plan: every seat is available. `size` and `uuid`s are not needed.
public struct PretixImporter: HallImporter {
    public init() {}

    public let name = "pretix"
    public let summary = "a pretix seating plan (zones, rows, seats, areas in either form)"
    public let options = [
        ImportOption.price,
        ImportOption.prices,
        ImportOption.currency,
        ImportOption.locale,
    ]

    public func usageProblem(_ request: ImportRequest) -> SeatMapError? {
        if let c = request.values["currency"], !Currency.isWellFormed(c) {
            return SeatMapError("{{currency}} \"\(c)\" is not an ISO 4217 currency code (three capital letters, e.g. EUR, USD)")
        }
        if let l = request.values["locale"], SeatMapLocale.match(l) == nil {
            return SeatMapError("{{locale}} \"\(l)\": unknown locale (available: \(SeatMapLocale.codes.joined(separator: ", ")))")
        }
        do {
            _ = try PretixImporter.prices(request)
            return nil
        } catch {
            return error
        }
    }

    /// `--price` (the default) and `--prices` by category name.
    static func prices(_ request: ImportRequest) throws(SeatMapError) -> (byCategory: [String: Decimal], fallback: Decimal?) {
        var fallback: Decimal? = nil
        if let one = request.values["price"] {
            guard let d = DecodeContext.exactDecimal(one), d >= 0 else {
                throw SeatMapError("{{price}} \"\(one)\" is not a price (expected a number such as 45 or 39.9)")
            }
            fallback = d
        }
        var map: [String: Decimal] = [:]
        if let text = request.values["prices"] {
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let eq = part.lastIndex(of: "="), let d = DecodeContext.exactDecimal(String(part[part.index(after: eq)...])), d >= 0,
                      eq != part.startIndex else {
                    throw SeatMapError("{{prices}} \"\(text)\" is not a list of CATEGORY=PRICE pairs such as Stalls=45,Balcony=30")
                }
                map[String(part[..<eq])] = d
            }
        }
        return (map, fallback)
    }

    /// Where each built row and seat came from, for messages.
    struct Origins {
        var rows: [(JSONNode, String)] = []
        var seats: [[(JSONNode, String)]] = []
        var areas: [(JSONNode, String)] = []
    }

    public func importHall(_ source: SourceText, _ request: ImportRequest) throws(SeatMapError) -> ImportedHall {
        let (priceMap, fallback) = try PretixImporter.prices(request)
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        guard let top = ctx.object(root, "", known: ["name", "categories", "zones", "size"], unknownAre: PretixImporter.kept) else {
            throw SeatMapError(file: source.name, diagnostics: ctx.errors)
        }
        let planName = top["name"].flatMap { ctx.string($0, "name") } ?? ""

        // Categories and their prices.
        var categories: [SeatCategory] = []
        var categoryNodes: [(JSONNode, String)] = []
        if let n = ctx.required(top, "categories", in: root, ""), let items = ctx.array(n, "categories") {
            for (i, item) in items.enumerated() {
                let path = "categories[\(i)]"
                guard let m = ctx.object(item, path, known: ["name", "color"], unknownAre: PretixImporter.kept) else { continue }
                guard let name = ctx.required(m, "name", in: item, path).flatMap({ ctx.label($0, path + ".name") }) else { continue }
                var color = m["color"].flatMap { ctx.string($0, path + ".color") }
                if let c = color, !HallValidator.isColor(c) {
                    ctx.warning(m["color"], path + ".color", "colour \"\(c)\" is not \(HallValidator.colorForms); the theme's tier colour is used")
                    color = nil
                }
                if let c = color, CSSColor.isTransparent(c) { color = nil }
                var category = SeatCategory(name: name, price: priceMap[name] ?? fallback, color: color)
                category.pretix = PretixImporter.carried(item, besides: color == nil ? ["name"] : ["name", "color"])
                categories.append(category)
                categoryNodes.append((item, path))
            }
        }
        let known = Set(categories.map(\.name))
        if let unknown = priceMap.keys.filter({ !known.contains($0) }).sorted().first {
            throw SeatMapError("{{prices}} names category \"\(unknown)\", which the plan does not have (categories: \(categories.map(\.name).joined(separator: ", ")))")
        }

        // The plan's canvas: seats placed outside it are said once.
        var planSize: (w: Double, h: Double)? = nil
        if let sn = top["size"], let sm = ctx.object(sn, "size", known: ["width", "height"]),
           let w = sm["width"].flatMap({ ctx.double($0, "size.width") }), let h = sm["height"].flatMap({ ctx.double($0, "size.height") }) {
            planSize = (w, h)
        }
        var outside: [(path: String, node: JSONNode)] = []
        var sections: [Section] = []
        var rows: [Row] = []
        var areas: [Area] = []
        var origins = Origins()
        var guids: [String: (count: Int, first: String, node: JSONNode)] = [:]
        var guidOrder: [String] = []
        var missingPrice: [String: (path: String, node: JSONNode)] = [:]
        var areaIDs = Set<String>()

        if let n = ctx.required(top, "zones", in: root, ""), let zones = ctx.array(n, "zones") {
            for (zi, zoneNode) in zones.enumerated() {
                let zp = "zones[\(zi)]"
                guard let zone = ctx.object(zoneNode, zp, known: ["name", "zone_id", "uuid", "position", "rows", "areas", "displayed"],
                                             unknownAre: PretixImporter.kept) else { continue }
                let origin = PretixImporter.position(zone["position"], zp + ".position", &ctx)
                let name = zone["name"].flatMap { ctx.label($0, zp + ".name") } ?? zone["zone_id"].flatMap { ctx.label($0, zp + ".zone_id") } ?? "Zone \(zi + 1)"
                let sectionID = zi + 1
                var section = Section(id: sectionID, name: name, place: ZonePlace(x: origin.x, y: origin.y),
                                      externalID: zone["zone_id"].flatMap { ctx.label($0, zp + ".zone_id") })
                section.pretix = PretixImporter.carried(zoneNode, besides: ["name", "zone_id", "position", "rows", "areas"])
                sections.append(section)
                if let rn = zone["rows"], let items = ctx.array(rn, zp + ".rows") {
                    for (ri, rowNode) in items.enumerated() {
                        let rp = "\(zp).rows[\(ri)]"
                        guard let row = ctx.object(rowNode, rp, known: ["row_number", "row_label", "seat_label", "uuid", "seats", "row_number_position",
                                                                         "position", "number_of_seats", "seats_spacing"],
                                                 unknownAre: PretixImporter.kept) else { continue }
                        let number = ctx.required(row, "row_number", in: rowNode, rp).flatMap { ctx.label($0, rp + ".row_number") } ?? ""
                        let rowLabel = PretixImporter.template(row["row_label"], number, rp + ".row_label", &ctx)
                        let seatTemplate = row["seat_label"]
                        let rowOrigin = PretixImporter.position(row["position"], rp + ".position", &ctx)
                        var labels = RowLabelPosition.none
                        if let n = row["row_number_position"], n.value != .null, let t = ctx.string(n, rp + ".row_number_position") {
                            if let v = RowLabelPosition(rawValue: t), v != .none { labels = v } else {
                                ctx.error(n, rp + ".row_number_position", "unknown row_number_position \"\(t)\" (expected start, end, both or null)")
                            }
                        }
                        var seats: [Seat] = []
                        var seatOrigins: [(JSONNode, String)] = []
                        if let sn = ctx.required(row, "seats", in: rowNode, rp), let seatNodes = ctx.array(sn, rp + ".seats") {
                            for (si, seatNode) in seatNodes.enumerated() {
                                let sp = "\(rp).seats[\(si)]"
                                guard let seat = ctx.object(seatNode, sp, known: ["seat_guid", "seat_number", "uuid", "start_direction", "radius",
                                                                                  "position", "category"],
                                                  unknownAre: PretixImporter.kept) else { continue }
                                let guid = ctx.required(seat, "seat_guid", in: seatNode, sp).flatMap { ctx.label($0, sp + ".seat_guid") } ?? ""
                                let seatNumber = ctx.required(seat, "seat_number", in: seatNode, sp).flatMap { ctx.label($0, sp + ".seat_number") } ?? ""
                                let p = PretixImporter.position(ctx.required(seat, "position", in: seatNode, sp), sp + ".position", &ctx)
                                let radius = seat["radius"].flatMap { ctx.double($0, sp + ".radius") } ?? 10
                                var category = seat["category"].flatMap { ctx.label($0, sp + ".category") }
                                if category == "" { category = nil }
                                if let c = category, !known.contains(c) {
                                    ctx.warning(seat["category"], sp + ".category", "category \"\(c)\" is not in \"categories\"; the seat takes {{price}}")
                                    category = nil
                                }
                                let price = category.flatMap { c in categories.first(where: { $0.name == c })?.price } ?? fallback
                                if price == nil && missingPrice[category ?? ""] == nil { missingPrice[category ?? ""] = (sp, seat["category"] ?? seatNode) }
                                if let g = guids[guid] { guids[guid] = (g.count + 1, g.first, g.node) } else {
                                    guids[guid] = (1, sp, seat["seat_guid"] ?? seatNode)
                                    guidOrder.append(guid)
                                }
                                let label = PretixImporter.template(seatTemplate, seatNumber, rp + ".seat_label", &ctx)
                                if let size = planSize {
                                    let x = origin.x + rowOrigin.x + p.x, y = origin.y + rowOrigin.y + p.y
                                    if x < 0 || y < 0 || x > size.w || y > size.h { outside.append((sp, seat["position"] ?? seatNode)) }
                                }
                                var built = Seat(column: seats.count + 1, status: .available, label: label, price: price,
                                                 place: SeatPlace(x: rowOrigin.x + p.x, y: rowOrigin.y + p.y, shape: .circle(r: radius)),
                                                 externalID: guid, category: category)
                                // What the seat itself does not say is kept: a number a template
                                // applies to, a category it lost, a radius written as pretix's default.
                                var modelled: Set<String> = ["seat_guid", "position"]
                                if !PretixImporter.hasTemplate(seatTemplate) { modelled.insert("seat_number") }
                                if category != nil { modelled.insert("category") }
                                if radius != 10 { modelled.insert("radius") }
                                built.pretix = PretixImporter.carried(seatNode, besides: modelled)
                                seats.append(built)
                                seatOrigins.append((seatNode, sp))
                            }
                        }
                        var imported = Row(number: rows.count + 1, label: rowLabel, section: sectionID, seats: seats, labelPosition: labels)
                        if row["position"] != nil { imported.origin = rowOrigin }
                        var modelled: Set<String> = ["seats", "position"]
                        if !PretixImporter.hasTemplate(row["row_label"]) { modelled.insert("row_number") }
                        if labels != .none { modelled.insert("row_number_position") }
                        imported.pretix = PretixImporter.carried(rowNode, besides: modelled)
                        rows.append(imported)
                        origins.rows.append((rowNode, rp))
                        origins.seats.append(seatOrigins)
                    }
                }
                if let an = zone["areas"], let items = ctx.array(an, zp + ".areas") {
                    for (ai, areaNode) in items.enumerated() {
                        let ap = "\(zp).areas[\(ai)]"
                        guard var area = PretixImporter.area(areaNode, ap, section: sectionID, &ctx) else { continue }
                        // The plan's uuid is kept as written (for export); the id is unique.
                        if !area.id.isEmpty { area.externalID = area.id }
                        // The whole area as written: the export gives it back while the hall's area is still what it says.
                        area.pretix = PretixImporter.carried(areaNode, besides: [])
                        var id = area.id.isEmpty ? "z\(zi + 1)-a\(ai + 1)" : area.id
                        if areaIDs.contains(id) {
                            var k = 2
                            while areaIDs.contains("\(id)-\(k)") { k += 1 }
                            ctx.warning(areaNode, ap + ".uuid", "area id \"\(id)\" is used twice; this one becomes \"\(id)-\(k)\"")
                            id = "\(id)-\(k)"
                        }
                        areaIDs.insert(id)
                        area.id = id
                        areas.append(area)
                        origins.areas.append((areaNode, ap))
                    }
                }
            }
        }
        if let first = outside.first, let size = planSize {
            ctx.warning(first.node, first.path + ".position",
                        outside.count == 1 ? "this seat lies outside the plan's size (\(PretixImporter.number(size.w)) × \(PretixImporter.number(size.h)))"
                            : "\(outside.count) seats lie outside the plan's size (\(PretixImporter.number(size.w)) × \(PretixImporter.number(size.h))); the first here")
        }
        // Repeated guids, said once: how many, the first few, where the first is.
        let repeated = guidOrder.filter { (guids[$0]?.count ?? 0) > 1 }
        if let first = repeated.first, let g = guids[first] {
            let seatsInAll = repeated.reduce(0) { $0 + (guids[$1]?.count ?? 0) }
            let named = repeated.prefix(5).map { "\"\($0)\" ×\(guids[$0]?.count ?? 0)" }.joined(separator: ", ")
            let guidWord = repeated.count == 1 ? "1 seat_guid is" : "\(repeated.count) seat_guids are"
            ctx.warning(g.node, g.first + ".seat_guid",
                        "\(guidWord) used by more than one seat (\(seatsInAll) seats): \(named)\(repeated.count > 5 ? ", …" : "") (the first here); "
                        + "each seat keeps its guid as its external id and the first seat with a guid answers to it")
        }
        for (category, at) in missingPrice.sorted(by: { $0.value.path < $1.value.path }) {
            ctx.error(at.node, at.path + ".category", category.isEmpty
                      ? "a seat without a category needs {{price}} (first here)"
                      : "no price for category \"\(category)\": give {{prices}} \"\(category)=P\" or {{price}} P (first seat here)")
        }
        guard ctx.errors.isEmpty else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }

        func origin(_ place: HallValidator.Place) -> (JSONNode, String) {
            switch place {
            case .row(let i, _): return origins.rows.indices.contains(i) ? origins.rows[i] : (root, "zones")
            case .seat(let i, let j, _):
                if origins.seats.indices.contains(i), origins.seats[i].indices.contains(j) { return origins.seats[i][j] }
                return origin(.row(i, nil))
            case .area(let i, _): return origins.areas.indices.contains(i) ? origins.areas[i] : (root, "zones")
            case .category(let i, _): return categoryNodes.indices.contains(i) ? categoryNodes[i] : (root, "categories")
            case .group: return (root, "")
            case .section(let i, _): return (root, "zones[\(i)]")
            case .hall: return (root, "")
            }
        }
        let currency = request.values["currency"] ?? Currency.defaultCode
        let locale = request.values["locale"]
        let problems = HallValidator.problems(texts: [("hallName", planName)], maxSelectCount: Hall.defaultMaxSelectCount,
                                              sections: sections, rows: rows, areas: areas, categories: categories,
                                              currency: currency, locale: locale, describe: { origin($0).1 })
        for p in problems {
            let (node, path) = origin(p.place)
            ctx.error(node, path, .init(verbatim: p.message))
        }
        guard ctx.errors.isEmpty else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        var hall = Hall(validatedCinemaName: "", hallName: planName, movieStartTime: "", maxSelectCount: Hall.defaultMaxSelectCount,
                        screenLabel: Hall.defaultScreenLabel, sections: sections, rows: rows, areas: areas, categories: categories)
        hall.currency = currency
        hall.locale = locale
        hall.planSize = planSize.map { PlanSize(width: $0.w, height: $0.h) }
        hall.pretix = PretixImporter.carried(root, besides: ["name", "categories", "zones", "size"])
        return ImportedHall(hall: hall, warnings: Diagnostic.sayingRepeatsOnce(ctx.warnings))
    }

    /// How unknown keys fare: kept on the object, written back by export.
    static let kept = "kept as written for export"

    /// The keys of an area SeatMap reads.
    static let areaKeys: Set<String> = ["color", "border_color", "rotation", "position", "uuid", "shape", "polygon", "rectangle",
                                        "ellipse", "circle", "text", "width", "height"]

    /// The members of a plan's object besides the `modelled` ones, as written.
    static func carried(_ node: JSONNode, besides modelled: Set<String>) -> PlanMembers? {
        guard case .object(let members) = node.value else { return nil }
        var seen = Set<String>()
        return PlanMembers(members.filter { !modelled.contains($0.key) && seen.insert($0.key).inserted })
    }

    /// The area a plan's members (as `area` reads them) describe, or nil.
    public static func area(written members: PlanMembers, section: Int) -> Area? {
        var ctx = DecodeContext(source: SourceText(name: "kept", bytes: []))
        return area(JSONNode(.object(members.members)), "area", section: section, &ctx)
    }

    /// Whether a `row_label`/`seat_label` member is a template that changes the number.
    static func hasTemplate(_ node: JSONNode?) -> Bool {
        if case .string(let t)? = node?.value { return !t.isEmpty }
        return false
    }

    /// A label template applied: `%s` replaced by the value; no template
    /// (nil or empty), the value itself; a template without `%s`, itself.
    public static func fill(_ template: String?, _ value: String) -> String {
        guard let t = template, !t.isEmpty else { return value }
        return t.contains("%s") ? t.replacingOccurrences(of: "%s", with: value) : t
    }

    /// A number as a plan writes it: whole ones without a fraction.
    static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    /// `{x, y}` (numbers), or (0, 0) when absent.
    static func position(_ node: JSONNode?, _ path: String, _ ctx: inout DecodeContext) -> Point {
        guard let node, let m = ctx.object(node, path, known: ["x", "y"]) else { return Point(x: 0, y: 0) }
        let x = m["x"].flatMap { ctx.double($0, path + ".x") } ?? 0
        let y = m["y"].flatMap { ctx.double($0, path + ".y") } ?? 0
        return Point(x: x, y: y)
    }

    /// A label template (`"Row %s"`) applied to a value; the value itself
    /// when there is no template (absent or null).
    static func template(_ node: JSONNode?, _ value: String, _ path: String, _ ctx: inout DecodeContext) -> String {
        guard let node, node.value != .null, let t = ctx.string(node, path) else { return value }
        return fill(t, value)
    }

    static func area(_ node: JSONNode, _ path: String, section: Int, _ ctx: inout DecodeContext) -> Area? {
        guard let m = ctx.object(node, path, known: areaKeys, unknownAre: PretixImporter.kept) else { return nil }
        let p = position(m["position"], path + ".position", &ctx)
        let theta = m["rotation"].flatMap { ctx.double($0, path + ".rotation") } ?? 0
        let id = m["uuid"].flatMap { ctx.label($0, path + ".uuid") } ?? ""
        func colour(_ key: String) -> String? {
            guard let c = m[key].flatMap({ ctx.string($0, path + "." + key) }) else { return nil }
            guard HallValidator.isColor(c) else {
                ctx.warning(m[key], path + "." + key, "colour \"\(c)\" is not \(HallValidator.colorForms); the theme's colour is used")
                return nil
            }
            return c
        }
        let fill = colour("color"), border = colour("border_color")
        // The label: the older form's text string, or the text object's text.
        var label = ""
        var textPlace: (Point, Double, String?)? = nil
        var writtenSize: Double? = nil
        if let t = m["text"] {
            if case .string(let s) = t.value {
                label = s
            } else if let tm = ctx.object(t, path + ".text", known: ["text", "color", "size", "position"]) {
                label = tm["text"].flatMap { ctx.label($0, path + ".text.text") } ?? ""
                let tp = position(tm["position"], path + ".text.position", &ctx)
                let size = tm["size"].flatMap { ctx.double($0, path + ".text.size") } ?? 16
                var color = tm["color"].flatMap { ctx.string($0, path + ".text.color") }
                if let c = color, !HallValidator.isColor(c) {
                    ctx.warning(tm["color"], path + ".text.color", "colour \"\(c)\" is not \(HallValidator.colorForms); the theme's colour is used")
                    color = nil
                }
                textPlace = (tp, size, color)
                writtenSize = tm["size"] != nil ? size : nil
            }
        }
        func skip(_ why: String) -> Area? {
            ctx.warning(node, path, "\(why); the area is skipped")
            return nil
        }
        func turned(_ q: Point) -> Point {
            guard theta != 0 else { return Point(x: p.x + q.x, y: p.y + q.y) }
            let (c, s) = VenueGeometry.cosSin(theta)
            return Point(x: p.x + q.x * c - q.y * s, y: p.y + q.x * s + q.y * c)
        }
        var shapeName = m["shape"].flatMap { ctx.string($0, path + ".shape") }
        if shapeName == nil, m["width"] != nil || m["height"] != nil { shapeName = "rectangle" }
        let shape: AreaShape
        var rotation = theta
        var areaFill = fill
        switch shapeName {
        case "rectangle":
            var w = 0.0, h = 0.0
            if let r = m["rectangle"], let rm = ctx.object(r, path + ".rectangle", known: ["width", "height"]) {
                w = rm["width"].flatMap { ctx.double($0, path + ".rectangle.width") } ?? 0
                h = rm["height"].flatMap { ctx.double($0, path + ".rectangle.height") } ?? 0
            } else {
                w = m["width"].flatMap { ctx.double($0, path + ".width") } ?? 0
                h = m["height"].flatMap { ctx.double($0, path + ".height") } ?? 0
            }
            guard w > 0, h > 0 else { return skip("a rectangle of \(w) × \(h)") }
            let c = turned(Point(x: w / 2, y: h / 2))
            shape = .rect(x: c.x - w / 2, y: c.y - h / 2, w: w, h: h)
        case "circle":
            let r = m["circle"].flatMap { ctx.object($0, path + ".circle", known: ["radius"]) }?["radius"]
                .flatMap { ctx.double($0, path + ".circle.radius") } ?? 0
            guard r > 0 else { return skip("a circle of radius \(r)") }
            shape = .circle(cx: p.x, cy: p.y, r: r)
            rotation = 0
        case "ellipse":
            var rx = 0.0, ry = 0.0
            if let e = m["ellipse"], let em = ctx.object(e, path + ".ellipse", known: ["radius"]) {
                let r = position(em["radius"], path + ".ellipse.radius", &ctx)
                rx = r.x
                ry = r.y
            }
            guard rx > 0, ry > 0 else { return skip("an ellipse of radii \(rx), \(ry)") }
            shape = .ellipse(cx: p.x, cy: p.y, rx: rx, ry: ry)
        case "polygon":
            var points: [Point] = []
            if let pg = m["polygon"], let pm = ctx.object(pg, path + ".polygon", known: ["points"]),
               let items = pm["points"].flatMap({ ctx.array($0, path + ".polygon.points") }) {
                for (k, item) in items.enumerated() { points.append(turned(position(item, "\(path).polygon.points[\(k)]", &ctx))) }
            }
            guard points.count >= 3 else { return skip("a polygon of \(points.count) points") }
            shape = .polygon(points)
            rotation = 0
        case "text":
            guard let (tp, size, color) = textPlace, !label.isEmpty else { return skip("a text area without text") }
            let at = turned(tp)
            shape = .text(x: at.x, y: at.y, size: size > 0 ? size : 16)
            areaFill = color ?? fill
        case let other?:
            ctx.warning(m["shape"], path + ".shape", "unknown area shape \"\(other)\"; the area is skipped")
            return nil
        case nil:
            return skip("an area without a shape")
        }
        var labelAt: Point? = nil
        if let (tp, _, _) = textPlace, shapeName != "text" {
            // A label at the shape's centre is the default: kept as none.
            let at = turned(tp), c = shape.centre
            if abs(at.x - c.x) > 1e-9 || abs(at.y - c.y) > 1e-9 { labelAt = at }
        }
        // A shape's text keeps the size and colour the plan writes for it.
        let isText = shapeName == "text"
        return Area(id: id, section: section, shape: shape, rotation: rotation, fill: areaFill, border: border, label: label, labelAt: labelAt,
                    labelSize: isText ? nil : writtenSize, labelColor: isText ? nil : textPlace?.2)
    }
}
