import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

/// pretix's seating-plan schema (the newer form, with `shape` areas), its
/// rules written as checks: every object's keys, required keys, types and
/// enums. Returns one line per violation with its JSON path.
enum PretixSchema {
    static func problems(_ plan: JSONNode) -> [String] {
        var out: [String] = []
        func fail(_ path: String, _ what: String) { out.append("\(path): \(what)") }
        func object(_ n: JSONNode?, _ path: String, allowed: Set<String>, required: [String]) -> JSONNode? {
            guard let n else { return nil }
            guard case .object(let members) = n.value else { fail(path, "not an object"); return nil }
            for m in members where !allowed.contains(m.key) { fail(path + "." + m.key, "additional property") }
            for k in required where n[k] == nil { fail(path, "missing \(k)") }
            return n
        }
        func string(_ n: JSONNode?, _ path: String, nullable: Bool = false) {
            guard let n else { return }
            switch n.value {
            case .string: return
            case .null where nullable: return
            default: fail(path, "not a string")
            }
        }
        func number(_ n: JSONNode?, _ path: String) {
            guard let n else { return }
            guard case .number = n.value else { fail(path, "not a number"); return }
        }
        func integer(_ n: JSONNode?, _ path: String) {
            guard let n else { return }
            guard case .number(let t) = n.value, Int(t) != nil else { fail(path, "not an integer"); return }
        }
        func array(_ n: JSONNode?, _ path: String) -> [JSONNode] {
            guard let n else { return [] }
            guard case .array(let items) = n.value else { fail(path, "not an array"); return [] }
            return items
        }
        func position(_ n: JSONNode?, _ path: String) {
            guard let p = object(n, path, allowed: ["x", "y"], required: ["x", "y"]) else { return }
            number(p["x"], path + ".x")
            number(p["y"], path + ".y")
        }
        guard let root = object(plan, "", allowed: ["name", "zones", "categories", "size"],
                                required: ["zones", "name", "categories", "size"]) else { return out }
        string(root["name"], "name")
        if let size = object(root["size"], "size", allowed: ["width", "height"], required: ["width", "height"]) {
            integer(size["width"], "size.width")
            integer(size["height"], "size.height")
        }
        for (i, c) in array(root["categories"], "categories").enumerated() {
            let p = "categories[\(i)]"
            guard let c = object(c, p, allowed: ["name", "color"], required: ["name"]) else { continue }
            string(c["name"], p + ".name")
            string(c["color"], p + ".color")
        }
        for (i, z) in array(root["zones"], "zones").enumerated() {
            let zp = "zones[\(i)]"
            guard let z = object(z, zp, allowed: ["name", "zone_id", "uuid", "position", "rows", "areas"], required: ["position", "rows"]) else { continue }
            for k in ["name", "zone_id", "uuid"] { string(z[k], zp + "." + k) }
            position(z["position"], zp + ".position")
            for (r, row) in array(z["rows"], zp + ".rows").enumerated() {
                let rp = "\(zp).rows[\(r)]"
                guard let row = object(row, rp, allowed: ["row_number", "row_label", "seat_label", "uuid", "seats", "row_number_position", "position"],
                                       required: ["seats", "row_number"]) else { continue }
                string(row["row_number"], rp + ".row_number")
                string(row["row_label"], rp + ".row_label", nullable: true)
                string(row["seat_label"], rp + ".seat_label", nullable: true)
                string(row["uuid"], rp + ".uuid")
                if let n = row["row_number_position"] {
                    switch n.value {
                    case .null: break
                    case .string(let s) where ["start", "end", "both"].contains(s): break
                    default: fail(rp + ".row_number_position", "not one of start, end, both, null")
                    }
                }
                position(row["position"], rp + ".position")
                for (s, seat) in array(row["seats"], rp + ".seats").enumerated() {
                    let sp = "\(rp).seats[\(s)]"
                    guard let seat = object(seat, sp, allowed: ["seat_guid", "seat_number", "uuid", "start_direction", "radius", "position", "category"],
                                            required: ["seat_guid", "seat_number", "position", "category"]) else { continue }
                    for k in ["seat_guid", "seat_number", "uuid", "category"] { string(seat[k], sp + "." + k) }
                    string(seat["start_direction"], sp + ".start_direction", nullable: true)
                    integer(seat["radius"], sp + ".radius")
                    position(seat["position"], sp + ".position")
                }
            }
            for (a, area) in array(z["areas"], zp + ".areas").enumerated() {
                let ap = "\(zp).areas[\(a)]"
                guard let area = object(area, ap, allowed: ["color", "border_color", "rotation", "position", "uuid", "shape", "polygon", "rectangle",
                                                            "ellipse", "circle", "text"], required: []) else { continue }
                for k in ["color", "border_color", "uuid"] { string(area[k], ap + "." + k) }
                number(area["rotation"], ap + ".rotation")
                position(area["position"], ap + ".position")
                if let n = area["shape"] {
                    guard case .string(let s) = n.value, ["polygon", "rectangle", "ellipse", "circle", "text"].contains(s) else {
                        fail(ap + ".shape", "not one of polygon, rectangle, ellipse, circle, text")
                        continue
                    }
                }
                if let pg = object(area["polygon"], ap + ".polygon", allowed: ["points"], required: ["points"]) {
                    for (k, p) in array(pg["points"], ap + ".polygon.points").enumerated() { position(p, "\(ap).polygon.points[\(k)]") }
                }
                if let r = object(area["rectangle"], ap + ".rectangle", allowed: ["width", "height"], required: ["width", "height"]) {
                    integer(r["width"], ap + ".rectangle.width")
                    integer(r["height"], ap + ".rectangle.height")
                }
                if let e = object(area["ellipse"], ap + ".ellipse", allowed: ["radius"], required: ["radius"]) {
                    position(e["radius"], ap + ".ellipse.radius")
                }
                if let c = object(area["circle"], ap + ".circle", allowed: ["radius"], required: ["radius"]) {
                    integer(c["radius"], ap + ".circle.radius")
                }
                if let t = object(area["text"], ap + ".text", allowed: ["text", "color", "size", "position"], required: ["text", "position"]) {
                    string(t["text"], ap + ".text.text")
                    string(t["color"], ap + ".text.color")
                    integer(t["size"], ap + ".text.size")
                    position(t["position"], ap + ".text.position")
                }
            }
        }
        return out
    }
}

@Suite("pretix import and export")
struct PretixTests {
    static func fixture(_ name: String) throws -> SourceText {
        let path = Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/\(name)").path
        return SourceText(name: name, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func request(_ values: [String: String]) -> ImportRequest { ImportRequest(values: values) }

    static func export(_ hall: Hall) -> JSONNode {
        let s = LayoutStyle()
        return PretixExporter.plan(hall, pitch: s.seatWidth + s.gapX, rowPitch: s.seatHeight + s.rowGap, seatSize: (s.seatWidth, s.seatHeight))
    }

    static func reimport(_ plan: JSONNode, _ values: [String: String]) throws -> ImportedHall {
        try PretixImporter().importHall(SourceText(name: "export.json", bytes: Array(JSONWriter.write(plan).utf8)), request(values))
    }

    /// Seats in plan order: (label, centre, category, price, external id).
    static func seats(_ hall: Hall) -> [(String, Point, String?, Decimal?, String?)] {
        let resolved = VenueGeometry.seats(of: hall, pitch: 36)
        var out: [(String, Point, String?, Decimal?, String?)] = []
        for (r, row) in hall.rows.enumerated() {
            for (j, seat) in row.seats.enumerated() where seat.isSeat {
                out.append((seat.label, resolved[r][j].centre, seat.category, seat.price ?? row.price, seat.externalID))
            }
        }
        return out
    }

    @Test("the pretix fixtures import, render, export to schema-valid plans and re-import to the same hall",
          arguments: [("pretix-test-sample-plan.json", ["price": "12"], 2),
                      ("pretix-screenshots-plan-en.json",
                       ["prices": "Parkett vorne=45,Parkett mitte=38,Parkett hinten=30,Balkon vorne=28,Balkon hinten=22"], 1057)])
    func fixtures(name: String, prices: [String: String], seats: Int) throws {
        let imported = try PretixImporter().importHall(try PretixTests.fixture(name), PretixTests.request(prices))
        let hall = imported.hall
        #expect(HallSummary(hall).seats == seats)
        #expect(hall.isFree)
        // The fixture is itself valid against the schema's rules.
        #expect(PretixSchema.problems(try JSONParser.parse(try PretixTests.fixture(name).bytes)).isEmpty)
        // It renders: every seat is drawn where the layout says, in its category's colour.
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1)
        let image = try Renderer.raster(scene)
        #expect(image.width == scene.layout.width && scene.layout.seats.count == seats)
        for cell in scene.layout.seats.prefix(50) {
            let tier = try #require(cell.tier)
            guard let hex = scene.layout.tiers.colors[tier] else { continue }
            let c = try #require(Color(hex: hex))
            let p = try #require(image.pixel(Int(cell.seatRect.centerX), Int(cell.seatRect.centerY) - cell.seatRect.h / 3))
            for (shift, v) in [(16, c.r), (8, c.g), (0, c.b)] {
                #expect(abs(Int((p >> UInt32(shift)) & 0xFF) - Int((v * 255).rounded())) <= 2, "\(cell.id) drawn in its category colour")
            }
        }
        // Export → schema-valid → import gives the same hall.
        let plan = PretixTests.export(hall)
        #expect(PretixSchema.problems(plan) == [])
        let again = try PretixTests.reimport(plan, prices)
        #expect(again.hall == hall)
        // Lossless: the export of the import is the original plan, as parsed data.
        let original = try JSONParser.parse(try PretixTests.fixture(name).bytes)
        #expect(PretixTests.canonical(plan) == PretixTests.canonical(original),
                "\(PretixTests.firstDifference(plan, original) ?? "")")
        // And through the hall file too.
        let file = try HallFormat.decode(SourceText(name: "h.json", bytes: Array(HallFormat.encodeText(hall).utf8))).hall
        #expect(file == hall && PretixTests.canonical(PretixTests.export(file)) == PretixTests.canonical(original))
    }

    /// A plan using every member pretix's newer schema knows, with values
    /// off its defaults, and keys no schema knows at every level.
    static let everyMember = """
    {"name": "Every member", "size": {"width": 900, "height": 700}, "x-editor": {"version": 3, "grid": [1, 2.50]},
     "categories": [{"name": "Front", "color": "#eee", "x-sku": "F-1"}, {"name": "Back", "color": "Red"}, {"name": "Glass", "color": "transparent"}],
     "zones": [{"name": "Stalls", "zone_id": "stalls-7", "uuid": "z-uuid-1", "displayed": false, "position": {"x": 10.5, "y": 20},
       "x-zone": null,
       "rows": [
         {"row_number": "7", "row_label": "Row %s", "seat_label": "G%s", "uuid": "r-uuid-1", "row_number_position": "both",
          "number_of_seats": 3, "seats_spacing": 25, "position": {"x": 100, "y": 200}, "x-row": [true, false],
          "seats": [{"seat_guid": "g-1", "seat_number": "9", "uuid": "s-uuid-1", "start_direction": "left", "radius": 10,
                     "position": {"x": 0, "y": 0}, "category": "Front", "x-seat": {"a": 1}},
                    {"seat_guid": "g-2", "seat_number": "10", "uuid": "s-uuid-2", "radius": 9.5, "position": {"x": 25.25, "y": -0.5}, "category": "Back"},
                    {"seat_guid": "g-3", "seat_number": "11", "position": {"x": 50, "y": 0}, "category": ""}]},
         {"row_number": "8", "row_number_position": null, "position": {"x": 100, "y": 240},
          "seats": [{"seat_guid": "g-4", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "Glass"}]}],
       "areas": [
         {"uuid": "a-stage", "shape": "rectangle", "rectangle": {"width": 300.5, "height": 60}, "position": {"x": 50, "y": 30}, "rotation": 12.5,
          "color": "#B1B0B0", "border_color": "navy", "text": {"text": "S T A G E", "position": {"x": 150, "y": 30}, "size": 48, "color": "#333"},
          "x-area": "kept"},
         {"uuid": "a-bar", "shape": "ellipse", "ellipse": {"radius": {"x": 40, "y": 20.5}}, "position": {"x": 600, "y": 400}, "rotation": 30,
          "color": "#12345678"},
         {"uuid": "a-pillar", "shape": "circle", "circle": {"radius": 7.5}, "position": {"x": 700, "y": 100}, "color": "black"},
         {"uuid": "a-poly", "shape": "polygon", "position": {"x": 300, "y": 500}, "rotation": 15, "color": "#0a0",
          "polygon": {"points": [{"x": 10, "y": 0}, {"x": 60, "y": 0}, {"x": 35, "y": 40}]}},
         {"uuid": "a-exit", "shape": "text", "position": {"x": 800, "y": 300}, "rotation": -90,
          "text": {"text": "Exit", "position": {"x": 10, "y": 5}, "size": 20, "color": "#c00"}}]}]}
    """

    @Test("every member pretix's newer schema knows, and keys it does not, survive import → export (and the hall file) as written")
    func everyMemberRoundTrip() throws {
        let source = SourceText(name: "every.json", bytes: Array(Self.everyMember.utf8))
        let imported = try PretixImporter().importHall(source, Self.request(["price": "10"]))
        let hall = imported.hall
        // Templates applied for drawing, the numbers kept for export.
        #expect(hall.rows.first?.label == "Row 7" && hall.rows.first?.seats.map(\.label) == ["G9", "G10", "G11"])
        #expect(imported.warnings.contains { $0.message.contains("unknown key \"x-seat\" (kept as written for export)") })
        let original = try JSONParser.parse(source.bytes)
        let plan = Self.export(hall)
        #expect(Self.canonical(plan) == Self.canonical(original), "\(Self.firstDifference(plan, original) ?? "")")
        let file = try HallFormat.decode(SourceText(name: "h.json", bytes: Array(HallFormat.encodeText(hall).utf8))).hall
        #expect(file == hall)
        let again = Self.export(file)
        #expect(Self.canonical(again) == Self.canonical(original), "\(Self.firstDifference(again, original) ?? "")")
        // A label changed in the hall is written whole, and the template no longer claims it.
        var text = HallFormat.encodeText(hall)
        text = text.replacingOccurrences(of: "\"label\" : \"G10\"", with: "\"label\" : \"VIP\"")
            .replacingOccurrences(of: "\"label\": \"G10\"", with: "\"label\": \"VIP\"")
        let edited = try HallFormat.decode(SourceText(name: "e.json", bytes: Array(text.utf8))).hall
        #expect(edited.rows.first?.seats.map(\.label) == ["G9", "VIP", "G11"], "\(text.prefix(600))")
        let back = try Self.reimport(Self.export(edited), ["price": "10"]).hall
        #expect(back.rows.first?.seats.map(\.label) == ["G9", "VIP", "G11"])
        // An area moved in the hall is written where it now is (not as the plan had it), keeping its unknown keys.
        let moved = text.replacingOccurrences(of: "\"cx\" : 700", with: "\"cx\" : 710").replacingOccurrences(of: "\"cx\": 700", with: "\"cx\": 710")
        let movedHall = try HallFormat.decode(SourceText(name: "m.json", bytes: Array(moved.utf8))).hall
        let pillar = try #require(movedHall.areas.first { $0.id == "a-pillar" })
        #expect(pillar.shape == .circle(cx: 710, cy: 100, r: 7.5), "\(pillar.shape)")
        let movedPlan = Self.export(movedHall)
        #expect(JSONWriter.write(movedPlan, pretty: false).contains("\"x\":710"))
        #expect(try Self.reimport(movedPlan, ["price": "10"]).hall.areas.first { $0.externalID == "a-pillar" }?.shape == .circle(cx: 710, cy: 100, r: 7.5))
    }

    /// JSON as data: objects by sorted keys, numbers by value.
    static func canonical(_ n: JSONNode) -> String {
        switch n.value {
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key):\(canonical($0.node))" }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
        case .number(let t): return Double(t).map { "\($0)" } ?? t
        case .string(let t): return "\"\(t)\""
        case .bool(let b): return "\(b)"
        case .null: return "null"
        }
    }

    /// Where two JSON documents first differ as data (a path), for messages.
    static func firstDifference(_ a: JSONNode, _ b: JSONNode, _ path: String = "") -> String? {
        switch (a.value, b.value) {
        case (.object(let x), .object(let y)):
            let keys = Set(x.map(\.key)).union(y.map(\.key)).sorted()
            for k in keys {
                guard let u = x.first(where: { $0.key == k }), let v = y.first(where: { $0.key == k }) else { return "\(path).\(k): only in one" }
                if let d = firstDifference(u.node, v.node, "\(path).\(k)") { return d }
            }
            return nil
        case (.array(let x), .array(let y)):
            if x.count != y.count { return "\(path): \(x.count) vs \(y.count) items" }
            for (i, (u, v)) in zip(x, y).enumerated() { if let d = firstDifference(u, v, "\(path)[\(i)]") { return d } }
            return nil
        default:
            return canonical(a) == canonical(b) ? nil : "\(path): \(canonical(a)) vs \(canonical(b))"
        }
    }

    @Test("duplicate seat_guids are imported, kept as external ids, said once with a count, and name the first seat; split rows stay separate rows")
    func duplicates() throws {
        let imported = try PretixImporter().importHall(try PretixTests.fixture("pretix-screenshots-plan-en.json"),
                                                       PretixTests.request(["price": "10"]))
        let guids = PretixTests.seats(imported.hall).compactMap(\.4)
        let repeated = Dictionary(grouping: guids, by: { $0 }).filter { $0.value.count > 1 }
        #expect(!repeated.isEmpty)
        let warned = imported.warnings.filter { $0.message.contains("seat_guid") }
        #expect(warned.count == 1)
        let seatsInAll = repeated.values.reduce(0) { $0 + $1.count }
        #expect(warned.first?.message.contains("\(repeated.count) seat_guids are used by more than one seat (\(seatsInAll) seats)") == true,
                "\(warned.map(\.message))")
        // SeatMap's own ids are unique; a guid names the first seat that has it.
        let ids = imported.hall.cells.map(\.id)
        #expect(Set(ids).count == ids.count)
        let cells = imported.hall.cells.filter(\.seat.isSeat)
        for (guid, _) in repeated {
            let first = cells.first { $0.seat.externalID == guid }
            #expect(first != nil && imported.hall.seatID(named: guid) == first?.id)
        }
        // A unique guid names its seat; a SeatMap id names itself; other text is no seat of the hall.
        let unique = try #require(cells.first { c in repeated[c.seat.externalID ?? ""] == nil && c.seat.externalID != nil })
        #expect(imported.hall.seatID(named: unique.seat.externalID!) == unique.id)
        #expect(imported.hall.seatID(named: unique.id.description) == unique.id)
        #expect(imported.hall.seatID(named: "no-such-guid") == nil)
    }

    static let everyForm = """
    {"name": "Every form", "size": {"width": 800, "height": 600},
     "categories": [{"name": "A", "color": "#112233"}, {"name": "B", "color": "rebeccapurple"}],
     "zones": [
      {"zone_id": "main", "position": {"x": 100.5, "y": -20},
       "rows": [
        {"row_number": "3", "row_label": "Row %s", "seat_label": "Seat %s", "row_number_position": "both", "position": {"x": 10, "y": 50},
         "seats": [{"seat_guid": "g1", "seat_number": "1", "position": {"x": -5.25, "y": 0}, "category": "A", "radius": 7},
                   {"seat_guid": "g2", "seat_number": "2", "position": {"x": 20, "y": 1.5}, "category": ""},
                   {"seat_guid": "g3", "seat_number": "3", "position": {"x": 45, "y": 0}, "category": "B", "start_direction": ">"}]},
        {"row_number": "3", "row_number_position": null, "seats": [{"seat_guid": "g4", "seat_number": "9", "position": {"x": 300, "y": 50}, "category": "A"}]},
        {"row_number": "4", "row_number_position": "end", "seats": [{"seat_guid": "g5", "seat_number": "1", "position": {"x": 0, "y": 90}, "category": "A"}]}
       ],
       "areas": [
        {"color": "#eeeeee", "width": 100, "height": 40, "position": {"x": 0, "y": -60}, "text": "OLD STAGE"},
        {"uuid": "r", "shape": "rectangle", "rectangle": {"width": 60, "height": 20}, "position": {"x": 200, "y": 0}, "rotation": 90,
         "text": {"text": "BAR", "position": {"x": 30, "y": 10}}},
        {"uuid": "e", "shape": "ellipse", "ellipse": {"radius": {"x": 30, "y": 10}}, "position": {"x": 300, "y": 100}, "rotation": 45, "border_color": "#000"},
        {"uuid": "c", "shape": "circle", "circle": {"radius": 15}, "position": {"x": 350, "y": 150}, "color": "transparent"},
        {"uuid": "p", "shape": "polygon", "polygon": {"points": [{"x": 0, "y": 0}, {"x": 40, "y": 0}, {"x": 20, "y": 30}]}, "position": {"x": 400, "y": 0}, "rotation": 180},
        {"uuid": "t", "shape": "text", "text": {"text": "EXIT", "position": {"x": 5, "y": 5}, "size": 12, "color": "#ff0000"}, "position": {"x": 10, "y": 200}},
        {"uuid": "bad", "shape": "polygon", "polygon": {"points": [{"x": 0, "y": 0}]}, "position": {"x": 0, "y": 0}}
       ]},
      {"position": {"x": 0, "y": 400}, "rows": []}
     ]}
    """

    @Test("every area form and row and seat field the schema allows is read")
    func everyForm() throws {
        let imported = try PretixImporter().importHall(SourceText(name: "forms.json", bytes: Array(PretixTests.everyForm.utf8)),
                                                       PretixTests.request(["price": "5", "prices": "A=20"]))
        let hall = imported.hall
        // Zones: named by zone_id, else "Zone k"; placed at their positions.
        #expect(hall.sections.map(\.name) == ["main", "Zone 2"])
        #expect(hall.sections[0].place == ZonePlace(x: 100.5, y: -20))
        // Rows: numbered through the plan; labels from the template; a repeated row_number stays its own row.
        #expect(hall.rows.map(\.number) == [1, 2, 3])
        #expect(hall.rows.map(\.label) == ["Row 3", "3", "4"])
        #expect(hall.rows.map(\.labelPosition) == [.both, .none, .end])
        // Seats: zone + row + seat positions, radius (default 10), template labels, categories and prices.
        let seats = PretixTests.seats(hall)
        #expect(seats.map(\.0) == ["Seat 1", "Seat 2", "Seat 3", "9", "1"])
        #expect(seats[0].1 == Point(x: 100.5 + 10 - 5.25, y: -20 + 50))
        #expect(seats[1].1 == Point(x: 130.5, y: 31.5))
        #expect(hall.rows[0].seats.map { $0.place?.shape } == [.circle(r: 7), .circle(r: 10), .circle(r: 10)])
        #expect(seats.map(\.2) == ["A", nil, "B", "A", "A"])
        #expect(seats.map(\.3) == [20, 5, 5, 20, 20])
        // Categories: prices from --prices, else --price; a CSS colour name kept as written.
        #expect(hall.categories == [SeatCategory(name: "A", price: 20, color: "#112233"), SeatCategory(name: "B", price: 5, color: "rebeccapurple")])
        #expect(!imported.warnings.contains { $0.message.contains("rebeccapurple") })
        // Areas: both forms, each shape; the degenerate polygon skipped with a warning.
        let areas = hall.areas
        #expect(areas.map(\.id) == ["z1-a1", "r", "e", "c", "p", "t"])
        #expect(imported.warnings.contains { $0.path.hasSuffix("areas[6]") && $0.message.contains("skipped") })
        #expect(areas[0].shape == .rect(x: 0, y: -60, w: 100, h: 40) && areas[0].label == "OLD STAGE" && areas[0].fill == "#eeeeee")
        // A rectangle turned 90° about its top-left corner (200, 0): its centre is at (190, 30).
        guard case .rect(let x, let y, let w, let h) = areas[1].shape else { Issue.record("not a rect"); return }
        #expect(abs(x + w / 2 - 190) < 1e-9 && abs(y + h / 2 - 30) < 1e-9 && areas[1].rotation == 90)
        #expect(areas[1].labelAt == nil, "a label at the centre is the default")
        #expect(areas[2].shape == .ellipse(cx: 300, cy: 100, rx: 30, ry: 10) && areas[2].rotation == 45 && areas[2].border == "#000")
        #expect(areas[3].shape == .circle(cx: 350, cy: 150, r: 15) && areas[3].fill == "transparent")
        // A polygon turned 180° about its position.
        guard case .polygon(let pts) = areas[4].shape else { Issue.record("not a polygon"); return }
        #expect(pts.map { Point(x: $0.x.rounded(), y: $0.y.rounded()) } == [Point(x: 400, y: 0), Point(x: 360, y: 0), Point(x: 380, y: -30)])
        #expect(areas[5].shape == .text(x: 15, y: 205, size: 12) && areas[5].label == "EXIT" && areas[5].fill == "#ff0000")
        // It draws, and exports to a valid plan that reads back to the same hall.
        _ = try Renderer.raster(try Scene(hall: hall, theme: try Theme.search("dark"), zoom: 1.37, scale: 2))
        let plan = PretixTests.export(hall)
        #expect(PretixSchema.problems(plan) == [])
        let again = try PretixTests.reimport(plan, ["price": "5", "prices": "A=20"]).hall
        #expect(PretixTests.seats(again).map(\.0) == seats.map(\.0))
        for (a, b) in zip(PretixTests.seats(again), seats) {
            // A seat without a category is written with one per price ("Price 5": the schema requires one).
            let category = a.2 == b.2 || (b.2 == nil && a.2 == "Price \(b.3?.plainText ?? "")")
            #expect(abs(a.1.x - b.1.x) < 1e-9 && abs(a.1.y - b.1.y) < 1e-9 && category && a.3 == b.3, "\(a.0)")
        }
        #expect(again.areas.count == areas.count)
    }

    @Test("the free examples export to schema-valid plans that import back to the same seats, positions and categories",
          arguments: Fixtures.freeExampleNames)
    func examples(name: String) throws {
        let hall = try Fixtures.example(name)
        let plan = PretixTests.export(hall)
        #expect(PretixSchema.problems(plan) == [])
        // A seat of a category is priced by its category's name, one without by "Price P".
        let prices = Set(PretixTests.seats(hall).compactMap { s in s.3.map { "\(s.2 ?? "Price \($0.plainText)")=\($0.plainText)" } })
            .sorted().joined(separator: ",")
        let imported = try PretixTests.reimport(plan, ["prices": prices])
        let again = imported.hall
        // Every seat inside the plan's canvas: a venue drawn about its centre is moved in whole.
        #expect(!imported.warnings.contains { $0.message.contains("outside the plan's size") }, "\(name): \(imported.warnings)")
        let before = PretixTests.seats(hall), after = PretixTests.seats(again)
        #expect(before.count == after.count)
        // The same places up to that one move.
        let dx = (after.first?.1.x ?? 0) - (before.first?.1.x ?? 0), dy = (after.first?.1.y ?? 0) - (before.first?.1.y ?? 0)
        for (a, b) in zip(before, after) {
            #expect(a.0 == b.0 && abs(a.1.x + dx - b.1.x) < 1e-9 && abs(a.1.y + dy - b.1.y) < 1e-9 && a.3 == b.3, "\(name): \(a.0)")
        }
        let size = try #require(again.planSize)
        for (_, p, _, _, _) in after { #expect(p.x > 0 && p.y > 0 && p.x < size.width && p.y < size.height, "\(name): \(p) outside \(size)") }
        #expect(again.areas.count == hall.areas.count)
    }

    @Test("a category without a price, or a price for a category the plan lacks, is an error naming it")
    func priceErrors() throws {
        let source = try PretixTests.fixture("pretix-screenshots-plan-en.json")
        do {
            _ = try PretixImporter().importHall(source, PretixTests.request(["prices": "Parkett vorne=45"]))
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("no price for category \"Parkett mitte\""))
            // Where the first such seat names its category, not the top of the file.
            #expect(!error.description.contains("(line 1, column 1)"), "\(error.description)")
        }
        do {
            _ = try PretixImporter().importHall(source, PretixTests.request(["prices": "Gallery=10", "price": "5"]))
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("\"Gallery\""))
        }
        let bad = SourceText(name: "bad.json", bytes: Array(#"{"name": "x", "categories": [], "zones": [{"position": {"x": "a", "y": 0}, "rows": 3}]}"#.utf8))
        do {
            _ = try PretixImporter().importHall(bad, PretixTests.request(["price": "5"]))
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("zones[0].position.x") && error.description.contains("zones[0].rows"))
        }
    }
}
