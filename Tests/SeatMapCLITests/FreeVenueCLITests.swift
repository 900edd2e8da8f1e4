import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestClients
import SeatMapTestSupport

@Suite("CLI: free venues")
struct FreeVenueCLITests {
    static func json(_ text: String) throws -> JSONNode { try JSONParser.parse(Array(text.utf8)) }

    @Test("hit names an area with its standing places, and a turned seat by its centre")
    func hitAreas() throws {
        let file = Fixtures.examplePath("arena-blocks.json")
        let layout = try FreeVenueCLITests.json(seatmap("layout", file, "--json", "--zoom", "1.37", "--scale", "3").out)
        guard case .array(let areas)? = layout["areas"]?.value,
              let floor = areas.first(where: { $0["id"] == .string("floor") }),
              case .number(let x)? = floor["x"]?.value, case .number(let y)? = floor["y"]?.value,
              case .number(let w)? = floor["w"]?.value, case .number(let h)? = floor["h"]?.value,
              let fx = Double(x), let fy = Double(y), let fw = Double(w), let fh = Double(h) else {
            Issue.record("no floor area in layout --json")
            return
        }
        let point = "\((fx + fw / 2) / 3),\((fy + fh / 2) / 3)"
        let run = seatmap("hit", file, "--zoom", "1.37", "--scale", "3", "--point", point, "--json")
        #expect(run.code == 0)
        let hit = try FreeVenueCLITests.json(run.out)
        guard case .array(let results) = hit.value, let first = results.first else { Issue.record("no result"); return }
        #expect(first["kind"] == .string("area") && first["id"] == .string("floor"))
        #expect(first["capacity"] == .int(800) && first["available"] == .int(312) && first["price"] == .string("380"))
        // A turned seat: its box's centre hits it.
        guard case .array(let seats)? = layout["seats"]?.value,
              let seat = seats.first(where: { $0["rotation"] != nil }),
              case .string(let id)? = seat["id"]?.value,
              case .object? = seat["box"]?.value, let box = seat["box"],
              case .number(let bx)? = box["x"]?.value, case .number(let by)? = box["y"]?.value,
              case .number(let bw)? = box["w"]?.value, case .number(let bh)? = box["h"]?.value,
              let x0 = Double(bx), let y0 = Double(by), let w0 = Double(bw), let h0 = Double(bh) else {
            Issue.record("no turned seat in layout --json")
            return
        }
        let centre = "\((x0 + w0 / 2) / 3),\((y0 + h0 / 2) / 3)"
        #expect(seatmap("hit", file, "--zoom", "1.37", "--scale", "3", "--point", centre).out.hasPrefix("\(centre) -> \(id) "))
    }

    @Test("select --area takes standing places within what is left and maxSelectCount; bad --area is a usage error")
    func selectArea() throws {
        let file = Fixtures.examplePath("arena-blocks.json")
        let run = seatmap("select", file, "--area", "floor=3", "--toggle", "2-7-1", "--json")
        #expect(run.code == 0, "\(run.err)")
        let out = try FreeVenueCLITests.json(run.out)
        #expect(out["total"] == .string("1420"))  // 3 × 380 + 280
        #expect(out["standing"] == .object([("floor", .int(3))]))
        #expect(seatmap("select", file, "--area", "floor=9").out.contains("floor=9: reachLimit"))
        #expect(seatmap("select", file, "--area", "floor=313").out.contains("notAvailable"))
        #expect(seatmap("select", file, "--area", "stage=1").out.contains("noSuchArea"))
        #expect(seatmap("select", file, "--area", "floor").code == 2)
    }

    @Test("a status batch sets a standing area's places; render --level draws one level; validate warns about overlaps")
    func batchesLevelsOverlaps() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"floor","available":0}]}"#, to: "u.json", in: dir)
        let out = dir.appendingPathComponent("new.json").path
        let apply = seatmap("apply", Fixtures.examplePath("arena-blocks.json"), updates, "-o", out, "--json")
        #expect(apply.code == 0, "\(apply.err)")
        #expect(apply.out.contains(#""areas":["floor"]"#))
        let hall = try Files.readHall(out)
        #expect(hall.area(id: "floor")?.remaining == 0)
        let bad = try Fixtures.write(#"{"batchId":"b","sequence":2,"changes":[{"id":"floor","available":900}]}"#, to: "b.json", in: dir)
        let rejected = seatmap("apply", Fixtures.examplePath("arena-blocks.json"), bad, "-o", out)
        #expect(rejected.code == 1 && rejected.err.contains("which holds 800"))

        let theatre = Fixtures.examplePath("theatre-curved.json")
        let all = try FreeVenueCLITests.json(seatmap("layout", theatre, "--json").out)
        let balcony = try FreeVenueCLITests.json(seatmap("layout", theatre, "--json", "--level", "1").out)
        guard case .array(let allSeats)? = all["seats"]?.value, case .array(let balconySeats)? = balcony["seats"]?.value else {
            Issue.record("no seats")
            return
        }
        #expect(balconySeats.count == 42 && allSeats.count == 132)
        let missing = seatmap("render", theatre, "-o", dir.appendingPathComponent("x.png").path, "--level", "3")
        #expect(missing.code == 1 && missing.err.contains("no level 3"))

        let overlapping = try Fixtures.write(#"{"rows":[{"row":1,"price":1,"seats":[{"x":0,"y":0,"status":0},{"x":20,"y":0,"status":0},{"x":90,"y":0,"status":0}]}]}"#,
                                             to: "o.json", in: dir)
        let v = seatmap("validate", overlapping)
        #expect(v.code == 0 && v.err.contains("seats 1-1-1 and 1-1-2 overlap when drawn at zoom 1") && !v.err.contains("1-1-3"))
        #expect(!seatmap("validate", theatre).err.contains("overlap"))
    }

    @Test("found by a hostile run: huge text draws (clamped), no crash; overlap warnings stop after 20 pairs")
    func hostile() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A text area at the largest size drew a glyph FreeType refuses, and the
        // PDF writer then used freed memory: text is now drawn at most 2048 px high.
        let text = try Fixtures.write(#"{"rows":[{"row":1,"price":1,"seats":[{"x":0,"y":0,"status":0}]}],"areas":[{"id":"t","shape":"text","x":0,"y":0,"size":100000,"label":"X"}]}"#,
                                      to: "t.json", in: dir)
        let pdf = seatmap("render", text, "-o", dir.appendingPathComponent("t.pdf").path)
        #expect(pdf.code == 0, "\(pdf.err)")
        // 2,000 seats on one spot: every pair overlaps; validate names 20 and stops.
        let seats = (0..<2000).map { _ in #"{"x":0,"y":0,"status":0}"# }.joined(separator: ",")
        let stacked = try Fixtures.write(#"{"rows":[{"row":1,"price":1,"seats":[\#(seats)]}]}"#, to: "s.json", in: dir)
        let v = seatmap("validate", stacked)
        #expect(v.code == 0 && v.err.components(separatedBy: "overlap when drawn").count == 21 && v.err.contains("and more"))
    }

    @Test("--slop reaches a round seat by its circle, not its box")
    func slopRound() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A big round seat and a small square one; the tap is 2.5 pt from the square and ~18 pt from the circle.
        let hall = try Fixtures.write(#"{"rows":[{"row":1,"price":10,"seats":[{"x":100,"y":100,"r":50,"status":0},{"x":210,"y":160,"w":10,"h":10,"status":0}]}]}"#,
                                      to: "h.json", in: dir)
        let layout = try FreeVenueCLITests.json(seatmap("layout", hall, "--json", "--scale", "1", "--no-header", "--no-legend").out)
        guard case .array(let seats)? = layout["seats"]?.value, seats.count == 2,
              case .number(let bx)? = seats[1]["x"]?.value, case .number(let by)? = seats[1]["y"]?.value,
              let x = Double(bx), let y = Double(by) else { Issue.record("no layout"); return }
        // Just left of the small seat's box, level with its top.
        let tap = "\(x - 2.5),\(y + 2)"
        #expect(seatmap("hit", hall, "--scale", "1", "--no-header", "--no-legend", "--slop", "5", "--point", tap).out.contains("-> 1-1-2 "))
        // The circle's box corner is within 1 pt of a tap; the circle is not.
        guard case .number(let cx)? = seats[0]["x"]?.value, let x0 = Double(cx), case .number(let cy)? = seats[0]["y"]?.value, let y0 = Double(cy) else { return }
        let corner = "\(x0 - 0.5),\(y0 - 0.5)"
        #expect(seatmap("hit", hall, "--scale", "1", "--no-header", "--no-legend", "--slop", "1", "--point", corner).out.contains("-> gap"))
    }

    @Test("a pretix seat_guid is the seat's externalId in layout, hit and select JSON and the SVG, and names the seat for select and render")
    func externalIDs() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/pretix-test-sample-plan.json").path
        let hall = dir.appendingPathComponent("h.json").path
        #expect(seatmap("import", "pretix", plan, "-o", hall, "--price", "12.5").code == 0)
        let layout = try FreeVenueCLITests.json(seatmap("layout", hall, "--json", "--scale", "1").out)
        guard case .array(let seats)? = layout["seats"]?.value, seats.count == 2 else { Issue.record("no seats in \(layout)"); return }
        #expect(seats.map { $0["externalId"]?.value } == [.string("0-0"), .string("0-1")])
        // A tap at the second seat's centre names its guid.
        func number(_ key: String) -> Double {
            if case .number(let n)? = seats[1][key]?.value { return Double(n) ?? -1 }
            return -1
        }
        let hit = try FreeVenueCLITests.json(seatmap("hit", hall, "--json", "--scale", "1", "--point",
                                                     "\(number("x") + number("w") / 2),\(number("y") + number("h") / 2)").out)
        guard case .array(let hits) = hit.value else { Issue.record("hit: \(hit)"); return }
        #expect(hits.first?["externalId"]?.value == .string("0-1"))
        #expect(hits.first?["id"]?.value == seats[1]["id"]?.value)
        // The SVG carries it.
        let svg = dir.appendingPathComponent("h.svg").path
        #expect(seatmap("render", hall, "-o", svg).code == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("data-external-id=\"0-0\"") && text.contains("data-external-id=\"0-1\""))
        // select --toggle and render --select take the guid.
        let picked = seatmap("select", hall, "--toggle", "0-1", "--json", "--no-single-seat-rule")
        #expect(picked.code == 0, "\(picked.err)")
        let answer = try FreeVenueCLITests.json(picked.out)
        #expect(answer["selected"]?.value == .array([seats[1]["id"]!]))
        guard case .array(let results)? = answer["results"]?.value, case .array(let cart)? = answer["cart"]?.value else { Issue.record("\(answer)"); return }
        #expect(results.first?["id"]?.value == .string("0-1") && results.first?["seat"]?.value == seats[1]["id"]?.value)
        #expect(cart.first?["externalId"]?.value == .string("0-1"))
        let png = dir.appendingPathComponent("h.png").path
        #expect(seatmap("render", hall, "-o", png, "--select", "0-0").code == 0)
        let unknown = seatmap("render", hall, "-o", png, "--select", "0-9")
        #expect(unknown.code != 0 && unknown.err.contains("no such seat 0-9"), "\(unknown.err)")
    }

    @Test("layout --json of a real pretix plan labelled at both ends shows no label over a seat, a label or an area's text, at the referee's flags and at defaults")
    func labelsNeverCollide() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/pretix-screenshots-plan-en.json").path, encoding: .utf8)
        // Every row labelled at both ends.
        let plan = try Fixtures.write(source.replacingOccurrences(of: "\"row_number\":", with: "\"row_number_position\": \"both\", \"row_number\":"),
                                      to: "both.json", in: dir)
        let hall = dir.appendingPathComponent("h.json").path
        #expect(seatmap("import", "pretix", plan, "-o", hall, "--price", "10").code == 0)
        func rect(_ n: JSONNode?) -> PixelRect? {
            func int(_ k: String) -> Int? { if case .number(let v)? = n?[k]?.value { return Int(v) } else { return nil } }
            guard let x = int("x"), let y = int("y"), let w = int("w"), let h = int("h") else { return nil }
            return PixelRect(x: x, y: y, w: w, h: h)
        }
        for flags in [[String](), ["--zoom", "1.37", "--scale", "2", "--no-header", "--theme", "print"], ["--zoom", "0.5"], ["--zoom", "3"]] {
            let l = try FreeVenueCLITests.json(seatmap(["layout", hall, "--json"] + flags).out)
            guard case .array(let seatNodes)? = l["seats"]?.value, case .array(let labelNodes)? = l["rowLabels"]?.value,
                  case .array(let areaNodes)? = l["areas"]?.value else { Issue.record("\(flags): no seats, rowLabels or areas"); continue }
            let seats = seatNodes.compactMap { rect($0) }, labels = labelNodes.compactMap { rect($0) }
            let texts = areaNodes.compactMap { rect($0["textRect"]) }
            #expect(seats.count == 1057 && labels.count == 70 && texts.count == 2, "\(flags): \(seats.count) seats, \(labels.count) labels, \(texts.count) texts")
            var seatHits = 0, labelHits = 0, textHits = 0
            for (k, r) in labels.enumerated() {
                seatHits += seats.filter { $0.intersects(r) }.count
                labelHits += labels[(k + 1)...].filter { $0.intersects(r) }.count
                textHits += texts.filter { $0.intersects(r) }.count
            }
            #expect(seatHits == 0 && labelHits == 0 && textHits == 0, "\(flags): label–seat \(seatHits), label–label \(labelHits), label–text \(textHits)")
        }
    }

    @Test("info and layout describe a free venue as one: rows, areas, standing places, levels, groups; no grid size or pitch")
    func infoOfFreeVenue() throws {
        let arena = seatmap("info", Fixtures.examplePath("arena-blocks.json"))
        #expect(arena.code == 0 && arena.out.contains("free venue: 18 rows, 3 areas, 1 standing (312 of 800 places for sale)") && !arena.out.contains("grid:"), "\(arena.out)")
        #expect(seatmap("info", Fixtures.examplePath("theatre-curved.json")).out.contains("2 levels"))
        #expect(seatmap("info", Fixtures.examplePath("dinner-tables.json")).out.contains("12 groups"))
        #expect(seatmap("info", Fixtures.examplePath("cinema-12x18.json")).out.contains("grid: 12 rows × 19 columns"))
        let json = try FreeVenueCLITests.json(seatmap("info", Fixtures.examplePath("arena-blocks.json"), "--json").out)
        #expect(json["free"]?.value == .bool(true) && json["standingCapacity"]?.value == .number("800") && json["areas"]?.value == .number("3"))
        let layout = seatmap("layout", Fixtures.examplePath("arena-blocks.json"))
        #expect(layout.out.split(separator: "\n").first?.contains("free venue: 180 seats at their own positions, 3 areas") == true && !layout.out.contains("row pitch"),
                "\(layout.out.prefix(200))")
    }

    @Test("import pretix --currency and --locale write the hall's currency and words; bad ones are usage errors")
    func pretixCurrencyLocale() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/pretix-test-sample-plan.json").path
        let hall = dir.appendingPathComponent("h.json").path
        let run = seatmap("import", "pretix", plan, "-o", hall, "--price", "12.5", "--currency", "EUR", "--locale", "de")
        #expect(run.code == 0, "\(run.err)")
        let read = try Files.readHall(hall)
        #expect(read.currency == "EUR" && read.locale == "de")
        let info = seatmap("layout", hall, "--json")
        #expect(info.out.contains("\"currency\":\"EUR\"") || info.out.contains("\"currency\": \"EUR\""), "\(info.out.prefix(400))")
        let svg = dir.appendingPathComponent("h.svg").path
        #expect(seatmap("render", hall, "-o", svg).code == 0)
        // German words and euros: "12,50 €" and "verfügbar"-style status words, not ¥ and Chinese.
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("12,50") && text.contains("€") && !text.contains("¥"), "\(text.prefix(1200))")
        #expect(seatmap("import", "pretix", plan, "-o", hall, "--price", "1", "--currency", "euro").code == 2)
        #expect(seatmap("import", "pretix", plan, "-o", hall, "--price", "1", "--locale", "xx-Nope").code == 2)
        // Prices finer than the currency's minor units are refused (yen has none).
        let yen = seatmap("import", "pretix", plan, "-o", hall, "--price", "12.5", "--currency", "JPY")
        #expect(yen.code == 1 && yen.err.contains("JPY"), "\(yen.err)")
    }

    @Test("import pretix says once what matters: repeated unknown keys with a count, seats outside the plan, seats under another seat")
    func pretixReports() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Zone 2's only seat sits exactly on zone 1's first; zone 1's third is outside the 100 × 100 plan.
        let plan = try Fixtures.write("""
        {"name": "Overlap", "size": {"width": 100, "height": 100}, "categories": [{"name": "A", "color": "#123456"}],
         "zones": [{"position": {"x": 0, "y": 0}, "rows": [{"row_number": "1", "position": {"x": 20, "y": 20}, "extra": 1,
           "seats": [{"seat_guid": "a1", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A", "note": "x"},
                     {"seat_guid": "a2", "seat_number": "2", "position": {"x": 30, "y": 0}, "category": "A", "note": "y"},
                     {"seat_guid": "a3", "seat_number": "3", "position": {"x": 300, "y": 0}, "category": "A", "note": "z"}]}]},
          {"position": {"x": 0, "y": 0}, "rows": [{"row_number": "1", "position": {"x": 20, "y": 20},
           "seats": [{"seat_guid": "b1", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"}]}]}]}
        """, to: "overlap.json", in: dir)
        let run = seatmap("import", "pretix", plan, "--price", "5", "-o", dir.appendingPathComponent("h.json").path)
        #expect(run.code == 0, "\(run.err)")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("unknown key \"note\"") } == [lines.first { $0.contains("\"note\"") }!])
        #expect(lines.contains { $0.contains("seats[0].note: unknown key \"note\" (kept as written for export), 3 times; the first here (line 3, column") }, "\(lines)")
        #expect(lines.contains { $0.contains("zones[0].rows[0].seats[2].position: this seat lies outside the plan's size (100 × 100)") }, "\(lines)")
        #expect(lines.contains { $0.contains("1 seat lies under another seat and cannot be tapped: 1-1-1") }, "\(lines)")
        #expect(lines.count == 4, "\(lines)")
    }

    @Test("import pretix and export pretix from the command line")
    func pretixCLI() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/pretix-test-sample-plan.json").path
        let hall = dir.appendingPathComponent("h.json").path
        let run = seatmap("import", "pretix", plan, "-o", hall, "--price", "12.5")
        #expect(run.code == 0, "\(run.err)")
        #expect(seatmap("validate", hall).code == 0)
        let out = dir.appendingPathComponent("p.json").path
        #expect(seatmap("export", "pretix", hall, "-o", out).code == 0)
        let back = dir.appendingPathComponent("h2.json").path
        #expect(seatmap("import", "pretix", out, "-o", back, "--price", "12.5").code == 0)
        #expect(try Files.readHall(back) == (try Files.readHall(hall)))
        #expect(seatmap("export", "seatsio", hall, "-o", out).code == 2)
        // No price for the plan's category: an error naming it (exit 1).
        let noPrice = seatmap("import", "pretix", plan, "-o", back)
        #expect(noPrice.code == 1 && noPrice.err.contains("Stalls"))
    }
}
