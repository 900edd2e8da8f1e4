import Foundation
import SeatMapCore
import SeatMapLayout

extension SeatMapCLI {
    static let layoutCommand = Command(
        spec: CommandSpec(
            name: "layout", usage: "layout FILE [--theme T] [--zoom Z | --fit W,H] [--scale S] [--no-header] [--no-legend] [--json]",
            summary: "Integer pixel rects of every seat, row label and the screen.",
            options: geometryOptions + [.flag("json", "Print the layout as JSON.")],
            details: "The geometry flags are those of render, hit and apply: the same flags give the same layout."),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            let geometry = try geometry(args)
            let hall = try Files.readHall(file)
            let (layout, fitted) = try geometry.layout(hall)
            if let fitted, !args.flag("json") {
                console.out("fit: seats \(fmt(fitted.style.seatWidth)) pt wide, zoom \(fmt(fitted.zoom))")
            }
            if args.flag("json") {
                console.out(JSONWriter.write(layoutJSON(layout), pretty: false))
                return 0
            }
            console.out("\(layout.width)×\(layout.height) px at zoom \(fmt(layout.zoom)), scale \(fmt(layout.scale)); seat \(layout.seatWidth)×\(layout.seatHeight) px, gap \(layout.gapX) px, row pitch \(layout.pitchY) px")
            for s in layout.seats {
                console.out("\(s.id) \(layout.describe(s)) \(s.kind.name) x=\(s.rect.x) y=\(s.rect.y) w=\(s.rect.w) h=\(s.rect.h)")
            }
            return 0
        })

    static func fmt(_ v: Double) -> String { Arguments.format(v) }

    /// Beside an exact `price`: the hall's currency code and the price as
    /// the locale writes it (nothing for no price).
    static func priceMembers(_ price: Decimal?, _ l: Layout) -> [(String, JSONNode)] {
        guard let price else { return [] }
        return [("currency", .string(l.currency)), ("priceText", .string(l.money(price)))]
    }

    static func rectMembers(_ r: PixelRect) -> [(String, JSONNode)] {
        [("x", .int(r.x)), ("y", .int(r.y)), ("w", .int(r.w)), ("h", .int(r.h))]
    }

    static func layoutJSON(_ l: Layout) -> JSONNode {
        let seats: [JSONNode] = l.seats.map { s in
            .object([("id", .string(s.id.description)), ("row", .int(s.row)), ("column", .int(s.column)),
                     ("rowLabel", .string(s.rowLabel)), ("seatLabel", .string(s.seatLabel))]
                    + rectMembers(s.rect)
                    + [("status", .string(s.kind.name)), ("type", .string(s.type.rawValue)),
                       ("price", s.price.map { .string($0.plainText) } ?? .null)]
                    + priceMembers(s.price, l)
                    + shapeMembers(s))
        }
        let areas: [JSONNode] = l.areas.map { a in
            var m: [(String, JSONNode)] = [("id", .string(a.id)), ("shape", .string(a.area.shape.name)), ("label", .string(a.area.label))]
            m += rectMembers(a.rect)
            if let c = a.area.capacity {
                m += [("capacity", .int(c)), ("available", .int(a.area.remaining)), ("price", a.area.price.map { .string($0.plainText) } ?? .null)]
                m += priceMembers(a.area.price, l)
            }
            return .object(m)
        }
        let labels: [JSONNode] = l.rowLabels.map { r in
            .object([("row", .int(r.row)), ("label", .string(r.label))] + rectMembers(r.rect))
        }
        let sections: [JSONNode] = l.sections.map { s in
            .object([("id", .int(s.id)), ("name", .string(s.name))] + rectMembers(s.rect))
        }
        return .object([
            ("zoom", .number(fmt(l.zoom))), ("scale", .number(fmt(l.scale))),
            ("width", .int(l.width)), ("height", .int(l.height)),
            ("seatWidth", .int(l.seatWidth)), ("seatHeight", .int(l.seatHeight)),
            ("gapX", .int(l.gapX)), ("pitchY", .int(l.pitchY)),
            ("seats", .array(seats)), ("rowLabels", .array(labels)),
            ("screen", .object(rectMembers(l.screen) + [("centerX", .int(l.centerX))])),
            ("sections", .array(sections)),
        ] + (l.isFree ? [("areas", .array(areas))] : []))
    }

    /// A free seat's drawn shape beyond its bounding rect: its own box, and
    /// its turn or roundness (grid seats: nothing).
    static func shapeMembers(_ s: LaidOutCell) -> [(String, JSONNode)] {
        switch s.outline {
        case .box: return s.rect == s.seatRect ? [] : [("box", .object(rectMembers(s.seatRect)))]
        case .rotated(let a):
            return [("box", .object(rectMembers(s.seatRect))), ("rotation", .number(fmt((a * 180 / .pi * 1000).rounded() / 1000)))]
        case .circle: return [("box", .object(rectMembers(s.seatRect))), ("shape", .string("circle"))]
        }
    }

    static let hitCommand = Command(
        spec: CommandSpec(
            name: "hit",
            usage: "hit FILE [--theme T] [--zoom Z | --fit W,H] [--scale S] [--no-header] [--no-legend] [--offset X,Y] [--viewport W,H] [--slop P] (--point X,Y ... | --points-file F) [--json]",
            summary: "Which seat a tap lands on, for view points at a zoom and pan offset.",
            options: geometryOptions + [
                .value("offset", "X,Y", "Content offset in points, as UIScrollView.contentOffset (default 0,0)."),
                .value("viewport", "W,H", "Viewport size in points; taps outside it are reported as outside."),
                .value("slop", "P", "A tap on a gap within P points of a seat hits the nearest seat (default 0)."),
                .flag("pin-row-labels", "The view keeps its row labels at its edge (render --pin-row-labels): a tap on one answers rowLabel."),
                .values("point", "X,Y", "A tap in view points; repeat or list several."),
                .value("points-file", "F", "Read taps as X,Y lines from F (- for stdin)."),
                .flag("json", "Print a JSON array of results."),
            ],
            details: """
            Taps are answered for the picture render draws with the same geometry flags (theme, zoom or fit,
            scale, header, legend). Text output: one line per point, e.g. `120.5,88 -> 1-3-5 3排5座 available ¥45.00`,
            `-> aisle 3,7`, `-> gap`, `-> outside`, `-> rowLabel 3` (with --pin-row-labels). JSON: a seat gives id, row, column, label, status, partner,
            rowLabel, seatLabel, type, price (exact), currency, priceText (in the locale) and its rect {x, y, w, h}
            in content pixels. Descriptions and prices follow --locale (default: the hall's, else zh-Hans).
            """),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            let geometry = try geometry(args)
            let offset = try args.pair("offset") ?? (0, 0)
            let viewport = try args.pair("viewport")
            if let viewport, viewport.0 <= 0 || viewport.1 <= 0 {
                throw UsageError(message: "--viewport expects a positive width and height")
            }
            let slop = try args.double("slop", default: 0, in: 0...1000)
            if args.flag("pin-row-labels") && viewport == nil { throw UsageError(message: "--pin-row-labels goes with --viewport") }
            var points: [(String, ViewPoint)] = []
            for text in args.values["point"] ?? [] {
                let p = try Arguments.parsePair(text, option: "point")
                points.append((text, ViewPoint(p.0, p.1)))
            }
            if let f = args.value("points-file") {
                points += try readPoints(f)
            }
            if points.isEmpty { throw UsageError(message: "give taps with --point X,Y or --points-file F") }
            let hall = try Files.readHall(file)
            let layout = try geometry.layout(hall).layout
            let transform = ViewTransform(layout: layout, viewportWidth: viewport?.0, viewportHeight: viewport?.1,
                                          offsetX: offset.0, offsetY: offset.1)
            let tester = HitTester(layout: layout)
            var json: [JSONNode] = []
            var lines: [String] = []
            for (text, p) in points {
                var result = HitResult.outside
                let inViewport = viewport.map { p.x >= 0 && p.y >= 0 && p.x < $0.0 && p.y < $0.1 } ?? true
                if inViewport {
                    result = args.flag("pin-row-labels")
                        ? try tester.hit(p, transform, slop: slop, pinnedIn: transform.visiblePixels)
                        : try tester.hit(p, transform, slop: slop)
                }
                if args.flag("json") {
                    json.append(hitJSON(p, result, layout))
                } else {
                    lines.append("\(text) -> " + hitText(result, layout))
                }
            }
            console.out(args.flag("json") ? JSONWriter.write(.array(json), pretty: false) : lines.joined(separator: "\n"))
            return 0
        })

    static func readPoints(_ path: String) throws -> [(String, ViewPoint)] {
        try PointsFile.parse(Files.read(path)).map { ($0.text, ViewPoint($0.x, $0.y)) }
    }

    static func hitText(_ r: HitResult, _ l: Layout) -> String {
        switch r {
        case .seat(let s):
            return "\(s.id) \(l.describe(s)) \(s.kind.name) \(s.price.map(l.money) ?? "-")"
        case .aisle(let row, let column): return "aisle \(row),\(column)"
        case .area(let a):
            guard let cap = a.area.capacity else { return "area \(a.id)" }
            return "area \(a.id) standing \(a.area.remaining)/\(cap) \(a.area.price.map(l.money) ?? "-")"
        case .gap: return "gap"
        case .outside: return "outside"
        case .rowLabel(let r): return "rowLabel \(r.label)"
        }
    }

    static func hitJSON(_ p: ViewPoint, _ r: HitResult, _ l: Layout) -> JSONNode {
        var m: [(String, JSONNode)] = [("x", .number(fmt(p.x))), ("y", .number(fmt(p.y))), ("kind", .string(r.kind))]
        switch r {
        case .seat(let s):
            m += [("id", .string(s.id.description)), ("row", .int(s.row)), ("column", .int(s.column)),
                  ("label", .string(l.describe(s))), ("status", .string(s.kind.name)),
                  ("partner", s.partnerID.map { .string($0.description) } ?? .null),
                  ("rowLabel", .string(s.rowLabel)), ("seatLabel", .string(s.seatLabel)), ("type", .string(s.type.rawValue)),
                  ("price", s.price.map { .string($0.plainText) } ?? .null)] + priceMembers(s.price, l)
                + [("rect", .object(rectMembers(s.rect)))]
        case .aisle(let row, let column):
            m += [("id", .null), ("row", .int(row)), ("column", .int(column)), ("label", .null), ("status", .string("aisle")), ("partner", .null)]
        case .area(let a):
            m += [("id", .string(a.id)), ("row", .null), ("column", .null), ("label", .string(a.area.label)),
                  ("status", a.isStanding ? .string(a.area.remaining == 0 ? "sold" : "available") : .null), ("partner", .null),
                  ("rect", .object(rectMembers(a.rect)))]
            if let c = a.area.capacity {
                m += [("capacity", .int(c)), ("available", .int(a.area.remaining)), ("price", a.area.price.map { .string($0.plainText) } ?? .null)]
                m += priceMembers(a.area.price, l)
            }
        case .rowLabel(let r):
            m += [("id", .null), ("row", .int(r.row)), ("column", .null), ("label", .string(r.label)), ("status", .null), ("partner", .null),
                  ("rowLabel", .string(r.label)), ("rect", .object(rectMembers(r.pill)))]
        case .gap, .outside:
            m += [("id", .null), ("row", .null), ("column", .null), ("label", .null), ("status", .null), ("partner", .null)]
        }
        return .object(m)
    }
}
