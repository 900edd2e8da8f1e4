import Foundation

/// The hall JSON format: the seed's format plus SeatMap's optional extensions.
///
/// Reading validates everything and reports every problem (see
/// `SeatMapError.maxListed`); writing gives the same hall back when read.
public enum HallFormat {
    /// Limits beyond which a hall is refused as too large (see `HallValidator`).
    public static let maxSeats = HallValidator.maxSeats
    public static let maxGridSide = HallValidator.maxGridSide

    static let rootKeys: Set<String> = ["cinemaName", "hallName", "movieStartTime", "maxSelectCount", "screenLabel", "sections", "rows",
                                        "areas", "focus", "categories", "groups", "currency", "locale", "planSize", "rules", "pretix"]
    static let sectionKeys: Set<String> = ["id", "name", "x", "y", "rotation", "level", "outline", "showName", "externalId", "pretix"]
    static let rowKeys: Set<String> = ["row", "label", "section", "price", "seats", "count", "arc", "line", "labels", "group", "origin", "pretix"]
    static let seatKeys: Set<String> = ["column", "status", "label", "price", "type", "x", "y", "w", "h", "r", "rotation", "id", "category", "pretix"]
    static let arcKeys: Set<String> = ["cx", "cy", "radius", "start", "end", "facing"]
    static let lineKeys: Set<String> = ["x", "y", "angle", "spacing"]
    static let areaKeys: Set<String> = ["id", "shape", "section", "x", "y", "w", "h", "cx", "cy", "rx", "ry", "r", "points", "size",
                                        "rotation", "fill", "border", "label", "labelAt", "labelSize", "labelColor", "capacity", "available", "price", "minPerOrder", "maxPerOrder", "externalId", "pretix"]

    /// A decoded hall with the warnings (unknown keys) found on the way.
    public struct Decoded: Sendable {
        public var hall: Hall
        public var warnings: [Diagnostic]
    }

    /// Reads a hall from JSON bytes. Throws a `SeatMapError` listing every
    /// problem in the order they appear in the file, each with its JSON path
    /// and line:column. This reader checks the JSON (types, required and
    /// repeated keys, the format's codes); `HallValidator` checks the hall.
    /// `strict` makes unknown keys errors too (they are warnings otherwise).
    public static func decode(_ source: SourceText, strict: Bool = false) throws(SeatMapError) -> Decoded {
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else {
            throw SeatMapError(file: source.name, diagnostics: ctx.errors)
        }
        let hall = decodeHall(root, &ctx)
        let problems = strict ? ctx.errors + ctx.warnings : ctx.errors
        guard problems.isEmpty, let hall else {
            throw SeatMapError(file: source.name, diagnostics: problems)
        }
        return Decoded(hall: hall, warnings: ctx.warnings)
    }

    /// Convenience for in-memory JSON.
    public static func decode(_ text: String, name: String = "<input>") throws(SeatMapError) -> Hall {
        try decode(SourceText(name: name, bytes: Array(text.utf8))).hall
    }

    /// The parts read so far, and the places that could not be read (the
    /// validator skips the rules that need them).
    struct Reading {
        var unreadable: Set<HallValidator.Place> = []
        mutating func failed(_ place: HallValidator.Place) { unreadable.insert(place) }
    }

    static func decodeHall(_ root: JSONNode, _ ctx: inout DecodeContext) -> Hall? {
        guard let top = ctx.object(root, "", known: rootKeys) else { return nil }
        var reading = Reading()
        func text(_ key: String, _ ctx: inout DecodeContext) -> String? { top[key].flatMap { ctx.string($0, key) } }
        let cinemaName = text("cinemaName", &ctx) ?? ""
        let hallName = text("hallName", &ctx) ?? ""
        let movieStartTime = text("movieStartTime", &ctx) ?? ""
        let screenLabel = text("screenLabel", &ctx) ?? Hall.defaultScreenLabel
        var maxSelectCount = Hall.defaultMaxSelectCount
        if let n = top["maxSelectCount"] {
            if let v = ctx.int(n, "maxSelectCount") { maxSelectCount = v } else { reading.failed(.hall("maxSelectCount")) }
        }
        var sectionNodes: [JSONNode] = []
        var sections: [Section]? = nil
        if let n = top["sections"] {
            sections = []
            if let items = ctx.array(n, "sections") {
                sectionNodes = items
                for (i, item) in items.enumerated() {
                    sections?.append(decodeSection(item, i, &reading, &ctx))
                }
            }
        }
        guard let rowsNode = ctx.required(top, "rows", in: root, ""), let rowNodes = ctx.array(rowsNode, "rows") else {
            return nil
        }
        var categoryNodes: [JSONNode] = []
        var categories: [SeatCategory] = []
        if let n = top["categories"], let items = ctx.array(n, "categories") {
            categoryNodes = items
            for (i, item) in items.enumerated() {
                let path = "categories[\(i)]"
                guard let m = ctx.object(item, path, known: ["name", "price", "color", "ticketTypes", "pretix"]) else { continue }
                let name = ctx.required(m, "name", in: item, path).flatMap { ctx.label($0, path + ".name") } ?? ""
                let price = m["price"].flatMap { ctx.decimal($0, path + ".price") }
                let color = m["color"].flatMap { ctx.string($0, path + ".color") }
                var category = SeatCategory(name: name, price: price, color: color)
                category.pretix = planMembers(m, path, &ctx)
                if let n = m["ticketTypes"], let types = ctx.array(n, path + ".ticketTypes") {
                    for (k, t) in types.enumerated() {
                        let tp = "\(path).ticketTypes[\(k)]"
                        guard let tm = ctx.object(t, tp, known: ["name", "price"]) else { continue }
                        let name = ctx.required(tm, "name", in: t, tp).flatMap { ctx.label($0, tp + ".name") }
                        let price = ctx.required(tm, "price", in: t, tp).flatMap { ctx.decimal($0, tp + ".price") }
                        if let name, let price { category.ticketTypes.append(TicketType(name: name, price: price)) }
                    }
                }
                categories.append(category)
            }
        }
        let rows = SeatCategory.resolvePrices(rowNodes.enumerated().map { decodeRow($0.element, $0.offset, &reading, &ctx) }, categories)
        var groupNodes: [JSONNode] = []
        var groups: [SeatGroup] = []
        if let n = top["groups"], let items = ctx.array(n, "groups") {
            groupNodes = items
            for (i, item) in items.enumerated() {
                let path = "groups[\(i)]"
                guard let m = ctx.object(item, path, known: ["id", "seats"]) else { continue }
                let id = ctx.required(m, "id", in: item, path).flatMap { ctx.label($0, path + ".id") } ?? ""
                var seats: [SeatID] = []
                if let sn = ctx.required(m, "seats", in: item, path), let list = ctx.array(sn, path + ".seats") {
                    for (k, s) in list.enumerated() {
                        guard let text = ctx.string(s, "\(path).seats[\(k)]") else { continue }
                        if let sid = SeatID(text) { seats.append(sid) } else {
                            ctx.error(s, "\(path).seats[\(k)]", "\"\(text)\" is not a seat id (SECTION-ROW-COLUMN)")
                        }
                    }
                }
                groups.append(SeatGroup(id: id, seats: seats))
            }
        }
        // A row marked "group": true is booked whole: a group named by its label.
        for (i, node) in rowNodes.enumerated() {
            guard let flag = node["group"], ctx.bool(flag, "rows[\(i)].group") == true, i < rows.count else { continue }
            let row = rows[i]
            groups.append(SeatGroup(id: row.label, seats: row.seats.filter(\.isSeat).map { SeatID(section: row.section, row: row.number, column: $0.column) }))
            groupNodes.append(node)
        }
        var areaNodes: [JSONNode] = []
        var areas: [Area] = []
        if let n = top["areas"], let items = ctx.array(n, "areas") {
            areaNodes = items
            areas = items.enumerated().compactMap { decodeArea($0.element, $0.offset, &ctx) }
        }
        var focus: Point? = nil
        if let n = top["focus"], let m = ctx.object(n, "focus", known: ["x", "y"]) {
            let x = ctx.required(m, "x", in: n, "focus").flatMap { ctx.double($0, "focus.x") }
            let y = ctx.required(m, "y", in: n, "focus").flatMap { ctx.double($0, "focus.y") }
            if let x, let y { focus = Point(x: x, y: y) }
        }
        var currency = Currency.defaultCode
        if let n = top["currency"] {
            if let c = ctx.string(n, "currency") { currency = c } else { reading.failed(.hall("currency")) }
        }
        var locale: String? = nil
        if let n = top["locale"] {
            if let l = ctx.string(n, "locale") { locale = l } else { reading.failed(.hall("locale")) }
        }
        var planSize: PlanSize? = nil
        if let n = top["planSize"], let m = ctx.object(n, "planSize", known: ["width", "height"]) {
            let w = ctx.required(m, "width", in: n, "planSize").flatMap { ctx.double($0, "planSize.width") }
            let h = ctx.required(m, "height", in: n, "planSize").flatMap { ctx.double($0, "planSize.height") }
            if let w, let h {
                if w.isFinite, h.isFinite, w > 0, h > 0, w <= HallValidator.maxCoordinate, h <= HallValidator.maxCoordinate {
                    planSize = PlanSize(width: w, height: h)
                } else {
                    ctx.error(n, "planSize", "a plan's size is two numbers over 0 and at most \(Int(HallValidator.maxCoordinate))")
                }
            }
        }
        var rules = SalesRules()
        rules.maxSelectCount = maxSelectCount
        if let n = top["rules"] {
            let read = rules.reading(n, path: "rules", allowingMax: false)
            rules = read.rules
            for d in read.problems { ctx.error(n[String(d.path.dropFirst(6))] ?? n, d.path, d.text) }
        }
        let texts = [("cinemaName", cinemaName), ("hallName", hallName), ("movieStartTime", movieStartTime), ("screenLabel", screenLabel)]
        let problems = HallValidator.problems(texts: texts, maxSelectCount: maxSelectCount, sections: sections, rows: rows,
                                              areas: areas, focus: focus, categories: categories, groups: groups, currency: currency, locale: locale,
                                              unreadable: reading.unreadable, othersFailed: !ctx.errors.isEmpty)
        /// The JSON node a validator place names (the field, else its object).
        func node(_ place: HallValidator.Place) -> JSONNode? {
            func member(_ object: JSONNode?, _ key: String?) -> JSONNode? {
                guard let object else { return nil }
                guard let key else { return object }
                return object[key] ?? object
            }
            switch place {
            case .hall(let key):
                if key.hasPrefix("focus.") { return member(root["focus"], String(key.dropFirst(6))) }
                return key == "rows" ? rowsNode : member(root, key)
            case .area(let i, let key): return member(areaNodes.indices.contains(i) ? areaNodes[i] : nil, key)
            case .category(let i, let key): return member(categoryNodes.indices.contains(i) ? categoryNodes[i] : nil, key)
            case .group(let i, let key): return member(groupNodes.indices.contains(i) ? groupNodes[i] : nil, key)
            case .section(let i, let key): return member(sectionNodes.indices.contains(i) ? sectionNodes[i] : nil, key)
            case .row(let i, let key): return member(rowNodes.indices.contains(i) ? rowNodes[i] : nil, key)
            case .seat(let i, let j, let key):
                guard rowNodes.indices.contains(i), case .array(let seats)? = rowNodes[i]["seats"]?.value,
                      seats.indices.contains(j) else { return nil }
                return member(seats[j], key)
            }
        }
        let readerErrors = ctx.errors.count
        for p in problems { ctx.error(node(p.place), p.place.path, .init(verbatim: p.message)) }
        if !problems.isEmpty && readerErrors > 0 { ctx.sortErrorsByPosition() }
        guard ctx.errors.isEmpty else { return nil }
        var hall = Hall(validatedCinemaName: cinemaName, hallName: hallName, movieStartTime: movieStartTime,
                        maxSelectCount: maxSelectCount, screenLabel: screenLabel, sections: sections ?? [], rows: rows,
                        areas: areas, focus: focus, categories: categories, groups: groups)
        hall.currency = currency
        hall.locale = locale
        hall.planSize = planSize
        hall.rules = rules
        hall.pretix = planMembers(top, "", &ctx)
        return hall
    }

    /// An object's `pretix` member: what an imported plan wrote there besides.
    static func planMembers(_ m: [String: JSONNode], _ path: String, _ ctx: inout DecodeContext) -> PlanMembers? {
        guard let n = m["pretix"] else { return nil }
        guard case .object(let members) = n.value else {
            ctx.error(n, DecodeContext.join(path, "pretix"), "expected an object (what a pretix plan wrote here), found \(n.typeName)")
            return nil
        }
        ctx.duplicates(in: n, DecodeContext.join(path, "pretix"))
        return PlanMembers(members)
    }

    /// The optional number `key` of an object.
    static func number(_ m: [String: JSONNode], _ key: String, _ path: String, _ ctx: inout DecodeContext) -> Double? {
        m[key].flatMap { ctx.double($0, DecodeContext.join(path, key)) }
    }

    /// The required number `key` of an object.
    static func requiredNumber(_ m: [String: JSONNode], _ key: String, in node: JSONNode, _ path: String,
                               _ ctx: inout DecodeContext) -> Double? {
        ctx.required(m, key, in: node, path).flatMap { ctx.double($0, DecodeContext.join(path, key)) }
    }

    static func decodeArea(_ node: JSONNode, _ i: Int, _ ctx: inout DecodeContext) -> Area? {
        let path = "areas[\(i)]"
        guard let m = ctx.object(node, path, known: areaKeys) else { return nil }
        let errors = ctx.errors.count
        let id = ctx.required(m, "id", in: node, path).flatMap { ctx.label($0, path + ".id") } ?? ""
        let label = m["label"].flatMap { ctx.label($0, path + ".label") } ?? ""
        var labelAt: Point? = nil
        if let n = m["labelAt"], let lm = ctx.object(n, path + ".labelAt", known: ["x", "y"]),
           let x = requiredNumber(lm, "x", in: n, path + ".labelAt", &ctx), let y = requiredNumber(lm, "y", in: n, path + ".labelAt", &ctx) {
            labelAt = Point(x: x, y: y)
        }
        let externalID = m["externalId"].flatMap { ctx.label($0, path + ".externalId") }
        let labelSize = number(m, "labelSize", path, &ctx)
        let labelColor = m["labelColor"].flatMap { ctx.string($0, path + ".labelColor") }
        let section = m["section"].flatMap { ctx.int($0, path + ".section") }
        let rotation = number(m, "rotation", path, &ctx) ?? 0
        let fill = m["fill"].flatMap { ctx.string($0, path + ".fill") }
        let border = m["border"].flatMap { ctx.string($0, path + ".border") }
        let capacity = m["capacity"].flatMap { ctx.int($0, path + ".capacity") }
        let available = m["available"].flatMap { ctx.int($0, path + ".available") }
        let price = m["price"].flatMap { ctx.decimal($0, path + ".price") }
        let minPerOrder = m["minPerOrder"].flatMap { ctx.int($0, path + ".minPerOrder") }
        let maxPerOrder = m["maxPerOrder"].flatMap { ctx.int($0, path + ".maxPerOrder") }
        func req(_ key: String, _ ctx: inout DecodeContext) -> Double { requiredNumber(m, key, in: node, path, &ctx) ?? 1 }
        var shape: AreaShape? = nil
        if let n = ctx.required(m, "shape", in: node, path), let name = ctx.string(n, path + ".shape") {
            switch name {
            case "rect": shape = .rect(x: req("x", &ctx), y: req("y", &ctx), w: req("w", &ctx), h: req("h", &ctx))
            case "ellipse": shape = .ellipse(cx: req("cx", &ctx), cy: req("cy", &ctx), rx: req("rx", &ctx), ry: req("ry", &ctx))
            case "circle": shape = .circle(cx: req("cx", &ctx), cy: req("cy", &ctx), r: req("r", &ctx))
            case "text": shape = .text(x: req("x", &ctx), y: req("y", &ctx), size: number(m, "size", path, &ctx) ?? 14)
            case "polygon":
                var points: [Point] = []
                if let pn = ctx.required(m, "points", in: node, path), let items = ctx.array(pn, path + ".points") {
                    for (k, item) in items.enumerated() {
                        let pp = "\(path).points[\(k)]"
                        guard let xy = ctx.array(item, pp) else { continue }
                        guard xy.count == 2 else {
                            ctx.error(item, pp, "expected [x, y], found \(xy.count) numbers")
                            continue
                        }
                        if let x = ctx.double(xy[0], pp + "[0]"), let y = ctx.double(xy[1], pp + "[1]") { points.append(Point(x: x, y: y)) }
                    }
                }
                shape = .polygon(points)
            default:
                ctx.error(n, path + ".shape", "unknown area shape \"\(name)\" (expected rect, ellipse, circle, polygon, text)")
            }
        }
        let pretix = planMembers(m, path, &ctx)
        guard let shape, ctx.errors.count == errors else { return nil }
        var area = Area(id: id, section: section, shape: shape, rotation: rotation, fill: fill, border: border, label: label, labelAt: labelAt,
                        capacity: capacity, available: available, price: price, labelSize: labelSize, labelColor: labelColor, externalID: externalID)
        area.pretix = pretix
        area.minPerOrder = minPerOrder
        area.maxPerOrder = maxPerOrder
        return area
    }

    static func decodeSection(_ node: JSONNode, _ i: Int, _ reading: inout Reading, _ ctx: inout DecodeContext) -> Section {
        let path = "sections[\(i)]"
        guard let m = ctx.object(node, path, known: sectionKeys) else {
            reading.failed(.section(i, nil))
            return Section(id: 0, name: "")
        }
        var id = 0
        if let n = ctx.required(m, "id", in: node, path), let v = ctx.int(n, path + ".id") { id = v } else { reading.failed(.section(i, "id")) }
        let name = m["name"].flatMap { ctx.string($0, path + ".name") } ?? ""
        var place: ZonePlace? = nil
        if !sectionKeys.subtracting(["id", "name"]).isDisjoint(with: m.keys) {
            var z = ZonePlace()
            z.x = number(m, "x", path, &ctx) ?? 0
            z.y = number(m, "y", path, &ctx) ?? 0
            z.rotation = number(m, "rotation", path, &ctx) ?? 0
            if let n = m["level"] {
                if let v = ctx.int(n, path + ".level") { z.level = v } else { reading.failed(.section(i, "level")) }
            }
            z.outline = m["outline"].flatMap { ctx.bool($0, path + ".outline") } ?? false
            z.showName = m["showName"].flatMap { ctx.bool($0, path + ".showName") } ?? false
            place = z
        }
        let externalID = m["externalId"].flatMap { ctx.label($0, path + ".externalId") }
        var section = Section(id: id, name: name, place: place, externalID: externalID)
        section.pretix = planMembers(m, path, &ctx)
        return section
    }

    static func decodeRow(_ node: JSONNode, _ i: Int, _ reading: inout Reading, _ ctx: inout DecodeContext) -> Row {
        let path = "rows[\(i)]"
        guard let m = ctx.object(node, path, known: rowKeys) else {
            reading.failed(.row(i, nil))
            return Row(number: 0, seats: [])
        }
        var number = 0
        if let n = ctx.required(m, "row", in: node, path), let v = ctx.int(n, path + ".row") { number = v } else { reading.failed(.row(i, "row")) }
        let label = m["label"].flatMap { ctx.label($0, path + ".label") }
        var section = 1
        if let n = m["section"] {
            if let v = ctx.int(n, path + ".section") { section = v } else { reading.failed(.row(i, "section")) }
        }
        var price: Decimal? = nil
        if let n = m["price"] {
            price = ctx.decimal(n, path + ".price")
            if price == nil { reading.failed(.row(i, "price")) }
        }
        var path_: RowPath? = nil
        if let n = m["arc"], let a = ctx.object(n, path + ".arc", known: arcKeys) {
            let p = path + ".arc"
            let facing = a["facing"].flatMap { ctx.bool($0, p + ".facing") } ?? true
            if let cx = requiredNumber(a, "cx", in: n, p, &ctx), let cy = requiredNumber(a, "cy", in: n, p, &ctx),
               let r = requiredNumber(a, "radius", in: n, p, &ctx), let s0 = requiredNumber(a, "start", in: n, p, &ctx),
               let s1 = requiredNumber(a, "end", in: n, p, &ctx) {
                path_ = .arc(cx: cx, cy: cy, radius: r, start: s0, end: s1, facing: facing)
            }
        }
        if let n = m["line"], let a = ctx.object(n, path + ".line", known: lineKeys) {
            let p = path + ".line"
            if m["arc"] != nil { ctx.error(n, p, "a row has an arc or a line, not both") }
            if let x = requiredNumber(a, "x", in: n, p, &ctx), let y = requiredNumber(a, "y", in: n, p, &ctx) {
                path_ = .line(x: x, y: y, angle: HallFormat.number(a, "angle", p, &ctx) ?? 0, spacing: HallFormat.number(a, "spacing", p, &ctx))
            }
        }
        var labels = RowLabelPosition.start
        if let n = m["labels"], let t = ctx.string(n, path + ".labels") {
            if let v = RowLabelPosition(rawValue: t) { labels = v } else {
                ctx.error(n, path + ".labels", "unknown row label position \"\(t)\" (expected start, end, both, none)")
            }
        }
        var seats: [Seat] = []
        if let n = m["count"], m["seats"] == nil {
            if let c = ctx.int(n, path + ".count", in: 1...HallValidator.maxGridSide, what: "count") {
                seats = (1...c).map { Seat(column: $0, status: .available) }
            } else {
                reading.failed(.row(i, "seats"))
            }
        } else if let n = ctx.required(m, "seats", in: node, path), let items = ctx.array(n, path + ".seats") {
            if let c = m["count"] { ctx.error(c, path + ".count", "a row has \"seats\" or a \"count\", not both") }
            seats = items.enumerated().map { decodeSeat($0.element, i, $0.offset, onPath: path_ != nil, &reading, &ctx) }
        } else {
            reading.failed(.row(i, "seats"))
        }
        var row = Row(number: number, label: label, section: section, price: price, seats: seats, path: path_, labelPosition: labels)
        if let n = m["origin"], let om = ctx.object(n, path + ".origin", known: ["x", "y"]),
           let x = requiredNumber(om, "x", in: n, path + ".origin", &ctx), let y = requiredNumber(om, "y", in: n, path + ".origin", &ctx) {
            row.origin = Point(x: x, y: y)
        }
        row.pretix = planMembers(m, path, &ctx)
        return row
    }

    static func decodeSeat(_ node: JSONNode, _ i: Int, _ j: Int, onPath: Bool, _ reading: inout Reading,
                           _ ctx: inout DecodeContext) -> Seat {
        let path = "rows[\(i)].seats[\(j)]"
        guard let m = ctx.object(node, path, known: seatKeys) else {
            reading.failed(.seat(i, j, nil))
            return Seat(column: 0, status: .available)
        }
        // A free seat: x and y (or its row's path) place it; its column is
        // its order in the row unless given.
        var place: SeatPlace? = nil
        let positioned = m["x"] != nil || m["y"] != nil
        if onPath, let n = m["x"] ?? m["y"] {
            ctx.error(n, path, "a seat in a row with an arc or a line takes its position from the row (remove x and y)")
        }
        // A seat of a path row has a place only when it sets its own shape or
        // turn (its position comes from the row either way).
        if positioned || m["w"] != nil || m["h"] != nil || m["r"] != nil || m["rotation"] != nil {
            let x = onPath ? 0 : requiredNumber(m, "x", in: node, path, &ctx) ?? 0
            let y = onPath ? 0 : requiredNumber(m, "y", in: node, path, &ctx) ?? 0
            var shape = SeatShape.rect(w: number(m, "w", path, &ctx), h: number(m, "h", path, &ctx))
            if let r = number(m, "r", path, &ctx) {
                shape = .circle(r: r)
                if let n = m["w"] ?? m["h"] { ctx.error(n, path, "a seat is a rect (w, h) or a circle (r), not both") }
            }
            place = SeatPlace(x: x, y: y, shape: shape, rotation: number(m, "rotation", path, &ctx) ?? 0)
        }
        let externalID = m["id"].flatMap { ctx.label($0, path + ".id") }
        let category = m["category"].flatMap { ctx.label($0, path + ".category") }
        var column = j + 1
        if place != nil || onPath, m["column"] == nil {
            // The order in the row.
        } else if let n = ctx.required(m, "column", in: node, path), let v = ctx.int(n, path + ".column") {
            column = v
        } else {
            reading.failed(.seat(i, j, "column"))
        }
        var kind = CellKind.seat(.available)
        if let n = ctx.required(m, "status", in: node, path), let code = ctx.int(n, path + ".status") {
            if let k = CellKind(code: code) {
                kind = k
            } else {
                ctx.error(n, path + ".status", "unknown status \(code) (\(CellKind.expectedCodes))")
                reading.failed(.seat(i, j, "status"))
            }
        } else {
            reading.failed(.seat(i, j, "status"))
        }
        let label = m["label"].flatMap { ctx.label($0, path + ".label") }
        var price: Decimal? = nil
        if let n = m["price"] {
            price = ctx.decimal(n, path + ".price")
            if price == nil { reading.failed(.seat(i, j, "price")) }
        }
        var type = SeatType.standard
        if let n = m["type"], let s = ctx.string(n, path + ".type") {
            if let t = SeatType(rawValue: s) {
                type = t
            } else {
                let names = SeatType.allCases.map(\.rawValue).joined(separator: ", ")
                ctx.error(n, path + ".type", "unknown seat type \"\(s)\" (expected \(names))")
                reading.failed(.seat(i, j, "type"))
            }
        } else if m["type"] != nil {
            reading.failed(.seat(i, j, "type"))
        }
        var seat = Seat(column: column, kind: kind, label: label, price: price, type: type, place: place, externalID: externalID,
                        category: category)
        seat.pretix = planMembers(m, path, &ctx)
        return seat
    }

    // MARK: Writing

    /// The hall as JSON in the documented format; optional fields are written
    /// only where they differ from their defaults.
    public static func encode(_ hall: Hall) -> JSONNode {
        var top: [(String, JSONNode)] = [
            ("cinemaName", .string(hall.cinemaName)),
            ("hallName", .string(hall.hallName)),
            ("movieStartTime", .string(hall.movieStartTime)),
            ("maxSelectCount", .int(hall.maxSelectCount)),
        ]
        if hall.screenLabel != Hall.defaultScreenLabel { top.append(("screenLabel", .string(hall.screenLabel))) }
        if hall.currency != Currency.defaultCode { top.append(("currency", .string(hall.currency))) }
        if let l = hall.locale { top.append(("locale", .string(l))) }
        if let s = hall.planSize { top.append(("planSize", .object([("width", num(s.width)), ("height", num(s.height))]))) }
        var plain = SalesRules()
        plain.maxSelectCount = hall.maxSelectCount
        if hall.rules != plain { top.append(("rules", hall.rules.json(differingFrom: plain, includingMax: false))) }
        if let p = hall.pretix { top.append(("pretix", planNode(p))) }
        if let f = hall.focus { top.append(("focus", .object([("x", num(f.x)), ("y", num(f.y))]))) }
        if !hall.categories.isEmpty {
            top.append(("categories", .array(hall.categories.map { c in
                var m: [(String, JSONNode)] = [("name", .string(c.name))]
                if let p = c.price { m.append(("price", .number(p.plainText))) }
                if let color = c.color { m.append(("color", .string(color))) }
                if !c.ticketTypes.isEmpty {
                    m.append(("ticketTypes", .array(c.ticketTypes.map { .object([("name", .string($0.name)), ("price", .number($0.price.plainText))]) })))
                }
                if let p = c.pretix { m.append(("pretix", planNode(p))) }
                return .object(m)
            })))
        }
        if !hall.sections.isEmpty {
            top.append(("sections", .array(hall.sections.map(encodeSection))))
        }
        top.append(("rows", .array(hall.rows.map(encodeRow))))
        if !hall.areas.isEmpty { top.append(("areas", .array(hall.areas.map(encodeArea)))) }
        if !hall.groups.isEmpty {
            top.append(("groups", .array(hall.groups.map {
                .object([("id", .string($0.id)), ("seats", .array($0.seats.map { .string($0.description) }))])
            })))
        }
        return .object(top)
    }

    static func planNode(_ p: PlanMembers) -> JSONNode { JSONNode(.object(p.members)) }

    /// A coordinate as JSON: whole numbers without a fraction.
    static func num(_ v: Double) -> JSONNode {
        if v == v.rounded(), abs(v) < 1e15 { return .int(Int(v)) }
        return .number("\(v)")
    }

    static func encodeSection(_ s: Section) -> JSONNode {
        var m: [(String, JSONNode)] = [("id", .int(s.id)), ("name", .string(s.name))]
        if let z = s.place {
            m += [("x", num(z.x)), ("y", num(z.y))]
            if z.rotation != 0 { m.append(("rotation", num(z.rotation))) }
            if z.level != 0 { m.append(("level", .int(z.level))) }
            if z.outline { m.append(("outline", .bool(true))) }
            if z.showName { m.append(("showName", .bool(true))) }
        }
        if let e = s.externalID { m.append(("externalId", .string(e))) }
        if let p = s.pretix { m.append(("pretix", planNode(p))) }
        return .object(m)
    }

    static func encodeRow(_ row: Row) -> JSONNode {
        var m: [(String, JSONNode)] = [("row", .int(row.number))]
        if row.label != String(row.number) { m.append(("label", .string(row.label))) }
        if row.section != 1 { m.append(("section", .int(row.section))) }
        if let p = row.price { m.append(("price", .number(p.plainText))) }
        switch row.path {
        case .arc(let cx, let cy, let r, let a0, let a1, let facing)?:
            var a: [(String, JSONNode)] = [("cx", num(cx)), ("cy", num(cy)), ("radius", num(r)), ("start", num(a0)), ("end", num(a1))]
            if !facing { a.append(("facing", .bool(false))) }
            m.append(("arc", .object(a)))
        case .line(let x, let y, let angle, let spacing)?:
            var a: [(String, JSONNode)] = [("x", num(x)), ("y", num(y)), ("angle", num(angle))]
            if let d = spacing { a.append(("spacing", num(d))) }
            m.append(("line", .object(a)))
        case nil: break
        }
        let free = row.path != nil || row.seats.contains { $0.place != nil }
        if free && row.labelPosition != .start { m.append(("labels", .string(row.labelPosition.rawValue))) }
        if let o = row.origin { m.append(("origin", .object([("x", num(o.x)), ("y", num(o.y))]))) }
        if let p = row.pretix { m.append(("pretix", planNode(p))) }
        m.append(("seats", .array(row.seats.map { encodeSeat($0, onPath: row.path != nil) })))
        return .object(m)
    }

    static func encodeSeat(_ seat: Seat, onPath: Bool) -> JSONNode {
        var m: [(String, JSONNode)] = [("column", .int(seat.column)), ("status", .int(seat.kind.code))]
        if seat.label != String(seat.column) { m.append(("label", .string(seat.label))) }
        if let p = seat.price { m.append(("price", .number(p.plainText))) }
        if seat.type != .standard { m.append(("type", .string(seat.type.rawValue))) }
        if let p = seat.place {
            if !onPath { m += [("x", num(p.x)), ("y", num(p.y))] }
            switch p.shape {
            case .rect(let w, let h):
                if let w { m.append(("w", num(w))) }
                if let h { m.append(("h", num(h))) }
            case .circle(let r): m.append(("r", num(r)))
            }
            if p.rotation != 0 { m.append(("rotation", num(p.rotation))) }
        }
        if let id = seat.externalID { m.append(("id", .string(id))) }
        if let c = seat.category { m.append(("category", .string(c))) }
        if let p = seat.pretix { m.append(("pretix", planNode(p))) }
        return .object(m)
    }

    static func encodeArea(_ a: Area) -> JSONNode {
        var m: [(String, JSONNode)] = [("id", .string(a.id)), ("shape", .string(a.shape.name))]
        if let s = a.section { m.append(("section", .int(s))) }
        switch a.shape {
        case .rect(let x, let y, let w, let h): m += [("x", num(x)), ("y", num(y)), ("w", num(w)), ("h", num(h))]
        case .ellipse(let cx, let cy, let rx, let ry): m += [("cx", num(cx)), ("cy", num(cy)), ("rx", num(rx)), ("ry", num(ry))]
        case .circle(let cx, let cy, let r): m += [("cx", num(cx)), ("cy", num(cy)), ("r", num(r))]
        case .polygon(let ps): m.append(("points", .array(ps.map { .array([num($0.x), num($0.y)]) })))
        case .text(let x, let y, let size): m += [("x", num(x)), ("y", num(y)), ("size", num(size))]
        }
        if a.rotation != 0 { m.append(("rotation", num(a.rotation))) }
        if let f = a.fill { m.append(("fill", .string(f))) }
        if let b = a.border { m.append(("border", .string(b))) }
        if !a.label.isEmpty { m.append(("label", .string(a.label))) }
        if let p = a.labelAt { m.append(("labelAt", .object([("x", num(p.x)), ("y", num(p.y))]))) }
        if let s = a.labelSize { m.append(("labelSize", num(s))) }
        if let c = a.labelColor { m.append(("labelColor", .string(c))) }
        if let e = a.externalID { m.append(("externalId", .string(e))) }
        if let c = a.capacity { m.append(("capacity", .int(c))) }
        if let n = a.available { m.append(("available", .int(n))) }
        if let p = a.price { m.append(("price", .number(p.plainText))) }
        if let n = a.minPerOrder { m.append(("minPerOrder", .int(n))) }
        if let n = a.maxPerOrder { m.append(("maxPerOrder", .int(n))) }
        if let p = a.pretix { m.append(("pretix", planNode(p))) }
        return .object(m)
    }

    /// The hall as pretty JSON text ending in a newline.
    public static func encodeText(_ hall: Hall) -> String {
        JSONWriter.write(encode(hall))
    }
}
