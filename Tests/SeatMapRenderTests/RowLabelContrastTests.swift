import Foundation
import Testing
import SeatMapCore
import SeatMapRender
import SeatMapTestSupport

/// A row label reads against whatever lies under it: the background, or a
/// plan's area (a white floor in the dark theme, a black one in print).
@Suite("Row label contrast")
struct RowLabelContrastTests {
    static func plan(floor: String) -> String {
        """
        {"name": "Floors", "categories": [{"name": "A", "color": "#3366cc"}],
         "zones": [{"position": {"x": 0, "y": 0},
           "areas": [{"uuid": "floor", "shape": "rectangle", "rectangle": {"width": 400, "height": 120}, "position": {"x": 0, "y": 0}, "color": "\(floor)"}],
           "rows": [{"row_number": "A", "row_number_position": "both", "position": {"x": 100, "y": 40}, "seats": [
             {"seat_guid": "a1", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"},
             {"seat_guid": "a2", "seat_number": "2", "position": {"x": 30, "y": 0}, "category": "A"},
             {"seat_guid": "a3", "seat_number": "3", "position": {"x": 60, "y": 0}, "category": "A"}]},
            {"row_number": "B", "row_number_position": "both", "position": {"x": 100, "y": 80}, "seats": [
             {"seat_guid": "b1", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"},
             {"seat_guid": "b2", "seat_number": "2", "position": {"x": 30, "y": 0}, "category": "A"}]}]}]}
        """
    }

    /// 0xAARRGGBB (opaque) as a colour.
    static func color(_ p: UInt32) -> Color {
        Color(r: Double((p >> 16) & 0xFF) / 255, g: Double((p >> 8) & 0xFF) / 255, b: Double(p & 0xFF) / 255)
    }

    @Test("the text of every row label has at least 4.5 : 1 against its pill, over white and black floors, in every theme",
          arguments: ["light", "dark", "print", "high-contrast"])
    func labelsRead(theme name: String) throws {
        for floor in ["#ffffff", "#000000", "#eee"] {
            let hall = try PretixImporter().importHall(SourceText(name: "floors.json", bytes: Array(Self.plan(floor: floor).utf8)),
                                                       ImportRequest(values: ["price": "5"])).hall
            let scene = try Scene(hall: hall, theme: try Theme.search(name), zoom: 2, scale: 1)
            let image = try Renderer.raster(scene)
            #expect(scene.layout.rowLabels.count == 4, "\(floor): \(scene.layout.rowLabels.count) labels")
            for label in scene.layout.rowLabels {
                let p = label.pill
                var counts: [UInt32: Int] = [:]
                for y in (p.y + p.h / 5)..<(p.maxY - p.h / 5) { for x in (p.x + p.w / 5)..<(p.maxX - p.w / 5) { counts[image.pixel(x, y) ?? 0, default: 0] += 1 } }
                let pill = try #require(counts.max { $0.value < $1.value }?.key)
                let best = counts.keys.map { Self.color($0).contrast(with: Self.color(pill)) }.max() ?? 1
                #expect(best >= 4.5, "\(name) on \(floor): row \(label.label)'s text reaches \(best) : 1 on its pill \(String(pill, radix: 16))")
            }
        }
    }
}
