import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestSupport

/// Row labels of free venues: sized from their row, placed where they
/// overlap no seat, no other label and no text, at every zoom; left out
/// when there is no room.
@Suite("Row labels that never collide")
struct RowLabelTests {
    static func pretix(_ json: String, name: String = "plan.json") throws -> Hall {
        try PretixImporter().importHall(SourceText(name: name, bytes: Array(json.utf8)), ImportRequest(values: ["price": "10"])).hall
    }

    static func fixture(_ name: String) throws -> Hall {
        let url = Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/\(name)")
        return try PretixImporter().importHall(SourceText(name: name, bytes: Array(try Data(contentsOf: url))), ImportRequest(values: ["price": "10"])).hall
    }

    /// Every row labelled at both ends.
    static func labelledBoth(_ hall: Hall) throws -> Hall {
        func both(_ v: Any) -> Any {
            if var m = v as? [String: Any] {
                for (k, x) in m { m[k] = both(x) }
                if m["seats"] != nil { m["labels"] = "both" }
                return m
            }
            if let a = v as? [Any] { return a.map(both) }
            return v
        }
        let json = try JSONSerialization.jsonObject(with: Data(HallFormat.encodeText(hall).utf8))
        let text = try JSONSerialization.data(withJSONObject: both(json))
        return try HallFormat.decode(SourceText(name: "both.json", bytes: Array(text))).hall
    }

    /// Seats 1 unit apart (they overlap), labels far longer than a seat, a
    /// turned stage with text beside the rows, a round table's chairs.
    static let crowded = """
    {"name": "Crowded", "categories": [{"name": "A", "color": "#f00"}],
     "zones": [{"position": {"x": 40, "y": 40},
       "areas": [{"uuid": "stage", "shape": "rectangle", "rectangle": {"width": 160, "height": 40}, "position": {"x": 150, "y": 0}, "rotation": 20,
                  "color": "#eee", "text": {"text": "STAGE AREA", "position": {"x": 80, "y": 20}, "size": 20}},
                 {"uuid": "note", "shape": "text", "position": {"x": 10, "y": 175}, "text": {"text": "Side door", "position": {"x": 0, "y": 0}, "size": 14}}],
       "rows": [
         {"row_number": "1", "row_label": "Balcony row %s", "row_number_position": "both", "position": {"x": 0, "y": 80},
          "seats": [{"seat_guid": "d1", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"},
                    {"seat_guid": "d2", "seat_number": "2", "position": {"x": 1, "y": 0}, "category": "A"},
                    {"seat_guid": "d3", "seat_number": "3", "position": {"x": 2, "y": 0}, "category": "A"}]},
         {"row_number": "BBB16", "row_number_position": "both", "position": {"x": 0, "y": 104},
          "seats": [{"seat_guid": "b1", "seat_number": "BBB16-1", "position": {"x": 0, "y": 0}, "category": "A"},
                    {"seat_guid": "b2", "seat_number": "BBB16-2", "position": {"x": 22, "y": 0}, "category": "A"},
                    {"seat_guid": "b3", "seat_number": "BBB16-3", "position": {"x": 44, "y": 0}, "category": "A"}]},
         {"row_number": "2", "row_number_position": "end", "position": {"x": 0, "y": 128},
          "seats": [{"seat_guid": "c1", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"},
                    {"seat_guid": "c2", "seat_number": "2", "position": {"x": 21, "y": 0}, "category": "A"}]},
         {"row_number": "T", "row_number_position": "both", "position": {"x": 260, "y": 150},
          "seats": [{"seat_guid": "t1", "seat_number": "1", "position": {"x": 0, "y": -24}, "category": "A"},
                    {"seat_guid": "t2", "seat_number": "2", "position": {"x": 24, "y": 0}, "category": "A"},
                    {"seat_guid": "t3", "seat_number": "3", "position": {"x": 0, "y": 24}, "category": "A"},
                    {"seat_guid": "t4", "seat_number": "4", "position": {"x": -24, "y": 0}, "category": "A"}]}]}]}
    """

    /// The drawn boxes a label must keep off: every seat's box, every
    /// area's text, level titles and zone names.
    static func overlaps(_ l: Layout) -> (seat: Int, label: Int, text: Int) {
        var seat = 0, label = 0, text = 0
        let texts = l.areas.compactMap { a in a.text.map { $0.inkBox(a.area.label) } }
            + l.titles.map { $0.placement.inkBox($0.text) } + l.zones.compactMap { z in z.name.map { $0.placement.inkBox($0.text) } }
        for (k, r) in l.rowLabels.enumerated() {
            seat += l.cells.filter { $0.isSeat && $0.rect.intersects(r.pill) }.count
            label += l.rowLabels[(k + 1)...].filter { $0.pill.intersects(r.pill) }.count
            text += texts.filter { $0.intersects(r.pill) }.count
            #expect(r.rect == r.pill, "a free row label's box is its pill")
        }
        return (seat, label, text)
    }

    static let views: [(zoom: Double, scale: Double)] = [(0.5, 1), (1, 1), (1.37, 2), (1, 2), (2.5, 1), (3, 2)]

    @Test("on both real pretix plans labelled at both ends, on crowded and turned plans and on every free example: no label overlaps a seat, a label or a text, at six zooms")
    func noOverlaps() throws {
        var halls: [(String, Hall)] = [
            ("screenshots plan", try Self.labelledBoth(try Self.fixture("pretix-screenshots-plan-en.json"))),
            ("test sample plan", try Self.labelledBoth(try Self.fixture("pretix-test-sample-plan.json"))),
            ("crowded", try Self.pretix(Self.crowded)),
        ]
        for name in Fixtures.freeExampleNames { halls.append((name, try Self.labelledBoth(try Fixtures.example(name)))) }
        for (name, hall) in halls {
            for v in Self.views {
                let l = try Layout(hall: hall, zoom: v.zoom, scale: v.scale)
                let o = Self.overlaps(l)
                #expect(o.seat == 0 && o.label == 0 && o.text == 0, "\(name) at zoom \(v.zoom) scale \(v.scale): \(o)")
                for r in l.rowLabels { #expect(l.bounds.contains(r.pill.x, r.pill.y) && r.pill.maxX <= l.bounds.maxX && r.pill.maxY <= l.bounds.maxY) }
            }
        }
    }

    @Test("a real plan's rows keep their labels: all 70 of the screenshots plan at both ends, beside their end seats, sized from the row")
    func realPlanKeepsLabels() throws {
        let hall = try Self.labelledBoth(try Self.fixture("pretix-screenshots-plan-en.json"))
        for v in Self.views where v.zoom >= 1 {
            let l = try Layout(hall: hall, zoom: v.zoom, scale: v.scale)
            #expect(l.rowLabels.count == 70, "zoom \(v.zoom) scale \(v.scale): \(l.rowLabels.count) of 70")
            for r in l.rowLabels {
                let seats = l.cells.filter { $0.isSeat && $0.row == r.row }
                let size = try #require(seats.map { min($0.seatRect.w, $0.seatRect.h) }.min())
                // No taller than the row's seats, and beside one of its end seats (within two seat sizes).
                #expect(r.pill.h <= size, "row \(r.label): pill \(r.pill) for seats of \(size) px")
                let near = seats.map { s in max(abs(s.seatRect.centerX - r.pill.centerX) - Double(s.seatRect.w + r.pill.w) / 2, 0) }.min() ?? .infinity
                #expect(near <= 2 * Double(size), "row \(r.label): \(near) px from its nearest seat")
            }
        }
    }

    @Test("a row hemmed in by other seats on its line gets no label, and its seats still name it")
    func noRoomNoLabel() throws {
        var seats = ""
        for k in 0..<5 { seats += (k > 0 ? "," : "") + "{\"seat_guid\": \"m\(k)\", \"seat_number\": \"\(k + 1)\", \"position\": {\"x\": \(k * 25), \"y\": 0}, \"category\": \"A\"}" }
        var others = ""
        for k in 1...5 {
            others += (k > 1 ? "," : "") + "{\"seat_guid\": \"l\(k)\", \"seat_number\": \"L\(k)\", \"position\": {\"x\": \(-25 * k), \"y\": 0}, \"category\": \"A\"}"
            others += ",{\"seat_guid\": \"r\(k)\", \"seat_number\": \"R\(k)\", \"position\": {\"x\": \(100 + 25 * k), \"y\": 0}, \"category\": \"A\"}"
        }
        let plan = """
        {"name": "Hemmed", "categories": [{"name": "A"}], "zones": [{"position": {"x": 200, "y": 50}, "rows": [
          {"row_number": "M", "row_number_position": "both", "position": {"x": 0, "y": 0}, "seats": [\(seats)]},
          {"row_number": "X", "position": {"x": 0, "y": 0}, "seats": [\(others)]}]}]}
        """
        let hall = try Self.pretix(plan)
        for v in Self.views {
            let l = try Layout(hall: hall, zoom: v.zoom, scale: v.scale)
            #expect(l.rowLabels.isEmpty, "zoom \(v.zoom): \(l.rowLabels)")
        }
        let m = try #require(hall.rows.first)
        let names = Selection(ids: [SeatID(section: m.section, row: m.number, column: 1)], in: hall).descriptions(in: hall)
        #expect(names.first?.contains("M") == true, "\(names)")
    }
}
