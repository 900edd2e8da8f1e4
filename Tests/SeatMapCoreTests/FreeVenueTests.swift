import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

@Suite("Free venues: model, format and rules")
struct FreeVenueTests {
    static func hall(_ json: String) throws -> Hall { try HallFormat.decode(json) }

    static func errors(_ json: String) -> [String] {
        do {
            _ = try HallFormat.decode(json)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("an arc row spaces its seats evenly from start to end, turned to face the centre; a line row steps along its direction")
    func rowPaths() throws {
        let h = try FreeVenueTests.hall("""
        {"rows": [{"row": 1, "price": 10, "arc": {"cx": 0, "cy": 0, "radius": 100, "start": 0, "end": 180}, "count": 3},
                  {"row": 2, "price": 10, "line": {"x": 5, "y": 200, "angle": 90, "spacing": 40}, "count": 3}]}
        """)
        let seats = VenueGeometry.seats(of: h, pitch: 36)
        let arc = seats[0].map(\.centre)
        #expect(abs(arc[0].x - 100) < 1e-9 && abs(arc[0].y) < 1e-9)
        #expect(abs(arc[1].x) < 1e-9 && abs(arc[1].y - 100) < 1e-9)
        #expect(abs(arc[2].x + 100) < 1e-9 && abs(arc[2].y) < 1e-9)
        // Straight below the centre a seat is not turned; at 0° it is turned −90°.
        #expect(seats[0].map(\.rotation) == [-90, 0, 90])
        #expect(seats[1].map(\.centre) == [Point(x: 5, y: 200), Point(x: 5, y: 240), Point(x: 5, y: 280)])
    }

    @Test("zones move and turn their seats and areas; levels are listed")
    func zones() throws {
        let h = try FreeVenueTests.hall("""
        {"sections": [{"id": 1, "name": "A", "x": 100, "y": 50, "rotation": 90}, {"id": 2, "name": "B", "level": 1}],
         "rows": [{"row": 1, "section": 1, "price": 10, "seats": [{"x": 10, "y": 0, "status": 0}]},
                  {"row": 2, "section": 2, "price": 10, "seats": [{"x": 0, "y": 0, "status": 0}]}],
         "areas": [{"id": "stage", "shape": "rect", "section": 1, "x": 0, "y": 0, "w": 10, "h": 10}]}
        """)
        let c = VenueGeometry.seats(of: h, pitch: 36)[0][0]
        #expect(abs(c.centre.x - 100) < 1e-9 && abs(c.centre.y - 60) < 1e-9 && c.rotation == 90)
        #expect(h.levels == [0, 1])
        #expect(h.isFree)
    }

    @Test("bad free-venue input names the place and the problem")
    func errors() {
        let cases: [(String, String)] = [
            (#"{"rows": [{"row": 1, "price": 1, "seats": [{"x": 1, "y": 2, "status": 0}, {"column": 2, "status": 0}]}]}"#,
             "rows[0].seats[1]: a seat without \"x\" and \"y\" in a free venue"),
            (#"{"rows": [{"row": 1, "price": 1, "arc": {"cx": 0, "cy": 0, "radius": -5, "start": 0, "end": 90}, "count": 2}]}"#,
             "rows[0].arc: arc radius -5.0 must be more than 0"),
            (#"{"rows": [{"row": 1, "price": 1, "arc": {"cx": 0, "cy": 0, "radius": 5, "start": 0, "end": 90}, "seats": [{"x": 1, "y": 1, "status": 0}]}]}"#,
             "takes its position from the row"),
            (#"{"rows": [{"row": 1, "price": 1, "seats": [{"x": 1e9, "y": 2, "status": 0}]}]}"#, "rows[0].seats[0].x: x 1000000000.0 is outside ±100000"),
            (#"{"rows": [{"row": 1, "price": 1, "seats": [{"x": 1, "y": 2, "r": 0, "status": 0}]}]}"#, "r 0.0 must be more than 0"),
            (#"{"rows": [{"row": 1, "price": 1, "count": 2}], "areas": [{"id": "a", "shape": "polygon", "points": [[0, 0], [1, 1]]}]}"#,
             "areas[0].points: a polygon needs at least 3 points, found 2"),
            (#"{"rows": [{"row": 1, "price": 1, "count": 2}], "areas": [{"id": "f", "shape": "rect", "x": 0, "y": 0, "w": 5, "h": 5, "capacity": 10}]}"#,
             "a standing area with a capacity needs a price"),
            (#"{"rows": [{"row": 1, "price": 1, "count": 2}], "areas": [{"id": "f", "shape": "rect", "x": 0, "y": 0, "w": 5, "h": 5, "capacity": 10, "price": 5, "available": 11}]}"#,
             "areas[0].available: available 11 is more than 10"),
            (#"{"rows": [{"row": 1, "price": 1, "count": 2}], "areas": [{"id": "f", "shape": "blob"}]}"#, "unknown area shape \"blob\""),
            (#"{"rows": [{"row": 1, "price": 1, "count": 2}], "areas": [{"id": "a", "shape": "circle", "cx": 0, "cy": 0, "r": 5, "fill": "reddish"}]}"#,
             "\"reddish\" is not a colour"),
            (#"{"rows": [{"row": 1, "price": 1, "count": 2}], "groups": [{"id": "g", "seats": ["1-1-1", "1-1-9"]}]}"#,
             "groups[0].seats: no such seat 1-1-9"),
            (#"{"rows": [{"row": 1, "price": 1, "count": 3}], "groups": [{"id": "g", "seats": ["1-1-1", "1-1-2"]}, {"id": "h", "seats": ["1-1-2", "1-1-3"]}]}"#,
             "1-1-2 is already in group \"g\""),
            (#"{"categories": [{"name": "A", "price": 5}], "rows": [{"row": 1, "seats": [{"column": 1, "status": 0, "category": "B"}]}]}"#,
             "category \"B\" is not declared"),
        ]
        for (json, expected) in cases {
            let got = FreeVenueTests.errors(json)
            #expect(got.contains { $0.contains(expected) }, "\(expected) in \(got)")
        }
    }

    @Test("a standing area is sold by quantity: limits, totals, status batches")
    func standing() throws {
        let h = try FreeVenueTests.hall("""
        {"maxSelectCount": 6, "rows": [{"row": 1, "price": 10, "seats": [{"x": 0, "y": 0, "status": 0}, {"x": 40, "y": 0, "status": 0}]}],
         "areas": [{"id": "floor", "shape": "rect", "x": 0, "y": 50, "w": 200, "h": 100, "capacity": 100, "available": 4, "price": 25.5, "label": "Floor"}]}
        """)
        var s = Selection()
        #expect(s.setQuantity(5, ofArea: "floor", in: h) == .notAvailable)
        #expect(s.setQuantity(4, ofArea: "floor", in: h) == .selected)
        #expect(s.toggle("1-1-1", in: h) == .selected)
        #expect(s.count == 5)
        #expect(s.toggle("1-1-2", in: h) == .selected)
        #expect(s.setQuantity(4, ofArea: "floor", in: h) == .selected, "re-setting the same quantity stays within the limit")
        #expect(s.total(in: h) == Decimal(string: "122")!)
        #expect(s.setQuantity(1, ofArea: "stage", in: h) == .noSuchArea)
        #expect(s.standingDescriptions(in: h) == ["Floor × 4"])
        // A batch leaves 1 place: the selection keeps 1 and says so.
        var sync = StatusSync(hall: h)
        let batch = StatusBatch(batchId: "b", sequence: 1, changes: [.init(area: "floor", available: 1)])
        guard case .applied(_, let dropped) = try sync.apply(batch, selection: &s) else { Issue.record("not applied"); return }
        #expect(s.standing["floor"] == 1 && dropped.count == 1)
        #expect(sync.hall.area(id: "floor")?.remaining == 1 && sync.changedAreas == ["floor"])
        // An unknown area, or more than the capacity, rejects the batch.
        #expect(throws: SeatMapError.self) { try sync.apply(StatusBatch(batchId: "c", sequence: 2, changes: [.init(area: "nope", available: 1)]), selection: &s) }
        #expect(throws: SeatMapError.self) { try sync.apply(StatusBatch(batchId: "d", sequence: 3, changes: [.init(area: "floor", available: 101)]), selection: &s) }
    }

    @Test("a group is selected and sold whole; a row marked group is one")
    func groups() throws {
        let h = try FreeVenueTests.hall("""
        {"maxSelectCount": 8, "rows": [{"row": 1, "price": 10, "group": true, "label": "T1", "arc": {"cx": 0, "cy": 0, "radius": 60, "start": 0, "end": 270}, "count": 4},
                  {"row": 2, "price": 10, "line": {"x": 0, "y": 200}, "count": 4}],
         "groups": [{"id": "box", "seats": ["1-2-3", "1-2-4"]}]}
        """)
        #expect(h.groups.map(\.id) == ["box", "T1"])
        var s = Selection()
        #expect(s.toggle("1-1-2", in: h) == .selected)
        #expect(s.ids.count == 4)
        #expect(s.toggle("1-2-4", in: h) == .selected)
        #expect(s.ids.count == 6)
        #expect(s.toggle("1-1-3", in: h) == .deselected)
        #expect(s.ids == ["1-2-3", "1-2-4"])
        // Selling one seat of a group sells the group; the selection loses it.
        var sync = StatusSync(hall: h)
        _ = try sync.apply(StatusBatch(batchId: "a", sequence: 1, changes: [.init(seat: "1-2-3", status: .sold)]), selection: &s)
        #expect(sync.hall.cell(id: "1-2-4")?.seat.status == .sold)
        #expect(s.isEmpty)
        // A batch may not split a group between statuses.
        var sync2 = StatusSync(hall: h)
        var none = Selection()
        #expect(throws: SeatMapError.self) {
            try sync2.apply(StatusBatch(batchId: "s", sequence: 1, changes: [.init(seat: "1-1-1", status: .sold), .init(seat: "1-1-2", status: .locked)]),
                            selection: &none)
        }
        // A recommendation takes a table whole or not at all.
        #expect(Recommender.recommend(count: 4, in: h)?.count == 4)
        #expect(Recommender.recommend(count: 3, in: h).map { Set($0.map(\.row)) } != [1])
    }

    @Test("on a free row, neighbours are consecutive seats; a gap over 1.5 pitches is an aisle for the single-seat rule")
    func freeRowRules() throws {
        // Seats 1-2-3 close together, then a wide gap, then 4-5.
        let h = try FreeVenueTests.hall("""
        {"rows": [{"row": 1, "price": 10, "seats": [
          {"x": 0, "y": 0, "status": 0}, {"x": 36, "y": 0, "status": 0}, {"x": 72, "y": 0, "status": 0},
          {"x": 200, "y": 0, "status": 0}, {"x": 236, "y": 0, "status": 0}]}]}
        """)
        #expect(RowNeighbours.links(h) == [[true, true, false, true]])
        // Taking 1 and 2 leaves 3 between 2 and the aisle: a single seat.
        #expect(SingleSeatRule.violations(selected: ["1-1-1", "1-1-2"], in: h) == ["1-1-3"])
        // Taking 4 leaves 5 alone at the row's end.
        #expect(SingleSeatRule.violations(selected: ["1-1-4"], in: h) == ["1-1-5"])
        // Taking 3 does not strand 4 (the aisle is between them).
        #expect(SingleSeatRule.violations(selected: ["1-1-3"], in: h) == [])
    }

    @Test("the recommendation's sweet spot is the focus when the hall sets one")
    func focus() throws {
        let base = """
        {"rows": [{"row": 1, "price": 10, "line": {"x": 0, "y": 0}, "count": 10}, {"row": 2, "price": 10, "line": {"x": 0, "y": 300}, "count": 10}]
        """
        let near = try FreeVenueTests.hall(base + #", "focus": {"x": 324, "y": 300}}"#)
        #expect(Recommender.recommend(count: 2, in: near) == ["1-2-9", "1-2-10"])
        let front = try FreeVenueTests.hall(base + #", "focus": {"x": 0, "y": 0}}"#)
        #expect(Recommender.recommend(count: 2, in: front) == ["1-1-1", "1-1-2"])
    }

    @Test("every free example, and a hall of every free part, decodes, encodes and decodes to the same hall")
    func roundTrip() throws {
        for name in Fixtures.freeExampleNames {
            let hall = try Fixtures.example(name)
            #expect(try HallFormat.decode(HallFormat.encodeText(hall)) == hall, "\(name)")
        }
        // The fuzzer's seed: count rows on paths, a path row with a round seat, a group row, categories, levels.
        let seed = try Files.readHall(Fixtures.root.appendingPathComponent("Tests/Fuzz/corpus/hall-json/free.json").path)
        #expect(try HallFormat.decode(HallFormat.encodeText(seed)) == seed)
    }
}
