import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapService

extension SeatMapCLI {
    static let layoutCommand = Command(
        spec: CommandSpec(
            name: "layout", usage: "layout FILE [--theme T] [--zoom Z | --fit W,H] [--scale S] [--no-header] [--no-legend] [--json]",
            summary: "Integer pixel rects of every seat, row label and the screen.",
            options: GeometryOptions.table + ShowInput.options + [.flag("json", "Print the layout as JSON.")],
            details: "The geometry flags are those of render, hit and apply: the same flags give the same layout."),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            let geometry = try GeometryOptions(args)
            let hall = try ShowInput.hall(file, args).hall
            let (layout, fitted) = try geometry.layout(for: hall)
            if let fitted, !args.flag("json") {
                console.out("fit: seats \(Arguments.format(fitted.style.seatWidth)) pt wide, zoom \(Arguments.format(fitted.zoom))")
            }
            if args.flag("json") {
                console.out(JSONWriter.write(ResultJSON.layoutJSON(layout), pretty: false))
                return 0
            }
            let size = "\(layout.width)×\(layout.height) px at zoom \(Arguments.format(layout.zoom)), scale \(Arguments.format(layout.scale))"
            // A free venue's seats have their own sizes and places: no grid pitch to report.
            console.out(layout.isFree ? size + "; free venue: \(layout.cells.filter(\.isSeat).count) seats at their own positions, \(layout.areas.count) areas"
                        : size + "; seat \(layout.seatWidth)×\(layout.seatHeight) px, gap \(layout.gapX) px, row pitch \(layout.pitchY) px")
            for s in layout.seats {
                console.out("\(s.id) \(layout.describe(s)) \(s.kind.name) x=\(s.rect.x) y=\(s.rect.y) w=\(s.rect.w) h=\(s.rect.h)")
            }
            return 0
        })

    static let hitCommand = Command(
        spec: CommandSpec(
            name: "hit",
            usage: "hit FILE [--theme T] [--zoom Z | --fit W,H] [--scale S] [--no-header] [--no-legend] [--offset X,Y] [--viewport W,H] [--slop P] (--point X,Y ... | --points-file F) [--json]",
            summary: "Which seat a tap lands on, for view points at a zoom and pan offset.",
            options: GeometryOptions.table + HitQuery.options + ShowInput.options + [
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
            var points: [(String, ViewPoint)] = []
            for text in args.values["point"] ?? [] {
                let p = try Arguments.parsePair(text, input: args.say("point"))
                points.append((text, ViewPoint(p.0, p.1)))
            }
            if let f = args.value("points-file") {
                points += try readPoints(f)
            }
            if points.isEmpty { throw UsageError(message: "give taps with --point X,Y or --points-file F") }
            let view = try ShowInput.hall(file, args)
            let (layout, results) = try HitQuery.hit(view.hall, args, points: points.map(\.1))
            var json: [JSONNode] = []
            var lines: [String] = []
            for ((text, p), result) in zip(points, results) {
                if args.flag("json") {
                    json.append(ResultJSON.hitJSON(p, result, layout, statuses: view.statuses))
                } else {
                    lines.append("\(text) -> " + ResultJSON.hitText(result, layout, statuses: view.statuses))
                }
            }
            console.out(args.flag("json") ? JSONWriter.write(.array(json), pretty: false) : lines.joined(separator: "\n"))
            return 0
        })

    static func readPoints(_ path: String) throws -> [(String, ViewPoint)] {
        try PointsFile.parse(Files.read(path)).map { ($0.text, ViewPoint($0.x, $0.y)) }
    }

}
