import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

/// Colours as a plan writes them: every CSS form read and drawn exactly,
/// categories in their own colours whatever they cost.
@Suite("Colours as written")
struct ColorsAsWrittenTests {
    @Test("CSS colours: #RGB, #RGBA, #RRGGBB, #RRGGBBAA, transparent and the 148 named colours, in any case")
    func forms() {
        #expect(CSSColor("#f00") == CSSColor(r: 255, g: 0, b: 0))
        #expect(CSSColor("#EEE") == CSSColor(r: 0xEE, g: 0xEE, b: 0xEE))
        #expect(CSSColor("#0f08") == CSSColor(r: 0, g: 255, b: 0, a: 0x88))
        #expect(CSSColor("#B1B0B0") == CSSColor(r: 0xB1, g: 0xB0, b: 0xB0))
        #expect(CSSColor("#11223344") == CSSColor(r: 0x11, g: 0x22, b: 0x33, a: 0x44))
        #expect(CSSColor("transparent") == CSSColor(r: 0, g: 0, b: 0, a: 0))
        #expect(CSSColor("Red") == CSSColor(r: 255, g: 0, b: 0))
        #expect(CSSColor("rebeccapurple") == CSSColor(r: 0x66, g: 0x33, b: 0x99))
        #expect(CSSColor("LightGoldenRodYellow") == CSSColor(r: 0xFA, g: 0xFA, b: 0xD2))
        for bad in ["", "#", "#ff", "#fffff", "#1234567", "#ggg", "red ", "rgb(1,2,3)", "notacolour", "#ｆｆｆ"] {
            #expect(CSSColor(bad) == nil, "\(bad) read as a colour")
        }
        #expect(CSSColor.named.count == 148)
        #expect(HallValidator.isColor("red") && HallValidator.isColor("#f008") && !HallValidator.isColor("reddish"))
    }

    /// A pretix plan: four categories (two of one price, one colour given
    /// as #RGB, one as a name, one translucent), a #RGB stage.
    static let plan = """
    {"name": "Colours", "size": {"width": 400, "height": 200},
     "categories": [{"name": "Red", "color": "#f00"}, {"name": "Named", "color": "navy"},
                    {"name": "Green", "color": "#00aa00"}, {"name": "Same", "color": "#FF0000"}],
     "zones": [{"position": {"x": 0, "y": 0},
       "areas": [{"uuid": "stage", "shape": "rectangle", "rectangle": {"width": 200, "height": 40}, "position": {"x": 20, "y": 10}, "color": "#eee"}],
       "rows": [{"row_number": "1", "position": {"x": 30, "y": 100}, "seats": [
         {"seat_guid": "a", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "Red"},
         {"seat_guid": "b", "seat_number": "2", "position": {"x": 40, "y": 0}, "category": "Named"},
         {"seat_guid": "c", "seat_number": "3", "position": {"x": 80, "y": 0}, "category": "Green"},
         {"seat_guid": "d", "seat_number": "4", "position": {"x": 120, "y": 0}, "category": "Same"}]}]}]}
    """

    static func hall(_ prices: [String: String]) throws -> Hall {
        try PretixImporter().importHall(SourceText(name: "colours.json", bytes: Array(plan.utf8)), ImportRequest(values: prices)).hall
    }

    @Test("each category's seats and each area are drawn in the colour the plan writes, in every theme, whatever the prices",
          arguments: ["light", "dark", "print", "high-contrast"])
    func drawnAsWritten(theme name: String) throws {
        let theme = try Theme.search(name)
        // One price for every category (a single --price), then distinct prices.
        for prices in [["price": "10"], ["prices": "Red=10,Named=20,Green=30,Same=10"]] {
            let scene = try Scene(hall: try Self.hall(prices), theme: theme, zoom: 1, scale: 1)
            let image = try Renderer.raster(scene)
            let want: [String: UInt32] = ["a": 0xFFFF_0000, "b": 0xFF00_0080, "c": 0xFF00_AA00, "d": 0xFFFF_0000]
            for cell in scene.layout.seats {
                let ext = try #require(cell.externalID)
                // Beside the seat number, inside the circle.
                let got = image.pixel(cell.seatRect.x + cell.seatRect.w / 2, cell.seatRect.y + 3)
                #expect(close(got, want[ext]!), "\(name) \(prices): seat \(ext) is \(got.map { String($0, radix: 16) } ?? "nil")")
            }
            let stage = try #require(scene.layout.areas.first { $0.id.hasSuffix("stage") })
            #expect(close(image.pixel(stage.rect.x + 4, stage.rect.y + 4), 0xFFEE_EEEE), "\(name): the #eee stage")
        }
    }

    @Test("the legend names each category with its price; categories of one colour are one entry naming both")
    func legend() throws {
        let scene = try Scene(hall: try Self.hall(["prices": "Red=10,Named=20,Green=30,Same=40"]), theme: try Theme.search("light"), zoom: 1, scale: 1)
        let layout = scene.layout
        let tiers = layout.legendItems.compactMap { item -> Int? in if case .tier(let t, _) = item.kind { return t } else { return nil } }
        #expect(tiers.count == 3, "\(layout.legendItems.map(\.kind))")
        let texts = tiers.map(layout.tierText)
        #expect(texts.contains { $0.contains("Red") && $0.contains("Same") }, "\(texts)")
        #expect(texts.contains { $0.contains("Named") && $0.contains("20") }, "\(texts)")
        #expect(texts.contains { $0.contains("Green") && $0.contains("30") }, "\(texts)")
        // A hall without categories keeps one tier per price.
        let plain = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.search("light"), zoom: 1, scale: 1)
        #expect(plain.layout.tiers.categories.allSatisfy { $0 == nil })
        #expect(plain.layout.tiers.prices == plain.layout.tiers.prices.sorted() && Set(plain.layout.tiers.prices).count == plain.layout.tiers.prices.count)
    }

    @Test("a shape's text is drawn at the size and in the colour the plan writes, and survives the hall file and export")
    func textAsWritten() throws {
        let plan = """
        {"name": "Stage", "size": {"width": 600, "height": 300}, "categories": [{"name": "A", "color": "#3366cc"}],
         "zones": [{"position": {"x": 0, "y": 0},
           "areas": [{"uuid": "stage", "shape": "rectangle", "rectangle": {"width": 500, "height": 100}, "position": {"x": 50, "y": 10},
                      "color": "#333333", "text": {"text": "S T A G E", "position": {"x": 250, "y": 50}, "size": 48, "color": "#B1B0B0"}}],
           "rows": [{"row_number": "1", "position": {"x": 100, "y": 200}, "seats": [{"seat_guid": "a", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"}]}]}]}
        """
        let hall = try PretixImporter().importHall(SourceText(name: "stage.json", bytes: Array(plan.utf8)), ImportRequest(values: ["price": "5"])).hall
        let area = try #require(hall.areas.first)
        #expect(area.labelSize == 48 && area.labelColor == "#B1B0B0")
        // The hall file keeps them; the export writes them back.
        let again = try HallFormat.decode(SourceText(name: "h.json", bytes: Array(HallFormat.encodeText(hall).utf8)))
        #expect(again.hall == hall && again.hall.areas.first?.labelSize == 48 && again.hall.areas.first?.labelColor == "#B1B0B0")
        let s = LayoutStyle()
        let exported = JSONWriter.write(PretixExporter.plan(hall, pitch: s.seatWidth + s.gapX, rowPitch: s.seatHeight + s.rowGap,
                                                            seatSize: (s.seatWidth, s.seatHeight)), pretty: false)
        #expect(exported.contains("\"size\":48") && exported.contains("\"color\":\"#B1B0B0\""), "\(exported)")
        // Drawn: the text's colour, its ink about as tall as 48 px capitals (not a 13 pt label).
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1)
        let image = try Renderer.raster(scene)
        let box = try #require(scene.layout.areas.first).rect
        var rows = Set<Int>()
        for y in box.y..<box.maxY { for x in box.x..<box.maxX where close(image.pixel(x, y), 0xFFB1_B0B0, tolerance: 6) { rows.insert(y) } }
        let inkHeight = (rows.max() ?? 0) - (rows.min() ?? 0) + 1
        #expect(!rows.isEmpty && inkHeight >= 28 && inkHeight <= 60, "ink \(inkHeight) px tall in \(box)")
    }

    @Test("a turned rectangle's text turns with it and a text area keeps its rotation: in pixels, the SVG, viewports and the export")
    func textTurns() throws {
        let plan = """
        {"name": "Turned", "size": {"width": 700, "height": 400}, "categories": [{"name": "A", "color": "#3366cc"}],
         "zones": [{"name": "Hall", "position": {"x": 0, "y": 0},
           "areas": [{"uuid": "stage", "shape": "rectangle", "rectangle": {"width": 400, "height": 80}, "position": {"x": 40, "y": 40}, "rotation": 12,
                      "color": "#ffffff", "border_color": "#000000", "text": {"text": "STAGESTAGE", "position": {"x": 200, "y": 40}, "size": 40, "color": "#000000"}},
                     {"uuid": "exit", "shape": "text", "position": {"x": 620, "y": 200}, "rotation": -90,
                      "text": {"text": "EXIT EXIT", "position": {"x": 0, "y": 0}, "size": 30, "color": "#cc0000"}}],
           "rows": [{"row_number": "1", "position": {"x": 100, "y": 300}, "seats": [{"seat_guid": "a", "seat_number": "1", "position": {"x": 0, "y": 0}, "category": "A"}]}]}]}
        """
        let source = SourceText(name: "turned.json", bytes: Array(plan.utf8))
        let hall = try PretixImporter().importHall(source, ImportRequest(values: ["price": "5"])).hall
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1)
        let image = try Renderer.raster(scene)
        let stage = try #require(scene.layout.areas.first { $0.id == "stage" }), exit = try #require(scene.layout.areas.first { $0.id == "exit" })
        // The stage's black ink: its right end lower than its left by about tan 12° of its length.
        var ink: [(Int, Int)] = []
        for y in stage.rect.y..<stage.rect.maxY { for x in stage.rect.x..<stage.rect.maxX where close(image.pixel(x, y), 0xFF00_0000, tolerance: 40) { ink.append((x, y)) } }
        // (Leave out the black border: only pixels well inside the shape's box.)
        ink = ink.filter { p in stage.text.map { abs(Double(p.1) - $0.y) < 40 && abs(Double(p.0) - $0.x) < 150 } ?? false }
        let xs = ink.map(\.0), x0 = xs.min() ?? 0, x1 = xs.max() ?? 0
        func meanY(_ r: ClosedRange<Int>) -> Double {
            let ys = ink.filter { r.contains($0.0) }.map { Double($0.1) }
            return ys.reduce(0, +) / Double(max(1, ys.count))
        }
        let third = (x1 - x0) / 3
        let drop = meanY((x1 - third)...x1) - meanY(x0...(x0 + third))
        let want = tan(12 * Double.pi / 180) * Double(2 * third)
        #expect(!ink.isEmpty && abs(drop - want) < want * 0.35, "the stage text drops \(drop) px over its length (want about \(want))")
        // The exit text stands upright: its red ink is taller than wide.
        var red: [(Int, Int)] = []
        for y in exit.rect.y..<exit.rect.maxY { for x in exit.rect.x..<exit.rect.maxX where close(image.pixel(x, y), 0xFFCC_0000, tolerance: 40) { red.append((x, y)) } }
        let w = (red.map(\.0).max() ?? 0) - (red.map(\.0).min() ?? 0), h = (red.map(\.1).max() ?? 0) - (red.map(\.1).min() ?? 0)
        #expect(!red.isEmpty && h > 3 * w, "the exit text's ink is \(w) × \(h)")
        // The SVG turns the same texts.
        let svg = try Renderer.svg(scene)
        #expect(svg.contains("transform=\"rotate(12 ") && svg.contains("transform=\"rotate(-90 "), "\(svg.prefix(2000))")
        // A viewport over the turned text is the crop of the full render.
        let big = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1.37, scale: 2)
        let full = try Renderer.raster(big)
        let t = ViewTransform(layout: big.layout, viewportWidth: 180, viewportHeight: 140, offsetX: 120, offsetY: 40)
        let view = try Renderer.raster(big, viewport: t)
        let r = t.visiblePixels.intersection(big.layout.bounds)
        let d = ExactPixelsTests.differences(view.rgbaPixels(), ExactPixelsTests.crop(full.rgbaPixels(), width: full.width, r), width: r.w)
        #expect(d.count == 0, "viewport \(r): \(d.count) pixels differ")
        // Exported as written.
        let exported = PretixTests.export(hall), original = try JSONParser.parse(source.bytes)
        #expect(PretixTests.canonical(exported) == PretixTests.canonical(original), "\(PretixTests.firstDifference(exported, original) ?? "")")
    }
}
